// The chat panel of the game page and the spectators' page (docs/server.md, "Chat").
//
// game.js owns the WebSocket: it hands this script every chat message it gets
// (chat_status, chat, reported) with the function that sends. Everything people wrote
// goes into the page as text (textContent, through CasinoDom), never as HTML, and each
// line is isolated (<bdi>) so that its direction cannot turn the next lines around.
"use strict";

(() => {
  const root = document.getElementById("chat");
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const { el, fill, add } = window.CasinoDom;
  const { _ } = window.CasinoI18n;
  const MAX_LINES = 200; // the page keeps the latest lines only

  let send = null;
  let status = null; // the server's chat_status
  const seen = new Set(); // line ids shown (a reconnection is sent the recent ones again)

  // The quick phrases' words in the page's language (the page carries them); the
  // server's (English) words for a phrase the page does not know.
  let ownPhrases = {};
  try { ownPhrases = JSON.parse(root.dataset.phrases || "{}"); } catch { ownPhrases = {}; }

  function phraseWords(code) {
    return ownPhrases[code] || (status && status.phrases && status.phrases[code]) || code;
  }

  function renderStatus() {
    root.hidden = false;
    const open = status.open;
    $("chat-title").textContent = status.room === "spectators" ? _("Spectators' chat") : _("Chat");
    $("chat-reason").hidden = open;
    $("chat-reason").textContent = status.reason || "";
    $("chat-form").hidden = !open;
    $("chat-phrases").hidden = !open;
    $("chat-text").maxLength = status.length;
    $("chat-off").checked = status.off;
    $("chat-off").disabled = !open && !status.off;
    fill($("chat-phrases"), Object.keys(status.phrases).map((code) =>
      el("button", { type: "button", class: "button small chat-phrase", text: phraseWords(code),
                     dataset: { phrase: code },
                     onclick: () => send && send({ type: "chat", phrase: code }) })));
    const muted = status.muted || [];
    $("chat-muted").hidden = muted.length === 0;
    fill($("chat-muted"), muted.length ? _("Muted:") + " " : null, muted.map((m) =>
      el("span", { class: "chat-muted-name" }, el("bdi", { text: m.name }), " ",
         el("button", { type: "button", class: "link-button chat-unmute", text: _("unmute"),
                        title: _("Show this person's messages again"),
                        onclick: () => send && send({ type: "unmute", mute: m.id }) }))));
    // The lines already shown of someone just muted go too (the server sends no more).
    const names = new Set(muted.map((m) => m.name));
    for (const item of [...$("chat-lines").children]) {
      const name = item.querySelector(".chat-name");
      if (!item.classList.contains("mine") && name && names.has(name.textContent)) item.remove();
    }
    if (status.off || !open) {
      fill($("chat-lines"));
      seen.clear();
    }
  }

  function showLine(line) {
    if (seen.has(line.id)) return;
    seen.add(line.id);
    const said = line.text !== null && line.text !== undefined ? line.text : phraseWords(line.phrase);
    const item = el("li", { class: "chat-line" + (line.mine ? " mine" : "") + (line.phrase ? " phrase" : ""),
                            dataset: { id: String(line.id), room: line.room } },
      el("bdi", { class: "chat-name", text: line.name }), ": ",
      el("bdi", { class: "chat-text", text: said }));
    if (!line.mine) {
      add(item, " ",
        el("button", { type: "button", class: "link-button chat-mute", text: _("mute"),
                       title: _("Hide this person's messages (for you only)"),
                       onclick: () => send && send({ type: "mute", message: line.id }) }),
        " ",
        el("button", { type: "button", class: "link-button chat-report", text: _("report"),
                       title: _("Report this message to the server's operators"),
                       onclick: () => send && send({ type: "report", message: line.id }) }));
    }
    const lines = $("chat-lines");
    add(lines, item);
    while (lines.children.length > MAX_LINES) lines.firstChild.remove();
    lines.scrollTop = lines.scrollHeight;
  }

  function reported(id) {
    const item = $("chat-lines").querySelector(`li[data-id="${Number(id)}"]`);
    if (item) {
      const button = item.querySelector(".chat-report");
      if (button) { button.textContent = _("reported"); button.disabled = true; }
    }
    $("chat-note").textContent = _("Thank you: the message was reported to the operators.");
  }

  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const box = $("chat-text");
    const text = box.value.trim();
    if (!text || !send) return;
    if (send({ type: "chat", text: box.value })) box.value = "";
  });
  $("chat-off").addEventListener("change", (e) => {
    if (send) send({ type: "chat_off", off: e.target.checked });
  });

  window.CasinoChat = Object.freeze({
    // A message from the server; ``sender`` sends one back (false when not connected).
    receive(msg, sender) {
      send = sender;
      if (msg.type === "chat_status") {
        status = msg;
        renderStatus();
      } else if (msg.type === "chat" && status && !status.off) {
        showLine(msg);
      } else if (msg.type === "reported") {
        reported(msg.message);
      }
    },
  });
})();

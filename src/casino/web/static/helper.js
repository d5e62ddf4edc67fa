// Move helper page: tap the cards of a real table and hand, and the server's engine lists
// the legal plays in words, best first by the judge with why, with the strongest bot's pick marked. The
// list is capped (a crowded table has hundreds of thousands of plays) and says how many
// more there are; a card of the hand (with the table cards selected) lists that card's own
// plays. The page only describes the position; the rules (what is legal, what a build may
// be) are the engine's.
"use strict";

(() => {
  const KEY = "casino.helper.v1";
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
  const SUITS = ["s", "h", "d", "c"];
  const SUIT_NAMES = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
  const $ = (id) => document.getElementById(id);

  const { el } = window.CasinoDom;

  function cardName(text) {
    const r = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" }[text[0]] || text[0];
    return `${r} of ${SUIT_NAMES[text[1]]}`;
  }

  function img(text) {
    return el("img", { class: "card-img", src: `/svg/card/${text}.svg`, alt: cardName(text), draggable: "false" });
  }

  const presets = JSON.parse($("helper-presets").textContent);
  // ?level=beginner marks that level's pick; ?level=none asks for no computer's pick.
  const levelParam = new URLSearchParams(location.search).get("level") || "expert";
  const level = levelParam === "none" ? null : levelParam;

  // table: [{kind: "card", card} | {kind: "build", groups: [[cards]], value, owner}]
  let state = { rules: presets[0].name, players: presets[0].players[0], table: [], hand: [], captured: [], setAside: [], opponents: [], stock: "", target: "table" };
  const selected = new Set();  // indices of loose table cards

  function preset() { return presets.find((p) => p.name === state.rules) || presets[0]; }

  function save() {
    try { localStorage.setItem(KEY, JSON.stringify(state)); } catch { /* private mode: fine */ }
  }

  function load() {
    try {
      const s = JSON.parse(localStorage.getItem(KEY) || "null");
      if (s && presets.some((p) => p.name === s.rules)) state = { ...state, ...s };
    } catch { /* a broken save is forgotten */ }
  }

  function used() {
    const n = new Map();
    const add = (c) => n.set(c, (n.get(c) || 0) + 1);
    for (const it of state.table) {
      if (it.kind === "card") add(it.card);
      else for (const g of it.groups) g.forEach(add);
    }
    state.hand.forEach(add);
    for (const pile of state.captured) pile.forEach(add);
    if (preset().set_aside) state.setAside.forEach(add);
    return n;
  }

  function changed() {
    save();
    render();
    $("plays").replaceChildren();
    $("plays-note").textContent = "The position changed: list the plays again.";
    $("plays-more").textContent = "";
    $("plays-cards").hidden = true;
    $("helper-error").hidden = true;
  }

  // ------------------------------------------------------------------
  // Drawing

  function renderMenus() {
    const rules = $("helper-rules");
    rules.replaceChildren(...presets.map((p) => el("option", { value: p.name, text: p.title, selected: p.name === state.rules })));
    const pl = $("helper-players");
    const counts = preset().players;
    if (!counts.includes(state.players)) state.players = counts[0];
    pl.replaceChildren(...counts.map((n) => el("option", {
      value: String(n), selected: n === state.players,
      text: preset().partnerships.includes(n) ? `${n} (partnerships)` : String(n),
    })));
  }

  // Seats as the engine's words name them: you are seat 0, seat 1 plays after you, ...
  function seatName(seat) {
    if (seat === 0) return "you";
    const partner = seat === 2 && preset().partnerships.includes(state.players);
    return partner ? "seat 2 (your partner)" : `seat ${seat}`;
  }

  function renderPicker() {
    const n = used();
    const decks = preset().decks || 1;
    $("picker").replaceChildren(...SUITS.map((s) => el("div", { class: "picker-row" }, RANKS.map((r) => {
      const text = r + s;
      const count = n.get(text) || 0;
      return el("button", {
        type: "button", class: "pick", "data-card": text, disabled: count >= decks,
        title: cardName(text), onclick: () => pick(text),
      }, img(text), count && decks > 1 ? el("span", { class: "used", text: String(count) }) : null);
    }))));
  }

  function renderTable() {
    const zone = $("table-zone");
    zone.replaceChildren();
    state.table.forEach((it, i) => {
      if (it.kind === "card") {
        zone.append(el("button", {
          type: "button", class: "zone-card" + (selected.has(i) ? " selected" : ""), "data-table-card": it.card,
          "aria-pressed": selected.has(i) ? "true" : "false", title: `${cardName(it.card)}: tap to select`,
          onclick: () => { if (selected.has(i)) selected.delete(i); else selected.add(i); render(); },
        }, img(it.card)));
      } else {
        const value = it.value === null || it.value === undefined || it.value === "" ? "?" : it.value;
        zone.append(el("div", { class: "zone-build", "data-build": String(i) },
          el("div", { class: "groups" }, it.groups.map((g) => el("div", { class: "group" }, g.map(img)))),
          el("span", { class: "build-badge" }, "build of ", el("strong", { text: String(value) }),
            el("span", { class: "owner", text: " · " + seatName(it.owner) })),
          el("span", {},
            el("button", {
              type: "button", class: "button", "data-add-group": String(i), disabled: !selected.size,
              title: "add the selected loose cards as another group (a multiple build)",
              onclick: () => addGroup(i),
            }, "+ group"),
            el("button", { type: "button", class: "button", onclick: () => breakBuild(i) }, "break up"))));
      }
    });
    if (!state.table.length) zone.append(el("p", { class: "zone-empty", text: "The table is empty." }));
    $("make-build").disabled = !selected.size;
    $("remove-selected").disabled = !selected.size;
    const owner = $("build-owner");
    const keep = owner.value;
    owner.replaceChildren(...Array.from({ length: state.players }, (_, s) => el("option", { value: String(s), text: s === 1 ? "seat 1 (plays after you)" : seatName(s) })));
    if (keep && Number(keep) < state.players) owner.value = keep;
  }

  function renderHand() {
    const zone = $("hand-zone");
    zone.replaceChildren(...state.hand.map((c, i) => el("button", {
      type: "button", class: "zone-card", "data-hand-card": c, title: `${cardName(c)}: tap to take it back`,
      onclick: () => { state.hand.splice(i, 1); changed(); },
    }, img(c))));
    if (!state.hand.length) zone.append(el("p", { class: "zone-empty", text: "Tap the cards you hold." }));
  }

  function renderExtra() {
    const box = $("helper-extra");
    const others = state.players - 1;
    state.opponents = Array.from({ length: others }, (_, i) => state.opponents[i] ?? "");
    box.replaceChildren(
      ...state.opponents.map((v, i) => el("label", {}, `Cards in ${seatName(i + 1)}'s hand`,
        el("input", {
          type: "number", min: "0", max: "52", id: `opponent-${i + 1}`, value: v, placeholder: "as yours",
          oninput: (e) => { state.opponents[i] = e.target.value; save(); },
        }))),
      el("label", {}, "Cards left to deal",
        el("input", {
          type: "number", min: "0", max: "104", id: "stock", value: state.stock, placeholder: "the rest",
          oninput: (e) => { state.stock = e.target.value; save(); },
        })));
  }

  function renderTargets() {
    const targets = [["table", "on the table"], ["hand", "in your hand"],
      ...Array.from({ length: state.players }, (_, s) => [`captured-${s}`, `captured by ${seatName(s)}`]),
      ...(preset().set_aside ? [["aside", "set aside (pictures)"]] : [])];
    if (!targets.some(([v]) => v === state.target)) state.target = "table";
    $("target-toggle").replaceChildren(...targets.map(([value, words]) => el("label", { class: "pill" },
      el("input", {
        type: "radio", name: "target", value, id: "target-" + value, checked: state.target === value,
        onchange: () => { state.target = value; save(); },
      }), el("span", { text: words }))));
  }

  function renderCaptured() {
    const box = $("captured-zone");
    box.replaceChildren();
    const piles = state.captured.map((pile, seat) => [pile, String(seat), `Captured by ${seatName(seat)}`]);
    if (preset().set_aside) piles.push([state.setAside, "aside", "Set aside"]);
    piles.forEach(([pile, key, words]) => {
      if (!pile.length) return;
      box.append(el("div", { class: "captured-pile", "data-pile": key },
        el("span", { class: "who", text: `${words} (${pile.length})` }),
        el("span", { class: "mini-cards" }, pile.map((c, i) => el("button", {
          type: "button", class: "mini-card", "data-captured-card": c, title: `${cardName(c)}: tap to take it back`,
          onclick: () => { pile.splice(i, 1); changed(); },
        }, img(c))))));
    });
  }

  function render() {
    state.captured = Array.from({ length: state.players }, (_, s) => state.captured[s] || []);
    for (const i of [...selected]) if (!state.table[i] || state.table[i].kind !== "card") selected.delete(i);
    renderMenus();
    renderPicker();
    renderTable();
    renderHand();
    renderExtra();
    renderTargets();
    renderCaptured();
  }

  // ------------------------------------------------------------------
  // Changes

  function pick(text) {
    if (state.target === "hand") state.hand.push(text);
    else if (state.target.startsWith("captured-")) state.captured[Number(state.target.slice(9))].push(text);
    else if (state.target === "aside") state.setAside.push(text);
    else state.table.push({ kind: "card", card: text });
    changed();
  }

  function takeSelected() {
    const idx = [...selected].sort((a, b) => a - b);
    const cards = idx.map((i) => state.table[i].card);
    state.table = state.table.filter((_, i) => !selected.has(i));
    selected.clear();
    return cards;
  }

  function makeBuild() {
    if (!selected.size) return;
    const raw = $("build-value").value.trim();
    const owner = Number($("build-owner").value || 0);
    const cards = takeSelected();
    state.table.push({ kind: "build", groups: [cards], value: raw === "" ? null : Number(raw), owner });
    $("build-value").value = "";
    changed();
  }

  function addGroup(i) {
    const build = state.table[i];  // the same object after the selected cards leave
    build.groups.push(takeSelected());
    changed();
  }

  function breakBuild(i) {
    const build = state.table[i];
    const loose = build.groups.flat().map((card) => ({ kind: "card", card }));
    state.table.splice(i, 1, ...loose);
    selected.clear();
    changed();
  }

  function request() {
    const table = state.table.map((it) => it.kind === "card" ? it.card
      : { groups: it.groups, owner: it.owner, value: it.value === "" || it.value === undefined ? null : it.value });
    const body = { rules: state.rules, players: state.players, table, hand: state.hand, level };
    if (state.opponents.some((v) => String(v).trim() !== "")) {
      body.opponents = state.opponents.map((v) => (String(v).trim() === "" ? state.hand.length : Number(v)));
    }
    if (String(state.stock).trim() !== "") body.stock = Number(state.stock);
    if (state.captured.some((pile) => pile.length)) body.captured = state.captured;
    if (preset().set_aside && state.setAside.length) body.set_aside = state.setAside;
    return body;
  }

  // What the list shows: "", or one card of the hand ({card, using: [table indices]}).
  let shownCard = null;

  async function listPlays(card = null) {
    const err = $("helper-error");
    const note = $("plays-note");
    const list = $("plays");
    err.hidden = true;
    list.replaceChildren();
    $("plays-more").textContent = "";
    note.textContent = level === "expert" ? "Thinking (the strongest computer takes about a second)…" : "Thinking…";
    const body = request();
    if (card) {
      body.card = card;
      // The loose table cards selected: that card's plays using them (those using exactly them first).
      body.using = [...selected].sort((a, b) => a - b);
    }
    const buttons = [$("list-plays"), ...document.querySelectorAll("#plays-cards button")];
    buttons.forEach((b) => { b.disabled = true; });
    let res, data;
    try {
      res = await fetch("/api/helper", {
        method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
      data = await res.json();
    } catch {
      res = { ok: false };
      data = { error: "the server cannot be reached: check the connection" };
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
    }
    if (!res.ok) {
      note.textContent = "";
      err.textContent = data.error || "the helper could not read this position";
      err.hidden = false;
      return;
    }
    shownCard = card ? { card, using: body.using } : null;
    const moves = data.moves || [];
    note.textContent = heading(data, moves.length);
    list.replaceChildren(...moves.map((m) => el("li", {
      class: "play" + (m.best ? " best" : ""), "data-move": m.move,
    },
      el("span", { class: "kind", text: m.kind }),
      el("span", { class: "play-words", text: m.words }),
      el("span", { class: "notation", text: m.move }),
      m.best ? el("span", { class: "pick-mark", text: `★ the ${data.level || "computer"}'s pick` }) : null,
      // The judge's value (expected round margin) and why, when the plays were judged.
      m.reason ? el("span", { class: "play-value", text: `${m.value >= 0 ? "+" : ""}${m.value.toFixed(1)}` }) : null,
      m.reason ? el("p", { class: "play-reason", text: m.reason }) : null)));
    $("plays-more").textContent = rest(data);
    if (data.best && !moves.some((m) => m.best)) {
      $("plays-more").textContent += ` The ${data.level || "computer"} would play ${data.best}.`;
    }
    renderCardChoice();
  }

  // "12 legal plays.", "The 40 strongest of 312 legal plays.", "8 plays: a selection …",
  // then, for judged plays, how they are ranked.
  function heading(data, n) {
    const plain = plainHeading(data, n);
    return data.judged ? `${plain} Best first by the judge (the post-game review's), each with its expected round margin and why.` : plain;
  }

  function plainHeading(data, n) {
    const whose = data.card ? ` of the ${cardName(data.card)}` + (data.using && data.using.length ? " with the selected table cards" : "") : "";
    if (data.complete && !data.more) return n === 1 ? `One legal play${whose}.` : `${n} legal plays${whose}.`;
    if (data.complete) return `The ${n} strongest of ${data.total} legal plays${whose}.`;
    return `${n} legal plays${whose}, strongest first: a selection (the table is crowded, too many plays to list).`;
  }

  function rest(data) {
    if (data.complete && !data.more) return "";
    const how = data.card
      ? "Select table cards and choose the card again to see its plays using them."
      : "Choose one of your cards below to see its own plays (select table cards first to see those using them).";
    if (data.complete) return `…and ${data.more} more. ${how}`;
    return (data.more ? `…and ${data.more} more found, and others. ` : "…and others. ") + how;
  }

  // After an answer: the hand's cards, each a button that lists its own plays.
  function renderCardChoice() {
    const box = $("plays-cards");
    const cards = [...new Set(state.hand)];
    box.replaceChildren(
      el("span", { class: "muted", text: "Plays of:" }),
      el("button", {
        type: "button", class: "button small", "data-plays-card": "", "aria-pressed": shownCard ? "false" : "true",
        onclick: () => listPlays(null),
      }, "every card"),
      ...cards.map((c) => el("button", {
        type: "button", class: "button small plays-card", "data-plays-card": c,
        "aria-pressed": shownCard && shownCard.card === c ? "true" : "false",
        title: `the plays of the ${cardName(c)}, using the selected table cards`,
        onclick: () => listPlays(c),
      }, img(c))));
    box.hidden = !cards.length;
  }

  // ------------------------------------------------------------------
  // Start

  load();
  $("helper-rules").addEventListener("change", (e) => {
    state.rules = e.target.value;
    state.players = preset().players.includes(state.players) ? state.players : preset().players[0];
    changed();
  });
  $("helper-players").addEventListener("change", (e) => {
    state.players = Number(e.target.value);
    state.table.forEach((it) => { if (it.kind === "build" && it.owner >= state.players) it.owner = 0; });
    changed();
  });
  $("make-build").addEventListener("click", makeBuild);
  $("remove-selected").addEventListener("click", () => { takeSelected(); changed(); });
  $("list-plays").addEventListener("click", () => listPlays(null));
  $("helper-clear").addEventListener("click", () => {
    state = { ...state, table: [], hand: [], captured: [], setAside: [], opponents: [], stock: "" };
    selected.clear();
    changed();
  });
  render();
})();

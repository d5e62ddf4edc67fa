// The replay page: step through a finished game's positions move by move.
// The record is public once the game is over, so every hand is shown open.
"use strict";

(() => {
  const SUITS = { s: "♠", c: "♣", h: "♥", d: "♦" };
  const $ = (id) => document.getElementById(id);
  const root = $("replay");
  const gameId = root.dataset.game || decodeURIComponent((location.pathname.split("/").filter(Boolean)[1] || "").replace(/\.rec$/, ""));

  let data = null;
  let step = 0;
  let offset = 1; // positions[i] follows moves[i - offset]

  const { el, fill, add, num, signed, text: optText } = window.CasinoDom;

  const cardLabel = (t) => (t[0] === "T" ? "10" : t[0]) + (SUITS[t[1]] || t[1]);
  let four = false;
  try { four = localStorage.getItem("casino-four-colour") === "1"; } catch { /* private mode */ }
  const cardImg = (t, cls) => el("img", { class: "card-img " + (cls || ""), src: `/svg/card/${encodeURIComponent(t)}.svg${four ? "?four=1" : ""}`, alt: cardLabel(t), width: "100", height: "140" });
  const backImg = (cls) => el("img", { class: "card-img back " + (cls || ""), src: "/svg/back.svg", alt: "", width: "100", height: "140" });

  function names() {
    const n = (data.positions[0] && data.positions[0].hands.length) || 2;
    return data.names && data.names.length ? data.names : Array.from({ length: n }, (_, i) => `Player ${i + 1}`);
  }

  // The sides that score (partners share one), each a list of seats.
  function sides() {
    const given = data.rules && data.rules.sides;
    return Array.isArray(given) && given.length ? given : names().map((_, s) => [s]);
  }

  function sideName(seat) {
    const sd = sides().find((x) => x.includes(seat)) || [seat];
    return sd.map((s) => names()[s] || `Player ${s + 1}`).join(" & ");
  }

  function moveAt(i) {
    const m = (data.moves || [])[i - offset];
    if (m === undefined || m === null) return null;
    return typeof m === "string" ? { text: m, words: m } : m;
  }

  function renderSeats(pos) {
    const box = $("replay-seats");
    fill(box);
    const nm = names();
    pos.hands.forEach((hand, s) => {
      const cards = Array.isArray(hand)
        ? el("div", { class: "hand small-hand" }, hand.map((c) => el("span", { class: "hand-card static" }, cardImg(c))))
        : el("div", { class: "backs" }, Array.from({ length: hand }, () => backImg("small")));
      const pile = (pos.piles || [])[s] || [];
      add(box, el("div", { class: "seat-box" + (pos.to_move === s && !pos.result ? " active" : "") },
        el("div", { class: "seat-head" + (pos.to_move === s && !pos.result ? " to-move" : "") },
          el("span", { class: "seat-name", text: nm[s] }),
          el("span", { class: "score", text: num((pos.scores || [])[s] ?? 0) })),
        cards,
        el("span", { class: "tally muted", text: `${num(pile.length)} cards taken · ♠ ${pile.filter((c) => c[1] === "s").length}` })));
    });
  }

  function renderTable(pos) {
    const box = $("replay-table");
    fill(box);
    if (!pos.table.length) add(box, el("p", { class: "empty-table", text: "The table is empty." }));
    for (const item of pos.table) {
      if (typeof item === "string") {
        add(box, el("div", { class: "table-item card static" }, cardImg(item)));
      } else {
        const stack = el("div", { class: "build-stack" }, (item.groups || []).map((g) => el("div", { class: "build-group" }, g.map((c) => cardImg(c)))));
        add(box, el("div", { class: "table-item build static" }, stack,
          el("span", { class: "build-badge" }, el("strong", { text: num(item.value) }),
            (item.groups || []).length > 1 ? " multiple" : "", el("span", { class: "owner", text: ` · ${optText(names()[item.owner])}` }))));
      }
    }
  }

  function renderScores(pos) {
    const box = $("replay-scores");
    fill(box);
    // A round's end shows the round as the server scored it (its items in words, as
    // "10♦"), and the totals after it; before, the totals the round started with.
    const scored = pos.result ? ((data.rounds || []).find((r) => r.round === pos.round) || pos.result) : null;
    const scores = (scored && scored.scores) || pos.scores || [];
    const list = el("p", {}, sides().map((sd) => `${sideName(sd[0])}: ${num(scores[sd[0]] ?? 0)}`).join(" · "));
    add(box, list);
    if (scored) {
      const items = el("ol", { class: "result-items" }, (scored.items || []).map((it) =>
        el("li", {}, el("span", { class: "item-name", text: it.item }), el("span", { class: "item-who", text: sideName(it.seat) }), el("span", { class: "item-points", text: signed(it.points) }))));
      add(box, el("p", { class: "muted", text: "Round scored, in counting order:" }), items);
    }
  }

  function show(i) {
    if (!data) return;
    const last = data.positions.length - 1;
    step = Math.max(0, Math.min(last, i));
    const pos = data.positions[step];
    $("step-slider").value = String(step);
    $("step-info").textContent = `${step} / ${last}`;
    const info = $("replay-info");
    const stock = typeof pos.stock === "number" ? pos.stock : (pos.stock || []).length;
    fill(info, el("span", { class: "chip", text: `Round ${num(pos.round)} · deal ${num(pos.deal)}` }), el("span", { class: "chip", text: `Stock ${num(stock)}` }));
    const m = moveAt(step);
    const mv = $("replay-move");
    fill(mv);
    if (m) {
      add(mv, el("span", { class: "label", text: `Move ${step - offset + 1}` }), " ", optText(m.words || m.text));
      mv.classList.remove("flash"); void mv.offsetWidth; mv.classList.add("flash");
    } else {
      mv.textContent = step === 0 ? "The start of the game." : "";
    }
    // Hints, take-backs, resignations and takeovers made at this step; the end of a
    // resigned game says so.
    const notes = (data.notes || []).filter((n) => n.position === step).map((n) => n.words);
    if (step === last && data.result && data.result.summary) notes.push(data.result.summary);
    fill($("replay-notes"), notes.map((w) => el("li", { text: w })));
    $("replay-notes").hidden = !notes.length;
    $("prev-button").disabled = step === 0;
    $("first-button").disabled = step === 0;
    $("next-button").disabled = step === last;
    $("last-button").disabled = step === last;
    renderSeats(pos);
    renderTable(pos);
    renderScores(pos);
  }

  $("first-button").addEventListener("click", () => show(0));
  $("prev-button").addEventListener("click", () => show(step - 1));
  $("next-button").addEventListener("click", () => show(step + 1));
  $("last-button").addEventListener("click", () => show(Infinity));
  $("step-slider").addEventListener("input", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT" && e.target.type !== "range") return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
    if (e.key in moves) { show(step + moves[e.key]); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(Infinity); e.preventDefault(); }
  });

  async function load() {
    $("download-link").href = `/records/${encodeURIComponent(gameId)}.rec`;
    try {
      const res = await fetch(`/api/records/${encodeURIComponent(gameId)}`, { credentials: "same-origin" });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(body.error || body.detail || `the server said ${res.status}`);
      data = body;
      if (!Array.isArray(data.positions) || !data.positions.length) throw new Error("the record has no positions");
      offset = (data.moves || []).length === data.positions.length ? 0 : 1;
      if (data.download) $("download-link").href = data.download;
      const r = data.rules || {};
      $("replay-title").textContent = `Replay: ${r.title || r.name || (typeof r === "string" ? r : "Casino")}`;
      $("replay-names").textContent = names().join(" · ");
      if (data.settings && data.settings.words) {
        $("replay-settings").textContent = data.settings.words;
        $("replay-settings").hidden = false;
      }
      $("step-slider").max = String(data.positions.length - 1);
      show(0);
    } catch (ex) {
      $("replay-error").textContent = `This replay cannot be shown: ${ex.message}`;
      $("replay-error").hidden = false;
    }
  }

  if (gameId) load();
})();

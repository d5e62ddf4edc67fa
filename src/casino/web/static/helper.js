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
  const $ = (id) => document.getElementById(id);

  const { el } = window.CasinoDom;
  const { _, ngettext } = window.CasinoI18n;
  // Each card's name in the page's language (the engine's card_name, as the page carries
  // it: "10 of diamonds", "ruutukymppi", "ruter tia").
  const CARD_NAMES = JSON.parse($("helper-cards").textContent);

  function cardName(text) {
    return CARD_NAMES[text] || text;
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
    $("plays-note").textContent = _("The position changed: list the plays again.");
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
      text: preset().partnerships.includes(n) ? _("%(n)s (partnerships)", { n }) : String(n),
    })));
  }

  // Seats as the engine's words name them: you are seat 0, seat 1 plays after you, ...
  function seatName(seat) {
    if (seat === 0) return _("you");
    const partner = seat === 2 && preset().partnerships.includes(state.players);
    return partner ? _("seat 2 (your partner)") : _("seat %(n)s", { n: seat });
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
          "aria-pressed": selected.has(i) ? "true" : "false", title: _("%(card)s: tap to select", { card: cardName(it.card) }),
          onclick: () => { if (selected.has(i)) selected.delete(i); else selected.add(i); render(); },
        }, img(it.card)));
      } else {
        const value = it.value === null || it.value === undefined || it.value === "" ? "?" : it.value;
        zone.append(el("div", { class: "zone-build", "data-build": String(i) },
          el("div", { class: "groups" }, it.groups.map((g) => el("div", { class: "group" }, g.map(img)))),
          el("span", { class: "build-badge" }, _("build of") + " ", el("strong", { text: String(value) }),
            el("span", { class: "owner", text: " · " + seatName(it.owner) })),
          el("span", {},
            el("button", {
              type: "button", class: "button", "data-add-group": String(i), disabled: !selected.size,
              title: _("add the selected loose cards as another group (a multiple build)"),
              onclick: () => addGroup(i),
            }, _("+ group")),
            el("button", { type: "button", class: "button", onclick: () => breakBuild(i) }, _("break up")))));
      }
    });
    if (!state.table.length) zone.append(el("p", { class: "zone-empty", text: _("The table is empty.") }));
    $("make-build").disabled = !selected.size;
    $("remove-selected").disabled = !selected.size;
    const owner = $("build-owner");
    const keep = owner.value;
    owner.replaceChildren(...Array.from({ length: state.players }, (unused, s) => el("option", { value: String(s), text: s === 1 ? _("seat 1 (plays after you)") : seatName(s) })));
    if (keep && Number(keep) < state.players) owner.value = keep;
  }

  function renderHand() {
    const zone = $("hand-zone");
    zone.replaceChildren(...state.hand.map((c, i) => el("button", {
      type: "button", class: "zone-card", "data-hand-card": c, title: _("%(card)s: tap to take it back", { card: cardName(c) }),
      onclick: () => { state.hand.splice(i, 1); changed(); },
    }, img(c))));
    if (!state.hand.length) zone.append(el("p", { class: "zone-empty", text: _("Tap the cards you hold.") }));
  }

  function renderExtra() {
    const box = $("helper-extra");
    const others = state.players - 1;
    state.opponents = Array.from({ length: others }, (unused, i) => state.opponents[i] ?? "");
    box.replaceChildren(
      ...state.opponents.map((v, i) => el("label", {}, _("Cards in %(seat)s's hand", { seat: seatName(i + 1) }),
        el("input", {
          type: "number", min: "0", max: "52", id: `opponent-${i + 1}`, value: v, placeholder: _("as yours"),
          oninput: (e) => { state.opponents[i] = e.target.value; save(); },
        }))),
      el("label", {}, _("Cards left to deal"),
        el("input", {
          type: "number", min: "0", max: "104", id: "stock", value: state.stock, placeholder: _("the rest"),
          oninput: (e) => { state.stock = e.target.value; save(); },
        })));
  }

  function renderTargets() {
    const targets = [["table", _("on the table")], ["hand", _("in your hand")],
      ...Array.from({ length: state.players }, (unused, s) => [`captured-${s}`, _("captured by %(seat)s", { seat: seatName(s) })]),
      ...(preset().set_aside ? [["aside", _("set aside (pictures)")]] : [])];
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
    const piles = state.captured.map((pile, seat) => [pile, String(seat), _("Captured by %(seat)s", { seat: seatName(seat) })]);
    if (preset().set_aside) piles.push([state.setAside, "aside", _("Set aside")]);
    piles.forEach(([pile, key, words]) => {
      if (!pile.length) return;
      box.append(el("div", { class: "captured-pile", "data-pile": key },
        el("span", { class: "who", text: `${words} (${pile.length})` }),
        el("span", { class: "mini-cards" }, pile.map((c, i) => el("button", {
          type: "button", class: "mini-card", "data-captured-card": c, title: _("%(card)s: tap to take it back", { card: cardName(c) }),
          onclick: () => { pile.splice(i, 1); changed(); },
        }, img(c))))));
    });
  }

  function render() {
    state.captured = Array.from({ length: state.players }, (unused, s) => state.captured[s] || []);
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
    state.table = state.table.filter((unused, i) => !selected.has(i));
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
    note.textContent = level === "expert" ? _("Thinking (the strongest computer takes about a second)…") : _("Thinking…");
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
      data = { error: _("the server cannot be reached: check the connection") };
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
    }
    if (!res.ok) {
      note.textContent = "";
      err.textContent = data.error || _("the helper could not read this position");
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
      m.best ? el("span", { class: "pick-mark", text: "★ " + _("the %(level)s's pick", { level: data.level || _("computer") }) }) : null,
      // The judge's value (expected round margin) and why, when the plays were judged.
      m.reason ? el("span", { class: "play-value", text: `${m.value >= 0 ? "+" : ""}${m.value.toFixed(1)}` }) : null,
      m.reason ? el("p", { class: "play-reason", text: m.reason }) : null)));
    $("plays-more").textContent = rest(data);
    if (data.best && !moves.some((m) => m.best)) {
      $("plays-more").textContent += " " + _("The %(level)s would play %(move)s.", { level: data.level || _("computer"), move: data.best });
    }
    renderCardChoice();
  }

  // "12 legal plays.", "The 40 strongest of 312 legal plays.", "8 plays: a selection …",
  // then, for judged plays, how they are ranked.
  function heading(data, n) {
    const plain = plainHeading(data, n);
    return data.judged ? plain + " " + _("Best first by the judge (the post-game review's), each with its expected round margin and why.") : plain;
  }

  function plainHeading(data, n) {
    const whose = !data.card ? ""
      : data.using && data.using.length
        ? _(" of the %(card)s with the selected table cards", { card: cardName(data.card) })
        : _(" of the %(card)s", { card: cardName(data.card) });
    if (data.complete && !data.more) return ngettext("One legal play%(whose)s.", "%(n)s legal plays%(whose)s.", n, { whose });
    if (data.complete) return _("The %(n)s strongest of %(total)s legal plays%(whose)s.", { n, total: data.total, whose });
    return _("%(n)s legal plays%(whose)s, strongest first: a selection (the table is crowded, too many plays to list).", { n, whose });
  }

  function rest(data) {
    if (data.complete && !data.more) return "";
    const how = data.card
      ? _("Select table cards and choose the card again to see its plays using them.")
      : _("Choose one of your cards below to see its own plays (select table cards first to see those using them).");
    if (data.complete) return _("…and %(more)s more.", { more: data.more }) + " " + how;
    return (data.more ? _("…and %(more)s more found, and others.", { more: data.more }) : _("…and others.")) + " " + how;
  }

  // After an answer: the hand's cards, each a button that lists its own plays.
  function renderCardChoice() {
    const box = $("plays-cards");
    const cards = [...new Set(state.hand)];
    box.replaceChildren(
      el("span", { class: "muted", text: _("Plays of:") }),
      el("button", {
        type: "button", class: "button small", "data-plays-card": "", "aria-pressed": shownCard ? "false" : "true",
        onclick: () => listPlays(null),
      }, _("every card")),
      ...cards.map((c) => el("button", {
        type: "button", class: "button small plays-card", "data-plays-card": c,
        "aria-pressed": shownCard && shownCard.card === c ? "true" : "false",
        title: _("the plays of the card %(card)s, using the selected table cards", { card: cardName(c) }),
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

// The game page: one WebSocket to /ws/<id>, the server's VIEW drawn as a table.
//
// The server is the only authority: this script never decides what is legal.
// The player picks a card and table items; the ways to play them come from the
// server: VIEW.legal lists a few moves of each card (VIEW.cards says whether that
// is all of them), and when the selection needs more, an "options" message asks
// for the moves of that card with those items. The chosen move's canonical text
// is sent. It only ever holds what the server sent to this seat (its
// observation), kept inside this closure rather than in globals.
"use strict";

(() => {
  const SUITS = { s: "♠", c: "♣", h: "♥", d: "♦" };
  const TABLE_KEYS = "abcdefghijklmnopqrstvwxyz"; // no "u": it is undo
  const MAX_BACKOFF_MS = 15000;
  const CLOSE_CODES_FINAL = new Set([4401, 4403, 4404, 4410]);
  const CLOSE_TOO_FAST = 4408; // flooded: wait before reconnecting, never at once
  const TOO_FAST_WAIT_MS = 30000;
  const HEARTBEAT_MS = 10000; // the server pings this often (its ping says so too)
  const OPTIONS_DELAY_MS = 150; // a selection is asked about once the player pauses

  const root = document.getElementById("game");
  // A spectator's page (/watch/<id>): the spectators' WebSocket, the public view, no hand
  // and nothing to do (docs/server.md, "Spectators").
  const watching = root.dataset.watch === "1";
  const gameId = root.dataset.game || decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const $ = (id) => document.getElementById(id);
  // The glossary's definitions of the move kinds and labels this ruleset shows, in its own
  // words (casino.words.glossary.kinds): the titles of the option buttons' kinds, the sweep
  // tally and the scored items. A word missing here has no title.
  const WORDS = (() => { try { return JSON.parse(root.dataset.words || "{}"); } catch (e) { return {}; } })();
  const wordTitle = (key, fallback) => WORDS[key] || fallback;

  // --- state (all of it from the server, for this seat only) ---
  let ws = null;
  let version = 0;
  let view = null;
  let backoff = 500;
  let reconnectTimer = null;
  let silenceTimer = null; // fires when the server has been silent past two heartbeats
  let heartbeatMs = HEARTBEAT_MS;
  let stopped = false;
  let pending = false; // a move/undo was sent; wait for the server's answer
  let selCard = null; // index into view.hand
  let selUses = new Set(); // table item ids
  // The server's answers to "options" for this board: selection key -> answer.
  let answers = new Map();
  let asked = new Map(); // "version|card|uses" of a request sent -> the board it was for
  let optionsTimer = null;
  let hint = null; // {move, words, reason, option}
  let askedRematch = false; // follow the rematch link only when this player asked for it
  let lastAnimated = null; // log number of the last move already animated
  let animateNow = false;
  let boardKey = "";

  // --- small DOM helpers (text only: names come from people) ---
  const { el, fill, add, num, signed, text: optText } = window.CasinoDom;
  const { _ } = window.CasinoI18n;
  // The move kinds' names on the option buttons (the server sends the kind's identifier).
  const KIND_WORDS = {
    trail: _("trail"), capture: _("capture"), build: _("build"), add: _("add"), raise: _("raise"),
  };

  function cardLabel(t) {
    return (t[0] === "T" ? "10" : t[0]) + (SUITS[t[1]] || t[1]);
  }

  let fourColour = false;
  try { fourColour = localStorage.getItem("casino-four-colour") === "1"; } catch { /* private mode */ }

  function cardImg(t, cls) {
    return el("img", {
      class: "card-img " + (cls || ""), src: `/svg/card/${encodeURIComponent(t)}.svg${fourColour ? "?four=1" : ""}`,
      alt: cardLabel(t), draggable: "false", width: "100", height: "140",
    });
  }

  function backImg(cls) {
    return el("img", { class: "card-img back " + (cls || ""), src: "/svg/back.svg", alt: "", draggable: "false", width: "100", height: "140" });
  }

  function cardsIn(text) {
    return (text || "").match(/\b(?:10|[A2-9TJQK])[schd]\b/gi) || [];
  }

  function seatName(s) {
    if (s === null || s === undefined || !view) return _("nobody");
    const n = (view.names && view.names[s]) || _("Player %(n)s", { n: s + 1 });
    return s === view.you && !/^you$/i.test(n) ? _("%(name)s (you)", { name: n }) : n;
  }

  function isPartner(s) {
    return view.rules && view.rules.partnerships && s !== view.you && s % 2 === view.you % 2;
  }

  // The sides that score: each a list of seats (two partners, or one player alone).
  function sides() {
    const given = view && view.rules && view.rules.sides;
    if (Array.isArray(given) && given.length) return given;
    const n = ((view && view.names) || []).length;
    return Array.from({ length: n }, (unused, s) => [s]);
  }

  // The side a seat plays for (a scored item names the side's first seat).
  function sideOf(seat) {
    const i = sides().findIndex((sd) => sd.includes(seat));
    return i < 0 ? 0 : i;
  }

  // A side by its players' names: "Ann (you) & Computer 2", or one name.
  function sideName(i) {
    return (sides()[i] || []).map(seatName).join(" & ") || "nobody";
  }

  // A side's score: its first seat's (partners' scores are the side's).
  function sideScore(scores, i) {
    const sd = sides()[i] || [];
    return sd.length ? (scores || [])[sd[0]] : undefined;
  }

  function toast(text, kind) {
    const t = el("div", { class: "toast " + (kind || ""), text });
    add($("toasts"), t);
    setTimeout(() => t.classList.add("fade"), 3500);
    setTimeout(() => t.remove(), 4300);
  }

  // --- connection ---
  function setConn(state, text) {
    const c = $("conn");
    c.dataset.state = state;
    c.textContent = text;
  }

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(msg));
      return true;
    }
    toast(_("Not connected: reconnecting…"), "error");
    return false;
  }

  function connect() {
    clearTimeout(reconnectTimer);
    reconnectTimer = null;
    if (stopped) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    setConn("connecting", _("connecting…"));
    const path = `${watching ? "watch/" : ""}${encodeURIComponent(gameId)}`;
    const sock = new WebSocket(`${proto}//${location.host}/ws/${path}`);
    ws = sock;
    sock.addEventListener("open", () => {
      backoff = 500;
      setConn("ok", _("connected"));
      listen(sock);
      // Ask for everything after the last version we have: a refresh or a dropped
      // connection resumes exactly where the game was.
      sock.send(JSON.stringify({ type: "hello", since: version }));
    });
    sock.addEventListener("message", (e) => {
      listen(sock);
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      handle(msg);
    });
    sock.addEventListener("close", (e) => {
      if (ws !== sock) return;
      ws = null;
      clearTimeout(silenceTimer);
      pending = false;
      asked = new Map();
      if (CLOSE_CODES_FINAL.has(e.code)) {
        stopped = true;
        setConn("closed", _("disconnected"));
        showStatus(e.reason || _("You have no seat in this game (or it no longer exists)."), "error");
        return;
      }
      scheduleReconnect(e.code === CLOSE_TOO_FAST ? TOO_FAST_WAIT_MS : null);
    });
  }

  // The server sends something at least every heartbeat; two beats of silence mean
  // the connection died without a word (a network change, a sleeping laptop): say so
  // and reconnect, rather than show "connected" over a dead line.
  function listen(sock) {
    clearTimeout(silenceTimer);
    silenceTimer = setTimeout(() => {
      if (ws !== sock) return;
      ws = null;
      try { sock.close(); } catch { /* already closing */ }
      setConn("retry", _("connection lost"));
      toast(_("The connection was lost: reconnecting…"), "error");
      scheduleReconnect();
    }, heartbeatMs * 2 + 2000);
  }

  function scheduleReconnect(fixedWait) {
    if (stopped || reconnectTimer) return;
    const wait = fixedWait || Math.min(MAX_BACKOFF_MS, backoff) * (0.75 + Math.random() * 0.5);
    backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
    setConn("retry", _("reconnecting in %(n)s s…", { n: Math.ceil(wait / 1000) }));
    reconnectTimer = setTimeout(connect, wait);
  }

  window.addEventListener("online", () => { if (!ws) connect(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !ws && !stopped) connect();
  });

  // --- messages ---
  function handle(msg) {
    switch (msg.type) {
      case "state": {
        const events = msg.events || [];
        if (typeof msg.version === "number") version = msg.version;
        pending = false;
        if (msg.view) applyView(msg.view);
        for (const ev of events) showEvent(ev);
        if (window.casinoClocks) window.casinoClocks.update(msg.clock || null, view, events); // clocks.js
        break;
      }
      case "ping":
        if (typeof msg.every === "number" && msg.every > 0) heartbeatMs = msg.every * 1000;
        send({ type: "pong" });
        break;
      case "hint":
        hint = { move: msg.move, words: msg.words, reason: msg.reason || "", option: msg.option || null };
        applyHint();
        break;
      case "options":
        takeOptions(msg);
        break;
      case "error":
        pending = false;
        showStatus(msg.message || _("That did not work."), "error");
        toast(msg.message || "error", "error");
        renderOptions();
        break;
      case "rematch":
        if (msg.url && askedRematch) location.href = msg.url;
        else if (view) { view.rematch = msg.url; renderRoundEnd(); }
        break;
      default: // the chat's messages are the chat panel's (chat.js)
        if (window.CasinoChat) window.CasinoChat.receive(msg, send);
        break;
    }
  }

  function showEvent(ev) {
    // Moves show in the last-move banner and the log, a round's end in its own panel.
    if (!ev || ["move", "round_end", "game_over"].includes(ev.kind)) return;
    if (ev.words) toast(ev.words, ev.kind);
  }

  function applyView(v) {
    const prevHint = hint;
    view = v;
    root.dataset.status = v.status || "";
    root.dataset.yourTurn = String(!!v.your_turn);
    root.dataset.version = String(v.version ?? version);
    root.dataset.seat = String(v.you);
    root.dataset.round = String(v.round ?? "");
    // A new position invalidates the selection (table ids are renumbered).
    const key = JSON.stringify([v.hand, v.table, v.legal && v.legal.map((o) => o.text)]);
    if (key !== boardKey) {
      boardKey = key;
      clearSelection(false);
      hint = null;
      answers = new Map();
      asked = new Map();
    } else {
      hint = prevHint;
    }
    render();
  }

  // --- actions ---
  function play(option) {
    if (!view || !view.your_turn || pending) return;
    if (send({ type: "play", move: option.text, version })) {
      pending = true;
      showStatus(_("Playing: %(move)s…", { move: option.words || option.text }));
      renderOptions();
    }
  }

  function askHint() {
    if (view && view.can_hint && send({ type: "hint" })) showStatus(_("Thinking about a hint…"));
  }

  function undo() {
    if (view && view.can_undo && !pending && send({ type: "undo", version })) pending = true;
  }

  // Resigning asks first, in the page (what it does depends on the table: the server says).
  function askResign() {
    if (!view || !view.can_resign) return;
    $("resign-words").textContent = _("Resign this game? %(what)s.", { what: capital(view.resign_words || "") });
    $("resign-confirm").hidden = false;
    $("resign-no").focus();
  }

  function resign() {
    $("resign-confirm").hidden = true;
    if (view && view.can_resign) send({ type: "resign" });
  }

  function claim() {
    const away = view && view.away;
    if (away && away.can_claim && send({ type: "claim", seat: away.seat, version })) {
      $("claim-button").disabled = true;
    }
  }

  function capital(text) {
    return text ? text[0].toUpperCase() + text.slice(1) : text;
  }

  function clearSelection(redraw = true) {
    selCard = null;
    selUses = new Set();
    if (redraw && view) renderSelection();
  }

  function pickCard(i) {
    if (!view || i < 0 || i >= view.hand.length) return;
    selCard = selCard === i ? null : i;
    renderSelection();
  }

  function toggleItem(id) {
    if (!view) return;
    if (selUses.has(id)) selUses.delete(id); else selUses.add(id);
    renderSelection();
  }

  // The hint is a move of the server's: its card and table items are picked for the
  // player, and it is offered first (Enter plays it) even where no list holds it.
  function applyHint() {
    if (!view || !hint) return;
    const opt = hint.option || (view.legal || []).find((o) => o.text === hint.move);
    if (opt) {
      const i = view.hand.indexOf(opt.card);
      if (i >= 0) selCard = i;
      selUses = new Set(opt.uses || []);
    }
    renderSelection();
    showStatus(hint.words, "hint");
    showReason();
  }

  // The hint's reason (what the move takes, what it leaves the next player, its margin
  // by the judge), under the status line while the hint stands.
  function showReason() {
    const r = $("hint-reason");
    r.textContent = hint && hint.reason ? hint.reason : "";
    r.hidden = !(hint && hint.reason);
  }

  // --- option matching (the server's lists and answers are the only authority) ---
  function sameSet(list, set) {
    return list.length === set.size && list.every((x) => set.has(x));
  }

  function cardInfo(card) {
    return (view.cards || []).find((c) => c.card === card) || null;
  }

  function selectionKey(card, uses) {
    return `${card}|${[...uses].sort().join(",")}`;
  }

  // The ways to play the picked card with the picked items: from VIEW.legal when its
  // list of the card covers the selection, else from the server's "options" answer
  // (asked for here, once the player pauses). `complete`: these are all of them;
  // `left`: how many more there are, when known; `waiting`: the answer is on its way.
  function matching() {
    const none = { all: [], exact: [], more: [], complete: true, left: 0, reason: null, waiting: false, unknown: null };
    if (!view || selCard === null) return none;
    const card = view.hand[selCard];
    const info = cardInfo(card);
    const all = (view.legal || []).filter((o) => o.card === card);
    let m;
    if (info && info.playable !== null && (selUses.size === 0 || info.complete)) {
      if (selUses.size === 0) {
        m = { ...none, all, exact: all, complete: info.complete, left: info.left };
      } else {
        const exact = all.filter((o) => sameSet(o.uses || [], selUses));
        const more = all.filter((o) => !sameSet(o.uses || [], selUses) && [...selUses].every((u) => (o.uses || []).includes(u)));
        m = { ...none, all, exact, more };
        // Nothing fits: the server says why.
        if (!exact.length && !more.length) m = withAnswer(m, card);
      }
    } else {
      m = withAnswer({ ...none, all, complete: false, left: null }, card);
    }
    // A hinted move comes first, so Enter plays it.
    const h = hint && hint.option;
    if (h && h.card === card && [...selUses].every((u) => (h.uses || []).includes(u))) {
      const rest = (list) => list.filter((o) => o.text !== h.text);
      if (sameSet(h.uses || [], selUses) || selUses.size === 0) {
        m = { ...m, exact: [h, ...rest(m.exact)], more: rest(m.more) };
      } else {
        m = { ...m, exact: rest(m.exact), more: [h, ...rest(m.more)] };
      }
    }
    return m;
  }

  function withAnswer(m, card) {
    const got = answers.get(selectionKey(card, selUses));
    if (!got) {
      askOptions();
      return { ...m, waiting: true };
    }
    return {
      ...m, exact: got.exact || [], more: got.more || [], complete: !!got.complete,
      left: got.left ?? null, reason: got.reason || null, unknown: got.unknown || null,
    };
  }

  // Ask the server about the selection once the player pauses; an answer for a
  // selection no longer made (or a board since changed) is kept but not shown.
  function askOptions() {
    clearTimeout(optionsTimer);
    optionsTimer = setTimeout(() => {
      if (!view || !view.your_turn || selCard === null) return;
      const card = view.hand[selCard];
      const uses = [...selUses];
      const key = selectionKey(card, uses);
      if (answers.has(key)) return;
      const sent = `${version}|${key}`;
      if (asked.has(sent)) return;
      if (send({ type: "options", card, uses, version })) asked.set(sent, boardKey);
    }, OPTIONS_DELAY_MS);
  }

  function takeOptions(msg) {
    if (!view || typeof msg.card !== "string" || !Array.isArray(msg.uses)) return;
    const key = selectionKey(msg.card, msg.uses);
    const sent = `${msg.version}|${key}`;
    const board = asked.get(sent);
    // The server answers a connection's requests in order and drops one still waiting
    // when a newer one comes: the requests sent before this one will get no answer.
    if (!asked.has(sent)) return; // not asked by this page (or before it reconnected)
    for (const k of [...asked.keys()]) {
      asked.delete(k);
      if (k === sent) break;
    }
    if (board !== boardKey) return; // asked about another board
    answers.set(key, msg);
    if (selCard !== null && selectionKey(view.hand[selCard], selUses) === key) renderSelection();
  }

  function itemById(id) {
    return (view.table || []).find((t) => t.id === id);
  }

  function itemWords(item) {
    if (!item) return "?";
    if (item.kind === "card") return cardLabel(item.card);
    const groups = (item.groups || []).map((g) => g.map(cardLabel).join(" + ")).join(", ");
    const values = { value: num(item.value), groups };
    return item.multiple ? _("the multiple %(value)s-build (%(groups)s)", values) : _("the %(value)s-build (%(groups)s)", values);
  }

  function itemText(item) {
    if (item.kind === "card") return item.card;
    return "[" + (item.groups || []).map((g) => g.join("+")).join(" ") + "]";
  }

  function listing(parts) {
    if (parts.length <= 1) return parts.join("");
    return _("%(some)s and %(last)s", { some: parts.slice(0, -1).join(", "), last: parts[parts.length - 1] });
  }

  // Say in words why the selection is no legal move, and which moves there are.
  function explainIllegal(card, uses, reason) {
    const cardName = cardLabel(card);
    const used = listing(uses.map((id) => itemWords(itemById(id))));
    const opts = (view.legal || []).filter((o) => o.card === card);
    const info = cardInfo(card);
    let text = reason
      ? _("The %(card)s cannot be played with %(used)s: %(reason)s.", { card: cardName, used, reason })
      : _("The %(card)s cannot be played with %(used)s.", { card: cardName, used });
    if (opts.length) {
      const ways = opts.map((o) => o.words || o.text).join("; ");
      const more = info && !info.complete
        ? (info.left ? _("; and %(n)s more.", { n: info.left }) : _("; and other ways.")) : ".";
      text += " " + _("With the %(card)s you can: %(ways)s", { card: cardName, ways }) + more;
    } else if (info && info.playable === false) {
      text += " " + _("The %(card)s has no legal play now.", { card: cardName });
    }
    $("explain").textContent = text;
    $("explain").className = "explain illegal";
  }

  // --- rendering ---
  function showStatus(text, kind) {
    const s = $("status");
    s.textContent = text;
    s.className = "status-line " + (kind || "");
  }

  function render() {
    animateNow = !!(view.last && view.last.n !== lastAnimated);
    renderInfo();
    renderInvite();
    renderAway();
    renderOpponents();
    renderTable();
    renderMe();
    renderHand();
    renderOptions();
    renderControls();
    renderRoundEnd();
    renderScores();
    renderTallies();
    renderLog();
    renderLastMove();
    renderStatus();
    renderLesson();
    animateNow = false;
    lastAnimated = view.last ? view.last.n : null;
  }

  // A lesson game (mode "lesson"): the step the server worked out from this seat's view.
  function renderLesson() {
    const step = view.lesson;
    $("lesson").hidden = !step;
    if (!step) return;
    $("lesson-title").textContent = _("Lesson: %(title)s", { title: step.title });
    $("lesson-text").textContent = step.text;
    $("lesson-general").textContent = step.general || "";
    const kinds = step.kinds || [];
    const learned = kinds.filter((k) => (step.learned || []).includes(k));
    const named = (k) => (step.names || {})[k] || k;  // the kinds' names in the page's language
    const learnedWords = learned.length ? learned.map(named).join(", ") : _("nothing yet");
    $("lesson-learned").textContent = _("Learned: %(learned)s (of %(kinds)s)", { learned: learnedWords, kinds: kinds.map(named).join(", ") });
    $("lesson-glossary").href = step.glossary;
    $("lesson-glossary").textContent = _("“%(term)s” in the glossary", { term: step.term });
    $("lesson-guide").href = step.guide;
  }

  function renderSelection() {
    renderTable();
    renderHand();
    renderOptions();
  }

  function renderInfo() {
    const r = view.rules || {};
    $("rules-title").textContent = r.title || r.name || "";
    $("round-info").textContent = view.deals
      ? _("Round %(round)s · deal %(deal)s of %(deals)s", { round: num(view.round), deal: num(view.deal), deals: num(view.deals) })
      : _("Round %(round)s · deal %(deal)s", { round: num(view.round), deal: num(view.deal) });
    $("stock-info").textContent = _("Stock %(n)s", { n: num(view.stock ?? 0) });
    const settings = view.settings || {};
    // A seeded game deals the same cards to anyone who knows its seed: say so to all.
    const words = [settings.words, typeof view.seed === "number" ? _("seed %(seed)s", { seed: view.seed }) : ""]
      .filter(Boolean).join(" · ");
    $("table-settings").textContent = words;
    $("table-settings").hidden = !words;
    // Rated or casual, as the server words it (a game against the computer is neither).
    $("table-rated").textContent = view.rated_words || "";
    $("table-rated").hidden = !view.rated_words;
    // Everyone at the table, and every spectator, is told how many watch.
    const count = view.spectators || 0;
    $("spectators-info").textContent = _("%(n)s watching", { n: num(count) });
    $("spectators-info").hidden = !count && !view.spectator;
    const turn = view.your_turn ? _("● Your turn · ") : "";
    const title = r.title || _("Game");
    document.title = `${turn}${title} · Casino`;
  }

  function renderInvite() {
    const box = $("invite");
    if (view.invite && view.status === "waiting") {
      box.hidden = false;
      const link = new URL(view.invite, location.origin).href;
      if ($("invite-link").value !== link) $("invite-link").value = link;
    } else {
      box.hidden = true;
    }
  }

  // A person away on their turn past the server's limit: the others may let the computer
  // play for them, or wait.
  function renderAway() {
    const box = $("away");
    const away = view.away;
    box.hidden = !away;
    if (!away) return;
    $("away-words").textContent = `${optText(away.words)}.`;
    const button = $("claim-button");
    button.textContent = _("Let the computer play for %(name)s", { name: optText(away.name) });
    button.hidden = !away.can_claim;
    button.disabled = pending;
  }

  // The ruleset's point cards in a pile ("penalty cards" in Krypkasino): the server names them.
  function pointCardsLabel() {
    return (view.rules && view.rules.point_cards_label) || _("point cards");
  }

  function pointBadges(cards) {
    if (!cards || !cards.length) return null;
    const label = pointCardsLabel();
    return el("span", { class: "keys", title: label[0].toUpperCase() + label.slice(1) + " taken" }, cards.map((k) => el("span", { class: "key-card suit-" + k[1], text: cardLabel(k) })));
  }

  function tallyLine(s) {
    const t = (view.tallies || [])[s];
    if (!t) return null;
    return el("span", { class: "tally" },
      el("span", { title: _("Cards taken") }, _("cards %(n)s", { n: num(t.cards) })), " ",
      el("span", { title: _("Spades taken") }, `♠ ${num(t.spades)}`), " ",
      t.sweeps ? el("span", { class: "sweeps", title: wordTitle("sweep", _("Sweeps")) }, _("sweeps %(n)s", { n: num(t.sweeps) })) : null, " ",
      pointBadges(t.point_cards));
  }

  // Who took the last capture gets the cards left on the table when the round ends: the
  // seat's head says so while the round is played (public: everyone saw the capture).
  function lastCaptureBadge(s) {
    if (view.status !== "playing" || view.last_capture !== s) return null;
    const side = sideName(sideOf(s));
    return el("span", {
      class: "badge last-capture", text: _("captured last"),
      title: _("%(name)s made the last capture: the cards left on the table at the end of the round go to %(side)s", { name: seatName(s), side }),
    });
  }

  function seatHead(s) {
    const who = (view.players || [])[s];
    const role = who === "human" ? "" : who ? _("computer · %(level)s", { level: who }) : "";
    const toMove = view.to_move === s && (view.status === "playing");
    const partners = sides()[sideOf(s)] || [s];
    const mates = partners.filter((p) => p !== s);
    // In partnerships a seat's score is its side's: the head names the partner, and the
    // number says whose it is.
    const scoreTitle = mates.length ? _("Team score: %(side)s", { side: sideName(sideOf(s)) }) : _("Score");
    return el("div", { class: "seat-head" + (toMove ? " to-move" : "") },
      el("span", { class: "seat-name", text: seatName(s), title: seatName(s) }),
      isPartner(s) ? el("span", { class: "badge partner", text: _("partner") }) : null,
      mates.length && s !== view.you && !isPartner(s)
        ? el("span", { class: "badge team", text: _("with %(names)s", { names: mates.map(seatName).join(" & ") }) }) : null,
      role ? el("span", { class: "muted role", text: role }) : null,
      toMove ? el("span", { class: "badge turn", text: s === view.you ? _("your turn") : _("to play") }) : null,
      lastCaptureBadge(s),
      el("span", { class: "score" + (mates.length ? " team-score" : ""), title: scoreTitle },
        mates.length ? el("span", { class: "score-label", text: _("team") + " " }) : null,
        num((view.scores || [])[s] ?? 0)),
    );
  }

  function renderOpponents() {
    const box = $("opponents");
    fill(box);
    const n = (view.names || []).length || (view.hand_counts || []).length;
    // A spectator holds no seat: every seat is shown as another's, from the first.
    const base = view.spectator ? 0 : view.you;
    for (let k = view.spectator ? 0 : 1; k < n; k++) {
      const s = (base + k) % n;
      const count = (view.hand_counts || [])[s] || 0;
      const backs = el("div", { class: "backs", "aria-label": _("%(n)s cards in hand", { n: count }) });
      for (let i = 0; i < Math.min(count, 12); i++) add(backs, backImg("small"));
      add(box, el("div", { class: "seat-box opponent" + (isPartner(s) ? " partner" : "") + (view.to_move === s && view.status === "playing" ? " active" : ""), dataset: { seat: String(s) } },
        seatHead(s),
        el("div", { class: "opp-row" }, backs, el("span", { class: "count", text: _("%(n)s in hand", { n: count }) })),
        tallyLine(s)));
    }
  }

  function renderTable() {
    const box = $("table");
    fill(box);
    const table = view.table || [];
    const m = matching();
    const known = [...m.all, ...m.exact, ...m.more];
    const usable = new Set(known.flatMap((o) => o.uses || []));
    // An item is marked as unusable only when the server's word is in: all the moves
    // are known, or the selection has none.
    const settled = m.complete || (!m.waiting && !m.exact.length && !m.more.length);
    if (!table.length) add(box, el("p", { class: "empty-table", text: _("The table is empty.") }));
    table.forEach((item, i) => {
      const key = TABLE_KEYS[i] || "";
      const classes = ["table-item", item.kind];
      if (selUses.has(item.id)) classes.push("selected");
      if (selCard !== null && usable.has(item.id)) classes.push("usable");
      if (selCard !== null && settled && selUses.has(item.id) && !usable.has(item.id)) classes.push("unusable");
      const label = item.kind === "card" ? cardLabel(item.card) : itemWords(item);
      const btn = el("button", {
        type: "button", class: classes.join(" "), dataset: { id: item.id, key, text: itemText(item) },
        "aria-pressed": String(selUses.has(item.id)), title: `${label} (${key})`,
        onclick: () => toggleItem(item.id),
      });
      if (item.kind === "card") {
        add(btn, cardImg(item.card));
      } else {
        const stack = el("div", { class: "build-stack" });
        for (const g of item.groups || []) {
          add(stack, el("div", { class: "build-group" }, g.map((c) => cardImg(c))));
        }
        add(btn, stack, el("span", { class: "build-badge" },
          el("strong", { text: num(item.value) }),
          item.multiple ? el("span", { text: " " + _("multiple") }) : null,
          el("span", { class: "owner", text: ` · ${seatName(item.owner)}` })));
      }
      add(btn, el("kbd", { class: "item-key", text: key }));
      add(box, btn);
    });
    markFresh();
  }

  function renderMe() {
    $("me").hidden = !!view.spectator;
    $("options").hidden = !!view.spectator;
    document.querySelector(".controls").hidden = !!view.spectator;
    if (view.spectator) return;
    const head = seatHead(view.you);
    const t = tallyLine(view.you);
    $("me-head").replaceWith(el("div", { class: "seat-head-wrap", id: "me-head" }, head, t));
    $("me").classList.toggle("active", !!view.your_turn);
  }

  function renderHand() {
    const box = $("hand");
    fill(box);
    (view.hand || []).forEach((c, i) => {
      const classes = ["hand-card"];
      const info = cardInfo(c);
      if (selCard === i) classes.push("selected");
      if (view.your_turn && info && info.playable === false) classes.push("blocked");
      add(box, el("button", {
        type: "button", class: classes.join(" "), dataset: { card: c, key: String(i + 1) },
        "aria-pressed": String(selCard === i), title: `${cardLabel(c)} (${i + 1})`,
        onclick: () => pickCard(i),
      }, cardImg(c), el("kbd", { class: "item-key", text: String(i + 1) })));
    });
    if (!(view.hand || []).length && view.status === "playing") {
      add(box, el("p", { class: "muted", text: _("No cards in hand: wait for the next deal.") }));
    }
  }

  function optionButton(o, primary) {
    return el("button", {
      type: "button", class: "button option" + (primary ? " primary" : "") + (hint && hint.move === o.text ? " hinted" : ""),
      dataset: { move: o.text, kind: o.kind },
      disabled: pending || !view.your_turn, title: o.text, onclick: () => play(o),
    }, el("span", { class: "kind", text: KIND_WORDS[o.kind] || o.kind, title: wordTitle(o.kind, o.kind) }), " ", o.words || o.text);
  }

  function renderOptions() {
    const box = $("option-buttons");
    const explain = $("explain");
    fill(box);
    explain.className = "explain";
    if (!view) return;
    if (view.status !== "playing") { explain.textContent = ""; return; }
    if (!view.your_turn) {
      explain.textContent = selCard !== null ? _("It is not your turn yet: you can look, and play when it is.") : "";
      return;
    }
    if (selCard === null) {
      explain.textContent = selUses.size ? _("Now pick the card from your hand to play with them.") : _("Pick a card from your hand (or press its number).");
      return;
    }
    const card = view.hand[selCard];
    const info = cardInfo(card);
    const m = matching();
    if (info && info.playable === false && !m.exact.length && !m.more.length) {
      explain.className = "explain illegal";
      explain.textContent = _("The %(card)s has no legal play now (you must keep a card for your build, or another rule stands in the way). Pick another card.", { card: cardLabel(card) });
      return;
    }
    if (m.exact.length || m.more.length) {
      if (selUses.size === 0) {
        explain.textContent = _("Ways to play the %(card)s: pick table items to narrow them, or choose one.", { card: cardLabel(card) });
      } else if (m.exact.length) {
        explain.textContent = m.exact.length === 1 ? _("Play it:") : _("Choose how (this is where a build's value is announced):");
      } else {
        explain.textContent = _("These plays use what you picked and more:");
      }
      m.exact.forEach((o, i) => add(box, optionButton(o, i === 0)));
      if (m.more.length && m.exact.length) add(box, el("p", { class: "muted more-note", text: _("Using more of the table:") }));
      m.more.forEach((o) => add(box, optionButton(o, false)));
      const note = capNote(m);
      if (note) add(box, el("p", { class: "muted more-note cap-note", text: note }));
      else if (m.waiting) add(box, el("p", { class: "muted more-note", text: _("Looking for other ways…") }));
      return;
    }
    if (m.waiting) {
      explain.textContent = _("Working out what the %(card)s can do with what you picked…", { card: cardLabel(card) });
      return;
    }
    if (m.unknown) {
      explain.className = "explain illegal";
      explain.textContent = capital(m.unknown) + ".";
      return;
    }
    // The selection matches no legal option: explain (the server's reason), change nothing.
    explainIllegal(card, [...selUses], m.reason);
  }

  // What a list leaves out: "and N more" where the server counted them, else that
  // picking table items shows other ways.
  function capNote(m) {
    if (m.complete) return "";
    if (m.unknown) return capital(m.unknown) + ".";
    if (m.left) return _("And %(n)s more: pick table cards to narrow them down.", { n: m.left });
    if (m.waiting) return "";
    return selUses.size ? _("There may be other ways: pick more table cards to see them.") : _("Pick table cards to see other ways.");
  }

  function renderControls() {
    const settings = view.settings || {};
    $("hint-button").hidden = !settings.hints;
    $("undo-button").hidden = !settings.takebacks;
    $("hint-button").disabled = !view.can_hint;
    $("undo-button").disabled = !view.can_undo || pending;
    $("resign-button").hidden = !view.can_resign;
    if (!view.can_resign) $("resign-confirm").hidden = true;
  }

  function renderStatus() {
    showReason();
    if (hint) return;
    const s = view.status;
    if (view.message) { showStatus(view.message); return; }
    if (s === "waiting") showStatus(_("Waiting for players to join…"));
    else if (s === "over") showStatus(_("The game is over."));
    else if (s === "round_over") showStatus(_("The round is over."));
    else if (view.your_turn) showStatus(_("Your turn: pick a card."), "turn");
    else if (view.to_move !== null && view.to_move !== undefined) {
      const who = (view.players || [])[view.to_move];
      showStatus(who && who !== "human" ? _("%(name)s is thinking…", { name: seatName(view.to_move) }) : _("Waiting for %(name)s…", { name: seatName(view.to_move) }));
    } else showStatus("");
  }

  // A scored item: what, which side (both partners named), the points with their sign,
  // and (at a round's end) every side's running total.
  function itemLine(it, running) {
    const totals = running && Array.isArray(it.running)
      ? sides().map((sd) => num(it.running[sd[0]])).join(" – ") : null;
    return el("li", { class: it.points < 0 ? "minus" : null },
      el("span", { class: "item-name", text: optText(it.item), title: wordTitle(it.item, null) }),
      el("span", { class: "item-who", text: sideName(sideOf(it.seat)) }),
      el("span", { class: "item-points", text: signed(it.points) }),
      totals ? el("span", { class: "running muted", text: totals }) : null);
  }

  function resultTable(result) {
    const items = result.items || [];
    const list = el("ol", { class: "result-items" }, items.map((it) => itemLine(it, true)));
    if (!items.length) add(list, el("li", { class: "muted", text: _("No points this round.") }));
    const scores = result.scores || view.scores || [];
    const totals = el("p", { class: "totals" }, _("Totals:") + " ",
      sides().map((sd, i) => `${sideName(i)}: ${num(sideScore(scores, i))}`).join(" · "));
    return [list, totals];
  }

  // "Ann (you) win", "Computer 1 & Computer 3 win", "Bob wins".
  function winnerWords(seat) {
    const i = sideOf(seat);
    const plural = (sides()[i] || []).length > 1 || seat === view.you;
    return plural ? _("%(names)s win", { names: sideName(i) }) : _("%(name)s wins", { name: sideName(i) });
  }

  function renderRoundEnd() {
    const box = $("round-end");
    const over = view.game_over || view.status === "over";
    if (!(view.status === "round_over" || over) || !view.result) {
      box.hidden = true;
      fill(box);
      return;
    }
    const wasHidden = box.hidden;
    box.hidden = false;
    const r = view.result;
    const winner = view.winner ?? r.winner;
    const title = over
      ? (winner === null || winner === undefined ? _("Game over") : _("Game over: %(winner)s!", { winner: winnerWords(winner) }))
      : _("Round %(round)s is over", { round: optText(view.round) });
    const actions = el("div", { class: "form-actions" });
    if (over) {
      add(actions,
        view.spectator ? null : view.daily
          ? el("a", { class: "button primary", id: "daily-results", href: view.daily, text: _("See the results") })
          : view.rematch
          ? el("a", { class: "button primary", id: "rematch-button", href: view.rematch, text: _("Join the rematch") })
          : el("button", { type: "button", class: "button primary", id: "rematch-button", onclick: () => { askedRematch = true; send({ type: "rematch" }); }, text: _("Rematch") }),
        el("a", { class: "button", href: `/records/${encodeURIComponent(gameId)}`, text: _("Replay this game") }),
        Number.isInteger(view.you)
          ? el("a", { class: "button", id: "review-link", href: `/records/${encodeURIComponent(gameId)}?seat=${view.you}#review`, text: _("Review my play") })
          : null,
        el("a", { class: "button", href: `/records/${encodeURIComponent(gameId)}.rec`, download: "", text: _("Download record") }),
        el("a", { class: "button", href: "/", text: _("Lobby") }));
    } else if (!view.spectator) {
      add(actions, el("button", { type: "button", class: "button primary", id: "next-round-button", onclick: (e) => { e.currentTarget.disabled = true; send({ type: "next_round", version }); }, text: _("Next round") }));
    }
    fill(box,
      el("h2", { text: title }),
      r.summary ? el("p", { class: "summary", text: r.summary }) : null,
      el("p", { class: "muted", text: _("Scored in counting order:") }),
      resultTable(r),
      ...(r.ties || []).map((t) => el("p", { class: "tie", text: t })),
      actions);
    if (wasHidden) box.scrollIntoView({ behavior: "smooth", block: "nearest" });
  }

  // The score pad: a column for each side (partners share one), whose heading wraps
  // rather than cut a name; each round's label opens its items.
  function renderScores() {
    const box = $("scores");
    const sds = sides();
    const cols = String(sds.length);
    const head = el("tr", {}, sds.map((sd, i) => el("th", { scope: "col", class: "side-name", text: sideName(i), title: sideName(i) })));
    const body = el("tbody");
    const rounds = [...(view.rounds || [])];
    // The round just finished is shown (and scored) before the server files it.
    if (view.result && !rounds.some((r) => r.round === view.round)) {
      rounds.push({ round: view.round, items: view.result.items, scores: view.result.scores });
    }
    for (const rnd of rounds) {
      const gained = sds.map(() => 0);
      for (const it of rnd.items || []) gained[sideOf(it.seat)] += it.points;
      const details = el("details", {},
        el("summary", {}, _("Round %(round)s", { round: optText(rnd.round) }), el("span", { class: "muted", text: " · " + _("items") })),
        el("ol", { class: "result-items small" }, (rnd.items || []).map((it) => itemLine(it, false))));
      add(body,
        el("tr", { class: "items-row" }, el("th", { colspan: cols, scope: "colgroup" }, details)),
        el("tr", { class: "round-row", dataset: { round: optText(rnd.round) } }, gained.map((g, i) => el("td", {},
          el("span", { class: "gain", text: signed(g) }), " ", el("strong", { text: num(sideScore(rnd.scores, i)) })))));
    }
    add(body,
      el("tr", { class: "total-head" }, el("th", { colspan: cols, scope: "colgroup", text: _("Now") })),
      el("tr", { class: "total-row" }, sds.map((sd, i) => el("td", {}, el("strong", { text: num(sideScore(view.scores, i)) })))));
    const r = view.rules || {};
    const goal = view.daily
      ? (r.penalties ? _("The daily deal: one round, scored by the computer's penalty points less yours.")
        : _("The daily deal: one round, scored by your points less the computer's."))
      : r.penalties ? _("Penalty points: the lower total wins.")
      : typeof r.target === "number" && r.target > 0 ? _("Playing to %(n)s.", { n: r.target }) : null;
    fill(box, el("table", { class: "score-pad" }, el("thead", {}, head), body),
      goal ? el("p", { class: "muted", text: goal }) : null);
  }

  function tallyRow(name, t, cls) {
    return el("tr", { class: cls || null },
      el("th", { text: name }),
      el("td", { text: num(t.cards) }), el("td", { text: num(t.spades) }), el("td", { text: num(t.sweeps) }),
      el("td", {}, pointBadges(t.point_cards) || "–"));
  }

  function renderTallies() {
    const box = $("tallies");
    const tallies = view.tallies || [];
    const rows = tallies.map((t, s) => tallyRow(seatName(s), t));
    // Partners' cards count together (most cards, most spades): a row for each team.
    const teams = sides().filter((sd) => sd.length > 1).map((sd) => {
      const mine = sd.map((s) => tallies[s]).filter(Boolean);
      const sum = (k) => mine.reduce((a, t) => a + (Number(t[k]) || 0), 0);
      return tallyRow(sd.map(seatName).join(" & "),
        { cards: sum("cards"), spades: sum("spades"), sweeps: sum("sweeps"), point_cards: mine.flatMap((t) => t.point_cards || []) },
        "team-row");
    });
    fill(box, el("table", { class: "tallies" },
      el("thead", {}, el("tr", {}, el("th", { text: "" }), el("th", { text: _("cards") }), el("th", { text: "♠" }), el("th", { text: _("sweeps") }), el("th", { text: pointCardsLabel() }))),
      el("tbody", {}, rows),
      teams.length ? el("tbody", { class: "teams" }, teams) : null));
  }

  function renderLog() {
    const box = $("log");
    fill(box);
    const log = view.log || [];
    let prev = null;
    for (const e of log) {
      const where = `${e.round}.${e.deal}`;
      if (where !== prev) {
        add(box, el("li", { class: "log-head", text: _("Round %(round)s, deal %(deal)s", { round: num(e.round), deal: num(e.deal) }) }));
        prev = where;
      }
      const isLast = view.last && e.n === view.last.n;
      add(box, el("li", { class: "log-entry" + (isLast ? " last" : "") + (e.seat === view.you ? " mine" : ""), title: e.text || "" }, e.words || e.text));
    }
    box.scrollTop = box.scrollHeight;
  }

  function renderLastMove() {
    const box = $("last-move");
    const last = view.last;
    if (!last) { fill(box); box.hidden = true; return; }
    box.hidden = false;
    const cards = cardsIn(last.text);
    fill(box,
      el("span", { class: "label", text: _("Last move") }),
      el("span", { class: "mini-cards" }, cards.map((c) => cardImg(c.length === 3 ? "T" + c[2] : c[0].toUpperCase() + c[1].toLowerCase(), "mini"))),
      el("span", { class: "words", text: last.words || last.text || "" }));
    if (animateNow) {
      box.classList.remove("flash");
      void box.offsetWidth; // restart the CSS animation
      box.classList.add("flash");
    }
  }

  // The table items the last move put down (a trail, a new or changed build) get a
  // short animation; a capture's cards are gone, so the banner shows them instead.
  function markFresh() {
    const last = view && view.last;
    if (!last || !last.text) return;
    const cards = new Set(cardsIn(last.text).map((c) => c.toLowerCase()));
    for (const node of $("table").querySelectorAll(".table-item")) {
      const item = itemById(node.dataset.id);
      if (!item) continue;
      const inItem = item.kind === "card" ? [item.card] : (item.groups || []).flat();
      if (!/\sx\s/.test(last.text) && inItem.some((c) => cards.has(c.toLowerCase()))) {
        node.classList.add("last-played");
        if (animateNow) node.classList.add("fresh");
      }
    }
  }

  // --- input ---
  $("hint-button").addEventListener("click", askHint);
  $("undo-button").addEventListener("click", undo);
  $("resign-button").addEventListener("click", askResign);
  $("resign-yes").addEventListener("click", resign);
  $("resign-no").addEventListener("click", () => { $("resign-confirm").hidden = true; });
  $("claim-button").addEventListener("click", claim);
  $("clear-button").addEventListener("click", () => { hint = null; clearSelection(); if (view) renderStatus(); });
  $("copy-invite").addEventListener("click", async () => {
    const input = $("invite-link");
    try {
      await navigator.clipboard.writeText(input.value);
      $("copy-note").textContent = _("Copied.");
    } catch {
      input.select();
      const ok = document.execCommand && document.execCommand("copy");
      $("copy-note").textContent = ok ? _("Copied.") : _("Select the link and copy it.");
    }
  });

  document.addEventListener("keydown", (e) => {
    if (!view || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const k = e.key;
    if (k >= "1" && k <= "9") { pickCard(Number(k) - 1); e.preventDefault(); return; }
    if (k === "Escape") { hint = null; clearSelection(); renderStatus(); e.preventDefault(); return; }
    if (k === "?") { askHint(); e.preventDefault(); return; }
    if (k === "u" || k === "U") { undo(); e.preventDefault(); return; }
    if (k === "Enter") {
      const first = $("option-buttons").querySelector("button.option:not([disabled])");
      if (first) { first.click(); e.preventDefault(); }
      return;
    }
    if (k.length === 1) {
      const i = TABLE_KEYS.indexOf(k.toLowerCase());
      const item = i >= 0 ? (view.table || [])[i] : null;
      if (item) { toggleItem(item.id); e.preventDefault(); }
    }
  });

  const fourBox = $("four-colour");
  if (fourBox) {
    fourBox.checked = fourColour;
    fourBox.addEventListener("change", () => {
      fourColour = fourBox.checked;
      try { localStorage.setItem("casino-four-colour", fourColour ? "1" : "0"); } catch { /* private mode */ }
      if (view) render();
    });
  }

  if (!gameId) {
    showStatus(_("No game id in the address."), "error");
    return;
  }
  connect();
})();

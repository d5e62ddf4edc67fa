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
  const { _, ngettext } = window.CasinoI18n;

  const cardLabel = (t) => (t[0] === "T" ? "10" : t[0]) + (SUITS[t[1]] || t[1]);
  let four = false;
  try { four = localStorage.getItem("casino-four-colour") === "1"; } catch { /* private mode */ }
  const cardImg = (t, cls) => el("img", { class: "card-img " + (cls || ""), src: `/svg/card/${encodeURIComponent(t)}.svg${four ? "?four=1" : ""}`, alt: cardLabel(t), width: "100", height: "140" });
  const backImg = (cls) => el("img", { class: "card-img back " + (cls || ""), src: "/svg/back.svg", alt: "", width: "100", height: "140" });

  function names() {
    const n = (data.positions[0] && data.positions[0].hands.length) || 2;
    return data.names && data.names.length ? data.names : Array.from({ length: n }, (unused, i) => _("Player %(n)s", { n: i + 1 }));
  }

  // The sides that score (partners share one), each a list of seats.
  function sides() {
    const given = data.rules && data.rules.sides;
    return Array.isArray(given) && given.length ? given : names().map((unused, s) => [s]);
  }

  function sideName(seat) {
    const sd = sides().find((x) => x.includes(seat)) || [seat];
    return sd.map((s) => names()[s] || _("Player %(n)s", { n: s + 1 })).join(" & ");
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
        el("span", { class: "tally muted", text: ngettext("%(count)s card taken", "%(count)s cards taken", pile.length, { count: num(pile.length) }) + ` · ♠ ${pile.filter((c) => c[1] === "s").length}` })));
    });
  }

  function renderTable(pos) {
    const box = $("replay-table");
    fill(box);
    if (!pos.table.length) add(box, el("p", { class: "empty-table", text: _("The table is empty.") }));
    for (const item of pos.table) {
      if (typeof item === "string") {
        add(box, el("div", { class: "table-item card static" }, cardImg(item)));
      } else {
        const stack = el("div", { class: "build-stack" }, (item.groups || []).map((g) => el("div", { class: "build-group" }, g.map((c) => cardImg(c)))));
        add(box, el("div", { class: "table-item build static" }, stack,
          el("span", { class: "build-badge" }, el("strong", { text: num(item.value) }),
            (item.groups || []).length > 1 ? " " + _("multiple") : "", el("span", { class: "owner", text: ` · ${optText(names()[item.owner])}` }))));
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
      add(box, el("p", { class: "muted", text: _("Round scored, in counting order:") }), items);
    }
  }

  function show(i, fromReview) {
    if (!data) return;
    const last = data.positions.length - 1;
    step = Math.max(0, Math.min(last, i));
    const pos = data.positions[step];
    $("step-slider").value = String(step);
    $("step-info").textContent = `${step} / ${last}`;
    const info = $("replay-info");
    const stock = typeof pos.stock === "number" ? pos.stock : (pos.stock || []).length;
    fill(info, el("span", { class: "chip", text: _("Round %(round)s · deal %(deal)s", { round: num(pos.round), deal: num(pos.deal) }) }), el("span", { class: "chip", text: _("Stock %(n)s", { n: num(stock) }) }));
    const m = moveAt(step);
    const mv = $("replay-move");
    fill(mv);
    if (m) {
      add(mv, el("span", { class: "label", text: _("Move %(n)s", { n: step - offset + 1 }) }), " ", optText(m.words || m.text));
      mv.classList.remove("flash"); void mv.offsetWidth; mv.classList.add("flash");
    } else {
      mv.textContent = step === 0 ? _("The start of the game.") : "";
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
    if (!fromReview) review.leave(step);
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
      if (!res.ok) throw new Error(body.error || body.detail || _("the server said %(status)s", { status: res.status }));
      data = body;
      if (!Array.isArray(data.positions) || !data.positions.length) throw new Error(_("the record has no positions"));
      offset = (data.moves || []).length === data.positions.length ? 0 : 1;
      if (data.download) $("download-link").href = data.download;
      const r = data.rules || {};
      $("replay-title").textContent = _("Replay: %(rules)s", { rules: r.title || r.name || (typeof r === "string" ? r : "Casino") });
      $("replay-names").textContent = names().join(" · ");
      if (data.settings && data.settings.words) {
        $("replay-settings").textContent = data.settings.words;
        $("replay-settings").hidden = false;
      }
      $("step-slider").max = String(data.positions.length - 1);
      show(0);
      review.setUp();
    } catch (ex) {
      $("replay-error").textContent = _("This replay cannot be shown: %(why)s", { why: ex.message });
      $("replay-error").hidden = false;
    }
  }

  // ------------------------------------------------------------------
  // The review: one seat's decisions judged by the server (casino-review/2), drawn as a
  // graph of the expected round margin and a list of graded moves; a move clicked shows
  // the position before it and the better move. Every sentence comes from the server's
  // review (the teach module's words); this page adds labels only.

  const GRADE_LABEL = { good: _("Good"), inaccuracy: _("Inaccuracy"), mistake: _("Mistake"), blunder: _("Blunder") };
  const POLL_MS = 1500;
  const SVG_NS = "http://www.w3.org/2000/svg";
  const svgEl = (tag, attrs, ...children) => {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") node.textContent = v;
      else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, String(v));
    }
    for (const c of children) if (c) node.append(c);
    return node;
  };
  // One decimal, a minus sign below zero (as the review's own words write it).
  const points = (x) => (Number.isFinite(x) ? (Math.round(x * 10) / 10 + 0).toFixed(1).replace("-", "\u2212") : "–");
  // A cost with its interval, "1.4 (−0.3 to 3.1)"; the cost alone when the interval is
  // that one value (as casino.teach.review.cost_words writes it).
  const costText = (d) => (d.low === d.high ? points(d.cost) : _("%(cost)s (%(low)s to %(high)s)", { cost: points(d.cost), low: points(d.low), high: points(d.high) }));

  const review = (() => {
    let current = null; // the review shown (casino-review/2 JSON)
    let focused = null; // {index, step} of the decision clicked
    let asking = 0; // which request is current: a seat change or a new ask makes others stale
    let timer = null;
    let startedAt = 0;
    let counted = ""; // "5 of 18 decisions judged, " while the server says so

    const seat = () => Number($("review-seat").value || 0);
    const url = () => `/api/games/${encodeURIComponent(gameId)}/review?seat=${seat()}`;

    function status(words, isError) {
      const box = $("review-status");
      box.textContent = words;
      box.classList.toggle("form-error", Boolean(isError));
    }

    function computing(on) {
      $("review-progress").hidden = !on;
      $("review-button").disabled = on;
      if (!on && timer) { clearInterval(timer); timer = null; }
      if (on && !timer) {
        timer = setInterval(() => {
          $("review-elapsed").textContent = counted + _("%(n)s s", { n: num(Math.round((Date.now() - startedAt) / 1000)) });
        }, 1000);
      }
    }

    async function request(method) {
      const res = await fetch(url(), { method, credentials: "same-origin" });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(body.error || _("the server said %(status)s", { status: res.status }));
      return body;
    }

    // One answer of the server: the review, "computing" (ask again soon), or none yet.
    function take(body, mine) {
      if (mine !== asking) return;
      if (body.status === "done") {
        computing(false);
        status(_("The review of %(name)s is ready.", { name: names()[body.seat] || _("this player") }));
        render(body.review);
      } else if (body.status === "computing") {
        if (!startedAt) startedAt = Date.now() - 1000 * (body.seconds || 0);
        // How far the worker has got: decisions judged of those to judge.
        const bar = $("review-bar");
        if (Number.isInteger(body.total) && body.total > 0) {
          bar.max = body.total;
          bar.value = body.done || 0;
          counted = _("%(done)s of %(total)s decisions judged, ", { done: num(body.done || 0), total: num(body.total) });
        } else {
          bar.removeAttribute("value");
          counted = "";
        }
        computing(true);
        setTimeout(() => poll(mine), POLL_MS);
      } else {
        computing(false);
        status("");
      }
    }

    async function poll(mine) {
      if (mine !== asking) return;
      try {
        take(await request("GET"), mine);
      } catch (ex) {
        if (mine !== asking) return;
        computing(false);
        status(_("No review: %(why)s", { why: ex.message }), true);
      }
    }

    async function ask() {
      const mine = ++asking;
      startedAt = Date.now();
      status(_("Computing the review of %(name)s: every decision is searched, which takes a while (about half a minute a round)…", { name: names()[seat()] || _("this player") }));
      computing(true);
      try {
        take(await request("POST"), mine);
      } catch (ex) {
        if (mine !== asking) return;
        computing(false);
        status(_("No review: %(why)s", { why: ex.message }), true);
      }
    }

    function choose() {
      const mine = ++asking;
      startedAt = 0;
      computing(false);
      status("");
      clear();
      poll(mine); // a review already kept is shown at once
    }

    function clear() {
      current = null;
      focused = null;
      $("review-body").hidden = true;
      $("review-focus").hidden = true;
    }

    function setUp() {
      const select = $("review-seat");
      fill(select, names().map((n, s) => el("option", { value: String(s), text: _("%(name)s (seat %(seat)s)", { name: n, seat: s }) })));
      // The game's end links here with ?seat=N#review ("Review my play"): that seat
      // is chosen and its review asked for at once.
      const asked = Number(new URLSearchParams(window.location.search).get("seat"));
      const linked = Number.isInteger(asked) && asked >= 0 && asked < names().length
        && new URLSearchParams(window.location.search).has("seat");
      const first = linked ? asked : Number.isInteger(data.review_seat) ? data.review_seat : 0;
      select.value = String(first);
      select.addEventListener("change", choose);
      $("review-button").addEventListener("click", ask);
      $("review").hidden = false;
      if (linked && window.location.hash === "#review") {
        $("review").scrollIntoView({ block: "start" });
        ask();
      } else {
        choose();
      }
    }

    // The position before decision ``d``'s move in the replay's steps.
    function stepOf(d) {
      const start = (data.starts || {})[String(d.round)];
      return Number.isInteger(start) ? start + d.ply : null;
    }

    function decisionLabel(d) {
      return _("Round %(round)s · deal %(deal)s · move %(move)s", { round: num(d.round), deal: num(d.deal), move: num(d.ply + 1) });
    }

    function grade(g) {
      return el("span", { class: `grade grade-${g}`, text: GRADE_LABEL[g] || g });
    }

    // A decision's grade in the review's words (its verdict: "about as good" for a good
    // move whose cost is within the judge's noise), coloured by its grade.
    function verdict(d) {
      const words = d.verdict_words || d.verdict || d.grade;  // verdict_words: in the page's language
      return el("span", { class: `grade grade-${d.grade}`, text: words[0].toUpperCase() + words.slice(1) });
    }

    function swingMark(d) {
      if (!d.big_swing) return null;
      const up = d.swing > 0;
      return el("span", { class: `swing ${up ? "up" : "down"}`, title: _("A big swing of the expected margin since the previous decision"),
        text: `${up ? "▲" : "▼"} ${signed(Number(d.swing.toFixed(1)))}` });
    }

    function render(r) {
      current = r;
      focused = null;
      $("review-focus").hidden = true;
      const counts = { good: 0, inaccuracy: 0, mistake: 0, blunder: 0 };
      for (const d of r.decisions) counts[d.grade] = (counts[d.grade] || 0) + 1;
      const about = r.decisions.filter((d) => d.verdict && d.verdict !== d.grade);
      const lost = r.decisions.reduce((a, d) => a + d.cost, 0);
      fill($("review-summary"),
        el("strong", { text: r.name }), ": " + _("%(judged)s decisions judged, %(forced)s forced.", { judged: num(r.decisions.length), forced: num(r.forced) }) + " ",
        Object.keys(GRADE_LABEL).map((g) => [grade(g), ` ${num(counts[g])}${g === "good" && about.length ? ` (${num(about.length)} ${about[0].verdict_words || about[0].verdict})` : ""} `]),
        el("span", { class: "review-lost", text: "· " + _("%(points)s points lost in all", { points: points(lost) }) }));
      drawGraph(r);
      fill($("review-advice"), r.advice.length
        ? r.advice.map((words, k) => el("li", {}, el("button", { type: "button", class: "review-link", text: words, onclick: () => focus(r.costliest[k]) })))
        : el("li", { class: "muted", text: _("No decision surely cost anything.") }));
      const head = el("tr", {}, [_("Kind"), _("Decisions"), _("Points lost"), ...Object.values(GRADE_LABEL)].map((h) => el("th", { scope: "col", text: h })));
      fill($("review-totals"), el("thead", {}, head), el("tbody", {}, r.totals.map((t) =>
        el("tr", {}, el("th", { scope: "row", text: (t.kind_words || t.kind)[0].toUpperCase() + (t.kind_words || t.kind).slice(1) }),
          el("td", { text: num(t.decisions) }), el("td", { text: points(t.cost) }),
          t.grades.map((n) => el("td", { text: num(n) }))))));
      fill($("review-moves"), r.decisions.map((d, i) => el("li", {},
        el("button", { type: "button", class: "review-move", dataset: { index: String(i) }, onclick: () => focus(i) },
          el("span", { class: "review-where muted", text: decisionLabel(d) }),
          el("span", { class: "review-line" }, verdict(d), " ", el("span", { class: "review-words", text: d.words })),
          el("span", { class: "review-cost", text: _("Cost %(cost)s", { cost: costText(d) }) }),
          d.grade !== "good" ? el("span", { class: "review-better", text: _("Better: %(move)s", { move: d.preferred_words }) }) : null,
          el("span", { class: "review-hindsight muted", text: d.hindsight.cost > 0 ? _("Hindsight: %(move)s (cost %(cost)s)", { move: d.hindsight.best_words, cost: points(d.hindsight.cost) }) : _("Hindsight: best on the true deal") }),
          swingMark(d),
          d.hinted ? el("span", { class: "review-mark", text: _("after a hint") }) : null,
          d.by_computer ? el("span", { class: "review-mark", text: _("played by the computer") }) : null))));
      $("review-setting").textContent = _("Judged on %(samples)s sampled deals of the hidden cards a decision, searching %(depth)s moves deep with %(nodes)s nodes a search; %(seed)s.", { samples: num(r.samples), depth: num(r.depth), nodes: num(r.nodes), seed: r.seed === 0 ? _("the same deals a hint there judged") : _("seed %(n)s", { n: num(r.seed) }) }) + " " + _("A cost's interval (in brackets) is what the deals judged allow; a move is graded worse than good only when the whole interval is at the grade's threshold or above.");
      $("review-body").hidden = false;
    }

    function drawGraph(r) {
      const W = 640, H = 220, PAD = 28;
      const ds = r.decisions;
      const box = $("review-graph");
      if (!ds.length) { fill(box, el("p", { class: "muted", text: _("No decision to draw.") })); return; }
      const rounds = [...new Set(ds.map((d) => d.round))];
      const GAP = 1.5; // slots between rounds
      const slots = ds.length - 1 + GAP * (rounds.length - 1);
      const xs = [];
      let x = 0;
      ds.forEach((d, i) => {
        if (i > 0) x += d.round !== ds[i - 1].round ? 1 + GAP : 1;
        xs.push(x);
      });
      const margins = ds.map((d) => d.margin);
      const top = Math.max(1, ...margins), bottom = Math.min(-1, ...margins);
      const X = (v) => PAD + (slots ? (v / slots) * (W - 2 * PAD) : (W - 2 * PAD) / 2);
      const Y = (v) => PAD / 2 + ((top - v) / (top - bottom)) * (H - 1.5 * PAD);
      const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-svg", role: "img",
        "aria-label": _("Expected round margin of %(name)s after each of %(count)s judged decisions, from %(low)s to %(high)s points", { name: r.name, count: ds.length, low: points(Math.min(...margins)), high: points(Math.max(...margins)) }) });
      svg.append(svgEl("line", { x1: PAD, x2: W - PAD, y1: Y(0), y2: Y(0), class: "zero" }),
        svgEl("text", { x: 2, y: Y(0) + 4, class: "axis", text: "0" }),
        svgEl("text", { x: 2, y: Y(top) + 8, class: "axis", text: signed(Number(top.toFixed(0))) }),
        svgEl("text", { x: 2, y: Y(bottom), class: "axis", text: signed(Number(bottom.toFixed(0))) }));
      for (const rnd of rounds) {
        const idx = ds.map((d, i) => (d.round === rnd ? i : -1)).filter((i) => i >= 0);
        const x0 = X(xs[idx[0]]);
        if (rnd !== rounds[0]) {
          const sep = (X(xs[idx[0]]) + X(xs[idx[0] - 1])) / 2;
          svg.append(svgEl("line", { x1: sep, x2: sep, y1: 4, y2: H - PAD / 2, class: "round-sep" }));
        }
        svg.append(svgEl("text", { x: x0, y: H - 4, class: "axis", text: _("Round %(number)s", { number: rnd }) }));
        svg.append(svgEl("polyline", { class: "margin-line", points: idx.map((i) => `${X(xs[i]).toFixed(1)},${Y(ds[i].margin).toFixed(1)}`).join(" ") }));
      }
      ds.forEach((d, i) => {
        const cx = X(xs[i]), cy = Y(d.margin);
        if (d.big_swing) {
          svg.append(svgEl("text", { x: cx, y: d.swing > 0 ? cy - 9 : cy + 17, class: `swing-mark ${d.swing > 0 ? "up" : "down"}`, "text-anchor": "middle", text: d.swing > 0 ? "▲" : "▼" }));
        }
        const dot = svgEl("circle", { cx, cy, r: 6, class: `point grade-${d.grade}`, "data-index": i, onclick: () => focus(i) },
          svgEl("title", { text: _("%(where)s: %(move)s (%(verdict)s, margin %(margin)s)", { where: decisionLabel(d), move: d.words, verdict: d.verdict_words || d.verdict || GRADE_LABEL[d.grade] || d.grade, margin: points(d.margin) }) }));
        svg.append(dot);
      });
      fill(box, svg);
    }

    // Decision ``i`` clicked: the replay shows the position before its move, and the
    // review says what was played and what was better.
    function focus(i) {
      if (!current) return;
      const d = current.decisions[i];
      const at = stepOf(d);
      if (at === null) return;
      focused = { index: i, step: at };
      show(at, true);
      for (const b of document.querySelectorAll(".review-move")) {
        b.setAttribute("aria-current", b.dataset.index === String(i) ? "true" : "false");
      }
      for (const p of document.querySelectorAll("#review-graph .point")) {
        p.classList.toggle("chosen", p.getAttribute("data-index") === String(i));
      }
      const box = $("review-focus");
      fill(box,
        el("p", { class: "muted", text: _("%(where)s · %(name)s to play · the position before the move", { where: decisionLabel(d), name: current.name }) }),
        el("p", {}, el("strong", { text: _("Played:") + " " }), `${d.words} (${d.leaves}) `, verdict(d),
          " " + _("cost %(cost)s", { cost: costText(d) })),
        d.cost > 0
          ? el("p", { class: "review-better" }, el("strong", { text: _("Better:") + " " }), `${d.preferred_words} (${d.preferred_leaves})`)
          : el("p", { class: "review-better" }, el("strong", { text: _("Better:") + " " }), _("none, this is the preferred move")),
        el("p", { class: "muted" }, el("strong", { text: _("Hindsight") }), " " + (d.hindsight.cost > 0 ? _("(every card seen): %(move)s, cost %(cost)s", { move: d.hindsight.best_words, cost: points(d.hindsight.cost) }) : _("(every card seen): the best move on the true deal"))),
        el("button", { type: "button", class: "button small", text: _("Back to the review"), onclick: () => {
          const b = document.querySelector(`.review-move[data-index="${i}"]`);
          if (b) { b.scrollIntoView({ block: "center" }); b.focus(); }
        } }));
      box.hidden = false;
      $("replay-board").scrollIntoView({ block: "start" });
    }

    // The replay moved (a button, a key, the slider): the clicked decision's words stay
    // only while its position is shown.
    function leave(at) {
      if (focused && focused.step !== at) {
        focused = null;
        $("review-focus").hidden = true;
      }
    }

    return { setUp, leave };
  })();

  if (gameId) load();
})();

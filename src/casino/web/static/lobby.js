// The lobby: start a game (POST /api/games), play someone now (POST /api/pairing), send
// a challenge (POST /api/challenge), and list the challenges, open rooms and recent games.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const form = $("new-game");
  const rulesSelect = $("rules-select");
  const playersSelect = $("players-select");
  const nameInput = $("name-input");

  const { el } = window.CasinoDom;
  const { _, ngettext } = window.CasinoI18n;

  function mode() {
    const checked = form.querySelector("input[name=mode]:checked");
    return checked ? checked.value : "computer";
  }

  // Only the player counts the chosen ruleset allows.
  function updatePlayers() {
    const opt = rulesSelect.selectedOptions[0];
    if (!opt) return;
    const counts = (opt.dataset.players || "2").split(",").filter(Boolean);
    const current = playersSelect.value;
    playersSelect.replaceChildren(...counts.map((n) => el("option", { value: n, text: n })));
    if (counts.includes(current)) playersSelect.value = current;
    $("rules-link").href = `/rules/${encodeURIComponent(rulesSelect.value)}`;
    updateNote();
  }

  function updatePeople() {
    const n = Number(playersSelect.value || 2);
    const select = $("people-select");
    const current = select.value || String(n);
    const counts = Array.from({ length: n - 1 }, (_, i) => String(i + 2));
    select.replaceChildren(...counts.map((k) => el("option", { value: k, text: k })));
    select.value = counts.includes(current) ? current : String(n);
  }

  // Hints and take-backs default to on against the computer and off between people;
  // a change of mode brings its defaults back, a player's own choice stays otherwise.
  let fairMode = null;
  function updateFairPlay() {
    const m = mode();
    if (m === fairMode) return;
    fairMode = m;
    const alone = m !== "friends";
    $("hints-check").checked = alone;
    $("takebacks-check").checked = alone;
  }

  // Spectators: on by default in a rated game only (the server's default too), never in a
  // lesson; a player's own choice stays until the kind of game changes.
  let watchKind = null;
  function updateSpectators(lesson, rated) {
    $("spectators-set").hidden = lesson;
    const kind = `${mode()}|${rated}`;
    if (kind === watchKind) return;
    watchKind = kind;
    $("spectators-check").checked = rated;
  }

  function updateNote() {
    const n = Number(playersSelect.value || 2);
    const friends = mode() === "friends";
    updateFairPlay();
    updatePeople();
    $("people-label").hidden = !friends || n <= 2;
    $("public-label").hidden = !friends;
    $("chat-label").hidden = !friends; // no chat against the computer or in a lesson
    if ($("clock-label")) $("clock-label").hidden = !friends; // a clock is a room's only
    const people = friends ? Number($("people-select").value || n) : 1;
    const lesson = mode() === "lesson";
    $("level-label").hidden = people >= n || lesson;
    // A rated game is between signed-in people only: no computer seat (the server says
    // so too); the choice is there only for a signed-in player.
    const rated = $("rated-label");
    if (rated) rated.hidden = !friends || people < n;
    updateSpectators(lesson, !!(rated && !rated.hidden && $("rated-check").checked));
    playersSelect.closest("label").hidden = lesson;
    if (lesson) {
      // A lesson is always two players, the learner against the beginner, from a deal
      // arranged so that each kind of move comes up (docs/learn.md).
      $("mode-note").textContent = _("A guided first game against the beginner: the first deal is arranged so that you meet each kind of move, and a lesson panel says which move to try with your own cards, then explains the round's scoring.");
      $("start-button").textContent = _("Start the lesson");
    } else if (!friends) {
      $("mode-note").textContent = ngettext("The computer plays the other seat.", "The computer plays the other %(n)s seats.", n - 1);
      $("start-button").textContent = _("Start the game");
    } else {
      const others = people - 1;
      const bots = n - people;
      const invite = ngettext("You get an invite link for one friend; the game starts when they join.", "You get an invite link for %(n)s friends; the game starts when they join.", others);
      const computer = bots ? ngettext("The computer plays one seat.", "The computer plays %(n)s seats.", bots) : "";
      $("mode-note").textContent = [invite, computer].filter(Boolean).join(" ");
      $("start-button").textContent = _("Create the room");
    }
  }

  rulesSelect.addEventListener("change", updatePlayers);
  playersSelect.addEventListener("change", updateNote);
  $("people-select").addEventListener("change", updateNote);
  for (const r of form.querySelectorAll("input[name=mode]")) r.addEventListener("change", updateNote);
  if ($("rated-check")) $("rated-check").addEventListener("change", updateNote);
  try { nameInput.value = localStorage.getItem("casino-name") || ""; } catch { /* private mode */ }
  // The rules page links here as /?rules=<preset> (and /?rules=<preset>&mode=lesson).
  const query = new URLSearchParams(location.search);
  const wanted = query.get("rules");
  if (wanted && [...rulesSelect.options].some((o) => o.value === wanted)) rulesSelect.value = wanted;
  if (query.get("mode") === "lesson") $("mode-lesson").checked = true;
  updatePlayers();

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const err = $("form-error");
    err.hidden = true;
    const button = $("start-button");
    button.disabled = true;
    const name = nameInput.value.trim();
    try { localStorage.setItem("casino-name", name); } catch { /* private mode */ }
    const body = {
      rules: rulesSelect.value,
      players: Number(playersSelect.value),
      level: $("level-select").value,
      mode: mode(),
      hints: $("hints-check").checked,
      takebacks: $("takebacks-check").checked,
    };
    if (name) body.name = name;
    if (body.mode === "lesson") { body.players = 2; body.level = "beginner"; } else {
      body.spectators = $("spectators-check").checked;
      body.spectator_delay = Number($("delay-select").value || 0);
    }
    if (body.mode === "friends") {
      body.people = Number($("people-select").value || body.players);
      body.public = $("public-check").checked;
      body.chat = $("chat-check").checked;
      const rated = $("rated-label");
      if (rated && !rated.hidden) body.rated = $("rated-check").checked;
      const clock = $("clock-select") && $("clock-select").value;
      if (clock) body.clock = JSON.parse(clock); // the option's control, as the server offered it
    }
    try {
      const res = await fetch("/api/games", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body), credentials: "same-origin",
      });
      let data = {};
      try { data = await res.json(); } catch { /* not JSON */ }
      if (!res.ok) throw new Error(errorText(data) || _("the server said %(status)s", { status: res.status }));
      location.href = data.url || `/game/${encodeURIComponent(data.game)}`;
    } catch (ex) {
      err.textContent = _("Could not start the game: %(why)s", { why: ex.message });
      err.hidden = false;
      button.disabled = false;
    }
  });

  function errorText(data) {
    if (!data) return "";
    if (typeof data.error === "string") return data.error;
    if (typeof data.detail === "string") return data.detail;
    if (Array.isArray(data.detail)) return data.detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
    return "";
  }

  const STATUS = { waiting: _("waiting for players"), playing: _("in progress"), round_over: _("between rounds"), over: _("finished") };
  // A finished game's result, alone and against its opponents.
  const RESULTS = {
    won: [_("you won"), _("you won against %(names)s")],
    lost: [_("you lost"), _("you lost against %(names)s")],
    drawn: [_("drawn"), _("drawn against %(names)s")],
  };

  // A finished game of this browser's (or account's): its result and opponents, as
  // /api/games says (null for anyone else's game).
  function resultItem(g) {
    if (!g.result) return null;
    const names = Array.isArray(g.opponents) && g.opponents.length ? g.opponents.join(", ") : "";
    const forms = RESULTS[g.result] || [g.result, `${g.result} (%(names)s)`];
    const words = names ? forms[1].replace("%(names)s", names) : forms[0];
    return el("span", { class: `game-result ${g.result}`, text: ` · ${words}` });
  }

  // A waiting room's kind and its creator's rating in its pool, as /api/games says.
  function seekWords(g) {
    const kind = g.rated ? _("rated") : _("casual");
    if (g.status !== "waiting") return g.rated ? " · " + kind : "";
    const who = g.guest ? _("guest") : (g.rating === null || g.rating === undefined ? _("new") : _("rated %(rating)s", { rating: g.rating }));
    return [""].concat(kind, who).join(" · ");
  }

  async function decline(game) {
    try {
      await fetch(`/api/challenges/${encodeURIComponent(game)}/decline`, { method: "POST", credentials: "same-origin" });
    } catch { /* offline: the list says what stands */ }
    refresh();
  }

  // A listed game's kind, players and state: "lesson · 2 players · in progress".
  function entryWords(g) {
    const parts = [];
    if (g.mode === "lesson") parts.push(_("lesson"));
    if (g.players) parts.push(ngettext("%(n)s player", "%(n)s players", g.players));
    parts.push(STATUS[g.status] || g.status || "");
    return parts.join(" · ");
  }

  function gameItem(g, open, challenge) {
    const names = (g.names || []).join(", ");
    const links = [];
    if (challenge) {
      links.push(el("a", { class: "button small primary", href: `${g.join}?name=`, text: _("Accept") }));
      const no = el("button", { type: "button", class: "button small", text: _("Decline") });
      no.addEventListener("click", () => decline(g.game));
      links.push(no);
    } else if (open && g.challenge && g.url) {
      const no = el("button", { type: "button", class: "button small", text: _("Withdraw") });
      no.addEventListener("click", () => decline(g.game));
      links.push(no);
    }
    if (open && g.join && !g.url && !challenge) {
      let stored = "";
      try { stored = localStorage.getItem("casino-name") || ""; } catch { /* private mode */ }
      const href = stored ? `${g.join}?name=${encodeURIComponent(stored)}` : g.join;
      links.push(el("a", { class: "button small primary", href, text: _("Join") }));
    }
    if (g.status === "over" || g.record) {
      links.push(el("a", { class: "button small", href: g.record || `/records/${encodeURIComponent(g.game)}`, text: _("Replay") }));
    } else if (g.url) {
      links.push(el("a", { class: "button small", href: g.url, text: _("Open") }));
    }
    if (g.watch && !g.url) links.push(el("a", { class: "button small", href: g.watch, text: _("Watch") }));
    const scores = Array.isArray(g.scores) && g.scores.length ? ` · ${g.scores.join("–")}` : "";
    const when = g.updated ? new Date(g.updated) : null;
    const whenText = when && !Number.isNaN(when.getTime()) ? ` · ${when.toLocaleString(window.CasinoI18n.lang, { dateStyle: "short", timeStyle: "short" })}` : "";
    return el("li", { class: "game-entry" },
      el("span", { class: "game-title", text: g.title || g.rules || "Casino" }),
      el("span", { class: "muted", text: " " + entryWords(g) + seekWords(g) + scores + whenText }),
      g.challenge && !challenge ? el("span", { class: "challenge-note", text: _("challenge to %(name)s: waiting for an answer", { name: g.challenge }) }) : null,
      g.clock ? el("span", { class: "muted game-clock", text: " · " + _("clock %(clock)s", { clock: g.clock }) }) : null,
      g.turn ? el("strong", { class: "game-turn", text: ` · ${g.turn}` }) : null,
      names ? el("span", { class: "game-names", text: names }) : null,
      resultItem(g),
      el("span", { class: "game-links" }, links));
  }

  async function refresh() {
    try {
      const res = await fetch("/api/games", { credentials: "same-origin" });
      if (!res.ok) return;
      const data = await res.json();
      const open = data.open || [];
      const recent = data.recent || [];
      const challenges = data.challenges || [];
      const live = data.live || [];
      $("live-games").replaceChildren(...live.map((g) => gameItem(g, false)));
      $("live-empty").hidden = live.length > 0;
      $("challenge-games").replaceChildren(...challenges.map((g) => gameItem(g, true, true)));
      $("challenges-part").hidden = challenges.length === 0;
      $("open-games").replaceChildren(...open.map((g) => gameItem(g, true)));
      $("recent-games").replaceChildren(...recent.map((g) => gameItem(g, false)));
      $("open-empty").hidden = open.length > 0;
      $("recent-empty").hidden = recent.length > 0;
    } catch { /* offline: keep the last lists */ }
  }

  // The clock chosen for "Play someone now" and a challenge, as the server offered it.
  function addPairClock(body) {
    const clock = $("pair-clock-select") && $("pair-clock-select").value;
    if (clock) body.clock = JSON.parse(clock);
  }

  // Play someone now: join a seek, or wait in our own and ask again every few seconds
  // with its id (so that two waiting players are paired too), until someone comes.
  let seek = null;
  let seekTimer = null;
  async function pair() {
    const err = $("pair-error");
    err.hidden = true;
    const rated = $("pair-rated-check");
    const body = { rules: rulesSelect.value, players: Number(playersSelect.value), rated: !!(rated && rated.checked), seek };
    addPairClock(body);
    try {
      const res = await fetch("/api/pairing", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body), credentials: "same-origin",
      });
      let data = {};
      try { data = await res.json(); } catch { /* not JSON */ }
      if (res.status === 429 && seek) {
        // Asked too often (a network's several waiting players): still waiting, ask later.
        clearTimeout(seekTimer);
        seekTimer = setTimeout(pair, 15000);
        return;
      }
      if (!res.ok) throw new Error(errorText(data) || _("the server said %(status)s", { status: res.status }));
      if (!data.waiting) { location.href = data.url; return; }
      seek = data.game;
      $("pair-status").textContent = _("Waiting for an opponent: your room is listed under Open rooms, and you go to the table when someone comes.");
      $("pair-status").hidden = false;
      clearTimeout(seekTimer);
      seekTimer = setTimeout(pair, 5000);
      refresh();
    } catch (ex) {
      seek = null;
      $("pair-status").hidden = true;
      err.textContent = _("Could not pair you: %(why)s", { why: ex.message });
      err.hidden = false;
    }
  }
  $("pair-button").addEventListener("click", () => { seek = null; pair(); });

  const challengeForm = $("challenge-form");
  if (challengeForm) {
    challengeForm.addEventListener("submit", async (e) => {
      e.preventDefault();
      const err = $("challenge-error");
      err.hidden = true;
      const rated = $("pair-rated-check");
      const body = { name: $("challenge-name").value.trim(), rules: rulesSelect.value, players: Number(playersSelect.value), rated: !!(rated && rated.checked) };
      addPairClock(body);
      try {
        const res = await fetch("/api/challenge", {
          method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body), credentials: "same-origin",
        });
        let data = {};
        try { data = await res.json(); } catch { /* not JSON */ }
        if (!res.ok) throw new Error(errorText(data) || _("the server said %(status)s", { status: res.status }));
        $("challenge-name").value = "";
        refresh();
      } catch (ex) {
        err.textContent = _("Could not send the challenge: %(why)s", { why: ex.message });
        err.hidden = false;
      }
    });
  }

  refresh();
  setInterval(() => { if (document.visibilityState === "visible") refresh(); }, 10000);
})();

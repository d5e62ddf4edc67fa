// The game page's clocks (docs/server.md, "Clocks"): each seat's time, counted down here
// between the server's states from the milliseconds left it sent (never from this
// machine's own idea of the time of day), the running clock highlighted, and a warning
// at the server's `warn_ms` (10 s), in a style and in words read out (role="alert").
// The server alone decides when a clock has run out; this only shows it.
"use strict";

window.casinoClocks = (() => {
  const $ = (id) => document.getElementById(id);
  const { _ } = window.CasinoI18n;
  let clock = null; // the last state's `clock`
  let names = [];
  let you = null;
  let received = 0; // performance.now() when it came
  let ticker = null;

  // 0:27, 4:05, 1:02:03, 2 d 3 h: what is left, as a clock shows it.
  function format(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const d = Math.floor(s / 86400);
    const h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60);
    const sec = String(s % 60).padStart(2, "0");
    if (d) return `${d} d ${h} h`;
    if (h) return `${h}:${String(m).padStart(2, "0")}:${sec}`;
    return `${m}:${sec}`;
  }

  function left(seat) {
    const base = clock.left_ms[seat] ?? 0;
    return seat === clock.running ? base - (performance.now() - received) : base;
  }

  function draw() {
    const box = $("clocks");
    if (!box) return;
    box.hidden = !clock;
    if (!clock) return;
    $("clock-words").textContent = _("Clock: %(words)s", { words: clock.words });
    const list = $("clock-list");
    const items = clock.left_ms.map((unused, seat) => {
      const ms = left(seat);
      const running = seat === clock.running;
      const warn = running && ms <= clock.warn_ms;
      const li = document.createElement("li");
      li.className = "clock" + (running ? " running" : "") + (warn ? " warn" : "");
      li.dataset.seat = String(seat);
      const who = document.createElement("span");
      who.className = "clock-name";
      who.textContent = seat === you ? _("You") : (names[seat] || _("Seat %(n)s", { n: seat + 1 }));
      const time = document.createElement("span");
      time.className = "clock-time";
      time.textContent = format(ms);
      li.append(who, " ", time);
      return li;
    });
    list.replaceChildren(...items);
    warnIfLow();
  }

  // The warning in words while the running clock is low (its text set once, so that
  // it is read out once).
  function warnIfLow() {
    const note = $("clock-warning");
    const seat = clock.running;
    const low = seat !== null && seat !== undefined && left(seat) <= clock.warn_ms;
    note.hidden = !low;
    if (!low) return;
    const secs = Math.round(clock.warn_ms / 1000);
    const text = seat === you
      ? _("Less than %(n)s seconds left on your clock: play now.", { n: secs })
      : (names[seat] ? _("Less than %(n)s seconds left on %(name)s's clock.", { n: secs, name: names[seat] }) : _("Less than %(n)s seconds left on their clock.", { n: secs }));
    if (note.textContent !== text) note.textContent = text;
  }

  // The latest clock that ran out, in the server's words, kept under the clocks.
  function noteTimeouts(events) {
    const last = (events || []).filter((e) => e && e.kind === "timeout").pop();
    if (last && $("clock-note")) {
      $("clock-note").textContent = last.words;
      $("clock-note").hidden = false;
    }
  }

  function update(next, view, events) {
    clock = next && Array.isArray(next.left_ms) ? next : null;
    noteTimeouts(events);
    names = (view && view.names) || names;
    you = view && typeof view.you === "number" ? view.you : null;
    received = performance.now();
    if (ticker === null && clock) ticker = setInterval(() => { if (clock && clock.running !== null) draw(); }, 250);
    if (!clock && ticker !== null) { clearInterval(ticker); ticker = null; }
    draw();
  }

  return { update };
})();

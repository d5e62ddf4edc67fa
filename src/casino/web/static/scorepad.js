// Score pad page: the browser keeps the pad (casino-scorepad/1 JSON) in localStorage;
// every change goes to the server's scorepad core, which scores it with the engine's
// own code and answers the new pad and its view (or the reason it refuses). No rule of
// any game is written here.
"use strict";

(() => {
  const KEY = "casino.scorepad.v1";
  const BACKUP = "casino.scorepad.backup";
  const SERVER_LIMIT = 60000;  // bytes of JSON kept on the server (it takes 64 KiB)
  const $ = (id) => document.getElementById(id);

  const { el, num, signed } = window.CasinoDom;
  const { _ } = window.CasinoI18n;

  const choices = JSON.parse($("setup-choices").textContent);
  const root = $("pad-app");
  const sharedId = root.dataset.padId || null;

  // state.pad: the pad JSON (what is saved); state.view: the server's view of it;
  // state.server: {id, secret} when the pad is also kept on the server.
  const state = { pad: null, view: null, server: null };
  let editing = null;  // index of the round being corrected, or null
  let form = null;     // the round form's values (see blankForm)

  // ------------------------------------------------------------------
  // Storage

  function readStore() {
    try { return JSON.parse(localStorage.getItem(KEY) || "null") || {}; } catch { return {}; }
  }

  function persist() {
    const data = { pad: state.pad, server: state.server, form, editing };
    try { localStorage.setItem(KEY, JSON.stringify(data)); } catch (e) {
      alertLine(_("This browser would not save the pad (%(why)s): export it as a file.", { why: e.message }));
    }
  }

  function alertLine(text) {
    const a = $("pad-alert");
    a.textContent = text || "";
    a.hidden = !text;
  }

  // ------------------------------------------------------------------
  // Talking to the server

  async function call(method, url, body, headers) {
    const opts = { method, headers: { "Accept": "application/json", ...(headers || {}) } };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    let r;
    try { r = await fetch(url, opts); } catch {
      return { ok: false, error: { error: _("the server cannot be reached: check the connection") } };
    }
    let data = null;
    try { data = await r.json(); } catch { data = { error: _("the server answered %(status)s", { status: r.status }) }; }
    return r.ok ? { ok: true, data } : { ok: false, error: data || {} };
  }

  function forServer(pad) {
    // The server keeps at most 64 KiB: drop the oldest undo states until it fits.
    const copy = { ...pad, history: [...(pad.history || [])] };
    while (copy.history.length && JSON.stringify(copy).length > SERVER_LIMIT) copy.history.shift();
    return copy;
  }

  async function saveToServer() {
    if (!state.server || !state.pad) return;
    const res = await call("PUT", "/api/scorepads/" + encodeURIComponent(state.server.id),
      { pad: forServer(state.pad) }, { "X-Scorepad-Secret": state.server.secret });
    if (!res.ok) alertLine(_("Not saved on the server: %(why)s. It is still kept in this browser.", { why: res.error.error }));
  }

  function adopt(data) {
    state.pad = data.pad;
    state.view = data.view;
    persist();
    render();
    saveToServer();
  }

  // ------------------------------------------------------------------
  // Set up

  function choiceOf(name) { return choices.find((c) => c.name === name) || choices[0]; }

  function fillSetup() {
    const rules = $("setup-rules");
    rules.replaceChildren(...choices.map((c) => el("option", { value: c.name, text: c.title })));
    rules.addEventListener("change", setupPlayers);
    $("setup-players").addEventListener("change", setupNames);
    setupPlayers();
  }

  function setupPlayers() {
    const c = choiceOf($("setup-rules").value);
    const sel = $("setup-players");
    const keep = Number(sel.value);
    sel.replaceChildren(...c.players.map((n) => el("option", {
      value: n, text: c.partnerships.includes(n) ? _("%(n)s (partnerships)", { n }) : String(n),
    })));
    if (c.players.includes(keep)) sel.value = String(keep);
    setupNames();
  }

  function setupNames() {
    const c = choiceOf($("setup-rules").value);
    const n = Number($("setup-players").value);
    const box = $("setup-names");
    const old = [...box.querySelectorAll("input")].map((i) => i.value);
    box.replaceChildren(...Array.from({ length: n }, (unused, i) => el("label", {},
      _("Player %(n)s", { n: i + 1 }),
      el("input", { name: "name" + i, class: "name-input", maxlength: "40",
        placeholder: _("Player %(n)s", { n: i + 1 }), value: old[i] || "" }))));
    const notes = [];
    if (c.partnerships.includes(n)) notes.push(_("Partners sit opposite: players 1 & 3 against 2 & 4."));
    if (c.win_rule === "lower-after-games") notes.push(_("Penalty points: after two games the lower total wins."));
    else if (c.target) notes.push(_("The game is played to %(target)s points.", { target: c.target }));
    $("setup-note").textContent = notes.join(" ");
  }

  async function startPad(ev) {
    ev.preventDefault();
    const inputs = [...$("setup-names").querySelectorAll("input")];
    const names = inputs.map((i) => i.value.trim() || i.placeholder);
    const res = await call("POST", "/api/scorepad/new", { rules: $("setup-rules").value, names });
    const err = $("setup-error");
    if (!res.ok) { err.textContent = res.error.error; err.hidden = false; return; }
    err.hidden = true;
    state.server = null;
    editing = null;
    form = null;
    adopt(res.data);
  }

  // ------------------------------------------------------------------
  // The round form: its values, built from the preset's fields

  function fieldsOf() { return state.view ? state.view.fields : []; }
  function sides() { return state.view.sides; }
  function seats() { return state.view.seats; }

  function blankForm() {
    const f = {};
    for (const fld of fieldsOf()) {
      const n = sides().length;
      if (fld.kind === "counts-or-most") f[fld.key] = { mode: "counts", counts: Array(n).fill(""), most: Array(n).fill(false) };
      else if (fld.kind === "counts") f[fld.key] = { mode: "counts", counts: Array(n).fill(""), most: [] };
      else if (fld.kind === "takers") {
        f.takers = {};
        for (const code of fld.codes) f.takers[code] = Array(fld.copies).fill("");
      } else if (fld.kind === "seats-in-order") f[fld.key] = [];
      else if (fld.kind === "seat") f[fld.key] = "";
    }
    return f;
  }

  function formFromEntry(entry) {
    const f = blankForm();
    const sideIndex = (side) => sides().findIndex((s) => s.side === side);
    for (const fld of fieldsOf()) {
      const k = fld.key;
      if (fld.kind === "counts-or-most" || fld.kind === "counts") {
        if (entry[k]) f[k].counts = entry[k].map(String);
        else if (entry["most_" + k]) {
          f[k].mode = "most";
          for (const side of entry["most_" + k]) if (sideIndex(side) >= 0) f[k].most[sideIndex(side)] = true;
        }
      } else if (fld.kind === "takers") {
        for (const code of fld.codes) {
          const got = (entry.takers || {})[code] || [];
          f.takers[code] = f.takers[code].map((_, i) => (got[i] === undefined ? "" : String(got[i])));
        }
      } else if (fld.kind === "seats-in-order") f[k] = [...(entry[k] || [])];
      else if (fld.kind === "seat") f[k] = entry[k] === undefined || entry[k] === null ? "" : String(entry[k]);
    }
    return f;
  }

  // The entry sent to the server; null (and a reason shown) if a box is not filled in.
  function entryFromForm() {
    const entry = {};
    for (const fld of fieldsOf()) {
      const k = fld.key;
      const v = form[k];
      if (fld.kind === "counts-or-most" || fld.kind === "counts") {
        if (v.mode === "most") {
          const leaders = sides().filter((_, i) => v.most[i]).map((s) => s.side);
          if (leaders.length) entry["most_" + k] = leaders;
        } else {
          const filled = v.counts.map((x) => String(x).trim());
          if (filled.some((x) => x !== "")) {
            const bad = filled.findIndex((x) => !/^\d+$/.test(x));
            if (bad >= 0) {
              showFieldError(k, _("enter a whole number of %(what)s for %(name)s", { what: fld.label.toLowerCase(), name: sides()[bad].name }));
              return null;
            }
            entry[k] = filled.map(Number);
          }
        }
      } else if (fld.kind === "takers") {
        const takers = {};
        for (const [code, list] of Object.entries(v)) {
          const chosen = list.filter((x) => x !== "").map(Number);
          if (chosen.length) takers[code] = chosen;
        }
        entry.takers = takers;
      } else if (fld.kind === "seats-in-order") {
        if (v.length) entry[k] = v;
      } else if (fld.kind === "seat") {
        if (v !== "") entry[k] = Number(v);
      }
    }
    return entry;
  }

  function changed() { persist(); }

  function fieldBox(fld, ...content) {
    return el("fieldset", { class: "pad-field", "data-field": fld.key, id: "field-" + fld.key },
      el("legend", { text: fld.label }),
      el("p", { class: "field-help", text: fld.help + (fld.total ? " " + _("(%(total)s in all)", { total: fld.total }) : "") }),
      ...content,
      el("p", { class: "field-error", role: "alert", hidden: true }));
  }

  function countsField(fld) {
    const v = form[fld.key];
    const body = el("div", { class: "field-body" });
    const draw = () => {
      body.replaceChildren();
      if (v.mode === "counts") {
        body.append(el("div", { class: "count-row" }, sides().map((s, i) => el("label", { class: "count" },
          el("span", { class: "who", text: s.name }),
          el("input", {
            type: "number", min: "0", max: fld.total || null, inputmode: "numeric",
            name: `${fld.key}-${i}`, value: v.counts[i],
            oninput: (e) => { v.counts[i] = e.target.value; clearErrors(); changed(); },
          })))));
      } else {
        body.append(el("div", { class: "most-row" }, sides().map((s, i) => el("label", { class: "choice" },
          el("input", {
            type: "checkbox", name: `most-${fld.key}-${i}`, checked: v.most[i],
            onchange: (e) => { v.most[i] = e.target.checked; clearErrors(); changed(); },
          }), s.name))));
      }
    };
    let toggle = null;
    if (fld.kind === "counts-or-most") {
      const modes = ["counts", "most"]; // the values of v.mode (the labels are below)
      toggle = el("div", { class: "mode-toggle" }, modes.map((mode) => el("label", { class: "choice" },
        el("input", {
          type: "radio", name: "mode-" + fld.key, value: mode, checked: v.mode === mode,
          onchange: () => { v.mode = mode; clearErrors(); changed(); draw(); },
        }), mode === "counts" ? _("how many each") : _("who had the most"))));
    }
    draw();
    return fieldBox(fld, toggle, body);
  }

  function suitClass(symbol) { return /[♥♦]/.test(symbol) ? "red" : "black"; }

  function takersField(fld) {
    const rows = fld.codes.map((code, ci) => {
      const symbol = fld.cards[ci];
      return form.takers[code].map((taken, copy) => el("div", { class: "taker-row", "data-card": code },
        el("span", { class: "taker-card " + suitClass(symbol), text: symbol + (fld.copies > 1 ? ` (${copy + 1})` : "") }),
        el("span", { class: "taker-choices" }, sides().map((s) => el("label", { class: "pill" },
          el("input", {
            type: "radio", name: `taker-${code}-${copy}`, value: String(s.side), checked: taken === String(s.side),
            onchange: () => { form.takers[code][copy] = String(s.side); clearErrors(); changed(); },
          }), el("span", { text: s.name }))))));
    });
    return fieldBox(fld, el("div", { class: "takers" }, rows.flat()));
  }

  function seatsField(fld) {
    const list = form[fld.key];
    const chips = el("ol", { class: "seat-chips" });
    const draw = () => {
      chips.replaceChildren(...list.map((seat, i) => el("li", { class: "seat-chip" },
        (seats()[seat] || { name: _("seat %(n)s", { n: seat }) }).name,
        el("button", {
          type: "button", class: "chip-remove", title: _("remove this one"), "aria-label": _("remove %(what)s %(n)s", { what: fld.label, n: i + 1 }),
          onclick: () => { list.splice(i, 1); clearErrors(); changed(); draw(); },
        }, "×"))));
      if (!list.length) chips.append(el("li", { class: "muted none", text: _("none") }));
    };
    const double = state.view.double_sweeps && fld.key === "sweeps";
    // "+ sweep: Ann": the field's name for one (Tablić's "Tablas" make a "tabla").
    const word = fld.label === _("Sweeps") ? _("sweep") : fld.label === _("Mulles") ? _("mulle")
      : fld.label.replace(/s$/, "").toLowerCase();
    const buttons = el("div", { class: "add-buttons" }, seats().map((s) => [
      el("button", {
        type: "button", class: "button small", "data-add": `${fld.key}-${s.seat}`,
        onclick: () => { list.push(s.seat); clearErrors(); changed(); draw(); },
      }, _("+ %(item)s: %(name)s", { item: word, name: s.name })),
      double ? el("button", {
        type: "button", class: "button small", "data-add": `double-${s.seat}`,
        onclick: () => { list.push(s.seat, s.seat); clearErrors(); changed(); draw(); },
      }, _("+ double sweep: %(name)s", { name: s.name })) : null,
    ]));
    draw();
    return fieldBox(fld, chips, buttons);
  }

  function seatField(fld) {
    return fieldBox(fld, el("select", {
      name: fld.key, onchange: (e) => { form[fld.key] = e.target.value; clearErrors(); changed(); },
    }, el("option", { value: "", text: "—" }), seats().map((s) => el("option", {
      value: String(s.seat), text: s.name, selected: form[fld.key] === String(s.seat),
    }))));
  }

  function renderForm() {
    const v = state.view;
    const formEl = $("round-form");
    formEl.hidden = v.over && editing === null;
    if (!form) form = blankForm();
    const box = $("round-fields");
    box.replaceChildren(...fieldsOf().map((fld) => {
      if (fld.kind === "counts-or-most" || fld.kind === "counts") return countsField(fld);
      if (fld.kind === "takers") return takersField(fld);
      if (fld.kind === "seats-in-order") return seatsField(fld);
      return seatField(fld);
    }));
    const n = editing === null ? v.rounds_entered + 1 : editing + 1;
    $("round-form-title").textContent = editing === null ? _("Round %(number)s", { number: n }) : _("Correct round %(number)s", { number: n });
    $("round-submit").textContent = editing === null ? _("Enter round %(number)s", { number: n }) : _("Save the correction to round %(number)s", { number: n });
    $("round-cancel").hidden = editing === null;
    formEl.classList.toggle("correcting", editing !== null);
  }

  function clearErrors() {
    for (const p of document.querySelectorAll(".field-error")) { p.hidden = true; p.textContent = ""; }
    for (const f of document.querySelectorAll(".pad-field.invalid")) f.classList.remove("invalid");
    $("round-error").hidden = true;
  }

  function showFieldError(field, message) {
    const key = (field || "").replace(/^most_/, "");
    const box = key ? document.querySelector(`.pad-field[data-field="${key}"]`) : null;
    if (box) {
      box.classList.add("invalid");
      const p = box.querySelector(".field-error");
      p.textContent = message;
      p.hidden = false;
      box.scrollIntoView({ block: "nearest" });
    } else {
      const p = $("round-error");
      p.textContent = message;
      p.hidden = false;
    }
  }

  async function submitRound(ev) {
    ev.preventDefault();
    clearErrors();
    const entry = entryFromForm();
    if (!entry) return;
    const action = editing === null ? { op: "add", round: entry } : { op: "replace", index: editing, round: entry };
    const button = $("round-submit");
    button.disabled = true;
    const res = await call("POST", "/api/scorepad/apply", { pad: state.pad, action });
    button.disabled = false;
    if (!res.ok) {  // the pad and the form stay as they were
      showFieldError(res.error.field, res.error.error || _("refused"));
      return;
    }
    editing = null;
    form = null;
    adopt(res.data);
  }

  async function simpleAction(action) {
    const res = await call("POST", "/api/scorepad/apply", { pad: state.pad, action });
    if (!res.ok) { alertLine(res.error.error); return; }
    alertLine("");
    if (editing !== null) { editing = null; form = null; }
    adopt(res.data);
  }

  // ------------------------------------------------------------------
  // The sheet

  function cell(text, cls) { return el("td", { class: cls || null }, text); }

  function renderSheet() {
    const v = state.view;
    $("pad-title").textContent = v.title;
    $("pad-players").textContent = v.sides.map((s) => s.name).join(_(" against "));
    document.title = _("Score pad") + " · " + v.sides.map((s) => s.name).join(_(" v "));
    $("pad-head").replaceChildren(el("th", { text: _("Round / item") }), ...v.sides.map((s) => el("th", { text: s.name })));
    const body = $("pad-body");
    body.replaceChildren();
    for (const r of v.rounds) {
      const head = el("tr", { class: "round-head", "data-round": r.number },
        el("th", { colspan: String(v.sides.length + 1) },
          el("span", { text: _("Round %(number)s", { number: r.number }) }),
          r.carry_in && (r.carry_in.cards || r.carry_in.spades)
            ? el("span", { class: "muted carry", text: " " + _("(carried in: %(cards)s cards, %(spades)s spades)", { cards: r.carry_in.cards, spades: r.carry_in.spades }) }) : null,
          el("button", {
            type: "button", class: "button small fix no-print", "data-fix": String(r.number - 1),
            onclick: () => startCorrection(r.number - 1),
          }, _("Fix")),
          r.number === v.rounds.length ? el("button", {
            type: "button", class: "button small no-print", "data-remove": String(r.number - 1),
            onclick: () => simpleAction({ op: "remove", index: r.number - 1 }),
          }, _("Remove")) : null));
      body.append(head);
      for (const it of r.items) {
        body.append(el("tr", { class: "item-row" },
          el("th", { scope: "row", class: "item-words", text: it.words }),
          v.sides.map((s, i) => cell(
            it.side === s.side
              ? [el("span", { class: "gain", text: signed(it.points) }), " ", el("span", { class: "run", text: num(it.totals[i]) })]
              : el("span", { class: "run muted", text: num(it.totals[i]) }),
            it.side === s.side ? "scored" : null))));
      }
      if (!r.items.length) body.append(el("tr", {}, el("td", { colspan: String(v.sides.length + 1), class: "muted", text: _("no points this round") })));
      body.append(el("tr", { class: "round-total", "data-round": r.number },
        el("th", { scope: "row", text: _("Round %(number)s", { number: r.number }) }),
        v.sides.map((s, i) => cell([el("span", { class: "gain", text: signed(r.points[i]) }), " ",
          el("strong", { class: "total", text: num(r.totals[i]) })]))));
      body.append(el("tr", { class: "round-words" }, el("td", { colspan: String(v.sides.length + 1), text: r.words })));
    }
    if (!v.rounds.length) body.append(el("tr", {}, el("td", { colspan: String(v.sides.length + 1), class: "muted", text: _("No rounds yet: enter the first one below.") })));
    $("pad-totals").replaceChildren(el("th", { scope: "row", text: _("Total") }),
      ...v.totals.map((t, i) => el("td", { class: "grand-total", "data-side": String(v.sides[i].side), text: num(t) })));
    const win = $("winner-line");
    if (v.over) {
      const who = v.sides.find((s) => s.side === v.winner);
      win.textContent = (who ? _("%(name)s won.", { name: who.name }) + " " : "") + (v.rounds.length ? v.rounds[v.rounds.length - 1].words : "");
      win.hidden = false;
    } else win.hidden = true;
    const carry = $("carry-line");
    carry.hidden = !(v.carry && (v.carry.cards || v.carry.spades));
    if (!carry.hidden) carry.textContent = _("Carried into the next round: %(cards)s cards and %(spades)s spades.", { cards: v.carry.cards, spades: v.carry.spades });
    $("undo-button").disabled = !v.can_undo;
    const share = $("share-line");
    share.hidden = !state.server;
    $("share-button").hidden = !!state.server;
    if (state.server) $("share-link").value = `${location.origin}/scorepad/${state.server.id}#${state.server.secret}`;
  }

  function startCorrection(index) {
    editing = index;
    form = formFromEntry(state.view.rounds[index].entry);
    persist();
    clearErrors();
    renderForm();
    $("round-form").scrollIntoView({ block: "start" });
  }

  function render() {
    const has = !!(state.pad && state.view);
    $("setup").hidden = has;
    $("sheet").hidden = !has;
    if (!has) return;
    renderSheet();
    renderForm();
  }

  // ------------------------------------------------------------------
  // Export, import, print, share

  function exportPad() {
    const blob = new Blob([JSON.stringify(state.pad, null, 1)], { type: "application/json" });
    const a = el("a", { href: URL.createObjectURL(blob), download: `scorepad-${new Date().toISOString().slice(0, 10)}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  // Two imports can be in flight at once (a second file chosen before the server read
  // the first); only the last one chosen may change the pad or the alert.
  let imports = 0;

  async function importFile(ev) {
    const file = ev.target.files && ev.target.files[0];
    ev.target.value = "";
    if (!file) return;
    const ticket = ++imports;
    let pad;
    try { pad = JSON.parse(await file.text()); } catch {
      if (ticket === imports) alertLine(_("%(file)s is not a score pad: it is not JSON.", { file: file.name }));
      return;
    }
    const res = await call("POST", "/api/scorepad/view", { pad });
    if (ticket !== imports) return;
    if (!res.ok) { alertLine(_("%(file)s is not a score pad this page can read: %(why)s", { file: file.name, why: res.error.error })); return; }
    alertLine("");
    if (state.pad) localStorage.setItem(BACKUP, JSON.stringify(state.pad));
    state.server = null;
    editing = null;
    form = null;
    adopt(res.data);
  }

  async function share() {
    const res = await call("POST", "/api/scorepads", { pad: forServer(state.pad) });
    if (!res.ok) { alertLine(_("Not kept on the server: %(why)s", { why: res.error.error })); return; }
    state.server = { id: res.data.id, secret: res.data.secret };
    persist();
    renderSheet();
    history.replaceState(null, "", `/scorepad/${state.server.id}#${state.server.secret}`);
  }

  function newPad() {
    if (state.pad && state.view.rounds.length && !window.confirm(_("Start a new pad? This one is forgotten (export it first to keep it)."))) return;
    if (state.pad) localStorage.setItem(BACKUP, JSON.stringify(state.pad));
    state.pad = null;
    state.view = null;
    state.server = null;
    editing = null;
    form = null;
    persist();
    if (location.pathname !== "/scorepad") history.replaceState(null, "", "/scorepad");
    render();
  }

  // ------------------------------------------------------------------
  // Start

  async function start() {
    fillSetup();
    $("setup-form").addEventListener("submit", startPad);
    $("round-form").addEventListener("submit", submitRound);
    $("round-cancel").addEventListener("click", () => { editing = null; form = null; persist(); clearErrors(); renderForm(); });
    $("round-clear").addEventListener("click", () => { form = blankForm(); persist(); clearErrors(); renderForm(); });
    $("undo-button").addEventListener("click", () => simpleAction({ op: "undo" }));
    $("export-button").addEventListener("click", exportPad);
    $("print-button").addEventListener("click", () => window.print());
    $("share-button").addEventListener("click", share);
    $("new-button").addEventListener("click", newPad);
    for (const input of document.querySelectorAll(".import-file")) input.addEventListener("change", importFile);

    const stored = readStore();
    const secret = decodeURIComponent(location.hash.slice(1));
    if (sharedId && secret) {
      const res = await call("GET", "/api/scorepads/" + encodeURIComponent(sharedId), undefined, { "X-Scorepad-Secret": secret });
      if (res.ok) {
        const same = stored.server && stored.server.id === sharedId;
        if (stored.pad && !same) localStorage.setItem(BACKUP, JSON.stringify(stored.pad));
        state.pad = res.data.pad;
        state.view = res.data.view;
        state.server = { id: sharedId, secret };
        form = same ? stored.form || null : null;
        editing = same && Number.isInteger(stored.editing) && stored.editing < res.data.view.rounds_entered ? stored.editing : null;
        persist();
        render();
        return;
      }
      alertLine(_("The shared pad could not be opened: %(why)s", { why: res.error.error }));
    } else if (sharedId) {
      alertLine(_("This link has lost its secret (the part after #): open the pad from its full link."));
    }
    if (stored.pad) {
      const res = await call("POST", "/api/scorepad/view", { pad: stored.pad });
      if (res.ok) {
        state.pad = res.data.pad;
        state.view = res.data.view;
        state.server = stored.server || null;
        form = stored.form || null;
        editing = Number.isInteger(stored.editing) && stored.editing < res.data.view.rounds_entered ? stored.editing : null;
        // A saved form that no longer fits the fields (another version) is dropped.
        if (form && fieldsOf().some((f) => !(f.key in form))) form = null;
      } else {
        localStorage.setItem(BACKUP, JSON.stringify(stored.pad));
        alertLine(_("The saved pad could not be read (%(why)s); a copy is kept in this browser's storage as %(key)s.", { why: res.error.error, key: BACKUP }));
      }
    }
    render();
  }

  start();
})();

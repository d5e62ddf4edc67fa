// The daily deal's pages: "Play" starts (or resumes) today's deal of a ruleset
// (POST /api/daily/<rules>), "Play this deal again" a past day's for practice; a guest's
// name for the results is kept in this browser too (the server offers the name it took
// part under last), to be offered again the next day.
"use strict";
(() => {
  const { _ } = window.CasinoI18n;
  const NAME_KEY = "casino-daily-name";
  const nameBox = document.getElementById("daily-name");
  const err = document.getElementById("daily-error");
  if (nameBox) {
    try { nameBox.value = nameBox.value || localStorage.getItem(NAME_KEY) || ""; } catch { /* no storage */ }
  }

  async function start(url, body, button) {
    button.disabled = true;
    try {
      const res = await fetch(url, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: body === null ? undefined : JSON.stringify(body), credentials: "same-origin",
      });
      let data = {};
      try { data = await res.json(); } catch { /* not JSON */ }
      if (!res.ok) throw new Error(typeof data.error === "string" ? data.error : _("the server said %(status)s", { status: res.status }));
      location.href = data.url;
    } catch (ex) {
      if (err) { err.textContent = _("Could not start the deal: %(why)s", { why: ex.message }); err.hidden = false; }
      button.disabled = false;
    }
  }

  document.querySelectorAll(".daily-play").forEach((button) => {
    button.addEventListener("click", () => {
      const body = {};
      if (nameBox) {
        body.name = nameBox.value.trim();
        try { localStorage.setItem(NAME_KEY, body.name); } catch { /* no storage */ }
      }
      start(`/api/daily/${encodeURIComponent(button.dataset.rules)}`, body, button);
    });
  });
  document.querySelectorAll(".daily-practice").forEach((button) => {
    button.addEventListener("click", () => start(
      `/api/daily/${encodeURIComponent(button.dataset.day)}/${encodeURIComponent(button.dataset.rules)}/practice`,
      null, button));
  });
})();

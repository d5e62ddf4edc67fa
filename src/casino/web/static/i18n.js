// The page's words in the reader's language. The server puts the catalog of the page's
// language in <script type="application/json" id="catalog"> (a JSON body, not a script:
// the Content-Security-Policy runs none inline); this gives the other scripts _() and
// ngettext() over it. A message's id is its English text, which is also what they get
// back when the catalog has no translation (English has none).
"use strict";

(() => {
  let catalog = { lang: "en", messages: {} };
  const element = document.getElementById("catalog");
  if (element) {
    try {
      catalog = JSON.parse(element.textContent || "{}");
    } catch (ignored) {
      catalog = { lang: "en", messages: {} };
    }
  }
  const messages = catalog.messages || {};

  // Put each %(name)s of text in place from values (the Python and Jinja form, so one
  // message is written one way in all three).
  function fill(text, values) {
    if (!values) return text;
    return text.replace(/%\((\w+)\)s/g, (whole, name) => (name in values ? String(values[name]) : whole));
  }

  window.CasinoI18n = Object.freeze({
    lang: catalog.lang || "en",
    // _("Start the game") or _("Could not pair you: %(why)s", {why: ...})
    _(message, values) {
      const text = messages[message];
      return fill(typeof text === "string" && text ? text : message, values);
    },
    // ngettext("one seat", "%(n)s seats", n, {n}): English, Finnish and Swedish have
    // one form for 1 and another for every other count.
    ngettext(singular, plural, n, values) {
      const forms = messages[singular];
      const index = n === 1 ? 0 : 1;
      const text = Array.isArray(forms) && forms[index] ? forms[index] : (index === 0 ? singular : plural);
      return fill(text, Object.assign({ n }, values || {}));
    },
  });
})();

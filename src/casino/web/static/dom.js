// Small DOM helpers shared by every page of the web client. Text always goes in as text
// (textContent), never as HTML, because names and messages come from people.
//
// Numbers and optional values are written through the formatters below and children are
// added through el/fill/add, never through a bare template string or the DOM's own
// append: the DOM writes null as the word "null" and a template writes "+" + -5 as
// "+-5", which a Krypkasino score pad showed to players.
"use strict";

(() => {
  const MINUS = "\u2212"; // the minus sign, not the hyphen: "−5" lines up with "+5"

  // The children el/fill/add take: nested lists are flattened, and null, undefined and
  // false are left out (a part of the page that is not there), never written as words.
  function nodes(children) {
    const out = [];
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      out.push(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return out;
  }

  function isNumber(n) {
    return typeof n === "number" && Number.isFinite(n);
  }

  window.CasinoDom = Object.freeze({
    // el("button", {class: "x", text: "Play", onclick: f, dataset: {id: "t0"}}, child, ...)
    el(tag, attrs, ...children) {
      const node = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs || {})) {
        if (v === null || v === undefined || v === false) continue;
        if (k === "class") node.className = v;
        else if (k === "text") node.textContent = v;
        else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
        else if (k === "dataset") Object.assign(node.dataset, v);
        else node.setAttribute(k, v === true ? "" : v);
      }
      node.append(...nodes(children));
      return node;
    },

    // node's children replaced by these (the same rules as el's children).
    fill(node, ...children) {
      node.replaceChildren(...nodes(children));
      return node;
    },

    // These children added at the end of node (the same rules as el's children).
    add(node, ...children) {
      node.append(...nodes(children));
      return node;
    },

    // A total or a count: "12", "−3"; "–" when there is no number (never "null").
    num(n) {
      if (!isNumber(n)) return "–";
      return n < 0 ? MINUS + String(-n) : String(n);
    },

    // Points won or lost: "+5", "−5", "0"; "–" when there is no number.
    signed(n) {
      if (!isNumber(n)) return "–";
      if (n > 0) return "+" + String(n);
      return n < 0 ? MINUS + String(-n) : "0";
    },

    // An optional text: itself, or "" (never "null" or "undefined").
    text(v) {
      return v === null || v === undefined ? "" : String(v);
    },
  });
})();

// The invite page: offer the name this browser used before, and remember the one given.
"use strict";

(() => {
  const input = document.getElementById("join-name");
  if (!input) return;
  try { input.value = input.value || localStorage.getItem("casino-name") || ""; } catch { /* private mode */ }
  input.form.addEventListener("submit", () => {
    const name = input.value.trim();
    if (name) {
      try { localStorage.setItem("casino-name", name); } catch { /* private mode */ }
    }
  });
})();

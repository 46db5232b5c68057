// Every page's script: the scripts' words, what the templates would otherwise write inline, a timed
// round's clock. The pad (pad.js) comes with the pad; the pickers (pickers.js) are fetched by the pages
// that have them. What each part does: docs/tablet-layout.md.
window.tsoxaI18n = {
  gettext: function (text) { return window.gettext ? window.gettext(text) : text; },
  ngettext: function (one, many, n) { return window.ngettext ? window.ngettext(one, many, n) : (n === 1 ? one : many); },
  format: function (text, values) {
    return window.interpolate ? window.interpolate(text, values, true)
      : text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  },
};

// Start a match and the player pickers: pickers.js, fetched once where a page has them (after a swap too).
(function () {
  "use strict";
  const src = document.currentScript && document.currentScript.src;
  let asked = false;
  function load() {
    if (asked || !src || !document.querySelector("[data-search-url], input[data-seat], .option-group[data-ruleset], .team-cards")) return;
    asked = true;
    document.head.append(Object.assign(document.createElement("script"), {src: src.replace(/tablet\.js/, "pickers.js")}));
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", load);
  else load();
  document.addEventListener("htmx:afterSettle", load);
})();

// What the templates would otherwise write inline (the Content-Security-Policy runs none).
(function () {
  "use strict";
  // A form with data-question asks it before it is sent (deleting a deal).
  document.addEventListener("submit", function (e) {
    const f = e.target;
    if (f instanceof HTMLFormElement && f.dataset.question && !window.confirm(f.dataset.question)) {
      e.preventDefault();
    }
  });
  // A page that follows results (hx-trigger="every …") asks nothing while it is hidden.
  document.addEventListener("htmx:beforeRequest", function (e) {
    const trigger = (e.detail.elt && e.detail.elt.getAttribute("hx-trigger")) || "";
    if (/^\s*every\s/.test(trigger) && document.visibilityState !== "visible") e.preventDefault();
  });
})();

// A timed round's clock on the sheet (docs/tablet-layout.md).
(function () {
  function tick() {
    document.querySelectorAll(".round-clock[data-state=running]").forEach(function (el) {
      if (!el.dataset.until) el.dataset.until = String(Date.now() + 1000 * Number(el.dataset.left || 0));
      const left = Math.max(0, Math.ceil((Number(el.dataset.until) - Date.now()) / 1000));
      const shown = el.querySelector(".clock-left");
      if (left === 0) {
        el.dataset.state = "over";
        el.className = "round-clock clock-over";
        const strong = document.createElement("strong");
        strong.textContent = el.dataset.last;
        el.replaceChildren(strong);
      } else if (shown) {
        const m = Math.floor(left / 60), s = left % 60;
        shown.textContent = m + ":" + String(s).padStart(2, "0");
      }
    });
  }
  setInterval(tick, 1000);
})();

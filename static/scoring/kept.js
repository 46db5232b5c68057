// The offline page (templates/offline.html): the sheets this tablet keeps (sw.js), each with the
// deals waiting for it, which offline.js tells with the "tsoxa:waiting" event.
(() => {
  "use strict";
  const SHEET_PATH = /^\/matches\/\d+\/$/;

  function show(waiting) {
    const list = document.getElementById("kept-sheets");
    if (!list || !window.caches) return;
    const i18n = window.tsoxaI18n;
    caches.open("tsoxa-sheets").then((cache) => cache.keys().then((requests) => Promise.all(requests
      .filter((r) => SHEET_PATH.test(new URL(r.url).pathname)).reverse()
      .map((r) => cache.match(r).then((response) => response.text()).then((html) => ({
        path: new URL(r.url).pathname,
        title: new DOMParser().parseFromString(html, "text/html").title.replace(/\s·\sTsoxa$/, ""),
      })))))
    ).then((sheets) => {
      list.replaceChildren(...sheets.map((s) => {
        const item = document.createElement("li");
        const link = Object.assign(document.createElement("a"), {href: s.path, textContent: s.title || s.path});
        item.append(link);
        const n = waiting.filter((w) => w.page === s.path).length;
        if (n) item.append(" · ", i18n.format(i18n.ngettext("%(n)s waiting", "%(n)s waiting", n), {n: n}));
        return item;
      }));
      list.hidden = !sheets.length;
      document.getElementById("no-kept-sheets").hidden = !!sheets.length;
    }).catch(() => { /* no copies to show */ });
  }
  document.addEventListener("tsoxa:waiting", (e) => show(e.detail));
})();

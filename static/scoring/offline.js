// Deals that wait (no connection, a 5xx or 429, no answer) in IndexedDB, sent again in order; sheets
// that open offline (docs/deploy/outage.md, "The network"). Words: tablet.js's tsoxaI18n.
(() => {
  "use strict";
  const script = document.currentScript;
  const i18n = window.tsoxaI18n;
  const gettext = i18n.gettext, ngettext = i18n.ngettext, interpolate = i18n.format;

  const SHEET_PATH = /^\/matches\/\d+\/$/;
  const DEAL_FORMS = "form.deal-form, form.thrown-in-form";
  const SHEETS_CACHE = "tsoxa-sheets";  // sw.js keeps the sheets there
  const LOCAL = "tsoxa-pending-deals";  // localStorage: before IndexedDB, and without it
  const ANSWERED = "tsoxa-deals-answered";  // localStorage: {page: when a waiting deal of it was last answered}
  const RETRY_MS = 20000, RETRY_FIRST_MS = 2000, ANSWER_MS = 15000;

  function el(tag, props, ...children) {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  }

  // The waiting deals, oldest first, a key once: {id, key, page, action, body, summary, queuedAt}.
  const idb = (() => {
    let opened = null;
    const open = () => opened || (opened = new Promise((resolve, reject) => {
      const request = window.indexedDB.open("tsoxa", 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore("deals", {keyPath: "id", autoIncrement: true}).createIndex("key", "key", {unique: true});
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    }));
    const run = (mode, work) => open().then((db) => new Promise((resolve, reject) => {
      const tx = db.transaction("deals", mode);
      const request = work(tx.objectStore("deals"));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onabort = () => reject(tx.error);
    }));
    return {
      all: () => run("readonly", (deals) => deals.getAll()),
      add: (item) => run("readwrite", (deals) => {
        const request = deals.add(item);
        request.onerror = (e) => {  // the same key already waits: keep the first
          if (request.error && request.error.name === "ConstraintError") e.preventDefault();
        };
        return null;
      }),
      remove: (id) => run("readwrite", (deals) => { deals.delete(id); return null; }),
    };
  })();

  const local = {
    read: () => {
      try { return JSON.parse(localStorage.getItem(LOCAL)) || []; } catch (e) { return []; }
    },
    write: (list) => {
      try {
        if (list.length) localStorage.setItem(LOCAL, JSON.stringify(list)); else localStorage.removeItem(LOCAL);
      } catch (e) { /* full or refused: they wait in this page only */ }
    },
    all: async () => local.read().map((item, i) => Object.assign({id: i + 1}, item)),
    add: async (item) => {
      const list = local.read();
      if (!list.some((old) => old.key === item.key)) local.write(list.concat([item]));
    },
    remove: async (id) => local.write(local.read().filter((item, i) => (item.id || i + 1) !== id)),
  };

  // IndexedDB if there is one; what waited in localStorage moves there.
  const store = (() => {
    const ready = (window.indexedDB ? idb.all() : Promise.reject(new Error("no IndexedDB")))
      .then(() => local.read().reduce((done, item) => done.then(() => {
        const key = item.key || new URLSearchParams(item.body).get("client_key") || newKey();
        return idb.add(Object.assign({summary: {}, queuedAt: ""}, item, {key: key}));
      }), Promise.resolve()).then(() => { local.write([]); return idb; }))
      .catch(() => local);
    return {
      all: () => ready.then((s) => s.all()),
      add: (item) => ready.then((s) => s.add(item)),
      remove: (id) => ready.then((s) => s.remove(id)),
    };
  })();

  let waiting = [];  // what the store holds, for the page to show at once
  let sentHere = false;  // something was sent while this page was open
  let padEmpty = false;  // the pad was emptied for the next deal and nothing was tapped since
  let flight = null;  // the pad's deal on its way: what was sent; the pad touched since?
  let note = "";

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, (c) => {
      const r = Math.random() * 16 | 0;
      return (c === "x" ? r : (r & 0x3 | 0x8)).toString(16);
    });
  }
  // The CSRF token of now (the cookie): the worker's copy of a page may hold an older one.
  function csrf() {
    const cookie = document.cookie.split(/;\s*/).find((c) => c.startsWith("csrftoken="));
    if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }
  const here = () => waiting.filter((item) => item.page === location.pathname);
  const offlineCopy = () => document.documentElement.dataset.offlineCopy;
  const reload = () => store.all().then((list) => { waiting = list; show(); }, show);

  // What the pad said, for the waiting row.
  function summary(form) {
    if (form.classList.contains("thrown-in-form")) return {thrown: true};
    const label = (name) => {
      const input = form.querySelector(`input[name="${name}"]:checked`);
      const box = input && input.closest("label");
      return box ? box.textContent.replace(/\s+/g, " ").trim() : "";
    };
    const points = form.querySelector('input[name="card_points"]');
    const other = form.querySelector("#other-points");
    const mine = points ? points.value.trim() : "";
    const theirs = other ? other.textContent.trim() : "";
    let cards = "";
    if (/^\d+$/.test(mine) && /^\d+$/.test(theirs)) {
      const team = (form.querySelector('input[name="points_team"]:checked') || {}).value;
      cards = team === "1" ? `${theirs}–${mine}` : `${mine}–${theirs}`;
    }
    const last = form.querySelector('input[name="last_trick"]:checked');
    return {maker: label("maker"), cards: cards, capo: last && last.value.startsWith("capo") ? label("last_trick") : ""};
  }
  function describe(s) {
    if (!s) return "";
    return s.thrown ? gettext("all passed") : [s.maker, s.cards, s.capo].filter(Boolean).join(" · ");
  }

  // A fresh pad for the next deal, with a key of its own.
  function freshKeys() {
    const key = newKey();
    document.querySelectorAll(`:is(${DEAL_FORMS}) input[name="client_key"]`).forEach((field) => { field.value = key; });
  }
  function freshPad() {
    freshKeys();
    document.querySelectorAll(DEAL_FORMS).forEach((f) => {
      if (f.classList.contains("deal-form")) {
        f.reset();
        delete f.dataset.pointsTeamTouched;
      }
      f.querySelectorAll("button").forEach((b) => { b.disabled = false; });
    });
    const preview = document.getElementById("preview");
    if (preview) preview.textContent = "";
    document.querySelectorAll("form.deal-form").forEach((f) => f.dispatchEvent(new Event("input", {bubbles: true})));
    padEmpty = true;
  }

  // The pad's deal (or what was sent of it) waits; the pad is free for the next.
  function enqueue(form, sent) {
    const body = new URLSearchParams(sent ? sent.formData : new FormData(form));
    body.delete("version");  // this tablet's deals follow each other: no stale-sheet check
    if (!body.get("client_key")) body.set("client_key", newKey());
    const key = body.get("client_key");
    const item = {
      key: key, page: location.pathname, action: form.action, body: body.toString(),
      summary: sent ? sent.summary : summary(form), queuedAt: new Date().toISOString(),
    };
    if (sent && sent.touched) freshKeys();  // the next deal is being typed: it keeps its taps
    else freshPad();
    if (waiting.some((old) => old.key === key)) return Promise.resolve();  // a double tap
    waiting.push(item);
    note = "";
    show();
    return store.add(item).then(reload, () => { /* not stored: it waits in this page */ });
  }

  // Send what waits, oldest first; one that cannot go stops the rest; a refused one is said.
  let sending = null;
  const exclusive = (work) => navigator.locks && navigator.locks.request ? navigator.locks.request("tsoxa-send", work) : work();
  const failed = (status) => status >= 500 || status === 429;
  async function sendAll() {
    const refused = [];
    let sent = 0, stopped = false;
    for (;;) {
      const item = (await store.all())[0];
      if (!item) break;
      let response;
      try {
        response = await fetch(item.action, {
          method: "POST",
          body: item.body,
          credentials: "same-origin",
          headers: {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": csrf(), "HX-Request": "true"},
          signal: window.AbortSignal && AbortSignal.timeout ? AbortSignal.timeout(ANSWER_MS) : undefined,
        });
      } catch (e) {
        response = {status: 0};
      }
      if (!response.status || failed(response.status)) { stopped = true; break; }
      answered(item.page);  // before it leaves the store: a page opened meanwhile looks here (start)
      await store.remove(item.id);
      if (response.ok && !response.redirected) sent += 1;
      else refused.push(item);  // refused (finished, changed, not this tablet's): enter it again
    }
    return {sent: sent, refused: refused, stopped: stopped};
  }
  // A waiting deal answered by the server, page by page (the last hour's). A page opened while its
  // deal was on its way from another (the tablet reloaded as the connection returned) may have been
  // drawn before the deal was saved, and finds the store empty once the other took it out: it asks
  // for its sheet again when the answer came after it began loading (start).
  function answered(page) {
    try {
      const now = Date.now(), list = JSON.parse(localStorage.getItem(ANSWERED) || "{}");
      Object.keys(list).forEach((p) => { if (!(now - list[p] < 3600000)) delete list[p]; });
      list[page] = now;
      localStorage.setItem(ANSWERED, JSON.stringify(list));
    } catch (e) { /* no storage: the sheet shows the deal at its next load */ }
  }
  function answeredSinceLoad() {
    try {
      const when = JSON.parse(localStorage.getItem(ANSWERED) || "{}")[location.pathname];
      return typeof when === "number" && when >= performance.timeOrigin;
    } catch (e) { return false; }
  }

  // Tried again later while the server fails.
  let retryIn = 0, retryTimer = null;
  function retryLater() {
    retryIn = Math.min(retryIn ? retryIn * 2 : RETRY_FIRST_MS, RETRY_MS);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(resend, retryIn);
  }
  function resend() {
    if (sending || flight || !navigator.onLine) return sending;
    sending = reload().then(() => waiting.length ? exclusive(sendAll) : {sent: 0, refused: []})
      .then((result) => {
        sending = null;
        if (result.stopped) retryLater(); else retryIn = 0;
        if (result.sent) sentHere = true;
        const n = result.refused.length;
        if (n) {
          note = interpolate(ngettext(
            "%(n)s waiting deal could not be recorded: please enter it again.",
            "%(n)s waiting deals could not be recorded: please enter them again.", n), {n: n});
        }
        if (result.sent || n || offlineCopy()) refreshSheet();
        return reload();
      }, () => { sending = null; });
    return sending;
  }

  // The sheet as the server has it now.
  function refreshSheet() {
    if (!document.getElementById("match-area") || !window.htmx || !SHEET_PATH.test(location.pathname)) return;
    htmx.ajax("GET", location.pathname, {target: "#match-area", select: "#match-area", swap: "outerHTML"});
  }

  // Showing it

  function showStatus() {
    const status = document.getElementById("net-status");
    if (!status) return;
    const n = waiting.length;
    let text = "", state = "";
    if (!navigator.onLine) {
      state = "offline";
      text = n ? interpolate(ngettext("offline, %(n)s waiting", "offline, %(n)s waiting", n), {n: n}) : gettext("offline");
    } else if (n) {
      state = "waiting";
      text = interpolate(ngettext("%(n)s waiting to be sent", "%(n)s waiting to be sent", n), {n: n});
    } else if (flight) {
      state = "sending";
      text = gettext("sending…");
    } else if (sentHere || document.querySelector("form.deal-form")) {
      state = "sent";
      text = gettext("all sent");
    }
    status.textContent = text;
    status.dataset.state = state;
    status.hidden = !text;
  }

  function showRows(list) {
    const table = document.querySelector('table[data-testid="sheet"]');
    if (!table) return;
    const body = document.getElementById("waiting-deals") || table.appendChild(el("tbody", {id: "waiting-deals"}));
    const recorded = table.querySelectorAll('tr[data-testid="deal-row"]').length;
    const head = table.tHead && table.tHead.rows[0];
    const columns = head ? Array.from(head.cells).reduce((n, cell) => n + cell.colSpan, 0) : 2;
    // Newest first? Where sheet.html put the waiting rows says.
    const others = Array.from(table.tBodies).filter((b) => b !== body);
    const newestFirst = others.length > 0 && !!(body.compareDocumentPosition(others[0]) & Node.DOCUMENT_POSITION_FOLLOWING);
    const rows = list.map((item, i) => {
      const row = el("tr", {className: "waiting"},
        el("td", {textContent: String(recorded + i + 1)}),
        el("td", {colSpan: Math.max(1, columns - 1)},
          el("span", {className: "badge waiting", textContent: gettext("waiting")}), " ", describe(item.summary)));
      row.dataset.testid = "waiting-row";
      row.dataset.key = item.key;
      return row;
    });
    if (newestFirst) rows.reverse();
    body.replaceChildren(...rows);
    table.querySelectorAll("td.empty").forEach((cell) => { cell.parentElement.hidden = list.length > 0; });
  }

  function showTotals(n) {
    const board = document.querySelector(".scoreboard");
    if (!board) return;
    board.classList.toggle("before-waiting", n > 0);
    let line = document.getElementById("before-waiting");
    if (!line && n) {
      line = el("p", {id: "before-waiting", className: "before-waiting-note"});
      line.dataset.testid = "before-waiting";
      (board.querySelector(".match-state") || board).prepend(line);
    }
    if (line) {
      line.textContent = n ? interpolate(ngettext("Totals before %(n)s waiting deal", "Totals before %(n)s waiting deals", n), {n: n}) : "";
      line.hidden = !n;
    }
  }

  function showPending(n) {
    const box = document.getElementById("pending");
    if (!box) return;
    const text = n ? interpolate(ngettext(
      "%(n)s deal is waiting for the connection; they are sent as soon as it returns.",
      "%(n)s deals are waiting for the connection; they are sent as soon as it returns.", n), {n: n}) : "";
    box.textContent = [text, note].filter(Boolean).join(" ");
    box.hidden = !box.textContent;
  }

  function show() {
    const mine = here();
    showStatus();
    showRows(mine);
    showTotals(mine.length);
    showPending(mine.length);
    workOut(mine);
  }

  // What they make, by the engine on the tablet (engine-loader.js: loaded once a deal waits).
  let engine = null;
  function workOut(mine) {
    if ((!engine && !mine.length) || !SHEET_PATH.test(location.pathname) || !script) return;
    engine = engine || new Promise((resolve, reject) => {
      document.head.append(el("script", {src: script.src.replace(/offline\.js/, "engine-loader.js"), onload: resolve, onerror: reject}));
    });
    engine.then(() => window.tsoxaEngine.show(mine), () => {});
  }

  // The worker's copy of a page says so, with its time.
  function showCopy() {
    const kept = offlineCopy();
    const old = document.getElementById("offline-copy");
    if (!kept) { if (old) old.remove(); return; }
    if (old) return;
    const when = new Date(kept);
    const lang = document.documentElement.lang || undefined;
    const today = new Date().toDateString() === when.toDateString();
    const time = isNaN(when) ? "?" : today
      ? when.toLocaleTimeString(lang, {hour: "2-digit", minute: "2-digit"})
      : when.toLocaleString(lang, {dateStyle: "short", timeStyle: "short"});
    const line = el("p", {id: "offline-copy", className: "offline-copy", textContent: interpolate(gettext("No connection: this is the copy of this sheet from %(time)s. Deals recorded now wait on this tablet."), {time: time})});
    line.dataset.testid = "offline-copy";
    line.setAttribute("role", "status");
    (document.querySelector("main") || document.body).prepend(line);
  }

  // sw.js keeps this sheet as it is now; with a pad, its match file and the engine (only those: engineOnly).
  let keepTimer = null;
  function keepSheet(engineOnly) {
    clearTimeout(keepTimer);
    keepTimer = setTimeout(() => {
      const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (!worker || !navigator.onLine || offlineCopy() || !SHEET_PATH.test(location.pathname)) return;
      const channel = new MessageChannel(), html = document.documentElement.dataset;
      channel.port1.onmessage = (e) => {
        if (e.data.kept) html.offlineReady = "true";
        if ("engine" in e.data) html.engineKept = String(e.data.engine);
      };
      const type = engineOnly === true ? "keep-engine" : "keep-sheet", pad = !!document.querySelector(DEAL_FORMS);
      worker.postMessage({type: type, url: location.pathname, engine: pad}, [channel.port2]);
    }, 50);
  }
  if ("serviceWorker" in navigator && script && script.dataset.sw) {
    navigator.serviceWorker.register(script.dataset.sw, {scope: "/"}).catch(() => { /* not installable here */ });
    navigator.serviceWorker.addEventListener("controllerchange", keepSheet);
  }

  // Events

  // Record on an untouched pad: a double tap, not a deal.
  ["input", "change", "tsoxa:changed"].forEach((type) => document.addEventListener(type, (e) => {
    if (!e.target.closest || !e.target.closest("form.deal-form")) return;
    padEmpty = false;
    if (flight) flight.touched = true;
  }));
  const isDeal = (elt) => !!elt && !!elt.matches && elt.matches(DEAL_FORMS);
  const sentOf = (e) => e.detail.requestConfig && e.detail.requestConfig.tsoxaDeal;
  document.addEventListener("htmx:beforeRequest", (e) => {
    const elt = e.detail.elt;
    if (e.defaultPrevented || !elt || !elt.matches) return;  // the pad itself stopped it (pad.js)
    if (isDeal(elt) && (!navigator.onLine || here().length)) {
      // Offline, or behind waiting deals: it waits too.
      e.preventDefault();
      if (padEmpty && elt.matches("form.deal-form")) return;
      enqueue(elt).then(resend);
    } else if (isDeal(elt)) {
      // On its way: kept, should it have to wait.
      const config = e.detail.requestConfig;
      flight = config.tsoxaDeal = {formData: config.formData, summary: summary(elt), touched: false};
      hold(true);
      refusal();
      show();
    } else if (elt.id === "preview" && !navigator.onLine) {
      e.preventDefault();  // the preview needs the server: say what happens instead
      const line = el("p", {className: "preview offline-note", textContent: gettext("No connection: the deal will wait on this tablet and be sent when it returns.")});
      line.dataset.testid = "preview";
      elt.replaceChildren(line);
    }
  });
  document.addEventListener("htmx:configRequest", (e) => {
    if (isDeal(e.detail.elt)) e.detail.timeout = ANSWER_MS;
  });
  document.addEventListener("htmx:afterRequest", (e) => {
    if (!sentOf(e) || sentOf(e) !== flight) return;
    flight = null;
    hold(false);
    show();
    const status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (status >= 200 && status < 400 && waiting.length) resend();  // a lost one waits for its retry
  });
  // No answer, or a server error: the deal waits and is sent again.
  function lost(e) {
    if (!sentOf(e)) return false;
    enqueue(e.detail.elt, sentOf(e)).then(retryLater);
    return true;
  }
  document.addEventListener("htmx:timeout", lost);
  document.addEventListener("htmx:responseError", (e) => {
    if (!sentOf(e)) return;
    if (failed(e.detail.xhr.status)) lost(e);
    else refusal(e.detail.xhr);  // (the rules' 422 is no error: the pad comes back saying why)
  });
  document.addEventListener("htmx:sendError", (e) => {
    if (lost(e) || !e.detail.elt || e.detail.elt.id === "preview") return;
    note = gettext("No connection: try again when it returns.");
    show();
  });

  // The pad waits for the answer of the deal on its way.
  function hold(on) {
    document.querySelectorAll("button[type=submit]").forEach((b) => {
      if (isDeal(b.form)) b.disabled = on;
    });
  }
  // Refused: the pad says why and keeps what was typed.
  function refusal(xhr) {
    const box = document.querySelector("form.deal-form .pad-alert");
    if (!box) return;
    box.querySelectorAll('[data-for="server"]').forEach((line) => line.remove());
    if (xhr) {
      const heading = new DOMParser().parseFromString(xhr.responseText || "", "text/html").querySelector("main h1, h1");
      const reason = heading ? heading.textContent.replace(/\s+/g, " ").trim() : `${xhr.status} ${xhr.statusText}`;
      const line = el("p", {textContent: interpolate(gettext("Not recorded: %(reason)s"), {reason: reason})});
      line.dataset.for = "server";
      box.append(line);
    }
    box.hidden = !box.children.length;
  }

  document.addEventListener("htmx:afterSettle", (e) => {
    if (e.target && e.target.id === "match-area") {
      if (offlineCopy() && navigator.onLine) {
        delete document.documentElement.dataset.offlineCopy;  // the sheet is fresh again
        showCopy();
      }
      keepSheet();
    }
    show();
  });

  // Logging out forgets the sheets kept here.
  document.addEventListener("submit", (e) => {
    if (e.target instanceof HTMLFormElement && /\/logout\/$/.test(e.target.action) && window.caches) {
      caches.delete(SHEETS_CACHE);
    }
  });

  window.addEventListener("online", () => { show(); resend(); });
  window.addEventListener("offline", show);
  setInterval(() => { if (waiting.length && navigator.onLine) resend(); }, RETRY_MS);

  function start() {
    if (offlineCopy()) freshKeys();  // the copy's pad may hold a key already used
    showCopy();
    if (navigator.serviceWorker && navigator.serviceWorker.controller && window.caches && SHEET_PATH.test(location.pathname) && !offlineCopy()) {
      caches.open(SHEETS_CACHE).then((cache) => cache.match(location.pathname))
        .then((copy) => { if (copy) document.documentElement.dataset.offlineReady = "true"; }, () => {});
      keepSheet(true);
    }
    show();
    reload().then(() => {
      document.dispatchEvent(new CustomEvent("tsoxa:waiting", {detail: waiting}));  // kept.js, on the offline page
      if (!waiting.length && answeredSinceLoad()) refreshSheet();
      resend();
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

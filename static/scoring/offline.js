// Offline. Tsoxa installs as an app (the manifest and the service worker: config/pwa.py, sw.js); a
// sheet opened once opens again without a connection (the worker keeps its last copy); and a deal
// recorded without a connection waits on this tablet, in IndexedDB, and is sent, in order, as soon
// as the connection returns or a page of Tsoxa is opened again. The server records a deal once per
// client key, so a deal sent twice is stored once.
//
// What waits is shown: the sheet lists the waiting deals as rows marked "waiting" and says its totals
// are from before them; the header says "offline, N waiting", then "all sent".
// Words come from Django's JavaScript catalogue (jsi18n/, loaded before this file by base.html).
(function () {
  "use strict";
  const script = document.currentScript;
  const gettext = function (text) { return window.gettext ? window.gettext(text) : text; };
  const ngettext = function (one, many, n) {
    return window.ngettext ? window.ngettext(one, many, n) : (n === 1 ? one : many);
  };
  const interpolate = function (text, values) {
    return window.interpolate ? window.interpolate(text, values, true)
      : text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };

  const SHEET_PATH = /^\/matches\/\d+\/$/;
  const DEAL_FORMS = "form.deal-form, form.thrown-in-form";
  const SHEETS_CACHE = "tsoxa-sheets";  // sw.js keeps the sheets there
  const LOCAL = "tsoxa-pending-deals";  // where deals waited before (localStorage), and still do without IndexedDB
  const RETRY_MS = 20000;

  // The waiting deals, in the order they were recorded: IndexedDB "tsoxa", store "deals"; a
  // deal's client key is unique there (a double tap queues it once).
  // Each: {id, key, page (the sheet's path), action, body (the form, urlencoded), summary, queuedAt}.
  const idb = (function () {
    let opened = null;
    function open() {
      if (!opened) {
        opened = new Promise(function (resolve, reject) {
          const request = window.indexedDB.open("tsoxa", 1);
          request.onupgradeneeded = function () {
            const deals = request.result.createObjectStore("deals", {keyPath: "id", autoIncrement: true});
            deals.createIndex("key", "key", {unique: true});
          };
          request.onsuccess = function () { resolve(request.result); };
          request.onerror = function () { reject(request.error); };
        });
      }
      return opened;
    }
    function run(mode, work) {
      return open().then(function (db) {
        return new Promise(function (resolve, reject) {
          const tx = db.transaction("deals", mode);
          const request = work(tx.objectStore("deals"));
          tx.oncomplete = function () { resolve(request ? request.result : undefined); };
          tx.onabort = function () { reject(tx.error); };
        });
      });
    }
    return {
      all: function () { return run("readonly", function (deals) { return deals.getAll(); }); },
      add: function (item) {
        return run("readwrite", function (deals) {
          const request = deals.add(item);
          request.onerror = function (e) {  // the same key already waits: keep the first
            if (request.error && request.error.name === "ConstraintError") e.preventDefault();
          };
          return null;
        });
      },
      remove: function (id) { return run("readwrite", function (deals) { deals.delete(id); return null; }); },
    };
  })();

  const local = {
    read: function () {
      try { return JSON.parse(localStorage.getItem(LOCAL)) || []; } catch (e) { return []; }
    },
    write: function (list) {
      try {
        if (list.length) localStorage.setItem(LOCAL, JSON.stringify(list)); else localStorage.removeItem(LOCAL);
      } catch (e) { /* full or refused: the deals wait in this page only */ }
    },
    all: function () {
      return Promise.resolve(local.read().map(function (item, i) { return Object.assign({id: i + 1}, item); }));
    },
    add: function (item) {
      const list = local.read();
      if (!list.some(function (old) { return old.key === item.key; })) list.push(item);
      local.write(list);
      return Promise.resolve();
    },
    remove: function (id) {
      local.write(local.read().filter(function (item, i) { return (item.id || i + 1) !== id; }));
      return Promise.resolve();
    },
  };

  // IndexedDB when the browser has it; deals that waited in localStorage (an earlier version) move there.
  const store = (function () {
    const ready = (window.indexedDB ? idb.all() : Promise.reject(new Error("no IndexedDB")))
      .then(function () {
        const earlier = local.read();
        return earlier.reduce(function (done, item) {
          return done.then(function () {
            const key = item.key || new URLSearchParams(item.body).get("client_key") || newKey();
            return idb.add(Object.assign({summary: {}, queuedAt: ""}, item, {key: key}));
          });
        }, Promise.resolve()).then(function () { local.write([]); return idb; });
      })
      .catch(function () { return local; });
    return {
      all: function () { return ready.then(function (s) { return s.all(); }); },
      add: function (item) { return ready.then(function (s) { return s.add(item); }); },
      remove: function (id) { return ready.then(function (s) { return s.remove(id); }); },
    };
  })();

  let waiting = [];  // what the store holds, for the page to show at once
  let sentHere = false;  // something was sent while this page was open
  let padEmpty = false;  // the pad was emptied for the next deal and nothing was tapped since
  let note = "";

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, function (c) {
      const r = Math.random() * 16 | 0;
      return (c === "x" ? r : (r & 0x3 | 0x8)).toString(16);
    });
  }
  // The CSRF token of now (the cookie): a page served from the worker's copy may hold an older one.
  function csrf() {
    const cookie = document.cookie.split(/;\s*/).find(function (c) { return c.startsWith("csrftoken="); });
    if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }
  function here() { return waiting.filter(function (item) { return item.page === location.pathname; }); }
  function offlineCopy() { return document.documentElement.dataset.offlineCopy; }

  function reload() {
    return store.all().then(function (list) { waiting = list; show(); }, function () { show(); });
  }

  // What the pad said, for the waiting row: who took the contract, the card points, capo.
  function summary(form) {
    if (form.classList.contains("thrown-in-form")) return {thrown: true};
    const label = function (name) {
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
    if (s.thrown) return gettext("all passed");
    return [s.maker, s.cards, s.capo].filter(Boolean).join(" · ");
  }

  // A fresh pad for the next deal, with a key of its own (the one before waits with its deal).
  function freshKeys() {
    const key = newKey();
    document.querySelectorAll(DEAL_FORMS).forEach(function (f) {
      const field = f.querySelector('input[name="client_key"]');
      if (field) field.value = key;
    });
  }
  function freshPad() {
    freshKeys();
    document.querySelectorAll(DEAL_FORMS).forEach(function (f) {
      if (f.classList.contains("deal-form")) {
        f.reset();
        delete f.dataset.pointsTeamTouched;
      }
      f.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
    });
    const preview = document.getElementById("preview");
    if (preview) preview.textContent = "";
    document.querySelectorAll("form.deal-form").forEach(function (f) { f.dispatchEvent(new Event("input", {bubbles: true})); });
    padEmpty = true;
  }

  function enqueue(form) {
    const body = new URLSearchParams(new FormData(form));
    body.delete("version");  // this tablet's own deals follow each other: no stale-sheet check among them
    if (!body.get("client_key")) body.set("client_key", newKey());
    const key = body.get("client_key");
    const item = {
      key: key, page: location.pathname, action: form.action, body: body.toString(),
      summary: summary(form), queuedAt: new Date().toISOString(),
    };
    freshPad();
    if (waiting.some(function (old) { return old.key === key; })) return Promise.resolve();  // a double tap
    waiting.push(item);
    note = "";
    show();
    return store.add(item).then(reload, function () { /* not stored: it waits in this page */ });
  }

  // Send what waits, oldest first. A deal that cannot go (no connection, the server down) stops
  // the sending, so that no later deal overtakes it; one the server refuses is reported.
  let sending = null;
  function exclusive(work) {
    return navigator.locks && navigator.locks.request ? navigator.locks.request("tsoxa-send", work) : work();
  }
  async function sendAll() {
    const refused = [];
    let sent = 0;
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
        });
      } catch (e) {
        break;
      }
      if (response.status >= 500 || response.status === 429) break;
      await store.remove(item.id);
      if (response.ok && !response.redirected) sent += 1;
      else refused.push(item);  // the sheet refused it (finished, changed, not this tablet's): enter it again
    }
    return {sent: sent, refused: refused};
  }
  function resend() {
    if (sending || !navigator.onLine) return sending;
    sending = reload().then(function () { return waiting.length ? exclusive(sendAll) : {sent: 0, refused: []}; })
      .then(function (result) {
        sending = null;
        if (result.sent) sentHere = true;
        if (result.refused.length) {
          note = interpolate(ngettext(
            "%(n)s waiting deal could not be recorded: please enter it again.",
            "%(n)s waiting deals could not be recorded: please enter them again.", result.refused.length),
          {n: result.refused.length});
        }
        if (result.sent || result.refused.length || offlineCopy()) refreshSheet();
        return reload();
      }, function () { sending = null; });
    return sending;
  }

  // The sheet as the server has it now (after deals were sent, or when an offline copy is back online).
  function refreshSheet() {
    if (!document.getElementById("match-area") || !window.htmx || !SHEET_PATH.test(location.pathname)) return;
    htmx.ajax("GET", location.pathname, {target: "#match-area", select: "#match-area", swap: "outerHTML"});
  }

  // Showing it ------------------------------------------------------------------------------------

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
    let body = document.getElementById("waiting-deals");
    if (!body) {
      body = document.createElement("tbody");
      body.id = "waiting-deals";
      table.appendChild(body);
    }
    const recorded = table.querySelectorAll('tr[data-testid="deal-row"]');
    const head = table.tHead && table.tHead.rows[0];
    const columns = head ? Array.from(head.cells).reduce(function (n, cell) { return n + cell.colSpan; }, 0) : 2;
    // The sheet's order: the waiting rows' place in it (sheet.html) says whether the newest deal is first.
    const others = Array.from(table.tBodies).filter(function (b) { return b !== body; });
    const newestFirst = others.length > 0 && !!(body.compareDocumentPosition(others[0]) & Node.DOCUMENT_POSITION_FOLLOWING);
    const rows = list.map(function (item, i) {
      const row = document.createElement("tr");
      row.className = "waiting";
      row.dataset.testid = "waiting-row";
      const cell = document.createElement("td");
      cell.textContent = String(recorded.length + i + 1);
      const what = document.createElement("td");
      what.colSpan = Math.max(1, columns - 1);
      const badge = document.createElement("span");
      badge.className = "badge waiting";
      badge.textContent = gettext("waiting");
      what.append(badge, " ", describe(item.summary));
      row.append(cell, what);
      return row;
    });
    if (newestFirst) rows.reverse();
    body.replaceChildren.apply(body, rows);
    table.querySelectorAll("td.empty").forEach(function (cell) { cell.parentElement.hidden = list.length > 0; });
  }

  function showTotals(n) {
    const board = document.querySelector(".scoreboard");
    if (!board) return;
    board.classList.toggle("before-waiting", n > 0);
    let line = document.getElementById("before-waiting");
    if (!line && n) {
      line = document.createElement("p");
      line.id = "before-waiting";
      line.className = "before-waiting-note";
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
  }

  // A page served from the worker's copy says so, with the time it was kept.
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
    const line = document.createElement("p");
    line.id = "offline-copy";
    line.className = "offline-copy";
    line.dataset.testid = "offline-copy";
    line.setAttribute("role", "status");
    line.textContent = interpolate(gettext("No connection: this is the copy of this sheet from %(time)s. Deals recorded now wait on this tablet."), {time: time});
    (document.querySelector("main") || document.body).prepend(line);
  }

  // The offline page lists the sheets this tablet keeps.
  function listKept() {
    const list = document.getElementById("kept-sheets");
    if (!list || !window.caches) return;
    caches.open(SHEETS_CACHE).then(function (cache) {
      return cache.keys().then(function (requests) {
        const sheets = requests.filter(function (r) { return SHEET_PATH.test(new URL(r.url).pathname); }).reverse();
        return Promise.all(sheets.map(function (r) {
          return cache.match(r).then(function (response) {
            return response.text().then(function (html) {
              const title = new DOMParser().parseFromString(html, "text/html").title.replace(/\s·\sTsoxa$/, "");
              return {path: new URL(r.url).pathname, title: title, kept: response.headers.get("X-Tsoxa-Kept-At")};
            });
          });
        }));
      });
    }).then(function (sheets) {
      list.replaceChildren.apply(list, sheets.map(function (s) {
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = s.path;
        link.textContent = s.title || s.path;
        item.append(link);
        const n = waiting.filter(function (w) { return w.page === s.path; }).length;
        if (n) item.append(" · ", interpolate(ngettext("%(n)s waiting", "%(n)s waiting", n), {n: n}));
        return item;
      }));
      list.hidden = !sheets.length;
      const none = document.getElementById("no-kept-sheets");
      if (none) none.hidden = !!sheets.length;
    }).catch(function () { /* no copies to show */ });
  }

  // The service worker: this page's sheet is kept as it is now, for the next time without a connection.
  let keepTimer = null;
  function keepSheet() {
    clearTimeout(keepTimer);
    keepTimer = setTimeout(function () {
      const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (!worker || !navigator.onLine || offlineCopy() || !SHEET_PATH.test(location.pathname)) return;
      const channel = new MessageChannel();
      channel.port1.onmessage = function (e) {
        if (e.data && e.data.kept) document.documentElement.dataset.offlineReady = "true";
      };
      worker.postMessage({type: "keep-sheet", url: location.pathname}, [channel.port2]);
    }, 50);
  }
  if ("serviceWorker" in navigator && script && script.dataset.sw) {
    navigator.serviceWorker.register(script.dataset.sw, {scope: "/"}).catch(function () { /* not installable here */ });
    navigator.serviceWorker.addEventListener("controllerchange", keepSheet);
  }

  // Events --------------------------------------------------------------------------------------

  // A tap on Record with the pad untouched since the last deal went to wait: a double tap, not a deal.
  ["input", "change", "tsoxa:changed"].forEach(function (type) {
    document.addEventListener(type, function (e) {
      if (e.target.closest && e.target.closest("form.deal-form")) padEmpty = false;
    });
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    const elt = e.detail.elt;
    if (e.defaultPrevented || !elt || !elt.matches) return;  // the pad itself stopped it (tablet.js)
    if (elt.matches(DEAL_FORMS) && (!navigator.onLine || here().length)) {
      // Without a connection, or behind deals still waiting: this one waits too, after them.
      e.preventDefault();
      if (padEmpty && elt.matches("form.deal-form")) return;
      enqueue(elt).then(resend);
    } else if (elt.id === "preview" && !navigator.onLine) {
      e.preventDefault();  // the preview needs the server: say what happens instead
      const line = document.createElement("p");
      line.className = "preview offline-note";
      line.dataset.testid = "preview";
      line.textContent = gettext("No connection: the deal will wait on this tablet and be sent when it returns.");
      elt.replaceChildren(line);
    }
  });

  document.addEventListener("htmx:sendError", function (e) {
    const elt = e.detail.elt;
    if (elt && elt.matches && elt.matches(DEAL_FORMS)) enqueue(elt);  // the connection dropped on the way
    else if (elt && elt.id !== "preview") {
      note = gettext("No connection: try again when it returns.");
      show();
    }
  });

  document.addEventListener("htmx:afterSettle", function (e) {
    if (e.target && e.target.id === "match-area") {
      if (offlineCopy() && navigator.onLine) {
        delete document.documentElement.dataset.offlineCopy;  // the sheet is fresh again
        showCopy();
      }
      keepSheet();
    }
    show();
  });

  // Logging out forgets the sheets kept on this tablet (the next person may not see them).
  document.addEventListener("submit", function (e) {
    if (e.target instanceof HTMLFormElement && /\/logout\/$/.test(e.target.action) && window.caches) {
      caches.delete(SHEETS_CACHE);
    }
  });

  window.addEventListener("online", function () { show(); resend(); });
  window.addEventListener("offline", show);
  setInterval(function () { if (waiting.length && navigator.onLine) resend(); }, RETRY_MS);

  function start() {
    if (offlineCopy()) freshKeys();  // the copy's pad may hold a key already used
    showCopy();
    listKept();
    if (navigator.serviceWorker && navigator.serviceWorker.controller && window.caches && SHEET_PATH.test(location.pathname) && !offlineCopy()) {
      caches.open(SHEETS_CACHE).then(function (cache) { return cache.match(location.pathname); })
        .then(function (copy) { if (copy) document.documentElement.dataset.offlineReady = "true"; }, function () {});
    }
    show();
    reload().then(function () { listKept(); resend(); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

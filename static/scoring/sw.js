// Tsoxa's service worker. Served from the site's root (/sw.js) by web/pwa.py, which writes the
// line above this one: TSOXA = {version, static, precache, catalog, offline}.
//
// - The styles, scripts and icons are kept when the worker installs and served from here.
// - A sheet (/matches/<id>/) is asked of the network first; its last answer is kept, and without a
//   connection that copy is served, marked with the time it was kept (data-offline-copy on <html>:
//   offline.js says so on the page). Any other page without a connection: the offline page.
// - With a sheet whose page has a pad, its match file (the API's FORMAT.md input) is kept too, and
//   once the scoring engine: Pyodide's core files and /engine.zip (scoring/engine/'s Python files),
//   for engine-loader.js to work out the deals that wait without a connection. The engine's cache
//   is named by TSOXA.engine.version: a new Pyodide or a changed engine file is kept anew.
// - Nothing else is kept: posts (deals, corrections) and htmx's fragments always go to the network.
// - Web Push (notifications/): a push is shown as a notification, a click on it opens its page;
//   a subscription the browser renews is told to the server (the end of this file).
/* global TSOXA */
"use strict";

const STATIC_CACHE = "tsoxa-static-" + TSOXA.version;
const SHEETS = "tsoxa-sheets";
const ENGINE_CACHE = "tsoxa-engine-" + TSOXA.engine.version;
const MATCH_FILE = /^\/api\/v1\/matches\/(\d+)\/file\/$/;
const KEPT_AT = "X-Tsoxa-Kept-At";
const MOST_SHEETS = 30;
const SHEET_PATH = /^\/matches\/\d+\/$/;
const CHART_PATH = /^\/matches\/\d+\/chart\.svg$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC_CACHE)
    .then(function (cache) { return cache.addAll(TSOXA.precache.concat([TSOXA.offline])); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys()
    .then(function (names) {
      return Promise.all(names.filter(function (name) {
        return (name.startsWith("tsoxa-static-") && name !== STATIC_CACHE) ||
          (name.startsWith("tsoxa-engine-") && name !== ENGINE_CACHE);
      }).map(function (name) { return caches.delete(name); }));
    })
    .then(function () { return self.registration.navigationPreload && self.registration.navigationPreload.enable(); })
    .then(function () { return self.clients.claim(); }));
});

// The answer of the network, or of the navigation preload the browser has already sent.
async function network(event) {
  const preloaded = event.preloadResponse ? await event.preloadResponse.catch(function () { return null; }) : null;
  return preloaded || fetch(event.request);
}

// A copy of a page's answer, with the time it was kept.
async function stamped(response) {
  const headers = new Headers(response.headers);
  headers.set(KEPT_AT, new Date().toISOString());
  return new Response(await response.blob(), {status: response.status, statusText: response.statusText, headers: headers});
}

async function keepSheet(url, response) {
  const cache = await caches.open(SHEETS);
  const key = new URL(url, self.location.href).pathname;
  if (response.status === 404 || response.status === 403) return cache.delete(key);  // gone, or not for this person
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || response.redirected || !type.startsWith("text/html")) return false;
  await cache.delete(key);  // kept again: now the newest
  await cache.put(key, await stamped(response));
  // The oldest sheets (and their charts) make room for the newest.
  const sheets = (await cache.keys()).map(function (request) { return new URL(request.url).pathname; })
    .filter(function (path) { return SHEET_PATH.test(path); });
  await Promise.all(sheets.slice(0, Math.max(0, sheets.length - MOST_SHEETS)).map(function (path) {
    return Promise.all([cache.delete(path), cache.delete(path + "chart.svg"), cache.delete(matchFileOf(path))]);
  }));
  return true;
}

// The match file of a sheet (/matches/7/ -> /api/v1/matches/7/file/), kept beside it.
function matchFileOf(sheetPath) {
  return "/api/v1" + sheetPath + "file/";
}
async function keepMatchFile(sheetPath) {
  const path = matchFileOf(sheetPath);
  const response = await fetch(path, {credentials: "same-origin", headers: {"Accept": "application/json"}});
  return response.ok && keepBeside(sheetPath, path, response);
}
// Kept only beside its kept sheet: once the sheets are forgotten (logging out), an answer that
// comes later is not kept either.
async function keepBeside(sheetPath, path, response) {
  const cache = await caches.open(SHEETS);
  if (!(await cache.match(sheetPath))) return false;
  await cache.put(path, response);
  return true;
}
// A match file: from the network first; kept beside its sheet; without a connection, the copy.
async function matchFile(request, path) {
  try {
    const response = await fetch(request);
    if (response.ok) keepBeside(path.replace(/^\/api\/v1/, "").replace(/file\/$/, ""), path, response.clone());
    return response;
  } catch (error) {
    const copy = await caches.match(path, {cacheName: SHEETS});
    if (copy) return copy;
    throw error;
  }
}

// The engine: each of its files fetched once (per version) and kept.
async function keepEngine() {
  const cache = await caches.open(ENGINE_CACHE);
  const done = await Promise.all(TSOXA.engine.files.map(async function (path) {
    if (await cache.match(path)) return true;
    const response = await fetch(path, {credentials: "same-origin"});
    if (!response.ok) return false;
    await cache.put(path, response);
    return true;
  }));
  return done.every(Boolean);
}

// The kept copy, marked as such: the page tells it is not fresh.
async function markedCopy(copy) {
  const keptAt = copy.headers.get(KEPT_AT) || "";
  const html = (await copy.text()).replace(/<html\b/i, '<html data-offline-copy="' + keptAt.replace(/[^0-9TZ:.+-]/g, "") + '"');
  const headers = new Headers(copy.headers);
  headers.delete("Content-Length");
  return new Response(html, {status: 200, headers: headers});
}

async function offlinePage() {
  return (await caches.match(TSOXA.offline)) ||
    new Response("No connection.", {status: 503, headers: {"Content-Type": "text/plain; charset=utf-8"}});
}

async function sheet(event) {
  let response = null;
  try {
    response = await network(event);
  } catch (error) { /* no connection */ }
  if (response && response.status < 500) {
    event.waitUntil(keepSheet(event.request.url, response.clone()));
    return response;
  }
  // No connection, or the server cannot answer: the copy kept, if there is one.
  const copy = await caches.match(new URL(event.request.url).pathname, {cacheName: SHEETS});
  if (copy) return markedCopy(copy);
  return response || offlinePage();
}

async function page(event) {
  try {
    return await network(event);
  } catch (error) {
    return offlinePage();
  }
}

async function kept(request) {
  const hit = await caches.match(request, {cacheName: STATIC_CACHE});
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    caches.open(STATIC_CACHE).then(function (cache) { return cache.put(request, copy); });
  }
  return response;
}

async function networkFirst(request, cacheName, key) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const copy = response.clone();
      caches.open(cacheName).then(function (cache) { return cache.put(key, copy); });
    }
    return response;
  } catch (error) {
    const copy = await caches.match(key, {cacheName: cacheName});
    if (copy) return copy;
    throw error;
  }
}

// Pyodide's files, once kept, from here; the engine's own files from the network first (the
// server's engine, when there is one to ask).
async function engineFile(request, path) {
  if (!path.startsWith(TSOXA.static)) return networkFirst(request, ENGINE_CACHE, path);
  const hit = await caches.match(path, {cacheName: ENGINE_CACHE});
  return hit || fetch(request);
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;  // posts go to the network; their answers are never kept
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(SHEET_PATH.test(url.pathname) ? sheet(event) : page(event));
  } else if (request.headers.get("HX-Request")) {
    return;  // a fragment of a page: only ever fresh
  } else if (TSOXA.engine.files.includes(url.pathname)) {
    event.respondWith(engineFile(request, url.pathname));
  } else if (MATCH_FILE.test(url.pathname)) {
    event.respondWith(matchFile(request, url.pathname));
  } else if (url.pathname.startsWith(TSOXA.static)) {
    event.respondWith(kept(request));
  } else if (url.pathname === TSOXA.catalog) {
    event.respondWith(networkFirst(request, STATIC_CACHE, request));
  } else if (CHART_PATH.test(url.pathname)) {
    event.respondWith(networkFirst(request, SHEETS, url.pathname));
  }
});

// A page asks to keep its sheet as it is now (after a deal, or when this worker starts to control
// it): the worker asks the network for the whole page and answers whether it was kept. A sheet with
// a pad (data.engine) keeps its match file and the engine too, and says so in a second answer.
self.addEventListener("message", function (event) {
  const data = event.data || {};
  const path = new URL(data.url || "", self.location.href).pathname;
  if (!["keep-sheet", "keep-engine"].includes(data.type) || !SHEET_PATH.test(path)) return;
  const port = event.ports && event.ports[0];
  const answer = function (message) { if (port) port.postMessage(message); };
  const engine = function () {
    return Promise.all([keepMatchFile(path), keepEngine()])
      .then(function (both) { return both[0] && both[1]; }, function () { return false; })
      .then(function (ready) { answer({engine: ready}); });
  };
  if (data.type === "keep-engine") {  // the sheet is being kept by its navigation: the rest, after it
    if (data.engine) event.waitUntil(new Promise(function (done) { setTimeout(done, 500); }).then(engine));
    return;
  }
  event.waitUntil(fetch(data.url, {credentials: "same-origin", headers: {"Accept": "text/html"}})
    .then(function (response) { return keepSheet(data.url, response); })
    .catch(function () { return false; })
    .then(function (done) {
      answer({kept: !!done});
      return done && data.engine ? engine() : null;
    }));
});

// Web Push (notifications/) -----------------------------------------------------------------------
// The server's message is JSON {title, body, url, tag} (notifications/services.py's _payload): it is
// shown with its tag, so a newer message of the same tournament replaces the older one; a click on
// it focuses a tab that shows the page it names (this site's pages only) or opens that page.
// The personal page's opt-in (static/notifications/push.js) keeps what it follows in PUSH_CACHE: the
// page, its token, the server's key and generic words in the page's language. They stand in for a
// message that cannot be read (no data, not JSON, neither title nor body), and they let this worker
// tell the server a subscription the browser has renewed (pushsubscriptionchange).
const PUSH_CACHE = "tsoxa-push";
const PUSH_FOLLOW = "/push-follow";  // the record's key in PUSH_CACHE (push.js's FOLLOW_KEY)
const PUSH_ICON = "icons/icon-192.png";

async function pushFollow() {
  try {
    const kept = await caches.match(PUSH_FOLLOW, {cacheName: PUSH_CACHE});
    const follow = kept ? await kept.json() : null;
    return follow && typeof follow === "object" ? follow : {};
  } catch (error) {
    return {};
  }
}

function text(value) {
  return typeof value === "string" ? value.trim() : "";
}

// What a push says: each of the server's fields that is a string, "" for the rest.
function pushMessage(event) {
  let data = null;
  try { data = event.data ? event.data.json() : null; } catch (error) { data = null; }
  if (!data || typeof data !== "object" || Array.isArray(data)) data = {};
  return {title: text(data.title), body: text(data.body), url: text(data.url), tag: text(data.tag)};
}

async function showPush(event) {
  const message = pushMessage(event);
  const follow = await pushFollow();
  const readable = !!(message.title || message.body);
  const options = {
    body: readable ? message.body : text(follow.news),
    icon: TSOXA.static + PUSH_ICON,
    data: {url: message.url || text(follow.page) || "/"},
  };
  if (text(follow.lang)) options.lang = text(follow.lang);
  if (message.tag) Object.assign(options, {tag: message.tag, renotify: true});
  return self.registration.showNotification(message.title || text(follow.title) || "Tsoxa", options);
}

self.addEventListener("push", function (event) {
  event.waitUntil(showPush(event));
});

// The page a notification leads to: the one it names, when it is this site's; else the followed page.
function sameSite(path) {
  if (!path) return null;
  try {
    const url = new URL(path, self.location.origin);
    return url.origin === self.location.origin ? url : null;
  } catch (error) {
    return null;
  }
}

async function pushTarget(data) {
  return sameSite(text((data || {}).url)) || sameSite(text((await pushFollow()).page)) ||
    new URL("/", self.location.origin);
}

async function openPushPage(data) {
  const url = await pushTarget(data);
  const open = await self.clients.matchAll({type: "window", includeUncontrolled: true});
  const same = open.find(function (client) {
    const at = new URL(client.url);
    return at.origin === url.origin && at.pathname === url.pathname && at.search === url.search && "focus" in client;
  });
  return same ? same.focus() : self.clients.openWindow(url.href);
}

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(openPushPage(event.notification.data));
});

function keyBytes(base64url) {
  const raw = atob((base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
}

// Django's CSRF token: the cookie's, where this worker can read cookies; else the page's, kept.
async function csrfToken(follow) {
  try {
    const cookie = self.cookieStore ? await self.cookieStore.get("csrftoken") : null;
    if (cookie && cookie.value) return cookie.value;
  } catch (error) { /* no cookies here */ }
  return text(follow.csrf);
}

async function tellServer(follow, method, body) {
  return fetch(follow.url, {
    method: method, credentials: "same-origin", body: JSON.stringify(body),
    headers: {"Content-Type": "application/json", "X-CSRFToken": await csrfToken(follow)},
  });
}

// The push service renewed (or ended) the subscription: the new one (the browser's, or subscribed
// again with the server's key) follows the page's entry, and the old one is forgotten. Without the
// page's record, the personal page tells the server at its next visit (push.js).
async function renewPush(old, renewed) {
  const follow = await pushFollow();
  let fresh = renewed;
  if (!fresh) {
    const key = text(follow.key) ? keyBytes(text(follow.key)) : old && old.options && old.options.applicationServerKey;
    if (!key) return false;
    fresh = await self.registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: key});
  }
  if (!text(follow.token) || !text(follow.url)) return false;
  const answer = await tellServer(follow, "POST", {token: follow.token, subscription: fresh.toJSON()});
  if (answer.ok && old && old.endpoint && old.endpoint !== fresh.endpoint) {
    await tellServer(follow, "DELETE", {endpoint: old.endpoint});
  }
  return answer.ok;
}

self.addEventListener("pushsubscriptionchange", function (event) {
  event.waitUntil(renewPush(event.oldSubscription || null, event.newSubscription || null));
});

// Tsoxa's service worker. Served from the site's root (/sw.js) by config/pwa.py, which writes the
// line above this one: TSOXA = {version, static, precache, catalog, offline}.
//
// - The styles, scripts and icons are kept when the worker installs and served from here.
// - A sheet (/matches/<id>/) is asked of the network first; its last answer is kept, and without a
//   connection that copy is served, marked with the time it was kept (data-offline-copy on <html>:
//   offline.js says so on the page). Any other page without a connection: the offline page.
// - Nothing else is kept: posts (deals, corrections) and htmx's fragments always go to the network.
/* global TSOXA */
"use strict";

const STATIC_CACHE = "tsoxa-static-" + TSOXA.version;
const SHEETS = "tsoxa-sheets";
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
        return name.startsWith("tsoxa-static-") && name !== STATIC_CACHE;
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
    return Promise.all([cache.delete(path), cache.delete(path + "chart.svg")]);
  }));
  return true;
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

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;  // posts go to the network; their answers are never kept
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(SHEET_PATH.test(url.pathname) ? sheet(event) : page(event));
  } else if (request.headers.get("HX-Request")) {
    return;  // a fragment of a page: only ever fresh
  } else if (url.pathname.startsWith(TSOXA.static)) {
    event.respondWith(kept(request));
  } else if (url.pathname === TSOXA.catalog) {
    event.respondWith(networkFirst(request, STATIC_CACHE, request));
  } else if (CHART_PATH.test(url.pathname)) {
    event.respondWith(networkFirst(request, SHEETS, url.pathname));
  }
});

// A page asks to keep its sheet as it is now (after a deal, or when this worker starts to control
// it): the worker asks the network for the whole page and answers whether it was kept.
self.addEventListener("message", function (event) {
  const data = event.data || {};
  if (data.type !== "keep-sheet" || !SHEET_PATH.test(new URL(data.url, self.location.href).pathname)) return;
  const port = event.ports && event.ports[0];
  event.waitUntil(fetch(data.url, {credentials: "same-origin", headers: {"Accept": "text/html"}})
    .then(function (response) { return keepSheet(data.url, response); })
    .catch(function () { return false; })
    .then(function (done) { if (port) port.postMessage({kept: !!done}); }));
});

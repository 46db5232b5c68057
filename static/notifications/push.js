// The personal page's opt-in to Web Push (templates/notifications/_optin.html): asks permission,
// subscribes through the site's service worker (/sw.js) with the server's VAPID public key, and posts
// the subscription with the page's token to notifications/subscribe/ ("Stop": DELETE, unsubscribe).
// States, on [data-push] as data-push-status: unsupported, denied, idle, subscribed, error (with the
// reason in words: the server's, or this page's for a connection lost or a browser that refuses).
// Once subscribed, what the service worker needs without the page is kept in the cache FOLLOW_CACHE
// (static/scoring/sw.js reads it): this page, its token, the server's key, the CSRF token and
// generic words for a message it cannot read; "Stop" forgets it.
(function () {
  "use strict";
  const box = document.querySelector("[data-push]");
  if (!box) return;
  box.hidden = false;
  const errorText = box.querySelector("[data-push-error]");
  const gettext = window.gettext || function (words) { return words; };
  const FOLLOW_CACHE = "tsoxa-push";
  const FOLLOW_KEY = "/push-follow";  // sw.js's PUSH_FOLLOW

  // A refusal whose words are for the person (the server's, or this page's).
  class Refusal extends Error {}

  function show(state, detail) {
    box.querySelectorAll("[data-push-state]").forEach(function (el) { el.hidden = el.dataset.pushState !== state; });
    box.dataset.pushStatus = state;
    if (state === "error") errorText.textContent = detail || "";
  }

  function csrf() {
    const cookie = document.cookie.split(/;\s*/).find(function (c) { return c.startsWith("csrftoken="); });
    if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (field) return field.value;
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }

  function keyBytes(base64url) {
    const text = atob((base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(text, function (c) { return c.charCodeAt(0); });
  }

  async function send(method, body) {
    let response;
    try {
      response = await fetch(box.dataset.url, {
        method: method, credentials: "same-origin", body: JSON.stringify(body),
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
      });
    } catch (error) {
      throw new Refusal(gettext("The server could not be reached: try again when there is a connection."));
    }
    if (response.ok) return response.json().catch(function () { return {}; });
    const type = response.headers.get("Content-Type") || "";
    let reason = "";
    if (type.startsWith("application/json")) {
      reason = ((await response.json().catch(function () { return {}; })) || {}).error;
    } else if (type.startsWith("text/plain")) {  // the rate limit's words (web/views.py)
      reason = (await response.text().catch(function () { return ""; })).trim().slice(0, 300);
    }
    throw new Refusal(typeof reason === "string" && reason ? reason :
      gettext("The server refused (error %s).").replace("%s", String(response.status)));
  }

  function failed(error, words) {
    show("error", error instanceof Refusal ? error.message : words);
  }

  // What sw.js needs without this page; not kept (a private window, no Cache API): sw.js does without.
  async function remember() {
    try {
      const cache = await caches.open(FOLLOW_CACHE);
      await cache.put(FOLLOW_KEY, new Response(JSON.stringify({
        page: location.pathname, token: box.dataset.token, key: box.dataset.key, url: box.dataset.url,
        csrf: csrf(), lang: document.documentElement.lang, title: box.dataset.title, news: box.dataset.news,
      }), {headers: {"Content-Type": "application/json"}}));
    } catch (error) { /* without it, the generic words are the site's name */ }
  }

  async function forget() {
    try { await caches.delete(FOLLOW_CACHE); } catch (error) { /* nothing kept */ }
  }

  // The site's worker, once active. One that cannot be fetched or installed (the connection lost on
  // a first visit) is said so; waiting for navigator.serviceWorker.ready alone would wait forever.
  async function registration() {
    const unreachable = new Refusal(gettext("The server could not be reached: try again when there is a connection."));
    const reg = await navigator.serviceWorker.getRegistration("/") ||
      await navigator.serviceWorker.register(box.dataset.sw, {scope: "/"}).catch(function () { throw unreachable; });
    const worker = reg.active ? null : reg.installing || reg.waiting;
    if (worker && worker.state !== "activated") {
      await new Promise(function (resolve, reject) {
        const settled = function () {
          if (worker.state === "activated") resolve();
          if (worker.state === "redundant") reject(unreachable);
        };
        worker.addEventListener("statechange", settled);
        settled();
      });
    }
    return navigator.serviceWorker.ready;
  }

  async function start() {
    try {
      const permission = await Notification.requestPermission();
      if (permission === "denied") return show("denied");
      if (permission !== "granted") return show("idle");
      const reg = await registration();
      const subscription = await reg.pushManager.getSubscription() ||
        await reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key)});
      await send("POST", {token: box.dataset.token, subscription: subscription.toJSON()});
      await remember();
      show("subscribed");
    } catch (error) {
      failed(error, gettext("This browser could not subscribe to notifications."));
    }
  }

  async function stop() {
    try {
      const reg = await registration();
      const subscription = await reg.pushManager.getSubscription();
      if (subscription) {
        await send("DELETE", {endpoint: subscription.endpoint});
        await subscription.unsubscribe();
      }
      await forget();
      show("idle");
    } catch (error) {
      failed(error, gettext("This browser could not stop the notifications."));
    }
  }

  box.querySelectorAll("[data-push-start]").forEach(function (b) { b.addEventListener("click", start); });
  box.querySelector("[data-push-stop]").addEventListener("click", stop);

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return show("unsupported");
  }
  if (Notification.permission === "denied") return show("denied");
  show("idle");
  if (Notification.permission === "granted") {  // subscribed before on this page: say so (and follow this page)
    registration().then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (subscription) {
      if (!subscription) return null;
      return send("POST", {token: box.dataset.token, subscription: subscription.toJSON()})
        .then(remember).then(function () { show("subscribed"); });
    }).catch(function () { /* stays idle: the button subscribes again */ });
  }
})();

// The personal page's opt-in to Web Push (templates/notifications/_optin.html): asks permission,
// subscribes through the site's service worker (/sw.js) with the server's VAPID public key, and posts
// the subscription with the page's token to notifications/subscribe/ ("Stop": DELETE, unsubscribe).
// States, on [data-push] as data-push-status: unsupported, denied, idle, subscribed, error.
(function () {
  "use strict";
  const box = document.querySelector("[data-push]");
  if (!box) return;
  box.hidden = false;
  const errorText = box.querySelector("[data-push-error]");

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
    const response = await fetch(box.dataset.url, {
      method: method, credentials: "same-origin", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
    });
    const answer = await response.json().catch(function () { return {}; });
    if (!response.ok) throw new Error(answer.error || response.statusText || String(response.status));
    return answer;
  }

  async function registration() {
    const kept = await navigator.serviceWorker.getRegistration("/");
    if (!kept) await navigator.serviceWorker.register(box.dataset.sw, {scope: "/"});
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
      show("subscribed");
    } catch (error) {
      show("error", error.message);
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
      show("idle");
    } catch (error) {
      show("error", error.message);
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
      return send("POST", {token: box.dataset.token, subscription: subscription.toJSON()}).then(function () { show("subscribed"); });
    }).catch(function () { /* stays idle: the button subscribes again */ });
  }
})();

// A player's own page (templates/tournaments/personal.html): its part is fetched again from data/
// when the big screen's stream (events/) says the tournament changed, and every 20 s while the match
// is in play (deals are not pushed); the clock counts down here between fetches.
(function () {
  "use strict";
  const root = document.getElementById("personal");
  if (!root) return;
  let version = root.dataset.version || "";
  let playing = Boolean(root.dataset.playing);
  const poll = (parseInt(root.dataset.poll, 10) || 20) * 1000;
  let fetching = false, again = false, streamDown = false;

  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      const url = `${root.dataset.dataUrl}?v=${encodeURIComponent(version)}`;
      const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (response.ok) {
        const data = await response.json();
        version = data.version;
        if (!data.unchanged) {
          root.innerHTML = data.html;
          playing = Boolean(data.playing);
          started = Date.now();
        }
      }
    } catch (error) {
      // No connection: the next change or the next tick asks again.
    } finally {
      fetching = false;
    }
    if (again) { again = false; refresh(); }
  }

  // The clock: seconds left when the part was rendered, counted down here.
  let started = Date.now();
  function tick() {
    root.querySelectorAll("[data-left]").forEach(function (node) {
      const left = Math.max(0, Math.ceil(parseInt(node.dataset.left, 10) - (Date.now() - started) / 1000));
      const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      node.textContent = (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(s).padStart(2, "0")}`;
    });
  }

  function connect() {
    if (!window.EventSource || !root.dataset.eventsUrl) { streamDown = true; return; }
    const live = root.dataset.liveVersion || "";
    const source = new EventSource(`${root.dataset.eventsUrl}?v=${encodeURIComponent(live)}`);
    let askAgain = false;
    source.addEventListener("reconnect", function () { askAgain = true; });
    source.addEventListener("open", function () { streamDown = false; });
    source.addEventListener("error", function () {
      if (askAgain && source.readyState === EventSource.CONNECTING) { askAgain = false; return; }
      if (source.readyState === EventSource.CLOSED) streamDown = true; // a private event: the timer asks
    });
    source.addEventListener("changed", function () { refresh(); });
  }

  let waited = 0;
  setInterval(function () {
    tick();
    waited += 1000;
    // in play: every 20 s; the stream refused: every minute
    if ((playing && waited >= poll) || (streamDown && waited >= 3 * poll)) { waited = 0; refresh(); }
  }, 1000);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") refresh();
  });
  tick();
  connect();
})();

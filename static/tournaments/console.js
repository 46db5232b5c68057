// The organizer's console (templates/tournaments/_console.html): its stream (console/events/, pushed
// by the server; under runserver it answers at once and the browser asks again) says when
// something changed, and htmx fetches the console's part again (hx-trigger "console-changed").
(function () {
  "use strict";
  const root = document.getElementById("console-live");
  if (!root || !window.EventSource || !root.dataset.eventsUrl) return;
  const url = `${root.dataset.eventsUrl}?v=${encodeURIComponent(root.dataset.version || "")}`;
  let source = null;
  function connect() {
    source = new EventSource(url);
    source.addEventListener("changed", function () {
      document.body.dispatchEvent(new CustomEvent("console-changed"));
    });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 60000); // refused: later
    });
  }
  connect();
})();

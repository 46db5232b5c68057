// The big screen (templates/tournaments/screen.html): one panel at a time, turned every 15 s,
// long lists cut into as many pages as the screen needs. The data comes with the page
// (#screen-data) and again from data/ each time the event stream (events/, pushed by the
// server) says it changed: one fetch per change, never a timer. The round's clock counts down
// here, from the time it ends (corrected by the server's clock), with no tick from the server.
(function () {
  "use strict";
  const root = document.getElementById("screen");
  if (!root) return;
  const labels = JSON.parse(document.getElementById("screen-labels").textContent);
  let data = JSON.parse(document.getElementById("screen-data").textContent);
  const SLIDE_MS = 15000;
  let offset = 0; // the server's clock minus this one's, in ms
  let slides = [], current = 0, turner = null;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // The clock ------------------------------------------------------------------------------

  function pad(n) { return String(n).padStart(2, "0"); }

  function duration(seconds) {
    const s = Math.ceil(Math.max(0, seconds));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
  }

  // {text, state}: the time left, "Last deal" once it is over, the time left while paused.
  function clockNow(clock) {
    if (!clock) return null;
    if (clock.state === "over") return { text: labels.last_deal, state: "over" };
    if (clock.state === "paused") {
      return { text: clock.paused_left === null ? "–" : duration(clock.paused_left), state: "paused" };
    }
    if (!clock.ends_at) return { text: "–", state: clock.state };
    const left = (Date.parse(clock.ends_at) - (Date.now() + offset)) / 1000;
    if (left <= 0) return { text: labels.last_deal, state: "over" };
    return { text: duration(left), state: "running", long: left >= 3600 };
  }

  // A line that must not overflow: smaller until it fits (a long "Last deal" in Greek).
  function fit(node) {
    node.style.fontSize = "";
    let size = parseFloat(getComputedStyle(node).fontSize);
    while (node.scrollWidth > node.clientWidth + 1 && size > 24) {
      size *= 0.9;
      node.style.fontSize = `${size}px`;
    }
  }

  function tick() {
    const now = clockNow(data.clock);
    document.querySelectorAll("[data-clock]").forEach(function (node) {
      node.hidden = !now;
      if (!now) return;
      const changed = node.textContent !== now.text;
      node.textContent = now.text;
      node.classList.toggle("is-over", now.state === "over");
      node.classList.toggle("is-paused", now.state === "paused");
      node.classList.toggle("is-long", Boolean(now.long));
      if (changed && node.dataset.clock === "big") fit(node);
    });
  }

  // Panels ---------------------------------------------------------------------------------

  function panel(kind, title) {
    const section = el("section", `panel panel-${kind}`);
    section.dataset.panel = kind;
    const heading = el("h2", "panel-title");
    heading.append(el("span", "", title));
    const body = el("div", "panel-body");
    section.append(heading, body);
    return section;
  }

  function words(template, values) {
    return template.replace(/%\((\w+)\)s/g, (all, key) => (key in values ? values[key] : all));
  }

  // A table's score: the result, or while it plays the running score and how far it is
  // ("Deal 7 of 12 · 532–410"; in a timed round the totals and the round's time left).
  function scoreOf(table, node) {
    node.replaceChildren();
    node.title = "";
    if (table.score) {
      node.append(`${table.score[0]}–${table.score[1]}`);
      if (table.paper) {
        node.append(" ", el("small", "paper", `✎ ${labels.paper}`)); // from the paper sheet
        node.title = labels.paper;
      }
      return;
    }
    if (!table.playing) return;
    const running = `${table.running[0]}–${table.running[1]}`;
    if (table.deals) node.append(el("small", "progress", words(labels.deal_of, { n: table.deal, of: table.deals })), " ", el("b", "", running));
    else if (table.target) node.append(el("b", "", words(labels.of_target, { score: running, target: table.target })));
    else {
      node.append(el("b", "", running));
      if (table.timed) {
        const left = el("small", "progress");
        left.dataset.clock = "row";
        node.append(" ", left);
      }
    }
  }

  function sideOf(table, i) {
    const side = el("span", `side side${i}`);
    const team = el("span", `team team${i}`);
    const numbers = table.numbers || [];
    if (i === 1 && table.bye) team.append(el("em", "", labels.bye));
    else {
      if (numbers[i]) team.append(el("small", "no", numbers[i]), " ");
      team.append(table.teams[i] || "");
    }
    side.append(team);
    const players = (table.players || [])[i];
    if (players && players.length) side.append(el("span", "players", players.join(" & ")));
    return side;
  }

  function pairingItem(table) {
    const li = el("li", "pairing" + (table.finished ? " is-finished" : table.playing ? " is-playing" : ""));
    li.dataset.table = table.number;
    const number = el("span", "table-no", table.number);
    number.title = labels.table;
    const pair = el("span", "pair");
    pair.append(sideOf(table, 0), sideOf(table, 1));
    const score = el("span", "score");
    score.dataset.testid = "table-score";
    scoreOf(table, score);
    li.append(number, pair, score);
    return li;
  }

  function teamCell(row) {
    const td = el("td", "team-cell");
    if (row.number) td.append(el("small", "no", row.number), " ");
    td.append(el("span", "team-name", row.team), " ", el("small", "", (row.players || []).length > 1 ? row.players.join(" & ") : ""));
    return td;
  }

  function columnHeads(head, columns) {
    columns.forEach(function (c, i) {
      const th = el("th", i === 0 ? "num ranked" : "num", c.abbr);
      th.title = c.name;
      head.append(th);
    });
  }

  function values(tr, row) {
    (row.values || []).forEach(function (v, i) { tr.append(el("td", i === 0 ? "num ranked" : "num", v)); });
  }

  function standingsTable() {
    const table = el("table", "screen-table");
    table.dataset.testid = "screen-standings";
    const head = el("tr");
    head.append(el("th", "num", "#"), el("th", "", labels.team), el("th", "num", labels.played),
      el("th", "num", labels.record));
    columnHeads(head, data.standings.columns);
    table.append(el("thead"), el("tbody"));
    table.tHead.append(head);
    return table;
  }

  function standingsRow(row) {
    const tr = el("tr", row.withdrawn ? "withdrawn" : "");
    tr.append(el("td", "num", row.rank), teamCell(row), el("td", "num", row.played), el("td", "num", row.record));
    values(tr, row);
    return tr;
  }

  function rankingTable() {
    const table = el("table", "screen-table");
    table.dataset.testid = "screen-ranking";
    const head = el("tr");
    head.append(el("th", "num", "#"), el("th", "", labels.team));
    columnHeads(head, data.ranking_columns || []);
    head.append(el("th"));
    table.append(el("thead"), el("tbody"));
    table.tHead.append(head);
    return table;
  }

  function rankingRow(row) {
    const tr = el("tr");
    tr.append(el("td", "num", row.rank ?? row.position), teamCell(row));
    values(tr, row);
    tr.append(el("td", "stage", row.stage || ""));
    return tr;
  }

  // The prize-giving (tournaments/prizes.py): each place with its team, points and prize, then
  // the organizer's categories with their winners; one table, paged like the ranking.
  function prizesTable() {
    const table = el("table", "screen-table prizes-table");
    table.dataset.testid = "screen-prizes";
    const head = el("tr");
    head.append(el("th", "num", labels.place), el("th", "", labels.team));
    if (data.prizes.points) {
      const th = el("th", "num", data.prizes.points.abbr);
      th.title = data.prizes.points.name;
      head.append(th);
    }
    head.append(el("th", "prize-cell", labels.prize));
    table.append(el("thead"), el("tbody"));
    table.tHead.append(head);
    return table;
  }

  function winner(td, team) {
    if (team.number) td.append(el("small", "no", team.number), " ");
    td.append(el("span", "team-name", team.name));
    if ((team.players || []).length) td.append(" ", el("small", "", team.players.join(" & ")));
  }

  function prizeRow(item) {
    const tr = el("tr", item.category ? "prize-category" : "prize-place" + (item.withdrawn ? " withdrawn" : ""));
    const team = el("td", "team-cell");
    if (item.category) {
      tr.append(el("td", "num prize-star", "★"));
      team.append(el("span", "category-name", item.name), " ");
      item.winners.forEach(function (w, i) { if (i) team.append(" · "); winner(team, w); });
      if (!item.winners.length) team.append(el("em", "prize-empty", labels.not_chosen));
    } else {
      tr.dataset.place = item.position;
      tr.append(el("td", "num", item.place)); // "2", or "=2" for a place teams share
      if (item.team) winner(team, item.team);
      else team.append(el("em", "prize-empty", labels.not_decided));
    }
    tr.append(team);
    if (data.prizes.points) tr.append(el("td", "num", item.category ? "" : item.points));
    const prize = el("td", "prize-cell");
    if (item.amount) prize.append(el("strong", "amount", item.amount));
    if (item.amount && item.text) prize.append(" · ");
    if (item.text) prize.append(item.text);
    tr.append(prize);
    return tr;
  }

  // How many items fit on one page of this panel: rows of a grid of columns, or of a table.
  function capacity(section, list, isTable) {
    const body = section.querySelector(".panel-body");
    const first = isTable ? list.tBodies[0].rows[0] : list.firstElementChild;
    if (!first) return 1;
    const style = getComputedStyle(list);
    let room = body.clientHeight, columns = 1, gap = 0;
    if (isTable) {
      room -= list.tHead.getBoundingClientRect().height;
      room -= Array.from(body.children).filter((n) => n !== list)
        .reduce((sum, n) => sum + n.getBoundingClientRect().height, 0);
    } else {
      columns = style.gridTemplateColumns.split(" ").filter(Boolean).length || 1;
      gap = parseFloat(style.rowGap) || 0;
    }
    const height = first.getBoundingClientRect().height + gap;
    return Math.max(1, Math.floor((room + gap) / height)) * columns;
  }

  function columnsOf(list) {
    return getComputedStyle(list).gridTemplateColumns.split(" ").filter(Boolean).length || 1;
  }

  // A panel for every page of items: the first built with them all, measured, then cut.
  function paged(kind, title, items, makeList, makeItem, extra) {
    if (!items.length) return [];
    const isTable = (list) => list.tagName === "TABLE";
    const build = function (chunk, page, pages) {
      const section = panel(kind, title);
      if (pages > 1) section.querySelector(".panel-title").append(el("span", "panel-page", `${page}/${pages}`));
      const list = makeList();
      const target = isTable(list) ? list.tBodies[0] : list;
      chunk.forEach((item) => target.append(makeItem(item)));
      section.querySelector(".panel-body").append(list);
      if (extra) extra(section.querySelector(".panel-body"));
      return section;
    };
    const probe = build(items, 1, 1);
    root.append(probe);
    const measured = probe.querySelector(".panel-body").firstElementChild;
    const per = capacity(probe, measured, isTable(measured));
    const columns = isTable(measured) ? 1 : columnsOf(measured);
    probe.remove();
    // As many pages as needed, filled evenly (13 rows on pages of 12: 7 and 6, never 12 and 1);
    // a grid's pages by whole lines of its columns.
    const pages = Math.ceil(items.length / per);
    let size = Math.ceil(items.length / pages);
    if (columns > 1) size = Math.min(per, Math.ceil(size / columns) * columns);
    const out = [];
    for (let p = 0; p * size < items.length; p++) out.push(build(items.slice(p * size, (p + 1) * size), p + 1, Math.ceil(items.length / size)));
    out.forEach((section, p) => { section.dataset.key = `${kind}-${p}`; });
    return out;
  }

  function clockPanel() {
    const section = panel("clock", "");
    section.querySelector(".panel-title span").textContent =
      data.round && data.round.number === data.clock.round ? data.round.label : String(data.clock.round);
    const digits = el("p", "clock-digits");
    digits.dataset.clock = "big";
    digits.dataset.testid = "screen-clock";
    const note = el("p", "clock-note", data.clock.state === "paused" ? labels.paused : "");
    section.querySelector(".panel-body").append(digits, note);
    section.dataset.key = "clock";
    return section;
  }

  function podiumPanel() {
    const section = panel("podium", labels.final_ranking);
    const list = el("ol", "podium");
    list.dataset.testid = "screen-podium";
    data.ranking.slice(0, 3).forEach(function (row, i) {
      const li = el("li", `podium-place place-${i + 1}`);
      const team = el("span", "podium-team", row.team);
      if (row.number) team.prepend(el("small", "no", row.number), " ");
      // A place the tie-breaks cannot split is shared: "=2" on each of its lines, as the prize list writes it.
      const rank = row.rank ?? row.position;
      const shared = row.rank != null && data.ranking.filter(function (other) { return other.rank === row.rank; }).length > 1;
      li.append(el("span", "podium-rank", shared ? `=${rank}` : rank), team,
        el("span", "podium-players", (row.players || []).length > 1 ? row.players.join(" & ") : ""));
      list.append(li);
    });
    section.querySelector(".panel-body").append(list);
    section.dataset.key = "podium";
    return section;
  }

  // The knockout's bracket (tournaments/bracket.py): columns per round, the third place after them.
  function bracketMatch(m) {
    const box = el("div", `bracket-match is-${m.state}`);
    box.dataset.testid = "bracket-match";
    m.sides.forEach(function (side, i) {
      const won = m.winner === null ? "" : (m.winner === i ? " is-winner" : " is-loser");
      const row = el("div", "bracket-side" + won);
      row.append(el("span", "bracket-seed", side && side.seed ? side.seed : ""));
      const name = side ? (side.number ? `${side.number} ${side.name}` : side.name) : (m.state === "bye" ? labels.bye : "—");
      row.append(el("span", "bracket-team" + (side ? "" : " bracket-empty"), name));
      row.append(el("span", "bracket-score", m.score ? m.score[i] : ""));
      box.append(row);
    });
    // The server's line: a match in play's deal and running score ("Deal 7 of 12 · 532–410"), a
    // forfeit, an award, a paper result, a result waiting for its confirmation.
    if (m.note) {
      const note = el("span", "bracket-note" + (m.state === "playing" ? " is-playing" : "") + (m.result_kind ? ` is-${m.result_kind}` : ""), m.note);
      note.dataset.testid = "bracket-note";
      box.append(note);
    }
    return box;
  }

  function bracketPanel() {
    const section = panel("bracket", labels.bracket);
    section.querySelector(".panel-body").append(bracketWrap());
    section.dataset.key = "bracket";
    return section;
  }

  // After a deal of the knockout (the tables part carries the bracket): the bracket in place.
  function bracketUpdate(bracket) {
    data.bracket = bracket;
    const body = root.querySelector(".panel-bracket .panel-body");
    if (body) body.replaceChildren(bracketWrap());
  }

  function bracketWrap() {
    const columns = el("div", "bracket");
    data.bracket.columns.forEach(function (column) {
      const col = el("section", "bracket-column");
      col.append(el("h3", "bracket-round", column.name));
      const list = el("ol", "bracket-matches");
      column.matches.forEach((m) => { const li = el("li"); li.append(bracketMatch(m)); list.append(li); });
      col.append(list);
      columns.append(col);
    });
    const wrap = el("div", "bracket-wrap");
    wrap.dataset.testid = "bracket";
    wrap.append(columns);
    if (data.bracket.third_place) {
      const extra = el("section", "bracket-extra");
      extra.append(el("h3", "bracket-round", labels.third_place), bracketMatch(data.bracket.third_place));
      wrap.append(extra);
    }
    return wrap;
  }

  // "Find your table": everyone of the round, alphabetically, with their table.
  function finderItem(row) {
    const li = el("li", "finder-row");
    li.append(el("span", "finder-name", row.name));
    if (row.team && row.team !== row.name) li.append(el("small", "finder-team", row.team));
    const where = el("span", "finder-table");
    where.append(el("span", "table-no", row.table));
    li.append(where);
    return li;
  }

  function emptyPanel() {
    const section = panel("standings", labels.standings);
    section.querySelector(".panel-body").append(el("p", "screen-empty", data.round ? labels.no_result : labels.not_drawn));
    section.dataset.key = "empty";
    return section;
  }

  function render() {
    const finished = data.tournament.status === "finished";
    const bar = data.round && !finished ? `${data.round.label} · ${data.round.status_label}` : data.tournament.status_label;
    document.querySelector(".screen-title").textContent = data.tournament.name;
    const club = document.querySelector(".screen-club");
    if (club) { club.textContent = data.tournament.club || ""; club.hidden = !data.tournament.club; }
    colours(data.tournament.accent);
    document.querySelector(".screen-round").textContent = bar;
    const shown = slides[current] ? slides[current].dataset.key : null;
    root.replaceChildren();
    const made = [];
    if (data.clock) made.push(clockPanel());
    if (data.ranking) {
      made.push(podiumPanel());
      made.push(...paged("ranking", labels.final_ranking, data.ranking, rankingTable, rankingRow));
    }
    if (!data.ranking) {
      if (data.round && !finished) {
        made.push(...paged("pairings", `${data.round.label} · ${labels.pairings}`, data.round.tables,
          function () { const ol = el("ol", "pairings"); ol.dataset.testid = "screen-pairings"; return ol; },
          pairingItem));
      }
      const notes = function (body) {
        data.standings.notes.forEach((note) => body.append(el("p", "screen-note", note)));
      };
      if (data.bracket) made.push(bracketPanel());
      else made.push(...paged("standings", labels.standings, data.standings.rows, standingsTable, standingsRow, notes));
      if (data.finder && data.finder.length) {
        made.push(...paged("finder", labels.find_table, data.finder,
          function () { const ol = el("ol", "finder"); ol.dataset.testid = "screen-finder"; return ol; },
          finderItem));
      }
    }
    if (data.prizes) { // after the final ranking: the prize-giving
      const items = data.prizes.places.concat(data.prizes.categories.map((c) => Object.assign({ category: true }, c)));
      made.push(...paged("prizes", labels.prizes, items, prizesTable, prizeRow));
    }
    if (!made.length) made.push(emptyPanel());
    slides = made;
    slides.forEach((section) => root.append(section));
    const again = slides.findIndex((s) => s.dataset.key === shown);
    show(again >= 0 ? again : 0, again >= 0);
    tick();
  }

  // The club's colours (checked for contrast by the server), else the screen's own green.
  function colours(accent) {
    const style = document.documentElement.style;
    [["--felt", "bar"], ["--bar-ink", "ink"], ["--accent", "highlight"]].forEach(function ([name, key]) {
      if (accent && accent[key]) style.setProperty(name, accent[key]);
      else style.removeProperty(name);
    });
  }

  // After a deal (the counter moved, nothing published): only the tables' running scores.
  async function refreshTables(expected) {
    try {
      const url = new URL(root.dataset.dataUrl, window.location.href);
      url.searchParams.set("part", "tables");
      const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (!response.ok) return;
      const part = await response.json();
      if (!data.round || part.round !== data.round.number) { refresh(expected); return; }
      setOffset(part.now);
      data.round.tables = part.tables;
      data.version = `${String(data.version).split("~")[0]}~${part.count}`;
      root.dataset.version = data.version;
      const byNumber = new Map(part.tables.map((t) => [String(t.number), t]));
      let moved = false;
      root.querySelectorAll(".pairing[data-table]").forEach(function (li) {
        const table = byNumber.get(li.dataset.table);
        if (!table) { moved = true; return; }
        li.className = "pairing" + (table.finished ? " is-finished" : table.playing ? " is-playing" : "");
        scoreOf(table, li.querySelector(".score"));
      });
      if (part.bracket) bracketUpdate(part.bracket);
      if (moved) render();
      tick();
    } catch (error) {
      // No connection: the stream reconnects by itself and says what changed meanwhile.
    }
  }

  function show(index, keepTimer) {
    current = index % slides.length;
    slides.forEach((section, i) => section.classList.toggle("current", i === current));
    const big = slides[current].querySelector("[data-clock='big']");
    if (big) fit(big);
    if (keepTimer && turner) return;
    clearInterval(turner);
    turner = slides.length > 1 ? setInterval(() => show(current + 1, true), SLIDE_MS) : null;
  }

  // The push -------------------------------------------------------------------------------

  let fetching = false, again = false, retries = 0;

  function setOffset(serverNow) {
    const then = Date.parse(serverNow);
    if (!Number.isNaN(then)) offset = then - Date.now();
  }

  async function refresh(expected) {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      const response = await fetch(root.dataset.dataUrl, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (response.ok) {
        data = await response.json();
        setOffset(data.now);
        root.dataset.version = data.version;
        render();
      }
    } catch (error) {
      // No connection: the stream reconnects by itself and says what changed meanwhile.
    } finally {
      fetching = false;
    }
    if (again) { again = false; refresh(expected); return; }
    // The data may lag a moment behind the change it was fetched for (a cache being filled).
    const stampOf = (v) => String(v || "").split("~")[0];
    if (expected && stampOf(data.version) !== stampOf(expected) && retries < 3) {
      retries += 1;
      setTimeout(() => refresh(expected), 1000);
    } else {
      retries = 0;
    }
  }

  function connect() {
    const live = document.querySelector(".screen-live");
    if (!window.EventSource) return;
    const source = new EventSource(`${root.dataset.eventsUrl}?v=${encodeURIComponent(data.version)}`);
    // A server without streams (runserver) answers at once and says so: the browser asks again
    // after the retry it gave, and the screen is not offline meanwhile.
    let askAgain = false;
    source.addEventListener("reconnect", function () { askAgain = true; });
    source.addEventListener("open", function () {
      live.className = "screen-live is-live";
      live.title = "";
    });
    source.addEventListener("error", function () {
      if (askAgain && source.readyState === EventSource.CONNECTING) { askAgain = false; return; }
      live.className = "screen-live is-offline";
      live.title = labels.offline;
      // Refused (too many screens from this address: a 429): the browser gives up; try in a minute.
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 60000);
    });
    source.addEventListener("changed", function (event) {
      let version = "", what = "";
      try { ({ version, what } = JSON.parse(event.data)); } catch (error) { /* an old server */ }
      if (what === "tables" && !fetching) refreshTables(version);
      else refresh(version);
    });
  }

  // The screen stays on, and the pointer out of sight when it is not moved.
  async function keepAwake() {
    try { if (navigator.wakeLock && document.visibilityState === "visible") await navigator.wakeLock.request("screen"); }
    catch (error) { /* not allowed here: the screen's own settings decide */ }
  }
  let idle = null;
  function moved() {
    document.body.classList.remove("idle");
    clearTimeout(idle);
    idle = setTimeout(() => document.body.classList.add("idle"), 3000);
  }

  let resized = null;
  window.addEventListener("resize", function () {
    clearTimeout(resized);
    resized = setTimeout(render, 300);
  });
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("mousemove", moved);
  document.body.classList.toggle("has-qr", Boolean(document.querySelector(".screen-qr")));
  setOffset(data.now);
  render();
  setInterval(tick, 250);
  connect();
  keepAwake();
  moved();
})();

// The sheet with the deals that wait, worked out on the tablet by the project's own engine: Pyodide
// (static/pyodide/, from npm through ./run) runs scoring/engine/'s Python files (/engine.zip, the
// same files as the server's) on the match file (the API's FORMAT.md input: the rules, the options,
// the first dealer and the deals the server has) with the waiting deals after it. Loaded by
// offline.js only when a deal waits on a sheet; sw.js keeps all of it for a tablet without a
// connection. What it shows is marked "not yet confirmed by the server"; once the deals are sent,
// the server's sheet replaces it (the same engine, the same deals: the same numbers).
// window.tsoxaEngine.show(waiting): the waiting rows, the totals, the next dealer, the match's end.
// The engine itself runs in engine-worker.js (served as /engine-worker.js).
(() => {
  "use strict";
  const me = document.currentScript;
  const STATIC = me.src.replace(/scoring\/engine-loader\.js(\?.*)?$/, "");
  const i18n = window.tsoxaI18n;
  const gettext = i18n.gettext, interpolate = i18n.format;

  // The engine runs in a worker (engine-worker.js): Pyodide's start never holds the pad.
  let worker = null, asks = 0;
  const answers = new Map();
  function replay(matchFile, deals) {
    if (!worker) {
      worker = new Worker("/engine-worker.js", {type: "module"});  // web/pwa.py
      worker.onmessage = (e) => {
        const answer = answers.get(e.data.id);
        answers.delete(e.data.id);
        if (answer && e.data.error) answer.reject(new Error(e.data.error));
        else if (answer) answer.resolve(JSON.parse(e.data.result));
      };
      worker.onerror = () => {  // it could not start: every question fails, the next starts anew
        answers.forEach((answer) => answer.reject(new Error("engine worker")));
        answers.clear();
        worker.terminate();
        worker = null;
      };
    }
    return new Promise((resolve, reject) => {
      const id = ++asks;
      answers.set(id, {resolve: resolve, reject: reject});
      worker.postMessage({id: id, matchFile: matchFile, deals: deals});
    });
  }

  const truthy = (value) => value !== null && !["", "false", "False", "0", "off"].includes(value);
  const int = (value) => (value === null || value === "" ? null : parseInt(value, 10));

  // A waiting deal as the match file spells it (FORMAT.md), from what the pad posted (DealForm's
  // fields, as DealForm.clean reads them).
  function dealOf(item) {
    const f = new URLSearchParams(item.body);
    if (truthy(f.get("thrown_in"))) return {thrown_in: true};
    const deal = {maker: int(f.get("maker"))};
    const generale = int(f.get("generale"));
    let last = f.get("last_trick") || "";
    if (generale !== null && !last) last = `capo${generale % 2}`;
    if (f.get("suit")) {
      deal.contract = {suit: f.get("suit"), multiplier: int(f.get("multiplier")) || 1};
      const bid = f.get("bid_more") || f.get("bid");
      if (bid) deal.contract.bid = /^\d+$/.test(bid) ? int(bid) : bid;
    }
    // The card points in the cards: the pad's (pad.js), by the contract's suit, as the server's.
    const deck = document.querySelector(`form.deal-form input[name="suit"][value="${f.get("suit")}"]`) ||
      document.querySelector("form.deal-form");
    const total = parseInt(deck && deck.dataset.deck, 10) || 152;
    const typed = int(f.get("card_points")), team = int(f.get("points_team")) || 0;
    if (last.startsWith("capo")) {
      const capot = int(last.slice(4));
      deal.card_points = capot === 0 ? [total, 0] : [0, total];
      deal.capot = capot;
      if (truthy(f.get("solo_capot"))) deal.solo_capot = true;
    } else {
      deal.card_points = [total - typed, total - typed];
      deal.card_points[team] = typed;
      deal.last_trick = int(last);
    }
    if (generale !== null) deal.generale = generale;
    deal.melds = [[], []];
    let belote = null;
    for (const [name, value] of f) {
      const meld = /^melds([01])_(.+)$/.exec(name);
      if (meld) for (let n = int(value) || 0; n > 0; n -= 1) deal.melds[+meld[1]].push(meld[2]);
      const bel = /^belote([01])$/.exec(name);
      if (bel) (belote = belote || [0, 0])[+bel[1]] = int(value) || 0;
    }
    if (belote) deal.belote = belote;
    const winner = f.get("declarations_winner");
    if (winner === "0" || winner === "1") deal.declarations_winner = int(winner);
    else if (winner === "equal" && !document.querySelector('[data-contest="announcements"]')) deal.declarations_winner = "equal";
    return deal;
  }

  // The match file: the server's, or the copy sw.js keeps beside the sheet; asked once for each
  // version of the sheet on the page (the scoreboard's data-version).
  let file = null;
  async function matchFile() {
    const board = document.querySelector(".scoreboard[data-version]");
    const version = board ? board.dataset.version : "";
    if (file && file.version === version && file.page === location.pathname) return file.text;
    const response = await fetch(`/api/v1${location.pathname}file/`, {credentials: "same-origin", headers: {Accept: "application/json"}});
    if (!response.ok) throw new Error(`match file: ${response.status}`);
    file = {version: version, page: location.pathname, text: await response.text()};
    return file.text;
  }

  function el(tag, props, ...children) {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  }
  function tagged(node, id) {
    node.dataset.testid = id;
    return node;
  }
  // Seats 0 and 2 are the first team's players, 1 and 3 the second's (scoring.engine.team_of).
  const seat = (file, s) => file.teams ? file.teams[s % 2].players[s >> 1] : String(s + 1);

  // Each waiting row keeps what offline.js put in it (its number, "waiting" and what was tapped) and
  // gets who dealt it, the mark, and the totals after it with what it scored.
  function showRows(file, result, waiting) {
    const table = document.querySelector('table[data-testid="sheet"]');
    const head = table && table.tHead && table.tHead.rows[0];
    const columns = head ? Array.from(head.cells).reduce((n, cell) => n + cell.colSpan, 0) : 0;
    if (columns < 6) return;
    document.querySelectorAll('#waiting-deals tr[data-testid="waiting-row"]').forEach((row) => {
      const at = waiting.findIndex((item) => item.key === row.dataset.key);
      const line = at >= 0 && result.sheet.deals[result.known + at];
      if (!line || row.cells.length < 2) return;
      while (row.cells.length > 2) row.deleteCell(-1);
      row.cells[1].colSpan = columns - 5;
      const cells = [tagged(el("td", {className: "unconfirmed"},
        tagged(el("span", {textContent: seat(file, line.dealer)}), "waiting-dealer"), " · ",
        el("small", {textContent: gettext("not yet confirmed by the server")})), "waiting-unconfirmed")];
      [0, 1].forEach((t) => cells.push(tagged(el("td", {className: "num team-col"},
        el("b", {textContent: String(line.totals[t])}), el("small", {textContent: `+${line.scores[t]}`})), `waiting-total-${t}`)));
      cells.push(el("td", {className: "edit-col"}));
      row.append(...cells);
      row.classList.add("worked-out", `result-${line.result}`);
    });
  }

  // Under the server's totals: the tablet's, with the waiting deals, the next dealer or the result.
  function showBoard(file, result) {
    const board = document.querySelector(".scoreboard");
    if (!board) return;
    const box = document.getElementById("tablet-sheet") || tagged(el("div", {id: "tablet-sheet", className: "tablet-sheet"}), "tablet-sheet");
    box.setAttribute("role", "status");
    const names = file.teams ? file.teams.map((t) => t.name) : [gettext("Team 1"), gettext("Team 2")];
    if (result.error) {
      box.replaceChildren(el("p", {textContent: interpolate(gettext("The tablet's engine refuses a waiting deal: %(reason)s"), {reason: result.error})}));
    } else {
      const sheet = result.sheet;
      const totals = el("p", {className: "tablet-totals"},
        el("span", {className: "badge waiting", textContent: gettext("not yet confirmed by the server")}), " ",
        gettext("With the waiting deals:"), " ",
        names[0], " ", tagged(el("b", {textContent: String(sheet.totals[0])}), "tablet-total-0"), " · ",
        names[1], " ", tagged(el("b", {textContent: String(sheet.totals[1])}), "tablet-total-1"));
      let next;
      if (sheet.status === "finished") {
        const w = sheet.winner;
        const text = w === null || w === undefined
          ? interpolate(gettext("Match over: a draw %(a)s–%(b)s"), {a: sheet.totals[0], b: sheet.totals[1]})
          : interpolate(gettext("Match over: %(team)s win %(won)s–%(lost)s"), {team: names[w], won: sheet.totals[w], lost: sheet.totals[1 - w]});
        next = tagged(el("p", {className: "banner winner-banner", textContent: text}), "tablet-match-over");
      } else {
        next = el("p", {}, interpolate(gettext("Deal %(number)s · deals"), {number: sheet.deals.length + 1}), " ",
          tagged(el("strong", {textContent: seat(file, sheet.next_dealer)}), "tablet-next-dealer"));
      }
      box.replaceChildren(totals, next);
    }
    box.dataset.deals = String(result.known + (result.sheet ? result.sheet.deals.length - result.known : 0));
    if (!box.isConnected) (board.querySelector(".match-state") || board).append(box);
  }

  let asked = 0;
  const known = new Map();  // what was worked out, by the match file and the waiting deals
  async function show(waiting) {
    const mine = ++asked;
    const box = document.getElementById("tablet-sheet");
    if (!waiting.length) { if (box) box.remove(); return; }
    try {
      const text = await matchFile();
      const deals = JSON.stringify(waiting.map(dealOf));
      const key = text + "\n" + deals;
      if (!known.has(key)) {
        const result = await replay(text, deals);
        known.clear();
        known.set(key, result);
      }
      if (mine !== asked) return;  // a newer list is being shown
      const match = JSON.parse(text), result = known.get(key);
      if (result.sheet) showRows(match, result, waiting);
      showBoard(match, result);
      document.documentElement.dataset.engine = "shown";
    } catch (error) {
      document.documentElement.dataset.engine = "failed";  // the waiting rows stay as offline.js put them
    }
  }

  document.head.append(el("link", {rel: "stylesheet", href: STATIC + "scoring/engine.css"}));
  window.tsoxaEngine = {show: show, dealOf: dealOf};
})();

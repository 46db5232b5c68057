// The tablet pad: number keys, meld chips, the other team's card points.
// Every control is a real form field, so the page works without this file.
// Its few words come from Django's JavaScript catalogue (jsi18n/, loaded before this file by
// base.html): gettext, ngettext and interpolate, or English if the catalogue did not load.
window.tsoxaI18n = {
  gettext: function (text) { return window.gettext ? window.gettext(text) : text; },
  ngettext: function (one, many, n) { return window.ngettext ? window.ngettext(one, many, n) : (n === 1 ? one : many); },
  format: function (text, values) {
    return window.interpolate ? window.interpolate(text, values, true)
      : text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  },
};

(function () {
  "use strict";
  const gettext = window.tsoxaI18n.gettext, interpolate = window.tsoxaI18n.format;

  function form(el) { return el && el.closest("form.deal-form"); }
  function changed(f) { f.dispatchEvent(new Event("tsoxa:changed", { bubbles: true })); }
  function checked(f, name) { const r = f.querySelector(`input[name="${name}"]:checked`); return r ? r.value : null; }

  // Card points in the deck: 152 with a trump suit, 120 in no trumps, 248 in all trumps.
  function deck(f) {
    const suit = f.querySelector('input[name="suit"]:checked');
    return parseInt(suit ? suit.dataset.deck : f.dataset.deck, 10) || 152;
  }

  function refresh(f) {
    const input = f.querySelector("#card-points");
    const out = f.querySelector("#other-points");
    if (input && out) {
      const v = parseInt(input.value, 10);
      const total = deck(f);
      out.textContent = Number.isInteger(v) && v >= 0 && v <= total ? total - v : "–";
    }
    f.querySelectorAll(".chip input[type=number]").forEach(function (box) {
      const n = parseInt(box.value, 10) || 0;
      const chip = box.closest(".chip");
      chip.classList.toggle("on", n > 0);
      chip.querySelector(".count").textContent = n > 1 ? "×" + n : (n === 1 ? "✓" : "");
    });
  }

  function setPoints(f, value) {
    const input = f.querySelector("#card-points");
    input.value = value;
    refresh(f);
    changed(f);
  }

  document.addEventListener("click", function (e) {
    const key = e.target.closest("[data-key]");
    if (key && form(key)) {
      const f = form(key);
      const input = f.querySelector("#card-points");
      const k = key.dataset.key;
      let v = input.value;
      if (k === "clear") v = "";
      else if (k === "back") v = v.slice(0, -1);
      else if (v.length < 3) v = (v === "0" ? "" : v) + k;
      setPoints(f, v);
      return;
    }
    const clear = e.target.closest("[data-clear-melds]");
    if (clear && form(clear)) {
      const f = form(clear);
      f.querySelectorAll(`.meld-team.team${clear.dataset.clearMelds} .chip input`).forEach(function (box) { box.value = 0; });
      refresh(f);
      changed(f);
      return;
    }
    const chip = e.target.closest(".chip");
    if (chip && form(chip) && document.documentElement.classList.contains("js")) {
      e.preventDefault();
      const box = chip.querySelector("input[type=number]");
      const max = parseInt(box.max, 10) || 4;
      const n = (parseInt(box.value, 10) || 0) + 1;
      box.value = n > max ? 0 : n;
      refresh(form(chip));
      changed(form(chip));
    }
  });

  document.addEventListener("change", function (e) {
    const f = form(e.target);
    if (!f) return;
    if (e.target.name === "points_team") f.dataset.pointsTeamTouched = "1";
    if (e.target.name === "maker" && !f.dataset.pointsTeamTouched) {
      // The number typed is the trump makers' unless the scorekeeper says otherwise.
      const r = f.querySelector(`input[name="points_team"][value="${e.target.value}"]`);
      if (r) r.checked = true;
    }
    const last = checked(f, "last_trick");
    if (last && last.startsWith("capo") && ["last_trick", "maker", "points_team", "suit"].includes(e.target.name)) {
      // Capo: that team has every card point, whichever team the number is for.
      const team = checked(f, "points_team") || "0";
      setPoints(f, last.endsWith(team) ? String(deck(f)) : "0");
    }
    refresh(f);
  });

  document.addEventListener("input", function (e) { const f = form(e.target); if (f) refresh(f); });

  // Start a match: an earlier team fills its fields; the dealer buttons show the players' names.
  function seatLabels() {
    document.querySelectorAll("input[data-seat]").forEach(function (input) {
      const label = document.querySelector(`[data-seat-label="${input.dataset.seat}"]`);
      if (label) label.textContent = input.value.trim() || interpolate(gettext("Seat %(n)s"), {n: parseInt(input.dataset.seat, 10) + 1});
    });
  }
  document.addEventListener("input", function (e) { if (e.target.matches("input[data-seat]")) seatLabels(); });

  // Start a match: the pickers. Two letters or more typed in a name ask the server for the players
  // (or teams) of that name that this person may see; tapping one picks that person: a hidden id
  // beside the name. A name typed and not picked is a new player, as it is without this file.
  // An empty name offers the players and teams of this tablet's recent matches.
  const field = function (name) { return document.querySelector(`input[name="${name}"]`); };
  const pickId = function (input) { return document.querySelector(`input[data-pick-id="${input.name}"]`); };
  const teamPick = function (t) { return document.querySelector(`.team-pick[data-team="${t}"]`); };
  const asked = {};
  let typing = null;

  function unpick(input) {
    const id = pickId(input);
    if (id) id.value = "";
    input.classList.remove("picked");
  }
  function search(input) {
    const root = input.closest("[data-search-url]");
    const box = document.getElementById("picks-" + input.name);
    if (!root || !box) return;
    const url = new URL(root.dataset.searchUrl, window.location.href);
    url.searchParams.set("kind", input.dataset.search);
    url.searchParams.set("q", input.value.trim());
    const ticket = (asked[input.name] = (asked[input.name] || 0) + 1);  // only the latest answer shows
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (html) { if (ticket === asked[input.name]) box.innerHTML = html; })
      .catch(function () { /* offline: the name typed stays a new player */ });
  }
  function setPlayer(input, name, id) {
    input.value = name;
    const hidden = pickId(input);
    if (hidden) hidden.value = id || "";
    input.classList.toggle("picked", !!id);
  }
  function fillTeam(t, data) {
    const name = field(`team${t}_name`);
    if (name) name.value = data.name || "";
    [["player_a", data.playerA, data.playerAId], ["player_b", data.playerB, data.playerBId]].forEach(function (p) {
      const input = field(`team${t}_${p[0]}`);
      if (input) setPlayer(input, p[1] || "", p[2]);
    });
    seatLabels();
  }

  document.addEventListener("input", function (e) {
    const input = e.target.closest("input[data-search]");
    if (!input) return;
    // Changed by hand: no longer the person (or the team) picked.
    if (input.dataset.search === "player") unpick(input);
    const pick = teamPick(input.dataset.team);
    if (pick) pick.value = "";
    clearTimeout(typing);
    typing = setTimeout(function () { search(input); }, 250);
  });
  document.addEventListener("focusin", function (e) {
    const input = e.target.closest("input[data-search]");
    if (input && !input.value.trim()) search(input);
  });
  document.addEventListener("click", function (e) {
    const button = e.target.closest("button.pick");
    const box = button && button.closest(".picks");
    const input = box && field(box.id.replace(/^picks-/, ""));
    if (!input) return;
    if (button.dataset.pickPlayer) {
      setPlayer(input, button.dataset.name, button.dataset.pickPlayer);
      seatLabels();
    } else if (button.dataset.pickTeam) {
      const pick = teamPick(input.dataset.team);
      if (pick && pick.tagName === "SELECT" && !pick.querySelector(`option[value="${button.dataset.pickTeam}"]`)) {
        const option = new Option(button.textContent.trim(), button.dataset.pickTeam);
        Object.assign(option.dataset, button.dataset);
        pick.add(option);
      }
      if (pick) pick.value = button.dataset.pickTeam;
      fillTeam(input.dataset.team, button.dataset);
    }
    box.innerHTML = "";
  });
  // An earlier team chosen in the list fills its fields; "a new team" empties them.
  document.addEventListener("change", function (e) {
    const pick = e.target.closest("select.team-pick");
    if (!pick) return;
    const option = pick.selectedOptions[0];
    fillTeam(pick.dataset.team, pick.value && option ? option.dataset : {});
  });

  // Start a match: only the chosen game's options are shown (all of them without JavaScript).
  function optionGroups() {
    const game = document.querySelector('input[name="ruleset"]:checked');
    document.querySelectorAll(".option-group[data-ruleset]").forEach(function (group) {
      group.hidden = !!game && group.dataset.ruleset !== game.value;
    });
  }
  document.addEventListener("change", function (e) { if (e.target.name === "ruleset") optionGroups(); });

  function init() {
    seatLabels();
    optionGroups();
    document.querySelectorAll("form.deal-form").forEach(refresh);
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
})();

// A deal that could not be sent (no connection) waits on this tablet and is sent again as soon
// as the connection returns, or when the page is opened again. The server records a deal once
// per client key, so sending one twice is harmless.
(function () {
  "use strict";
  const ngettext = window.tsoxaI18n.ngettext, interpolate = window.tsoxaI18n.format;
  const STORE = "tsoxa-pending-deals";

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE)) || []; } catch (e) { return []; }
  }
  function save(list) { localStorage.setItem(STORE, JSON.stringify(list)); show(); }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, function (c) {
      const r = Math.random() * 16 | 0;
      return (c === "x" ? r : (r & 0x3 | 0x8)).toString(16);
    });
  }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }

  function show(note) {
    const box = document.getElementById("pending");
    if (!box) return;
    const here = load().filter(function (item) { return item.page === location.pathname; }).length;
    const text = here ? interpolate(ngettext(
      "%(n)s deal is waiting for the connection; they are sent as soon as it returns.",
      "%(n)s deals are waiting for the connection; they are sent as soon as it returns.", here), {n: here}) : "";
    box.textContent = [text, note || ""].filter(Boolean).join(" ");
    box.hidden = !box.textContent;
  }

  document.addEventListener("htmx:sendError", function (e) {
    const form = e.detail.elt;  // the form whose post failed (not the preview inside it)
    if (!form.matches || !form.matches("form.deal-form, form.thrown-in-form")) return;
    const body = new URLSearchParams(new FormData(form));
    body.delete("version");  // this tablet's own deals follow each other: no stale-sheet check among them
    const list = load();
    list.push({page: location.pathname, action: form.action, body: body.toString()});
    save(list);
    // A fresh pad for the next deal, with a key of its own.
    const key = newKey();
    document.querySelectorAll("form.deal-form, form.thrown-in-form").forEach(function (f) {
      if (f.classList.contains("deal-form")) f.reset();
      const field = f.querySelector('input[name="client_key"]');
      if (field) field.value = key;
      f.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
    });
    document.querySelectorAll("form.deal-form").forEach(function (f) { f.dispatchEvent(new Event("input", {bubbles: true})); });
  });

  let sending = false;
  async function resend() {
    if (sending || !navigator.onLine) return;
    const list = load();
    if (!list.length) return;
    sending = true;
    const left = [];
    let sent = 0, refused = 0;
    for (const item of list) {
      try {
        const response = await fetch(item.action, {
          method: "POST",
          body: item.body,
          credentials: "same-origin",
          headers: {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": csrf(), "HX-Request": "true"},
        });
        if (response.status >= 500) left.push(item);
        else if (response.ok) sent += 1;
        else refused += 1;  // the sheet refused it (finished, changed, not this tablet's): enter it again
      } catch (e) {
        left.push(item);
      }
    }
    save(left);
    sending = false;
    show(refused ? interpolate(ngettext(
      "%(n)s waiting deal could not be recorded: please enter it again.",
      "%(n)s waiting deals could not be recorded: please enter them again.", refused), {n: refused}) : "");
    if ((sent || refused) && document.getElementById("match-area") && window.htmx) {
      htmx.ajax("GET", location.pathname, {target: "#match-area", select: "#match-area", swap: "outerHTML"});
    }
  }

  window.addEventListener("online", resend);
  document.addEventListener("DOMContentLoaded", function () { show(); resend(); });
  document.addEventListener("htmx:afterSettle", function () { show(); });
})();

// The Content-Security-Policy (config/settings/base.py) runs no inline handler and no evaluated
// code: what the templates would otherwise have written inline is done here.
(function () {
  "use strict";
  // A form with data-question asks it before it is sent (deleting a deal).
  document.addEventListener("submit", function (e) {
    const f = e.target;
    if (f instanceof HTMLFormElement && f.dataset.question && !window.confirm(f.dataset.question)) {
      e.preventDefault();
    }
  });
  // A page that follows results (hx-trigger="every …") asks nothing while it is hidden.
  document.addEventListener("htmx:beforeRequest", function (e) {
    const trigger = (e.detail.elt && e.detail.elt.getAttribute("hx-trigger")) || "";
    if (/^\s*every\s/.test(trigger) && document.visibilityState !== "visible") e.preventDefault();
  });
})();

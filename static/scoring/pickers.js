// Start a match (templates/scoring/match_new.html) and the player pickers of other forms: loaded by
// tablet.js on the pages that have them, once they are parsed; docs/tablet-layout.md.
(function () {
  "use strict";
  const gettext = window.tsoxaI18n.gettext, interpolate = window.tsoxaI18n.format;

  // Start a match: the dealer buttons show the players' names.
  function seatLabels() {
    document.querySelectorAll("input[data-seat]").forEach(function (input) {
      const label = document.querySelector(`[data-seat-label="${input.dataset.seat}"]`);
      if (label) label.textContent = input.value.trim() || interpolate(gettext("Seat %(n)s"), {n: parseInt(input.dataset.seat, 10) + 1});
    });
  }
  document.addEventListener("input", function (e) { if (e.target.matches("input[data-seat]")) seatLabels(); });

  // Start a match: the pickers (docs/tablet-layout.md).
  const field = function (name) { return document.querySelector(`input[name="${name}"]`); };
  const pickId = function (input) { return document.querySelector(`input[data-pick-id="${input.name}"]`); };
  const cards = function (t) { return document.querySelector(`.team-cards[data-team="${t}"]`); };
  const asked = {};
  let typing = null;

  function unpick(input) {
    const id = pickId(input);
    if (id) id.value = "";
    input.classList.remove("picked");
  }
  // The team picked for team t (an earlier team's id, or "" for a new team).
  function pickTeam(t, id, data) {
    const list = cards(t);
    if (!list) {
      const hidden = document.querySelector(`input.team-pick[data-team="${t}"]`);
      if (hidden) hidden.value = id;
      return;
    }
    let radio = list.querySelector(`input.team-pick[value="${id}"]`);
    if (!radio && id) {
      // A team found by the search: a card of its own, first in the list.
      const label = document.createElement("label");
      const b = document.createElement("b"), small = document.createElement("small"), span = document.createElement("span");
      radio = document.createElement("input");
      Object.assign(radio, {type: "radio", name: `team${t}_pick`, value: id, className: "team-pick"});
      Object.assign(radio.dataset, {team: t, name: data.name, playerA: data.playerA, playerAId: data.playerAId,
        playerB: data.playerB, playerBId: data.playerBId});
      label.className = "team-card";
      b.textContent = data.name;
      small.textContent = `${data.playerA} & ${data.playerB}`;
      span.append(b, small);
      label.append(radio, span);
      list.prepend(label);
    }
    if (radio) radio.checked = true;
    teamCards();
  }
  // A team picked on one side cannot be picked on the other.
  function teamCards() {
    [0, 1].forEach(function (t) {
      const other = document.querySelector(`.team-cards[data-team="${1 - t}"] input.team-pick:checked`);
      document.querySelectorAll(`.team-cards[data-team="${t}"] input.team-pick`).forEach(function (radio) {
        radio.disabled = !!other && !!other.value && radio.value === other.value && !radio.checked;
      });
    });
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
    document.querySelectorAll(`.team${t} .picks`).forEach(function (box) { box.innerHTML = ""; });
    seatLabels();
  }

  document.addEventListener("input", function (e) {
    const input = e.target.closest("input[data-search]");
    if (!input) return;
    // Changed by hand: no longer the person (or the team) picked.
    if (input.dataset.search === "player") unpick(input);
    pickTeam(input.dataset.team, "", {});
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
      pickTeam(input.dataset.team, button.dataset.pickTeam, button.dataset);
      fillTeam(input.dataset.team, button.dataset);
    }
    box.innerHTML = "";
  });
  // An earlier team tapped fills its fields; "new team" empties them for typing.
  document.addEventListener("change", function (e) {
    const radio = e.target.closest(".team-cards input.team-pick");
    if (!radio) return;
    fillTeam(radio.dataset.team, radio.value ? radio.dataset : {});
    teamCards();
    if (!radio.value) {
      const name = field(`team${radio.dataset.team}_name`);
      if (name) name.focus();
    }
  });

  // Start a match: the chosen game's options, and its way round the table.
  function optionGroups() {
    const game = document.querySelector('input[name="ruleset"]:checked');
    document.querySelectorAll(".option-group[data-ruleset]").forEach(function (group) {
      group.hidden = !!game && group.dataset.ruleset !== game.value;
    });
    const dealer = document.querySelector("fieldset.dealer[data-clockwise]");
    if (game && dealer) {
      const left = dealer.dataset.clockwise.split(" ").includes(game.value);
      dealer.querySelectorAll("[data-direction]").forEach(function (text) {
        text.hidden = text.dataset.direction !== (left ? "left" : "right");
      });
      const seats = dealer.querySelector(".seats");
      seats.classList.toggle("to-left", left);
      seats.classList.toggle("to-right", !left);
    }
  }
  document.addEventListener("change", function (e) { if (e.target.name === "ruleset") optionGroups(); });

  function init() {
    seatLabels();
    optionGroups();
  }
  init();
  teamCards();
  document.addEventListener("htmx:afterSettle", init);
  // A name field that had the focus before this file came offers its choices now.
  const focused = document.activeElement;
  if (focused && focused.matches("input[data-search]") && !focused.value.trim()) search(focused);
})();

// The tablet pad, the pickers, the clock: what each part does is in docs/tablet-layout.md.
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
      // "+1" beside a chip that is on, while one more of that kind may still be shown.
      const more = chip.parentElement.querySelector(".chip-more");
      if (more) more.hidden = !(n > 0 && n < (parseInt(box.max, 10) || 4));
    });
    contest(f, false);
    generale(f);
  }

  // Coinche: a générale bid asks which taker took every trick alone; only the takers' two seats
  // are offered once the takers are tapped. Another bid, or other takers, take the seat back.
  function generale(f) {
    const row = f.querySelector(".generale-row");
    if (!row) return;
    const on = checked(f, "bid") === "generale";
    const maker = checked(f, "maker");
    row.classList.toggle("needed", on || row.classList.contains("has-error"));
    row.querySelectorAll("label.tap[data-team]").forEach(function (label) {
      const other = maker !== null && label.dataset.team !== maker;
      label.hidden = other;
      const radio = label.querySelector("input");
      if (radio.checked && (other || !on)) radio.checked = false;
    });
  }

  // The contest of equal best melds (Bulgarian sequences, Pilotta declarations, Mpourloto's
  // "best melds only"): asked only when both teams' best chips weigh the same, as the engine needs.
  function contest(f, byHand) {
    const row = f.querySelector(".contest-row");
    if (!row) return;
    // Coinche in sans-atout: the fours weigh by rank (data-rank-notrump).
    const notrump = checked(f, "suit") === "notrump";
    const best = [0, 1].map(function (t) {
      let most = 0;
      f.querySelectorAll(`.meld-team.team${t} .chip[data-rank]`).forEach(function (chip) {
        const box = chip.querySelector("input[type=number]");
        const rank = notrump && chip.dataset.rankNotrump !== undefined ? chip.dataset.rankNotrump : chip.dataset.rank;
        if (box && (parseInt(box.value, 10) || 0) > 0) most = Math.max(most, parseInt(rank, 10) || 0);
      });
      return most;
    });
    const needed = best[0] > 0 && best[0] === best[1];
    if (!needed && byHand) {
      row.querySelectorAll("input:checked").forEach(function (r) { r.checked = false; });
    }
    row.classList.toggle("needed", needed);
  }

  // What is missing for Record, said beside Record and at the field (the form's own messages).
  function missing(f) {
    const out = [];
    f.querySelectorAll(".pad-row[data-missing]").forEach(function (row) {
      const name = row.dataset.field;
      let ok;
      if (name === "card_points") {
        const last = checked(f, "last_trick");
        ok = (last && last.startsWith("capo")) || !!checked(f, "generale") || f.querySelector("#card-points").value.trim() !== "";
      } else if (name === "last_trick") {
        ok = !!checked(f, name) || !!checked(f, "generale");  // a générale is the takers' capot
      } else if (name === "bid") {
        const more = f.querySelector('input[name="bid_more"]');
        ok = !!checked(f, "bid") || !!(more && more.value.trim());
      } else {
        ok = !!checked(f, name);
      }
      if (!ok) out.push({field: name, row: row, text: row.dataset.missing});
    });
    return out;
  }
  function alertBox(f) { return f.querySelector(".pad-alert"); }
  function showProblems(f, problems) {
    const box = alertBox(f);
    problems.forEach(function (p) {
      p.row.classList.add("has-error");
      if (!p.row.querySelector(`p.error[data-for="${p.field}"]`)) {
        const line = document.createElement("p");
        line.className = "error";
        line.dataset.for = p.field;
        line.textContent = p.text;
        p.row.appendChild(line);
      }
    });
    if (box) {
      box.replaceChildren.apply(box, problems.map(function (p) {
        const line = document.createElement("p");
        line.dataset.for = p.field;
        line.textContent = p.text;
        return line;
      }));
      box.hidden = !problems.length;
    }
  }
  // A field changed: its error goes, beside Record and at the field.
  const FIELD_OF = {bid_more: "bid", points_team: "card_points", solo_capot: "last_trick"};
  function fieldOf(name) {
    if (/^(melds|belote)\d/.test(name)) return "melds";
    return FIELD_OF[name] || name;
  }
  function clearProblem(f, field) {
    const fields = field === "last_trick" ? ["last_trick", "card_points"] : [field];  // a capot needs no number
    fields.forEach(function (name) {
      f.querySelectorAll(`[data-for="${name}"]`).forEach(function (el) {
        if (el.closest(".pad-alert")) el.remove();
        else if (el.classList.contains("error")) el.remove();
      });
      const row = f.querySelector(`.pad-row[data-field="${name}"]`);
      if (row && !row.querySelector("p.error")) row.classList.remove("has-error");
    });
    const box = alertBox(f);
    if (box) box.hidden = !box.children.length;
  }

  function setPoints(f, value) {
    const input = f.querySelector("#card-points");
    input.value = value;
    clearProblem(f, "card_points");
    refresh(f);
    changed(f);
  }

  // A fourth digit does not fit: say so, rather than drop it silently.
  function refuseDigit(f) {
    const input = f.querySelector("#card-points");
    const note = f.querySelector(".keypad-note");
    input.classList.remove("refused");
    void input.offsetWidth;  // restart the shake
    input.classList.add("refused");
    if (note) note.textContent = f.dataset.tooLong || "";
  }
  function noteClear(f) {
    const note = f.querySelector(".keypad-note");
    if (note) note.textContent = "";
    f.querySelector("#card-points").classList.remove("refused");
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
      else if (v.length >= 3) { refuseDigit(f); return; }
      else v = (v === "0" ? "" : v) + k;
      noteClear(f);
      setPoints(f, v);
      return;
    }
    const clear = e.target.closest("[data-clear-melds]");
    if (clear && form(clear)) {
      const f = form(clear);
      f.querySelectorAll(`.meld-team.team${clear.dataset.clearMelds} .chip input`).forEach(function (box) { box.value = 0; });
      refresh(f);
      contest(f, true);
      changed(f);
      return;
    }
    // "+1": one more meld of that kind, shown beside a chip that is on.
    const more = e.target.closest(".chip-more");
    if (more && form(more)) {
      const f = form(more);
      const box = f.querySelector(`input[name="${more.dataset.more}"]`);
      const max = parseInt(box.max, 10) || 4;
      box.value = Math.min((parseInt(box.value, 10) || 0) + 1, max);
      refresh(f);
      contest(f, true);
      changed(f);
      return;
    }
    // A chip: a tap puts it on, a tap on a chip that is on takes it off (however many it counted).
    const chip = e.target.closest(".chip");
    if (chip && form(chip) && document.documentElement.classList.contains("js")) {
      e.preventDefault();
      const box = chip.querySelector("input[type=number]");
      box.value = (parseInt(box.value, 10) || 0) > 0 ? 0 : 1;
      refresh(form(chip));
      contest(form(chip), true);
      changed(form(chip));
    }
  });

  // Record: what is missing is said before anything is sent (also offline), beside Record and at
  // the field. Capture phase: before htmx sends the form.
  document.addEventListener("submit", function (e) {
    const f = e.target;
    if (!(f instanceof HTMLFormElement) || !f.matches("form.deal-form")) return;
    const problems = missing(f);
    if (!problems.length) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    showProblems(f, problems);
  }, true);

  document.addEventListener("change", function (e) {
    const f = form(e.target);
    if (!f) return;
    if (e.target.name) clearProblem(f, fieldOf(e.target.name));
    if (e.target.name === "points_team") f.dataset.pointsTeamTouched = "1";
    if (e.target.name === "maker" && !f.dataset.pointsTeamTouched) {
      // The number typed is the trump makers' unless the scorekeeper says otherwise.
      const r = f.querySelector(`input[name="points_team"][value="${e.target.value}"]`);
      if (r) r.checked = true;
    }
    if (e.target.name === "generale") {
      // A générale is the takers' capot: their seat's team took every trick.
      const capo = f.querySelector(`input[name="last_trick"][value="capo${parseInt(e.target.value, 10) % 2}"]`);
      if (capo) {
        capo.checked = true;
        clearProblem(f, "last_trick");
      }
    }
    const last = checked(f, "last_trick");
    if (last && last.startsWith("capo") && ["last_trick", "maker", "points_team", "suit", "generale"].includes(e.target.name)) {
      // Capo: that team has every card point, whichever team the number is for.
      const team = checked(f, "points_team") || "0";
      setPoints(f, last.endsWith(team) ? String(deck(f)) : "0");
    }
    refresh(f);
  });

  document.addEventListener("input", function (e) {
    const f = form(e.target);
    if (!f) return;
    if (e.target.name) clearProblem(f, fieldOf(e.target.name));
    refresh(f);
  });

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
  document.addEventListener("DOMContentLoaded", teamCards);

  function init() {
    seatLabels();
    optionGroups();
    // A recorded deal's row comes on top of the sheet (sheet.html#deal-recorded): it is the newest now.
    document.querySelectorAll("#deal-rows tr.newest").forEach(function (row, i) {
      if (i) row.classList.remove("newest");
    });
    document.querySelectorAll("form.deal-form").forEach(function (f) {
      // The pad has its own keys: the tablet's keyboard would cover them.
      const points = f.querySelector("#card-points");
      if (points && f.querySelector(".keypad")) points.setAttribute("inputmode", "none");
      refresh(f);
    });
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
})();

// What the templates would otherwise write inline (the Content-Security-Policy runs none).
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

// A timed round's clock on the sheet (docs/tablet-layout.md).
(function () {
  function tick() {
    document.querySelectorAll(".round-clock[data-state=running]").forEach(function (el) {
      if (!el.dataset.until) el.dataset.until = String(Date.now() + 1000 * Number(el.dataset.left || 0));
      const left = Math.max(0, Math.ceil((Number(el.dataset.until) - Date.now()) / 1000));
      const shown = el.querySelector(".clock-left");
      if (left === 0) {
        el.dataset.state = "over";
        el.className = "round-clock clock-over";
        const strong = document.createElement("strong");
        strong.textContent = el.dataset.last;
        el.replaceChildren(strong);
      } else if (shown) {
        const m = Math.floor(left / 60), s = left % 60;
        shown.textContent = m + ":" + String(s).padStart(2, "0");
      }
    });
  }
  setInterval(tick, 1000);
})();

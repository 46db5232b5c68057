// The scorekeeper's pad (templates/scoring/_deal_form.html), loaded with it: on the sheet of one who
// keeps it and on a deal's correction page; what each part does is in docs/tablet-layout.md.
(function () {
  "use strict";

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

  function init() {
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

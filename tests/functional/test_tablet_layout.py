"""The score sheet on a 10" tablet, landscape (1280×800) and portrait (800×1280), every rule set.

A match between two teams with long names, a few deals played, opened as its table's tablet
(the table link's session, no account). The pad is measured with bounding boxes:

- at rest (the page as it opens, not scrolled), every control of the pad (each tap, chip, key,
  input, button, Record and "thrown in") lies inside the viewport, is at least 44 px each way, and
  nothing else is drawn over its centre (``document.elementFromPoint``); in both orientations the
  whole pad fits at rest: that is the design (static/scoring/pad.css);
- scrolled into view one by one, each control is still inside the viewport's width and uncovered;
- the score table is not cut: nothing of it needs a horizontal scroll, both teams' totals and the
  ✎ links are inside the viewport;
- after Record, the newest deal's row is in view, without scrolling (the sheet shows the newest
  deal first, right under the pad).

Then the pad's behaviours: meld chips (a second tap takes one off, "+1" for another of the same
kind), the error beside Record and at the field, the fourth digit refused visibly, the Bulgarian
pad's one "Contract" row and its sequence contest only when needed, the correction page's preview
of the new totals and its question before a deal is thrown in, the history's wording.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.functional.test_rulesets_sheet import Pad

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 1280, "height": 800}
PORTRAIT = {"width": 800, "height": 1280}
SIZES = {"landscape": LANDSCAPE, "portrait": PORTRAIT}
TEAMS = [
    ("Kafeneio Kyparissia", ("Kostas Papadopoulos", "Eleni Georgiou")),
    ("Ouzeri Thessaloniki Kentro", ("Giorgos Alexiou", "Maria Dimitriou")),
]
MIN_TAP = 44  # px: the smallest touch target

# A few deals already on the sheet, for each game (FORMAT.md deals).
PLAYED = {
    "mpourloto": [
        {"maker": 0, "card_points": [90, 62], "last_trick": 0, "melds": [["seq3"], []]},
        {"maker": 1, "card_points": [71, 81], "last_trick": 1, "melds": [[], ["seq4", "mpourloto"]]},
        {"thrown_in": True},
    ],
    "pilotta": [
        {
            "maker": 0,
            "contract": {"suit": "hearts", "bid": 80, "multiplier": 1},
            "card_points": [106, 46],
            "last_trick": 0,
            "melds": [[], []],
            "belote": [0, 0],
        },
        {
            "maker": 1,
            "contract": {"suit": "spades", "bid": 110, "multiplier": 2},
            "card_points": [30, 122],
            "last_trick": 1,
            "melds": [["seq3"], ["seq4"]],
            "belote": [0, 1],
        },
    ],
    "bulgarian": [
        {
            "maker": 0,
            "contract": {"suit": "hearts", "multiplier": 1},
            "card_points": [86, 66],
            "last_trick": 0,
            "melds": [[], ["seq3"]],
            "belote": [0, 0],
        },
        {
            "maker": 1,
            "contract": {"suit": "alltrump", "multiplier": 1},
            "card_points": [94, 154],
            "last_trick": 1,
            "melds": [[], []],
            "belote": [1, 2],
        },
        {  # 106–106: hanging, and the scoreboard says what hangs (one line more above the pad)
            "maker": 0,
            "contract": {"suit": "hearts", "multiplier": 1},
            "card_points": [96, 56],
            "last_trick": 0,
            "melds": [[], ["seq4"]],
            "belote": [0, 0],
        },
    ],
    "french": [
        {
            "maker": 0,
            "card_points": [90, 62],
            "last_trick": 0,
            "melds": [["seq3"], ["seq4"]],
            "belote": [1, 0],
        },
        {"maker": 1, "card_points": [100, 52], "last_trick": 0, "melds": [[], []], "belote": [0, 0]},
    ],
    "classic": [
        {"maker": 0, "card_points": [100, 52], "last_trick": 0, "melds": [[], []], "belote": [1, 0]},
        {"maker": 1, "card_points": [92, 60], "last_trick": 0, "melds": [[], []], "belote": [0, 1]},
    ],
    "coinche": [
        {
            "maker": 0,
            "contract": {"suit": "hearts", "bid": 100, "multiplier": 2},
            "card_points": [92, 60],
            "last_trick": 0,
            "melds": [["seq3"], []],
            "belote": [1, 0],
        },
        {  # a générale: the longest words of the sheet's contract and cards columns
            "maker": 1,
            "contract": {"suit": "spades", "bid": "generale", "multiplier": 1},
            "card_points": [0, 152],
            "capot": 1,
            "generale": 3,
            "melds": [[], []],
        },
    ],
}

# Every control of the pad: what a finger can tap or type in. A radio shown as a tap is measured
# through its label (the radio itself is drawn over it, invisible); "thrown in" belongs to a form
# of its own but sits in the pad.
CONTROLS_JS = """
() => {
  const form = document.querySelector("form.deal-form");
  const found = [...form.querySelectorAll(
    "label.tap, label.chip, label.check, button, input:not([type=hidden]):not([type=radio]), select, textarea"
  )];
  const hiddenBox = (el) => el.matches("input[type=number]") && el.closest("label.chip");
  // A control whose room is kept while it is not asked for ("+1", the générale's seats) is invisible.
  return found.filter((el) => el.checkVisibility({visibilityProperty: true}) && !hiddenBox(el));
}
"""

PROBLEMS_JS = """
([controls, scrollEach]) => {
  const problems = [];
  const words = (el) => (el.innerText || el.value || el.getAttribute("aria-label") || "")
    .trim().replace(/\\s+/g, " ").slice(0, 40);
  const describe = (el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${words(el)}"`;
  const tapTarget = (el) => el.closest("label, button, a") || el;
  for (const el of controls) {
    if (scrollEach) el.scrollIntoView({block: "center", inline: "nearest"});
    const r = el.getBoundingClientRect();
    const [x, y, w, h] = [r.left, r.top, r.width, r.height].map(Math.round);
    const where = `[${x},${y} ${w}×${h}]`;
    if (r.left < 0 || r.right > window.innerWidth + 0.5) {
      problems.push(`${describe(el)} ${where} is outside the viewport's width`);
      continue;
    }
    if (!scrollEach && (r.top < 0 || r.bottom > window.innerHeight + 0.5)) {
      problems.push(`${describe(el)} ${where} is below or above the viewport at rest`);
      continue;
    }
    const small = el.matches("input[type=checkbox]") ? false : (r.width < __MIN__ || r.height < __MIN__);
    if (small) problems.push(`${describe(el)} ${where} is smaller than __MIN__ px`);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit) || tapTarget(hit) === tapTarget(el))) {
      problems.push(`${describe(el)} ${where} is covered by ${hit ? describe(hit) : "nothing"}`);
    }
  }
  if (scrollEach) window.scrollTo(0, 0);
  return problems;
}
""".replace("__MIN__", str(MIN_TAP))

TABLE_JS = """
() => {
  const table = document.querySelector("table.sheet-table");
  const scroller = table.closest(".sheet-scroll") || table.parentElement;
  const out = [];
  if (scroller.scrollWidth > scroller.clientWidth + 1) {
    out.push(`the table needs a horizontal scroll: ${scroller.scrollWidth} px in ${scroller.clientWidth}`);
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) {
    out.push(`the page is wider than the viewport: ${document.documentElement.scrollWidth} px`);
  }
  const cells = [...table.querySelectorAll("th, td[data-testid^=row-total], a.edit")];
  for (const cell of cells) {
    const r = cell.getBoundingClientRect();
    if (r.width === 0 || r.left < 0 || r.right > window.innerWidth + 0.5) {
      const name = cell.innerText.trim().slice(0, 30);
      out.push(`"${name}" [${Math.round(r.left)}–${Math.round(r.right)}] is cut`);
    }
  }
  if (!table.querySelectorAll("a.edit").length) out.push("no ✎ link");
  return out;
}
"""


def _new_match(ruleset: str):
    from scoring import services

    match = services.match_create(teams=TEAMS, ruleset=ruleset, first_dealer=0)
    for deal in PLAYED[ruleset]:
        services.deal_record(match=match, deal=deal)
        match.refresh_from_db()
    return match


@pytest.fixture
def tablet(browser, live_server) -> Iterator[Callable[..., Page]]:
    """``tablet(match, size)``: a touch tablet of that size holding the match's table link (the
    session a table's link gives: a scorekeeper without an account), on the match's sheet."""
    from django.contrib.sessions.backends.db import SessionStore

    from scoring.permissions import SESSION_KEY

    contexts, errors = [], []

    def open_tablet(match, size=LANDSCAPE, path: str | None = None) -> Page:
        session = SessionStore()
        session[SESSION_KEY] = [match.pk]
        session.save()
        context = browser.new_context(viewport=size, has_touch=True)
        context.set_default_timeout(10_000)
        context.add_cookies([{"name": "sessionid", "value": session.session_key, "url": live_server.url}])
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(live_server.url + (path or f"/matches/{match.pk}/"))
        return page

    yield open_tablet
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def pad_problems(page: Page, *, scroll_each: bool) -> list[str]:
    page.evaluate("window.scrollTo(0, 0)")
    controls = page.evaluate_handle(CONTROLS_JS)
    return page.evaluate(PROBLEMS_JS, [controls, scroll_each])


def control_count(page: Page) -> int:
    return page.evaluate(f"({CONTROLS_JS})().length")


def record_a_deal(page: Page, ruleset: str) -> None:
    """Team 1 takes it with 100 card points and the last trick (bid 80 ♥ where there is a contract)."""
    pad = Pad(page)
    pad.maker(0)
    if ruleset in ("pilotta", "coinche"):
        pad.bid(80)
    if ruleset in ("pilotta", "bulgarian", "coinche"):
        pad.suit("hearts")
    pad.key_in(100)
    pad.last_trick("0")
    expect(page.get_by_test_id("preview")).to_contain_text("made")
    pad.record()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("ruleset", PLAYED)
def test_the_pad_and_the_sheet_fit_the_tablet(tablet, ruleset: str, size: str) -> None:
    match = _new_match(ruleset)
    page = tablet(match, SIZES[size])
    expect(page.locator("form.deal-form")).to_be_visible()
    rows = page.locator("tr[data-testid=deal-row]")
    expect(rows).to_have_count(len(PLAYED[ruleset]))
    assert control_count(page) >= 20  # the whole pad is measured, not an empty selection

    # At rest: the whole pad is on screen, every control large enough and nothing over it.
    assert pad_problems(page, scroll_each=False) == []
    assert page.evaluate("window.scrollY") == 0
    # Scrolled to, one by one: inside the width, uncovered (no sticky bar over a key).
    assert pad_problems(page, scroll_each=True) == []

    # The score table is whole: both teams' totals and the ✎ column, whatever the names.
    assert page.evaluate(TABLE_JS) == []

    # Record: the newest deal is the sheet's first row, in view where the page stands.
    record_a_deal(page, ruleset)
    newest = len(PLAYED[ruleset]) + 1
    expect(rows).to_have_count(newest)
    first = rows.first
    expect(first).to_have_attribute("data-number", str(newest))
    box = first.bounding_box()
    viewport = SIZES[size]
    assert page.evaluate("window.scrollY") == 0
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
    expect(first.get_by_test_id("row-total-1")).to_be_in_viewport()
    expect(first.locator("a.edit")).to_be_in_viewport()
    # The fresh pad is whole again, and so is the table with one row more.
    assert pad_problems(page, scroll_each=False) == []
    assert page.evaluate(TABLE_JS) == []


def test_meld_chips_switch_off_count_on_purpose_and_come_off_one_by_one(tablet) -> None:
    page = tablet(_new_match("mpourloto"))
    pad = Pad(page)
    team0 = pad.form.locator(".meld-team.team0")
    seq3 = team0.locator('label.chip[title="sequence of 3"]')
    seq4 = team0.locator('label.chip[title="sequence of 4"]')
    more = seq3.locator("xpath=..").locator(".chip-more")
    box = pad.form.locator('input[name="melds0_seq3"]')

    # At rest: off, no "+1".
    expect(more).to_be_hidden()
    # A tap: on (✓), and "+1" offers a second sequence of 3.
    seq3.click()
    expect(seq3.locator(".count")).to_have_text("✓")
    expect(box).to_have_value("1")
    expect(more).to_be_visible()
    # A second tap on the chip takes it off: it does not count a second one.
    seq3.click()
    expect(seq3.locator(".count")).to_have_text("")
    expect(box).to_have_value("0")
    expect(more).to_be_hidden()
    # A second meld of the same kind is "+1", on purpose: ×2.
    seq3.click()
    more.click()
    expect(seq3.locator(".count")).to_have_text("×2")
    expect(box).to_have_value("2")
    # Another chip on, then the first taken off alone: the other stays.
    seq4.click()
    seq3.click()
    expect(box).to_have_value("0")
    expect(seq4.locator(".count")).to_have_text("✓")
    expect(pad.form.locator('input[name="melds0_seq4"]')).to_have_value("1")
    # The K+Q (one a deal) has no "+1"; "+1" stops at the most a team can show.
    expect(
        team0.locator('label.chip[title^="mpourloto"]').locator("xpath=..").locator(".chip-more")
    ).to_have_count(0)
    seq3.click()
    for _ in range(3):
        more.click()
    expect(box).to_have_value("4")
    expect(more).to_be_hidden()

    # Recorded as tapped: two sequences of 3 and one of 4 for team 1.
    seq3.click()
    seq3.click()
    more.click()
    pad.maker(0)
    pad.key_in(100)
    pad.last_trick("0")
    # 100 + 10 + 20 + 20 + 50 = 200 v 52: made.
    pad.expect_preview("Kafeneio Kyparissia 200 · Ouzeri Thessaloniki Kentro 52")
    pad.record()
    expect(page.locator('tr[data-number="4"] td').nth(4)).to_have_text("20 + 20 + 50 / –")


def test_record_with_a_tap_missing_says_so_beside_record_and_at_the_field(tablet) -> None:
    match = _new_match("pilotta")
    page = tablet(match)
    pad = Pad(page)
    alert = page.get_by_test_id("pad-alert")
    record = pad.form.locator("button.record")
    expect(alert).to_be_hidden()

    # Only the declarers and the number: bid, trumps and last trick are missing.
    pad.maker(1)
    pad.key_in(90)
    record.click()
    expect(alert).to_be_visible()
    expect(alert.locator("p")).to_have_text(
        [
            "Tap the bid (80, 90, 100 …) or type a higher one.",
            "Tap the contract's suit.",
            "Tap the team that won the last trick (or took capot).",
        ]
    )
    # Beside Record: just above it, in the same column, both in view.
    a, r = alert.bounding_box(), record.bounding_box()
    assert 0 <= r["y"] - (a["y"] + a["height"]) <= 16, (a, r)
    assert a["x"] < r["x"] + r["width"] and r["x"] < a["x"] + a["width"], (a, r)
    expect(alert).to_be_in_viewport()
    # And at each field.
    expect(pad.form.locator('.pad-row[data-field="suit"] p.error')).to_have_text("Tap the contract's suit.")
    expect(pad.form.locator('.pad-row[data-field="suit"]')).to_have_class(re.compile(r"\bhas-error\b"))
    # Nothing was sent.
    expect(page.locator("tr[data-testid=deal-row]")).to_have_count(2)

    # A tap puts its error away, here and beside Record.
    pad.suit("clubs")
    expect(pad.form.locator('.pad-row[data-field="suit"] p.error')).to_have_count(0)
    expect(alert.locator("p")).to_have_count(2)
    pad.bid(90)
    pad.last_trick("1")
    expect(alert).to_be_hidden()

    # The server's refusal (422) shows in the same places: 200 card points of a deck of 152.
    pad.clear_points()
    pad.key_in(200)
    record.click()
    message = "Card points are between 0 and 152: one deal has 152 in the cards."
    expect(alert).to_have_text(message)
    expect(pad.form.locator('.pad-row[data-field="card_points"] p.error')).to_have_text(message)
    expect(alert).to_be_in_viewport()
    expect(page.locator("tr[data-testid=deal-row]")).to_have_count(2)


def test_a_fourth_digit_is_refused_visibly(tablet) -> None:
    page = tablet(_new_match("mpourloto"))
    pad = Pad(page)
    note = page.get_by_test_id("keypad-note")
    expect(note).to_be_hidden()
    pad.key_in(123)
    pad.form.locator('button[data-key="4"]').click()
    expect(pad.form.locator("#card-points")).to_have_value("123")
    expect(note).to_have_text("At most 3 digits: ⌫ takes one back, C clears.")
    expect(pad.form.locator("#card-points")).to_have_class(re.compile(r"\brefused\b"))
    # ⌫ takes one back and the note goes.
    pad.form.locator('button[data-key="back"]').click()
    expect(pad.form.locator("#card-points")).to_have_value("12")
    expect(note).to_be_hidden()
    # The keypad is the pad's keyboard: the tablet's own stays away.
    expect(pad.form.locator("#card-points")).to_have_attribute("inputmode", "none")


def test_the_bulgarian_pad_asks_the_sequence_contest_only_when_sequences_are_equal(tablet) -> None:
    page = tablet(_new_match("bulgarian"))
    pad = Pad(page)
    labels = pad.form.locator(".pad-label")
    expect(labels.filter(has_text=re.compile(r"^Contract$"))).to_have_count(1)
    expect(labels.filter(has_text=re.compile(r"^Trumps$"))).to_have_count(1)
    contest = pad.form.locator(".contest-row")
    expect(contest).to_be_hidden()
    # A tierce for team 1 alone: it counts, nothing to ask.
    pad.declare(0, "seq3")
    expect(contest).to_be_hidden()
    # A carré for team 2 does not make a contest of sequences.
    pad.declare(1, "four")
    expect(contest).to_be_hidden()
    # A tierce for team 2 too: equal lengths, the table says whose is higher.
    pad.declare(1, "seq3")
    expect(contest).to_be_visible()
    pad.contest("equal")
    # Team 2's is a quarte after all: longer, no question (and the answer given goes).
    pad.form.locator('.meld-team.team1 label.chip[title="tierce: sequence of 3"]').click()
    pad.declare(1, "seq4")
    expect(contest).to_be_hidden()
    expect(pad.form.locator('input[name="declarations_winner"]:checked')).to_have_count(0)
    # Recorded: team 2's quarte counts, team 1's tierce does not. Team 1 ♥ 100 + 10 = 110;
    # team 2 52 + 50 + 100 = 202 (the carré always counts): inside.
    pad.maker(0)
    pad.suit("hearts")
    pad.key_in(100)
    pad.last_trick("0")
    pad.expect_preview("Kafeneio Kyparissia 110 · Ouzeri Thessaloniki Kentro 202")
    pad.record()
    expect(page.locator("tr[data-testid=deal-row]")).to_have_count(len(PLAYED["bulgarian"]) + 1)


def test_the_correction_page_previews_the_new_totals_before_saving(tablet) -> None:
    from scoring.models import Match

    match = _new_match("mpourloto")
    first = match.deals.order_by("position").first()
    # Now: deal 1 90 + 10 + 20 = 120 v 62, made; deal 2 71 v 81 + 10 + 50 + 20 = 161, made;
    # deal 3 thrown in. Totals 191 / 223.
    before = list(Match.objects.get(pk=match.pk).totals)
    assert before == [191, 223]
    page = tablet(match, path=f"/matches/{match.pk}/deals/{first.pk}/")
    expect(page.locator("h1")).to_have_text("Correct deal 1")
    pad = Pad(page)
    expect(pad.form.locator("#card-points")).to_have_value("90")
    # The correction: team 1 had 100, not 90 (team 2 52). Deal 1: 100 + 10 + 20 = 130 v 52, made.
    pad.clear_points()
    pad.key_in(100)
    pad.expect_preview("made: +130 / +52")
    totals = page.get_by_test_id("preview-totals")
    # The whole sheet again, deals 2 and 3 as they are: 130 + 71 = 201 / 52 + 161 = 213.
    after = (201, 213)
    expect(totals).to_have_text(
        f"Totals once corrected: Kafeneio Kyparissia {after[0]} · Ouzeri Thessaloniki Kentro {after[1]}"
        f" (now {before[0]} · {before[1]})"
    )
    # Nothing saved by the preview.
    assert list(Match.objects.get(pk=match.pk).totals) == before
    page.get_by_role("button", name="Save the correction").click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    expect(page.get_by_test_id("total-0")).to_have_text(str(after[0]))
    expect(page.get_by_test_id("total-1")).to_have_text(str(after[1]))


@pytest.mark.parametrize("size", SIZES)
def test_the_correction_pad_fits_the_tablet(tablet, size: str) -> None:
    match = _new_match("pilotta")
    deal = match.deals.order_by("position").last()
    page = tablet(match, SIZES[size], path=f"/matches/{match.pk}/deals/{deal.pk}/")
    expect(page.locator("form.deal-form")).to_be_visible()
    assert pad_problems(page, scroll_each=True) == []


def test_turning_a_played_deal_into_thrown_in_asks_first(tablet) -> None:
    from scoring.models import Match

    match = _new_match("mpourloto")
    first = match.deals.order_by("position").first()
    page = tablet(match, path=f"/matches/{match.pk}/deals/{first.pk}/")
    asked: list[str] = []

    def answer(accept: bool):
        def handler(dialog) -> None:
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        return handler

    page.once("dialog", answer(False))
    page.get_by_role("button", name="All passed · thrown in").click()
    expect(page.locator("h1")).to_have_text("Correct deal 1")
    assert asked == [
        "Deal 1 was played: make it “all passed, thrown in”? Its points go and the sheet is worked out again."
    ]
    first.refresh_from_db()
    assert not first.data.get("thrown_in")

    page.once("dialog", answer(True))
    page.get_by_role("button", name="All passed · thrown in").click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    first.refresh_from_db()
    assert first.data == {"thrown_in": True}
    assert len(asked) == 2
    assert Match.objects.get(pk=match.pk).version > match.version

    # A deal already thrown in asks nothing.
    page.goto(page.url.rstrip("/") + f"/deals/{first.pk}/")
    expect(page.locator("form.deal-form")).to_be_visible()
    expect(page.locator("form.thrown-in-form[data-question]")).to_have_count(0)


def test_the_history_names_the_teams_and_the_table_tablet(tablet) -> None:
    match = _new_match("pilotta")
    page = tablet(match)
    record_a_deal(page, "pilotta")
    expect(page.locator("tr[data-testid=deal-row]")).to_have_count(3)
    page.get_by_role("link", name="History").click()
    history = page.get_by_test_id("history")
    newest = history.locator("tbody tr").first
    expect(newest.locator("td").nth(1)).to_have_text("table tablet")
    expect(newest.locator("td").nth(2)).to_have_text("recorded")
    expect(newest.locator("td").nth(3)).to_have_text(
        "Declarers: Kafeneio Kyparissia 80 ♥ · cards 100–52 · last trick: Kafeneio Kyparissia"
        " · declarations – / –"
    )
    second = history.locator("tbody tr").nth(1)
    expect(second.locator("td").nth(3)).to_have_text(
        "Declarers: Ouzeri Thessaloniki Kentro 110 ♠ ×2 · cards 30–122 · last trick: Ouzeri Thessaloniki"
        " Kentro · declarations tierce / quarte + belote"
    )
    expect(history).not_to_contain_text("team 1")
    expect(history).not_to_contain_text("anonymous")

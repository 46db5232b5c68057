"""A scorekeeper keeps a Coinche match on the tablet, in a real browser, landscape (1280×800) and
portrait (800×1280): the match started on /matches/new/ by tapping Coinche and its target, then deals
keyed by taps on the pad (the bid, capot or générale with the taker who took every trick, the trumps,
coinché, the belote, the card points on the keypad, the last trick) and the score on the sheet.

The numbers are worked by hand from RULES.md §6 (docs/games/coinche.md), the arithmetic in the
comments; the app's engine is never asked. Alpha (Anna, Chris) sit at seats 1 and 3, Beta (Babis,
Dora) at 2 and 4; Anna deals first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.functional.test_mpourloto_sheet import SEATS, TEAMS, expect_sheet
from tests.functional.test_rulesets_sheet import Pad, expect_row

pytestmark = pytest.mark.browser

SIZES = {"landscape": {"width": 1280, "height": 800}, "portrait": {"width": 800, "height": 1280}}


@pytest.fixture(params=SIZES)
def tablet(request, browser) -> Iterator[Page]:
    """A touch tablet of each size; a JavaScript error on it fails the test."""
    context = browser.new_context(viewport=SIZES[request.param], has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def start_coinche(page: Page, base_url: str) -> int:
    """The new-match page filled in by hand: the teams, Anna dealing, Coinche to 1000 tapped."""
    page.goto(f"{base_url}/matches/new/")
    for name, value in (
        ("team0_name", TEAMS[0]),
        ("team0_player_a", SEATS[0]),
        ("team0_player_b", SEATS[2]),
        ("team1_name", TEAMS[1]),
        ("team1_player_a", SEATS[1]),
        ("team1_player_b", SEATS[3]),
    ):
        page.locator(f'input[name="{name}"]').press_sequentially(value)  # fmt: skip
    page.locator("fieldset.dealer label.choice").filter(has_text=SEATS[0]).click()
    page.locator("fieldset.game label.choice").filter(has_text="Coinche").click()
    options = page.locator('.option-group[data-ruleset="coinche"]:not(.preset-group)')
    expect(options).to_be_visible()
    expect(page.locator('.option-group[data-ruleset="french"]:not(.preset-group)')).to_be_hidden()
    # Play goes to the right (anticlockwise), as in Pilotta.
    expect(page.locator('small.direction[data-direction="right"]')).to_be_visible()
    targets = options.locator(".coinche-target label.choice")
    expect(targets).to_have_text(["1000", "1500", "2000", "2001"])
    targets.filter(has_text="1000").click()
    expect(page.locator('input[name="coinche_target"][value="1000"]')).to_be_checked()
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    return int(re.search(r"/matches/(\d+)/$", page.url).group(1))


def test_a_coinche_deal_keyed_by_taps_shows_its_score(tablet: Page, live_server) -> None:
    page = tablet
    match_id = start_coinche(page, live_server.url)
    expect_sheet(page, totals=(0, 0), results=[], next_dealer="Anna")
    expect(page.locator("p.rules")).to_have_text("Coinche to 1000")
    pad = Pad(page)
    pad.expect_maker_label("Taker")
    bids = pad.form.locator(".bid-row label.tap")
    expect(bids).to_have_text(
        ["80", "90", "100", "110", "120", "130", "140", "150", "160", "capot", "générale"]
    )
    expect(pad.form.locator('input[name="bid_more"]')).to_have_count(0)
    expect(pad.form.locator('input[name="suit"][value="notrump"]')).to_have_count(0)
    generale = pad.form.locator(".generale-row")
    expect(generale).to_be_hidden()  # asked only with a générale bid

    # Deal 1, Anna deals. Alpha bid 100 ♥ and hold the belote; Alpha count 92 (Beta 152 − 92 = 60)
    # and take the last trick: 92 + 10 + 20 = 122 ≥ 100 and more than 60: made, 122 + 100 = 222 → 220.
    pad.maker(0)
    pad.bid(100)
    pad.suit("hearts")
    pad.belote(0)
    pad.key_in(92)
    pad.expect_other(60)
    pad.last_trick("0")
    pad.expect_preview("Alpha 122 · Beta 60 → made: +220 / +60")
    pad.record()
    expect_sheet(page, totals=(220, 60), results=["made"], next_dealer="Babis")
    expect_row(page, 1, dealer="Anna", contract="100 ♥", cards="92–60", declarations="belote / –",
               scores=(220, 60), totals=(220, 60), raw=(222, 60))  # fmt: skip

    # Deal 2, Babis deals. Beta bid a générale in spades: the pad asks which of Beta's two took every
    # trick (Alpha's seats are not offered); Dora did. That is Beta's capot: every card point, no number
    # to key. 252 + 500 = 752 → 750; Alpha nothing.
    pad.maker(1)
    pad.bid("generale")
    expect(generale).to_be_visible()
    expect(generale.locator("label.tap:visible")).to_have_text(["Babis", "Dora"])
    pad.suit("spades")
    pad._tap("generale", 3)
    expect(pad.form.locator('input[name="last_trick"][value="capo1"]')).to_be_checked()
    expect(pad.form.locator("#card-points")).to_have_value("152")
    pad.expect_other(0)
    pad.expect_preview("Alpha 0 · Beta 252 → made: +0 / +750")
    pad.record()
    expect_sheet(page, totals=(220, 810), results=["made", "made"], next_dealer="Chris")
    expect_row(page, 2, dealer="Babis", contract="générale ♠", cards="0–152 générale", scores=(0, 750),
               totals=(220, 810), raw=(0, 752))  # fmt: skip
    expect(generale).to_be_hidden()  # the fresh pad: no bid yet

    # Deal 3, Chris deals. Alpha bid 90 ♦ and Beta coinche (×2); Beta hold the belote. Alpha count 100
    # (Beta 52) and take the last trick: 110 ≥ 90 and more than 52 + 20 = 72: made coinché, Alpha
    # (160 + 90) × 2 = 500, Beta their belote 20.
    pad.maker(0)
    pad.bid(90)
    pad.suit("diamonds")
    pad.double(2)
    pad.belote(1)
    pad.key_in(100)
    pad.expect_other(52)
    pad.last_trick("0")
    pad.expect_preview("Alpha 110 · Beta 72 → made: +500 / +20")
    pad.record()
    expect_sheet(page, totals=(720, 830), results=["made", "made", "made"], next_dealer="Dora")
    expect_row(page, 3, dealer="Chris", contract="90 ♦ coinché", cards="100–52", declarations="– / belote",
               scores=(500, 20), totals=(720, 830))  # fmt: skip

    from scoring.models import Match

    match = Match.objects.get(pk=match_id)
    assert (match.ruleset, match.target, match.totals) == ("coinche", 1000, [720, 830])
    assert match.status == "in_progress"

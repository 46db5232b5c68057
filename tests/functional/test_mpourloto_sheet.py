"""A scorekeeper plays a Mpourloto match on the tablet sheet, in a real browser.

Everything is done by tapping, as at the table: the trump makers, the card
points on the keypad, the last trick or capo, the meld chips, "Record deal".
The expected totals are worked out by hand from RULES.md §1 and written down
as numbers; the app's engine is never asked.

Deal points of a team = card points + 10 for the last trick (90 on capo) + melds.
Made (makers strictly more): each team adds its own. Mesa (makers equal or
fewer): the opponents add both teams' points, the makers 0.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring import services as scoring
from scoring.models import Match
from tests.factories import WIN_0

pytestmark = pytest.mark.browser

TEAMS = ("Alpha", "Beta")
# Seats in playing order: Alpha sits at 1 and 3, Beta at 2 and 4 (partners opposite).
SEATS = ("Anna", "Babis", "Chris", "Dora")

MELD_TITLES = {
    "seq3": "sequence of 3",
    "seq4": "sequence of 4",
    "seq5": "sequence of 5 or more",
    "four": "four of a kind",
    "mpourloto": "mpourloto: K+Q of trumps (20)",
}


def start_match(page: Page, base_url: str, *, target: int, first_dealer: int) -> int:
    """The "new match" page, filled in by hand; returns the new match's id."""
    page.goto(f"{base_url}/matches/new/")
    page.locator('input[name="team0_name"]').press_sequentially(TEAMS[0])
    page.locator('input[name="team0_player_a"]').press_sequentially(SEATS[0])
    page.locator('input[name="team0_player_b"]').press_sequentially(SEATS[2])
    page.locator('input[name="team1_name"]').press_sequentially(TEAMS[1])
    page.locator('input[name="team1_player_a"]').press_sequentially(SEATS[1])
    page.locator('input[name="team1_player_b"]').press_sequentially(SEATS[3])
    # The dealer buttons show the names just typed: tap the first dealer's name.
    dealer_buttons = page.locator("fieldset.dealer label.choice")
    expect(dealer_buttons).to_have_text(list(SEATS))
    dealer_buttons.filter(has_text=SEATS[first_dealer]).click()
    expect(page.locator(f'input[name="first_dealer"][value="{first_dealer}"]')).to_be_checked()
    page.locator('input[name="target"]').fill(str(target))
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    return int(re.search(r"/matches/(\d+)/$", page.url).group(1))


class Pad:
    """The deal pad of the sheet, driven by taps."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.form = page.locator("form.deal-form")

    def _tap(self, name: str, value: int | str) -> None:
        # The radio is visually hidden inside label.tap: tap the label, as a finger would.
        radio = self.page.locator(f'input[name="{name}"][value="{value}"]')
        self.form.locator("label.tap", has=radio).click()
        expect(self.form.locator(f'input[name="{name}"][value="{value}"]')).to_be_checked()

    def trumps(self, team: int) -> None:
        self._tap("maker", team)

    def points_of(self, team: int) -> None:
        self._tap("points_team", team)

    def last_trick(self, value: str) -> None:
        """Tap "0" or "1" (that team took the last trick), "capo0" or "capo1" (it took every trick)."""
        self._tap("last_trick", value)

    def key_in(self, number: int) -> None:
        for digit in str(number):
            self.form.locator(f'button[data-key="{digit}"]').click()
        expect(self.form.locator("#card-points")).to_have_value(str(number))

    def meld(self, team: int, code: str, times: int = 1) -> None:
        """Tap a team's meld chip; a second meld of that kind is its "+1" beside the chip."""
        chip = self.form.locator(f'.meld-team.team{team} label.chip[title="{MELD_TITLES[code]}"]')
        chip.click()
        for _ in range(times - 1):
            chip.locator("xpath=..").locator(".chip-more").click()
        expect(chip.locator(".count")).to_have_text("✓" if times == 1 else f"×{times}")

    def expect_preview(self, text: str) -> None:
        expect(self.page.get_by_test_id("preview")).to_contain_text(text)

    def record(self) -> None:
        self.form.get_by_role("button", name="Record deal").click()

    def throw_in(self) -> None:
        self.page.get_by_role("button", name="All passed · thrown in").click()


def expect_sheet(page: Page, *, totals: tuple[int, int], results: list[str], next_dealer: str | None) -> None:
    rows = page.locator("tr[data-testid=deal-row]")
    expect(rows).to_have_count(len(results))
    expect(page.get_by_test_id("total-0")).to_have_text(str(totals[0]))
    expect(page.get_by_test_id("total-1")).to_have_text(str(totals[1]))
    if results:
        # The sheet shows the newest deal first (under the pad, in view after Record).
        expect(rows.locator("td.result")).to_have_text(results[::-1])
    if next_dealer is None:
        expect(page.get_by_test_id("next-dealer")).to_have_count(0)
    else:
        expect(page.get_by_test_id("next-dealer")).to_have_text(next_dealer)


def row(page: Page, number: int):
    return page.locator(f'tr[data-testid=deal-row][data-number="{number}"]')


def test_scorekeeper_plays_a_match_to_the_end(page: Page, live_server) -> None:
    dialogs: list[str] = []

    def accept(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)

    # Babis (seat 2) deals first; play to 500 so that a few deals decide the match.
    match_id = start_match(page, live_server.url, target=500, first_dealer=1)
    expect_sheet(page, totals=(0, 0), results=[], next_dealer="Babis")
    expect(page.locator(".next")).to_contain_text("Deal 1 · deals Babis · leads Chris")
    expect(page.locator(".rules")).to_contain_text("Mpourloto to 500")
    # Set on this page only: a reload would lose it. Every deal below is recorded by htmx.
    page.evaluate("window.tsoxaSamePage = 'yes'")
    pad = Pad(page)

    # Deal 1, Babis deals. Alpha take trumps and count 90 card points (Beta 152 − 90 = 62);
    # Alpha win the last trick. Alpha 90 + 10 = 100 > Beta 62: made, each adds its own.
    pad.trumps(0)
    expect(pad.form.locator('input[name="points_team"][value="0"]')).to_be_checked()
    pad.key_in(90)
    expect(pad.form.locator("#other-points")).to_have_text("62")
    pad.last_trick("0")
    pad.expect_preview("Alpha 100 · Beta 62")
    pad.expect_preview("made: +100 / +62")
    pad.record()
    # Totals: 0 + 100 = 100 / 0 + 62 = 62.
    expect_sheet(page, totals=(100, 62), results=["made"], next_dealer="Chris")
    expect(row(page, 1).locator("td").nth(1)).to_have_text("Babis")
    expect(row(page, 1).locator("td.cards")).to_have_text("90–62")
    expect(pad.form.locator("#card-points")).to_have_value("")  # a fresh pad for the next deal

    # Deal 2, Chris deals: a mesa on equal points. Beta take trumps; the number typed is
    # then Beta's (the pad follows the trump makers): 71, so Alpha 152 − 71 = 81.
    # Beta win the last trick: Beta 71 + 10 = 81, Alpha 81. Equal is not enough: mesa,
    # Alpha add both teams' points 81 + 81 = 162, Beta 0.
    pad.trumps(1)
    expect(pad.form.locator('input[name="points_team"][value="1"]')).to_be_checked()
    pad.key_in(71)
    expect(pad.form.locator("#other-points")).to_have_text("81")
    pad.last_trick("1")
    pad.expect_preview("Alpha 81 · Beta 81")
    pad.expect_preview("mesa: +162 / +0")
    pad.record()
    # Totals: 100 + 162 = 262 / 62 + 0 = 62.
    expect_sheet(page, totals=(262, 62), results=["made", "mesa"], next_dealer="Dora")
    expect(row(page, 2).locator("td.cards")).to_have_text("81–71")
    expect(row(page, 2).get_by_test_id("row-total-0")).to_have_text("262+162")
    expect(row(page, 2).get_by_test_id("row-total-1")).to_have_text("62+0")

    # Deal 3, Dora deals: everybody passes twice, thrown in. Nobody scores; the deal passes on.
    pad.throw_in()
    # Totals unchanged: 262 / 62.
    expect_sheet(page, totals=(262, 62), results=["made", "mesa", "thrown in"], next_dealer="Anna")
    expect(row(page, 3).locator("td.thrown")).to_have_text("all passed")

    # Deal 4, Anna deals: melds. Beta take trumps; the scorekeeper counted Alpha's cards,
    # so taps "Card points of: Alpha" and types 72 (Beta 152 − 72 = 80). Alpha win the last
    # trick. Alpha show two sequences of 3; Beta a sequence of 4 and ... the scorekeeper
    # forgets Beta's mpourloto (K+Q of trumps) at first.
    # Alpha 72 + 10 + 20 + 20 = 122; Beta 80 + 50 = 130 > 122: made.
    pad.trumps(1)
    pad.points_of(0)
    pad.key_in(72)
    expect(pad.form.locator("#other-points")).to_have_text("80")
    pad.last_trick("0")
    pad.meld(0, "seq3", times=2)
    pad.meld(1, "seq4")
    pad.expect_preview("Alpha 122 · Beta 130")
    pad.expect_preview("made: +122 / +130")
    pad.record()
    # Totals: 262 + 122 = 384 / 62 + 130 = 192.
    expect_sheet(page, totals=(384, 192), results=["made", "mesa", "thrown in", "made"], next_dealer="Babis")

    # The mistake is seen: undo the last deal (confirmed in a dialog), the sheet goes back.
    page.get_by_role("button", name="Undo last deal").click()
    # Totals back to those after deal 3: 262 / 62; Anna deals deal 4 again.
    expect_sheet(page, totals=(262, 62), results=["made", "mesa", "thrown in"], next_dealer="Anna")
    assert dialogs == ["Take back deal 4?"]

    # Deal 4 again, with Beta's mpourloto: Beta 80 + 50 + 20 = 150 > Alpha 122: made.
    pad.trumps(1)
    pad.points_of(0)
    pad.key_in(72)
    pad.last_trick("0")
    pad.meld(0, "seq3", times=2)
    pad.meld(1, "seq4")
    pad.meld(1, "mpourloto")
    pad.expect_preview("Alpha 122 · Beta 150")
    pad.expect_preview("made: +122 / +150")
    pad.record()
    # Totals: 262 + 122 = 384 / 62 + 150 = 212.
    expect_sheet(page, totals=(384, 212), results=["made", "mesa", "thrown in", "made"], next_dealer="Babis")
    expect(row(page, 4).locator("td").nth(1)).to_have_text("Anna")
    expect(row(page, 4).locator("td").nth(4)).to_have_text("20 + 20 / 50 + mpourloto")

    # Deal 5, Babis deals: capo. Alpha take trumps and every trick; tapping "Alpha capo"
    # fills in the cards, Alpha 152, Beta 0. Beta still show a sequence of 3.
    # Alpha 152 + 90 = 242; Beta 0 + 20 = 20. Made: +242 / +20.
    pad.trumps(0)
    pad.last_trick("capo0")
    expect(pad.form.locator("#card-points")).to_have_value("152")
    expect(pad.form.locator("#other-points")).to_have_text("0")
    pad.meld(1, "seq3")
    pad.expect_preview("Alpha 242 · Beta 20")
    pad.expect_preview("made: +242 / +20")
    pad.record()
    # Totals: 384 + 242 = 626 / 212 + 20 = 232. Alpha alone has 500 or more: Alpha win.
    expect_sheet(
        page, totals=(626, 232), results=["made", "mesa", "thrown in", "made", "made"], next_dealer=None
    )
    expect(row(page, 5).locator("td.cards")).to_have_text("152–0 capo")
    expect(page.get_by_test_id("match-state").locator(".winner-banner")).to_have_text("Alpha win 626–232")
    expect(page.locator(".score.team0 .to-go")).to_have_text("reached 500")
    expect(page.locator(".score.team1 .to-go")).to_have_text("268 to go")
    expect(page.locator("form.deal-form")).to_have_count(0)
    expect(page.locator("form.thrown-in-form")).to_have_count(0)
    expect(page.locator(".entry .done")).to_contain_text("The match is over")

    # Every deal went through htmx: the page was never reloaded.
    assert page.evaluate("window.tsoxaSamePage") == "yes"

    # Cross-check what was stored.
    from scoring.models import Match

    match = Match.objects.get(pk=match_id)
    assert (match.status, match.winner, match.target) == ("finished", 0, 500)
    assert match.deals.filter(deleted_at__isnull=True).count() == 5
    assert match.deals.filter(deleted_at__isnull=False).count() == 1  # the undone deal 4, kept in history
    assert [p.name for p in match.seats] == list(SEATS)
    assert match.first_dealer == 1


def test_a_double_tap_records_the_deal_once(page: Page, live_server) -> None:
    match_id = start_match(page, live_server.url, target=1000, first_dealer=0)
    pad = Pad(page)
    # Alpha trumps, 100 card points (Beta 52), Alpha last trick: Alpha 110 > Beta 52, made.
    pad.trumps(0)
    pad.key_in(100)
    pad.last_trick("0")
    pad.expect_preview("made: +110 / +52")
    sent = page.evaluate(
        """() => {
            const form = document.querySelector("form.deal-form");
            return {action: form.action, body: new URLSearchParams(new FormData(form)).toString()};
        }"""
    )
    assert "client_key=" in sent["body"]

    # Two taps in the same instant on "Record deal".
    page.evaluate(
        """() => {
            const button = document.querySelector("form.deal-form button.record");
            button.click();
            button.click();
        }"""
    )
    # Totals: 0 + 110 = 110 / 0 + 52 = 52, one row.
    expect_sheet(page, totals=(110, 52), results=["made"], next_dealer="Babis")

    # The same form sent again, as a flaky network or the back button would: once as
    # htmx would post it, once as a plain form post.
    for headers in ({"HX-Request": "true"}, {}):
        status = page.evaluate(
            """async ({action, body, headers}) => {
                const response = await fetch(action, {
                    method: "POST",
                    body,
                    headers: {"Content-Type": "application/x-www-form-urlencoded", ...headers},
                });
                return response.status;
            }""",
            {**sent, "headers": headers},
        )
        assert status == 200
    page.reload()
    # Still one deal: 110 / 52.
    expect_sheet(page, totals=(110, 52), results=["made"], next_dealer="Babis")

    from scoring.models import Match

    assert Match.objects.get(pk=match_id).deals.count() == 1


def test_capo_tapped_before_trumps_gives_the_capo_team_every_card_point(page: Page, live_server) -> None:
    start_match(page, live_server.url, target=1000, first_dealer=0)
    pad = Pad(page)
    # Last trick first: "Beta capo" while "Card points of" still says Alpha → Alpha 0.
    pad.last_trick("capo1")
    expect(pad.form.locator("#card-points")).to_have_value("0")
    # Then Beta made trumps: the number follows to Beta, who has all 152.
    pad.trumps(1)
    expect(pad.form.locator("#card-points")).to_have_value("152")
    expect(pad.form.locator("#other-points")).to_have_text("0")
    # Beta capo: 152 + 90 = 242; Alpha 0. Made.
    pad.expect_preview("made: +0 / +242")
    pad.record()
    expect_sheet(page, totals=(0, 242), results=["made"], next_dealer="Babis")


def test_a_deal_entered_offline_waits_until_the_connection_returns(page: Page, live_server) -> None:
    start_match(page, live_server.url, target=1000, first_dealer=0)
    pad = Pad(page)
    page.context.set_offline(True)
    # Alpha trumps, 90 (Beta 62), Alpha last trick: 100 v 62, made.
    pad.trumps(0)
    pad.key_in(90)
    pad.last_trick("0")
    pad.record()
    expect(page.get_by_test_id("pending")).to_contain_text("1 deal is waiting for the connection")
    expect(page.get_by_test_id("total-0")).to_have_text("0")
    # A second deal while still offline: Beta trumps, 100 for Beta (Alpha 52), Beta last trick: 110 v 52.
    pad.trumps(1)
    pad.key_in(100)
    pad.last_trick("1")
    pad.record()
    expect(page.get_by_test_id("pending")).to_contain_text("2 deals are waiting")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    # Both sent in order: 100 / 62, then 100 + 52 = 152 / 62 + 110 = 172.
    expect_sheet(page, totals=(152, 172), results=["made", "made"], next_dealer="Chris")
    expect(page.get_by_test_id("pending")).to_be_hidden()


def test_a_waiting_deal_is_sent_when_the_page_is_opened_again(page: Page, live_server) -> None:
    start_match(page, live_server.url, target=1000, first_dealer=0)
    pad = Pad(page)
    page.context.set_offline(True)
    pad.trumps(0)
    pad.key_in(90)
    pad.last_trick("0")
    pad.record()
    expect(page.get_by_test_id("pending")).to_contain_text("1 deal is waiting")
    page.context.set_offline(False)
    page.reload()
    expect_sheet(page, totals=(100, 62), results=["made"], next_dealer="Babis")
    page.reload()  # sent once only
    expect_sheet(page, totals=(100, 62), results=["made"], next_dealer="Babis")


def test_a_page_drawn_before_its_deal_was_saved_asks_for_the_sheet_again(page: Page, live_server) -> None:
    # The tablet reloads as the connection returns: the page being left sends the waiting deal,
    # the new one is drawn before the deal is saved, and finds the store empty once the first took
    # it out. Here the new page's HTML is taken from the server before the deal is saved (in a
    # context without the service worker, whose requests a route does not see), and the other
    # page's note that the deal was answered (offline.js) is written as the page begins.
    context = page.context.browser.new_context(viewport=page.viewport_size, service_workers="block")
    try:
        tablet = context.new_page()
        pk = start_match(tablet, live_server.url, target=1000, first_dealer=0)
        sheet = f"{live_server.url}/matches/{pk}/"

        def drawn_then_saved(route) -> None:
            response = route.fetch()  # the sheet without the deal
            scoring.deal_record(match=Match.objects.get(pk=pk), deal=WIN_0)
            route.fulfill(response=response)

        tablet.route(sheet, drawn_then_saved, times=1)
        tablet.add_init_script(
            "localStorage.setItem('tsoxa-deals-answered', JSON.stringify({[location.pathname]: Date.now()}))"
        )
        tablet.reload()
        expect_sheet(tablet, totals=(100, 62), results=["made"], next_dealer="Babis")
        assert Match.objects.get(pk=pk).deals.count() == 1
    finally:
        context.close()

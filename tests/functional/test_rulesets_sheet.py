"""A scorekeeper plays a match of each Belote-family game on the tablet sheet, in a real browser.

Pilotta, Bulgarian Belote, French Belote and Belote Classic: the match is started on
/matches/new/ by tapping the game, then every deal is entered by tapping, as at the
table: the contract (bid, suit, contra), the declarations and belotes, the card points
on the keypad, the last trick or capot, "Record deal". The expected numbers are worked
out by hand from RULES.md §2–§5 and written down as literals, with the arithmetic in
the comments; the app's engine is never asked.

Teams and seats as in the Mpourloto test: Alpha (Anna, Chris) at seats 1 and 3, Beta
(Babis, Dora) at seats 2 and 4; the deal passes Anna → Babis → Chris → Dora.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.functional.test_mpourloto_sheet import SEATS, TEAMS, expect_sheet, row
from tests.functional.test_mpourloto_sheet import Pad as MpourlotoPad

pytestmark = pytest.mark.browser

GAMES = {
    "mpourloto": "Mpourloto",
    "pilotta": "Pilotta",
    "bulgarian": "Bulgarian Belote",
    "french": "French Belote",
    "classic": "Belote Classic",
    "coinche": "Coinche",
}
DECLARATION_TITLES = {
    "seq3": "tierce: sequence of 3",
    "seq4": "quarte: sequence of 4",
    "seq5": "quint: sequence of 5 or more",
    "four": "four A, K, Q or 10",
    "four9": "four 9s",
    "fourJ": "four Jacks",
    "belote": "belote: K+Q of trumps (20)",
}


def start_match(page: Page, base_url: str, *, ruleset: str, target: int | None = None) -> int:
    """The "new match" page filled in by hand, Anna dealing first; returns the match's id.

    ``target`` None leaves the field blank: the game's usual target.
    """
    page.goto(f"{base_url}/matches/new/")
    page.locator('input[name="team0_name"]').press_sequentially(TEAMS[0])
    page.locator('input[name="team0_player_a"]').press_sequentially(SEATS[0])
    page.locator('input[name="team0_player_b"]').press_sequentially(SEATS[2])
    page.locator('input[name="team1_name"]').press_sequentially(TEAMS[1])
    page.locator('input[name="team1_player_a"]').press_sequentially(SEATS[1])
    page.locator('input[name="team1_player_b"]').press_sequentially(SEATS[3])
    page.locator("fieldset.dealer label.choice").filter(has_text=SEATS[0]).click()
    expect(page.locator('input[name="first_dealer"][value="0"]')).to_be_checked()

    games = page.locator("fieldset.game label.choice")
    expect(games).to_have_text(list(GAMES.values()))
    games.filter(has_text=GAMES[ruleset]).click()
    expect(page.locator(f'input[name="ruleset"][value="{ruleset}"]')).to_be_checked()
    # Only the chosen game's options are shown (Belote Classic has none).
    for game in GAMES.keys() - {"classic"}:
        group = page.locator(f'.option-group[data-ruleset="{game}"]:not(.preset-group)')
        if game == ruleset:
            expect(group).to_be_visible()
        else:
            expect(group).to_be_hidden()

    if target is not None:
        page.locator('input[name="target"]').fill(str(target))
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    return int(re.search(r"/matches/(\d+)/$", page.url).group(1))


class Pad(MpourlotoPad):
    """The deal pad of a Belote-family game: contract, declarations, belotes, contest."""

    def maker(self, team: int) -> None:
        """The declarers (Pilotta), the contracting team (Bulgarian), the taker's team (French, Classic)."""
        self._tap("maker", team)

    def bid(self, value: int) -> None:
        self._tap("bid", value)

    def bid_more(self, value: int) -> None:
        box = self.form.locator('input[name="bid_more"]')
        box.fill(str(value))
        expect(box).to_have_value(str(value))

    def suit(self, value: str) -> None:
        self._tap("suit", value)

    def double(self, multiplier: int) -> None:
        self._tap("multiplier", multiplier)

    def declare(self, team: int, code: str, times: int = 1) -> None:
        """Tap a declaration chip (or "belote") of a team; each more of that kind is its "+1"."""
        chip = self.form.locator(f'.meld-team.team{team} label.chip[title="{DECLARATION_TITLES[code]}"]')
        chip.click()
        for _ in range(times - 1):
            chip.locator("xpath=..").locator(".chip-more").click()
        expect(chip.locator(".count")).to_have_text("✓" if times == 1 else f"×{times}")

    def belote(self, team: int, times: int = 1) -> None:
        self.declare(team, "belote", times)

    def contest(self, value: int | str) -> None:
        """Who won the declarations (Pilotta) or whose sequence is higher (Bulgarian: or "equal")."""
        self._tap("declarations_winner", value)

    def clear_points(self) -> None:
        self.form.locator('button[data-key="clear"]').click()
        expect(self.form.locator("#card-points")).to_have_value("")

    def solo_capot(self) -> None:
        self.form.locator("label.solo").click()
        expect(self.form.locator('input[name="solo_capot"]')).to_be_checked()

    def expect_other(self, points: int | str) -> None:
        expect(self.form.locator("#other-points")).to_have_text(str(points))

    def expect_maker_label(self, text: str) -> None:
        expect(self.form.locator(".pad-row .pad-label").first).to_have_text(text)


def expect_row(
    page: Page,
    number: int,
    *,
    dealer: str,
    scores: tuple[int, int],
    totals: tuple[int, int],
    raw: tuple[int, int] | None = None,
    contract: str | None = None,
    cards: str | None = None,
    declarations: str | None = None,
) -> None:
    """One line of the sheet: dealer, contract, cards, declarations, per team total, +score, raw."""
    line = row(page, number)
    cells = line.locator("td")
    expect(cells.nth(1)).to_have_text(dealer)
    if contract is None:
        expect(cells.nth(2).locator(".contract")).to_have_count(0)
    else:
        expect(cells.nth(2).locator(".contract")).to_have_text(contract)
    if cards is not None:
        expect(line.locator("td.cards")).to_have_text(cards)
    if declarations is not None:
        expect(cells.nth(4)).to_have_text(declarations)
    for team in (0, 1):
        cell = line.get_by_test_id(f"row-total-{team}")
        expect(cell.locator("b")).to_have_text(str(totals[team]))
        expect(cell.locator("small").first).to_have_text(f"+{scores[team]}")
        if raw is None:
            expect(cell.locator("small.raw")).to_have_count(0)
        else:
            expect(cell.locator("small.raw")).to_have_text(f"{raw[team]} raw")


def expect_won(page: Page, banner: str, to_go: tuple[str, str]) -> None:
    expect(page.get_by_test_id("match-state").locator(".winner-banner")).to_have_text(banner)
    expect(page.locator(".score.team0 .to-go")).to_have_text(to_go[0])
    expect(page.locator(".score.team1 .to-go")).to_have_text(to_go[1])
    expect(page.locator("form.deal-form")).to_have_count(0)
    expect(page.locator("form.thrown-in-form")).to_have_count(0)
    expect(page.locator(".entry .done")).to_contain_text("The match is over")


def stored(match_id: int) -> tuple[str, str, int | None, int]:
    from scoring.models import Match

    match = Match.objects.get(pk=match_id)
    return match.ruleset, match.status, match.winner, match.target


def test_pilotta_match(page: Page, live_server) -> None:
    """RULES.md §2. Deal side = cards + 10 last trick; match points = raw / 10 with the rule of 6."""
    match_id = start_match(page, live_server.url, ruleset="pilotta", target=65)
    expect_sheet(page, totals=(0, 0), results=[], next_dealer="Anna")
    expect(page.locator("p.rules")).to_have_text("Pilotta to 65")
    expect(page.locator(".next")).to_contain_text("Deal 1 · deals Anna · leads Babis")
    pad = Pad(page)
    pad.expect_maker_label("Declarers")
    expect(pad.form.locator('input[name="multiplier"][value="1"]')).to_be_checked()

    # Deal 1, Anna deals: made, on the rule of 6. Alpha bid 80 ♥ and count 106 card points
    # (Beta 152 − 106 = 46), Alpha last trick: Alpha 106 + 10 = 116 ≥ 80, Beta 46.
    # 116 → 11 r 6 and 46 → 4 r 6, both on 6: the declarers' rounds up, 12; Beta's down, 4.
    pad.maker(0)
    pad.bid(80)
    pad.suit("hearts")
    pad.key_in(106)
    pad.expect_other(46)
    pad.last_trick("0")
    pad.expect_preview("Alpha 116 · Beta 46 → made: +12 / +4")
    pad.record()
    # Totals 12 / 4.
    expect_sheet(page, totals=(12, 4), results=["made"], next_dealer="Babis")
    expect_row(
        page, 1, dealer="Anna", contract="80 ♥", cards="106–46", scores=(12, 4), totals=(12, 4), raw=(116, 46)
    )

    # Deal 2, Babis deals: failed. Beta bid 100 ♠ and count 70 (the number follows the declarers;
    # Alpha 152 − 70 = 82); Alpha last trick; Beta hold the belote.
    # Beta 70 + 20 = 90 < 100: failed. Beta 0; Alpha 162 (as if all the cards) + Beta's belote
    # 20 = 182 raw → 18 r 2 → 18 match points.
    pad.maker(1)
    pad.bid(100)
    pad.suit("spades")
    pad.key_in(70)
    pad.expect_other(82)
    pad.last_trick("0")
    pad.belote(1)
    pad.expect_preview("Alpha 92 · Beta 90 → failed: +18 / +0")
    pad.record()
    # Totals 12 + 18 = 30 / 4 + 0 = 4.
    expect_sheet(page, totals=(30, 4), results=["made", "failed"], next_dealer="Chris")
    expect_row(
        page,
        2,
        dealer="Babis",
        contract="100 ♠",
        cards="82–70",
        declarations="– / belote",
        scores=(18, 0),
        totals=(30, 4),
        raw=(182, 0),
    )

    # Deal 3, Chris deals: all pass. Nobody scores and Chris deals again.
    pad.throw_in()
    expect_sheet(page, totals=(30, 4), results=["made", "failed", "thrown in"], next_dealer="Chris")
    expect(row(page, 3).locator("td").nth(1)).to_have_text("Chris")
    expect(row(page, 3).locator("td.thrown")).to_have_text("all passed")
    expect(page.locator(".next")).to_contain_text("Deal 4 · deals Chris · leads Dora")

    # Deal 4, Chris deals again: contra. Alpha bid 90 ♦, Beta double (×2). Alpha count 95
    # (Beta 57); Beta last trick and the belote: Beta 57 + 10 + 20 = 87, Alpha 95 ≥ 90: made.
    # Doubled, the declarers take all but the defenders' belote: Alpha 95 + 87 − 20 = 162 raw,
    # Beta 20 raw. 162 → 16, 20 → 2; × 2: 32 / 4.
    pad.maker(0)
    pad.bid(90)
    pad.suit("diamonds")
    pad.double(2)
    pad.key_in(95)
    pad.expect_other(57)
    pad.last_trick("1")
    pad.belote(1)
    pad.expect_preview("Alpha 95 · Beta 87 → made: +32 / +4")
    pad.record()
    # Totals 30 + 32 = 62 / 4 + 4 = 8. Alpha still under 65.
    expect_sheet(page, totals=(62, 8), results=["made", "failed", "thrown in", "made"], next_dealer="Dora")
    expect_row(
        page,
        4,
        dealer="Chris",
        contract="90 ♦ ×2",
        cards="95–57",
        declarations="– / belote",
        scores=(32, 4),
        totals=(62, 8),
        raw=(162, 20),
    )

    # Deal 5, Dora deals: declarations. Beta bid 170 ♣ (typed: no chip goes that high).
    # Alpha show a quarte; Beta a quarte and a tierce, and the belote. The best declarations are
    # equal (50 and 50): the table says Beta's quarte is higher, so only Beta's count (50 + 20).
    # The scorekeeper counted Alpha's cards: 82 (Beta 70); Beta last trick.
    # Beta 70 + 10 + 70 + 20 = 170 ≥ 170: made; Alpha 82 (their quarte lost the contest).
    # 82 → 8 r 2 → 8; 170 → 17.
    pad.maker(1)
    pad.bid_more(170)
    pad.suit("clubs")
    pad.declare(0, "seq4")
    pad.declare(1, "seq4")
    pad.declare(1, "seq3")
    pad.belote(1)
    pad.points_of(0)
    pad.key_in(82)
    pad.expect_other(70)
    pad.last_trick("1")
    # Equal best declarations and no team named: the preview asks for it.
    expect(page.locator("#preview .problem")).to_contain_text("equal best declaration")
    pad.contest(1)
    pad.expect_preview("Alpha 82 · Beta 170 → made: +8 / +17")
    pad.record()
    # Totals 62 + 8 = 70 / 8 + 17 = 25. Alpha reach 65: Alpha win.
    expect_sheet(
        page, totals=(70, 25), results=["made", "failed", "thrown in", "made", "made"], next_dealer=None
    )
    expect_row(
        page,
        5,
        dealer="Dora",
        contract="170 ♣",
        cards="82–70",
        declarations="quarte / tierce + quarte + belote",
        scores=(8, 17),
        totals=(70, 25),
        raw=(82, 170),
    )
    expect_won(page, "Alpha win 70–25", ("reached 65", "40 to go"))
    assert stored(match_id) == ("pilotta", "finished", 0, 65)


def test_bulgarian_belote_match(page: Page, live_server) -> None:
    """RULES.md §3. Raw = cards + 10 last trick + declarations + belotes; MP = raw / 10 by the limit digit."""
    match_id = start_match(page, live_server.url, ruleset="bulgarian", target=61)
    expect_sheet(page, totals=(0, 0), results=[], next_dealer="Anna")
    expect(page.locator("p.rules")).to_have_text("Bulgarian Belote to 61")
    pad = Pad(page)
    pad.expect_maker_label("Contract")
    expect(pad.form.locator("label.tap", has_text="Alpha valat")).to_be_visible()

    # Deal 1, Anna deals: Alpha play ♥, made, rounding with both on the limit. Both teams show a
    # tierce and the table finds them equal: no sequence counts. Alpha count 86 (Beta 66), Alpha
    # last trick: Alpha 96 > Beta 66. Both end in 6 (the suit limit): the lower, 66, rounds up
    # to 7, the higher, 96, down to 9.
    pad.maker(0)
    pad.suit("hearts")
    pad.declare(0, "seq3")
    pad.declare(1, "seq3")
    pad.contest("equal")
    pad.key_in(86)
    pad.expect_other(66)
    pad.last_trick("0")
    pad.expect_preview("Alpha 96 · Beta 66 → made: +9 / +7")
    pad.record()
    # Totals 9 / 7.
    expect_sheet(page, totals=(9, 7), results=["made"], next_dealer="Babis")
    expect_row(
        page,
        1,
        dealer="Anna",
        contract="♥",
        cards="86–66",
        declarations="tierce / tierce",
        scores=(9, 7),
        totals=(9, 7),
        raw=(96, 66),
    )

    # Deal 2, Babis deals: Beta play ♠ and go inside. Beta show a tierce (Alpha none: it counts).
    # Beta count 60 (Alpha 92); Alpha last trick: Alpha 102, Beta 60 + 20 = 80 < 102: inside,
    # Alpha take both: 102 + 80 = 182 raw → 18; Beta 0.
    pad.maker(1)
    pad.suit("spades")
    pad.declare(1, "seq3")
    pad.key_in(60)
    pad.expect_other(92)
    pad.last_trick("0")
    pad.expect_preview("Alpha 102 · Beta 80 → inside: +18 / +0")
    pad.record()
    # Totals 9 + 18 = 27 / 7 + 0 = 7.
    expect_sheet(page, totals=(27, 7), results=["made", "inside"], next_dealer="Chris")
    expect_row(
        page,
        2,
        dealer="Babis",
        contract="♠",
        cards="92–60",
        declarations="– / tierce",
        scores=(18, 0),
        totals=(27, 7),
        raw=(182, 0),
    )

    # Deal 3, Chris deals: Alpha play ♥, hanging. Beta show a quarte. Alpha count 96 (Beta 56),
    # Alpha last trick: Alpha 106, Beta 56 + 50 = 106, equal. Beta (who did not bid) score their
    # own; Alpha's hang. 106–106 on the limit: the hanging amount rounds up, 11; the scored down, 10.
    pad.maker(0)
    pad.suit("hearts")
    pad.declare(1, "seq4")
    pad.key_in(96)
    pad.expect_other(56)
    pad.last_trick("0")
    pad.expect_preview("Alpha 106 · Beta 106 → hanging: +0 / +10 (11 hang)")
    pad.record()
    # Totals 27 / 7 + 10 = 17; 11 hanging.
    expect_sheet(page, totals=(27, 17), results=["made", "inside", "hanging (11 held)"], next_dealer="Dora")
    expect_row(
        page,
        3,
        dealer="Chris",
        contract="♥",
        cards="96–56",
        declarations="– / quarte",
        scores=(0, 10),
        totals=(27, 17),
        raw=(0, 106),
    )
    expect(page.locator(".match-state .held")).to_have_text("11 points hanging for the next winner")

    # Deal 4, Dora deals: Beta play all trumps and win the 11 hanging points. On the way, the
    # other team's number follows the contract's deck: no trumps 120 − 100 = 20, all trumps
    # 248 − 100 = 148. Beta count 154 (Alpha 248 − 154 = 94), Beta last trick, two belotes for
    # Beta and one for Alpha: Beta 154 + 10 + 40 = 204, Alpha 94 + 20 = 114: made.
    # All-trumps limit 4, both on it: the lower, 114, rounds up to 12; 204 down to 20.
    # Beta also take the hanging 11: 20 + 11 = 31.
    pad.maker(1)
    pad.suit("notrump")
    pad.key_in(100)
    pad.expect_other(20)
    pad.suit("alltrump")
    pad.expect_other(148)
    pad.clear_points()
    pad.key_in(154)
    pad.expect_other(94)
    pad.last_trick("1")
    pad.belote(1, times=2)
    pad.belote(0)
    pad.expect_preview("Alpha 114 · Beta 204 → made: +12 / +31")
    pad.record()
    # Totals 27 + 12 = 39 / 17 + 31 = 48; nothing hangs any more.
    expect_sheet(
        page, totals=(39, 48), results=["made", "inside", "hanging (11 held)", "made"], next_dealer="Anna"
    )
    expect_row(
        page,
        4,
        dealer="Dora",
        contract="AT",
        cards="94–154",
        declarations="belote / 2 belotes",
        scores=(12, 31),
        totals=(39, 48),
        raw=(114, 204),
    )
    expect(page.locator(".match-state .held")).to_have_count(0)

    # Deal 5, Anna deals: Alpha play ♦ and take every trick (valat); tapping "Alpha valat" fills
    # in 152 card points. Alpha hold the belote; Beta keep their carré (four kings, 100).
    # Alpha 152 + 10 + 20 = 182 → 18 + 9 for the valat = 27; Beta 100 → 10.
    pad.maker(0)
    pad.suit("diamonds")
    pad.belote(0)
    pad.declare(1, "four")
    pad.last_trick("capo0")
    expect(pad.form.locator("#card-points")).to_have_value("152")
    pad.expect_other(0)
    pad.expect_preview("Alpha 182 · Beta 100 → made: +27 / +10")
    pad.record()
    # Totals 39 + 27 = 66 / 48 + 10 = 58. Alpha are over 61, but a match never ends on a valat.
    results = ["made", "inside", "hanging (11 held)", "made", "made"]
    expect_sheet(page, totals=(66, 58), results=results, next_dealer="Babis")
    expect_row(
        page,
        5,
        dealer="Anna",
        contract="♦",
        cards="152–0 valat",
        declarations="belote / 4×",
        scores=(27, 10),
        totals=(66, 58),
        raw=(182, 100),
    )
    expect(page.locator(".score.team0 .to-go")).to_have_text("reached 61")
    expect(page.get_by_test_id("match-state").locator(".winner-banner")).to_have_count(0)

    # Deal 6, Babis deals: Beta play ♣, count 100 (Alpha 52), Beta last trick: Beta 110, Alpha 52,
    # made: 11 / 5.
    pad.maker(1)
    pad.suit("clubs")
    pad.key_in(100)
    pad.expect_other(52)
    pad.last_trick("1")
    pad.expect_preview("Alpha 52 · Beta 110 → made: +5 / +11")
    pad.record()
    # Totals 66 + 5 = 71 / 58 + 11 = 69: both over 61, the higher wins.
    expect_sheet(page, totals=(71, 69), results=[*results, "made"], next_dealer=None)
    expect_row(page, 6, dealer="Babis", contract="♣", scores=(5, 11), totals=(71, 69), raw=(52, 110))
    expect_won(page, "Alpha win 71–69", ("reached 61", "reached 61"))
    assert stored(match_id) == ("bulgarian", "finished", 0, 61)


def test_french_belote_match(page: Page, live_server) -> None:
    """RULES.md §4. Points = cards + 10 last trick + all declarations + belote; no rounding."""
    # Target left blank: French Belote's usual 501.
    match_id = start_match(page, live_server.url, ruleset="french")
    expect_sheet(page, totals=(0, 0), results=[], next_dealer="Anna")
    expect(page.locator("p.rules")).to_have_text("French Belote to 501")
    pad = Pad(page)
    pad.expect_maker_label("Taker")
    # No contract, no bid, no contra, no declaration contest: every declaration counts.
    for name in ("suit", "bid", "multiplier", "declarations_winner"):
        expect(pad.form.locator(f'input[name="{name}"]')).to_have_count(0)

    # Deal 1, Anna deals: made, with declarations of both teams. Alpha take; Alpha show a tierce
    # and the belote, Beta a quarte. Alpha count 90 (Beta 62), Alpha last trick.
    # Alpha 90 + 10 + 20 + 20 = 140 > Beta 62 + 50 = 112: made, each scores its own.
    pad.maker(0)
    pad.declare(0, "seq3")
    pad.belote(0)
    pad.declare(1, "seq4")
    pad.key_in(90)
    pad.expect_other(62)
    pad.last_trick("0")
    pad.expect_preview("Alpha 140 · Beta 112 → made: +140 / +112")
    pad.record()
    # Totals 140 / 112.
    expect_sheet(page, totals=(140, 112), results=["made"], next_dealer="Babis")
    expect_row(
        page,
        1,
        dealer="Anna",
        cards="90–62",
        declarations="tierce + belote / quarte",
        scores=(140, 112),
        totals=(140, 112),
    )

    # Deal 2, Babis deals: dedans on a tie. Beta take; Beta show a tierce and the belote, Alpha
    # a tierce. Beta count 71 (Alpha 81), Alpha last trick.
    # Alpha 81 + 10 + 20 = 111, Beta 71 + 20 + 20 = 111: equal is dedans. Alpha score the card
    # side 162 + all declarations 20 + 20 = 202; Beta keep only their belote, 20.
    pad.maker(1)
    pad.declare(1, "seq3")
    pad.belote(1)
    pad.declare(0, "seq3")
    pad.key_in(71)
    pad.expect_other(81)
    pad.last_trick("0")
    pad.expect_preview("Alpha 111 · Beta 111 → dedans: +202 / +20")
    pad.record()
    # Totals 140 + 202 = 342 / 112 + 20 = 132.
    expect_sheet(page, totals=(342, 132), results=["made", "dedans"], next_dealer="Chris")
    expect_row(
        page,
        2,
        dealer="Babis",
        cards="81–71",
        declarations="tierce / tierce + belote",
        scores=(202, 20),
        totals=(342, 132),
    )

    # Deal 3, Chris deals: Beta take and make capot; Beta show four aces (100), Alpha a tierce.
    # Beta 252 + 100 = 352, Alpha 0 + 20 = 20: made.
    pad.maker(1)
    pad.last_trick("capo1")
    expect(pad.form.locator("#card-points")).to_have_value("152")
    pad.expect_other(0)
    pad.declare(1, "four")
    pad.declare(0, "seq3")
    pad.expect_preview("Alpha 20 · Beta 352 → made: +20 / +352")
    pad.record()
    # Totals 342 + 20 = 362 / 132 + 352 = 484.
    expect_sheet(page, totals=(362, 484), results=["made", "dedans", "made"], next_dealer="Dora")
    expect_row(
        page,
        3,
        dealer="Chris",
        cards="0–152 capot",
        declarations="tierce / 4×",
        scores=(20, 352),
        totals=(362, 484),
    )

    # Deal 4, Dora deals: Alpha take, count 100 (Beta 52), Alpha last trick: 110 > 52, made.
    pad.maker(0)
    pad.key_in(100)
    pad.expect_other(52)
    pad.last_trick("0")
    pad.expect_preview("Alpha 110 · Beta 52 → made: +110 / +52")
    pad.record()
    # Totals 362 + 110 = 472 / 484 + 52 = 536: Beta reach 501 and win.
    expect_sheet(page, totals=(472, 536), results=["made", "dedans", "made", "made"], next_dealer=None)
    expect_row(page, 4, dealer="Dora", scores=(110, 52), totals=(472, 536))
    expect_won(page, "Beta win 536–472", ("29 to go", "reached 501"))
    assert stored(match_id) == ("french", "finished", 1, 501)


def test_belote_classic_match(page: Page, live_server) -> None:
    """RULES.md §5. As French Belote, with only the belote for a declaration and a solo capot of 350."""
    match_id = start_match(page, live_server.url, ruleset="classic")
    expect_sheet(page, totals=(0, 0), results=[], next_dealer="Anna")
    expect(page.locator("p.rules")).to_have_text("Belote Classic to 501")
    # The dealer leads the first trick.
    expect(page.locator(".next")).to_contain_text("Deal 1 · deals Anna · leads Anna")
    pad = Pad(page)
    pad.expect_maker_label("Taker")
    # Only the belote chip, one per team.
    expect(pad.form.locator("label.chip")).to_have_count(2)
    expect(pad.form.locator("label.chip.belote")).to_have_count(2)

    # Deal 1, Anna deals: made. Alpha take, hold the belote, count 100 (Beta 52), last trick.
    # Alpha 100 + 10 + 20 = 130 > 52: made.
    pad.maker(0)
    pad.belote(0)
    pad.key_in(100)
    pad.expect_other(52)
    pad.last_trick("0")
    pad.expect_preview("Alpha 130 · Beta 52 → made: +130 / +52")
    pad.record()
    # Totals 130 / 52.
    expect_sheet(page, totals=(130, 52), results=["made"], next_dealer="Babis")
    expect(page.locator(".next")).to_contain_text("Deal 2 · deals Babis · leads Babis")
    expect_row(
        page, 1, dealer="Anna", cards="100–52", declarations="belote / –", scores=(130, 52), totals=(130, 52)
    )

    # Deal 2, Babis deals: dedans, the taker keeps its belote. Beta take and hold the belote,
    # count 60 (Alpha 92); Alpha last trick: Alpha 102, Beta 60 + 20 = 80: dedans.
    # Alpha score the card side, 162; Beta only their belote, 20.
    pad.maker(1)
    pad.belote(1)
    pad.key_in(60)
    pad.expect_other(92)
    pad.last_trick("0")
    pad.expect_preview("Alpha 102 · Beta 80 → dedans: +162 / +20")
    pad.record()
    # Totals 130 + 162 = 292 / 52 + 20 = 72.
    expect_sheet(page, totals=(292, 72), results=["made", "dedans"], next_dealer="Chris")
    expect_row(
        page, 2, dealer="Babis", cards="92–60", declarations="– / belote", scores=(162, 20), totals=(292, 72)
    )

    # Deal 3, Chris deals: solo capot. Beta take and one Beta player takes all eight tricks:
    # 350. Alpha hold the belote: 20.
    pad.maker(1)
    pad.last_trick("capo1")
    expect(pad.form.locator("#card-points")).to_have_value("152")
    pad.expect_other(0)
    pad.solo_capot()
    pad.belote(0)
    pad.expect_preview("Alpha 20 · Beta 350 → made: +20 / +350")
    pad.record()
    # Totals 292 + 20 = 312 / 72 + 350 = 422.
    expect_sheet(page, totals=(312, 422), results=["made", "dedans", "made"], next_dealer="Dora")
    expect_row(
        page,
        3,
        dealer="Chris",
        cards="0–152 solo capot",
        declarations="belote / –",
        scores=(20, 350),
        totals=(312, 422),
    )

    # Deal 4, Dora deals: Alpha take and hold the belote; the scorekeeper counted Beta's cards,
    # 69 (Alpha 83); Beta last trick: Alpha 83 + 20 = 103 > Beta 69 + 10 = 79: made.
    pad.maker(0)
    pad.belote(0)
    pad.points_of(1)
    pad.key_in(69)
    pad.expect_other(83)
    pad.last_trick("1")
    pad.expect_preview("Alpha 103 · Beta 79 → made: +103 / +79")
    pad.record()
    # Totals 312 + 103 = 415 / 422 + 79 = 501: Beta reach 501 exactly, and win.
    expect_sheet(page, totals=(415, 501), results=["made", "dedans", "made", "made"], next_dealer=None)
    expect_row(page, 4, dealer="Dora", cards="83–69", scores=(103, 79), totals=(415, 501))
    expect_won(page, "Beta win 501–415", ("86 to go", "reached 501"))
    assert stored(match_id) == ("classic", "finished", 1, 501)

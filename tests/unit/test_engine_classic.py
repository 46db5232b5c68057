"""Belote Classic (501) scoring, rule by rule (RULES.md §5, as French Belote §4 otherwise).

Every expected number below is worked out by hand from RULES.md, never taken
from the engine: the comment beside each case shows the sum. A side's points
are ``card side + its belote (20)``; the card side is card points + 10 for the
last trick, 252 for a capot, 350 for a solo capot. No declarations but the
belote, which always stays with its holders. No rounding.
"""

from __future__ import annotations

import pytest

from scoring.engine import Contract, Deal, Result, ScoringError, Status, replay, score_deal


def deal(
    maker: int,
    cards: tuple[int, int],
    last: int | None = None,
    *,
    capot: int | None = None,
    solo: bool = False,
    belote: tuple[int, int] = (0, 0),
) -> Deal:
    """A played deal as the scorekeeper enters it (``solo``: one player took all eight tricks)."""
    return Deal(maker=maker, card_points=cards, last_trick=last, capot=capot, solo_capot=solo, belote=belote)


THROWN_IN = Deal(thrown_in=True)
MADE_0 = deal(0, (90, 62), 0)  # 100 : 62


def classic(d: Deal, held: int = 0, **options):
    return score_deal("classic", d, options=options, held=held)


def sheet_of(deals, first_dealer: int = 0, **options):
    return replay("classic", deals, options=options, first_dealer=first_dealer)


# ---------------------------------------------------------------------------
# One deal
# ---------------------------------------------------------------------------

# fmt: off
VERDICTS = [
    # --- The taker's side scores more: both sides score their points.
    pytest.param(deal(0, (90, 62), 0), Result.MADE, (100, 62), (100, 62), id="made-plain"),
    pytest.param(deal(1, (60, 92), 1), Result.MADE, (60, 102), (60, 102), id="made-by-team-1"),
    pytest.param(deal(0, (72, 80), 0, belote=(1, 0)), Result.MADE, (102, 80), (102, 80),
                 id="made-with-the-belote"),  # 72+10+20
    pytest.param(deal(0, (66, 86), 0, belote=(1, 0)), Result.MADE, (96, 86), (96, 86),
                 id="made-thanks-to-the-belote"),  # 76 alone would lose to 86
    pytest.param(deal(0, (90, 62), 0, belote=(0, 1)), Result.MADE, (100, 82), (100, 82),
                 id="made-other-side-keeps-its-belote"),
    # --- Otherwise (equal included): the other side scores the card side + its belote,
    #     the taker's side only its belote.
    pytest.param(deal(0, (60, 92), 1), Result.DEDANS, (60, 102), (0, 162), id="dedans-fewer"),
    pytest.param(deal(0, (71, 81), 0), Result.DEDANS, (81, 81), (0, 162), id="dedans-on-equal-points"),
    pytest.param(deal(1, (100, 52), 0), Result.DEDANS, (110, 52), (162, 0), id="dedans-team-1-taker"),
    pytest.param(deal(0, (60, 92), 1, belote=(1, 0)), Result.DEDANS, (80, 102), (20, 162),
                 id="belote-stays-with-the-failing-side"),
    pytest.param(deal(0, (60, 92), 1, belote=(0, 1)), Result.DEDANS, (60, 122), (0, 182),
                 id="dedans-other-side-keeps-its-belote"),  # 162 + 20
    pytest.param(deal(0, (61, 91), 0, belote=(1, 0)), Result.DEDANS, (91, 91), (20, 162),
                 id="dedans-equal-with-the-belote"),  # 61+10+20 == 91
    # --- Capot 252, solo capot 350.
    pytest.param(deal(0, (152, 0), capot=0), Result.MADE, (252, 0), (252, 0), id="capot-252"),
    pytest.param(deal(0, (152, 0), capot=0, belote=(0, 1)), Result.MADE, (252, 20), (252, 20),
                 id="capot-other-side-keeps-its-belote"),
    pytest.param(deal(0, (152, 0), capot=0, solo=True), Result.MADE, (350, 0), (350, 0), id="solo-capot-350"),
    pytest.param(deal(0, (152, 0), capot=0, solo=True, belote=(1, 0)), Result.MADE, (370, 0), (370, 0),
                 id="solo-capot-with-belote"),
    pytest.param(deal(0, (0, 152), capot=1), Result.DEDANS, (0, 252), (0, 252), id="capot-by-the-other-side"),
    pytest.param(deal(0, (0, 152), capot=1, belote=(0, 1)), Result.DEDANS, (0, 272), (0, 272),
                 id="capot-by-the-other-side-with-its-belote"),  # 252 + 20
    pytest.param(deal(0, (0, 152), capot=1, solo=True), Result.DEDANS, (0, 350), (0, 350),
                 id="solo-capot-by-the-other-side"),
    pytest.param(deal(0, (0, 152), capot=1, solo=True, belote=(1, 0)), Result.DEDANS, (20, 350), (20, 350),
                 id="solo-capot-against-the-takers-belote"),
]
# fmt: on


@pytest.mark.parametrize(("played", "result", "points", "scores"), VERDICTS)
def test_deal_verdict(played, result, points, scores):
    score = classic(played)
    assert score.result == result
    assert score.points == points
    assert score.scores == scores
    assert score.held == 0
    assert score.winner == (played.maker if result == Result.MADE else 1 - played.maker)


def test_held_points_from_a_caller_go_to_the_winner():
    # Classic has no litige, but score_deal passes held points to the deal's winner like French.
    assert classic(deal(0, (60, 92), 1), held=30).scores == (0, 192)


def test_a_trump_suit_may_be_recorded():
    played = Deal(maker=0, contract=Contract(suit="clubs"), card_points=(90, 62), last_trick=0)
    assert classic(played).scores == (100, 62)


# ---------------------------------------------------------------------------
# The match: the dealer leads, target 501
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first_dealer", "deals", "dealers", "next_dealer"),
    [
        pytest.param(0, [], [], 0, id="no-deal-yet"),
        pytest.param(1, [THROWN_IN, MADE_0], [1, 2], 3, id="thrown-in-deal-passes-the-deal"),
        pytest.param(3, [MADE_0] * 3, [3, 0, 1], 2, id="round-the-table"),
    ],
)
def test_the_dealer_leads(first_dealer, deals, dealers, next_dealer):
    sheet = sheet_of(deals, first_dealer=first_dealer)
    assert [row.dealer for row in sheet.rows] == dealers
    assert sheet.next_dealer == next_dealer
    assert sheet.next_leader == next_dealer


def test_default_options_on_the_sheet():
    sheet = sheet_of([])
    assert sheet.target == 501
    assert sheet.to_dict()["options"] == {"target": 501, "deals": 0}


SOLO_0 = deal(0, (152, 0), capot=0, solo=True, belote=(1, 0))  # 350 + 20 = 370 : 0
SOLO_1 = deal(1, (0, 152), capot=1, solo=True, belote=(0, 1))  # 0 : 370
TO_501 = deal(0, (121, 31), 0)  # 121+10 = 131 : 31
ONE_SHORT = deal(0, (120, 32), 0)  # 130 : 32

# fmt: off
GAME_END = [
    pytest.param([SOLO_0], [(370, 0)], Status.IN_PROGRESS, None, id="under-501"),
    pytest.param([SOLO_0, ONE_SHORT], [(370, 0), (500, 32)], Status.IN_PROGRESS, None,
                 id="500-is-not-enough"),
    pytest.param([SOLO_0, TO_501], [(370, 0), (501, 31)], Status.FINISHED, 0, id="reaching-501-wins"),
    pytest.param([SOLO_0, SOLO_0], [(370, 0), (740, 0)], Status.FINISHED, 0, id="over-501-wins"),
    pytest.param([SOLO_1, THROWN_IN, SOLO_1], [(0, 370), (0, 370), (0, 740)], Status.FINISHED, 1,
                 id="team-1-wins"),
    pytest.param([SOLO_0, SOLO_1, MADE_0], [(370, 0), (370, 370), (470, 432)], Status.IN_PROGRESS, None,
                 id="neither-at-501"),
    pytest.param([SOLO_0, SOLO_1, TO_501], [(370, 0), (370, 370), (501, 401)], Status.FINISHED, 0,
                 id="one-side-reaches-501"),
]
# fmt: on


@pytest.mark.parametrize(("deals", "totals", "status", "winner"), GAME_END)
def test_game_end(deals, totals, status, winner):
    sheet = sheet_of(deals)
    assert [row.totals for row in sheet.rows] == totals
    assert sheet.status == status
    assert sheet.winner == winner


def test_no_deal_after_the_match_is_won():
    with pytest.raises(ScoringError) as caught:
        sheet_of([SOLO_0, TO_501, THROWN_IN])
    assert caught.value.deal == 2
    assert "already won" in caught.value.message


# ---------------------------------------------------------------------------
# Deals and options that cannot be
# ---------------------------------------------------------------------------

# fmt: off
BAD_DEALS = [
    pytest.param(Deal(maker=0, card_points=(90, 62), last_trick=0, melds=(("seq3",), ())), "melds",
                 "no declarations but the belote", id="no-declarations"),
    pytest.param(Deal(maker=0, card_points=(90, 62), last_trick=0, melds=((), ("fourJ",))), "melds",
                 "no declarations but the belote", id="no-carres"),
    pytest.param(Deal(maker=0, card_points=(90, 62), last_trick=0, declarations_winner=1),
                 "declarations_winner", "all declarations count", id="no-declaration-contest"),
    pytest.param(deal(0, (90, 62), 0, solo=True), "capot", "solo capot is a capot",
                 id="solo-capot-needs-capot"),
    pytest.param(deal(0, (90, 62), 0, belote=(1, 1)), "belote", "at most 1", id="two-belotes"),
    pytest.param(Deal(maker=0, contract=Contract(suit="hearts", multiplier=2), card_points=(90, 62),
                      last_trick=0), "contract.multiplier", "no contra", id="no-contra"),
    pytest.param(Deal(maker=0, contract=Contract(suit="alltrump"), card_points=(90, 62), last_trick=0),
                 "contract.suit", "one of", id="no-all-trumps"),
    pytest.param(deal(0, (90, 52), 0), "card_points", "add up to 152", id="card-points-short"),
]
# fmt: on


@pytest.mark.parametrize(("bad", "field", "words"), BAD_DEALS)
def test_impossible_deal_is_refused(bad, field, words):
    with pytest.raises(ScoringError) as caught:
        classic(bad)
    assert caught.value.field == field
    assert words in caught.value.message


@pytest.mark.parametrize(
    ("options", "field"),
    [
        pytest.param({"litige": True}, "options.litige", id="no-litige-option"),
        pytest.param({"target": "501"}, "options.target", id="target-as-text"),
    ],
)
def test_bad_option_is_refused(options, field):
    with pytest.raises(ScoringError) as caught:
        classic(MADE_0, **options)
    assert caught.value.field == field

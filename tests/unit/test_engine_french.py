"""French Belote scoring, rule by rule (RULES.md §4).

Every expected number below is worked out by hand from RULES.md, never taken
from the engine: the comment beside each case shows the sum. A team's points
are ``card side + all its declarations + its belote``; the card side is card
points + 10 for the last trick, or 252 for a team that took every trick
(capot). No rounding. Declarations: tierce 20, quarte 50, quint 100, four
Jacks 200, four 9s 150, four A/K/Q/10 100, four 8s or 7s nothing.
"""

from __future__ import annotations

import pytest

from scoring.engine import Contract, Deal, Result, ScoringError, Status, replay, score_deal

NO_MELDS: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


def deal(
    maker: int,
    cards: tuple[int, int],
    last: int | None = None,
    *,
    capot: int | None = None,
    melds: tuple[tuple[str, ...], tuple[str, ...]] = NO_MELDS,
    belote: tuple[int, int] = (0, 0),
) -> Deal:
    """A played deal as the scorekeeper enters it (``maker``: the taker's team)."""
    return Deal(maker=maker, card_points=cards, last_trick=last, capot=capot, melds=melds, belote=belote)


THROWN_IN = Deal(thrown_in=True)
MADE_0 = deal(0, (90, 62), 0)  # 100 : 62
LITIGE = {"litige": True}


def french(d: Deal, held: int = 0, **options):
    return score_deal("french", d, options=options, held=held)


def sheet_of(deals, first_dealer: int = 0, **options):
    return replay("french", deals, options=options, first_dealer=first_dealer)


# ---------------------------------------------------------------------------
# One deal: made, dedans, capot, declarations, belote
# ---------------------------------------------------------------------------

# fmt: off
VERDICTS = [
    # --- Made: the taker's team has strictly more; both teams score their totals.
    pytest.param(deal(0, (90, 62), 0), Result.MADE, (100, 62), (100, 62), id="made-plain"),
    pytest.param(deal(0, (72, 80), 0), Result.MADE, (82, 80), (82, 80), id="made-by-two-points"),
    pytest.param(deal(1, (60, 92), 1), Result.MADE, (60, 102), (60, 102), id="made-by-team-1"),
    pytest.param(deal(0, (66, 86), 0, belote=(1, 0)), Result.MADE, (96, 86), (96, 86),
                 id="made-thanks-to-the-belote"),  # 66+10+20 > 86
    # --- Dedans: fewer or equal; the other team takes 162 + all declarations, the taker only its belote.
    pytest.param(deal(0, (60, 92), 1), Result.DEDANS, (60, 102), (0, 162), id="dedans-fewer"),
    pytest.param(deal(0, (71, 81), 0), Result.DEDANS, (81, 81), (0, 162), id="dedans-on-equal-points"),
    pytest.param(deal(1, (100, 52), 0), Result.DEDANS, (110, 52), (162, 0), id="dedans-team-1-taker"),
    pytest.param(deal(0, (90, 62), 0, melds=(("seq3",), ("fourJ",))), Result.DEDANS, (120, 262), (0, 382),
                 id="dedans-other-team-takes-all-declarations-of-both"),  # 162 + 20 + 200
    pytest.param(deal(0, (60, 92), 1, belote=(1, 0)), Result.DEDANS, (80, 102), (20, 162),
                 id="dedans-taker-keeps-its-belote"),
    pytest.param(deal(0, (60, 92), 1, belote=(0, 1)), Result.DEDANS, (60, 122), (0, 182),
                 id="dedans-other-team-keeps-its-own-belote"),  # 162 + 20
    pytest.param(deal(0, (70, 82), 0, melds=(("seq3",), ("seq4",)), belote=(1, 0)), Result.DEDANS,
                 (120, 132), (20, 232), id="dedans-with-declarations-and-belote"),  # 80+20+20 < 82+50; 162+70
    pytest.param(deal(0, (61, 91), 0, belote=(1, 0)), Result.DEDANS, (91, 91), (20, 162),
                 id="dedans-on-equal-points-with-the-takers-belote"),  # 61+10+20 == 91
    # --- Declarations: all of both teams count.
    pytest.param(deal(0, (90, 62), 0, melds=(("seq4",), ("seq3", "seq3"))), Result.MADE, (150, 102),
                 (150, 102), id="declarations-of-both-teams-count"),
    pytest.param(deal(0, (90, 62), 0, melds=(("fourJ", "four9"), ("four",))), Result.MADE, (450, 162),
                 (450, 162), id="four-jacks-200-four-nines-150-four-100"),
    pytest.param(deal(0, (90, 62), 0, melds=(("seq5",), ("four8", "four7"))), Result.MADE, (200, 62),
                 (200, 62), id="quint-100-four-8s-and-7s-nothing"),
    # --- Capot: 252 instead of 162.
    pytest.param(deal(0, (152, 0), capot=0), Result.MADE, (252, 0), (252, 0), id="capot-252"),
    pytest.param(deal(0, (152, 0), capot=0, melds=(("seq3",), ("seq4",)), belote=(1, 0)), Result.MADE,
                 (292, 50), (292, 50), id="capot-other-team-keeps-its-declarations"),  # 252+20+20
    pytest.param(deal(0, (0, 152), capot=1), Result.DEDANS, (0, 252), (0, 252), id="capot-by-the-other-team"),
    pytest.param(deal(0, (0, 152), capot=1, melds=(("seq3",), ()), belote=(1, 0)), Result.DEDANS, (40, 252),
                 (20, 272), id="dedans-on-capot-252-plus-all-declarations"),  # 252 + 20; taker 20
    pytest.param(deal(0, (152, 0), capot=0, melds=((), ("fourJ", "seq5"))), Result.DEDANS, (252, 300),
                 (0, 552), id="capot-is-not-enough-against-300-of-declarations"),  # 252 + 300
]
# fmt: on


@pytest.mark.parametrize(("played", "result", "points", "scores"), VERDICTS)
def test_deal_verdict(played, result, points, scores):
    score = french(played)
    assert score.result == result
    assert score.points == points
    assert score.scores == scores
    assert score.held == 0
    assert score.winner == (played.maker if result == Result.MADE else 1 - played.maker)


def test_no_rounding_and_no_raw():
    score = french(deal(0, (83, 69), 0))  # 93 : 69
    assert score.scores == (93, 69)
    assert score.raw is None


def test_a_trump_suit_may_be_recorded():
    played = Deal(maker=0, contract=Contract(suit="spades"), card_points=(90, 62), last_trick=0)
    assert french(played).scores == (100, 62)


# ---------------------------------------------------------------------------
# Option litige
# ---------------------------------------------------------------------------

# fmt: off
LITIGES = [
    pytest.param(deal(0, (71, 81), 0), 0, Result.LITIGE, (0, 81), 81,
                 id="tie-defenders-score-theirs-takers-held"),  # 71+10 == 81
    pytest.param(deal(0, (71, 81), 0), 81, Result.LITIGE, (0, 81), 162, id="held-points-accumulate"),
    pytest.param(deal(1, (96, 56), 1, melds=(("seq3",), ("seq4",))), 0, Result.LITIGE, (116, 0), 116,
                 id="tie-with-declarations-team-1-taker"),  # 96+20 == 56+10+50
    pytest.param(deal(0, (61, 91), 0, belote=(1, 0)), 0, Result.LITIGE, (20, 91), 71,
                 id="takers-belote-stays-with-the-taker"),  # 61+10+20 == 91; 91 - 20 held
    pytest.param(deal(0, (90, 62), 0), 81, Result.MADE, (181, 62), 0, id="made-winner-takes-the-held"),
    pytest.param(deal(0, (60, 92), 1), 81, Result.DEDANS, (0, 243), 0, id="dedans-winner-takes-the-held"),
    pytest.param(deal(0, (90, 62), 0), 0, Result.MADE, (100, 62), 0, id="no-tie-no-litige"),
    pytest.param(THROWN_IN, 81, Result.THROWN_IN, (0, 0), 81, id="thrown-in-deal-leaves-them-held"),
]
# fmt: on


@pytest.mark.parametrize(("played", "held", "result", "scores", "held_after"), LITIGES)
def test_litige(played, held, result, scores, held_after):
    score = french(played, held=held, **LITIGE)
    assert (score.result, score.scores, score.held) == (result, scores, held_after)


def test_without_litige_a_tie_is_dedans():
    assert french(deal(0, (71, 81), 0)).result == Result.DEDANS


@pytest.mark.parametrize(
    ("deals", "rows", "held"),
    [
        pytest.param(
            [deal(0, (71, 81), 0), THROWN_IN, MADE_0],
            [
                (Result.LITIGE, (0, 81), (0, 81), 81),
                (Result.THROWN_IN, (0, 0), (0, 81), 81),
                (Result.MADE, (181, 62), (181, 143), 0),  # 100 + 81
            ],
            0,
            id="held-points-to-the-next-winner",
        ),
        pytest.param(
            [deal(0, (61, 91), 0, belote=(1, 0)), deal(0, (60, 92), 1)],
            [
                (Result.LITIGE, (20, 91), (20, 91), 71),
                (Result.DEDANS, (0, 233), (20, 324), 0),  # 162 + 71
            ],
            0,
            id="held-points-to-the-dedans-winner",
        ),
        pytest.param(
            [deal(0, (71, 81), 0), deal(1, (96, 56), 1, melds=(("seq3",), ("seq4",)))],
            [
                (Result.LITIGE, (0, 81), (0, 81), 81),
                (Result.LITIGE, (116, 0), (116, 81), 197),  # 81 + 116
            ],
            197,
            id="still-held-at-the-end",
        ),
    ],
)
def test_litige_on_the_sheet(deals, rows, held):
    sheet = sheet_of(deals, **LITIGE)
    assert [(r.result, r.scores, r.totals, r.held) for r in sheet.rows] == rows
    assert sheet.held == held


# ---------------------------------------------------------------------------
# The match: dealer, target
# ---------------------------------------------------------------------------


def test_thrown_in_deals_pass_the_deal_on():
    sheet = sheet_of([THROWN_IN, THROWN_IN, MADE_0], first_dealer=3)
    assert [row.dealer for row in sheet.rows] == [3, 0, 1]
    assert [row.scores for row in sheet.rows] == [(0, 0), (0, 0), (100, 62)]
    assert sheet.next_dealer == 2
    assert sheet.next_leader == 3


def test_default_options_on_the_sheet():
    sheet = sheet_of([])
    assert sheet.target == 501
    assert sheet.to_dict()["options"] == {"target": 501, "deals": 0, "litige": False}


BIG_0 = deal(0, (152, 0), capot=0, melds=(("fourJ",), ()))  # 252 + 200 = 452 : 0
BIG_1 = deal(1, (0, 152), capot=1, melds=((), ("fourJ",)))  # 0 : 452
TO_501 = deal(1, (39, 113), 0)  # 39+10 = 49 : 113, made by team 1
ONE_SHORT = deal(1, (38, 114), 0)  # 48 : 114
FOURS_0 = deal(0, (152, 0), capot=0, melds=(("four",), ()))  # 352 : 0
FOURS_1 = deal(1, (0, 152), capot=1, melds=((), ("four",)))  # 0 : 352
EVEN_UP_1 = deal(1, (62, 90), 1)  # 62 : 100

# fmt: off
GAME_END = [
    pytest.param([BIG_0], {}, [(452, 0)], Status.IN_PROGRESS, None, id="under-501"),
    pytest.param([BIG_0, TO_501], {}, [(452, 0), (501, 113)], Status.FINISHED, 0, id="exactly-501-wins"),
    pytest.param([BIG_0, ONE_SHORT], {}, [(452, 0), (500, 114)], Status.IN_PROGRESS, None,
                 id="500-is-not-enough"),
    pytest.param([BIG_0, TO_501], {"target": 1000}, [(452, 0), (501, 113)], Status.IN_PROGRESS, None,
                 id="target-1000-not-reached"),
    pytest.param([BIG_0, BIG_0, TO_501], {"target": 1000}, [(452, 0), (904, 0), (953, 113)],
                 Status.IN_PROGRESS, None, id="target-1000-953"),
    pytest.param([BIG_0, BIG_0, BIG_0], {"target": 1000}, [(452, 0), (904, 0), (1356, 0)],
                 Status.FINISHED, 0, id="target-1000-reached"),
    pytest.param([BIG_0, BIG_1, MADE_0], {}, [(452, 0), (452, 452), (552, 514)], Status.FINISHED, 0,
                 id="both-over-the-higher-wins"),
    pytest.param([FOURS_0, FOURS_1, MADE_0, EVEN_UP_1], {}, [(352, 0), (352, 352), (452, 414), (514, 514)],
                 Status.IN_PROGRESS, None, id="equal-over-the-target-play-on"),
    pytest.param([FOURS_0, FOURS_1, MADE_0, EVEN_UP_1, MADE_0], {},
                 [(352, 0), (352, 352), (452, 414), (514, 514), (614, 576)], Status.FINISHED, 0,
                 id="equal-then-the-next-deal-decides"),
]
# fmt: on


@pytest.mark.parametrize(("deals", "options", "totals", "status", "winner"), GAME_END)
def test_game_end(deals, options, totals, status, winner):
    sheet = sheet_of(deals, **options)
    assert [row.totals for row in sheet.rows] == totals
    assert sheet.status == status
    assert sheet.winner == winner
    assert sheet.target == options.get("target", 501)


def test_a_litige_can_end_the_match_with_points_still_held():
    # RULES is silent; the engine ends the match and leaves the held points unclaimed.
    tie = deal(1, (81, 71), 1)  # 81 : 71+10 = 81, team 1 took: team 0 scores 81, 81 held
    sheet = sheet_of([BIG_0, tie], **LITIGE)
    assert sheet.rows[-1].totals == (533, 0)  # 452 + 81
    assert (sheet.status, sheet.winner, sheet.held) == (Status.FINISHED, 0, 81)


# ---------------------------------------------------------------------------
# Deals and options that cannot be
# ---------------------------------------------------------------------------

# fmt: off
BAD_DEALS = [
    pytest.param(Deal(maker=0, card_points=(90, 62), last_trick=0, declarations_winner=0),
                 "declarations_winner", "all declarations count", id="no-declaration-contest"),
    pytest.param(Deal(maker=0, card_points=(90, 62), last_trick=0, declarations_winner="equal"),
                 "declarations_winner", "all declarations count", id="no-equal-tap"),
    pytest.param(Deal(maker=0, card_points=(152, 0), capot=0, solo_capot=True), "solo_capot", "no solo capot",
                 id="no-solo-capot"),
    pytest.param(Deal(maker=0, contract=Contract(suit="hearts", multiplier=2), card_points=(90, 62),
                      last_trick=0), "contract.multiplier", "no contra", id="no-contra"),
    pytest.param(Deal(maker=0, contract=Contract(suit="notrump"), card_points=(90, 62), last_trick=0),
                 "contract.suit", "one of", id="no-no-trumps"),
    pytest.param(Deal(maker=0, contract=Contract(suit="hearts", bid=80), card_points=(90, 62), last_trick=0),
                 "contract.bid", "no bid", id="no-bid"),
    pytest.param(deal(0, (90, 62), 0, belote=(1, 1)), "belote", "at most 1", id="two-belotes"),
    pytest.param(deal(0, (90, 62), 0, melds=(("mpourloto",), ())), "melds[0][0]", "no meld",
                 id="no-mpourloto-meld"),
    pytest.param(deal(0, (90, 72), 0), "card_points", "add up to 152", id="card-points-over"),
    pytest.param(deal(0, (90, 62)), "last_trick", "missing", id="no-last-trick"),
]
# fmt: on


@pytest.mark.parametrize(("bad", "field", "words"), BAD_DEALS)
def test_impossible_deal_is_refused(bad, field, words):
    with pytest.raises(ScoringError) as caught:
        french(bad)
    assert caught.value.field == field
    assert words in caught.value.message


@pytest.mark.parametrize(("bad", "field", "words"), BAD_DEALS)
def test_impossible_deal_in_a_match_names_its_position(bad, field, words):
    with pytest.raises(ScoringError) as caught:
        sheet_of([MADE_0, THROWN_IN, bad])
    assert caught.value.deal == 2
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("options", "field"),
    [
        pytest.param({"litige": 1}, "options.litige", id="litige-not-boolean"),
        pytest.param({"kirtik": True}, "options.kirtik", id="no-kirtik-in-french"),
        pytest.param({"target": 0}, "options.target", id="target-zero"),
    ],
)
def test_bad_option_is_refused(options, field):
    with pytest.raises(ScoringError) as caught:
        french(MADE_0, **options)
    assert caught.value.field == field

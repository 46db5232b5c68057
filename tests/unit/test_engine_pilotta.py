"""Pilotta scoring, rule by rule (RULES.md §2 and "Shared facts").

Every expected number below is worked out by hand from RULES.md, never taken
from the engine: the comment beside each case shows the sum. A team's total is
``card side + its declarations (if it won the contest) + its belote``, where the
card side is card points + 10 for the last trick, or 162 + the capot bonus (90,
option 100) for a team that took every trick. ``raw`` is what each team is given
before rounding; match points (MP) are ``divmod(raw, 10)`` rounded on the digit
6 (declarers up, defenders down), then times the multiplier.
"""

from __future__ import annotations

import json

import pytest

from scoring.engine import Contract, Deal, Result, ScoringError, Status, loads, replay, score_deal
from scoring.engine.rulesets.base import tens

NO_MELDS: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


def deal(
    maker: int,
    cards: tuple[int, int],
    last: int | None = None,
    *,
    bid: int = 80,
    x: int = 1,
    suit: str = "hearts",
    capot: int | None = None,
    melds: tuple[tuple[str, ...], tuple[str, ...]] = NO_MELDS,
    belote: tuple[int, int] = (0, 0),
    named: int | None = None,
) -> Deal:
    """A played deal as the scorekeeper enters it (``x``: multiplier, ``named``: declarations_winner)."""
    return Deal(
        maker=maker,
        contract=Contract(suit=suit, bid=bid, multiplier=x),
        card_points=cards,
        last_trick=last,
        capot=capot,
        melds=melds,
        belote=belote,
        declarations_winner=named,
    )


THROWN_IN = Deal(thrown_in=True)
MADE_0 = deal(0, (90, 62), 0)  # 100 : 62 -> 10 : 6


def pilotta(d: Deal, **options):
    return score_deal("pilotta", d, options=options)


def sheet_of(deals, first_dealer: int = 0, **options):
    return replay("pilotta", deals, options=options, first_dealer=first_dealer)


# ---------------------------------------------------------------------------
# One deal: made or failed, the rule of 6
# ---------------------------------------------------------------------------

# fmt: off
VERDICTS = [
    # --- Made: the declarers' total reaches the bid; each team scores its own total.
    pytest.param(deal(0, (90, 62), 0), {}, Result.MADE, (100, 62), (100, 62), (10, 6),
                 id="made-plain"),  # 90+10 >= 80; 100 -> 10, 62 -> 6
    pytest.param(deal(0, (90, 62), 0, bid=100), {}, Result.MADE, (100, 62), (100, 62), (10, 6),
                 id="bid-reached-exactly-is-made"),  # 100 >= 100
    pytest.param(deal(0, (90, 62), 0, bid=110), {}, Result.FAILED, (100, 62), (0, 162), (0, 16),
                 id="ten-short-of-the-bid-is-failed"),  # 100 < 110; defenders 162 -> 16
    pytest.param(deal(1, (60, 92), 1, bid=90), {}, Result.MADE, (60, 102), (60, 102), (6, 10),
                 id="made-by-team-1"),  # 92+10 >= 90
    pytest.param(deal(0, (80, 72), 1), {}, Result.MADE, (80, 82), (80, 82), (8, 8),
                 id="made-on-the-bid-with-fewer-points-than-the-defenders"),  # 80 >= 80; 82 -> 8 (d=2)
    pytest.param(deal(0, (85, 67), 1), {}, Result.MADE, (85, 77), (85, 77), (8, 8),
                 id="below-6-down-above-6-up"),  # 85 -> 8 (d=5), 77 -> 8 (d=7)
    # --- The rule of 6: both teams' points end in 6; the declarers round up, the defenders down.
    pytest.param(deal(0, (116, 36), 0, bid=120), {}, Result.MADE, (126, 36), (126, 36), (13, 3),
                 id="rules-example-126-36-the-126-side-bid"),  # 126 -> 13, 36 -> 3
    pytest.param(deal(1, (36, 116), 1, bid=120), {}, Result.MADE, (36, 126), (36, 126), (3, 13),
                 id="rule-of-6-team-1-declarers"),
    pytest.param(deal(0, (86, 66), 0, bid=90, melds=((), ("seq4",))), {}, Result.MADE, (96, 116), (96, 116),
                 (10, 11), id="rule-of-6-the-lower-side-bid"),  # 86+10 = 96 up -> 10; 66+50 = 116 down -> 11
    pytest.param(deal(1, (86, 66), 0, bid=110, melds=((), ("seq4",))), {}, Result.MADE, (96, 116), (96, 116),
                 (9, 12), id="rule-of-6-the-higher-side-bid"),  # 116 up -> 12; 96 down -> 9
]
# fmt: on


@pytest.mark.parametrize(("played", "options", "result", "points", "raw", "scores"), VERDICTS)
def test_deal_verdict(played, options, result, points, raw, scores):
    score = pilotta(played, **options)
    assert score.result == result
    assert score.points == points
    assert score.raw == raw
    assert score.scores == scores
    assert score.held == 0


def test_made_deal_is_won_by_the_declarers_and_failed_by_the_defenders():
    assert pilotta(deal(1, (60, 92), 1)).winner == 1  # 102 >= 80
    assert pilotta(deal(1, (60, 92), 1, bid=110)).winner == 0  # 102 < 110


def test_a_plain_deal_is_16_match_points():
    # 162 card-side points, no declarations: 16 MP whatever the split (RULES: "typically 16").
    for first in (0, 26, 36, 66, 76, 81, 96, 126, 146, 152):
        cards = (first, 152 - first)
        score = pilotta(deal(0, cards, 0, bid=80))
        assert sum(score.raw) == 162
        assert sum(score.scores) == 16, cards


@pytest.mark.parametrize(
    ("points", "up", "expected"),
    [
        pytest.param(126, True, 13, id="126-declarers-up"),
        pytest.param(36, False, 3, id="36-defenders-down"),
        pytest.param(126, False, 12, id="126-defenders-down"),  # the 36 side bid: 12-4
        pytest.param(36, True, 4, id="36-declarers-up"),
        pytest.param(125, True, 12, id="d-5-always-down"),
        pytest.param(127, False, 13, id="d-7-always-up"),
        pytest.param(120, True, 12, id="d-0-is-exact"),
    ],
)
def test_rule_of_6_rounding_helper(points, up, expected):
    # RULES §2: 126-36 is 13-3 when the 126 side bid, 12-4 when the 36 side bid.
    assert tens(points, 6, up=up) == expected


# ---------------------------------------------------------------------------
# Declarations: only the team with the single best one scores
# ---------------------------------------------------------------------------

# fmt: off
CONTEST = [
    # Declarers (team 0) 90 + 10 against 62 in every case, bid 80, before declarations.
    pytest.param((("seq4",), ("seq3", "seq3")), None, (150, 62), (15, 6),
                 id="single-best-declaration-takes-them"),  # 50 beats 20
    pytest.param((("seq4",), ("seq3", "seq3", "seq3")), None, (150, 62), (15, 6),
                 id="best-single-declaration-not-the-larger-sum"),  # 60 of tierces lose to one 50
    pytest.param((("seq4", "seq3"), ("seq3",)), None, (170, 62), (17, 6),
                 id="winner-scores-all-its-declarations"),  # 50 + 20
    pytest.param((("seq3",), ("fourJ",)), None, (100, 262), (10, 26),
                 id="defenders-win-the-contest"),  # 62 + 200; made: 100 >= 80
    pytest.param((("four9",), ("fourJ",)), None, (100, 262), (10, 26),
                 id="four-jacks-200-beat-four-nines-150"),
    pytest.param((("four9",), ("seq5", "four")), None, (250, 62), (25, 6),
                 id="four-nines-150-beat-100s"),  # 100 + 150
    pytest.param((("seq5",), ("four", "seq4")), 1, (100, 212), (10, 21),
                 id="quint-and-four-equal-best-named-team-1"),  # 62 + 100 + 50
    pytest.param((("seq4", "seq3"), ("seq4",)), 0, (170, 62), (17, 6),
                 id="equal-best-named-team-0-scores-all-of-its-declarations"),
    pytest.param((("seq4", "seq3"), ("seq4",)), 1, (100, 112), (10, 11),
                 id="equal-best-named-team-1"),  # 62 + 50
    pytest.param((("four",), ()), None, (200, 62), (20, 6),
                 id="four-aces-kings-queens-or-tens-100"),
    pytest.param((("four8",), ("four7",)), None, (100, 62), (10, 6),
                 id="four-8s-and-four-7s-are-worth-nothing"),
    pytest.param((("four8",), ("seq3",)), None, (100, 82), (10, 8),
                 id="four-8s-lose-to-a-tierce"),  # 62 + 20
    pytest.param((("four7", "seq3"), ("seq3",)), 0, (120, 62), (12, 6),
                 id="four-7s-do-not-break-a-tie"),  # equal best 20; named 0: 20 + 0
]
# fmt: on


@pytest.mark.parametrize(("melds", "named", "points", "scores"), CONTEST)
def test_declaration_contest(melds, named, points, scores):
    score = pilotta(deal(0, (90, 62), 0, melds=melds, named=named))
    assert score.result == Result.MADE
    assert score.points == points
    assert score.raw == points
    assert score.scores == scores


@pytest.mark.parametrize(
    "melds",
    [
        pytest.param((("seq4",), ("seq4",)), id="two-quartes"),
        pytest.param((("four",), ("seq5",)), id="four-and-quint-both-100"),
        pytest.param((("seq3", "four8"), ("seq3",)), id="tierces-with-four-8s-beside"),
    ],
)
def test_equal_best_declarations_need_the_named_team(melds):
    with pytest.raises(ScoringError) as caught:
        pilotta(deal(0, (90, 62), 0, melds=melds))
    assert caught.value.field == "declarations_winner"


def test_four_8s_against_four_7s_need_no_named_team():
    # Both best declarations are worth nothing: there is nothing to win.
    assert pilotta(deal(0, (90, 62), 0, melds=(("four8",), ("four7",)))).points == (100, 62)


def test_named_team_does_not_override_a_single_best_declaration():
    # RULES is silent on a named team that is not needed; the engine ignores it.
    score = pilotta(deal(0, (90, 62), 0, melds=(("seq4",), ("seq3",)), named=1))
    assert score.points == (150, 62)


# ---------------------------------------------------------------------------
# Belote: 20 to its holders, outside the contest
# ---------------------------------------------------------------------------

# fmt: off
BELOTES = [
    pytest.param(deal(0, (90, 62), 0, melds=((), ("seq3",)), belote=(1, 0)), Result.MADE, (120, 82),
                 (120, 82), (12, 8), id="belote-beside-the-other-teams-declarations"),
    pytest.param(deal(0, (90, 62), 0, melds=(("seq4",), ()), belote=(0, 1)), Result.MADE, (150, 82),
                 (150, 82), (15, 8), id="belote-of-the-team-that-lost-the-contest"),
    pytest.param(deal(0, (90, 62), 0, bid=110, belote=(1, 0)), Result.MADE, (120, 62), (120, 62), (12, 6),
                 id="belote-counts-towards-the-bid"),  # 100 + 20 >= 110
    pytest.param(deal(0, (90, 62), 0, bid=130, belote=(1, 0)), Result.FAILED, (120, 62), (0, 182), (0, 18),
                 id="failed-declarers-belote-goes-to-the-defenders"),  # 162 + 20
    pytest.param(deal(0, (90, 62), 0, bid=120, belote=(0, 1)), Result.FAILED, (100, 82), (0, 182), (0, 18),
                 id="failed-defenders-keep-their-own-belote"),  # 162 + 20
]
# fmt: on


@pytest.mark.parametrize(("played", "result", "points", "raw", "scores"), BELOTES)
def test_belote(played, result, points, raw, scores):
    score = pilotta(played)
    assert (score.result, score.points, score.raw, score.scores) == (result, points, raw, scores)


# ---------------------------------------------------------------------------
# Failed contracts and capot
# ---------------------------------------------------------------------------

# fmt: off
FAILED_AND_CAPOT = [
    pytest.param(deal(0, (90, 62), 0, bid=160, melds=(("seq4",), ())), {}, Result.FAILED, (150, 62),
                 (0, 162), (0, 16), id="failed-declarers-declarations-are-lost"),  # 150 < 160
    pytest.param(deal(0, (80, 72), 0, bid=100, melds=((), ("seq3",))), {}, Result.FAILED, (90, 92),
                 (0, 182), (0, 18), id="failed-defenders-keep-the-declarations-they-won"),  # 162 + 20
    pytest.param(deal(0, (152, 0), capot=0, bid=250), {}, Result.MADE, (252, 0), (252, 0), (25, 0),
                 id="capot-162-plus-90"),  # 252 -> 25
    pytest.param(deal(0, (152, 0), capot=0, bid=260), {"capot_bonus": 100}, Result.MADE, (262, 0),
                 (262, 0), (26, 0), id="capot-bonus-option-100"),
    pytest.param(deal(0, (152, 0), capot=0, melds=(("seq3",), ()), belote=(1, 0)), {}, Result.MADE,
                 (292, 0), (292, 0), (29, 0), id="capot-with-declarations-and-belote"),  # 252 + 20 + 20
    pytest.param(deal(0, (152, 0), capot=0, melds=((), ("fourJ",))), {}, Result.MADE, (252, 200),
                 (252, 200), (25, 20), id="capot-defenders-keep-the-declarations-they-won"),
    pytest.param(deal(0, (0, 152), capot=1), {}, Result.FAILED, (0, 252), (0, 252), (0, 25),
                 id="capot-by-the-defenders-on-a-failed-contract"),
    pytest.param(deal(0, (0, 152), capot=1), {"capot_bonus": 100}, Result.FAILED, (0, 262), (0, 262),
                 (0, 26), id="capot-by-the-defenders-with-bonus-100"),
    pytest.param(deal(0, (0, 152), capot=1, melds=((), ("seq3",)), belote=(1, 0)), {}, Result.FAILED,
                 (20, 272), (0, 292), (0, 29), id="defenders-capot-plus-declarations-plus-declarers-belote"),
    pytest.param(deal(0, (152, 0), capot=0, bid=260), {}, Result.FAILED, (252, 0), (0, 162), (0, 16),
                 id="capot-short-of-a-260-bid"),  # defenders score as if they had taken 162
]
# fmt: on


@pytest.mark.parametrize(("played", "options", "result", "points", "raw", "scores"), FAILED_AND_CAPOT)
def test_failed_and_capot(played, options, result, points, raw, scores):
    score = pilotta(played, **options)
    assert (score.result, score.points, score.raw, score.scores) == (result, points, raw, scores)


# ---------------------------------------------------------------------------
# Contra (x2) and sur-contra (x4)
# ---------------------------------------------------------------------------

# fmt: off
DOUBLED = [
    pytest.param(deal(0, (90, 62), 0, x=2), Result.MADE, (162, 0), (32, 0),
                 id="contra-made-declarers-take-all"),  # 100 + 62 -> 16, x2
    pytest.param(deal(0, (90, 62), 0, x=4), Result.MADE, (162, 0), (64, 0),
                 id="sur-contra-made"),  # 16 x4
    pytest.param(deal(0, (90, 62), 0, x=2, belote=(0, 1)), Result.MADE, (162, 20), (32, 4),
                 id="contra-made-defenders-keep-their-belote"),  # 100 + 82 - 20; 20 -> 2, x2
    pytest.param(deal(0, (80, 72), 0, bid=100, x=2, melds=((), ("seq3",)), belote=(1, 0)), Result.MADE,
                 (202, 0), (40, 0), id="contra-made-takes-the-defenders-declarations"),  # 110 + 92 -> 20, x2
    pytest.param(deal(0, (152, 0), capot=0, bid=250, x=2), Result.MADE, (252, 0), (50, 0),
                 id="contra-made-on-capot"),  # 25 x2
    pytest.param(deal(0, (90, 62), 0, bid=120, x=2), Result.FAILED, (0, 162), (0, 32),
                 id="contra-failed"),  # 16 x2
    pytest.param(deal(0, (90, 62), 0, bid=130, x=4, belote=(1, 0)), Result.FAILED, (0, 182), (0, 72),
                 id="sur-contra-failed-with-the-declarers-belote"),  # 162 + 20 -> 18, x4
    pytest.param(deal(1, (152, 0), capot=0, x=2), Result.FAILED, (252, 0), (50, 0),
                 id="contra-failed-defenders-capot"),  # 252 -> 25, x2
    pytest.param(deal(0, (80, 72), 0, bid=100, x=2, melds=((), ("seq3",))), Result.FAILED, (0, 182),
                 (0, 36), id="contra-failed-with-the-defenders-declarations"),  # 90 < 100; 182 -> 18, x2
]
# fmt: on


@pytest.mark.parametrize(("played", "result", "raw", "scores"), DOUBLED)
def test_contra_and_sur_contra(played, result, raw, scores):
    score = pilotta(played)
    assert (score.result, score.raw, score.scores) == (result, raw, scores)


# ---------------------------------------------------------------------------
# The match: dealer, target, end
# ---------------------------------------------------------------------------


def test_all_pass_keeps_the_same_dealer():
    sheet = sheet_of([THROWN_IN, THROWN_IN, MADE_0, THROWN_IN, MADE_0], first_dealer=3)
    assert [row.dealer for row in sheet.rows] == [3, 3, 3, 0, 0]
    thrown, made = Result.THROWN_IN, Result.MADE
    assert [row.result for row in sheet.rows] == [thrown, thrown, made, thrown, made]
    assert sheet.next_dealer == 1
    assert sheet.next_leader == 2  # the player right of the dealer: the next seat in playing order
    assert sheet.totals == (20, 12)


def test_thrown_in_deal_scores_nothing():
    score = pilotta(THROWN_IN)
    assert (score.result, score.scores, score.held) == (Result.THROWN_IN, (0, 0), 0)


def test_default_options_on_the_sheet():
    sheet = sheet_of([])
    assert sheet.target == 351
    assert sheet.to_dict()["options"] == {"target": 351, "deals": 0, "capot_bonus": 90}


# Building blocks, each worked out by hand:
BIG_0 = deal(0, (152, 0), capot=0, x=4, melds=(("fourJ", "four9", "four", "seq5"), ()), belote=(1, 0))
# 252 + 200+150+100+100 + 20 = 822 -> 82, x4 = 328 : 0
BIG_1 = deal(1, (0, 152), capot=1, x=4, melds=((), ("fourJ", "four9", "four", "seq5")), belote=(0, 1))
# 0 : 328
TO_351 = deal(0, (116, 36), 0, melds=(("seq5",), ()))  # 116+10+100 = 226 -> 23 (6 up), 36 -> 3
ONE_SHORT = deal(0, (106, 46), 0, melds=(("seq5",), ()))  # 216 -> 22 (6 up), 46 -> 4
EQUALIZER = deal(0, (152, 0), capot=0, belote=(1, 0), melds=((), ("fourJ", "seq4", "seq3")))
# 252 + 20 = 272 -> 27 : 200+50+20 = 270 -> 27
NEAR_EQUAL = deal(0, (152, 0), capot=0, belote=(1, 0), melds=((), ("fourJ", "seq4")))  # 272 : 250 -> 27 : 25

# fmt: off
GAME_END = [
    pytest.param([BIG_0], {}, [(328, 0)], Status.IN_PROGRESS, None, id="under-351-play-on"),
    pytest.param([BIG_0, ONE_SHORT], {}, [(328, 0), (350, 4)], Status.IN_PROGRESS, None,
                 id="350-is-not-enough"),
    pytest.param([BIG_0, TO_351], {}, [(328, 0), (351, 3)], Status.FINISHED, 0, id="exactly-351-wins"),
    pytest.param([BIG_1, BIG_1], {}, [(0, 328), (0, 656)], Status.FINISHED, 1, id="team-1-wins"),
    pytest.param([BIG_0, BIG_1, NEAR_EQUAL], {}, [(328, 0), (328, 328), (355, 353)], Status.FINISHED, 0,
                 id="both-over-the-target-higher-wins"),
    pytest.param([BIG_0, BIG_1, EQUALIZER], {}, [(328, 0), (328, 328), (355, 355)], Status.IN_PROGRESS,
                 None, id="equal-over-the-target-play-on"),
    pytest.param([BIG_0, BIG_1, EQUALIZER, THROWN_IN], {}, [(328, 0), (328, 328), (355, 355), (355, 355)],
                 Status.IN_PROGRESS, None, id="a-thrown-in-deal-does-not-decide"),
    pytest.param([BIG_0, BIG_1, EQUALIZER, MADE_0], {}, [(328, 0), (328, 328), (355, 355), (365, 361)],
                 Status.FINISHED, 0, id="next-deal-decides-after-equal"),
    pytest.param([BIG_0], {"target": 151}, [(328, 0)], Status.FINISHED, 0, id="target-151"),
    pytest.param([BIG_0, TO_351], {"target": 401}, [(328, 0), (351, 3)], Status.IN_PROGRESS, None,
                 id="target-401-not-reached"),
]
# fmt: on


@pytest.mark.parametrize(("deals", "options", "totals", "status", "winner"), GAME_END)
def test_game_end(deals, options, totals, status, winner):
    sheet = sheet_of(deals, **options)
    assert [row.totals for row in sheet.rows] == totals
    assert sheet.totals == totals[-1]
    assert sheet.status == status
    assert sheet.winner == winner
    assert sheet.target == options.get("target", 351)


def test_sheet_rows_show_raw_points_and_match_points():
    sheet = sheet_of([MADE_0, deal(0, (90, 62), 0, bid=110)])
    assert [(r.result, r.raw, r.scores) for r in sheet.rows] == [
        (Result.MADE, (100, 62), (10, 6)),
        (Result.FAILED, (0, 162), (0, 16)),
    ]
    assert sheet.to_dict()["deals"][1]["raw"] == [0, 162]


def test_no_deal_after_the_match_is_won():
    with pytest.raises(ScoringError) as caught:
        sheet_of([BIG_0, TO_351, MADE_0])
    assert caught.value.deal == 2
    assert "already won" in caught.value.message


# ---------------------------------------------------------------------------
# Deals and options that cannot be
# ---------------------------------------------------------------------------

# fmt: off
BAD_DEALS = [
    pytest.param(deal(0, (90, 62), 0, bid=85), "contract.bid", "tens from 80", id="bid-not-in-tens"),
    pytest.param(deal(0, (90, 62), 0, bid=70), "contract.bid", "tens from 80", id="bid-below-80"),
    pytest.param(deal(0, (90, 62), 0, bid=0), "contract.bid", "tens from 80", id="bid-zero"),
    pytest.param(Deal(maker=0, contract=Contract(suit="hearts"), card_points=(90, 62), last_trick=0),
                 "contract.bid", "missing", id="no-bid"),
    pytest.param(Deal(maker=0, card_points=(90, 62), last_trick=0), "contract", "missing",
                 id="no-contract"),
    pytest.param(deal(0, (90, 62), 0, suit="notrump"), "contract.suit", "one of", id="no-trumps-refused"),
    pytest.param(deal(0, (90, 62), 0, suit="alltrump"), "contract.suit", "one of", id="all-trumps-refused"),
    pytest.param(Deal(maker=0, contract=Contract(bid=80), card_points=(90, 62), last_trick=0),
                 "contract.suit", "one of", id="no-suit"),
    pytest.param(deal(0, (90, 62), 0, belote=(1, 1)), "belote", "at most 1", id="two-belotes"),
    pytest.param(deal(0, (90, 62), 0, belote=(2, 0)), "belote", "at most 1", id="two-belotes-one-team"),
    pytest.param(deal(0, (90, 62), 0, belote=(-1, 0)), "belote[0]", "below 0", id="negative-belote"),
    pytest.param(Deal(maker=0, contract=Contract(suit="hearts", bid=80), card_points=(90, 62), last_trick=0,
                      declarations_winner="equal"), "declarations_winner", "0 or 1", id="winner-equal"),
    pytest.param(Deal(maker=0, contract=Contract(suit="hearts", bid=80), card_points=(152, 0), capot=0,
                      solo_capot=True), "solo_capot", "no solo capot", id="no-solo-capot"),
    pytest.param(deal(0, (90, 62), 0, melds=(("mpourloto",), ())), "melds[0][0]", "no meld",
                 id="mpourloto-is-not-a-pilotta-declaration"),
    pytest.param(deal(0, (90, 52), 0), "card_points", "add up to 152", id="card-points-short"),
    pytest.param(deal(0, (0, 152), capot=0), "card_points", "every trick", id="capot-without-the-cards"),
    pytest.param(deal(0, (90, 62)), "last_trick", "missing", id="no-last-trick"),
    pytest.param(deal(0, (90, 62), 0, melds=(("fourJ",), ("fourJ",))), "melds", "Jacks",
                 id="four-jacks-twice"),
]
# fmt: on


@pytest.mark.parametrize(("bad", "field", "words"), BAD_DEALS)
def test_impossible_deal_is_refused(bad, field, words):
    with pytest.raises(ScoringError) as caught:
        pilotta(bad)
    assert caught.value.field == field
    assert words in caught.value.message


@pytest.mark.parametrize(("bad", "field", "words"), BAD_DEALS)
def test_impossible_deal_in_a_match_names_its_position(bad, field, words):
    with pytest.raises(ScoringError) as caught:
        sheet_of([THROWN_IN, MADE_0, bad])
    assert caught.value.deal == 2
    assert caught.value.field == field


def test_multiplier_3_in_a_match_file_is_refused():
    text = json.dumps(
        {
            "ruleset": "pilotta",
            "deals": [
                {
                    "maker": 0,
                    "contract": {"suit": "hearts", "bid": 80, "multiplier": 3},
                    "card_points": [90, 62],
                    "last_trick": 0,
                }
            ],
        }
    )
    with pytest.raises(ScoringError) as caught:
        loads(text)
    assert caught.value.field == "contract.multiplier"
    assert caught.value.deal == 0


def test_multiplier_3_built_in_code_is_refused():
    with pytest.raises(ScoringError) as caught:
        pilotta(deal(0, (90, 62), 0, x=3))
    assert caught.value.field == "contract.multiplier"


@pytest.mark.parametrize(
    ("options", "field"),
    [
        pytest.param({"capot_bonus": 95}, "options.capot_bonus", id="capot-bonus-95"),
        pytest.param({"capot_bonus": 0}, "options.capot_bonus", id="capot-bonus-0"),
        pytest.param({"target": 0}, "options.target", id="target-0"),
        pytest.param({"kirtik": True}, "options.kirtik", id="no-kirtik-in-pilotta"),
        pytest.param({"litige": True}, "options.litige", id="no-litige-in-pilotta"),
    ],
)
def test_bad_option_is_refused(options, field):
    with pytest.raises(ScoringError) as caught:
        pilotta(MADE_0, **options)
    assert caught.value.field == field

"""Mpourloto scoring, rule by rule (RULES.md §1 and "Shared facts").

Every expected number below is worked out by hand from RULES.md, never taken
from the engine: the comment beside each case shows the sum. A team's deal
points are ``card points + last-trick bonus (10, or 90 on capo) + its melds``;
the deck holds 152 card points, 162 with the last trick, 242 with capo.
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
    capo: int | None = None,
    melds: tuple[tuple[str, ...], tuple[str, ...]] = NO_MELDS,
    named: int | None = None,
) -> Deal:
    """A played deal as the scorekeeper enters it (``named``: declarations_winner)."""
    return Deal(
        maker=maker,
        card_points=cards,
        last_trick=last,
        capot=capo,
        melds=melds,
        declarations_winner=named,
    )


THROWN_IN = Deal(thrown_in=True)


def mpourloto(d: Deal, held: int = 0, **options):
    return score_deal("mpourloto", d, options=options, held=held)


def sheet_of(deals, first_dealer: int = 0, **options):
    return replay("mpourloto", deals, options=options, first_dealer=first_dealer)


# ---------------------------------------------------------------------------
# One deal: made, mesa, capo, melds
# ---------------------------------------------------------------------------

# fmt: off
VERDICTS = [
    # --- Made: the makers' deal points are strictly greater; each team adds its own.
    pytest.param(deal(0, (90, 62), 0), {}, Result.MADE, (100, 62), (100, 62),
                 id="made-plain"),  # 90+10 > 62
    pytest.param(deal(0, (90, 62), 0, melds=(("seq3",), ())), {}, Result.MADE, (120, 62), (120, 62),
                 id="made-format-example"),  # 90+10+20 > 62
    pytest.param(deal(1, (70, 82), 1), {}, Result.MADE, (70, 92), (70, 92),
                 id="made-by-team-1"),  # 82+10 > 70
    pytest.param(deal(0, (72, 80), 0), {}, Result.MADE, (82, 80), (82, 80),
                 id="made-by-two-points"),  # 72+10 > 80
    pytest.param(deal(0, (100, 52), 1), {}, Result.MADE, (100, 62), (100, 62),
                 id="made-without-the-last-trick"),  # 100 > 52+10
    pytest.param(deal(0, (90, 62), 0, melds=(("seq4",), ("seq3",))), {}, Result.MADE, (150, 82), (150, 82),
                 id="made-both-teams-keep-their-melds"),  # 90+10+50 > 62+20
    # --- Mesa on fewer points: the opponents take 162 + all melds, the makers 0.
    pytest.param(deal(0, (60, 92), 1), {}, Result.MESA, (60, 102), (0, 162),
                 id="mesa-fewer-points"),  # 60 < 92+10
    pytest.param(deal(0, (80, 72), 1, melds=((), ("seq3",))), {}, Result.MESA, (80, 102), (0, 182),
                 id="mesa-lost-on-the-opponents-meld"),  # 80 < 72+10+20; 162+20
    pytest.param(deal(0, (90, 62), 0, melds=(("seq3",), ("seq5",))), {}, Result.MESA, (120, 162), (0, 282),
                 id="mesa-makers-melds-go-to-the-opponents"),  # 120 < 162; 162+20+100
    pytest.param(deal(1, (100, 52), 0), {}, Result.MESA, (110, 52), (162, 0),
                 id="mesa-team-1-makers"),  # 52 < 100+10
    # --- Mesa on equal points: a tie is not enough for the makers.
    pytest.param(deal(0, (71, 81), 0), {}, Result.MESA, (81, 81), (0, 162),
                 id="mesa-equal-points"),  # 71+10 == 81
    pytest.param(deal(1, (96, 56), 1, melds=(("seq3",), ("seq4",))), {}, Result.MESA, (116, 116), (232, 0),
                 id="mesa-equal-points-with-melds"),  # 96+20 == 56+10+50; 162+70
    # --- Capo: the team that took every trick has 152 + 90 = 242.
    pytest.param(deal(0, (152, 0), capo=0), {}, Result.MADE, (242, 0), (242, 0),
                 id="capo-by-the-makers"),
    pytest.param(deal(0, (152, 0), capo=0, melds=((), ("seq3",))), {}, Result.MADE, (242, 20), (242, 20),
                 id="capo-opponents-keep-their-melds"),
    pytest.param(deal(0, (0, 152), capo=1), {}, Result.MESA, (0, 242), (0, 242),
                 id="capo-by-the-opponents-is-mesa"),
    pytest.param(deal(0, (0, 152), capo=1, melds=(("seq3",), ("seq4",))), {}, Result.MESA,
                 (20, 292), (0, 312), id="mesa-on-capo-gives-242-plus-all-melds"),  # 242 + 20 + 50
    pytest.param(deal(0, (152, 0), capo=0, melds=((), ("seq5", "four", "fourJ"))), {}, Result.MESA,
                 (242, 300), (0, 542), id="capo-is-not-enough-against-300-of-melds"),  # 242 < 300; 242+300
    # --- Option capo_100: 152 + 100 = 252; the plain last trick stays 10.
    pytest.param(deal(0, (152, 0), capo=0), {"capo_100": True}, Result.MADE, (252, 0), (252, 0),
                 id="capo-100-by-the-makers"),
    pytest.param(deal(1, (152, 0), capo=0), {"capo_100": True}, Result.MESA, (252, 0), (252, 0),
                 id="capo-100-by-the-opponents"),
    pytest.param(deal(0, (0, 152), capo=1, melds=(("seq3",), ())), {"capo_100": True}, Result.MESA,
                 (20, 252), (0, 272), id="capo-100-mesa-with-melds"),  # 252 + 20
    pytest.param(deal(0, (90, 62), 0), {"capo_100": True}, Result.MADE, (100, 62), (100, 62),
                 id="capo-100-leaves-the-last-trick-at-10"),
]
# fmt: on


@pytest.mark.parametrize(("played", "options", "result", "points", "scores"), VERDICTS)
def test_deal_verdict(played, options, result, points, scores):
    score = mpourloto(played, **options)
    assert score.result == result
    assert score.points == points
    assert score.scores == scores
    assert score.held == 0


def test_made_deal_each_team_adds_its_own_deal_points():
    score = mpourloto(deal(0, (90, 62), 0))
    assert score.scores == score.points
    assert score.winner == 0


def test_mesa_gives_all_points_to_opponents():
    score = mpourloto(deal(1, (100, 52), 0))  # makers 52 < 110
    assert score.scores[1] == 0
    assert score.scores[0] == sum(score.points) == 162
    assert score.winner == 0


def test_a_deal_without_melds_holds_162_and_with_capo_242():
    assert sum(mpourloto(deal(0, (77, 75), 1)).scores) == 162
    assert sum(mpourloto(deal(1, (0, 152), capo=1)).scores) == 242
    assert sum(mpourloto(deal(1, (0, 152), capo=1), capo_100=True).scores) == 252


# ---------------------------------------------------------------------------
# Melds: all melds of both teams count
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "value"),
    [
        pytest.param("seq3", 20, id="sequence-of-3"),
        pytest.param("seq4", 50, id="sequence-of-4"),
        pytest.param("seq5", 100, id="sequence-of-5-or-more"),
        pytest.param("four", 100, id="four-aces-kings-queens-or-tens"),
        pytest.param("fourJ", 100, id="four-jacks"),
        pytest.param("four9", 100, id="four-nines"),
        pytest.param("four8", 100, id="four-eights-count-too"),
        pytest.param("four7", 100, id="four-sevens-count-too"),
        pytest.param("mpourloto", 20, id="mpourloto-k-q-of-trumps"),
    ],
)
def test_meld_value(code, value):
    # Makers 80 + 10 + the meld against 72: always made.
    score = mpourloto(deal(0, (80, 72), 0, melds=((code,), ())))
    assert score.points == (90 + value, 72)
    # The same meld on the opponents' side counts for them.
    score = mpourloto(deal(1, (80, 72), 0, melds=((), (code,))))
    assert score.points == (90, 72 + value)


# fmt: off
MELD_SUMS = [
    pytest.param((("seq3", "seq3", "four7", "four8"), ()), (340, 62),
                 id="four-melds-one-team"),  # 90+10 + 20+20+100+100
    pytest.param((("seq3", "seq3", "seq4", "four", "mpourloto"), ()), (310, 62),
                 id="four-melds-and-the-mpourloto"),  # 100 + 20+20+50+100+20
    pytest.param((("four",), ("four",)), (200, 162),
                 id="two-fours-of-different-ranks"),
    pytest.param((("seq5", "seq4"), ("seq5", "seq3", "mpourloto")), (250, 202),
                 id="melds-of-both-teams-all-count"),  # 100+150 ; 62+140
]
# fmt: on


@pytest.mark.parametrize(("melds", "points"), MELD_SUMS)
def test_all_melds_of_both_teams_count(melds, points):
    assert mpourloto(deal(0, (90, 62), 0, melds=melds)).points == points


# ---------------------------------------------------------------------------
# Option best_melds_only
# ---------------------------------------------------------------------------

# fmt: off
BEST_MELDS = [
    # Makers 90 + 10 against 62 in every case, before melds.
    pytest.param((("seq4",), ("seq3", "seq3")), None, Result.MADE, (150, 62), (150, 62),
                 id="single-best-meld-takes-the-melds"),  # 50 beats 20: team 1's melds do not count
    pytest.param((("seq4",), ("seq3", "seq3", "seq3")), None, Result.MADE, (150, 62), (150, 62),
                 id="best-single-meld-not-the-larger-sum"),  # 60 of sequences lose to one 50
    pytest.param((("seq5",), ("mpourloto", "seq3")), None, Result.MADE, (200, 82), (200, 82),
                 id="mpourloto-always-counts-for-its-holder"),  # team 1 keeps its 20 mpourloto only
    pytest.param((("mpourloto", "seq3"), ("seq4",)), None, Result.MADE, (120, 112), (120, 112),
                 id="mpourloto-is-outside-the-contest"),  # team 1's 50 beats 20; team 0 keeps mpourloto
    pytest.param((("mpourloto",), ()), None, Result.MADE, (120, 62), (120, 62),
                 id="mpourloto-alone-needs-no-contest"),
    pytest.param((("seq4", "seq3"), ("seq4",)), 0, Result.MADE, (170, 62), (170, 62),
                 id="equal-best-named-team-0-scores-all-its-melds"),  # 100 + 50 + 20
    pytest.param((("seq4", "seq3"), ("seq4",)), 1, Result.MESA, (100, 112), (0, 212),
                 id="equal-best-named-team-1"),  # 100 < 62+50; 162+50
    pytest.param((("four",), ("seq5",)), 1, Result.MESA, (100, 162), (0, 262),
                 id="four-and-seq5-are-equal-best-melds"),  # both 100; team 1 named
]
# fmt: on


@pytest.mark.parametrize(("melds", "named", "result", "points", "scores"), BEST_MELDS)
def test_best_melds_only(melds, named, result, points, scores):
    score = mpourloto(deal(0, (90, 62), 0, melds=melds, named=named), best_melds_only=True)
    assert score.result == result
    assert score.points == points
    assert score.scores == scores


def test_without_best_melds_only_both_teams_melds_count():
    score = mpourloto(deal(0, (90, 62), 0, melds=(("seq4",), ("seq3", "seq3"))))
    assert score.points == (150, 102)  # 62 + 20 + 20


@pytest.mark.parametrize(
    "melds",
    [
        pytest.param((("seq4",), ("seq4",)), id="two-sequences-of-4"),
        pytest.param((("four",), ("seq5",)), id="four-of-a-kind-and-seq5"),
        pytest.param((("seq3", "mpourloto"), ("seq3",)), id="mpourloto-does-not-break-the-tie"),
    ],
)
def test_best_melds_only_equal_best_melds_need_the_named_team(melds):
    with pytest.raises(ScoringError) as caught:
        mpourloto(deal(0, (90, 62), 0, melds=melds), best_melds_only=True)
    assert caught.value.field == "declarations_winner"
    assert "equal best meld" in caught.value.message
    assert "name the team" in caught.value.message


def test_equal_melds_need_no_named_team_when_all_melds_count():
    score = mpourloto(deal(0, (90, 62), 0, melds=(("seq4",), ("seq4",))))
    assert score.points == (150, 112)


# ---------------------------------------------------------------------------
# Option ties_hang ("kremamena")
# ---------------------------------------------------------------------------

HANGING_DEAL = deal(0, (71, 81), 0)  # 71 + 10 == 81


# fmt: off
HANGING_VERDICTS = [
    pytest.param(HANGING_DEAL, 0, Result.HANGING, (0, 81), 81,
                 id="tie-opponents-add-their-own-makers-points-held"),
    pytest.param(HANGING_DEAL, 40, Result.HANGING, (0, 81), 121,
                 id="held-points-accumulate-over-ties"),  # 40 + 81
    pytest.param(deal(1, (96, 56), 1, melds=(("seq3",), ("seq4",))), 0, Result.HANGING, (116, 0), 116,
                 id="tie-with-melds-team-1-makers"),  # 96+20 == 56+10+50
    pytest.param(deal(0, (90, 62), 0), 81, Result.MADE, (181, 62), 0,
                 id="made-deal-takes-the-held-points"),  # 100 + 81
    pytest.param(deal(0, (60, 92), 1), 81, Result.MESA, (0, 243), 0,
                 id="mesa-held-points-go-to-the-opponents"),  # 162 + 81
    pytest.param(THROWN_IN, 81, Result.THROWN_IN, (0, 0), 81,
                 id="thrown-in-deal-leaves-held-points-hanging"),
]
# fmt: on


@pytest.mark.parametrize(("played", "held_before", "result", "scores", "held_after"), HANGING_VERDICTS)
def test_ties_hang(played, held_before, result, scores, held_after):
    score = mpourloto(played, held=held_before, ties_hang=True)
    assert score.result == result
    assert score.scores == scores
    assert score.held == held_after


def test_without_ties_hang_a_tie_is_mesa():
    assert mpourloto(HANGING_DEAL).result == Result.MESA


@pytest.mark.parametrize(
    ("deals", "rows", "held"),
    [
        pytest.param(
            [HANGING_DEAL],
            [(Result.HANGING, (0, 81), (0, 81), 81)],
            81,
            id="held-points-shown-on-the-sheet",
        ),
        pytest.param(
            [HANGING_DEAL, deal(1, (60, 92), 1)],  # team 1 makes 102 against 60
            [
                (Result.HANGING, (0, 81), (0, 81), 81),
                (Result.MADE, (60, 183), (60, 264), 0),  # 102 + 81 held
            ],
            0,
            id="next-winner-takes-the-held-points",
        ),
        pytest.param(
            [HANGING_DEAL, deal(1, (92, 60), 0)],  # team 1 makes 60 against 102: mesa
            [
                (Result.HANGING, (0, 81), (0, 81), 81),
                (Result.MESA, (243, 0), (243, 81), 0),  # 162 + 81 held
            ],
            0,
            id="mesa-winner-takes-the-held-points",
        ),
        pytest.param(
            [HANGING_DEAL, deal(1, (81, 71), 1), THROWN_IN, deal(0, (90, 62), 0)],
            [
                (Result.HANGING, (0, 81), (0, 81), 81),
                (Result.HANGING, (81, 0), (81, 81), 162),  # 81 == 71 + 10; 81 + 81 held
                (Result.THROWN_IN, (0, 0), (81, 81), 162),
                (Result.MADE, (262, 62), (343, 143), 0),  # 100 + 162 held
            ],
            0,
            id="consecutive-ties-accumulate-across-a-thrown-in-deal",
        ),
    ],
)
def test_ties_hang_on_the_sheet(deals, rows, held):
    sheet = sheet_of(deals, ties_hang=True)
    assert [(r.result, r.scores, r.totals, r.held) for r in sheet.rows] == rows
    assert sheet.held == held
    assert sheet.to_dict()["held"] == held
    assert [row["held"] for row in sheet.to_dict()["deals"]] == [r[3] for r in rows]
    # Nothing lost, nothing counted twice: 162 per played deal.
    played = sum(1 for d in deals if not d.thrown_in)
    assert sum(sheet.totals) + sheet.held == 162 * played


# ---------------------------------------------------------------------------
# Thrown-in deals and the dealer
# ---------------------------------------------------------------------------


def test_thrown_in_deal_scores_nothing():
    score = mpourloto(THROWN_IN)
    assert score.result == Result.THROWN_IN
    assert score.scores == (0, 0)
    assert score.held == 0


# fmt: off
DEALER_ROTATION = [
    pytest.param(0, [], [], 0, 1, id="no-deal-yet"),
    pytest.param(0, [THROWN_IN, deal(0, (90, 62), 0)], [0, 1], 2, 3, id="format-example"),
    pytest.param(2, [THROWN_IN, THROWN_IN, deal(0, (90, 62), 0)], [2, 3, 0], 1, 2,
                 id="thrown-in-deals-pass-the-deal"),
    pytest.param(3, [deal(0, (90, 62), 0)] * 5, [3, 0, 1, 2, 3], 0, 1, id="round-the-table-clockwise"),
    pytest.param(1, [THROWN_IN] * 3, [1, 2, 3], 0, 1, id="leader-is-left-of-the-dealer"),
]
# fmt: on


@pytest.mark.parametrize(("first_dealer", "deals", "dealers", "next_dealer", "next_leader"), DEALER_ROTATION)
def test_dealer_rotation(first_dealer, deals, dealers, next_dealer, next_leader):
    sheet = sheet_of(deals, first_dealer=first_dealer)
    assert [row.dealer for row in sheet.rows] == dealers
    assert [row.number for row in sheet.rows] == list(range(1, len(deals) + 1))
    assert sheet.next_dealer == next_dealer
    assert sheet.next_leader == next_leader


def test_format_md_example_sheet():
    """FORMAT.md's output for its first two deals (more fields may be added)."""
    sheet = sheet_of([THROWN_IN, deal(0, (90, 62), 0, melds=(("seq3",), ()))])
    out = sheet.to_dict()
    documented = ("scores", "result", "totals", "dealer")
    assert [{k: row[k] for k in documented} for row in out["deals"]] == [
        {"scores": [0, 0], "result": "thrown_in", "totals": [0, 0], "dealer": 0},
        {"scores": [120, 62], "result": "made", "totals": [120, 62], "dealer": 1},
    ]
    assert out["totals"] == [120, 62]
    assert out["held"] == 0
    assert out["status"] == "in_progress"
    assert out["winner"] is None
    assert out["next_dealer"] == 2


# ---------------------------------------------------------------------------
# The 1000 rule, the tie-break and the target option
# ---------------------------------------------------------------------------

# Building blocks, each worked out by hand:
BIG_0 = deal(0, (152, 0), capo=0, melds=(("seq5", "four", "fourJ", "four9"), ()))  # 152+90+400 = 642 : 0
BIG_1 = deal(1, (0, 152), capo=1, melds=((), ("seq5", "four", "four8", "four7")))  # 0 : 642
BIG_1_MP = deal(1, (0, 152), capo=1, melds=((), ("seq5", "four", "four8", "four7", "mpourloto")))  # 0 : 662
MADE_0 = deal(0, (90, 62), 0)  # 100 : 62
MADE_1 = deal(1, (70, 82), 1)  # 70 : 92
EVEN_UP_1 = deal(1, (62, 90), 1)  # 62 : 100, team 1 gains 38 on team 0
TO_1000 = deal(0, (148, 4), 0, melds=(("seq5", "four"), ()))  # 148+10+200 = 358 : 4
TO_999 = deal(0, (147, 5), 0, melds=(("seq5", "four"), ()))  # 147+10+200 = 357 : 5
MELDS_350 = ("seq5", "four", "four9", "seq4")  # 100 + 100 + 100 + 50
MELDS_320 = ("seq5", "four", "fourJ", "seq3")  # 100 + 100 + 100 + 20
BOTH_OVER_0 = deal(0, (80, 72), 0, melds=(MELDS_350, MELDS_320))  # 80+10+350 = 440 : 72+320 = 392, made
BOTH_OVER_1 = deal(1, (72, 80), 1, melds=(MELDS_320, MELDS_350))  # 72+320 = 392 : 80+10+350 = 440, made
EQUALIZER = deal(0, (66, 86), 0, melds=(MELDS_350, MELDS_320))  # 66+10+350 = 426 : 86+320 = 406, made
# ... after BIG_0 and BIG_1_MP: 642+426 = 1068 : 662+406 = 1068

# fmt: off
GAME_END = [
    pytest.param([BIG_0], {}, [(642, 0)], Status.IN_PROGRESS, None, id="under-1000-play-on"),
    pytest.param([BIG_0, TO_999], {}, [(642, 0), (999, 5)], Status.IN_PROGRESS, None,
                 id="999-is-not-enough"),
    pytest.param([BIG_0, TO_1000], {}, [(642, 0), (1000, 4)], Status.FINISHED, 0,
                 id="exactly-1000-wins"),
    pytest.param([BIG_0, BIG_0], {}, [(642, 0), (1284, 0)], Status.FINISHED, 0,
                 id="one-team-alone-over-1000-wins"),
    pytest.param([BIG_0, BIG_1, BOTH_OVER_0], {}, [(642, 0), (642, 642), (1082, 1034)], Status.FINISHED, 0,
                 id="both-over-1000-higher-wins-team-0"),
    pytest.param([BIG_0, BIG_1, BOTH_OVER_1], {}, [(642, 0), (642, 642), (1034, 1082)], Status.FINISHED, 1,
                 id="both-over-1000-higher-wins-team-1"),
    pytest.param([MADE_0, EVEN_UP_1], {}, [(100, 62), (162, 162)], Status.IN_PROGRESS, None,
                 id="equal-under-the-target-is-no-tie-break"),
    pytest.param([BIG_0, BIG_1_MP, EQUALIZER], {}, [(642, 0), (642, 662), (1068, 1068)],
                 Status.TIE_BREAK, None, id="equal-over-1000-starts-a-tie-break"),
    pytest.param([BIG_0, deal(0, (99, 53), 0)], {"target": 751}, [(642, 0), (751, 53)], Status.FINISHED, 0,
                 id="target-751-reached"),  # 99+10 = 109; 642+109 = 751
    pytest.param([BIG_0, deal(0, (99, 53), 0)], {}, [(642, 0), (751, 53)], Status.IN_PROGRESS, None,
                 id="751-is-not-1000"),
    pytest.param([BIG_0, BIG_0], {"target": 1551}, [(642, 0), (1284, 0)], Status.IN_PROGRESS, None,
                 id="target-1551-not-reached"),
    pytest.param([BIG_0, BIG_0, BIG_0], {"target": 1551}, [(642, 0), (1284, 0), (1926, 0)],
                 Status.FINISHED, 0, id="target-1551-reached"),
]
# fmt: on


@pytest.mark.parametrize(("deals", "options", "totals", "status", "winner"), GAME_END)
def test_game_end(deals, options, totals, status, winner):
    sheet = sheet_of(deals, **options)
    assert [row.totals for row in sheet.rows] == totals
    assert sheet.totals == totals[-1]
    assert sheet.status == status
    assert sheet.winner == winner
    assert sheet.target == options.get("target", 1000)
    assert sheet.to_dict()["status"] == str(status)


TIE = [BIG_0, BIG_1_MP, EQUALIZER]  # 1068 : 1068 after deal 3

# fmt: off
TIE_BREAKS = [
    pytest.param(
        [*TIE, MADE_0],
        [(1168, 1130)],
        [True],
        Status.TIE_BREAK, None,
        id="one-tie-break-deal-decides-nothing",
    ),
    pytest.param(
        [*TIE, MADE_0, MADE_1],
        [(1168, 1130), (1238, 1222)],
        [True, True],
        Status.FINISHED, 0,
        id="two-tie-break-deals-then-compare",
    ),
    pytest.param(
        [*TIE, THROWN_IN, MADE_0, THROWN_IN, MADE_1],
        [(1068, 1068), (1168, 1130), (1168, 1130), (1238, 1222)],
        [False, True, False, True],
        Status.FINISHED, 0,
        id="thrown-in-deals-do-not-count-in-the-pair",
    ),
    pytest.param(
        [*TIE, THROWN_IN, MADE_0],
        [(1068, 1068), (1168, 1130)],
        [False, True],
        Status.TIE_BREAK, None,
        id="thrown-in-and-one-deal-is-not-a-pair",
    ),
    pytest.param(
        [*TIE, MADE_0, EVEN_UP_1],
        [(1168, 1130), (1230, 1230)],
        [True, True],
        Status.TIE_BREAK, None,
        id="still-equal-after-the-pair-play-another-pair",
    ),
    pytest.param(
        [*TIE, MADE_0, EVEN_UP_1, MADE_0],
        [(1168, 1130), (1230, 1230), (1330, 1292)],
        [True, True, True],
        Status.TIE_BREAK, None,
        id="third-tie-break-deal-decides-nothing",
    ),
    pytest.param(
        [*TIE, MADE_0, EVEN_UP_1, MADE_1, MADE_1],
        [(1168, 1130), (1230, 1230), (1300, 1322), (1370, 1414)],
        [True, True, True, True],
        Status.FINISHED, 1,
        id="second-pair-decides",
    ),
]
# fmt: on


@pytest.mark.parametrize(("deals", "totals_after_tie", "tie_break_flags", "status", "winner"), TIE_BREAKS)
def test_tie_break(deals, totals_after_tie, tie_break_flags, status, winner):
    sheet = sheet_of(deals)
    before, after = sheet.rows[:3], sheet.rows[3:]
    assert before[-1].totals == (1068, 1068)
    assert [row.tie_break for row in before] == [False, False, False]
    assert [row.totals for row in after] == totals_after_tie
    assert [row.tie_break for row in after] == tie_break_flags
    assert [row["tie_break"] for row in sheet.to_dict()["deals"][3:]] == tie_break_flags
    assert sheet.status == status
    assert sheet.winner == winner


@pytest.mark.parametrize(
    ("deals", "refused"),
    [
        pytest.param([BIG_0, BIG_0, MADE_0], 2, id="a-played-deal"),
        pytest.param([BIG_0, BIG_0, THROWN_IN], 2, id="a-thrown-in-deal"),
        pytest.param([*TIE, MADE_0, MADE_1, MADE_0], 5, id="after-the-tie-break"),
    ],
)
def test_no_deal_after_the_match_is_won(deals, refused):
    with pytest.raises(ScoringError) as caught:
        sheet_of(deals)
    assert caught.value.deal == refused
    assert f"deal {refused + 1} (deals[{refused}])" in str(caught.value)
    assert "already won" in caught.value.message
    assert f"after deal {refused}" in caught.value.message


# ---------------------------------------------------------------------------
# Options on the sheet
# ---------------------------------------------------------------------------


def test_partner_relief_changes_play_not_scores_and_the_sheet_shows_it():
    plain = sheet_of([MADE_0, MADE_1])
    relief = sheet_of([MADE_0, MADE_1], partner_relief=True)
    assert relief.to_dict()["deals"] == plain.to_dict()["deals"]
    assert relief.to_dict()["options"]["partner_relief"] is True
    assert plain.to_dict()["options"]["partner_relief"] is False


def test_sheet_shows_every_option_with_its_default():
    assert sheet_of([]).to_dict()["options"] == {
        "target": 1000,
        "deals": 0,
        "ties_hang": False,
        "best_melds_only": False,
        "capo_100": False,
        "partner_relief": False,
    }


def test_a_trump_suit_may_be_recorded():
    score = mpourloto(Deal(maker=0, contract=Contract(suit="hearts"), card_points=(90, 62), last_trick=0))
    assert score.scores == (100, 62)


# ---------------------------------------------------------------------------
# Deals that cannot have happened
# ---------------------------------------------------------------------------

# fmt: off
BAD_DEALS = [
    pytest.param(deal(0, (100, 62), 0), "card_points", ("add up to 152", "100 + 62 = 162"),
                 id="card-points-not-adding-to-152"),
    pytest.param(deal(0, (90, 60), 0), "card_points", ("add up to 152",), id="card-points-short"),
    pytest.param(deal(0, (-10, 162), 0), "card_points[0]", ("between 0 and 152",), id="negative-card-points"),
    pytest.param(deal(0, (162, -10), 0), "card_points[0]", ("between 0 and 152",),
                 id="card-points-over-the-deck"),
    pytest.param(deal(0, (10, -10), 0), "card_points[1]", ("between 0 and 152",),
                 id="negative-card-points-team-1"),
    pytest.param(deal(0, (150, 2), capo=0), "card_points", ("every trick", "152"),
                 id="capo-team-without-all-152"),
    pytest.param(deal(0, (0, 152), capo=0), "card_points", ("every trick", "152"),
                 id="capo-team-with-no-card-points"),
    pytest.param(Deal(maker=0, card_points=(152, 0), capot=0, last_trick=1), "last_trick", ("every trick",),
                 id="capo-team-did-not-take-the-last-trick"),
    pytest.param(deal(0, (90, 62)), "last_trick", ("missing", "last trick"), id="missing-last-trick"),
    pytest.param(deal(0, (90, 62), 0, melds=(("mpourloto",), ("mpourloto",))), "melds",
                 ("only one mpourloto",), id="mpourloto-in-both-teams"),
    pytest.param(deal(0, (90, 62), 0, melds=(("mpourloto", "mpourloto"), ())), "melds",
                 ("only one mpourloto",), id="two-mpourloto-in-one-team"),
    pytest.param(deal(0, (90, 62), 0, melds=(("seq3",) * 5, ())), "melds[0]", ("at most 4 melds",),
                 id="five-melds-team-0"),
    pytest.param(deal(0, (90, 62), 0, melds=((), ("seq3", "seq4", "seq5", "four", "four7"))), "melds[1]",
                 ("at most 4 melds",), id="five-melds-team-1"),
    pytest.param(deal(0, (90, 62), 0, melds=(("fourJ",), ("fourJ",))), "melds", ("Jacks",),
                 id="four-jacks-twice"),
    pytest.param(deal(0, (90, 62), 0, melds=(("four9", "four9"), ())), "melds", ("9s",),
                 id="four-nines-twice"),
    pytest.param(deal(0, (90, 62), 0, melds=(("four8",), ("four8",))), "melds", ("8s",),
                 id="four-eights-twice"),
    pytest.param(deal(0, (90, 62), 0, melds=(("four7",), ("four7",))), "melds", ("7s",),
                 id="four-sevens-twice"),
    pytest.param(Deal(maker=0, card_points=(90, 62), last_trick=0, declarations_winner="equal"),
                 "declarations_winner", ("0 or 1",), id="declarations-winner-equal"),
    pytest.param(Deal(maker=0, card_points=(90, 62), last_trick=0, belote=(1, 0)), "belote",
                 ("mpourloto",), id="belote-is-the-mpourloto-meld"),
    pytest.param(Deal(maker=0, card_points=(90, 62), last_trick=0, solo_capot=True), "solo_capot",
                 ("no solo capo",), id="no-solo-capo"),
    pytest.param(Deal(maker=0, contract=Contract(suit="spades", bid=110), card_points=(90, 62), last_trick=0),
                 "contract", ("no auction",), id="no-bid"),
    pytest.param(Deal(maker=0, contract=Contract(suit="hearts", multiplier=2), card_points=(90, 62),
                      last_trick=0), "contract", ("no doubling",), id="no-contra"),
    pytest.param(Deal(maker=0, contract=Contract(suit="notrump"), card_points=(90, 62), last_trick=0),
                 "contract", ("trump suit",), id="no-notrump"),
]
# fmt: on


@pytest.mark.parametrize(("bad", "field", "words"), BAD_DEALS)
def test_impossible_deal_is_refused(bad, field, words):
    with pytest.raises(ScoringError) as caught:
        mpourloto(bad)
    assert caught.value.field == field
    for word in words:
        assert word in caught.value.message
    assert str(caught.value) == f"{field}: {caught.value.message}"


@pytest.mark.parametrize(("bad", "field", "words"), BAD_DEALS)
def test_impossible_deal_in_a_match_names_its_position(bad, field, words):
    with pytest.raises(ScoringError) as caught:
        sheet_of([THROWN_IN, MADE_0, bad, MADE_1])
    assert caught.value.deal == 2
    assert caught.value.field == field
    assert str(caught.value).startswith(f"deal 3 (deals[2]), {field}: ")


def test_four_melds_and_the_mpourloto_are_allowed():
    melds = (("seq3", "seq4", "seq5", "four", "mpourloto"), ("four", "four", "four", "fourJ"))
    score = mpourloto(deal(0, (90, 62), 0, melds=melds))
    assert score.points == (90 + 10 + 20 + 50 + 100 + 100 + 20, 62 + 400)


# A Deal built in code (by the service layer) rather than read from a match
# file is checked too: the Deal refuses a bad field with a ScoringError, not
# a Python error, before any rule set sees it.
UNCHECKED_DEALS = [
    pytest.param(lambda: deal(0, (90, 62), 0, melds=(("seq6",), ())), "melds[0][0]", id="unknown-meld-code"),
    pytest.param(lambda: Deal(card_points=(90, 62), last_trick=0), "maker", id="no-maker"),
    pytest.param(lambda: deal(2, (90, 62), 0), "maker", id="maker-is-not-a-team"),
    pytest.param(lambda: deal(0, (90, 62), 3), "last_trick", id="last-trick-is-not-a-team"),
    pytest.param(lambda: deal(1.0, (90, 62), 0), "maker", id="maker-is-a-float"),
    pytest.param(lambda: Deal(thrown_in=True, maker=0), "maker", id="thrown-in-with-maker-0"),
]


@pytest.mark.parametrize(("build", "field"), UNCHECKED_DEALS)
def test_deal_built_in_code_is_checked_too(build, field):
    with pytest.raises(ScoringError) as caught:
        mpourloto(build())
    assert caught.value.field == field


# fmt: off
BAD_OPTIONS = [
    pytest.param({"capo100": True}, "options.capo100", ("no option 'capo100'", "capo_100"),
                 id="unknown-option"),
    pytest.param({"kremamena": True}, "options.kremamena", ("ties_hang",),
                 id="greek-name-is-not-the-option"),
    pytest.param({"target": 0}, "options.target", ("between 1 and",), id="target-zero"),
    pytest.param({"target": -1000}, "options.target", ("between 1 and",), id="negative-target"),
    pytest.param({"target": "1000"}, "options.target", ("whole number",), id="target-as-text"),
    pytest.param({"target": 751.5}, "options.target", ("whole number",), id="fractional-target"),
    pytest.param({"target": True}, "options.target", ("whole number",), id="target-true"),
    pytest.param({"ties_hang": "yes"}, "options.ties_hang", ("true or false",),
                 id="ties-hang-not-boolean"),
    pytest.param({"capo_100": 1}, "options.capo_100", ("true or false",), id="capo-100-not-boolean"),
]
# fmt: on


@pytest.mark.parametrize(("options", "field", "words"), BAD_OPTIONS)
def test_bad_option_is_refused(options, field, words):
    for attempt in (lambda: mpourloto(MADE_0, **options), lambda: sheet_of([MADE_0], **options)):
        with pytest.raises(ScoringError) as caught:
            attempt()
        assert caught.value.field == field
        assert caught.value.deal is None
        for word in words:
            assert word in caught.value.message


@pytest.mark.parametrize("first_dealer", [4, -1, True, "0", None], ids=repr)
def test_bad_first_dealer_is_refused(first_dealer):
    with pytest.raises(ScoringError) as caught:
        replay("mpourloto", [MADE_0], first_dealer=first_dealer)
    assert caught.value.field == "first_dealer"
    assert "seat" in caught.value.message
    assert "0, 1, 2 or 3" in caught.value.message


def test_unknown_rule_set_is_refused():
    with pytest.raises(ScoringError) as caught:
        score_deal("kontra", MADE_0)
    assert caught.value.field == "ruleset"
    assert "mpourloto" in caught.value.message


def test_a_target_past_a_million_is_refused():
    with pytest.raises(ScoringError) as caught:
        mpourloto(MADE_0, target=1_000_001)
    assert caught.value.field == "options.target"

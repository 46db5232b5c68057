"""Bulgarian Belote (bridge-belote) scoring, rule by rule (RULES.md §3).

Every expected number below is worked out by hand from RULES.md, never taken
from the engine: the comment beside each case shows the sum. A team's raw
points are ``cards + 10 for the last trick + declarations + belotes``, doubled
in no trumps (deck totals 152 a suit, 248 all trumps, 120 no trumps). Raw
points become match points (MP) per team with ``divmod(points, 10)`` and the
limit digit (6 a suit, 4 all trumps, 5 no trumps): below it down, above it up;
both on it, the lower up and the higher down; equal (hanging), the hanging
amount up. Then times the multiplier; a valat adds 9 MP (18 in no trumps).
"""

from __future__ import annotations

import json

import pytest

from scoring.engine import Contract, Deal, Result, ScoringError, Status, loads, replay, score_deal

NO_MELDS: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
AT, NT = "alltrump", "notrump"


def deal(
    maker: int,
    cards: tuple[int, int],
    last: int | None = None,
    *,
    suit: str = "hearts",
    x: int = 1,
    capot: int | None = None,
    melds: tuple[tuple[str, ...], tuple[str, ...]] = NO_MELDS,
    belote: tuple[int, int] = (0, 0),
    named: int | str | None = None,
) -> Deal:
    """A played deal as the scorekeeper enters it (``x``: multiplier, ``named``: declarations_winner)."""
    return Deal(
        maker=maker,
        contract=Contract(suit=suit, multiplier=x),
        card_points=cards,
        last_trick=last,
        capot=capot,
        melds=melds,
        belote=belote,
        declarations_winner=named,
    )


THROWN_IN = Deal(thrown_in=True)


def bulgarian(d: Deal, held: int = 0, **options):
    return score_deal("bulgarian", d, options=options, held=held)


def sheet_of(deals, first_dealer: int = 0, **options):
    return replay("bulgarian", deals, options=options, first_dealer=first_dealer)


# ---------------------------------------------------------------------------
# One deal: made, inside, hanging, doubled; rounding in every contract
# ---------------------------------------------------------------------------

# fmt: off
VERDICTS = [
    # --- A suit (hearts): 162 with the last trick, limit digit 6.
    pytest.param(deal(0, (90, 62), 0), 0, Result.MADE, (100, 62), (100, 62), (10, 6), 0,
                 id="suit-made"),  # 100 -> 10, 62 -> 6
    pytest.param(deal(0, (96, 56), 0), 0, Result.MADE, (106, 56), (106, 56), (10, 6), 0,
                 id="suit-both-on-6-lower-up-higher-down"),  # 56 -> 6, 106 -> 10
    pytest.param(deal(0, (106, 46), 0), 0, Result.MADE, (116, 46), (116, 46), (11, 5), 0,
                 id="suit-both-on-6-not-the-declarers-up"),  # 46 -> 5, 116 -> 11
    pytest.param(deal(1, (35, 117), 1), 0, Result.MADE, (35, 127), (35, 127), (3, 13), 0,
                 id="rules-example-35-in-a-suit-is-3"),  # 35 -> 3 (d=5 < 6), 127 -> 13
    pytest.param(deal(0, (60, 92), 1), 0, Result.INSIDE, (60, 102), (0, 162), (0, 16), 0,
                 id="suit-inside-other-team-takes-both"),  # 60 < 102
    pytest.param(deal(1, (100, 52), 0), 0, Result.INSIDE, (110, 52), (162, 0), (16, 0), 0,
                 id="suit-inside-team-1-contracting"),
    pytest.param(deal(0, (80, 72), 0, melds=((), ("seq4",))), 0, Result.INSIDE, (90, 122), (0, 212), (0, 21),
                 0, id="suit-inside-on-the-other-teams-declaration"),  # 72+50 > 90; 212 -> 21
    # --- Hanging: equal raw points; the contracting team's hang, the other team scores its own.
    pytest.param(deal(0, (71, 81), 0), 0, Result.HANGING, (81, 81), (0, 81), (0, 8), 8,
                 id="hanging-81-81"),  # 81 -> 8 scored, 8 hanging
    pytest.param(deal(0, (46, 106), 0, melds=(("seq4",), ())), 0, Result.HANGING, (106, 106), (0, 106),
                 (0, 10), 11, id="rules-example-hearts-106-106"),  # 46+10+50 = 106: 10 scored, 11 hanging
    pytest.param(deal(1, (106, 46), 1, melds=((), ("seq4",))), 0, Result.HANGING, (106, 106), (106, 0),
                 (10, 0), 11, id="hearts-106-106-team-1-contracting"),
    pytest.param(deal(0, (71, 81), 0), 8, Result.HANGING, (81, 81), (0, 81), (0, 8), 16,
                 id="hanging-points-accumulate"),  # 8 + 8
    pytest.param(deal(0, (71, 81), 0, x=2), 0, Result.HANGING, (81, 81), (0, 0), (0, 0), 32,
                 id="doubled-hanging-both-teams-hang"),  # (8 + 8) x2
    pytest.param(deal(0, (46, 106), 0, x=2, melds=(("seq4",), ())), 0, Result.HANGING, (106, 106), (0, 0),
                 (0, 0), 42, id="doubled-hanging-106-106"),  # (11 + 10) x2: the contracting team's rounds up
    pytest.param(deal(0, (90, 62), 0), 11, Result.MADE, (100, 62), (100, 62), (21, 6), 0,
                 id="hanging-mp-go-to-the-next-winner"),  # 10 + 11
    pytest.param(deal(0, (60, 92), 1), 11, Result.INSIDE, (60, 102), (0, 162), (0, 27), 0,
                 id="hanging-mp-go-to-the-team-that-took-the-inside"),  # 16 + 11
    pytest.param(deal(0, (90, 62), 0, x=2), 11, Result.INSIDE_DEFENDERS, (100, 62), (162, 0), (43, 0), 0,
                 id="hanging-mp-are-not-multiplied-again"),  # 16 x2 + 11
    # --- Doubled: both teams committed.
    pytest.param(deal(0, (90, 62), 0, x=2), 0, Result.INSIDE_DEFENDERS, (100, 62), (162, 0), (32, 0), 0,
                 id="contra-defenders-inside"),  # 162 -> 16, x2
    pytest.param(deal(0, (90, 62), 0, x=4), 0, Result.INSIDE_DEFENDERS, (100, 62), (162, 0), (64, 0), 0,
                 id="re-contra-defenders-inside"),  # 16 x4
    pytest.param(deal(0, (60, 92), 1, x=2), 0, Result.INSIDE, (60, 102), (0, 162), (0, 32), 0,
                 id="contra-contracting-team-inside"),
    pytest.param(deal(1, (80, 72), 0, x=2, melds=((), ("seq4",))), 0, Result.INSIDE_DEFENDERS, (90, 122),
                 (0, 212), (0, 42), 0, id="contra-team-1-takes-both-with-declarations"),  # 21 x2
    # --- All trumps: 258 with the last trick, limit digit 4.
    pytest.param(deal(0, (150, 98), 0, suit=AT), 0, Result.MADE, (160, 98), (160, 98), (16, 10), 0,
                 id="all-trumps-made"),  # 98 -> 10 (d=8 > 4)
    pytest.param(deal(0, (144, 104), 0, suit=AT), 0, Result.MADE, (154, 104), (154, 104), (15, 11), 0,
                 id="all-trumps-both-on-4"),  # 104 up -> 11, 154 down -> 15
    pytest.param(deal(0, (144, 104), 0, suit=AT, belote=(0, 2)), 0, Result.MADE, (154, 144), (154, 144),
                 (15, 15), 0, id="rules-example-all-trumps-154-144"),  # 104 + 2x20 = 144 up -> 15
    pytest.param(deal(0, (123, 125), 0, suit=AT), 0, Result.MADE, (133, 125), (133, 125), (13, 13), 0,
                 id="rules-example-125-in-all-trumps-is-13"),  # 125: d=5 > 4; 133 -> 13
    pytest.param(deal(0, (94, 154), 0, suit=AT, melds=(("seq4",), ())), 0, Result.HANGING, (154, 154),
                 (0, 154), (0, 15), 16, id="rules-example-all-trumps-154-154"),  # 15 scored, 16 hanging
    pytest.param(deal(0, (100, 148), 1, suit=AT), 0, Result.INSIDE, (100, 158), (0, 258), (0, 26), 0,
                 id="all-trumps-inside"),  # 258 -> 26
    pytest.param(deal(0, (150, 98), 0, suit=AT, belote=(2, 2)), 0, Result.MADE, (200, 138), (200, 138),
                 (20, 14), 0, id="all-trumps-four-belotes"),  # 160 + 40, 98 + 40
    pytest.param(deal(0, (150, 98), 0, suit=AT, melds=(("fourJ",), ("four9",))), 0, Result.MADE,
                 (360, 248), (360, 248), (36, 25), 0, id="all-trumps-carres"),  # 160 + 200, 98 + 150
    # --- No trumps: raw doubled, 260 in the deal, limit digit 5.
    pytest.param(deal(0, (70, 50), 0, suit=NT), 0, Result.MADE, (160, 100), (160, 100), (16, 10), 0,
                 id="no-trumps-made-raw-doubled"),  # (70+10) x2, 50 x2
    pytest.param(deal(0, (66, 54), 0, suit=NT), 0, Result.MADE, (152, 108), (152, 108), (15, 11), 0,
                 id="rules-example-no-trumps-54-is-108-is-11"),  # 108: d=8 > 5
    pytest.param(deal(0, (50, 70), 1, suit=NT), 0, Result.INSIDE, (100, 160), (0, 260), (0, 26), 0,
                 id="no-trumps-inside-deal-worth-260"),
    pytest.param(deal(0, (55, 65), 0, suit=NT), 0, Result.HANGING, (130, 130), (0, 130), (0, 13), 13,
                 id="no-trumps-hanging"),  # (55+10) x2 = 65 x2
    pytest.param(deal(0, (70, 50), 0, suit=NT, x=2), 0, Result.INSIDE_DEFENDERS, (160, 100), (260, 0),
                 (52, 0), 0, id="no-trumps-contra"),  # 26 x2
]
# fmt: on


@pytest.mark.parametrize(("played", "held", "result", "points", "raw", "scores", "held_after"), VERDICTS)
def test_deal_verdict(played, held, result, points, raw, scores, held_after):
    score = bulgarian(played, held=held)
    assert score.result == result
    assert score.points == points
    assert score.raw == raw
    assert score.scores == scores
    assert score.held == held_after


def test_winner_of_a_deal():
    assert bulgarian(deal(0, (90, 62), 0)).winner == 0
    assert bulgarian(deal(0, (60, 92), 1)).winner == 1
    assert bulgarian(deal(1, (90, 62), 0, x=2)).winner == 0  # team 1 contracting, inside
    assert bulgarian(deal(0, (71, 81), 0)).winner is None  # hanging: nobody won


@pytest.mark.parametrize(
    ("suit", "cards", "total"),
    [
        pytest.param("clubs", (100, 52), 162, id="clubs"),
        pytest.param("diamonds", (100, 52), 162, id="diamonds"),
        pytest.param("hearts", (100, 52), 162, id="hearts"),
        pytest.param("spades", (100, 52), 162, id="spades"),
        pytest.param(NT, (70, 50), 260, id="no-trumps"),  # (120 + 10) x2
        pytest.param(AT, (150, 98), 258, id="all-trumps"),  # 248 + 10
    ],
)
def test_six_contracts_and_their_deck_totals(suit, cards, total):
    score = bulgarian(deal(0, cards, 0, suit=suit))
    assert sum(score.points) == total
    assert sum(score.raw) == total


# ---------------------------------------------------------------------------
# Declarations: carrés always count, sequences are contested
# ---------------------------------------------------------------------------

# fmt: off
DECLARATIONS = [
    # Contracting team 0: 100 + 10 against 52 in every case, hearts, before declarations.
    pytest.param((("fourJ",), ("four9",)), None, (310, 202), (31, 20), id="carres-of-both-teams-count"),
    pytest.param((("four",), ("four",)), None, (210, 152), (21, 15), id="carres-of-a-k-q-10-are-100"),
    pytest.param((("four8",), ("four7",)), None, (110, 52), (11, 5), id="four-8s-and-7s-are-nothing"),
    pytest.param((("seq4",), ("seq3", "seq3")), None, (160, 52), (16, 5), id="longer-sequence-wins"),
    pytest.param((("seq3", "seq3"), ("seq4",)), None, (110, 102), (11, 10),
                 id="longer-sequence-wins-for-team-1"),  # 52 + 50
    pytest.param((("seq5",), ("seq4", "seq3")), None, (210, 52), (21, 5), id="quint-beats-quarte"),
    pytest.param(((), ("seq3",)), None, (110, 72), (11, 7), id="only-one-team-declared-a-sequence"),
    pytest.param((("seq5", "seq3"), ()), None, (230, 52), (23, 5), id="eight-in-a-row-quint-plus-tierce"),
    pytest.param((("seq3",), ("seq3", "seq3")), 0, (130, 52), (13, 5), id="equal-length-team-0-higher"),
    pytest.param((("seq3",), ("seq3", "seq3")), 1, (110, 92), (11, 9), id="equal-length-team-1-higher"),
    pytest.param((("seq3",), ("seq3", "seq3")), "equal", (110, 52), (11, 5),
                 id="equal-sequences-none-counts"),
    pytest.param((("seq4", "four"), ("seq4",)), "equal", (210, 52), (21, 5),
                 id="carres-count-when-sequences-are-equal"),
    pytest.param((("seq5", "fourJ"), ("seq3", "four")), None, (410, 152), (41, 15),
                 id="carre-of-the-team-that-lost-the-sequences"),  # 110+100+200 ; 52+100
    pytest.param((("seq4",), ("seq3",)), "equal", (160, 52), (16, 5),
                 id="equal-tap-ignored-when-one-sequence-is-longer"),  # the engine's choice
]
# fmt: on


@pytest.mark.parametrize(("melds", "named", "points", "scores"), DECLARATIONS)
def test_declarations(melds, named, points, scores):
    score = bulgarian(deal(0, (100, 52), 0, melds=melds, named=named))
    assert score.result == Result.MADE
    assert score.points == points
    assert score.scores == scores


@pytest.mark.parametrize(
    "melds",
    [
        pytest.param((("seq3",), ("seq3",)), id="two-tierces"),
        pytest.param((("seq5", "four"), ("seq5",)), id="two-quints"),
        pytest.param((("seq4", "seq3"), ("seq4", "fourJ")), id="two-quartes-beside-other-declarations"),
    ],
)
def test_equal_best_sequences_need_the_scorekeepers_tap(melds):
    with pytest.raises(ScoringError) as caught:
        bulgarian(deal(0, (100, 52), 0, melds=melds))
    assert caught.value.field == "declarations_winner"


# fmt: off
BELOTES = [
    pytest.param(deal(0, (90, 62), 0, belote=(0, 1)), (100, 82), (10, 8), id="belote-20-in-a-suit"),
    pytest.param(deal(0, (90, 62), 0, belote=(1, 0), melds=((), ("seq3",))), (120, 82), (12, 8),
                 id="belote-and-sequence-both-count"),
    pytest.param(deal(0, (150, 98), 0, suit=AT, belote=(3, 1)), (220, 118), (22, 12),
                 id="up-to-four-belotes-in-all-trumps"),  # 160 + 60 ; 98 + 20 -> 12 (d=8)
]
# fmt: on


@pytest.mark.parametrize(("played", "points", "scores"), BELOTES)
def test_belotes(played, points, scores):
    score = bulgarian(played)
    assert (score.points, score.scores) == (points, scores)


# ---------------------------------------------------------------------------
# Valat and the kirtik option
# ---------------------------------------------------------------------------

# fmt: off
VALATS = [
    pytest.param(deal(0, (152, 0), capot=0), Result.MADE, (162, 0), (162, 0), (25, 0),
                 id="valat-plus-9"),  # 16 + 9
    pytest.param(deal(1, (0, 152), capot=1), Result.MADE, (0, 162), (0, 162), (0, 25), id="valat-team-1"),
    pytest.param(deal(0, (248, 0), capot=0, suit=AT), Result.MADE, (258, 0), (258, 0), (35, 0),
                 id="valat-all-trumps"),  # 26 + 9
    pytest.param(deal(0, (120, 0), capot=0, suit=NT), Result.MADE, (260, 0), (260, 0), (44, 0),
                 id="valat-no-trumps-plus-18"),  # 26 + 18
    pytest.param(deal(0, (0, 152), capot=1), Result.INSIDE, (0, 162), (0, 162), (0, 25),
                 id="valat-by-the-other-team"),
    pytest.param(deal(0, (152, 0), capot=0, x=2), Result.INSIDE_DEFENDERS, (162, 0), (162, 0), (25, 0),
                 id="doubled-valat-is-not-multiplied-at-all"),  # 16 (not x2) + 9
    pytest.param(deal(0, (152, 0), capot=0, x=4), Result.INSIDE_DEFENDERS, (162, 0), (162, 0), (25, 0),
                 id="re-doubled-valat-is-not-multiplied-at-all"),
    pytest.param(deal(0, (0, 120), capot=1, suit=NT, x=2), Result.INSIDE, (0, 260), (0, 260), (0, 44),
                 id="doubled-no-trumps-valat-by-the-other-team"),  # 26 + 18
    # --- RULES §3: the valated team's declarations and belotes stay in its raw points, and the inside
    # rule then applies as in any deal (a committed team with fewer raw points is inside, and the
    # other team takes the raw points of both, declarations included).
    pytest.param(deal(0, (152, 0), capot=0, melds=((), ("four",))), Result.MADE, (162, 100), (162, 100),
                 (25, 10), id="valated-defenders-score-their-declarations-when-the-contract-is-made"),
    # 162 > 100, team 1 not committed: 162 -> 16 + 9 = 25; 100 -> 10
    pytest.param(deal(0, (152, 0), capot=0, x=2, melds=((), ("four",))), Result.INSIDE_DEFENDERS,
                 (162, 100), (262, 0), (35, 0),
                 id="doubled-valated-defenders-are-inside-declarations-and-all"),
    # both committed, 100 < 162: team 0 takes 162 + 100 = 262 -> 26 (not x2) + 9 = 35; team 1 0
    pytest.param(deal(0, (0, 152), capot=1, melds=(("seq4",), ())), Result.INSIDE, (50, 162), (0, 212),
                 (0, 30), id="rules-example-valated-contracting-team-is-inside-with-its-quarte"),
    # 50 < 162: team 1 takes 50 + 162 = 212 -> 21 + 9 = 30; team 0 0
    pytest.param(deal(0, (0, 152), capot=1, melds=(("seq3",), ()), belote=(1, 0)), Result.INSIDE,
                 (40, 162), (0, 202), (0, 29),
                 id="valated-contracting-team-inside-loses-declarations-and-belote"),
    # 20 + 20 = 40 < 162: team 1 takes 202 -> 20 + 9 = 29
    pytest.param(deal(0, (0, 152), capot=1, x=2, melds=(("seq4",), ())), Result.INSIDE, (50, 162), (0, 212),
                 (0, 30), id="doubled-valated-contracting-team-is-inside-with-its-quarte"),
    # 50 < 162: team 1 takes 212 -> 21 (not x2) + 9 = 30
    pytest.param(deal(0, (0, 248), capot=1, suit=AT, belote=(2, 0)), Result.INSIDE, (40, 258), (0, 298),
                 (0, 39), id="all-trumps-valated-contracting-team-inside-with-two-belotes"),
    # 2 x 20 = 40 < 258: team 1 takes 298 -> 30 (d=8 > 4) + 9 = 39
    pytest.param(deal(0, (0, 152), capot=1, melds=(("seq5", "four"), ())), Result.MADE, (200, 162),
                 (200, 162), (20, 25), id="valated-contracting-team-with-more-raw-points-makes-its-contract"),
    # quint 100 + carre 100 = 200 > 162: made, each its own: 200 -> 20; 162 -> 16 + 9 = 25
    pytest.param(deal(0, (0, 152), capot=1, x=2, melds=(("seq5", "four"), ())), Result.INSIDE_DEFENDERS,
                 (200, 162), (362, 0), (36, 9),
                 id="doubled-valat-team-inside-on-the-valated-teams-declarations"),
    # both committed, 162 < 200: team 0 takes 362 -> 36 (not x2); team 1 0 + 9 = 9
    pytest.param(deal(0, (152, 0), capot=0, melds=((), ("seq5", "four"))), Result.INSIDE, (162, 200),
                 (0, 362), (9, 36), id="contracting-valat-team-inside-on-the-valated-teams-declarations"),
    # 162 < 200: team 1 takes 362 -> 36; team 0 keeps only the valat, 0 + 9 = 9
    pytest.param(deal(0, (152, 0), capot=0, x=2, melds=((), ("seq5", "four"))), Result.INSIDE, (162, 200),
                 (0, 362), (9, 36),
                 id="doubled-contracting-valat-team-inside-on-the-valated-teams-declarations"),
    # 162 < 200: team 1 takes 362 -> 36 (not x2); team 0 0 + 9 = 9
]
# fmt: on


@pytest.mark.parametrize(("played", "result", "points", "raw", "scores"), VALATS)
def test_valat(played, result, points, raw, scores):
    score = bulgarian(played)
    assert (score.result, score.points, score.raw, score.scores) == (result, points, raw, scores)


# fmt: off
KIRTIK = [
    pytest.param(deal(0, (90, 62), 0), (10, 6), 0, id="made-no-penalty"),
    pytest.param(deal(0, (60, 92), 1), (-10, 16), 0, id="contracting-team-inside"),
    pytest.param(deal(0, (60, 92), 1, x=2), (-10, 32), 0, id="doubled-contracting-team-inside"),
    pytest.param(deal(0, (90, 62), 0, x=2), (32, -10), 0, id="doubled-defenders-inside"),
    pytest.param(deal(0, (152, 0), capot=0), (25, -10), 0, id="valat-suffered"),
    pytest.param(deal(0, (0, 152), capot=1), (-20, 25), 0, id="inside-and-valat-suffered"),
    pytest.param(deal(0, (152, 0), capot=0, x=2), (25, -20), 0, id="doubled-defenders-inside-and-valat"),
    pytest.param(deal(0, (152, 0), capot=0, melds=((), ("seq5", "four"))), (-1, 26), 0,
                 id="valat-team-inside-and-valated-team-both-penalised"),  # 162 < 200: 0 + 9 - 10 ; 36 - 10
    pytest.param(deal(0, (71, 81), 0), (0, 8), 8, id="hanging-no-penalty"),
]
# fmt: on


@pytest.mark.parametrize(("played", "scores", "held"), KIRTIK)
def test_kirtik(played, scores, held):
    score = bulgarian(played, kirtik=True)
    assert (score.scores, score.held) == (scores, held)


def test_kirtik_is_off_by_default():
    assert bulgarian(deal(0, (60, 92), 1)).scores == (0, 16)
    assert bulgarian(deal(0, (152, 0), capot=0)).scores == (25, 0)


# ---------------------------------------------------------------------------
# The match: hanging points, dealer, target, valat
# ---------------------------------------------------------------------------

HANG_8 = deal(0, (71, 81), 0)  # 81 : 81 -> (0, 8), 8 hanging
HANG_DOUBLED = deal(0, (71, 81), 0, x=2)  # (0, 0), (8 + 8) x2 = 32 hanging
HANG_106 = deal(0, (46, 106), 0, melds=(("seq4",), ()))  # (0, 10), 11 hanging
INSIDE_1 = deal(0, (60, 92), 1)  # (0, 16)
VALAT_1 = deal(1, (0, 152), capot=1)  # (0, 16 + 9)


@pytest.mark.parametrize(
    ("deals", "rows", "held"),
    [
        pytest.param(
            [HANG_8, HANG_DOUBLED, THROWN_IN, INSIDE_1],
            [
                (Result.HANGING, (0, 8), (0, 8), 8),
                (Result.HANGING, (0, 0), (0, 8), 40),  # 8 + 32
                (Result.THROWN_IN, (0, 0), (0, 8), 40),
                (Result.INSIDE, (0, 56), (0, 64), 0),  # 16 + 40
            ],
            0,
            id="hanging-points-accumulate-across-a-thrown-in-deal",
        ),
        pytest.param(
            [HANG_106, VALAT_1],
            [
                (Result.HANGING, (0, 10), (0, 10), 11),
                (Result.MADE, (0, 36), (0, 46), 0),  # 16 + 9 + 11
            ],
            0,
            id="valat-team-takes-the-hanging-points",
        ),
        pytest.param(
            [HANG_8, HANG_106],
            [
                (Result.HANGING, (0, 8), (0, 8), 8),
                (Result.HANGING, (0, 10), (0, 18), 19),  # 8 + 11
            ],
            19,
            id="points-still-hanging-at-the-end",
        ),
    ],
)
def test_hanging_points_on_the_sheet(deals, rows, held):
    sheet = sheet_of(deals)
    assert [(r.result, r.scores, r.totals, r.held) for r in sheet.rows] == rows
    assert sheet.held == held
    assert sheet.to_dict()["held"] == held


def test_dealer_passes_to_the_next_seat_even_on_a_thrown_in_deal():
    sheet = sheet_of([THROWN_IN, deal(0, (90, 62), 0), THROWN_IN], first_dealer=2)
    assert [row.dealer for row in sheet.rows] == [2, 3, 0]
    assert sheet.next_dealer == 1
    assert sheet.next_leader == 2  # the dealer's right-hand neighbour: the next seat in playing order


def test_default_options_on_the_sheet():
    sheet = sheet_of([])
    assert sheet.target == 151
    assert sheet.to_dict()["options"] == {"target": 151, "deals": 0, "kirtik": False}


# Building blocks, each worked out by hand:
A_0 = deal(0, (238, 10), 0, suit=AT, melds=(("fourJ", "four9", "four", "seq5"), ()), belote=(4, 0))
# 238+10 + 200+150+100+100 + 80 = 878 -> 88 : 10 -> 1
A_1 = deal(1, (10, 238), 1, suit=AT, melds=((), ("fourJ", "four9", "four", "seq5")), belote=(0, 4))  # 1 : 88
X_0 = deal(0, (150, 98), 0, suit=AT, x=2)  # 160 : 98, defenders inside: 258 -> 26 x2 = 52 : 0
X_1 = deal(1, (98, 150), 1, suit=AT, x=2)  # 0 : 52
PAIRS = [A_0, A_1, X_0, X_1]  # (88, 1) (89, 89) (141, 89) (141, 141)
PAIRS_TOTALS = [(88, 1), (89, 89), (141, 89), (141, 141)]
EVEN = deal(0, (123, 125), 0, suit=AT)  # 133 : 125 -> 13 : 13
ELEVEN = deal(0, (100, 52), 0)  # 110 : 52 -> 11 : 5
TEN = deal(0, (90, 62), 0)  # 100 : 62 -> 10 : 6
SIXTEEN = deal(0, (150, 98), 0, suit=AT)  # 160 : 98 -> 16 : 10
VALAT_0 = deal(0, (152, 0), capot=0)  # 162 -> 16 + 9 = 25 : 0

# fmt: off
GAME_END = [
    pytest.param([A_0], {}, [(88, 1)], Status.IN_PROGRESS, None, id="under-151"),
    pytest.param([A_0, A_0], {}, [(88, 1), (176, 2)], Status.FINISHED, 0, id="one-team-over-151"),
    pytest.param([A_0, A_0], {"target": 201}, [(88, 1), (176, 2)], Status.IN_PROGRESS, None,
                 id="target-option"),
    pytest.param([A_0, X_0, ELEVEN], {}, [(88, 1), (140, 1), (151, 6)], Status.FINISHED, 0,
                 id="exactly-151-wins"),
    pytest.param([A_0, X_0, TEN], {}, [(88, 1), (140, 1), (150, 7)], Status.IN_PROGRESS, None,
                 id="150-is-not-enough"),
    pytest.param([*PAIRS, SIXTEEN], {}, [*PAIRS_TOTALS, (157, 151)], Status.FINISHED, 0,
                 id="both-over-the-higher-wins"),
    pytest.param([*PAIRS, EVEN], {}, [*PAIRS_TOTALS, (154, 154)], Status.IN_PROGRESS, None,
                 id="both-over-and-equal-play-on"),
    pytest.param([*PAIRS, EVEN, ELEVEN], {}, [*PAIRS_TOTALS, (154, 154), (165, 159)], Status.FINISHED, 0,
                 id="equal-then-the-next-deal-decides"),
    pytest.param([*PAIRS, VALAT_0], {}, [*PAIRS_TOTALS, (166, 141)], Status.IN_PROGRESS, None,
                 id="never-ends-on-a-valat"),
    pytest.param([*PAIRS, VALAT_1], {}, [*PAIRS_TOTALS, (141, 166)], Status.IN_PROGRESS, None,
                 id="never-ends-on-a-valat-team-1"),
    pytest.param([*PAIRS, VALAT_0, THROWN_IN], {}, [*PAIRS_TOTALS, (166, 141), (166, 141)],
                 Status.IN_PROGRESS, None, id="a-thrown-in-deal-after-a-valat-decides-nothing"),
    pytest.param([*PAIRS, VALAT_0, VALAT_0], {}, [*PAIRS_TOTALS, (166, 141), (191, 141)],
                 Status.IN_PROGRESS, None, id="another-valat-another-deal"),
    pytest.param([*PAIRS, VALAT_0, ELEVEN], {}, [*PAIRS_TOTALS, (166, 141), (177, 146)], Status.FINISHED,
                 0, id="the-deal-after-the-valat-decides"),
    pytest.param([*PAIRS, VALAT_0, X_1], {}, [*PAIRS_TOTALS, (166, 141), (166, 193)], Status.FINISHED,
                 1, id="the-deal-after-the-valat-can-turn-the-match"),
]
# fmt: on


@pytest.mark.parametrize(("deals", "options", "totals", "status", "winner"), GAME_END)
def test_game_end(deals, options, totals, status, winner):
    sheet = sheet_of(deals, **options)
    assert [row.totals for row in sheet.rows] == totals
    assert sheet.status == status
    assert sheet.winner == winner


def test_a_hanging_deal_can_end_the_match_with_points_still_hanging():
    # RULES is silent; the engine ends the match and leaves the hanging points unclaimed.
    hang = deal(0, (94, 154), 0, suit=AT, melds=(("seq4",), ()))  # 154 : 154 -> (0, 15), 16 hanging
    sheet = sheet_of([*PAIRS, hang])
    assert sheet.rows[-1].totals == (141, 156)
    assert (sheet.status, sheet.winner, sheet.held) == (Status.FINISHED, 1, 16)


def test_no_deal_after_the_match_is_won():
    with pytest.raises(ScoringError) as caught:
        sheet_of([A_0, A_0, ELEVEN])
    assert caught.value.deal == 2
    assert "already won" in caught.value.message


# ---------------------------------------------------------------------------
# Deals and options that cannot be
# ---------------------------------------------------------------------------

# fmt: off
BAD_DEALS = [
    pytest.param(Deal(maker=0, card_points=(90, 62), last_trick=0), "contract", "missing", id="no-contract"),
    pytest.param(Deal(maker=0, contract=Contract(suit="hearts", bid=80), card_points=(90, 62), last_trick=0),
                 "contract.bid", "no bid", id="no-bid-in-bulgarian"),
    pytest.param(Deal(maker=0, contract=Contract(), card_points=(90, 62), last_trick=0),
                 "contract.suit", "one of", id="no-suit"),
    pytest.param(Deal(maker=0, contract=Contract(suit="hearts"), card_points=(152, 0), capot=0,
                      solo_capot=True), "solo_capot", "solo", id="no-solo-valat"),
    pytest.param(deal(0, (70, 50), 0, suit=NT, melds=(("seq3",), ())), "melds", "no trumps",
                 id="no-declarations-in-no-trumps"),
    pytest.param(deal(0, (70, 50), 0, suit=NT, belote=(1, 0)), "belote", "no trump suit",
                 id="no-belote-in-no-trumps"),
    pytest.param(deal(0, (90, 62), 0, belote=(1, 1)), "belote", "at most 1", id="two-belotes-in-a-suit"),
    pytest.param(deal(0, (150, 98), 0, suit=AT, belote=(3, 2)), "belote", "at most 4",
                 id="five-belotes-in-all-trumps"),
    pytest.param(deal(0, (90, 62), 0, suit=AT), "card_points", "add up to 248", id="all-trumps-deck-248"),
    pytest.param(deal(0, (90, 62), 0, suit=NT), "card_points", "add up to 120", id="no-trumps-deck-120"),
    pytest.param(deal(0, (70, 50), 0), "card_points", "add up to 152", id="suit-deck-152"),
    pytest.param(deal(0, (100, 52), 0, melds=(("seq3",), ("seq3",))), "declarations_winner", "equal",
                 id="equal-sequences-need-the-tap"),
    pytest.param(deal(0, (100, 52), 0, melds=(("mpourloto",), ())), "melds[0][0]", "no meld",
                 id="no-mpourloto-meld"),
    pytest.param(deal(0, (100, 52), 0, melds=(("four9",), ("four9",))), "melds", "9s",
                 id="four-nines-twice"),
]
# fmt: on


@pytest.mark.parametrize(("bad", "field", "words"), BAD_DEALS)
def test_impossible_deal_is_refused(bad, field, words):
    with pytest.raises(ScoringError) as caught:
        bulgarian(bad)
    assert caught.value.field == field
    assert words in caught.value.message


@pytest.mark.parametrize(("bad", "field", "words"), BAD_DEALS)
def test_impossible_deal_in_a_match_names_its_position(bad, field, words):
    with pytest.raises(ScoringError) as caught:
        sheet_of([THROWN_IN, bad])
    assert caught.value.deal == 1
    assert caught.value.field == field


def test_multiplier_3_in_a_match_file_is_refused():
    deal_3 = {"maker": 0, "contract": {"suit": "hearts", "multiplier": 3}, "card_points": [90, 62],
              "last_trick": 0}  # fmt: skip
    with pytest.raises(ScoringError) as caught:
        loads(json.dumps({"ruleset": "bulgarian", "deals": [deal_3]}))
    assert caught.value.field == "contract.multiplier"


def test_multiplier_3_built_in_code_is_refused():
    with pytest.raises(ScoringError) as caught:
        bulgarian(deal(0, (90, 62), 0, x=3))
    assert caught.value.field == "contract.multiplier"


@pytest.mark.parametrize(
    ("options", "field"),
    [
        pytest.param({"kirtik": "yes"}, "options.kirtik", id="kirtik-not-boolean"),
        pytest.param({"capot_bonus": 100}, "options.capot_bonus", id="no-capot-bonus-in-bulgarian"),
        pytest.param({"target": -151}, "options.target", id="negative-target"),
    ],
)
def test_bad_option_is_refused(options, field):
    with pytest.raises(ScoringError) as caught:
        bulgarian(TEN, **options)
    assert caught.value.field == field

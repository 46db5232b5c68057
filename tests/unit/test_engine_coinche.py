"""Coinche (contrée) scoring, rule by rule (RULES.md §6, docs/games/coinche.md).

Every expected number below is worked out by hand from RULES.md §6, never taken from the engine: the
comment beside each case shows the sum. Under the default (the FFB's game) a team's total is its card
side (card points + 10 for the last trick, 252 for a team that took every trick) + the announcements
that count (only the team with the best one scores them) + its belote (20). Made: the takers' total
reaches the bid and beats the defence's; they write total + bid, the defence its own total. Failed (an
equal total too): the defence writes 160 + bid + every announcement that counts + its belote, the
takers their belote. Coinché ×2, surcoinché ×4: the winner writes (160, or 250 for the takers' capot,
+ announcements + bid + its belote) × m, the loser its belote. Each score to the nearest ten, 5 up.

Coinche is not registered in RULESETS yet (the lead registers it with a migration), so the tests use
the class itself: ``replay`` and ``score_deal`` take a rule set object as well as a key.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import Contract, Deal, MatchState, Result, ScoringError, Status, replay, score_deal, step
from scoring.engine.match import sheet_of
from scoring.engine.rulesets.coinche import CHOICES, Coinche, CoincheOptions

COINCHE = Coinche()
NO_MELDS: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
THROWN_IN = Deal(thrown_in=True)


def deal(
    maker: int,
    suit: str,
    bid: int | str,
    cards: tuple[int, int],
    last: int | None = None,
    *,
    multiplier: int = 1,
    capot: int | None = None,
    generale: int | None = None,
    melds: tuple[tuple[str, ...], tuple[str, ...]] = NO_MELDS,
    belote: tuple[int, int] = (0, 0),
    winner: int | None = None,
) -> Deal:
    """A deal as the scorekeeper enters it: card points WITHOUT the last trick, and who took it."""
    return Deal(
        maker=maker,
        contract=Contract(suit=suit, bid=bid, multiplier=multiplier),
        card_points=cards,
        last_trick=last,
        capot=capot,
        generale=generale,
        melds=melds,
        belote=belote,
        declarations_winner=winner,
    )


def coinche(played: Deal, held: int = 0, **options):
    return score_deal(COINCHE, played, options=options, held=held)


def sheet(deals, first_dealer: int = 0, **options):
    return replay(COINCHE, deals, options=options, first_dealer=first_dealer)


# ---------------------------------------------------------------------------
# docs/games/coinche.md, "Worked examples": each row as a deal (team 0 takes)
# ---------------------------------------------------------------------------

# The doc gives the takers' card side with the last trick; the deal gives card points without it.
EXAMPLE_1 = deal(0, "hearts", 100, (92, 60), 0, belote=(1, 0))  # 92+10 = 102, +20 belote
EXAMPLE_2 = deal(0, "spades", 120, (72, 80), 0)  # 72+10 = 82
EXAMPLE_3 = deal(0, "clubs", 80, (71, 81), 0)  # 71+10 = 81 : 81
EXAMPLE_4 = deal(0, "diamonds", 90, (100, 52), 0, multiplier=2, belote=(0, 1))  # 110 : 52+20
EXAMPLE_5 = deal(0, "hearts", "capot", (152, 0), capot=0)  # every trick: 252
EXAMPLE_6 = deal(0, "spades", 80, (80, 72), 0, melds=(("seq3",), ("seq4",)))  # 90 : 72, tierce : cinquante
EXAMPLE_7 = deal(0, "diamonds", 110, (95, 57), 0, belote=(1, 0))  # 95+10+20 = 125 : 57
EXAMPLE_8 = deal(0, "clubs", 130, (62, 90), 1, multiplier=4, belote=(0, 1))  # 62 : 90+10 = 100, +20

# fmt: off
WORKED_EXAMPLES = [
    # number, deal, result, (takers, defence) written, raw before rounding (None: nothing to round)
    pytest.param(EXAMPLE_1, Result.MADE, (220, 60), (222, 60), id="1-made-122-plus-100-is-222-written-220"),
    pytest.param(EXAMPLE_2, Result.FAILED, (0, 280), None, id="2-failed-160-plus-120"),
    pytest.param(EXAMPLE_3, Result.FAILED, (0, 240), None, id="3-litige-is-failed-160-plus-80"),
    pytest.param(EXAMPLE_4, Result.MADE, (500, 20), None, id="4-coinche-made-160-plus-90-times-2"),
    pytest.param(EXAMPLE_5, Result.MADE, (500, 0), (502, 0), id="5-capot-bid-252-plus-250-is-502"),
    pytest.param(EXAMPLE_6, Result.FAILED, (0, 290), None,
                 id="6-only-the-defence-50-counts-160-plus-80-plus-50"),
    pytest.param(EXAMPLE_7, Result.MADE, (240, 60), (235, 57), id="7-235-up-to-240-and-57-to-60"),
    pytest.param(EXAMPLE_8, Result.FAILED, (0, 1240), None, id="8-surcoinche-failed-160-130-20-times-4"),
]
# fmt: on


@pytest.mark.parametrize(("played", "result", "scores", "raw"), WORKED_EXAMPLES)
def test_worked_example(played, result, scores, raw):
    score = coinche(played)
    assert (score.result, score.scores, score.raw, score.held) == (result, scores, raw, 0)
    assert score.winner == (0 if result == Result.MADE else 1)


def test_worked_example_match_to_1000_is_over_after_examples_1_4_and_5():
    """220 + 500 + 500 = 1,220 ≥ 1,000 for the takers; the defence 60 + 20 + 0 = 80."""
    played = sheet([EXAMPLE_1, EXAMPLE_4, EXAMPLE_5])
    assert [row.totals for row in played.rows] == [(220, 60), (720, 80), (1220, 80)]
    assert (played.status, played.winner) == (Status.FINISHED, 0)
    with pytest.raises(ScoringError, match="already won after deal 3"):
        sheet([EXAMPLE_1, EXAMPLE_4, EXAMPLE_5, EXAMPLE_1])


def test_the_points_at_the_table_of_the_examples():
    # Card side + counted announcements + belote, per team, before the verdict.
    assert coinche(EXAMPLE_1).points == (122, 60)
    assert coinche(EXAMPLE_6).points == (90, 122)  # the takers' tierce does not count
    assert coinche(EXAMPLE_8).points == (62, 120)


# ---------------------------------------------------------------------------
# The default rules, one at a time
# ---------------------------------------------------------------------------

# fmt: off
DEFAULT_RULES = [
    pytest.param(deal(1, "hearts", 80, (72, 80), 1), Result.MADE, (70, 170),
                 id="team-1-takes-90-plus-80"),  # 80+10+80 = 170; 72 → 70
    pytest.param(deal(0, "hearts", 90, (80, 72), 0), Result.MADE, (180, 70),
                 id="exactly-the-bid-is-made"),  # 90 ≥ 90, 90 > 72: 90+90 = 180; 72 → 70
    pytest.param(deal(0, "hearts", 80, (66, 86), 0, belote=(1, 0)), Result.MADE, (180, 90),
                 id="made-thanks-to-the-belote"),  # 66+10+20 = 96 > 86; 96+80 = 176 → 180; 86 → 90
    pytest.param(deal(0, "hearts", 80, (61, 91), 0, belote=(1, 0)), Result.FAILED, (20, 240),
                 id="equal-with-the-belote-is-failed-takers-keep-it"),  # 61+10+20 = 91; 160+80
    pytest.param(deal(0, "hearts", 100, (60, 92), 1, belote=(0, 1)), Result.FAILED, (0, 280),
                 id="failed-defence-keeps-its-belote"),  # 160+100+20
    pytest.param(deal(0, "hearts", 80, (100, 52), 0, melds=(("seq4",), ("seq4",)), winner=1),
                 Result.MADE, (190, 100), id="equal-best-the-table-names-the-defence"),  # 110+80 : 52+50
    pytest.param(deal(0, "hearts", 80, (100, 52), 0, melds=(("seq4",), ("seq4",))),
                 Result.MADE, (190, 50), id="equal-best-null-nobody-scores-them"),  # 110+80 : 52 → 50
    pytest.param(deal(0, "hearts", 80, (130, 22), 0, melds=(("seq5",), ("four",))),
                 Result.MADE, (220, 120), id="a-four-beats-a-sequence-of-equal-value"),  # 140+80; 22+100
    pytest.param(deal(0, "hearts", 80, (100, 52), 0, melds=(("seq3", "seq4"), ("seq3",))),
                 Result.MADE, (260, 50), id="the-best-team-scores-all-its-own"),  # 110+70+80 = 260
    pytest.param(deal(0, "hearts", 80, (100, 52), 0, melds=(("fourJ",), ("four9", "seq5"))),
                 Result.MADE, (390, 50), id="four-jacks-200-beats-four-nines-150"),  # 110+200+80
    pytest.param(deal(0, "hearts", 80, (100, 52), 0, melds=(("four8",), ("four7",))),
                 Result.MADE, (190, 50), id="four-8s-and-7s-score-nothing"),
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0, melds=((), ("seq4",))), Result.MADE, (380, 0),
                 id="capot-takers-score-the-defence-announcements"),  # 252+50+80 = 382 → 380
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0, belote=(0, 1)), Result.MADE, (330, 20),
                 id="capot-not-bid-is-a-plain-made-contract"),  # 252+80 = 332 → 330; belote 20
    pytest.param(deal(0, "hearts", 160, (0, 152), capot=1), Result.FAILED, (0, 320),
                 id="defence-capot-is-160-plus-the-bid"),  # 160+160
    pytest.param(deal(0, "hearts", "capot", (150, 2), 0), Result.FAILED, (0, 410),
                 id="capot-bid-without-every-trick-fails"),  # 160+250
    pytest.param(deal(0, "hearts", "generale", (152, 0), capot=0), Result.FAILED, (0, 660),
                 id="generale-bid-with-a-two-player-capot-fails"),  # 160+500
    pytest.param(deal(0, "hearts", "generale", (152, 0), capot=0, generale=2), Result.MADE, (750, 0),
                 id="generale-made-252-plus-500"),  # 752 → 750
    pytest.param(deal(1, "spades", "capot", (0, 152), capot=1, generale=3), Result.MADE, (0, 500),
                 id="a-generale-makes-a-capot-bid"),  # 252+250 = 502 → 500
    pytest.param(deal(0, "hearts", 120, (70, 82), 0, multiplier=2, belote=(1, 0)),
                 Result.FAILED, (20, 560), id="coinche-failed-takers-keep-their-belote"),  # (160+120) × 2
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0, multiplier=2), Result.MADE, (660, 0),
                 id="coinche-capot-is-250"),  # (250+80) × 2
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0, multiplier=4, belote=(1, 0)), Result.MADE,
                 (1400, 0), id="surcoinche-capot"),  # (250+80+20) × 4
]
# fmt: on


@pytest.mark.parametrize(("played", "result", "scores"), DEFAULT_RULES)
def test_default_rule(played, result, scores):
    score = coinche(played)
    assert (score.result, score.scores) == (result, scores)


def test_coinche_made_gives_the_winner_every_announcement_that_counts():
    """The defence's tierce (20) is the best announcement, so it counts, and a coinched deal gives it to
    the side that wins: (160 + 20 + 80 + 20 belote) × 2 = 560; the defence writes nothing."""
    played = deal(0, "hearts", 80, (100, 52), 0, multiplier=2, melds=((), ("seq3",)), belote=(1, 0))
    assert coinche(played).scores == (560, 0)


def test_rounding_happens_after_the_verdict():
    """Decided on 85 : 77 (made), then written 85 + 80 = 165 → 170 and 77 → 80."""
    score = coinche(deal(0, "hearts", 80, (75, 77), 0))  # 85 : 77, made
    assert (score.result, score.scores, score.raw) == (Result.MADE, (170, 80), (165, 77))


def test_thrown_in_deal_scores_nothing_and_passes_the_deal():
    played = sheet([THROWN_IN, THROWN_IN, EXAMPLE_1], first_dealer=3)
    assert [row.dealer for row in played.rows] == [3, 0, 1]
    assert [row.scores for row in played.rows] == [(0, 0), (0, 0), (220, 60)]
    assert (played.next_dealer, played.next_leader) == (2, 3)


def test_the_default_options_are_the_ffb_game():
    assert COINCHE.options({}) == CoincheOptions()
    spelt = sheet([]).to_dict()["options"]
    assert spelt["target"] == 1000 and spelt["rounding"] == "half_up" and spelt["litige"] == "failed"
    # Every option of §6's table is there, with its first value as the default.
    for name, values in CHOICES.items():
        assert spelt[name] == values[0]
    assert (COINCHE.key, COINCHE.name, COINCHE.counts_in_tens, COINCHE.clockwise) == (
        "coinche", "Coinche", False, False,
    )  # fmt: skip


# ---------------------------------------------------------------------------
# Every option's other values, worked by hand
# ---------------------------------------------------------------------------

# fmt: off
OPTIONS = [
    # --- base 162: a failed contract's card part.
    pytest.param(EXAMPLE_2, {"base": 162, "rounding": "none"}, Result.FAILED, (0, 282), id="base-162"),
    # --- made_scoring bid_only: the takers write the bid (and their belote, always theirs).
    pytest.param(EXAMPLE_1, {"made_scoring": "bid_only"}, Result.MADE, (120, 60),
                 id="bid-only-100-plus-belote"),
    pytest.param(EXAMPLE_7, {"made_scoring": "bid_only"}, Result.MADE, (130, 60),
                 id="bid-only-110-plus-belote"),
    # --- need_more_than_defence false: reaching the bid is enough.
    pytest.param(EXAMPLE_6, {"need_more_than_defence": False}, Result.MADE, (170, 120),
                 id="reaching-is-enough-90-plus-80"),  # 90 ≥ 80: 170; 72+50 = 122 → 120
    pytest.param(EXAMPLE_3, {"need_more_than_defence": False}, Result.MADE, (160, 80),
                 id="reaching-is-enough-no-litige"),  # 81+80 = 161 → 160; 81 → 80
    # --- litige made.
    pytest.param(EXAMPLE_3, {"litige": "made"}, Result.MADE, (160, 80), id="litige-made"),
    pytest.param(deal(0, "clubs", 80, (71, 81), 0, multiplier=2), {"litige": "made"}, Result.MADE,
                 (480, 0), id="litige-made-coinched"),  # (160+80) × 2
    # --- belote_counts false: 82+10 = 92 < 100 without the belote.
    pytest.param(deal(0, "hearts", 100, (82, 70), 0, belote=(1, 0)), {}, Result.MADE, (210, 70),
                 id="belote-counts-by-default"),  # 112 ≥ 100: 212 → 210
    pytest.param(deal(0, "hearts", 100, (82, 70), 0, belote=(1, 0)), {"belote_counts": False},
                 Result.FAILED, (20, 260), id="belote-does-not-count-toward-the-bid"),  # 160+100; belote 20
    # --- melds_count false: 80+10 = 90 < 100 without the tierce.
    pytest.param(deal(0, "hearts", 100, (80, 72), 0, melds=(("seq3",), ())), {"melds_count": False},
                 Result.FAILED, (0, 280), id="announcements-do-not-count-toward-the-bid"),  # 160+100+20
    pytest.param(deal(0, "hearts", 100, (80, 72), 0, melds=(("seq3",), ())), {}, Result.MADE, (210, 70),
                 id="announcements-count-by-default"),  # 90+20+100 = 210
    # --- melds_scoring all: each team its own.
    pytest.param(EXAMPLE_6, {"melds_scoring": "all"}, Result.FAILED, (0, 310),
                 id="all-announcements-failed"),  # 110 < 122: 160+80+20+50
    pytest.param(deal(0, "spades", 80, (90, 62), 0, melds=(("seq3",), ("seq4",))), {"melds_scoring": "all"},
                 Result.MADE, (200, 110), id="all-announcements-made"),  # 100+20+80 : 62+50 = 112 → 110
    # --- capot_takes_melds false: the defence keeps its announcement after a takers' capot.
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0, melds=((), ("seq4",))),
                 {"capot_takes_melds": False}, Result.MADE, (330, 50),
                 id="capot-leaves-the-defence-its-announcements"),  # 252+80 = 332
    # --- coinche_scoring (example 4: 90 ♦ coinché, takers 110, defence 52 + belote 20).
    pytest.param(EXAMPLE_4, {"coinche_scoring": "winner_score"}, Result.MADE, (400, 20),
                 id="winner-score-110-plus-90-times-2"),
    pytest.param(EXAMPLE_4, {"coinche_scoring": "winner_score_defence_keeps"}, Result.MADE, (400, 70),
                 id="winner-score-defence-keeps-52-plus-20"),  # 72 → 70
    pytest.param(EXAMPLE_4, {"coinche_scoring": "bid_multiplied"}, Result.MADE, (340, 20),
                 id="bid-multiplied-160-plus-90-times-2"),
    pytest.param(EXAMPLE_8, {"coinche_scoring": "winner_score"}, Result.FAILED, (0, 1240),
                 id="winner-score-failed-is-160-130-20-times-4"),
    pytest.param(EXAMPLE_8, {"coinche_scoring": "bid_multiplied"}, Result.FAILED, (0, 700),
                 id="bid-multiplied-failed-160-plus-520-plus-20"),  # 160 + 130×4 + 20
    # --- surcoinche_multiplier 3.
    pytest.param(EXAMPLE_8, {"surcoinche_multiplier": 3}, Result.FAILED, (0, 930), id="surcoinche-times-3"),
    # --- multiply_belote false: the winner's belote after the × m.
    pytest.param(EXAMPLE_8, {"multiply_belote": False}, Result.FAILED, (0, 1180),
                 id="belote-not-multiplied"),  # (160+130) × 4 + 20
    # --- failed_scoring base_bid_own_cards: + the defence's own card side.
    pytest.param(EXAMPLE_2, {"failed_scoring": "base_bid_own_cards"}, Result.FAILED, (0, 360),
                 id="failed-plus-own-cards"),  # 160+120+80
    # --- defence_capot capot_value.
    pytest.param(deal(0, "hearts", 100, (0, 152), capot=1), {"defence_capot": "capot_value"}, Result.FAILED,
                 (0, 350), id="defence-capot-252-plus-bid"),  # 252+100 = 352 → 350
    pytest.param(deal(0, "hearts", 100, (0, 152), capot=1, multiplier=2), {"defence_capot": "capot_value"},
                 Result.FAILED, (0, 700), id="defence-capot-coinched-250"),  # (250+100) × 2
    # --- capot_card_value 250, 162 (rounding none shows the 2 points).
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0), {"capot_card_value": 250, "rounding": "none"},
                 Result.MADE, (330, 0), id="capot-card-250"),
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0), {"rounding": "none"}, Result.MADE, (332, 0),
                 id="capot-card-252"),
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0), {"capot_card_value": 162, "rounding": "none"},
                 Result.MADE, (242, 0), id="capot-card-162-no-bonus"),
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0, multiplier=2), {"capot_card_value": 162},
                 Result.MADE, (480, 0), id="capot-card-162-coinched-is-the-base"),  # (160+80) × 2
    # --- capot_bid_value 500, generale_bid_value 300.
    pytest.param(EXAMPLE_5, {"capot_bid_value": 500}, Result.MADE, (750, 0), id="capot-bid-500"),  # 752
    pytest.param(deal(0, "hearts", "generale", (152, 0), capot=0, generale=0), {"generale_bid_value": 300},
                 Result.MADE, (550, 0), id="generale-bid-300"),  # 252+300 = 552 → 550
    pytest.param(deal(0, "hearts", "capot", (140, 12), 0), {"capot_bid_value": 500}, Result.FAILED, (0, 660),
                 id="capot-bid-500-failed"),  # 160+500
    # --- generale_card_value 500, 300.
    pytest.param(deal(0, "hearts", "generale", (152, 0), capot=0, generale=2), {"generale_card_value": 500},
                 Result.MADE, (1000, 0), id="generale-card-500"),  # 500+500
    pytest.param(deal(0, "hearts", "generale", (152, 0), capot=0, generale=2), {"generale_card_value": 300},
                 Result.MADE, (800, 0), id="generale-card-300"),  # 300+500
    # A générale taken on another bid is a capot (FORMAT.md: only a générale bid scores it; before
    # issue 25 it had its générale card value here, 500+80).
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0, generale=2), {"generale_card_value": 500},
                 Result.MADE, (330, 0), id="generale-not-bid-is-a-capot"),  # 252+80 = 332 → 330
    # --- special_made flat, flat_both.
    pytest.param(EXAMPLE_5, {"special_made": "flat"}, Result.MADE, (250, 0), id="flat-capot-250-alone"),
    pytest.param(deal(0, "hearts", "capot", (152, 0), capot=0, belote=(1, 0)), {"special_made": "flat"},
                 Result.MADE, (270, 0), id="flat-capot-keeps-the-belote"),
    pytest.param(deal(0, "hearts", "capot", (140, 12), 0), {"special_made": "flat"}, Result.FAILED,
                 (0, 410), id="flat-failed-capot-as-any-bid"),  # 160+250
    pytest.param(deal(0, "hearts", "capot", (140, 12), 0), {"special_made": "flat_both"}, Result.FAILED,
                 (0, 250), id="flat-both-failed-capot-250-alone"),
    pytest.param(deal(0, "hearts", "capot", (152, 0), capot=0, multiplier=2), {"special_made": "flat"},
                 Result.MADE, (500, 0), id="flat-capot-coinched"),  # 250 × 2
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0), {"special_made": "flat"}, Result.MADE, (330, 0),
                 id="flat-leaves-numeric-bids-alone"),
    # --- rounding: none, half_down, attack6_defence7, complement.
    pytest.param(EXAMPLE_1, {"rounding": "none"}, Result.MADE, (222, 60), id="rounding-none"),
    pytest.param(EXAMPLE_7, {"rounding": "none"}, Result.MADE, (235, 57), id="rounding-none-235"),
    pytest.param(EXAMPLE_7, {"rounding": "half_down"}, Result.MADE, (230, 60),
                 id="half-down-235-down-57-up"),
    pytest.param(deal(0, "diamonds", 110, (96, 56), 0, belote=(1, 0)), {"rounding": "attack6_defence7"},
                 Result.MADE, (240, 50), id="attack-up-from-6-defence-down-on-6"),  # 236 → 240; 56 → 50
    pytest.param(deal(0, "diamonds", 110, (95, 57), 0, belote=(1, 0)), {"rounding": "attack6_defence7"},
                 Result.MADE, (230, 60), id="attack-down-on-5-defence-up-from-7"),  # 235 → 230; 57 → 60
    pytest.param(EXAMPLE_7, {"rounding": "complement"}, Result.MADE, (240, 50),
                 id="complement-105-to-110-defence-50"),  # 110+20+110 = 240; 160-110 = 50
    pytest.param(EXAMPLE_1, {"rounding": "complement"}, Result.MADE, (220, 60),
                 id="complement-102-to-100-defence-60"),  # 100+20+100; 160-100
    # --- max_bid 180.
    pytest.param(deal(0, "hearts", 180, (140, 12), 0, melds=(("seq4",), ())), {"max_bid": 180}, Result.MADE,
                 (380, 10), id="max-bid-180-made"),  # 150+50 = 200 ≥ 180: 200+180 = 380; 12 → 10
    # --- target and target_rule change nothing in a deal.
    pytest.param(EXAMPLE_1, {"target": 2001, "target_rule": "pass"}, Result.MADE, (220, 60),
                 id="target-2001"),
]
# fmt: on


@pytest.mark.parametrize(("played", "options", "result", "scores"), OPTIONS)
def test_option(played, options, result, scores):
    score = coinche(played, **options)
    assert (score.result, score.scores) == (result, scores)


# ---------------------------------------------------------------------------
# RULES.md §6 and FORMAT.md made exact (issue 25; docs/games/coinche.md, "Worked examples: the three
# points made exact"). Each row worked by hand; "before" is what Tsoxa wrote until then.
# ---------------------------------------------------------------------------

OWN_CARDS = {"failed_scoring": "base_bid_own_cards"}
MULTIPLIED = {"coinche_scoring": "bid_multiplied", "rounding": "none"}  # unrounded: the 252's 2 shows
SURCOINCHED_CAPOT = deal(
    0, "hearts", 100, (152, 0), capot=0, multiplier=4, melds=(("seq3",), ()), belote=(0, 1)
)  # the takers' capot with a tierce, surcoinché; the defence holds the belote

# fmt: off
MADE_EXACT = [
    # --- 1. failed_scoring base_bid_own_cards: + the defence's card points, without the last trick's 10.
    pytest.param(deal(0, "spades", 120, (72, 80), 1), OWN_CARDS, Result.FAILED, (0, 360),
                 id="own-cards-80-not-90"),  # 160+120+80; before 370 (80 + the last trick 10)
    pytest.param(deal(0, "hearts", 100, (65, 87), 1), {**OWN_CARDS, "rounding": "none"}, Result.FAILED,
                 (0, 347), id="own-cards-87-unrounded"),  # 160+100+87; before 357
    pytest.param(deal(0, "hearts", 100, (65, 87), 1), OWN_CARDS, Result.FAILED, (0, 350),
                 id="own-cards-347-to-350"),  # before 357 → 360
    pytest.param(deal(1, "clubs", 90, (85, 67), 0, melds=(("seq3",), ()), belote=(1, 0)),
                 {**OWN_CARDS, "rounding": "none"}, Result.FAILED, (375, 0),
                 id="own-cards-with-announcement-and-belote"),  # 160+90+85+20+20; before 385
    pytest.param(deal(0, "hearts", 100, (0, 152), capot=1), OWN_CARDS, Result.FAILED, (0, 410),
                 id="own-cards-of-a-defence-capot-152"),  # 160+100+152 = 412; before 160+100+252
    pytest.param(deal(0, "hearts", 100, (0, 152), capot=1), {**OWN_CARDS, "defence_capot": "capot_value"},
                 Result.FAILED, (0, 350), id="own-cards-capot-value-has-the-capot-side"),  # 252+100 = 352
    pytest.param(deal(0, "spades", 120, (72, 80), 1, multiplier=2),
                 {**OWN_CARDS, "coinche_scoring": "winner_score"}, Result.FAILED, (0, 720),
                 id="own-cards-winner-score-coinched"),  # (160+120+80) × 2; before 740
    pytest.param(deal(0, "spades", 120, (72, 80), 1, multiplier=2), OWN_CARDS, Result.FAILED, (0, 560),
                 id="own-cards-not-in-all-to-winner"),  # (160+120) × 2
    pytest.param(deal(0, "notrump", 120, (50, 70), 1),
                 {**OWN_CARDS, "sa_ta": True, "sa_ta_values": "raw_rescaled", "rounding": "none"},
                 Result.FAILED, (0, 369), id="own-cards-rescaled-89"),  # 50 → 63 of 152, 89 left: 160+120+89
    # --- 2. bid_multiplied: a made capot's or générale's card side in place of the base.
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0, multiplier=2), MULTIPLIED, Result.MADE, (412, 0),
                 id="multiplied-capot-252"),  # 252 + 80×2; before 250 + 160
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0, multiplier=2),
                 {**MULTIPLIED, "capot_card_value": 250}, Result.MADE, (410, 0),
                 id="multiplied-capot-card-250"),  # 250 + 160
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0, multiplier=2),
                 {**MULTIPLIED, "capot_card_value": 162}, Result.MADE, (322, 0),
                 id="multiplied-capot-card-162"),  # 162 + 160; before the base, 160 + 160
    pytest.param(SURCOINCHED_CAPOT, MULTIPLIED, Result.MADE, (672, 20),
                 id="multiplied-surcoinche-capot"),  # 252+20+400; the defence its belote
    pytest.param(SURCOINCHED_CAPOT, {"coinche_scoring": "bid_multiplied"}, Result.MADE, (670, 20),
                 id="multiplied-surcoinche-capot-rounded"),  # 672 → 670
    pytest.param(deal(0, "hearts", "capot", (152, 0), capot=0, multiplier=2), MULTIPLIED, Result.MADE,
                 (752, 0), id="multiplied-capot-bid"),  # 252 + 250×2
    pytest.param(deal(0, "hearts", "generale", (152, 0), capot=0, generale=2, multiplier=2), MULTIPLIED,
                 Result.MADE, (1252, 0), id="multiplied-generale-as-the-capot"),  # 252 + 500×2
    pytest.param(deal(0, "hearts", "generale", (152, 0), capot=0, generale=2, multiplier=2),
                 {**MULTIPLIED, "generale_card_value": 500}, Result.MADE, (1500, 0),
                 id="multiplied-generale-card-500"),  # 500 + 500×2
    pytest.param(deal(0, "hearts", "generale", (152, 0), capot=0, generale=0, multiplier=2),
                 {**MULTIPLIED, "generale_card_value": 300}, Result.MADE, (1300, 0),
                 id="multiplied-generale-card-300"),  # 300 + 500×2
    pytest.param(deal(0, "hearts", 80, (152, 0), capot=0, generale=2, multiplier=2),
                 {**MULTIPLIED, "generale_card_value": 500}, Result.MADE, (412, 0),
                 id="multiplied-generale-not-bid-is-a-capot"),  # 252 + 80×2
    pytest.param(deal(0, "hearts", 100, (0, 152), capot=1, multiplier=2),
                 {**MULTIPLIED, "defence_capot": "capot_value"}, Result.FAILED, (0, 452),
                 id="multiplied-defence-capot-value-252"),  # 252 + 100×2; before 250 + 200
    pytest.param(deal(0, "hearts", 100, (0, 152), capot=1, multiplier=2), MULTIPLIED, Result.FAILED,
                 (0, 360), id="multiplied-defence-capot-base"),  # 160 + 100×2
    pytest.param(deal(0, "hearts", "capot", (152, 0), capot=0, multiplier=2),
                 {**MULTIPLIED, "special_made": "flat"}, Result.MADE, (500, 0),
                 id="multiplied-flat-capot-bid-alone"),  # 250×2, no card side
    # --- 3. generale: the seat of either team's player, scored only on a générale bid by the takers.
    pytest.param(deal(0, "hearts", 100, (0, 152), capot=1, generale=3), {}, Result.FAILED, (0, 260),
                 id="generale-of-a-defender-on-a-bid-of-100"),  # 160+100
    pytest.param(deal(0, "hearts", "generale", (0, 152), capot=1, generale=1), {}, Result.FAILED, (0, 660),
                 id="generale-bid-a-defender-took-every-trick-alone"),  # 160+500
    pytest.param(deal(0, "hearts", "generale", (0, 152), capot=1, generale=1),
                 {"generale_card_value": 500, "defence_capot": "capot_value"}, Result.FAILED, (0, 750),
                 id="a-defence-generale-has-the-capot-side"),  # 252+500 = 752, not 500+500
    pytest.param(deal(0, "hearts", 100, (0, 152), capot=1, generale=1, multiplier=2),
                 {"generale_card_value": 500, "defence_capot": "capot_value"}, Result.FAILED, (0, 700),
                 id="a-defence-generale-coinched-is-a-capot-250"),  # (250+100) × 2
    pytest.param(deal(0, "hearts", "capot", (152, 0), capot=0, generale=2), {"generale_card_value": 500},
                 Result.MADE, (500, 0), id="generale-on-a-capot-bid-is-a-capot"),  # 252+250; before 750
    pytest.param(deal(1, "spades", 100, (0, 152), capot=1, generale=3), {"generale_card_value": 500},
                 Result.MADE, (0, 350), id="generale-of-a-taker-on-a-bid-of-100"),  # 252+100 = 352
    pytest.param(deal(0, "hearts", "generale", (152, 0), capot=0, generale=0, multiplier=2),
                 {"generale_card_value": 500}, Result.MADE, (2000, 0),
                 id="generale-bid-made-coinched-500"),  # (500+500) × 2
]
# fmt: on


@pytest.mark.parametrize(("played", "options", "result", "scores"), MADE_EXACT)
def test_rules_6_made_exact(played, options, result, scores):
    score = coinche(played, **options)
    assert (score.result, score.scores) == (result, scores)


def test_litige_held_waits_for_the_next_winner():
    """Example 3 under litige "held": the defence writes its 81 → 80, the takers' 81 → 80 waits; the
    next deal's winner (example 1's takers, team 0) adds it: 220 + 80 = 300."""
    played = sheet([EXAMPLE_3, THROWN_IN, EXAMPLE_1], litige="held")
    assert [(r.result, r.scores, r.totals, r.held) for r in played.rows] == [
        (Result.LITIGE, (0, 80), (0, 80), 80),
        (Result.THROWN_IN, (0, 0), (0, 80), 80),
        (Result.MADE, (300, 60), (300, 140), 0),
    ]


def test_litige_held_keeps_the_takers_belote_with_them_and_goes_to_a_failed_contracts_defence():
    """61+10+20 = 91 : 91: the takers keep their belote (20), 71 → 70 waits; then example 2 fails and the
    defence (team 1) writes 280 + 70."""
    tie = deal(0, "hearts", 80, (61, 91), 0, belote=(1, 0))
    played = sheet([tie, EXAMPLE_2], litige="held")
    assert [(r.result, r.scores, r.held) for r in played.rows] == [
        (Result.LITIGE, (20, 90), 70),
        (Result.FAILED, (0, 350), 0),
    ]


def test_litige_held_in_a_coinched_deal_is_failed():
    """A coinched litige is never held (docs/games/coinche.md, decisions): (160 + 80) × 2 to the defence."""
    score = coinche(deal(0, "clubs", 80, (71, 81), 0, multiplier=2), litige="held")
    assert (score.result, score.scores, score.held) == (Result.FAILED, (0, 480), 0)


def test_annonces_off_refuses_announcements_but_keeps_the_belote():
    with pytest.raises(ScoringError, match="contrée") as refused:
        coinche(EXAMPLE_6, annonces=False)
    assert refused.value.field == "melds"
    assert coinche(EXAMPLE_1, annonces=False).scores == (220, 60)


def test_rounding_none_keeps_no_raw():
    assert coinche(EXAMPLE_1, rounding="none").raw is None
    assert coinche(EXAMPLE_1).raw == (222, 60)


# --- Sans-atout and tout-atout -----------------------------------------------------------------------


def test_sans_atout_and_tout_atout_only_with_sa_ta():
    played = deal(0, "notrump", 90, (100, 52), 0)
    with pytest.raises(ScoringError, match="sa_ta") as refused:
        coinche(played)
    assert refused.value.field == "contract.suit"
    # FFB values: 152 in the deck; 110 ≥ 90 and > 52: 110+90 = 200; 52 → 50.
    assert coinche(played, sa_ta=True).scores == (200, 50)


@pytest.mark.parametrize(
    ("played", "options", "scores"),
    [
        # raw: sans-atout's deck is 120, the card side 130: 80+10 = 90 ≥ 90 and > 40: 90+90 = 180; 40.
        pytest.param(
            deal(0, "notrump", 90, (80, 40), 0), {"sa_ta_values": "raw"}, (180, 40), id="raw-notrump"
        ),
        # raw: tout-atout's deck is 248: 200+10 = 210 ≥ 160, > 48: 210+160 = 370; 48 → 50.
        pytest.param(
            deal(0, "alltrump", 160, (200, 48), 0), {"sa_ta_values": "raw"}, (370, 50), id="raw-alltrump"
        ),
        # raw_rescaled: 124 of 248 is 76 of 152: 86 ≥ 80, > 76: 86+80 = 166 → 170; 76 → 80.
        pytest.param(
            deal(0, "alltrump", 80, (124, 124), 0),
            {"sa_ta_values": "raw_rescaled"},
            (170, 80),
            id="rescaled-alltrump-half",
        ),
        # raw_rescaled: 100 of 248 is 61.29 → 61 of 152; the defence 91 + 10: 61 < 80, failed: 160+80.
        pytest.param(
            deal(0, "alltrump", 80, (100, 148), 1),
            {"sa_ta_values": "raw_rescaled"},
            (0, 240),
            id="rescaled-alltrump-failed",
        ),
        # raw_rescaled: 90 of 120 is 114 of 152: 124 ≥ 110, > 38: 124+110 = 234 → 230; 38 → 40.
        pytest.param(
            deal(1, "notrump", 110, (30, 90), 1),
            {"sa_ta_values": "raw_rescaled"},
            (40, 230),
            id="rescaled-notrump-team-1",
        ),
        # A capot in raw tout-atout: the whole card side 258 + the 90 bonus = 348; + 80 = 428 → 430.
        pytest.param(
            deal(0, "alltrump", 80, (248, 0), capot=0),
            {"sa_ta_values": "raw"},
            (430, 0),
            id="raw-alltrump-capot",
        ),
    ],
)
def test_sa_ta_values(played, options, scores):
    assert coinche(played, sa_ta=True, **options).scores == scores


def test_sa_carres_ffb_values_the_fours_by_rank_in_sans_atout():
    aces = deal(0, "notrump", 80, (100, 52), 0, melds=(("fourA",), ("four10",)))
    # ffb: four Aces 200 beat four 10s 150: 110+200+80 = 390; 52 → 50.
    assert coinche(aces, sa_ta=True).scores == (390, 50)
    # same: both 100, equal fours, nobody named: 110+80 = 190; 50.
    assert coinche(aces, sa_ta=True, sa_carres="same").scores == (190, 50)
    # ffb: four Jacks are 100 in sans-atout, so four 10s (150) beat them: 110 < 52+150, failed: 160+80+150.
    jacks = deal(0, "notrump", 80, (100, 52), 0, melds=(("fourJ",), ("four10",)))
    assert coinche(jacks, sa_ta=True).scores == (0, 390)
    # In a suit contract the named fours are plain fours: 100.
    assert coinche(deal(0, "hearts", 80, (100, 52), 0, melds=(("fourA",), ()))).scores == (290, 50)


def test_sa_carres_ffb_needs_the_fours_named():
    with pytest.raises(ScoringError, match="fourA") as refused:
        coinche(deal(0, "notrump", 80, (100, 52), 0, melds=((), ("four",))), sa_ta=True)
    assert refused.value.field == "melds[1][0]"
    assert coinche(deal(0, "notrump", 80, (100, 52), 0, melds=((), ("four",))), sa_ta=True, sa_carres="same")


def test_belotes_in_tout_atout_and_sans_atout():
    four = deal(0, "alltrump", 80, (100, 52), 0, belote=(3, 1))
    assert coinche(four, sa_ta=True).scores == (250, 70)  # 110+60+80; 52+20 = 72 → 70
    with pytest.raises(ScoringError, match="at most 4"):
        coinche(deal(0, "alltrump", 80, (100, 52), 0, belote=(3, 2)), sa_ta=True)
    with pytest.raises(ScoringError, match="no trump suit"):
        coinche(deal(0, "notrump", 80, (100, 52), 0, belote=(1, 0)), sa_ta=True)


# --- timed_last_deal_exact ---------------------------------------------------------------------------


def test_the_deal_the_clock_ended_is_written_exactly():
    """A match ended by the clock after 2 deals (``ended_after``, set when time is called): its last deal,
    example 1, is written 222, not 220; the first (example 7) is rounded as ever: 240 : 60."""
    timed = {"timed_last_deal_exact": True, "ended_after": 2}
    played = sheet([EXAMPLE_7, EXAMPLE_1], **timed)
    assert [row.scores for row in played.rows] == [(240, 60), (222, 60)]
    assert (played.status, played.winner, played.totals) == (Status.FINISHED, 0, (462, 120))
    # Without the option the clock's last deal is rounded too.
    assert sheet([EXAMPLE_7, EXAMPLE_1], ended_after=2).totals == (460, 120)
    # The same match not ended by the clock: every deal rounded.
    assert sheet([EXAMPLE_7, EXAMPLE_1], timed_last_deal_exact=True).totals == (460, 120)


def test_a_single_deal_scored_alone_is_rounded_even_with_the_timed_option():
    assert coinche(EXAMPLE_1, timed_last_deal_exact=True, ended_after=1).scores == (220, 60)


# ---------------------------------------------------------------------------
# The end of the match
# ---------------------------------------------------------------------------

BIG = deal(1, "spades", 160, (0, 152), 1, multiplier=2)  # team 1: (160+160) × 2 = 640; team 0 nothing


def test_reaching_the_target_ends_the_match():
    """(160+80) × 2 = 480 a deal: 960 after two, 1,440 ≥ 1,000 after three."""
    team_0 = deal(0, "hearts", 80, (100, 52), 0, multiplier=2)
    played = sheet([team_0, team_0, team_0])
    assert played.totals == (1440, 0) and played.winner == 0
    exactly = sheet([deal(0, "hearts", 80, (100, 52), 0, multiplier=2)] * 2, target=960)
    assert (exactly.status, exactly.winner) == (Status.FINISHED, 0)  # 960 reaches 960


def test_target_rule_pass_needs_more_than_the_target():
    team_0 = deal(0, "hearts", 80, (100, 52), 0, multiplier=2)  # 480 a deal
    assert sheet([team_0, team_0], target=960, target_rule="pass").status == Status.IN_PROGRESS
    over = sheet([team_0, team_0, team_0], target=960, target_rule="pass")
    assert (over.status, over.winner) == (Status.FINISHED, 0)


def test_other_targets():
    team_0 = deal(0, "hearts", 80, (100, 52), 0, multiplier=2)
    assert sheet([team_0] * 3, target=1500).status == Status.IN_PROGRESS  # 1,440
    assert sheet([team_0] * 4, target=1500).winner == 0  # 1,920
    assert sheet([team_0] * 4, target=2001).status == Status.IN_PROGRESS


def test_both_over_the_target_the_higher_wins():
    """Target 300. Team 0 makes 80 with 82 : 80 (162 → 160 : 80), team 1 the same (240 : 240), team 0
    again: 400 : 320, both over, the higher wins."""
    team_0 = deal(0, "hearts", 80, (72, 80), 0)
    team_1 = deal(1, "hearts", 80, (80, 72), 1)
    played = sheet([team_0, team_1, team_0], target=300)
    assert [row.totals for row in played.rows] == [(160, 80), (240, 240), (400, 320)]
    assert (played.status, played.winner) == (Status.FINISHED, 0)
    assert sheet([team_0, team_1, team_1], target=300).winner == 1  # 320 : 400


def test_both_over_and_equal_one_more_deal():
    """Target 450. Team 1 makes 80 twice (80 : 160 each: 160 : 320), team 0 twice (160 : 80 each):
    320 : 400, then 480 : 480, both over and equal: play on; the next deal decides."""
    team_0 = deal(0, "hearts", 80, (72, 80), 0)
    team_1 = deal(1, "hearts", 80, (80, 72), 1)
    level = sheet([team_1, team_1, team_0, team_0], target=450)
    assert (level.totals, level.status, level.winner) == ((480, 480), Status.IN_PROGRESS, None)
    after = sheet([team_1, team_1, team_0, team_0, THROWN_IN, EXAMPLE_1], target=450)
    assert (after.totals, after.status, after.winner) == ((700, 540), Status.FINISHED, 0)


# The belote-alone rule. Target 900: team 1 reaches 880 with a coinched 160 (640) and a made 80 (240 : 0);
# then team 0 makes 80 with all the card points (242 → 240) while team 1 holds the belote and takes a
# trick of no points: team 1 writes its 20 and has 900, over the target only through its belote in a
# deal it lost.
CLIMB = [BIG, deal(1, "spades", 80, (10, 142), 1)]  # 640; then 152+80 = 232 → 230, team 0 10
BELOTE_ALONE = deal(0, "hearts", 80, (152, 0), 0, belote=(0, 1))  # team 0: 162+80 = 242 → 240; team 1: 20
CAPOT_0 = deal(0, "diamonds", 80, (152, 0), capot=0)  # team 0: 252+80 = 332 → 330; team 1 no trick
A_TRICK = deal(0, "spades", 80, (142, 10), 0)  # team 0: 152+80 = 232 → 230; team 1 takes a trick: 10


def test_the_climb_before_the_belote_alone_deal():
    climbed = sheet(CLIMB, target=900)
    assert climbed.totals == (10, 870)  # 640 + 230
    assert climbed.status == Status.IN_PROGRESS


def test_over_the_target_only_through_the_belote_in_a_lost_deal_has_not_won():
    climb = [BIG, deal(1, "spades", 80, (10, 142), 1)]  # 640; 152+80 = 232 → 230; team 0 10
    assert sheet(climb, target=900).totals == (10, 870)
    # 870 + 20 (belote: it is team 1's only score) … let the target be 890: 890 ≥ 890, 870 < 890.
    played = sheet([*climb, BELOTE_ALONE], target=890)
    assert played.totals == (250, 890)
    assert (played.status, played.winner) == (Status.IN_PROGRESS, None)
    assert played.state.progress.barred == 1
    # Without the rule, team 1 has won.
    plain = sheet([*climb, BELOTE_ALONE], target=890, belote_alone_cannot_win=False)
    assert (plain.status, plain.winner) == (Status.FINISHED, 1)


def test_a_barred_team_waits_through_capots_and_thrown_in_deals_then_wins_with_a_trick():
    climb = [BIG, deal(1, "spades", 80, (10, 142), 1)]  # 10 : 870
    options = {"target": 890}
    after_capot = sheet([*climb, BELOTE_ALONE, CAPOT_0, THROWN_IN], **options)
    assert after_capot.totals == (580, 890)  # 250 + 330
    assert (after_capot.status, after_capot.state.progress.barred) == (Status.IN_PROGRESS, 1)
    # Team 1 takes a trick (10 card points): it has won, team 0 (810) being under the target.
    won = sheet([*climb, BELOTE_ALONE, CAPOT_0, THROWN_IN, A_TRICK], **options)
    assert won.totals == (810, 900)
    assert (won.status, won.winner, won.state.progress.barred) == (Status.FINISHED, 1, None)


def test_while_one_team_is_barred_the_other_wins_by_reaching_the_target():
    climb = [BIG, deal(1, "spades", 80, (10, 142), 1)]  # 10 : 870
    played = sheet([*climb, BELOTE_ALONE, CAPOT_0, CAPOT_0], target=890)  # 250 + 330 + 330 = 910
    assert played.totals == (910, 890)
    assert (played.status, played.winner) == (Status.FINISHED, 0)


def test_a_barred_team_higher_than_the_other_does_not_stop_the_other_from_winning():
    """Target 490. Team 1 makes a coinched 80 (480 : 0 … its 0), team 0 a 90 with every card point
    (162+90 = 252 → 250), then the belote-alone deal: 490 : 500. Team 1 is higher but over only through
    its belote in a deal it lost; team 0 has reached 490: team 0 wins (docs/games/coinche.md)."""
    played = [
        deal(1, "spades", 80, (52, 100), 1, multiplier=2),
        deal(0, "hearts", 90, (152, 0), 0),
        BELOTE_ALONE,
    ]
    won = sheet(played, target=490)
    assert [row.totals for row in won.rows] == [(0, 480), (250, 480), (490, 500)]
    assert (won.status, won.winner) == (Status.FINISHED, 0)
    # Without the rule, both are over and the higher wins.
    assert sheet(played, target=490, belote_alone_cannot_win=False).winner == 1


def test_a_belote_in_a_won_deal_is_not_the_belote_alone():
    """Team 1 wins the deal (a failed contract of team 0) with its belote: it has won as usual."""
    failing = deal(0, "hearts", 160, (100, 52), 0, belote=(0, 1))  # failed: team 1 160+160+20 = 340
    played = sheet([*CLIMB, failing], target=900)
    assert (played.status, played.winner) == (Status.FINISHED, 1)


def test_a_barred_state_is_stored_and_read_back():
    rules = COINCHE
    opts = rules.options({"target": 890})
    climb = [BIG, deal(1, "spades", 80, (10, 142), 1), BELOTE_ALONE]
    whole = sheet([*climb, CAPOT_0, A_TRICK], target=890)
    stored = json.loads(json.dumps(sheet(climb, target=890).state.to_dict()))
    assert stored["barred"] == 1
    state = MatchState.from_dict(stored)
    for played in (CAPOT_0, A_TRICK):
        state, _ = step(rules, opts, state, played)
    assert state == whole.state
    assert "barred" not in whole.state.to_dict()  # written only while a team is barred


def test_a_fixed_number_of_deals_ignores_the_target():
    played = replay(COINCHE, [EXAMPLE_4, EXAMPLE_4, EXAMPLE_4], options={"deals": 3})
    assert (played.totals, played.status, played.winner) == ((1500, 60), Status.FINISHED, 0)


# ---------------------------------------------------------------------------
# Refusals: deals that cannot have happened, options that do not exist
# ---------------------------------------------------------------------------

# fmt: off
BAD_DEALS = [
    pytest.param(Deal(maker=0, card_points=(100, 52), last_trick=0), {}, "contract", "missing",
                 id="no-contract"),
    pytest.param(deal(0, "hearts", 70, (100, 52), 0), {}, "contract.bid", "from 80 to 160", id="bid-70"),
    pytest.param(deal(0, "hearts", 170, (100, 52), 0), {}, "contract.bid", "from 80 to 160", id="bid-170"),
    pytest.param(deal(0, "hearts", 190, (100, 52), 0), {"max_bid": 180}, "contract.bid", "to 180",
                 id="bid-190-over-180"),
    pytest.param(deal(0, "hearts", 85, (100, 52), 0), {}, "contract.bid", "in tens", id="bid-85"),
    pytest.param(Deal(maker=0, contract=Contract(suit="hearts"), card_points=(100, 52), last_trick=0), {},
                 "contract.bid", "missing", id="no-bid"),
    pytest.param(deal(0, "alltrump", 80, (100, 52), 0), {}, "contract.suit", "sa_ta", id="alltrump-off"),
    pytest.param(deal(0, "hearts", 80, (100, 50), 0), {}, "card_points", "add up to 152", id="cards-150"),
    pytest.param(deal(0, "alltrump", 80, (100, 52), 0), {"sa_ta": True, "sa_ta_values": "raw"},
                 "card_points", "add up to 248", id="raw-alltrump-248"),
    pytest.param(deal(0, "notrump", 80, (100, 52), 0), {"sa_ta": True, "sa_ta_values": "raw_rescaled"},
                 "card_points", "add up to 120", id="rescaled-notrump-120"),
    pytest.param(deal(0, "hearts", "generale", (152, 0), capot=0, generale=1), {}, "generale",
                 r"a seat of the capot team \(team 0\)", id="generale-a-defender-in-a-takers-capot"),
    pytest.param(deal(0, "hearts", 100, (0, 152), capot=1, generale=2), {}, "generale",
                 r"a seat of the capot team \(team 1\)", id="generale-a-taker-in-a-defence-capot"),
    pytest.param(deal(0, "hearts", "generale", (152, 0), 0, generale=0), {}, "capot",
                 "a capot: team 0 took every trick", id="generale-without-capot"),
    pytest.param(deal(0, "hearts", 100, (92, 60), 0, generale=3), {}, "capot",
                 "a capot: team 1 took every trick", id="generale-of-a-defender-without-capot"),
    pytest.param(Deal(maker=0, contract=Contract("hearts", "capot"), card_points=(152, 0), capot=0,
                      solo_capot=True), {}, "solo_capot", "générale", id="solo-capot"),
    pytest.param(deal(0, "hearts", 80, (100, 52), 0, melds=(("mpourloto",), ())), {}, "melds[0][0]",
                 "no meld", id="mpourloto-meld"),
    pytest.param(deal(0, "hearts", 80, (100, 52), 0, melds=(("fourJ",), ("fourJ",))), {}, "melds",
                 "only one", id="two-four-jacks"),
    pytest.param(deal(0, "hearts", 80, (100, 52), 0, melds=(("fourA", "four"), ("four", "four", "four"))),
                 {}, "melds", "four ranks", id="five-fours"),
    pytest.param(deal(0, "hearts", 80, (100, 52), 0, belote=(1, 1)), {}, "belote", "at most 1",
                 id="two-belotes-in-a-suit"),
    pytest.param(Deal(maker=0, contract=Contract("hearts", 80), card_points=(100, 52), last_trick=0,
                      melds=(("seq3",), ("seq3",)), declarations_winner="equal"), {}, "declarations_winner",
                 "null", id="equal-is-null-in-coinche"),
    pytest.param(deal(0, "hearts", 80, (100, 52)), {}, "last_trick", "missing", id="no-last-trick"),
]
# fmt: on


@pytest.mark.parametrize(("played", "options", "field", "words"), BAD_DEALS)
def test_a_bad_deal_is_refused(played, options, field, words):
    with pytest.raises(ScoringError, match=words) as refused:
        coinche(played, **options)
    assert refused.value.field == field


def test_a_refused_deal_is_named_by_its_position():
    with pytest.raises(ScoringError) as refused:
        sheet([EXAMPLE_1, deal(0, "hearts", 70, (100, 52), 0)])
    assert (refused.value.deal, refused.value.field) == (1, "contract.bid")


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"target_rule": "over"}, "options.target_rule"),
        ({"base": 150}, "options.base"),
        ({"made_scoring": "bid"}, "options.made_scoring"),
        ({"litige": True}, "options.litige"),
        ({"litige": "hanging"}, "options.litige"),
        ({"melds_scoring": "best"}, "options.melds_scoring"),
        ({"coinche_scoring": "all"}, "options.coinche_scoring"),
        ({"coinche_multiplier": 3}, "options.coinche_multiplier"),
        ({"surcoinche_multiplier": 6}, "options.surcoinche_multiplier"),
        ({"failed_scoring": "own"}, "options.failed_scoring"),
        ({"defence_capot": "capot"}, "options.defence_capot"),
        ({"capot_card_value": 260}, "options.capot_card_value"),
        ({"capot_bid_value": 300}, "options.capot_bid_value"),
        ({"generale_bid_value": 250}, "options.generale_bid_value"),
        ({"generale_card_value": 252}, "options.generale_card_value"),
        ({"generale_card_value": "500"}, "options.generale_card_value"),
        ({"generale_card_value": True}, "options.generale_card_value"),
        ({"special_made": "flat_all"}, "options.special_made"),
        ({"rounding": "up"}, "options.rounding"),
        ({"sa_ta_values": "scaled"}, "options.sa_ta_values"),
        ({"sa_carres": "fr"}, "options.sa_carres"),
        ({"max_bid": 170}, "options.max_bid"),
        ({"need_more_than_defence": 1}, "options.need_more_than_defence"),
        ({"sa_ta": "yes"}, "options.sa_ta"),
        ({"base": 160.0}, "options.base"),
        ({"target": 0}, "options.target"),
        ({"ties_hang": True}, "options.ties_hang"),
    ],
)
def test_a_bad_option_is_refused_by_name(options, field):
    with pytest.raises(ScoringError) as refused:
        COINCHE.options(options)
    assert refused.value.field == field


def test_a_bad_option_says_what_it_may_be():
    with pytest.raises(ScoringError, match="must be one of failed, made, held"):
        COINCHE.options({"litige": "hanging"})
    with pytest.raises(ScoringError, match="must be one of capot, 500, 300"):
        COINCHE.options({"generale_card_value": 252})


def test_every_value_of_every_option_is_accepted():
    for name, values in CHOICES.items():
        for value in values:
            assert getattr(COINCHE.options({name: value}), name) == value


def test_a_coinche_deal_reads_and_writes_in_the_match_file_shape():
    data = {
        "maker": 0, "contract": {"suit": "hearts", "bid": "generale", "multiplier": 2},
        "card_points": [152, 0], "capot": 0, "generale": 2, "melds": [["fourA"], []], "belote": [1, 0],
    }  # fmt: skip
    read = Deal.from_dict(data)
    assert (read.contract.bid, read.generale, read.melds) == ("generale", 2, (("fourA",), ()))
    assert read.to_dict() == data
    with pytest.raises(ScoringError) as refused:
        Deal.from_dict({**data, "generale": 4})
    assert refused.value.field == "generale"
    with pytest.raises(ScoringError) as refused:
        Deal.from_dict({**data, "contract": {"suit": "hearts", "bid": "slam"}})
    assert refused.value.field == "contract.bid"


def test_other_games_refuse_a_generale_and_a_word_bid_and_take_named_fours_as_four():
    generale = Deal(maker=0, card_points=(152, 0), capot=0, generale=0)
    with pytest.raises(ScoringError, match="no générale") as refused:
        score_deal("mpourloto", generale)
    assert refused.value.field == "generale"
    with pytest.raises(ScoringError) as refused:
        score_deal("pilotta", deal(0, "hearts", "capot", (152, 0), capot=0))
    assert refused.value.field == "contract.bid"
    named = Deal(maker=0, contract=Contract("hearts", 80), card_points=(100, 52), last_trick=0,
                 melds=(("fourA",), ()))  # fmt: skip
    four = Deal(
        maker=0, contract=Contract("hearts", 80), card_points=(100, 52), last_trick=0, melds=(("four",), ())
    )
    assert score_deal("pilotta", named) == score_deal("pilotta", four)
    assert score_deal(
        "mpourloto", Deal(maker=0, card_points=(100, 52), last_trick=0, melds=(("fourK",), ()))
    ) == (score_deal("mpourloto", Deal(maker=0, card_points=(100, 52), last_trick=0, melds=(("four",), ()))))


# ---------------------------------------------------------------------------
# Properties, for every valid deal and match
# ---------------------------------------------------------------------------

ONE_DEAL = settings(max_examples=150, deadline=None)
MATCHES = settings(max_examples=60, deadline=None)
TEAM = st.sampled_from([0, 1])
SUITS = ("clubs", "diamonds", "hearts", "spades")
VALUE = {
    "seq3": 20, "seq4": 50, "seq5": 100, "four": 100, "fourA": 100, "four10": 100, "fourK": 100, "fourQ": 100,
    "fourJ": 200, "four9": 150, "four8": 0, "four7": 0,
}  # fmt: skip
ONCE_A_DEAL = ("fourJ", "four9", "four8", "four7", "fourA", "four10", "fourK", "fourQ")

BOOLEANS = (
    "need_more_than_defence", "belote_counts", "melds_count", "capot_takes_melds", "multiply_belote",
    "sa_ta", "belote_alone_cannot_win",
)  # fmt: skip
OPTION_VALUES = st.fixed_dictionaries(
    {},
    optional={
        **{name: st.sampled_from(values) for name, values in CHOICES.items() if name != "max_bid"},
        **{name: st.booleans() for name in BOOLEANS},
        "max_bid": st.sampled_from([160, 180]),
        "target": st.sampled_from([1000, 1500, 2001, 10**6]),
    },
)


@st.composite
def announcements(draw, suit: str, options: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Both teams' announcements: each named four once a deal, at most four fours, four a team."""
    if options.get("annonces") is False or draw(st.integers(0, 2)) == 0:
        return NO_MELDS
    teams: list[list[str]] = [[], []]
    for code in ONCE_A_DEAL:
        owner = draw(st.sampled_from([None, None, None, 0, 1]))
        if owner is not None:
            teams[owner].append(code)
    named = sum(code in ONCE_A_DEAL[4:] for team in teams for code in team)
    plain_fours = suit != "notrump" or options.get("sa_carres") == "same"
    if plain_fours:
        for _ in range(draw(st.integers(0, 4 - named))):
            teams[draw(TEAM)].append("four")
    for team in teams:
        team += draw(st.lists(st.sampled_from(["seq3", "seq4", "seq5"]), max_size=3))
    cut = [draw(st.permutations(team))[:4] for team in teams]
    return tuple(cut[0]), tuple(cut[1])


@st.composite
def coinche_deals(draw, options: dict, thrown_in: bool = True) -> Deal:
    if thrown_in and draw(st.integers(0, 9)) == 0:
        return THROWN_IN
    maker = draw(TEAM)
    suits = (*SUITS, "notrump", "alltrump") if options.get("sa_ta") else SUITS
    suit = draw(st.sampled_from(suits))
    raw = options.get("sa_ta_values", "ffb") != "ffb" and suit in ("notrump", "alltrump")
    deck = {"notrump": 120, "alltrump": 248}[suit] if raw else 152
    melds = draw(announcements(suit, options))
    most = {"notrump": 0, "alltrump": 4}.get(suit, 1)
    belote = draw(st.sampled_from([(0, 0), (0, 0), (1, 0), (0, 1)])) if most == 1 else (0, 0)
    if most == 4:
        first = draw(st.integers(0, 4))
        belote = (first, draw(st.integers(0, 4 - first)))
    generale = None
    shape = draw(st.integers(0, 7))
    if shape == 0:  # a capot, now and then by one player of that team (either team: FORMAT.md)
        capot = draw(TEAM)
        cards, last = ((deck, 0) if capot == 0 else (0, deck)), None
        if draw(st.booleans()):
            generale = capot + 2 * draw(st.integers(0, 1))
    else:
        capot, last = None, draw(TEAM)
        first = draw(st.integers(0, deck))
        cards = (first, deck - first)
        if shape == 1:  # the tie point, when there is one, so that litiges happen
            extras = [20 * belote[t] + sum(VALUE[m] for m in melds[t]) for t in (0, 1)]
            twice = deck + 10 * (last == 1) - 10 * (last == 0) + extras[1] - extras[0]
            if twice % 2 == 0 and 0 <= twice // 2 <= deck:
                cards = (twice // 2, deck - twice // 2)
    most_bid = options.get("max_bid", 160)
    bid = draw(
        st.one_of(
            st.integers(8, most_bid // 10).map(lambda k: 10 * k), st.sampled_from(["capot", "generale"])
        )
    )
    best = [max(((VALUE[m], m[:4] == "four") for m in team), default=(0, False)) for team in melds]
    named = draw(st.sampled_from([None, 0, 1])) if best[0] == best[1] else None
    return Deal(
        maker=maker,
        contract=Contract(suit=suit, bid=bid, multiplier=draw(st.sampled_from([1, 1, 2, 4]))),
        card_points=cards,
        last_trick=last,
        capot=capot,
        generale=generale,
        melds=melds,
        belote=belote,
        declarations_winner=named,
    )


@st.composite
def cases(draw, options=OPTION_VALUES):
    chosen = draw(options)
    return draw(coinche_deals(chosen, thrown_in=False)), chosen


@st.composite
def matches(draw):
    chosen = draw(OPTION_VALUES)
    return draw(st.lists(coinche_deals(chosen), max_size=16)), chosen, draw(st.sampled_from([0, 1, 2, 3]))


def default_oracle(played: Deal) -> tuple[Result, tuple[int, int]]:
    """RULES.md §6's default written out on its own: the verdict and what each team writes."""
    t, d = played.maker, 1 - played.maker
    if played.capot is not None:
        side = [252 if k == played.capot else 0 for k in (0, 1)]
    else:
        side = [played.card_points[k] + 10 * (played.last_trick == k) for k in (0, 1)]
    best = [
        max(((VALUE[m], m.startswith("four")) for m in team), default=(0, False)) for team in played.melds
    ]
    if best[0] == best[1]:
        counts = played.declarations_winner if best[0][0] else None
    else:
        counts = 0 if best[0] > best[1] else 1
    ann = [sum(VALUE[m] for m in played.melds[k]) if k == counts else 0 for k in (0, 1)]
    if played.capot == t:
        ann = [ann[0] + ann[1] if k == t else 0 for k in (0, 1)]
    bel = [20 * n for n in played.belote]
    total = [side[k] + ann[k] + bel[k] for k in (0, 1)]
    bid = played.contract.bid
    value = {"capot": 250, "generale": 500}.get(bid, bid)
    if bid == "capot":
        made = played.capot == t
    elif bid == "generale":  # one of the takers took every trick alone
        made = played.generale is not None and played.capot == t
    else:
        made = total[t] >= value and total[t] > total[d]
    m = played.contract.multiplier
    written = [0, 0]
    if m == 1 and made:
        written = [total[t] + value, total[d]] if t == 0 else [total[d], total[t] + value]
    elif m == 1:
        written[t], written[d] = bel[t], 160 + value + ann[0] + ann[1] + bel[d]
    else:
        won = t if made else d
        card = 250 if made and played.capot == t else 160
        written[won] = (card + ann[0] + ann[1] + value + bel[won]) * m
        written[1 - won] = bel[1 - won]
    return (Result.MADE if made else Result.FAILED), tuple((w + 5) // 10 * 10 for w in written)  # type: ignore[return-value]


@ONE_DEAL
@given(cases(st.just({})))
def test_the_default_follows_rules_6(case):
    played, _ = case
    score = coinche(played)
    assert (score.result, score.scores) == default_oracle(played)
    assert score.winner == (played.maker if score.result == Result.MADE else 1 - played.maker)


@ONE_DEAL
@given(cases())
def test_a_plain_failed_contract_gives_everything_but_the_takers_belote_to_the_defence(case):
    played, options = case
    score = coinche(played, **options)
    t, d = played.maker, 1 - played.maker
    if score.result == Result.FAILED and played.contract.multiplier == 1:
        assert score.scores[t] == 20 * played.belote[t]
        assert score.scores[d] >= 20 * played.belote[d] + 160
    if (
        score.result == Result.MADE
        and played.contract.multiplier == 1
        and isinstance(played.contract.bid, int)
    ):
        assert score.scores[t] >= played.contract.bid  # a bid in tens survives any rounding


@ONE_DEAL
@given(cases())
def test_a_coinched_deal_leaves_the_loser_its_belote(case):
    played, options = case
    score = coinche(played, **options)
    if played.contract.multiplier > 1 and options.get("coinche_scoring") != "winner_score_defence_keeps":
        lost = 1 - score.winner
        assert score.scores[lost] == 20 * played.belote[lost]


@ONE_DEAL
@given(cases())
def test_surcoinche_is_twice_coinche(case):
    """All to the winner, × 2 and × 4, exact points: the winner writes twice as much, the loser the same."""
    played, options = case
    options = {**options, "rounding": "none", "coinche_scoring": "all_to_winner", "surcoinche_multiplier": 4}
    doubled, redoubled = (
        coinche(dataclasses.replace(played, contract=Contract(played.contract.suit, played.contract.bid, m)),
                **options)
        for m in (2, 4)
    )  # fmt: skip
    assert doubled.result == redoubled.result and doubled.winner == redoubled.winner
    won = doubled.winner
    belote = 20 * played.belote[won]
    if options.get("multiply_belote", True):
        assert redoubled.scores[won] == 2 * doubled.scores[won]
    else:
        assert redoubled.scores[won] - belote == 2 * (doubled.scores[won] - belote)
    assert redoubled.scores[1 - won] == doubled.scores[1 - won]


@ONE_DEAL
@given(cases())
def test_rounding_gives_tens_within_a_few_points(case):
    played, options = case
    score = coinche(played, **options)
    rounding = options.get("rounding", "half_up")
    if rounding == "none":
        assert score.raw is None
        return
    assert all(s % 10 == 0 for s in score.scores)
    assert score.held % 10 == 0
    raw = score.raw or score.scores
    if rounding != "complement":
        assert all(abs(s - r) <= 6 for s, r in zip(score.scores, raw, strict=True))


@ONE_DEAL
@given(cases())
def test_made_or_failed_is_decided_on_the_exact_points(case):
    played, options = case
    verdicts = {coinche(played, **{**options, "rounding": r}).result for r in CHOICES["rounding"]}
    assert len(verdicts) == 1


@ONE_DEAL
@given(cases())
def test_points_are_conserved(case):
    """Exact points, plain contracts: made, the two teams write the table's points + the bid; failed, the
    defence's 160 (or 162) + the bid + every announcement that counts + both belotes."""
    played, options = case
    options = {**options, "rounding": "none", "made_scoring": "points_plus_bid", "special_made": "add",
               "failed_scoring": "base_plus_bid", "defence_capot": "base"}  # fmt: skip
    if played.contract.multiplier != 1:
        return
    score = coinche(played, **options)
    table = COINCHE.table(played, COINCHE.options(options))
    value = table.value  # the bid, or a capot's or générale's value under the options
    written = score.scores[0] + score.scores[1]
    if score.result == Result.MADE:
        assert written == sum(score.points) + value
    elif score.result == Result.FAILED:
        announced = sum(table.announcements)
        assert written == options.get("base", 160) + value + announced + 20 * sum(played.belote)
    else:  # litige held: the defence's total and the takers' belote now, the rest held
        assert written + score.held == sum(score.points)


@ONE_DEAL
@given(cases())
def test_a_recorded_generale_scores_only_on_a_generale_bid_made_by_the_takers(case):
    """FORMAT.md: ``generale`` may name either team's player; only a générale bid by the takers scores
    it. Anywhere else the deal scores as the same deal without it (a capot)."""
    played, options = case
    if played.generale is None or (played.contract.bid == "generale" and played.capot == played.maker):
        return
    assert coinche(played, **options) == coinche(dataclasses.replace(played, generale=None), **options)


def rescaled(played: Deal, team: int) -> int:
    """A team's card points as scored: as entered, or under raw_rescaled in sans-atout and tout-atout
    the takers' scaled to 152 (nearest point, halves up) and the defence the rest (RULES.md §6)."""
    raw = played.card_points
    deck = {"notrump": 120, "alltrump": 248}[played.contract.suit]
    takers = (2 * 152 * raw[played.maker] + deck) // (2 * deck)
    return takers if team == played.maker else 152 - takers


@ONE_DEAL
@given(cases())
def test_the_defence_own_card_points_are_without_the_last_trick(case):
    """base_bid_own_cards adds to what the failed contract's defence writes exactly its card points as
    entered (the last trick's 10 left out), × m where its plain score is multiplied (winner_score)."""
    played, options = case
    options = {**options, "rounding": "none", "special_made": "add", "defence_capot": "base"}
    plus = coinche(played, **{**options, "failed_scoring": "base_bid_own_cards"})
    plain = coinche(played, **{**options, "failed_scoring": "base_plus_bid"})
    assert plus.result == plain.result
    if plus.result != Result.FAILED:
        assert plus.scores == plain.scores
        return
    d, m = 1 - played.maker, played.contract.multiplier
    factor = {1: 1, 2: 2, 4: options.get("surcoinche_multiplier", 4)}[m]
    scaled = options.get("sa_ta_values") == "raw_rescaled" and played.contract.suit in ("notrump", "alltrump")
    own = rescaled(played, d) if scaled else played.card_points[d]
    winner_score = options.get("coinche_scoring", "all_to_winner").startswith("winner_score")
    expected = own if m == 1 else (own * factor if winner_score else 0)
    assert plus.scores[d] - plain.scores[d] == expected
    assert plus.scores[played.maker] == plain.scores[played.maker]


@ONE_DEAL
@given(cases())
def test_bid_multiplied_puts_a_capots_card_side_in_place_of_the_base(case):
    """Coinché under bid_multiplied, the winner writes its card part + the bid × m + the announcements
    that count + its belote; the card part is the base, or for a capot (the takers', or the defence's
    under capot_value) capot_card_value, generale_card_value for a made générale bid (RULES.md §6)."""
    played, options = case
    options = {**options, "coinche_scoring": "bid_multiplied", "rounding": "none", "special_made": "add"}
    raw = options.get("sa_ta_values", "ffb") == "raw" and played.contract.suit in ("notrump", "alltrump")
    if played.contract.multiplier == 1 or raw:
        return
    score = coinche(played, **options)
    opts = COINCHE.options(options)
    table = COINCHE.table(played, opts)
    won = score.winner
    part = score.scores[won] - table.value * table.factor - sum(table.announcements) - 20 * played.belote[won]
    generale = played.contract.bid == "generale" and played.generale is not None
    if played.capot == won and (won == played.maker or opts.defence_capot == "capot_value"):
        numbered = generale and won == played.maker and opts.generale_card_value != "capot"
        assert part == (opts.generale_card_value if numbered else opts.capot_card_value)
    else:
        assert part == opts.base
    assert score.scores[1 - won] == 20 * played.belote[1 - won]


@ONE_DEAL
@given(cases())
def test_the_belote_always_stays_with_its_holders(case):
    played, options = case
    score = coinche(played, **options)
    assert all(score.scores[t] >= 20 * played.belote[t] for t in (0, 1))


def play(played: list[Deal], options: dict, first_dealer: int = 0):
    """The sheet of the deals up to the one that ends the match (later ones are refused)."""
    try:
        return played, sheet(played, first_dealer, **options)
    except ScoringError as error:
        assert "already" in error.message
        played = played[: error.deal]
        return played, sheet(played, first_dealer, **options)


@MATCHES
@given(matches())
def test_the_match_sheet_adds_up_and_ends_as_rules_6_says(match):
    played, options, first_dealer = match
    played, result = play(played, options, first_dealer)
    opts = COINCHE.options(options)
    running = (0, 0)
    barred = None

    def reached(total: int) -> bool:
        return total > opts.target if opts.target_rule == "pass" else total >= opts.target

    for k, row in enumerate(result.rows):
        running = (running[0] + row.scores[0], running[1] + row.scores[1])
        assert row.totals == running
        if row.deal.thrown_in:
            continue
        if barred is not None and row.deal.capot != 1 - barred:
            barred = None
        if opts.belote_alone_cannot_win and barred is None:
            maker = row.deal.maker
            lost = 1 - maker if row.result == Result.MADE else maker
            belote = 20 * row.deal.belote[lost]
            if belote and reached(running[lost]) and not reached(running[lost] - belote):
                barred = lost
        over = [t for t in (0, 1) if t != barred and reached(running[t])]
        ends = len(over) == 1 or (len(over) == 2 and running[0] != running[1])
        if ends:
            assert k == len(result.rows) - 1
            winner = over[0] if len(over) == 1 else (0 if running[0] > running[1] else 1)
            assert (result.status, result.winner) == (Status.FINISHED, winner)
            return
    assert result.totals == running
    assert (result.status, result.winner) == (Status.IN_PROGRESS, None)
    assert result.state.progress.barred == barred


@MATCHES
@given(matches())
def test_the_deals_order_decides_the_sheet(match):
    """The same deals in the same order give the same sheet; a match stored between deals goes on as a
    full replay does; without held points every row is its deal scored alone."""
    played, options, first_dealer = match
    played, result = play(played, options, first_dealer)
    again = sheet(list(played), first_dealer, **dict(options))
    assert again == result
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(result.to_dict(), sort_keys=True)
    opts = COINCHE.options(options)
    cut = len(played) // 2
    state = MatchState.from_dict(
        json.loads(json.dumps(sheet(played[:cut], first_dealer, **options).state.to_dict()))
    )
    for one in played[cut:]:
        state, _ = step(COINCHE, opts, state, one)
    assert state == result.state
    assert sheet_of(COINCHE, opts, state).to_dict() == {**result.to_dict(), "deals": []}
    if options.get("litige") != "held":
        for row in result.rows:
            assert row.scores == coinche(row.deal, **options).scores

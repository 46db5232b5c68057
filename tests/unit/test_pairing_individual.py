"""Individual movements: the bounds of EVENTS.md, fair sit-outs, pairs kept apart, late changes."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    IndividualRound,
    PairingError,
    Seat4,
    individual_next_round,
    individual_schedule,
    movement_quality,
)

BOUNDED = settings(max_examples=30, deadline=None)
CONSTRUCTED = (4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 56, 64)


def assert_valid(rounds: list[IndividualRound], players: list[int]) -> None:
    """Every player at one table or sitting out, tables of four different players, n mod 4 out."""
    for rnd in rounds:
        seated = [p for table in rnd.tables for p in table.players]
        assert sorted(seated + list(rnd.sitting_out)) == sorted(players)
        assert len(rnd.sitting_out) == len(players) % 4
        assert all(len(set(table.players)) == 4 for table in rnd.tables)


def profile(rounds: list[IndividualRound]) -> list[tuple[int, int]]:
    """(repeated partners, repeated opponent pairs) after each round, as EVENTS.md counts them."""
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    out = []
    for rnd in rounds:
        for table in rnd.tables:
            partners.update([frozenset(table.north_south), frozenset(table.east_west)])
            opponents.update(frozenset((x, y)) for x in table.north_south for y in table.east_west)
        out.append((sum(partners.values()) - len(partners), sum(opponents.values()) - len(opponents)))
    return out


def fewest_opponent_repeats(n: int, r: int) -> int:
    """EVENTS.md: none up to n/2 − 1 rounds (12 players: 4, and 2 at 5), then n·R − n(n − 1)/2."""
    if n == 12 and r == 5:
        return 2
    return max(0, n * r - n * (n - 1) // 2)


# ---------------------------------------------------------------------------------------------
# The bounds.


@pytest.mark.parametrize(
    ("players", "rounds", "partners", "opponents"),
    [
        pytest.param(8, 3, 0, 0, id="8-players-3-rounds-nothing-repeats"),
        pytest.param(16, 7, 0, 0, id="16-players-7-rounds-nothing-repeats"),
        pytest.param(20, 9, 0, 0, id="20-players-9-rounds-nothing-repeats"),
        pytest.param(24, 11, 0, 0, id="24-players-11-rounds-nothing-repeats"),
        pytest.param(28, 13, 0, 0, id="28-players-13-rounds-nothing-repeats"),
        pytest.param(32, 15, 0, 0, id="32-players-15-rounds-nothing-repeats"),
        pytest.param(12, 4, 0, 0, id="12-players-4-rounds-nothing-repeats"),
        pytest.param(12, 5, 0, 2, id="12-players-5-rounds-2-opponent-repeats"),
        pytest.param(12, 6, 0, 6, id="12-players-6-rounds-every-pair-met"),
        pytest.param(8, 4, 0, 4, id="8-players-4-rounds-every-pair-met"),
        pytest.param(16, 8, 0, 8, id="16-players-8-rounds-every-pair-met"),
        pytest.param(20, 10, 0, 10, id="20-players-10-rounds-every-pair-met"),
        pytest.param(8, 7, 0, 28, id="8-players-a-whole-round-robin-of-partners"),
        pytest.param(16, 15, 0, 120, id="16-players-a-whole-round-robin-of-partners"),
        pytest.param(32, 31, 0, 496, id="32-players-a-whole-round-robin-of-partners"),
    ],
)
def test_the_bounds_of_events_md(players, rounds, partners, opponents):
    quality = movement_quality(individual_schedule(range(players), rounds))
    assert (quality.repeated_partner_pairs, quality.repeated_opponent_pairs) == (partners, opponents)


@pytest.mark.parametrize("n", [n for n in CONSTRUCTED if n != 12])
def test_every_prefix_of_a_whole_movement_reaches_the_bounds(n):
    """No partner repeats in n − 1 rounds; after R rounds the fewest opponent repeats, every R."""
    players = list(range(100, 100 + n))
    movement = individual_schedule(players, n - 1, seed=5)
    assert_valid(movement, players)
    assert profile(movement) == [(0, fewest_opponent_repeats(n, r)) for r in range(1, n)]


def test_twelve_players_reach_the_bounds_for_every_number_of_rounds():
    for r in range(1, 12):
        movement = individual_schedule(range(12), r, seed=r)
        assert profile(movement)[-1] == (0, fewest_opponent_repeats(12, r))


@pytest.mark.parametrize("n", CONSTRUCTED)
def test_in_n_minus_1_rounds_every_two_players_partner_exactly_once(n):
    partners = Counter(
        frozenset(pair)
        for rnd in individual_schedule(range(n), n - 1)
        for table in rnd.tables
        for pair in (table.north_south, table.east_west)
    )
    assert set(partners) == {frozenset(pair) for pair in itertools.combinations(range(n), 2)}
    assert set(partners.values()) == {1}


@pytest.mark.parametrize("n", [8, 16, 20, 32])
def test_a_shorter_movement_is_the_start_of_a_longer_one(n):
    assert (
        individual_schedule(range(n), n // 2, seed=3)
        == individual_schedule(range(n), n - 1, seed=3)[: n // 2]
    )


def test_beyond_n_minus_1_rounds_partners_repeat_as_little_as_possible():
    """8 players, 9 rounds: every pair has partnered once by round 7; rounds 8 and 9 add 4 each."""
    quality = movement_quality(individual_schedule(range(8), 9))
    assert quality.repeated_partner_pairs == 8
    assert quality.max_partner_repeats == 1


@pytest.mark.parametrize(
    ("players", "rounds"),
    # No repeat at all, as measured (the table in docs/organizer/individual.md).
    [(9, 3), (10, 4), (11, 4), (13, 4), (14, 4), (15, 6), (17, 6), (18, 7), (19, 8), (21, 8), (23, 10)],
)
def test_with_sit_outs_the_first_rounds_repeat_nobody(players, rounds):
    assert profile(individual_schedule(range(players), rounds))[-1] == (0, 0)


@pytest.mark.parametrize("players", [5, 6, 7, 9, 10, 11, 13, 14, 15])
def test_with_sit_outs_no_partner_repeats_in_n_minus_1_rounds(players):
    assert movement_quality(individual_schedule(range(players), players - 1)).repeated_partner_pairs == 0


# ---------------------------------------------------------------------------------------------
# Seeds and order.


@pytest.mark.parametrize("n", [10, 16])
def test_the_same_players_rounds_and_seed_give_the_same_movement(n):
    players = [7 * k + 3 for k in range(n)]
    shuffled = random.Random(1).sample(players, n)
    first = individual_schedule(players, 6, seed=4)
    assert individual_schedule(players, 6, seed=4) == first
    assert individual_schedule(shuffled, 6, seed=4) == first  # the order given does not matter


@pytest.mark.parametrize("n", [10, 16, 17])
def test_other_seeds_give_other_movements(n):
    movements = {tuple(individual_schedule(range(n), 5, seed=seed)) for seed in range(5)}
    assert len(movements) == 5


# ---------------------------------------------------------------------------------------------
# Sit-outs.


@pytest.mark.parametrize(
    ("n", "rounds"), [(5, 8), (6, 9), (7, 10), (9, 12), (10, 11), (11, 12), (14, 10), (15, 12), (23, 9)]
)
def test_sit_outs_are_spread_evenly(n, rounds):
    """After every round the counts differ by at most one (so no one sits out twice before
    everyone has once), and no one sits out two rounds running."""
    players = list(range(n))
    movement = individual_schedule(players, rounds)
    assert_valid(movement, players)
    counts = Counter({p: 0 for p in players})
    for before, rnd in itertools.pairwise([IndividualRound(()), *movement]):
        counts.update(rnd.sitting_out)
        assert max(counts.values()) - min(counts.values()) <= 1
        assert not set(before.sitting_out) & set(rnd.sitting_out)
    assert movement_quality(movement).sit_out_spread <= 1


# ---------------------------------------------------------------------------------------------
# Pairs to keep apart.


def partnered(movement: list[IndividualRound]) -> set[frozenset[int]]:
    return {
        frozenset(pair)
        for rnd in movement
        for table in rnd.tables
        for pair in (table.north_south, table.east_west)
    }


@pytest.mark.parametrize(("n", "rounds"), [(16, 7), (24, 11), (10, 6), (13, 8)])
def test_pairs_to_keep_apart_do_not_partner_when_possible(n, rounds):
    avoid = {frozenset((k, k + 1)) for k in range(0, n - 1, 2)}
    movement = individual_schedule(range(n), rounds, avoid=avoid)
    assert not partnered(movement) & avoid
    partners, opponents = profile(movement)[-1]
    plain_partners, plain_opponents = profile(individual_schedule(range(n), rounds))[-1]
    assert partners == plain_partners == 0
    if n % 4 == 0:  # a construction only relabels the players: at no cost at all
        assert opponents == plain_opponents


@pytest.mark.parametrize("n", [8, 16, 24])
def test_pairs_to_keep_apart_partner_as_late_as_possible_whatever_the_rounds(n):
    """In n − 1 rounds everyone partners everyone: the avoided pairs do so in the last rounds,
    and the movement does not depend on how many rounds follow."""
    avoid = {frozenset((k, k + 1)) for k in range(0, n // 2, 2)}
    movement = individual_schedule(range(n), n - 1, seed=1, avoid=avoid)
    clashes = [r for r, rnd in enumerate(movement, 1) if partnered([rnd]) & avoid]
    assert min(clashes) > n // 2
    assert individual_schedule(range(n), n // 2, seed=1, avoid=avoid) == movement[: n // 2]


@pytest.mark.parametrize(("n", "rounds"), [(8, 3), (9, 5), (16, 15)])
def test_pairs_to_keep_apart_never_block_the_movement(n, rounds):
    """Everyone is to keep apart from player 0: he still partners someone, and no one twice."""
    avoid = {frozenset((0, k)) for k in range(1, n)}
    movement = individual_schedule(range(n), rounds, avoid=avoid)
    assert_valid(movement, list(range(n)))
    assert len(partnered(movement) & avoid) == rounds - sum(0 in rnd.sitting_out for rnd in movement)
    assert profile(movement)[-1][0] == 0
    if n % 4 == 0:
        assert profile(movement) == profile(individual_schedule(range(n), rounds))


def test_pairs_to_keep_apart_with_a_player_not_in_the_event_are_ignored():
    assert individual_schedule(range(8), 3, avoid={frozenset((1, 99))}) == individual_schedule(range(8), 3)


def test_a_pair_to_keep_apart_names_two_players():
    with pytest.raises(PairingError, match="two players"):
        individual_schedule(range(8), 3, avoid={frozenset((1,))})


def test_the_next_round_keeps_a_pair_apart():
    for seed in range(5):
        rnd = individual_next_round(range(8), [], seed=seed, avoid={frozenset((0, 1))})
        assert frozenset((0, 1)) not in partnered([rnd])


# ---------------------------------------------------------------------------------------------
# One more round: withdrawals and late entries.


def test_after_a_withdrawal_the_next_rounds_repeat_no_partner_and_spread_the_sit_outs():
    history = individual_schedule(range(16), 5)
    players = [p for p in range(16) if p != 7]
    later: list[IndividualRound] = []
    for _ in range(5):
        rnd = individual_next_round(players, history + later)
        assert_valid([rnd], players)
        later.append(rnd)
    assert profile(history + later)[-1][0] == 0
    assert sorted(p for rnd in later for p in rnd.sitting_out) == players  # everyone once in 5


def test_the_first_round_after_a_withdrawal_repeats_nobody():
    history = individual_schedule(range(20), 6)
    rnd = individual_next_round([p for p in range(20) if p != 3], history)
    assert profile([*history, rnd])[-1] == (0, 0)


def test_a_late_entry_credited_with_a_sit_out_does_not_sit_out_first():
    history = individual_schedule(range(12), 4)
    for seed in range(6):
        rnd = individual_next_round([*range(12), 99], history, seed=seed, sat_out_counts={99: 1})
        assert rnd.sitting_out != (99,)
        assert len(rnd.sitting_out) == 1


def test_the_sit_outs_of_history_are_counted():
    history = individual_schedule(range(9), 8)
    sat = Counter(p for rnd in history for p in rnd.sitting_out)
    (never,) = set(range(9)) - set(sat)
    assert individual_next_round(range(9), history).sitting_out == (never,)


def test_the_next_round_is_deterministic_and_seeded():
    history = individual_schedule(range(14), 3)
    assert individual_next_round(range(14), history, seed=2) == individual_next_round(
        range(14), history, seed=2
    )
    assert len({individual_next_round(range(14), history, seed=s) for s in range(4)}) > 1


# ---------------------------------------------------------------------------------------------
# Speed, errors, the count itself.


def test_64_players_are_drawn_quickly():
    started = time.perf_counter()
    for n in (61, 62, 63, 64):
        individual_schedule(range(n), 8)
    assert time.perf_counter() - started < 2.0
    history = individual_schedule(range(64), 30)
    started = time.perf_counter()
    individual_next_round(range(1, 64), history)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        pytest.param(lambda: individual_schedule([1, 2, 3], 2), "at least four", id="three-players"),
        pytest.param(lambda: individual_schedule(range(8), 0), "at least one round", id="no-round"),
        pytest.param(lambda: individual_schedule([1, 2, 3, 4, 2], 2), "listed twice", id="twice"),
        pytest.param(lambda: individual_next_round([1, 2], []), "at least four", id="next-two-players"),
        pytest.param(lambda: individual_next_round([1, 2, 3, 4, 4], []), "listed twice", id="next-twice"),
    ],
)
def test_what_cannot_be_drawn_is_refused_in_plain_words(call, message):
    with pytest.raises(PairingError, match=message):
        call()


def test_movement_quality_counts_meetings_beyond_the_first():
    same = IndividualRound((Seat4((1, 2), (3, 4)),), (5,))
    other = IndividualRound((Seat4((1, 3), (2, 5)),), (4,))
    quality = movement_quality([same, same, other])
    assert quality.rounds == 3
    assert quality.repeated_partner_pairs == 2  # 1-2 and 3-4 again
    assert quality.repeated_opponent_pairs == 4 + 1  # the four pairs again, then 2 and 3 once more
    assert quality.max_partner_repeats == 1
    assert quality.max_opponent_meetings == 3  # 2 and 3: opponents twice, then once more
    assert quality.sit_outs == {1: 0, 2: 0, 3: 0, 4: 1, 5: 2}
    assert quality.sit_out_spread == 2


@BOUNDED
@given(
    n=st.integers(min_value=4, max_value=40),
    rounds=st.integers(min_value=1, max_value=10),
    seed=st.integers(min_value=0, max_value=3),
)
def test_every_movement_seats_everyone_once_a_round_and_sits_out_fairly(n, rounds, seed):
    players = list(range(1000, 1000 + n))
    movement = individual_schedule(players, rounds, seed=seed)
    assert len(movement) == rounds
    assert_valid(movement, players)
    counts = Counter({p: 0 for p in players})
    for rnd in movement:
        counts.update(rnd.sitting_out)
        assert max(counts.values()) - min(counts.values()) <= 1
    if rounds <= 4 and n >= 16:
        assert profile(movement)[-1] == (0, 0)

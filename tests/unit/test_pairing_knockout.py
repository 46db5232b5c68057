"""A seeded knockout: the standard bracket order, byes to the top seeds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Pair, PairingError, bracket_order, knockout_bracket, knockout_next

BOUNDED = settings(max_examples=100, deadline=None)


def written(pairs: list[Pair]) -> str:
    return " ".join(f"{p.a}-{'bye' if p.b is None else p.b}" for p in pairs)


@pytest.mark.parametrize(
    ("teams", "first_round"),
    [
        pytest.param(2, "1-2", id="2"),
        pytest.param(3, "1-bye 2-3", id="3"),
        pytest.param(4, "1-4 2-3", id="4"),
        pytest.param(5, "1-bye 4-5 2-bye 3-bye", id="5"),
        pytest.param(6, "1-bye 4-5 2-bye 3-6", id="6"),
        pytest.param(7, "1-bye 4-5 2-7 3-6", id="7"),
        pytest.param(8, "1-8 4-5 2-7 3-6", id="8"),
        pytest.param(12, "1-bye 8-9 4-bye 5-12 2-bye 7-10 3-bye 6-11", id="12"),
        pytest.param(16, "1-16 8-9 4-13 5-12 2-15 7-10 3-14 6-11", id="16"),
    ],
)
def test_the_first_round_in_bracket_order(teams, first_round):
    assert written(knockout_bracket(range(1, teams + 1))) == first_round


def test_seeds_are_the_entries_in_the_order_given():
    assert knockout_bracket([70, 60, 50, 40]) == [Pair(70, 40), Pair(60, 50)]


def test_the_next_round_pairs_neighbouring_winners():
    assert knockout_next([1, 5, 2, 6]) == [Pair(1, 5), Pair(2, 6)]
    assert knockout_next([5, 2]) == [Pair(5, 2)]


@pytest.mark.parametrize("size", [1, 2, 4, 8, 16, 32])
def test_the_bracket_order_has_every_seed_once(size):
    assert sorted(bracket_order(size)) == list(range(1, size + 1))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        pytest.param(lambda: knockout_bracket([7]), "at least two", id="one-seed"),
        pytest.param(lambda: knockout_bracket([]), "at least two", id="no-seed"),
        pytest.param(lambda: knockout_bracket([1, 2, 1]), "listed twice", id="seed-twice"),
        pytest.param(lambda: knockout_next([4]), "over", id="one-winner"),
        pytest.param(lambda: knockout_next([4, 5, 6]), "3 winners", id="odd-winners"),
        pytest.param(lambda: knockout_next([4, 4]), "listed twice", id="winner-twice"),
        pytest.param(lambda: bracket_order(6), "power of two", id="not-a-power-of-two"),
    ],
)
def test_mistakes_are_explained(call, message):
    with pytest.raises(PairingError, match=message):
        call()


def play_out(seeds: list[int], winner) -> list[list[Pair]]:
    """Every round of the knockout; ``winner(pair)`` picks who goes through."""
    rounds = [knockout_bracket(seeds)]
    while True:
        winners = [pair.a if pair.b is None else winner(pair) for pair in rounds[-1]]
        if len(winners) == 1:
            return rounds
        rounds.append(knockout_next(winners))


@BOUNDED
@given(teams=st.integers(min_value=2, max_value=64))
def test_byes_go_to_the_top_seeds(teams):
    size = 1 << (teams - 1).bit_length()
    first = knockout_bracket(range(1, teams + 1))
    assert len(first) == size // 2
    assert sorted(e for pair in first for e in pair.entries) == list(range(1, teams + 1))
    assert sorted(pair.a for pair in first if pair.b is None) == list(range(1, size - teams + 1))
    assert all(pair.b is None or pair.a < pair.b for pair in first)


@BOUNDED
@given(teams=st.integers(min_value=2, max_value=64))
def test_when_the_better_seed_always_wins_it_is_best_against_worst_every_round(teams):
    rounds = play_out(list(range(1, teams + 1)), winner=lambda pair: min(pair.a, pair.b))
    for number, rnd in enumerate(rounds):
        left = (1 << (teams - 1).bit_length()) >> number  # teams (or empty slots) left in this round
        assert {pair.a + (pair.b or left + 1 - pair.a) for pair in rnd} == {left + 1}
    assert rounds[-1] == [Pair(1, 2)]


@BOUNDED
@given(teams=st.integers(min_value=2, max_value=64), seed=st.integers(min_value=0, max_value=2**32))
def test_seeds_one_and_two_can_only_meet_in_the_final(teams, seed):
    rng = random.Random(seed)
    rounds = play_out(list(range(1, teams + 1)), winner=lambda pair: rng.choice(pair.entries))
    for rnd in rounds[:-1]:
        assert all(set(pair.entries) != {1, 2} for pair in rnd)
    assert len(rounds[-1]) == 1
    assert len(rounds) == (teams - 1).bit_length()

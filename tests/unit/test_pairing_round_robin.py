"""Round robin by Berger tables: the published tables, and what holds for every size."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Pair, PairingError, round_robin

BOUNDED = settings(max_examples=60, deadline=None)

# FIDE Handbook C.05, Annex 1 (Berger tables), home team first.
BERGER = {
    4: [
        "1-4 2-3",
        "4-3 1-2",
        "2-4 3-1",
    ],
    6: [
        "1-6 2-5 3-4",
        "6-4 5-3 1-2",
        "2-6 3-1 4-5",
        "6-5 1-4 2-3",
        "3-6 4-2 5-1",
    ],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
}
# Seven teams: the table for eight, number 8 being the bye (listed last).
SEVEN = [
    "2-7 3-6 4-5 1-bye",
    "6-4 7-3 1-2 5-bye",
    "3-1 4-7 5-6 2-bye",
    "7-5 1-4 2-3 6-bye",
    "4-2 5-1 6-7 3-bye",
    "1-6 2-5 3-4 7-bye",
    "5-3 6-2 7-1 4-bye",
]


def written(rounds: list[list[Pair]]) -> list[str]:
    return [" ".join(f"{p.a}-{'bye' if p.b is None else p.b}" for p in rnd) for rnd in rounds]


@pytest.mark.parametrize("n", sorted(BERGER))
def test_the_rounds_are_the_berger_tables(n):
    assert written(round_robin(range(1, n + 1))) == BERGER[n]


def test_seven_teams_play_the_table_for_eight_with_a_bye():
    assert written(round_robin(range(1, 8))) == SEVEN


def test_the_first_entry_given_is_number_one():
    assert round_robin([40, 30, 20, 10])[0] == [Pair(40, 10), Pair(30, 20)]


@pytest.mark.parametrize(
    ("entries", "rounds"),
    [
        pytest.param([], [], id="nobody"),
        pytest.param([5], [[Pair(5, None)]], id="one-team-sits-out"),
        pytest.param([5, 9], [[Pair(5, 9)]], id="two-teams"),
        pytest.param(
            [5, 9, 7],
            [[Pair(9, 7), Pair(5, None)], [Pair(5, 9), Pair(7, None)], [Pair(7, 5), Pair(9, None)]],
            id="three-teams",
        ),
    ],
)
def test_small_fields(entries, rounds):
    assert round_robin(entries) == rounds


def test_a_team_listed_twice_is_refused():
    with pytest.raises(PairingError, match="listed twice"):
        round_robin([1, 2, 3, 2])


@BOUNDED
@given(n=st.integers(min_value=2, max_value=24), offset=st.integers(min_value=0, max_value=1000))
def test_every_pair_meets_exactly_once_and_every_team_plays_once_a_round(n, offset):
    entries = list(range(offset, offset + n))
    rounds = round_robin(entries)

    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for rnd in rounds:
        seated = [e for pair in rnd for e in pair.entries]
        assert sorted(seated) == entries
        byes = [pair.a for pair in rnd if pair.b is None]
        assert len(byes) == n % 2
        assert rnd[-1].b is None or n % 2 == 0  # the bye is listed last
    meetings = Counter(frozenset((p.a, p.b)) for rnd in rounds for p in rnd if p.b is not None)
    assert set(meetings) == {frozenset(pair) for pair in itertools.combinations(entries, 2)}
    assert set(meetings.values()) == {1}
    if n % 2:
        assert sorted(p.a for rnd in rounds for p in rnd if p.b is None) == entries


@BOUNDED
@given(n=st.integers(min_value=2, max_value=24))
def test_home_and_away_alternate_as_in_berger_tables(n):
    """Never three home or three away games in a row (two at most, only with an even number);
    home and away games differ by at most one."""
    rounds = round_robin(range(n))
    for team in range(n):
        sides = [
            "home" if pair.a == team else "away"
            for rnd in rounds
            for pair in rnd
            if pair.b is not None and team in pair.entries
        ]
        longest = max(len(list(run)) for _, run in itertools.groupby(sides))
        assert longest <= (2 if n % 2 == 0 else 1)
        assert abs(sides.count("home") - sides.count("away")) <= 1

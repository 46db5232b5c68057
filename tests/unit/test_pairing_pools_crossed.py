"""The knockout after pools crosses the pools in its first round, whatever the number of pools
(tournaments.pairing.pools.pool_bracket): two teams of one pool meet there only when the bracket
leaves no other way."""

import itertools
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Pair, knockout_bracket, knockout_next, pool_bracket


def placed_pools(count: int, sizes: list[int]) -> dict[str, list[int]]:
    """``count`` pools, lettered; entry ``100 * pool + place`` (pool from 1, place from 0)."""
    return {string.ascii_uppercase[p]: [100 * (p + 1) + i for i in range(sizes[p])] for p in range(count)}


def pool_of(entry: int) -> int:
    return entry // 100


def place_of(entry: int) -> int:
    return entry % 100


def same_pool(pairs: list[Pair]) -> list[Pair]:
    return [p for p in pairs if p.b is not None and pool_of(p.a) == pool_of(p.b)]


def plain(placed: dict[str, list[int]], per_pool: int) -> list[int]:
    """The seeds as the bracket took them before: the winners in the pools' order, then the runners-up …"""
    return [placed[letter][place] for place in range(per_pool) for letter in sorted(placed)]


def a_crossed_bracket_exists(placed: dict[str, list[int]], per_pool: int) -> bool:
    """By brute force: some order of the pools within each place gives a first round in which no
    table holds two teams of one pool."""
    letters = sorted(placed)
    orders = itertools.permutations(letters)
    for choice in itertools.product(list(orders), repeat=per_pool):
        seeds = [placed[letter][place] for place, order in enumerate(choice) for letter in order]
        if not same_pool(knockout_bracket(seeds)):
            return True
    return False


def test_three_pools_two_a_pool_no_longer_pair_a_pool_with_itself():
    placed = placed_pools(3, [3, 3, 3])
    assert same_pool(knockout_bracket(plain(placed, 2)))  # the plain seeding paired C1 with C2
    pairs = pool_bracket(placed, 2)
    assert same_pool(pairs) == []
    assert [p.b for p in pairs].count(None) == 2  # two pool winners still have the byes
    assert {p.a for p in pairs if p.b is None} <= {100, 200, 300}
    # A bracket that crosses already is kept as it was; a single pool has no other way.
    for kept, per_pool in (
        (placed_pools(4, [2, 2, 2, 2]), 1),
        (placed_pools(2, [4, 4]), 3),
        (placed_pools(1, [6]), 4),
    ):
        assert pool_bracket(kept, per_pool) == knockout_bracket(plain(kept, per_pool))


def test_three_pools_four_a_pool_cross_in_every_first_round_match():
    pairs = pool_bracket(placed_pools(3, [4, 4, 5]), 4)
    assert same_pool(pairs) == []
    assert sorted(e for p in pairs for e in p.entries) == sorted(
        100 * p + i for p in (1, 2, 3) for i in range(4)
    )


@settings(max_examples=300, deadline=None)
@given(
    count=st.integers(min_value=1, max_value=12),
    sizes=st.lists(st.integers(min_value=3, max_value=8), min_size=12, max_size=12),
    per_pool=st.integers(min_value=1, max_value=8),
)
def test_no_pool_meets_itself_in_the_first_round_when_a_crossed_bracket_exists(count, sizes, per_pool):
    sizes = sizes[:count]
    per_pool = min(per_pool, min(sizes))
    if count * per_pool < 2:
        return  # a knockout of one team: nothing to draw
    placed = placed_pools(count, sizes)
    pairs = pool_bracket(placed, per_pool)
    qualified = [e for letter in placed for e in placed[letter][:per_pool]]
    assert sorted(e for p in pairs for e in p.entries) == sorted(qualified)  # each qualifier once
    # The seeding stands: each table pairs the same places as the plain bracket (winners keep the
    # byes, a winner meets a runner-up where it did), only the pools within a place turned.
    before = knockout_bracket(plain(placed, per_pool))
    assert [(place_of(p.a), p.b and place_of(p.b)) for p in pairs] == [
        (place_of(p.a), p.b and place_of(p.b)) for p in before
    ]
    if count >= 2:  # two pools or more: a crossed first round always exists (one pool has none)
        assert same_pool(pairs) == []
    else:
        assert pairs == before


@settings(max_examples=150, deadline=None)
@given(count=st.integers(min_value=1, max_value=4), per_pool=st.integers(min_value=1, max_value=3))
def test_a_crossed_first_round_whenever_brute_force_finds_one(count, per_pool):
    if count * per_pool < 2:
        return
    placed = placed_pools(count, [3] * count)
    assert (same_pool(pool_bracket(placed, per_pool)) == []) == a_crossed_bracket_exists(placed, per_pool)


def test_six_pools_two_a_pool_make_a_bracket_that_plays_out_to_a_final():
    """Twelve teams are no full bracket: four pool winners have a bye (before, six first-round
    matches left three winners, and the next round could not be drawn)."""
    pairs = pool_bracket(placed_pools(6, [3] * 6), 2)
    assert len(pairs) == 8 and [p.b for p in pairs].count(None) == 4
    assert same_pool(pairs) == []
    left = [p.a for p in pairs]  # the listed team goes through, round after round
    while len(left) > 1:
        left = [p.a for p in knockout_next(left)]
    assert len(left) == 1

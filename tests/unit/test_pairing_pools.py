"""Pools and the knockout that crosses them (tournaments.pairing.pools)."""

import pytest

from tournaments.pairing import Pair, PairingError, make_pools, pool_bracket


@pytest.mark.parametrize(
    ("n", "size", "sizes"),
    [
        (8, 4, [4, 4]),
        (12, 4, [4, 4, 4]),
        (13, 4, [4, 3, 3, 3]),
        (9, 3, [3, 3, 3]),
        (10, 5, [5, 5]),
        (16, 8, [8, 8]),
    ],
)
def test_pools_are_even_and_filled_as_a_snake(n, size, sizes):
    pools = make_pools(list(range(1, n + 1)), size)
    assert sorted(pools) == [chr(65 + i) for i in range(len(sizes))]
    assert sorted((len(p) for p in pools.values()), reverse=True) == sizes
    assert sorted(e for p in pools.values() for e in p) == list(range(1, n + 1))
    # Seeds 1 … k head the k pools; the next k go back the other way (the snake).
    k = len(sizes)
    assert [pools[letter][0] for letter in sorted(pools)] == list(range(1, k + 1))
    assert [pools[letter][1] for letter in sorted(pools)] == list(range(2 * k, k, -1))


@pytest.mark.parametrize(("n", "size"), [(5, 4), (2, 3), (4, 9), (4, 2)])
def test_pools_that_cannot_be_made_are_refused(n, size):
    with pytest.raises(PairingError):
        make_pools(list(range(n)), size)


def test_two_a_pool_cross_as_at_the_world_cup():
    placed = {"A": [1, 2, 3], "B": [4, 5, 6], "C": [7, 8, 9], "D": [10, 11, 12]}
    assert pool_bracket(placed, 2) == [Pair(1, 5), Pair(7, 11), Pair(4, 2), Pair(10, 8)]


def test_pool_winners_only_are_seeded_by_pool():
    placed = {"A": [1, 2], "B": [3, 4], "C": [5, 6], "D": [7, 8]}
    assert pool_bracket(placed, 1) == [Pair(1, 7), Pair(3, 5)]


def test_a_pool_too_small_for_its_qualifiers_is_refused():
    with pytest.raises(PairingError, match="Pool B"):
        pool_bracket({"A": [1, 2, 3], "B": [4, 5]}, 3)

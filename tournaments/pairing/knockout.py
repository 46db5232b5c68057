"""A seeded single-elimination bracket.

The bracket has ``P`` slots, the smallest power of two at least the number of
seeds. The slots are in the standard seeding order, built by doubling: start
from ``[1, 2]`` and replace every seed ``s`` by ``s, 2m + 1 - s`` where ``m``
is the current size, so that the seeds of each pair add up to ``2m + 1``::

    2:  1 2
    4:  1 4  2 3
    8:  1 8  4 5  2 7  3 6
    16: 1 16  8 9  4 13  5 12  2 15  7 10  3 14  6 11

So the first round is 1 v P, P/2 v P/2+1 …; seeds 1 and 2 are in opposite
halves (they can only meet in the final), 1 … 4 in different quarters, and
when the better seed always wins, every round is again "best v worst".
A seed above the number of teams is an empty slot: the seed facing it (always
one of the top seeds, the top ``P - N``) has a bye.
"""

from __future__ import annotations

from collections.abc import Sequence

from .types import Pair, PairingError, distinct


def bracket_order(size: int) -> list[int]:
    """The seeds 1 … size (a power of two) in bracket order: 8 → 1, 8, 4, 5, 2, 7, 3, 6."""
    if size < 1 or size & (size - 1):
        raise PairingError(f"A bracket has a power of two of places, not {size}.")
    order = [1]
    while len(order) < size:
        m = 2 * len(order)
        order = [seed for s in order for seed in (s, m + 1 - s)]
    return order


def knockout_bracket(seeds: Sequence[int]) -> list[Pair]:
    """The first round of a bracket for ``seeds`` (best first), in bracket order, byes in place.

    Keep the tables in this order (byes included): ``knockout_next`` pairs the
    winners in the same order.
    """
    teams = list(seeds)
    distinct(teams)
    if len(teams) < 2:
        raise PairingError("A knockout needs at least two teams.")
    size = 1 << (len(teams) - 1).bit_length()
    order = bracket_order(size)
    pairs = []
    for k in range(0, size, 2):
        better, worse = order[k], order[k + 1]
        pairs.append(Pair(teams[better - 1], teams[worse - 1] if worse <= len(teams) else None))
    return pairs


def knockout_next(winners: Sequence[int]) -> list[Pair]:
    """The next round from the last round's winners in bracket order: 1st v 2nd, 3rd v 4th …"""
    teams = list(winners)
    distinct(teams)
    if len(teams) < 2:
        raise PairingError("The knockout is over: fewer than two teams are left.")
    if len(teams) % 2:
        raise PairingError(
            f"{len(teams)} winners cannot be paired; every match of the last round needs a winner."
        )
    return [Pair(teams[k], teams[k + 1]) for k in range(0, len(teams), 2)]

"""Pools, then a knockout: the teams split into pools of 3 to 8, a round robin in each, then the best
of each pool into a knockout whose first round crosses the pools.

- ``make_pools(entries, size)``: ``ceil(n / size)`` pools, filled in seed order as a snake (A B C D
  D C B A A B …), so that the pools are as even in strength as the seeds and differ in size by one
  at most. Pools are lettered A, B, C …
- ``pool_bracket(placed, per_pool)``: the knockout's first round from each pool's order. Two a pool
  from an even number of pools, as football's world cup: A1 v B2, C1 v D2 … in the top half and B1 v
  A2, D1 v C2 … in the bottom one, so that two teams of a pool meet again only in the final. Other
  numbers: a seeded bracket of every pool's winner (A1, B1 …), then every runner-up, and so on.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence

from .knockout import knockout_bracket
from .types import Pair, PairingError, distinct

MIN_POOL, MAX_POOL = 3, 8


def make_pools(entries: Sequence[int], size: int) -> dict[str, list[int]]:
    """The pools of ``entries`` (best seed first), about ``size`` teams each."""
    teams = list(entries)
    distinct(teams)
    if not MIN_POOL <= size <= MAX_POOL:
        raise PairingError(f"A pool has {MIN_POOL} to {MAX_POOL} teams, not {size}.")
    count = max(1, -(-len(teams) // size))
    if len(teams) < MIN_POOL * count or count > len(string.ascii_uppercase):
        raise PairingError(f"{len(teams)} teams cannot make pools of {MIN_POOL} to {MAX_POOL} teams.")
    pools: list[list[int]] = [[] for _ in range(count)]
    for k, team in enumerate(teams):
        lap, place = divmod(k, count)
        pools[place if lap % 2 == 0 else count - 1 - place].append(team)
    return {string.ascii_uppercase[i]: pool for i, pool in enumerate(pools)}


def pool_bracket(placed: Mapping[str, Sequence[int]], per_pool: int) -> list[Pair]:
    """The knockout's first round: the first ``per_pool`` of each pool (``placed``: each pool's
    entries in its standings' order), crossed so that two teams of one pool meet as late as can be."""
    letters = sorted(placed)
    if per_pool < 1:
        raise PairingError("At least one team of each pool goes to the knockout.")
    short = [letter for letter in letters if len(placed[letter]) < per_pool]
    if short:
        raise PairingError(f"Pool {short[0]} has fewer than {per_pool} teams.")
    if per_pool == 2 and len(letters) % 2 == 0:
        groups = [letters[k : k + 2] for k in range(0, len(letters), 2)]
        top = [Pair(placed[x][0], placed[y][1]) for x, y in groups]
        bottom = [Pair(placed[y][0], placed[x][1]) for x, y in groups]
        return top + bottom
    seeds = [placed[letter][place] for place in range(per_pool) for letter in letters]
    return knockout_bracket(seeds)

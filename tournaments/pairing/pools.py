"""Pools, then a knockout: the teams split into pools of 3 to 8, a round robin in each, then the best
of each pool into a knockout whose first round crosses the pools.

- ``make_pools(entries, size)``: ``ceil(n / size)`` pools, filled in seed order as a snake (A B C D
  D C B A A B …), so that the pools are as even in strength as the seeds and differ in size by one
  at most. Pools are lettered A, B, C …
- ``pool_bracket(placed, per_pool)``: the knockout's first round from each pool's order. Two a pool
  from 2, 4, 8 … pools (a full bracket), as football's world cup: A1 v B2, C1 v D2 … in the top half
  and B1 v A2, D1 v C2 … in the bottom one, so that two teams of a pool meet again only in the final.
  Other numbers (three or six pools, three a pool …): a seeded bracket of every pool's winner, then
  every runner-up, and so on, the pools of each place in the order that crosses the pools in the first
  round (A1, B1, C1 first; the pools of the seeds below turned as little as needed), so that two
  teams of one pool meet in the first round only when a single pool is left (the bracket leaves
  no other way).
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence

from .knockout import bracket_order, knockout_bracket
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
    count = len(letters)
    if per_pool == 2 and count >= 2 and count & (count - 1) == 0:  # 2, 4, 8 … pools: a full bracket
        groups = [letters[k : k + 2] for k in range(0, len(letters), 2)]
        top = [Pair(placed[x][0], placed[y][1]) for x, y in groups]
        bottom = [Pair(placed[y][0], placed[x][1]) for x, y in groups]
        return top + bottom
    return knockout_bracket(_crossed_seeds(placed, letters, per_pool))


SEARCH_LIMIT = 100_000  # steps; every bracket of up to 128 teams from two pools or more needs far fewer


def _crossed_seeds(placed: Mapping[str, Sequence[int]], letters: Sequence[str], per_pool: int) -> list[int]:
    """The seeds (best first) place by place, each place's pools in an order such that no first-round
    table of ``knockout_bracket`` holds two teams of one pool: the pools' own order where it crosses
    already, else the nearest turn of it, found by a depth-first search over the seeds in order. With
    one pool (nothing to cross) the pools' order."""
    count = len(letters)
    n = count * per_pool
    plain = [placed[letter][place] for place in range(per_pool) for letter in letters]
    if count < 2 or n < 2:
        return plain
    size = 1 << (n - 1).bit_length()
    order = bracket_order(size)
    facing: dict[int, int] = {}  # a seed's first-round opponent (seeds from 0), byes left out
    for k in range(0, size, 2):
        better, worse = order[k] - 1, order[k + 1] - 1
        if worse < n:
            facing[better], facing[worse] = worse, better
    pool_at: list[int] = [-1] * n  # the pool (its index) given each seed
    used: list[set[int]] = [set() for _ in range(per_pool)]
    steps = 0

    def fill(seed: int) -> bool:
        nonlocal steps
        if seed == n:
            return True
        place, k = divmod(seed, count)
        for turn in range(count):
            steps += 1
            if steps > SEARCH_LIMIT:
                return False
            pool = (k + turn) % count
            other = facing.get(seed)
            if pool in used[place] or (other is not None and other < seed and pool_at[other] == pool):
                continue
            pool_at[seed] = pool
            used[place].add(pool)
            if fill(seed + 1):
                return True
            used[place].discard(pool)
        pool_at[seed] = -1
        return False

    if not fill(0):
        return plain
    return [placed[letters[pool_at[seed]]][seed // count] for seed in range(n)]

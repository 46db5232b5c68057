"""Round robin by Berger tables (FIDE Handbook C.05, Annex 1).

The entries are numbered 1 … n in the order given; with an odd number a
dummy n + 1 joins and whoever meets it has the bye. Entry n stays put while
the others turn: in round r (0-based) they are read from number
``r * n/2 mod (n - 1) + 1`` onwards, the first of them meets n (n is at home
in the even-numbered rounds 2, 4 …, away in the odd ones), and the k-th
from the start meets the k-th from the end, the earlier one at home. For 8::

    Round 1: 1-8  2-7  3-6  4-5
    Round 2: 8-5  6-4  7-3  1-2
    Round 3: 2-8  3-1  4-7  5-6
    …
    Round 7: 4-8  5-3  6-2  7-1

This is Berger's own arrangement, so home and away alternate as his tables do.
"""

from __future__ import annotations

from collections.abc import Sequence

from .types import Pair, distinct


def round_robin(entries: Sequence[int]) -> list[list[Pair]]:
    """Every round of a round robin: n - 1 rounds (n even) or n rounds with one bye each (n odd).

    The team listed first in a ``Pair`` is at home; a round's bye comes last.
    """
    players = list(entries)
    distinct(players)
    if not players:
        return []
    odd = len(players) % 2 == 1
    n = len(players) + odd
    number = {k: players[k - 1] if k <= len(players) else None for k in range(1, n + 1)}

    rounds: list[list[Pair]] = []
    for r in range(n - 1):
        start = r * (n // 2) % (n - 1)
        turn = [(start + i) % (n - 1) + 1 for i in range(n - 1)]
        tables = [(turn[0], n) if r % 2 == 0 else (n, turn[0])]
        tables += [(turn[k], turn[n - 1 - k]) for k in range(1, n // 2)]
        pairs: list[Pair] = []
        bye: list[Pair] = []
        for home, away in tables:
            first, second = number[home], number[away]
            if second is None:
                assert first is not None  # only one dummy: it never meets itself
                bye.append(Pair(first, None))
            elif first is None:
                bye.append(Pair(second, None))
            else:
                pairs.append(Pair(first, second))
        rounds.append(pairs + bye)
    return rounds

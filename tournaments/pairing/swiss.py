"""Swiss pairing as a minimum-cost perfect matching (networkx's blossom algorithm).

The teams are put in standings order: score, then rank (position ``p`` = 0
for the best). Pairs of teams are the edges of a graph; with an odd number of
teams a "bye" vertex joins it, linked to every team. Each edge has an integer
cost, and ``networkx.max_weight_matching(G, maxcardinality=True)`` finds a
perfect matching of the largest weight, ``weight = TOP - cost`` (all
positive). Every perfect matching has the same number of edges, so the
largest weight is the smallest total cost.

The cost is lexicographic: each level outweighs everything below it put
together, so a lower level only breaks ties of the level above. From the
strongest to the weakest, for ``n`` teams with scores ``s_min`` … ``s_max``:

1. ``BYE_AGAIN`` (bye edge): the bye goes to a team that already had one.
   Only chosen when every team has had one: a Swiss never repeats a bye
   while a team is without one, even at the price of a rematch.
2. ``REMATCH`` (pair edge): the two teams have played each other. The
   pairing has the fewest rematches possible: none whenever a pairing
   without any exists (and the bye rule above holds).
3. ``BYE_RANK * (n - 1 - p)`` (bye edge): among the teams that may have it,
   the bye goes to the lowest placed.
4. ``SCORE * (s_a - s_b)²`` (pair edge): teams meet teams of equal or near
   score; the sum of the squared differences is smallest, so two tables one
   score group apart are preferred to one table two groups apart.
5. ``(p_a - p_b)²`` (pair edge): then neighbours in the standings meet
   (1 v 2, 3 v 4 …, the Monrad order of bridge Swiss teams events), and a team
   that floats down meets the best-placed team of the group below.

The units, with ``h = n // 2`` tables::

    SCORE     = h * (n - 1)² + 1                           > all of level 5
    BYE_RANK  = h * (s_max - s_min)² * SCORE + SCORE       > levels 4 + 5
    REMATCH   = n * BYE_RANK                               > levels 3 + 4 + 5
    BYE_AGAIN = (h + 1) * REMATCH                          > levels 2 … 5
    TOP       = 2 * BYE_AGAIN                              > any edge's cost

For 256 teams with scores 0 … 18: SCORE = 8 323 201, BYE_RANK ≈ 3.5·10¹¹,
REMATCH ≈ 8.8·10¹³, BYE_AGAIN ≈ 1.1·10¹⁶, TOP ≈ 2.3·10¹⁶. Python's integers
are exact at any size, so networkx never rounds.

Only the edges that can be in an optimal pairing are built, which keeps the
graph small (the blossom algorithm's time grows with the edges): a pair at
positions ``i < j`` is left out when ``j - i > 2 * m + 2``, where ``m``
counts the earlier meetings of ``i`` with a team of this round placed before
``j`` and of ``j`` with one placed after ``i``. Why: take an optimal pairing
with ``i`` v ``j``. A pair ``k`` v ``l`` inside (``i < k < l < j``) could be
re-paired ``i-k, l-j`` or ``i-l, k-j``; a pair crossing it (``x < i < k <
j`` or ``i < k < j < x``) could be re-paired ``x-i, k-j`` or ``i-k, j-x``.
Scores never rise down the order, so such a re-pairing lowers the position
term strictly and raises no other, unless one of its new pairs is a rematch:
each pair touching the gap needs its own one of those ``m`` meetings. So at
most ``m`` pairs touch the gap, which holds at most ``2 * m`` teams and the
bye. After 8 rounds of 256 teams that leaves about 4 900 of the 32 640 edges.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import networkx as nx

from .check import check_pairing
from .types import Pair, PairingError, SwissEntry, distinct


@dataclass(frozen=True)
class Weights:
    """The integer unit of each level of the cost (see the module's docstring)."""

    score: int
    bye_rank: int
    rematch: int
    bye_again: int
    top: int

    @classmethod
    def for_field(cls, teams: int, score_range: int) -> Weights:
        tables = teams // 2
        score = tables * (teams - 1) ** 2 + 1
        bye_rank = tables * score_range**2 * score + score
        rematch = teams * bye_rank
        bye_again = (tables + 1) * rematch
        return cls(score=score, bye_rank=bye_rank, rematch=rematch, bye_again=bye_again, top=2 * bye_again)


def swiss_pairs(entries: Sequence[SwissEntry], played: Collection[frozenset[int]]) -> list[Pair]:
    """The next Swiss round: tables in order, the bye (if the number is odd) last.

    ``played`` holds the pairs that met before (pairs with a team not in
    ``entries`` are ignored). Table 1 is the best-placed pair: tables are
    ordered by the higher score at the table, then the sum of both scores,
    then the better place (FIDE's board order); ``a`` is the better-placed
    team. The same input gives the same pairing, in whatever order it comes.
    """
    teams = sorted(entries, key=lambda e: (-e.score, e.rank, e.entry))
    distinct([team.entry for team in teams])
    n = len(teams)
    if n == 0:
        return []
    if n == 1:
        return [Pair(teams[0].entry, None)]

    scores = [team.score for team in teams]
    weights = Weights.for_field(n, scores[0] - scores[-1])
    position = {team.entry: p for p, team in enumerate(teams)}
    met: set[tuple[int, int]] = set()
    for pair in played:
        if len(pair) == 2 and all(entry in position for entry in pair):
            i, j = sorted(position[entry] for entry in pair)
            met.add((i, j))
    opponents: list[list[int]] = [[] for _ in range(n)]
    for i, j in met:
        opponents[i].append(j)
        opponents[j].append(i)
    for placed in opponents:
        placed.sort()
    most_met = max(len(placed) for placed in opponents)

    graph = nx.Graph()
    bye = n  # the bye vertex, after the teams 0 … n-1
    graph.add_nodes_from(range(n + n % 2))
    for i in range(n):
        for j in range(i + 1, min(n, i + 3 + 2 * (len(opponents[i]) + most_met))):
            # i's meetings with teams placed before j, j's with teams placed after i:
            relevant = bisect_left(opponents[i], j) + len(opponents[j]) - bisect_right(opponents[j], i)
            if j - i > 2 * relevant + 2:
                continue  # never in an optimal pairing (see the module's docstring)
            cost = (scores[i] - scores[j]) ** 2 * weights.score + (j - i) ** 2
            if (i, j) in met:
                cost += weights.rematch
            graph.add_edge(i, j, weight=weights.top - cost)
        if n % 2:
            cost = (n - 1 - i) * weights.bye_rank + (weights.bye_again if teams[i].had_bye else 0)
            graph.add_edge(i, bye, weight=weights.top - cost)

    matching = nx.max_weight_matching(graph, maxcardinality=True)

    tables: list[tuple[int, int]] = []
    bye_team: int | None = None
    for u, v in matching:
        i, j = min(u, v), max(u, v)
        if j == bye:
            bye_team = i
        else:
            tables.append((i, j))
    tables.sort(key=lambda t: (-scores[t[0]], -(scores[t[0]] + scores[t[1]]), t[0]))
    pairs = [Pair(teams[i].entry, teams[j].entry) for i, j in tables]
    if bye_team is not None:
        pairs.append(Pair(teams[bye_team].entry, None))

    try:
        check_pairing([team.entry for team in teams], pairs, byes=[t.entry for t in teams if t.had_bye])
    except PairingError as error:  # never expected: the matching is perfect by construction
        raise PairingError(f"The Swiss pairing came out wrong and was not used: {error}") from error
    return pairs

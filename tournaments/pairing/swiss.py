"""Swiss pairing as a minimum-cost perfect matching (rustworkx's blossom algorithm, 64-bit weights).

The teams are put in standings order: score, then rank (position ``p`` = 0
for the best). Pairs of teams are the edges of a graph; with an odd number of
teams a "bye" vertex joins it. Each edge has an integer cost, and
``rustworkx.max_weight_matching(G, max_cardinality=True)`` (Edmonds' blossom
algorithm in Rust, exact on integers) finds a perfect matching of the largest
weight, ``weight = TOP - cost`` (all positive). Every perfect matching has the
same number of edges, so the largest weight is the smallest total cost.

The rules, from the strongest to the weakest:

1. The bye goes to an *eligible* team: one that has not had a bye, or any
   team once every team has had one. A Swiss never repeats a bye while a team
   is without one, even at the price of a rematch. This is not a cost: only
   eligible teams get an edge to the bye vertex.
2. ``REMATCH`` (pair edge): the two teams have played each other. The
   pairing has the fewest rematches possible: none whenever a pairing
   without any exists (and rule 1 holds).
3. ``BYE_RANK * e`` (bye edge), ``e`` the number of eligible teams placed
   below the one with the bye: the bye goes to the lowest-placed eligible
   team. Among eligible teams ``e`` falls strictly as ``p`` rises, so it
   orders them as ``n - 1 - p`` does, with fewer values.
4. ``SCORE * (s_a - s_b)²`` (pair edge): teams meet teams of equal or near
   score; the sum of the squared differences is smallest, so two tables one
   score group apart are preferred to one table two groups apart.
5. ``(p_a - p_b)²`` (pair edge): then neighbours in the standings meet
   (1 v 2, 3 v 4 …, the Monrad order of bridge Swiss teams events), and a team
   that floats down meets the best-placed team of the group below.

The cost is lexicographic: each level outweighs everything below it put
together over a whole pairing, so a lower level only breaks ties of the level
above. The units are taken from the edges actually built (below): with
``h = n // 2`` tables, ``G`` the largest place difference ``p_b - p_a`` and
``D`` the largest score difference ``s_a - s_b`` of a pair edge, and ``E``
the largest ``e`` of a bye edge::

    SCORE    = h * G² + 1               > level 5: h tables, each ≤ G²
    BYE_RANK = (h * D² + 1) * SCORE     > levels 4 + 5: ≤ h·D²·SCORE + h·G²
    REMATCH  = (E + 1) * BYE_RANK       > levels 3 + 4 + 5: one bye, ≤ E·BYE_RANK
    TOP      = REMATCH + BYE_RANK       > any edge's cost

Rematches need no unit above them: one rematch more costs ``REMATCH``, more
than anything the lower levels can save. So the number of tables multiplies
the largest weight only twice, and the largest weight, ``TOP = (E + 2) *
(h * D² + 1) * (h * G² + 1)``, stays within 64 bits:

- ``D`` is at most the field's score range; ``G ≤ 2 * m + 2`` and ``E ≤ m``
  (both also ``≤ n - 1``), ``m`` being the most earlier opponents a team of
  this round has had, at most the rounds played (see the edges below).
- The largest field the product lets an organizer make: at most 30 rounds
  (``m ≤ 29`` before the last), at most 10 points for a result (``D ≤ 290``);
  with 5,000 teams (``h = 2,500``, ``G ≤ 60``, ``E ≤ 29``): ``TOP ≤ 31 ·
  (2,500·290² + 1) · (2,500·60² + 1) ≈ 5.9·10¹⁶ < 2⁶³ ≈ 9.2·10¹⁸``. The
  15th round of a 5,000-team Swiss at 3 points a win: ``TOP ≤ 16 ·
  (2,500·42² + 1) · (2,500·30² + 1) ≈ 1.6·10¹⁴``; the 9th of 256 teams at 2
  points a win: ``TOP ≤ 10 · (128·16² + 1) · (128·18² + 1) ≈ 1.4·10¹⁰``. At
  the product's extremes 2⁶³ is reached past 62,700 teams.
- rustworkx reads each weight as a Rust ``i128``, rejects one beyond
  ``±2¹²⁷`` (OverflowError) and computes in ``i128`` without checks: weights
  near ``2¹²⁶`` overflow inside (``2 * weight``, sums of dual variables) and
  go silently wrong. Weights under ``2⁶³`` leave a factor of 2⁶³ to spare.
  ``swiss_pairs`` refuses (``PairingError``) a field whose ``TOP`` would
  reach ``2⁶³``, rather than risk a wrong pairing.

Only the edges that can be in an optimal pairing are built, which keeps the
graph small (the blossom algorithm's time grows with the edges), and every
optimal pairing of the complete graph is among them; then the graph is cut
into parts that no optimal pairing joins, each matched on its own (the time
grows with the square of the teams matched at once: 5,000 teams in one go
take 0.2 s however few their edges).

- Pairs: a pair at positions ``i < j`` is left out when ``j - i > r + 1 +
  b``, where ``r`` counts the earlier meetings of ``i`` and ``j`` that may
  block the re-pairings below, and ``b`` is 1 when a team that may have the
  bye (it has a bye edge) is placed between them, else 0. Why: for four
  teams in standings order ``w, x, y, z``, ``w-x, y-z`` costs less than
  ``w-y, x-z``, which costs less than ``w-z, x-y``: strictly on the place
  term, and never more on the score term, since scores never rise down the
  order (both hold for any convex cost of a difference). Take an optimal
  pairing with ``i`` v ``j``; each team of the gap between them is at a pair
  inside the gap, at a pair crossing ``i-j``, or has the bye. A pair ``k`` v
  ``l`` inside (``i < k < l < j``) could be re-paired ``i-k, l-j`` or ``i-l,
  k-j``; a crossing pair ``x-k`` (``x < i < k < j``) ``x-i, k-j``, and
  ``k-x`` (``i < k < j < x``) ``i-k, j-x``; a bye at ``k`` inside could
  become ``i-k`` with the bye to ``j`` (level 3 falls) if ``j`` may have it.
  Each of these lowers the cost, so each is ruled out by a rematch among its
  new pairs: a pair inside needs two of the meetings of ``i`` or ``j`` with
  teams of the gap (one for each re-pairing), a crossing pair one meeting
  (of ``i`` with ``x`` above, of ``j`` with ``x`` below, or with ``k``), the
  bye one, each its own (a meeting names a team of the gap, or the outside
  team of a crossing pair). So the gap holds at most ``r`` teams, and the
  team with the bye when ``j`` may not have it, where ``r`` counts the
  meetings of ``i`` and ``j`` with teams of the gap, of ``i`` with teams
  above it and of ``j`` with teams below it. This is applied twice: first
  counting every team above ``i`` and below ``j`` (so ``r ≤ 2 * m``), then
  only those with an edge of the first graph into the gap (a crossing pair
  is an edge of it). After 8 rounds of 256 teams about 900 of the 32,640
  pairs are left.
- The bye: an eligible team ``b`` gets a bye edge only when ``e(b)`` is at
  most the number of its earlier opponents in this round. Why: in an optimal
  pairing with the bye at ``b``, take an eligible team ``k`` placed below
  ``b``, playing ``o(k)``. Giving ``k`` the bye and seating ``b`` against
  ``o(k)`` keeps rule 1, lowers level 3 strictly and raises no higher level,
  unless ``b`` v ``o(k)`` is a rematch. So each of the ``e(b)`` eligible
  teams below ``b`` has an opponent ``b`` met before, a different one for
  each (a pairing seats a team once).
- Cuts: the standings are cut above position ``c`` when ``c`` is even, no
  team above ``c`` may have the bye, and no two teams that met before are
  both above ``c`` with an edge across the cut, nor both below it with one.
  No optimal pairing has a table across such a cut: the tables across it
  would be an even number (``c`` is even), and two of them, ``a1-b1`` and
  ``a2-b2`` (``a`` above, ``b`` below), would cost more than ``a1-a2,
  b1-b2`` (the first of the three pairings of four teams in order above),
  which are no rematches. So the parts between the cuts are matched apart,
  and their optimal pairings together are an optimal pairing of the whole.
  The first rounds of a large Swiss, where teams close in the standings have
  rarely met, fall into parts of a few teams; after 8 rounds of 256 teams
  the largest part holds a third to a half of them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import rustworkx as rx

from .check import check_pairing
from .types import Pair, PairingError, SwissEntry, distinct

WEIGHT_LIMIT = 2**63  # every weight stays below: a signed 64-bit integer


@dataclass(frozen=True)
class Weights:
    """The integer unit of each level of the cost, and ``top`` (see the module's docstring)."""

    score: int
    bye_rank: int
    rematch: int
    top: int

    @classmethod
    def for_edges(cls, tables: int, score_gap: int, place_gap: int, bye_rank: int) -> Weights:
        """The units for ``tables`` tables whose pair edges join teams at most ``score_gap`` points
        and ``place_gap`` places apart, and whose bye edges have ``e`` at most ``bye_rank``."""
        score = tables * place_gap**2 + 1
        bye = (tables * score_gap**2 + 1) * score
        rematch = (bye_rank + 1) * bye
        return cls(score=score, bye_rank=bye, rematch=rematch, top=rematch + bye)

    @classmethod
    def bound(cls, teams: int, score_range: int, most_met: int) -> Weights:
        """The largest units ``swiss_pairs`` may use for ``teams`` teams whose scores are at most
        ``score_range`` apart, none of which has met more than ``most_met`` of the others."""
        return cls.for_edges(
            tables=teams // 2,
            score_gap=score_range,
            place_gap=min(teams - 1, 2 * most_met + 2),
            bye_rank=min(teams - 1, most_met),
        )


Edge = tuple[int, int, int]  # u, v, weight


def swiss_edges(teams: Sequence[SwissEntry], played: Collection[frozenset[int]]) -> list[Edge]:
    """The graph of ``teams`` (in standings order, at least two): ``(u, v, weight)`` for every
    edge that can be in an optimal pairing; the teams are vertices ``0 … n-1``, the bye ``n``."""
    return [edge for part in swiss_parts(teams, played) for edge in part]


def swiss_parts(teams: Sequence[SwissEntry], played: Collection[frozenset[int]]) -> list[list[Edge]]:
    """The edges of ``swiss_edges``, in parts that no optimal pairing joins (see the cuts in the
    module's docstring), from the top of the standings down; the bye's edges are in the last."""
    n = len(teams)
    scores = [team.score for team in teams]
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

    byes: list[tuple[int, int]] = []  # i, e: the eligible teams placed below i
    if n % 2:
        everyone_rested = all(team.had_bye for team in teams)
        eligible = 0  # placed below i
        for i in reversed(range(n)):
            if everyone_rested or not teams[i].had_bye:
                if eligible <= len(opponents[i]):
                    byes.append((i, eligible))
                eligible += 1
    may_rest = {b for b, _ in byes}
    next_resting = [n] * n  # for each team, the next one placed below it that may have the bye (n: none)
    for p in range(n - 2, -1, -1):
        next_resting[p] = p + 1 if p + 1 in may_rest else next_resting[p + 1]
    first: list[tuple[int, int]] = []  # the pairs left after the first pass (the module's docstring)
    for i in range(n):
        for j in range(i + 1, min(n, i + 3 + len(opponents[i]) + most_met)):
            # i's meetings with teams placed before j, j's with teams placed after i:
            meetings = bisect_left(opponents[i], j) + len(opponents[j]) - bisect_right(opponents[j], i)
            if j - i <= meetings + 1 + (next_resting[i] < j):
                first.append((i, j))
    reach, back = list(range(n)), list(range(n))  # the lowest, highest placed team with an edge to each
    for i, j in first:
        reach[i] = max(reach[i], j)
        back[j] = min(back[j], i)
    # The meetings with a team above i (below j) that has an edge to a team below i (above j):
    above = [sum(x < i and reach[x] > i for x in opponents[i]) for i in range(n)]
    below = [sum(x > j and back[x] < j for x in opponents[j]) for j in range(n)]
    tables: list[tuple[int, int, bool, int, int]] = []  # i, j, a rematch, score and place difference
    for i, j in first:
        # i's and j's meetings with the teams between them:
        between = bisect_left(opponents[i], j) - bisect_right(opponents[i], i)
        between += bisect_left(opponents[j], j) - bisect_right(opponents[j], i)
        if j - i <= above[i] + between + below[j] + 1 + (next_resting[i] < j):
            tables.append((i, j, (i, j) in met, scores[i] - scores[j], j - i))

    weights = Weights.for_edges(
        tables=n // 2,
        score_gap=max(table[3] for table in tables),
        place_gap=max(table[4] for table in tables),
        bye_rank=max((e for _, e in byes), default=0),
    )
    if weights.top >= WEIGHT_LIMIT:
        raise PairingError(
            f"This field is too large to pair: {n} teams with scores {scores[-1]} to {scores[0]} "
            f"need weights of {weights.top.bit_length()} bits, more than 63."
        )
    top, rematch, score = weights.top, weights.rematch, weights.score
    edges = [
        (i, j, top - (rematch if again else 0) - gap * gap * score - places * places)
        for i, j, again, gap, places in tables
    ]
    edges += [(i, n, top - e * weights.bye_rank) for i, e in byes]

    cuts = _cuts(n, tables, met, last=min([n - 1, *may_rest]))
    parts: list[list[Edge]] = [[] for _ in range(len(cuts) + 1)]
    for edge in edges:
        part = bisect_right(cuts, edge[0])
        if part == bisect_right(cuts, edge[1]):  # else it crosses a cut: never in an optimal pairing
            parts[part].append(edge)
    return parts


def _cuts(
    n: int, tables: list[tuple[int, int, bool, int, int]], met: set[tuple[int, int]], last: int
) -> list[int]:
    """The even cuts ``c`` up to ``last`` (teams ``0 … c-1`` above it) no optimal pairing crosses:
    no two teams that met are both above ``c`` with an edge across it, nor both below."""
    reach, back = list(range(n)), list(range(n))  # the farthest team below, above, with an edge
    for i, j, *_ in tables:
        reach[i] = max(reach[i], j)
        back[j] = min(back[j], i)
    spoilt = [0] * (n + 1)  # +1 where a run of cuts spoilt by a meeting starts, -1 after it ends
    for x, y in met:
        for first, final in ((y + 1, min(reach[x], reach[y])), (max(back[x], back[y]) + 1, x)):
            if first <= final:  # x and y are both above the cuts first … final, or both below
                spoilt[first] += 1
                spoilt[final + 1] -= 1
    cuts, meetings = [], 0
    for c in range(1, last + 1):
        meetings += spoilt[c]
        if c % 2 == 0 and not meetings:
            cuts.append(c)
    return cuts


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

    matching: list[tuple[int, int]] = []
    for part in swiss_parts(teams, played):
        if len(part) == 1:  # two teams and their one table
            matching.append(part[0][:2])
            continue
        first = min(edge[0] for edge in part)
        graph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(max(edge[1] for edge in part) - first + 1))
        graph.add_edges_from([(u - first, v - first, weight) for u, v, weight in part])
        found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        matching += [(u + first, v + first) for u, v in found]

    scores = [team.score for team in teams]
    tables: list[tuple[int, int]] = []
    bye_team: int | None = None
    for u, v in matching:
        i, j = min(u, v), max(u, v)
        if j == n:
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

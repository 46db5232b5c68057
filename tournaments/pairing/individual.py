"""Individual movements: players enter alone and change partners and opponents every round.

Each round the players sit four to a table as two partnerships (North-South against
East-West): an individual coinche, a whist drive, a bridge individual. A movement does not
depend on results, so it is drawn whole before the first round (``individual_schedule``);
``individual_next_round`` draws one more round from what has been played, for when players
withdraw or join late; ``movement_quality`` counts what a movement repeats.

What is counted (EVENTS.md): two players who partner again make a *repeated partner*, two
who sit on opposite sides again a *repeated opponent pair*; each meeting beyond the first
counts once. A round of n players (a multiple of 4) makes n opponent pairs and there are
n(n − 1)/2 pairs, so in R rounds at least n·R − n(n − 1)/2 opponent meetings are repeats.
For n = 4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 56 and 64 the movement reaches the bounds for
every R up to n − 1 (the tests check each one):

- no repeated partner (in n − 1 rounds every two players partner exactly once);
- no repeated opponent either up to n/2 − 1 rounds (8 players: 3 rounds, 16: 7, 20: 9,
  24: 11); 12 players: 4 rounds, and 2 repeated opponent pairs in 5, the fewest possible;
- from n/2 rounds on every two players have been opponents, so the repeats are exactly
  n·R − n(n − 1)/2.

The construction (n = 2q + 2, q = n/2 − 1)
--------------------------------------------
The players are the points ``x`` and ``x'`` for x in Z_q (two "levels") and two fixed
points ``a`` and ``b``. Round g + 1 (g = 0 … q − 1) is a stored base round B with every x
moved to x + g; ``a`` and ``b`` stay. Every pair of points lies in one orbit of this shift:
{x, x + d} or {x', (x + d)'} (same level, difference ±d), {x, (x + d)'} (across, d),
{a, x}, {a, x'}, {b, x}, {b, x'}, and {a, b} alone; the q shifts of a pair are q different
pairs. B's q + 1 partnerships lie in different orbits, and so do its 2q + 2 opponent pairs:
rounds 1 … q repeat nobody. That leaves one across orbit d₀ whose pairs, with {a, b}, have
not been opponents: the matching I (x ↔ (x + d₀)', a ↔ b). A second stored base B₂, a set
of partnerships closed under I, seats round q + 1: each partnership {u, v} of B₂ plays
{I(u), I(v)}, so every pair of I are opponents, and after n/2 rounds every two players have
been. B₂'s partnerships lie one in each orbit that B's partnerships left, but for one
across orbit ν; so the q shifts of B₂ (rounds q + 1 … 2q) and N = {a, b} with the pairs of
ν (round 2q + 1 = n − 1) make every two players partners exactly once. From round q + 2 the
partnerships are paired at tables by a minimum-weight matching (rustworkx) on the opponent
meetings so far, which spreads the repeats that are bound to come.

B and B₂ were found by a search (simulated annealing on the orbit conditions; for q ≡ 3
mod 4 B was also made symmetric under x ↔ x' and a ↔ b, so d₀ = 0, which makes it quick). Four
players: the three ways to split them. Twelve (no base exists: 5 rounds without a repeat
are impossible): two stored movements, one for up to 5 rounds and one from 6 (none found
repeats nothing in 4 rounds and has every pair met in 6). The seed relabels the players.

Round by round (other numbers, more than n − 1 rounds, a changed field)
------------------------------------------------------------------------
Sit-outs first: with n not a multiple of 4, n mod 4 players sit out each round: those who
have sat out least and, where that leaves a choice, not one who sat out the round before.
So no one sits out twice before everyone has sat out once, the counts never differ by more
than one, and no one sits out two rounds running. This rule comes before the others: a
sit-out scores nothing, so an extra one costs a player more than a repeated partner. Then a
seeded local search seats the others with, in this order, the fewest repeated partners,
the fewest partnerships the organizer asked to avoid (``avoid``: a couple, say; never
forced, never at the price of a repeated partner), the fewest repeated opponents. A whole
movement drawn this way is then annealed (it mostly saves repeated partners in the last
rounds). ``python -m tournaments.pairing.individual`` prints what the movements repeat.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import rustworkx as rx

from .types import PairingError, distinct


@dataclass(frozen=True)
class Seat4:
    """One table: two partnerships, North-South against East-West."""

    north_south: tuple[int, int]
    east_west: tuple[int, int]

    @property
    def players(self) -> tuple[int, int, int, int]:
        return (*self.north_south, *self.east_west)


@dataclass(frozen=True)
class IndividualRound:
    """The tables of one round and the players who sit it out."""

    tables: tuple[Seat4, ...]
    sitting_out: tuple[int, ...] = ()

    @property
    def seated(self) -> tuple[int, ...]:
        return tuple(player for table in self.tables for player in table.players)


@dataclass(frozen=True)
class MovementQuality:
    """How much a movement repeats (meetings beyond the first, summed over pairs)."""

    rounds: int
    repeated_partner_pairs: int
    repeated_opponent_pairs: int
    max_partner_repeats: int  # the most times two players partnered, less the first
    max_opponent_meetings: int  # the most times two players were opponents
    sit_outs: dict[int, int] = field(hash=False)  # every player of the movement: rounds sat out

    @property
    def sit_out_spread(self) -> int:
        """The most sit-outs of a player less the fewest (0 or 1 when fair)."""
        counts = self.sit_outs.values()
        return max(counts) - min(counts) if counts else 0


def movement_quality(rounds: Sequence[IndividualRound]) -> MovementQuality:
    """Count the repeats of a movement, as EVENTS.md does."""
    partners: dict[frozenset[int], int] = {}
    opponents: dict[frozenset[int], int] = {}
    sit_outs: dict[int, int] = {}
    for rnd in rounds:
        for table in rnd.tables:
            for player in table.players:
                sit_outs.setdefault(player, 0)
            for pair in (table.north_south, table.east_west):
                key = frozenset(pair)
                partners[key] = partners.get(key, 0) + 1
            for x in table.north_south:
                for y in table.east_west:
                    key = frozenset((x, y))
                    opponents[key] = opponents.get(key, 0) + 1
        for player in rnd.sitting_out:
            sit_outs[player] = sit_outs.get(player, 0) + 1
    return MovementQuality(
        rounds=len(rounds),
        repeated_partner_pairs=sum(c - 1 for c in partners.values()),
        repeated_opponent_pairs=sum(c - 1 for c in opponents.values()),
        max_partner_repeats=max(partners.values(), default=1) - 1,
        max_opponent_meetings=max(opponents.values(), default=0),
        sit_outs=sit_outs,
    )


def _players(players: Sequence[int]) -> list[int]:
    ids = list(players)
    distinct(ids, "player")
    if len(ids) < 4:
        raise PairingError(f"An individual event needs at least four players, not {len(ids)}.")
    return sorted(ids)


def individual_schedule(
    players: Sequence[int], rounds: int, *, seed: int = 0, avoid: Collection[frozenset[int]] = ()
) -> list[IndividualRound]:
    """The whole movement: ``rounds`` rounds for ``players`` (entry ids, in any order).

    The same players, rounds and seed always give the same movement; another seed gives
    another (for the constructed numbers, the same movement with the players relabelled).
    ``avoid`` names pairs who should preferably not partner.

    A longer movement starts with the shorter one, but for 12 players (one movement up to 5
    rounds, another from 6) and for a movement drawn round by round that the annealing
    reworked (near n − 1 rounds): so ask for all the rounds the event will play.
    """
    ids = _players(players)
    if rounds < 1:
        raise PairingError(f"An individual movement needs at least one round, not {rounds}.")
    n = len(ids)
    rng = random.Random(seed)
    played = _Played(ids, avoid)
    out: list[IndividualRound] = []
    if _has_construction(n):
        label = _labels(n, _partner_round(n, rounds), played, rng)
        for points in _constructed(n, min(rounds, n - 1)):
            seats = [label[p] for p in points]
            played.add(seats, ())
            out.append(played.round_of(seats, []))
    drawn: list[tuple[list[int], list[int]]] = []
    while len(out) + len(drawn) < rounds:
        seats, sitting = played.draw(rng, BUDGET)
        played.add(seats, sitting)
        drawn.append((seats, sitting))
    if drawn and not out:
        _anneal(n, [seats for seats, _ in drawn], played.avoid, rng, ANNEAL)
    return out + [played.round_of(seats, sitting) for seats, sitting in drawn]


def individual_next_round(
    players: Sequence[int],
    history: Sequence[IndividualRound],
    *,
    seed: int = 0,
    sat_out_counts: Mapping[int, int] | None = None,
    avoid: Collection[frozenset[int]] = (),
) -> IndividualRound:
    """One more round for ``players`` after the rounds of ``history``.

    For when the field changes (a withdrawal, a late entry): players of ``history`` who are
    not in ``players`` are ignored, new ones have met nobody. ``sat_out_counts`` gives the
    sit-outs so far per player (missing players count 0) instead of counting them in
    ``history``, say to credit a late entry with the rounds he missed. When nothing changed,
    keep the rounds of ``individual_schedule``: they are better than one round at a time.
    """
    ids = _players(players)
    played = _Played(ids, avoid)
    index = played.index
    for rnd in history:
        earlier = [index.get(p) for table in rnd.tables for p in table.players]
        played.add(earlier, [index.get(p) for p in rnd.sitting_out])
    if sat_out_counts is not None:
        played.sat = [sat_out_counts.get(p, 0) for p in ids]
    rng = random.Random(seed * 1_000_003 + len(history))
    seats, sitting = played.draw(rng, BUDGET)
    return played.round_of(seats, sitting)


# ---------------------------------------------------------------------------------------------
# The constructions.

# The stored bases: n -> (B as tables "N S E W", B₂ as pairs "u-v"). Points: x (level 0),
# x' (level 1), a and b (fixed). See the module docstring.
_BASES: dict[int, tuple[str, str]] = {
    8: (
        "b 2 1' 0, a 2' 1 0'",
        "2-0 2'-0' 1-a 1'-b",
    ),
    16: (
        "a 5' 4 0', b 5 4' 0, 2 3' 1 6, 2' 3 1' 6'",
        "4-3 4'-3' 0-2' 0'-2 5-1 5'-1' a-6 b-6'",
    ),
    20: (
        "8 4' 7 2, 5 0' a 0, 6 8' 5' 4, 2' 6' 1 7', b 1' 3' 3",
        "3-1' 6'-7 0-1 3'-4' 2-5 5'-8' 4-b 7'-a 6-8 0'-2'",
    ),
    24: (
        "8' 2 6 3', 8 2' 6' 3, 0' 4 5 7, 0 4' 5' 7', b 1' 10' 9, a 1 10 9'",
        "8-3 8'-3' 1-10' 1'-10 5-2 5'-2' 7-6 7'-6' 0-4 0'-4' a-9' b-9",
    ),
    28: (
        "11' 4 5 b, 5' 1 1' 11, 6 8 10 0, 8' 2' 3 12, a 9' 7' 7, 2 9 0' 10', 4' 6' 3' 12'",
        "10-5' 7'-8 9-11' 6'-1 11-12 8'-9' 3-1' 0'-4 a-7 b-4' 0-5 10'-2' 6-12' 3'-2",
    ),
    32: (
        "1' 6 b 5, 1 6' a 5', 13 4 11 7, 13' 4' 11' 7', 9' 8 14' 12, 9 8' 14 12', 10' 2' 0 3, 10 2 0' 3'",
        "13-6' 13'-6 3-2 3'-2' 9-0' 9'-0 11-7' 11'-7 14-12 14'-12' 4-1' 4'-1 a-8 b-8' 10-5 10'-5'",
    ),
    40: (
        "14 b 4' 0, 14' a 4 0', 17' 2' 1' 6, 17 2 1 6', 15 7' 8 13, 15' 7 8' 13', 16' 9 18 12', "
        "16 9' 18' 12, 3 5 11 10', 3' 5' 11' 10",
        "10-7' 10'-7 12-a 12'-b 15-2 15'-2' 14-4 14'-4' 11-8 11'-8' 16-5 16'-5' 13-6 13'-6' "
        "17-18 17'-18' 0-9' 0'-9 3-1' 3'-1",
    ),
    48: (
        "2 9 3' 4', 2' 9' 3 4, 20 14 12 0, 20' 14' 12' 0', 13 21' a 17, 13' 21 b 17', "
        "8 1' 19' 11', 8' 1 19 11, 5 22' 6 15', 5' 22 6' 15, 18 16' 10' 7, 18' 16 10 7'",
        "18-15 18'-15' 9-5 9'-5' 6-1 6'-1' 21-0 21'-0' 12-8' 12'-8 11-22' 11'-22 7-17 7'-17' "
        "16-b 16'-a 20-10' 20'-10 14-19' 14'-19 2-3' 2'-3 13-4 13'-4'",
    ),
    56: (
        "25' 4' 8 7', 25 4 8' 7, 13 14 21' 9, 13' 14' 21 9', a 11 17 12', b 11' 17' 12, "
        "3 16' 1 24', 3' 16 1' 24, 15' 26' 10 0', 15 26 10' 0, 20 5 23' 18', 20' 5' 23 18, "
        "2' 6' 22' 19', 2 6 22 19",
        "26-12 26'-12' 19-17 19'-17' 21-11 21'-11' 16-23 16'-23' a-15' b-15 22-24' 22'-24 "
        "3-14' 3'-14 2-5' 2'-5 20-1' 20'-1 9-18' 9'-18 25-7 25'-7' 6-13' 6'-13 4-10' 4'-10 "
        "8-0 8'-0'",
    ),
    64: (
        "28 12 29' 15, 28' 12' 29 15', 13 8 5' 17, 13' 8' 5 17', 1 26' 3' 27', 1' 26 3 27, "
        "16' 0 6 7, 16 0' 6' 7', 9' 20' 25' 2, 9 20 25 2', 21 19' 4 23, 21' 19 4' 23', "
        "24' b 14' 18, 24 a 14 18', 11 10' 22' 30', 11' 10 22 30",
        "7-21 7'-21' 17-11 17'-11' 18-20 18'-20' 14-24' 14'-24 4-b 4'-a 23-30' 23'-30 "
        "15-10' 15'-10 12-16 12'-16' 28-25 28'-25' 6-19' 6'-19 22-2' 22'-2 26-8 26'-8' "
        "5-27 5'-27' 13-3 13'-3' 9-0' 9'-0 29-1' 29'-1",
    ),
}

# Twelve players: no base exists (5 rounds without a repeat are impossible), and no search
# found rounds that both repeat nothing in 4 and have every two players opponents after 6. So
# two movements, found by a search, each the best for the rounds it is used for: up to 5
# rounds, no repeat in 4 and 2 repeated opponent pairs in 5; from 6 rounds, every two players
# are opponents after 6 and partners once in 11. Players 0 … 11 in hexadecimal, N S E W.
_TWELVE_SHORT = ("420879a631b5", "57948106a23b", "9582143a0b76", "53701b894a62", "1974ab508623")
_TWELVE = (
    "a7634b952018", "83451a972b60", "136ba9827450", "2ab539108467", "87b36590124a", "04ba85612937",
    "038a147b2569", "078b1523496a", "0826175a349b", "0a351b892746", "0b5719243a68",
)  # fmt: skip


def _point(q: int, name: str) -> int:
    """The number of a point: x → x, x' → q + x, a → 2q, b → 2q + 1."""
    if name == "a":
        return 2 * q
    if name == "b":
        return 2 * q + 1
    if name.endswith("'"):
        return q + int(name[:-1])
    return int(name)


def _shift(q: int, point: int, g: int) -> int:
    if point < q:
        return (point + g) % q
    if point < 2 * q:
        return q + (point - q + g) % q
    return point


def _across(q: int, u: int, v: int) -> int | None:
    """The difference d of an across pair {x, (x + d)'}, else None."""
    if u > v:
        u, v = v, u
    if u < q <= v < 2 * q:
        return (v - q - u) % q
    return None


@lru_cache(maxsize=64)
def _frame(
    n: int, short: bool
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int], ...], ...]]:
    """The stored movement for n players: the rounds whose tables are set, as seats of points
    (N S E W by table), and the partnerships of the later rounds, still to be paired at tables.
    ``short`` picks the twelve-player movement for up to 5 rounds."""
    if n == 4:
        return ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2)), ()
    if n == 12:
        rows = _TWELVE_SHORT if short else _TWELVE
        return tuple(tuple(int(p, 16) for p in row) for row in rows), ()
    q = n // 2 - 1
    base_text, pairs_text = _BASES[n]
    base = [_point(q, name) for table in base_text.split(",") for name in table.split()]
    pairs = [tuple(_point(q, name) for name in pair.split("-")) for pair in pairs_text.split()]
    seated = [tuple(_shift(q, p, g) for p in base) for g in range(q)]

    # Round q + 1: each pair {u, v} of B₂ plays {I(u), I(v)}, I the opponents B left over.
    opposed = {_across(q, u, v) for t in range(0, n, 4) for u in base[t : t + 2] for v in base[t + 2 : t + 4]}
    (d0,) = set(range(q)) - opposed

    def matched(p: int) -> int:  # I
        if p >= 2 * q:
            return 4 * q + 1 - p
        return q + (p + d0) % q if p < q else (p - q - d0) % q

    seats: list[int] = []
    for u, v in pairs:
        if u not in seats:
            seats += [u, v, matched(u), matched(v)]
    seated.append(tuple(seats))

    # Rounds q + 2 … n − 1: the shifts of B₂, then N (a and b, and the across orbit ν).
    used = {_across(q, base[t], base[t + 1]) for t in range(0, n, 2)}
    used |= {_across(q, u, v) for u, v in pairs}
    (nu,) = set(range(q)) - used
    later = [tuple((_shift(q, u, g), _shift(q, v, g)) for u, v in pairs) for g in range(1, q)]
    later.append(((2 * q, 2 * q + 1), *((x, q + (x + nu) % q) for x in range(q))))
    return tuple(seated), tuple(later)


@lru_cache(maxsize=64)
def _constructed(n: int, rounds: int) -> tuple[tuple[int, ...], ...]:
    """The first ``rounds`` (≤ n − 1) rounds of the stored movement, as seats of points."""
    seated, later = _frame(n, rounds <= 5)
    out = list(seated[:rounds])
    met = [0] * (n * n)
    for seats in out:
        _count_opponents(met, n, seats)
    for partners in later[: max(0, rounds - len(seated))]:
        seats = _pair_partnerships(met, n, partners)
        _count_opponents(met, n, seats)
        out.append(seats)
    return tuple(out)


def _partner_round(n: int, rounds: int) -> list[list[int]]:
    """For two points, the round (0 …) of the stored movement in which they partner; n − 1
    for none (the short twelve-player movement leaves pairs that never partner)."""
    seated, later = _frame(n, rounds <= 5)
    when = [[n - 1] * n for _ in range(n)]
    partnerships = [[(s[t], s[t + 1]) for t in range(0, n, 2)] for s in seated] + [list(p) for p in later]
    for r, pairs in enumerate(partnerships):
        for u, v in pairs:
            when[u][v] = when[v][u] = r
    return when


def _count_opponents(met: list[int], n: int, seats: Sequence[int]) -> None:
    for t in range(0, len(seats), 4):
        for u in seats[t : t + 2]:
            for v in seats[t + 2 : t + 4]:
                met[u * n + v] += 1
                met[v * n + u] += 1


def _pair_partnerships(met: list[int], n: int, partners: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """Seat the partnerships two to a table: a minimum-weight perfect matching on the squares
    of the opponent meetings so far (so third meetings before fourth ones)."""
    costs = {}
    for i, (a, b) in enumerate(partners):
        for j in range(i + 1, len(partners)):
            c, d = partners[j]
            costs[i, j] = sum((met[x * n + y] + 1) ** 2 for x in (a, b) for y in (c, d))
    top = max(costs.values()) + 1
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(len(partners)))
    graph.add_edges_from([(i, j, top - cost) for (i, j), cost in costs.items()])
    matching = sorted(
        tuple(sorted(edge)) for edge in rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    )
    return tuple(p for i, j in matching for p in (*partners[i], *partners[j]))


def _has_construction(n: int) -> bool:
    return n in (4, 12) or n in _BASES


# ---------------------------------------------------------------------------------------------
# Round by round.

BUDGET = 40_000  # swaps a round's local search may try: about 0.1 s for 64 players
KICKS = 60  # kicks in a row that find nothing better end it sooner
ANNEAL = 30_000  # swaps the annealing of a movement drawn round by round may try


class _Played:
    """What has been played, by player index (0 … n − 1 in the order of ``ids``)."""

    def __init__(self, ids: Sequence[int], avoid: Collection[frozenset[int]]) -> None:
        n = len(ids)
        self.ids = list(ids)
        self.index = {player: i for i, player in enumerate(ids)}
        self.partner = [0] * (n * n)
        self.opponent = [0] * (n * n)
        self.avoid = [0] * (n * n)
        for pair in avoid:
            if len(pair) != 2:
                raise PairingError(
                    f"A pair of players to keep apart must name two players, not {sorted(pair)}."
                )
            a, b = sorted(pair)
            if a in self.index and b in self.index:
                i, j = self.index[a], self.index[b]
                self.avoid[i * n + j] = self.avoid[j * n + i] = 1
        self.sat = [0] * n
        self.sat_last = [False] * n

    def add(self, seats: Sequence[int | None], sitting: Iterable[int | None]) -> None:
        """Count a round: ``seats`` N S E W by table, ``None`` for a player no longer here."""
        n = len(self.ids)
        partner, opponent = self.partner, self.opponent
        for t in range(0, len(seats), 4):
            a, b, c, d = seats[t : t + 4]
            for x, y in ((a, b), (c, d)):
                if x is not None and y is not None:
                    partner[x * n + y] += 1
                    partner[y * n + x] += 1
            for x in (a, b):
                for y in (c, d):
                    if x is not None and y is not None:
                        opponent[x * n + y] += 1
                        opponent[y * n + x] += 1
        self.sat_last = [False] * n
        for i in sitting:
            if i is not None:
                self.sat[i] += 1
                self.sat_last[i] = True

    def round_of(self, seats: Sequence[int], sitting: Sequence[int]) -> IndividualRound:
        ids = self.ids
        tables = tuple(
            Seat4((ids[seats[t]], ids[seats[t + 1]]), (ids[seats[t + 2]], ids[seats[t + 3]]))
            for t in range(0, len(seats), 4)
        )
        return IndividualRound(tables, tuple(ids[i] for i in sorted(sitting)))

    def draw(self, rng: random.Random, budget: int) -> tuple[list[int], list[int]]:
        """The next round: sit-outs by the rule, then a local search over the seats."""
        n = len(self.ids)
        out = n % 4
        order = sorted(range(n), key=lambda i: (self.sat[i], self.sat_last[i]))
        if out:
            edge = (self.sat[order[out - 1]], self.sat_last[order[out - 1]])
            forced = [i for i in order if (self.sat[i], self.sat_last[i]) < edge]
            pool = [i for i in order if (self.sat[i], self.sat_last[i]) == edge]
        else:
            forced, pool = [], []
        rng.shuffle(pool)
        free_out = pool[: out - len(forced)]  # sitting out, may change places with the pool
        seated = [i for i in range(n) if i not in set(forced) | set(free_out)]
        rng.shuffle(seated)
        seats = _local_search(self, seated, free_out, set(pool), rng, budget)
        return seats, forced + free_out


def _local_search(
    played: _Played, seats: list[int], out: list[int], pool: set[int], rng: random.Random, budget: int
) -> list[int]:
    """Improve the seats (changed in place, and ``out`` with them) by swapping two players.

    The cost of a table is lexicographic: partnerships already played (times ``heavy``),
    partnerships to avoid (times ``apart``), then opponent meetings already played. A
    player of ``pool`` may also change places with one in ``out`` (both may sit out). A
    descent takes the first swap that lowers the cost, touching a table with a cost (no
    other swap can lower it); then a kick moves a player of a costly table at random and
    descends again from there, keeping the best seats, until ``budget`` swaps are tried.
    """
    n = len(played.ids)
    partner, opponent, avoid = played.partner, played.opponent, played.avoid
    apart = n * (max(opponent, default=0) + 1) + 1
    heavy = apart * (n + 1)
    tables = len(seats) // 4

    def cost(t: int) -> int:
        a, b, c, d = seats[4 * t : 4 * t + 4]
        an, bn, cn = a * n, b * n, c * n
        return (
            heavy * (partner[an + b] + partner[cn + d])
            + apart * (avoid[an + b] + avoid[cn + d])
            + opponent[an + c]
            + opponent[an + d]
            + opponent[bn + c]
            + opponent[bn + d]
        )

    table_cost = [cost(t) for t in range(tables)]
    spent = 0

    def step() -> bool:
        """Make the first swap that lowers the cost; False if there is none."""
        nonlocal spent
        for t in range(tables):
            if not table_cost[t]:
                continue
            for i in range(4 * t, 4 * t + 4):
                for j in range(len(seats)):
                    if i >> 1 == j >> 1:
                        continue
                    u = j >> 2
                    seats[i], seats[j] = seats[j], seats[i]
                    new_t = cost(t)
                    new_u = cost(u) if u != t else 0
                    old = table_cost[t] + (table_cost[u] if u != t else 0)
                    if new_t + new_u < old:
                        table_cost[t] = new_t
                        if u != t:
                            table_cost[u] = new_u
                        spent += j
                        return True
                    seats[i], seats[j] = seats[j], seats[i]
                spent += len(seats)
                if seats[i] in pool:
                    for k, other in enumerate(out):
                        mine, seats[i] = seats[i], other
                        new_t = cost(t)
                        if new_t < table_cost[t]:
                            out[k] = mine
                            table_cost[t] = new_t
                            return True
                        seats[i] = mine
                if spent >= budget:
                    return False
        return False

    while step():
        pass
    best, best_seats, best_out = sum(table_cost), seats[:], out[:]
    stale = 0
    while best and spent < budget and stale < KICKS:
        stale += 1
        costly = [t for t in range(tables) if table_cost[t]]
        t = rng.choice(costly)
        i, j = rng.randrange(4 * t, 4 * t + 4), rng.randrange(len(seats))
        seats[i], seats[j] = seats[j], seats[i]
        table_cost[t], table_cost[j >> 2] = cost(t), cost(j >> 2)
        while step():
            pass
        if sum(table_cost) < best:
            best, best_seats, best_out = sum(table_cost), seats[:], out[:]
            stale = 0
        else:
            seats[:], out[:] = best_seats, best_out
            table_cost[:] = [cost(t) for t in range(tables)]
    seats[:], out[:] = best_seats, best_out
    return seats


def _anneal(n: int, schedule: list[list[int]], avoid: list[int], rng: random.Random, moves: int) -> None:
    """Improve a whole movement drawn round by round (seats changed in place, sit-outs kept).

    Simulated annealing: swap two seated players of a round; the cost is, in this order,
    repeated partners, avoided partnerships, repeated opponents (weights 16, 8, 1), and the
    best movement in that order is kept. The round-by-round draw leaves few repeated opponents
    to save, but may leave repeated partners in the last rounds (the partners left to each
    player no longer fit together); so it stops as soon as no partner repeats but those of
    players seated more than n − 1 times, and no avoided pair partners.
    """
    partner = [0] * (n * n)
    opponent = [0] * (n * n)
    seated = [0] * n

    def relations(seats: list[int], t: int) -> tuple[list[int], list[int]]:
        a, b, c, d = seats[4 * t : 4 * t + 4]
        pairs = [(a, b), (c, d)]
        against = [(a, c), (a, d), (b, c), (b, d)]
        return (
            [x * n + y if x < y else y * n + x for x, y in pairs],
            [x * n + y if x < y else y * n + x for x, y in against],
        )

    for seats in schedule:
        for p in seats:
            seated[p] += 1
        for t in range(len(seats) // 4):
            pairs, against = relations(seats, t)
            for k in pairs:
                partner[k] += 1
            for k in against:
                opponent[k] += 1
    cost_p = sum(c - 1 for c in partner if c > 1)
    cost_a = sum(c for k, c in enumerate(partner) if c and avoid[k])
    cost_o = sum(c - 1 for c in opponent if c > 1)
    floor_p = (sum(max(0, s - (n - 1)) for s in seated) + 1) // 2
    best = (cost_p, cost_a, cost_o)
    best_schedule = [seats[:] for seats in schedule]

    def move(seats: list[int], tables: set[int], step: int) -> tuple[int, int, int]:
        """Take the tables' relations out (step -1) or put them back (+1): the change of cost."""
        dp = da = do = 0
        for t in tables:
            pairs, against = relations(seats, t)
            for k in pairs:
                if step < 0:
                    partner[k] -= 1
                    dp -= partner[k] >= 1
                    da -= avoid[k]
                else:
                    dp += partner[k] >= 1
                    da += avoid[k]
                    partner[k] += 1
            for k in against:
                if step < 0:
                    opponent[k] -= 1
                    do -= opponent[k] >= 1
                else:
                    do += opponent[k] >= 1
                    opponent[k] += 1
        return dp, da, do

    for step in range(moves):
        if best[:2] == (floor_p, 0):
            break
        temperature = 1.0 * 0.05 ** (step / moves)
        seats = schedule[rng.randrange(len(schedule))]
        i, j = rng.randrange(len(seats)), rng.randrange(len(seats))
        if i >> 1 == j >> 1:
            continue
        tables = {i >> 2, j >> 2}
        out_p, out_a, out_o = move(seats, tables, -1)
        seats[i], seats[j] = seats[j], seats[i]
        in_p, in_a, in_o = move(seats, tables, 1)
        dp, da, do = in_p + out_p, in_a + out_a, in_o + out_o
        delta = 16 * dp + 8 * da + do
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            cost_p, cost_a, cost_o = cost_p + dp, cost_a + da, cost_o + do
            if (cost_p, cost_a, cost_o) < best:
                best = (cost_p, cost_a, cost_o)
                best_schedule = [seats[:] for seats in schedule]
        else:
            move(seats, tables, -1)
            seats[i], seats[j] = seats[j], seats[i]
            move(seats, tables, 1)
    for seats, kept in zip(schedule, best_schedule, strict=True):
        seats[:] = kept


def _labels(n: int, partner_round: list[list[int]], played: _Played, rng: random.Random) -> list[int]:
    """A seeded player index for every point, moved so that pairs to avoid partner late or never.

    Any relabelling keeps what the movement guarantees. The cost of a pair to avoid is
    ``weight ** (n − 1 − r)``, r the round in which its points partner (n − 1: never), so an
    earlier clash outweighs all later ones; a hill climb swaps two players' points while that
    lowers the cost. It does not depend on the number of rounds, so neither do the rounds.
    """
    label = list(range(n))
    rng.shuffle(label)
    avoid = played.avoid
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if avoid[i * n + j]]
    if not pairs:
        return label
    point = [0] * n  # the point of each player
    for p, i in enumerate(label):
        point[i] = p
    weight = len(pairs) + 1

    def cost(players: set[int]) -> int:
        return sum(
            weight ** (n - 1 - partner_round[point[i]][point[j]])
            for i, j in pairs
            if i in players or j in players
        )

    improved = True
    while improved:
        improved = False
        for i, j in sorted(pairs, key=lambda pair: partner_round[point[pair[0]]][point[pair[1]]]):
            if partner_round[point[i]][point[j]] == n - 1:
                continue
            for k in rng.sample(range(n), n):
                before = cost({i, k})
                point[i], point[k] = point[k], point[i]
                if cost({i, k}) < before:
                    improved = True
                    break
                point[i], point[k] = point[k], point[i]
    for i, p in enumerate(point):
        label[p] = i
    return label


# ---------------------------------------------------------------------------------------------
# What the movements repeat: ``python -m tournaments.pairing.individual``.

TABLE_PLAYERS = range(4, 33)
TABLE_ROUNDS = (*range(1, 13), 15, 19, 23, 31)


def quality_table(players: Iterable[int] = TABLE_PLAYERS, rounds: Iterable[int] = TABLE_ROUNDS) -> str:
    """A Markdown table of the movements (seed 0): repeated partners / repeated opponent pairs.

    A cell is marked * where the opponent repeats exceed the count bound ``s·R − n(n − 1)/2``
    (``s`` the players seated in a round); ! where the sit-outs ever differ by more than one.
    """
    columns = list(rounds)
    lines = [
        "| players | " + " | ".join(f"R={r}" for r in columns) + " |",
        "|---:|" + "---:|" * len(columns),
    ]
    for n in players:
        cells = []
        for r in columns:
            if r >= n:
                cells.append("")
                continue
            movement = individual_schedule(range(n), r)
            quality = movement_quality(movement)
            bound = max(0, (n - n % 4) * r - n * (n - 1) // 2)
            fair = all(movement_quality(movement[:k]).sit_out_spread <= 1 for k in range(1, r + 1))
            mark = ("*" if quality.repeated_opponent_pairs > bound else "") + ("" if fair else "!")
            cells.append(f"{quality.repeated_partner_pairs}/{quality.repeated_opponent_pairs}{mark}")
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(quality_table())

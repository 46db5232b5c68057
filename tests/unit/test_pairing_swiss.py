"""Swiss pairing: worked examples, then properties checked against brute force.

The cost of a pairing, written out here independently of ``swiss.py``, is a
tuple compared in order (swiss.py's module docstring gives the weights):

1. byes to a team that already had one,
2. rematches,
3. how high the bye is placed (``n - 1 - position``; 0 for the last),
4. the sum of squared score differences at the tables,
5. the sum of squared differences of standings positions at the tables,

positions being the standings order: score, then rank (0 = the best).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import networkx as nx
import pytest
import rustworkx as rx
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Pair, PairingError, SwissEntry, Weights, check_pairing, swiss_pairs
from tournaments.pairing.swiss import swiss_edges, swiss_parts

BOUNDED = settings(max_examples=100, deadline=None)
FEWER = settings(max_examples=40, deadline=None)


# ---------------------------------------------------------------------------
# Helpers: a field written as text, the cost, every possible pairing
# ---------------------------------------------------------------------------


def field(text: str) -> list[SwissEntry]:
    """``"1:4 3:2* 2:0"``: entry 1 with 4 points ranked first, entry 3 (had a bye) second …"""
    entries = []
    for rank, token in enumerate(text.split(), start=1):
        entry, score = token.rstrip("*").split(":")
        entries.append(SwissEntry(int(entry), int(score), rank, had_bye=token.endswith("*")))
    return entries


def meetings(text: str) -> set[frozenset[int]]:
    """``"1-2 3-4"``: the pairs that played before."""
    return {frozenset(map(int, pair.split("-"))) for pair in text.split()}


def written(pairs: Sequence[Pair]) -> str:
    return " ".join(f"{p.a}-{'bye' if p.b is None else p.b}" for p in pairs)


def standings_order(entries: Sequence[SwissEntry]) -> list[SwissEntry]:
    return sorted(entries, key=lambda e: (-e.score, e.rank, e.entry))


def cost(entries: Sequence[SwissEntry], pairs: Sequence[Pair], played) -> tuple[int, int, int, int, int]:
    order = standings_order(entries)
    place = {e.entry: p for p, e in enumerate(order)}
    team = {e.entry: e for e in entries}
    byes = [p.a for p in pairs if p.b is None]
    tables = [(p.a, p.b) for p in pairs if p.b is not None]
    return (
        sum(team[a].had_bye for a in byes),
        sum(frozenset(t) in played for t in tables),
        sum(len(entries) - 1 - place[a] for a in byes),
        sum((team[a].score - team[b].score) ** 2 for a, b in tables),
        sum((place[a] - place[b]) ** 2 for a, b in tables),
    )


def every_pairing(teams: list[int]) -> Iterator[list[Pair]]:
    """Every way to seat ``teams``, with one bye when their number is odd."""
    if not teams:
        yield []
        return
    if len(teams) % 2:
        for k, resting in enumerate(teams):
            for rest in every_pairing(teams[:k] + teams[k + 1 :]):
                yield [*rest, Pair(resting, None)]
        return
    first, others = teams[0], teams[1:]
    for k, opponent in enumerate(others):
        for rest in every_pairing(others[:k] + others[k + 1 :]):
            yield [Pair(first, opponent), *rest]


def least_cost(entries: Sequence[SwissEntry], played) -> tuple[int, ...]:
    return min(cost(entries, pairs, played) for pairs in every_pairing([e.entry for e in entries]))


def rematch_free_pairing_exists(entries: Sequence[SwissEntry], played) -> bool:
    """Backtracking: can every team be seated, with no rematch, and the bye (if any) to a team
    that has not had one while there is such a team?"""
    teams = [e.entry for e in entries]
    without_bye = [e.entry for e in entries if not e.had_bye]
    may_rest = without_bye or teams

    def seat(left: list[int]) -> bool:
        if not left:
            return True
        first = left[0]
        return any(
            frozenset((first, other)) not in played and seat([t for t in left[1:] if t != other])
            for other in left[1:]
        )

    if len(teams) % 2 == 0:
        return seat(teams)
    return any(seat([t for t in teams if t != resting]) for resting in may_rest)


def lexicographic(levels: Sequence[int]) -> int:
    """A cost tuple as one integer: 40 bits a level, more than any level's sum for these fields."""
    value = 0
    for level in levels:
        assert 0 <= level < 2**40
        value = value << 40 | level
    return value


def by_cost_full_graph(entries: Sequence[SwissEntry], played) -> list[Pair]:
    """The same matching on the complete graph, every pair and every bye an edge, weighted by the
    cost tuple itself (Python integers of any size) and matched by networkx: what ``swiss_pairs``
    would give if it built every edge, independently of its weights."""
    order = standings_order(entries)
    n = len(order)
    top = lexicographic([1, n, n, 0, 0])
    graph = nx.Graph()
    for i, j in itertools.combinations(range(n), 2):
        rematch = frozenset((order[i].entry, order[j].entry)) in played
        c = lexicographic([0, rematch, 0, (order[i].score - order[j].score) ** 2, (j - i) ** 2])
        graph.add_edge(i, j, weight=top - c)
    if n % 2:
        for i in range(n):
            c = lexicographic([order[i].had_bye, 0, n - 1 - i, 0, 0])
            graph.add_edge(i, "bye", weight=top - c)
    pairs = []
    for u, v in nx.max_weight_matching(graph, maxcardinality=True):
        if "bye" in (u, v):
            pairs.append(Pair(order[u if v == "bye" else v].entry, None))
        else:
            pairs.append(Pair(order[u].entry, order[v].entry))
    return pairs


@st.composite
def fields(draw, min_size=0, max_size=8, max_score=8):
    """A field of teams: scores, a standings order, byes had, pairs played before."""
    teams = draw(st.lists(st.integers(1, 999), min_size=min_size, max_size=max_size, unique=True))
    ranks = draw(st.permutations(range(1, len(teams) + 1)))
    entries = [
        SwissEntry(entry, draw(st.integers(0, max_score)), rank, draw(st.booleans()))
        for entry, rank in zip(teams, ranks, strict=True)
    ]
    all_pairs = [frozenset(p) for p in itertools.combinations(teams, 2)]
    played = draw(st.sets(st.sampled_from(all_pairs))) if all_pairs else set()
    return entries, played


# ---------------------------------------------------------------------------
# Worked examples
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("teams", "played", "expected"),
    [
        pytest.param(
            "1:0 2:0 3:0 4:0 5:0 6:0 7:0 8:0", "", "1-2 3-4 5-6 7-8", id="round-one-neighbours-meet"
        ),
        pytest.param("1:0 2:0 3:0 4:0 5:0 6:0 7:0", "", "1-2 3-4 5-6 7-bye", id="round-one-the-last-rests"),
        pytest.param("3:0 1:0 2:0 4:0", "", "3-1 2-4", id="the-standings-order-not-the-numbers"),
        pytest.param("1:2 3:2 2:0 4:0", "1-2 3-4", "1-3 2-4", id="winners-meet-winners"),
        pytest.param(
            "1:2 2:2 3:2 4:0 5:0 6:0",
            "1-4 2-5 3-6",
            "1-2 3-4 5-6",
            id="the-odd-team-out-floats-to-the-best-of-the-group-below",
        ),
        pytest.param("1:4 2:2 3:2 4:0", "", "1-2 3-4", id="two-small-gaps-rather-than-one-big"),
        pytest.param("1:4 2:2 3:2 4:0", "1-2 3-4 1-3 2-4", "1-4 2-3", id="no-rematch-even-across-the-field"),
        pytest.param(
            "1:4 2:4 3:2 4:2", "1-2 3-4 1-3 2-4 1-4 2-3", "1-2 3-4", id="everyone-has-met-the-scores-decide"
        ),
        pytest.param(
            "1:2 3:2 5:2 7:2* 2:0 4:0 6:0",
            "1-2 3-4 5-6",
            "1-3 5-7 2-4 6-bye",
            id="the-bye-goes-to-the-lowest-placed-without-one",
        ),
        pytest.param("1:2 2:0 3:0", "", "1-2 3-bye", id="the-bye-to-the-last-even-across-a-score-gap"),
        pytest.param("1:2* 2:2* 3:2*", "", "1-2 3-bye", id="everyone-had-a-bye-the-last-gets-another"),
        pytest.param("1:4* 2:2* 3:0", "1-2", "1-2 3-bye", id="a-rematch-rather-than-a-second-bye"),
        pytest.param("1:2 2:2 3:0", "1-2", "1-3 2-bye", id="the-bye-one-place-up-rather-than-a-rematch"),
        pytest.param(
            "1:2 2:4 3:0 4:6", "", "4-2 1-3", id="scores-come-first-table-one-has-the-highest-score"
        ),
    ],
)
def test_worked_examples(teams, played, expected):
    assert written(swiss_pairs(field(teams), meetings(played))) == expected


def test_nobody_to_pair():
    assert swiss_pairs([], set()) == []


def test_a_lone_team_has_the_bye():
    assert swiss_pairs(field("5:3"), set()) == [Pair(5, None)]


def test_a_team_listed_twice_is_refused():
    with pytest.raises(PairingError, match="Entry 2 is listed twice"):
        swiss_pairs(field("1:0 2:0 2:0"), set())


def test_meetings_with_teams_not_in_the_round_are_ignored():
    assert written(swiss_pairs(field("1:0 2:0"), meetings("1-9 2-9 9-10"))) == "1-2"


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------


@BOUNDED
@given(case=fields(max_size=30), seed=st.randoms(use_true_random=False))
def test_every_pairing_is_valid_and_does_not_depend_on_the_input_order(case, seed):
    entries, played = case
    pairs = swiss_pairs(entries, played)

    check_pairing([e.entry for e in entries], pairs, played, byes=[e.entry for e in entries if e.had_bye])
    assert all(p.b is not None for p in pairs[:-1])  # the bye, if any, is last
    place = {e.entry: k for k, e in enumerate(standings_order(entries))}
    assert all(place[p.a] < place[p.b] for p in pairs if p.b is not None)  # a is the better placed
    score = {e.entry: e.score for e in entries}
    boards = [(score[p.a], score[p.a] + score[p.b], -place[p.a]) for p in pairs if p.b is not None]
    assert boards == sorted(boards, reverse=True)  # table 1 is the best-placed pair

    shuffled = list(entries)
    seed.shuffle(shuffled)
    assert swiss_pairs(shuffled, list(played)) == pairs


@BOUNDED
@given(case=fields(max_size=8))
def test_the_pairing_costs_the_least_of_every_possible_pairing(case):
    """Brute force over every pairing of up to 8 teams: the bye rule first, then the fewest
    rematches, then the lowest-placed bye, the smallest score differences, the nearest places."""
    entries, played = case
    assert cost(entries, swiss_pairs(entries, played), played) == least_cost(entries, played)


@FEWER
@given(case=fields(min_size=9, max_size=40, max_score=12))
def test_leaving_out_edges_never_changes_the_cost(case):
    """``swiss_pairs`` builds only the edges that can be in a best pairing; the complete graph
    finds a pairing of the same cost."""
    entries, played = case
    assert cost(entries, swiss_pairs(entries, played), played) == cost(
        entries, by_cost_full_graph(entries, played), played
    )


@BOUNDED
@given(case=fields(max_size=30, max_score=0))
def test_with_no_history_neighbours_in_the_standings_meet(case):
    entries, _ = case
    entries = [SwissEntry(e.entry, e.score, e.rank) for e in entries]
    order = [e.entry for e in standings_order(entries)]
    expected = [Pair(order[k], order[k + 1]) for k in range(0, len(order) - 1, 2)]
    if len(order) % 2:
        expected.append(Pair(order[-1], None))
    assert swiss_pairs(entries, set()) == expected


@BOUNDED
@given(scores=st.lists(st.integers(0, 20), min_size=2, max_size=30))
def test_score_differences_are_the_least_possible(scores):
    """With no history, sorting the scores and pairing neighbours gives the least sum of
    squared differences; the Swiss pairing reaches it."""
    entries = [SwissEntry(entry, score, rank=entry) for entry, score in enumerate(scores, start=1)]
    pairs = [p for p in swiss_pairs(entries, set()) if p.b is not None]
    ordered = sorted(scores, reverse=True)[: len(scores) - len(scores) % 2]
    least = sum((ordered[k] - ordered[k + 1]) ** 2 for k in range(0, len(ordered), 2))
    assert sum((scores[p.a - 1] - scores[p.b - 1]) ** 2 for p in pairs) == least


def simulate(n: int, rounds: int, rng: random.Random):
    """A Swiss of ``n`` teams with random results (2 a win, 1 a draw, 2 a bye); yields each
    round's field, the meetings before it and its pairing."""
    score = dict.fromkeys(range(1, n + 1), 0)
    byes: Counter[int] = Counter()
    played: set[frozenset[int]] = set()
    tiebreak = {team: rng.random() for team in score}
    for _ in range(rounds):
        order = sorted(score, key=lambda t: (-score[t], tiebreak[t]))
        entries = [SwissEntry(t, score[t], rank, byes[t] > 0) for rank, t in enumerate(order, start=1)]
        pairs = swiss_pairs(entries, played)
        yield entries, frozenset(played), dict(byes), pairs
        for pair in pairs:
            if pair.b is None:
                byes[pair.a] += 1
                score[pair.a] += 2
                continue
            played.add(frozenset((pair.a, pair.b)))
            outcome = rng.choice("abd")
            score[pair.a] += {"a": 2, "b": 0, "d": 1}[outcome]
            score[pair.b] += {"a": 0, "b": 2, "d": 1}[outcome]


@FEWER
@given(n=st.integers(min_value=2, max_value=12), rng=st.randoms(use_true_random=False), data=st.data())
def test_a_simulated_swiss_never_rematches_while_it_can_avoid_it(n, rng, data):
    rounds = data.draw(st.integers(min_value=1, max_value=n - 1), label="rounds")
    for entries, played, byes, pairs in simulate(n, rounds, rng):
        check_pairing(range(1, n + 1), pairs, played, byes=byes)
        rested = [p.a for p in pairs if p.b is None]
        for team in rested:  # no second bye before everyone had one
            assert byes.get(team, 0) == 0 or all(byes.get(t, 0) for t in range(1, n + 1))
        rematches = sum(frozenset(p.entries) in played for p in pairs if p.b is not None)
        if n <= 8:
            assert cost(entries, pairs, played) == least_cost(entries, played)
        elif rematch_free_pairing_exists(entries, played):
            assert rematches == 0


def test_a_field_of_256_is_paired_without_rematches():
    """A large field after four rounds of random pairings; the time is the benchmark's business."""
    rng = random.Random(256)
    teams = list(range(1000, 1256))
    played: set[frozenset[int]] = set()
    for _ in range(4):
        rng.shuffle(teams)
        played |= {frozenset(teams[k : k + 2]) for k in range(0, 256, 2)}
    scores = {team: rng.randrange(0, 10, 2) for team in teams}
    order = sorted(teams, key=lambda t: (-scores[t], t))
    entries = [SwissEntry(t, scores[t], rank, had_bye=rank % 3 == 0) for rank, t in enumerate(order, 1)]

    pairs = swiss_pairs(entries, played)

    check_pairing(teams, pairs, played, allow_rematch=False)
    assert len(pairs) == 128
    for odd in (entries[:-1], entries[1:]):  # 255 teams: the bye to the lowest placed without one
        pairs = swiss_pairs(odd, played)
        check_pairing(
            [e.entry for e in odd],
            pairs,
            played,
            allow_rematch=False,
            byes=[e.entry for e in odd if e.had_bye],
        )
        assert pairs[-1].a == next(e.entry for e in reversed(odd) if not e.had_bye)


EIGHT = "1:0 2:0 3:0 4:0 5:0 6:0 7:0 8:0"


@pytest.mark.parametrize(
    ("teams", "played", "parts"),
    [
        pytest.param(EIGHT, "", "1 2 | 3 4 | 5 6 | 7 8", id="nobody-met-each-table-apart"),
        pytest.param(EIGHT[:-4], "", "1 2 | 3 4 | 5 6 | 7 bye", id="the-bye-in-the-last-part"),
        pytest.param(EIGHT, "1-2 3-4", "1 2 3 4 5 6 | 7 8", id="no-cut-between-teams-that-met"),
        pytest.param(
            "1:4 2:4 3:2 4:2 5:0 6:0", "1-3 2-4 5-6", "1 2 | 3 4 5 6", id="a-rematch-avoided-in-its-part"
        ),
    ],
)
def test_the_graph_falls_apart_where_no_best_pairing_crosses(teams, played, parts):
    """The parts ``swiss_pairs`` matches one by one (written by entry, ``bye`` for the bye);
    that their pairings together are the best is what the brute-force tests above check."""
    order = standings_order(field(teams))
    name = [str(e.entry) for e in order] + ["bye"]
    found = [sorted({v for edge in part for v in edge[:2]}) for part in swiss_parts(order, meetings(played))]
    assert " | ".join(" ".join(name[v] for v in part) for part in found) == parts


# ---------------------------------------------------------------------------
# The weights: 64 bits, each level above everything below it
# ---------------------------------------------------------------------------

# (teams, score range, most earlier opponents of a team): the largest field the product lets an
# organizer make (30 rounds at most, 10 points a result at most) and some smaller ones.
FIELDS = [
    pytest.param(5000, 290, 29, id="5000-teams-30-rounds-10-points-a-win"),
    pytest.param(5001, 290, 29, id="5001-teams-30-rounds-10-points-a-win"),
    pytest.param(5000, 42, 14, id="5000-teams-15th-round-3-points-a-win"),
    pytest.param(1000, 18, 9, id="1000-teams-10th-round-2-points-a-win"),
    pytest.param(256, 16, 8, id="256-teams-9th-round"),
    pytest.param(3, 0, 0, id="3-teams-first-round"),
    pytest.param(40, 12, 39, id="40-teams-everyone-met"),
]


@pytest.mark.parametrize(("teams", "score_range", "most_met"), FIELDS)
def test_the_largest_weight_fits_in_64_bits(teams, score_range, most_met):
    weights = Weights.bound(teams, score_range, most_met)
    assert 0 < weights.score <= weights.bye_rank <= weights.rematch < weights.top < 2**63


def test_the_largest_field_of_the_product_needs_under_57_bits():
    """5,000 teams, 30 rounds, 10 points a win: 2⁶³ leaves more than a hundredfold to spare."""
    assert Weights.bound(5000, score_range=10 * 29, most_met=29).top.bit_length() <= 56


@pytest.mark.parametrize(("teams", "score_range", "most_met"), FIELDS)
def test_each_level_outweighs_every_level_below_it_at_its_largest(teams, score_range, most_met):
    """A whole pairing's cost per level at its largest: ``tables`` pairs at the largest score and
    place gaps, the bye at the largest ``e``. One unit of a level costs more than all of the levels
    below it together, and every edge costs less than ``top`` (its weight is positive)."""
    tables = teams // 2
    place_gap = min(teams - 1, 2 * most_met + 2)
    bye_rank = min(teams - 1, most_met)
    weights = Weights.bound(teams, score_range, most_met)
    place_level = tables * place_gap**2
    score_level = tables * score_range**2 * weights.score
    bye_level = bye_rank * weights.bye_rank
    levels = [  # (one unit of the level, the most all levels below it can add up to)
        (weights.score, place_level),
        (weights.bye_rank, score_level + place_level),
        (weights.rematch, bye_level + score_level + place_level),
    ]
    for unit, below in levels:
        assert unit > below
    largest_pair_edge = weights.rematch + score_range**2 * weights.score + place_gap**2
    largest_bye_edge = bye_rank * weights.bye_rank
    assert max(largest_pair_edge, largest_bye_edge) < weights.top


@BOUNDED
@given(case=fields(min_size=2, max_size=40, max_score=30))
def test_the_weights_built_stay_within_the_bound(case):
    """The edges' weights stay positive and under the bound of the field (its teams, score range and
    most earlier opponents), which the module's docstring derives and the tests above check."""
    entries, played = case
    order = standings_order(entries)
    entry_ids = {e.entry for e in entries}
    most_met = max(sum(e.entry in p and p <= entry_ids for p in played) for e in entries)
    bound = Weights.bound(len(order), order[0].score - order[-1].score, most_met)
    weights = [w for _, _, w in swiss_edges(order, played)]
    assert min(weights) > 0
    assert max(weights) <= bound.top


ALL_TABLES = 2500 * 290**2, 2500 * 60**2  # the product's largest field: every table at the largest gaps


@pytest.mark.parametrize(
    ("cheaper", "dearer"),
    [
        # A pairing's cost: (rematches, the bye's e, squared score differences, squared place differences).
        pytest.param((0, 29, *ALL_TABLES), (1, 0, 0, 0), id="one-rematch-against-all-below"),
        pytest.param((0, 0, *ALL_TABLES), (0, 1, 0, 0), id="the-bye-one-team-up-against-scores-and-places"),
        pytest.param((0, 0, 0, ALL_TABLES[1]), (0, 0, 1, 0), id="one-score-point-against-places"),
        pytest.param((5, 29, *ALL_TABLES), (6, 0, 0, 0), id="the-fewest-rematches"),
    ],
)
def test_a_pairing_cheaper_on_a_level_costs_less_whatever_the_levels_below(cheaper, dearer):
    """Whole pairings of the product's largest field (5,000 teams, 30 rounds, 10 points a win),
    the cheaper one at its worst on every level below the one that decides."""
    weights = Weights.bound(5000, 290, 29)
    units = (weights.rematch, weights.bye_rank, weights.score, 1)

    def total(cost):
        return sum(unit * level for unit, level in zip(units, cost, strict=True))

    assert total(cheaper) < total(dearer)


def test_a_field_too_large_for_64_bit_weights_is_refused():
    """Scores 2⁴⁰ apart (no tournament of the product reaches them) would need weights beyond 2⁶³:
    refused with a message rather than paired with weights rustworkx might overflow."""
    with pytest.raises(PairingError, match=r"too large to pair: 3 teams with scores 0 to 1099511627776"):
        swiss_pairs(field(f"1:{2**40} 2:0 3:0"), set())


# ---------------------------------------------------------------------------
# rustworkx: the integers it takes, and the same optimum as networkx
# ---------------------------------------------------------------------------


def test_rustworkx_decides_by_one_at_the_64_bit_limit():
    """Weights just under 2⁶³ (more than any pairing uses) are exact: a difference of one decides."""
    big = 2**63 - 2
    graph = rx.PyGraph()
    graph.add_nodes_from(range(4))
    graph.add_edges_from([(0, 1, big), (2, 3, big), (0, 2, big), (1, 3, big + 1)])
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int, verify_optimum=True)
    assert {tuple(sorted(pair)) for pair in matching} == {(0, 2), (1, 3)}


def test_rustworkx_refuses_a_weight_beyond_128_bits():
    """It reads weights as Rust i128 (and computes with them unchecked: swiss.py stays under 2⁶³)."""
    graph = rx.PyGraph()
    graph.add_nodes_from(range(2))
    graph.add_edge(0, 1, 2**127)
    with pytest.raises(OverflowError):
        rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)


def random_tournament(seed: int) -> tuple[list[SwissEntry], set[frozenset[int]]]:
    """A field of 6 to 60 teams after a few simulated rounds, plus some random earlier meetings
    (rematches that could not be avoided, pairs of a previous stage)."""
    rng = random.Random(seed)
    n = rng.randint(6, 60)
    rounds = rng.randint(1, min(n - 1, 9))
    entries, played, _, _ = list(simulate(n, rounds, rng))[-1]
    extra = {frozenset(rng.sample(range(1, n + 1), 2)) for _ in range(rng.randint(0, n))}
    return entries, set(played) | extra


def networkx_pairs(order: Sequence[SwissEntry], played) -> list[Pair]:
    """The pairing networkx finds on the same graph, with the same weights."""
    graph = nx.Graph()
    graph.add_nodes_from(range(len(order) + len(order) % 2))
    graph.add_weighted_edges_from(swiss_edges(order, played))
    pairs = []
    for u, v in nx.max_weight_matching(graph, maxcardinality=True):
        i, j = sorted((u, v))
        pairs.append(Pair(order[i].entry, None if j == len(order) else order[j].entry))
    return pairs


@pytest.mark.parametrize("seed", range(30))
def test_rustworkx_finds_the_same_optimum_as_networkx(seed):
    entries, played = random_tournament(seed)
    order = standings_order(entries)
    weight = {frozenset((u, v)): w for u, v, w in swiss_edges(order, played)}
    place = {e.entry: p for p, e in enumerate(order)} | {None: len(order)}

    def total(pairs):
        return sum(weight[frozenset((place[p.a], place[p.b]))] for p in pairs)

    ours, theirs = swiss_pairs(entries, played), networkx_pairs(order, played)
    assert len(ours) == len(theirs) == (len(entries) + 1) // 2
    assert total(ours) == total(theirs)
    assert cost(entries, ours, played) == cost(entries, theirs, played)

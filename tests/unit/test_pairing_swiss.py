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
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Pair, PairingError, SwissEntry, Weights, check_pairing, swiss_pairs

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


def by_cost_full_graph(entries: Sequence[SwissEntry], played) -> list[Pair]:
    """The same matching on the complete graph, every pair an edge: what ``swiss_pairs`` would
    give if it built every edge. Uses the module's weights (the brute force checks those)."""
    order = standings_order(entries)
    n = len(order)
    weights = Weights.for_field(n, order[0].score - order[-1].score)
    graph = nx.Graph()
    for i, j in itertools.combinations(range(n), 2):
        rematch = frozenset((order[i].entry, order[j].entry)) in played
        c = rematch * weights.rematch + (order[i].score - order[j].score) ** 2 * weights.score + (j - i) ** 2
        graph.add_edge(i, j, weight=weights.top - c)
    if n % 2:
        for i in range(n):
            c = order[i].had_bye * weights.bye_again + (n - 1 - i) * weights.bye_rank
            graph.add_edge(i, "bye", weight=weights.top - c)
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

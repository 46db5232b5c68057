"""The standings table: ranking by an order of tie-breaks, shared ranks, head-to-head,
cuts, checked orders; properties that hold for any results; a 256-team Swiss."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.test_standings_metrics import RESULTS, TEAMS
from tournaments.standings import (
    DEFAULT_ORDER,
    METRICS,
    Result,
    Row,
    Scoring,
    compute_standings,
    level_at_cut,
    validate_order,
)

BOUNDED = settings(max_examples=100, deadline=None)


def table(rows):
    """(entry, rank) pairs, best first."""
    return [(row.entry, row.rank) for row in rows]


def won(a, b, points=(1000, 800)):
    """``a`` beat ``b`` by ``points``."""
    return Result(a=a, b=b, points=points, winner=0)


# The order decides -----------------------------------------------------------------------
# The made-up tournament of test_standings_metrics (values worked out there):
#   team  MP  wins  GP    diff  Buchholz  suffered
#   1     4   2     2720  +620  10        2
#   2     4   1     1645  -365   8        3
#   3     3   1     2660   +50  11        2
#   4     3   0     1330  -550   7        4
#   5     4   1     2020  +245   7        1


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        # MP 4: {1, 2, 5} did not all meet → h2h level → diff 620, 245, -365.
        # MP 3: {3, 4} drew → h2h level → diff 50, -550.
        pytest.param(DEFAULT_ORDER, [(1, 1), (5, 2), (2, 3), (3, 4), (4, 5)], id="default"),
        # game points first: 2720, 2660, 2020, 1645, 1330
        pytest.param(["game_points"], [(1, 1), (3, 2), (5, 3), (2, 4), (4, 5)], id="game-points-first"),
        # point difference first: +620, +245, +50, -365, -550 (3 and 5 swap places)
        pytest.param(["point_difference"], [(1, 1), (5, 2), (3, 3), (2, 4), (4, 5)], id="difference-first"),
        # MP then Buchholz: MP 4 → 10, 8, 7 (1, 2, 5); MP 3 → 11, 7 (3, 4)
        pytest.param(["match_points", "buchholz"], [(1, 1), (2, 2), (5, 3), (3, 4), (4, 5)], id="buchholz"),
        # MP then fewest suffered: MP 4 → 1, 2, 3 (5, 1, 2); MP 3 → 2, 4 (3, 4)
        pytest.param(["match_points", "suffered"], [(5, 1), (1, 2), (2, 3), (3, 4), (4, 5)], id="suffered"),
        # MP then wins: 1 (2 wins); 2 and 5 (1 win) share 2nd; 3 (1 win) before 4 (0 wins)
        pytest.param(["match_points", "wins"], [(1, 1), (2, 2), (5, 2), (3, 4), (4, 5)], id="wins"),
        # wins only: 1; then 2, 3, 5 with one win share 2nd; 4
        pytest.param(["wins"], [(1, 1), (2, 2), (3, 2), (5, 2), (4, 5)], id="wins-only"),
        # MP only: 1, 2, 5 share 1st; 3, 4 share 4th
        pytest.param(["match_points"], [(1, 1), (2, 1), (5, 1), (3, 4), (4, 4)], id="match-points-only"),
    ],
)
def test_each_order_of_tie_breaks_ranks_the_same_results_as_worked_out(order, expected):
    assert table(compute_standings(TEAMS, RESULTS, order)) == expected


def test_the_scoring_changes_the_ranking():
    # A bye worth nothing: MP 1: 4, 2: 2, 3: 3, 4: 1, 5: 2 → 1, 3, then 2 and 5 level on MP:
    # 2 beat 5, so head-to-head puts 2 first despite 5's better difference (+245 v -365); 4.
    rows = compute_standings(TEAMS, RESULTS, DEFAULT_ORDER, Scoring(bye=0))
    assert table(rows) == [(1, 1), (3, 2), (2, 3), (5, 4), (4, 5)]


def test_teams_equal_on_every_metric_share_a_rank_and_are_listed_by_entry_id():
    results = [
        won(4, 1, (1000, 900)),
        won(2, 3, (1000, 900)),
        Result(a=5, b=6, points=(700, 700), winner=None),
    ]
    rows = compute_standings([6, 5, 4, 3, 2, 1], results, ["match_points", "point_difference"])
    assert table(rows) == [(2, 1), (4, 1), (5, 3), (6, 3), (1, 5), (3, 5)]


def test_an_empty_table_and_a_table_before_any_match():
    assert compute_standings([], [], DEFAULT_ORDER) == []
    assert table(compute_standings([3, 1, 2], [], DEFAULT_ORDER)) == [(1, 1), (2, 1), (3, 1)]


def test_an_entry_listed_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        compute_standings([1, 1], [], DEFAULT_ORDER)


def test_a_row_gives_rank_values_and_record():
    row = compute_standings(TEAMS, RESULTS, DEFAULT_ORDER)[0]
    assert row == Row(
        entry=1,
        rank=1,
        values={
            "match_points": 4,
            "wins": 2,
            "game_points": 2720,
            "points_against": 2100,
            "point_difference": 620,
            "head_to_head": 0,
            "buchholz": 10,
            "suffered": 2,
        },
        played=3,
        won=2,
        drawn=0,
        lost=1,
        byes=0,
    )


# Head-to-head ----------------------------------------------------------------------------


def test_head_to_head_resolves_a_two_team_tie():
    # 1 and 2 both have 2 MP; 2 beat 1 (by 20), though 1 has the better difference.
    #   1: L 2 (-20), W 3 (+900) → diff +880      2: W 1 (+20), L 4 (-10) → diff +10
    #   3: 0 MP      4: W 2, W 3 → 4 MP
    results = [
        won(2, 1, (1010, 990)),
        won(1, 3, (1000, 100)),
        won(4, 2, (1005, 995)),
        won(4, 3, (1000, 900)),
    ]
    assert table(compute_standings([1, 2, 3, 4], results, DEFAULT_ORDER)) == [(4, 1), (2, 2), (1, 3), (3, 4)]
    by_difference = ["match_points", "point_difference"]
    assert table(compute_standings([1, 2, 3, 4], results, by_difference)) == [(4, 1), (1, 2), (2, 3), (3, 4)]


def test_head_to_head_resolves_a_three_team_tie_against_the_difference():
    # 1, 2, 3 have 4 MP each and all met: 1 beat 2 and 3, 2 beat 3 → mini-league 4, 2, 0.
    # Their differences run the other way: 1: +10+5 = +15   2: -10+20+200 = +210
    #   3: -5-20+700+700 = +1375.  4 (0 MP, -200-700 = -900) and 5 (0 MP, -700) never met.
    results = [
        won(1, 2, (1000, 990)),
        won(1, 3, (1000, 995)),
        won(2, 3, (1000, 980)),
        won(2, 4, (1000, 800)),
        won(3, 4, (1000, 300)),
        won(3, 5, (1000, 300)),
    ]
    rows = compute_standings([1, 2, 3, 4, 5], results, DEFAULT_ORDER)
    assert table(rows) == [(1, 1), (2, 2), (3, 3), (5, 4), (4, 5)]
    assert [row.values["head_to_head"] for row in rows] == [4, 2, 0, 0, 0]
    by_difference = ["match_points", "point_difference"]
    assert table(compute_standings([1, 2, 3, 4, 5], results, by_difference))[:3] == [(3, 1), (2, 2), (1, 3)]


CIRCLE = [won(1, 2, (1000, 900)), won(2, 3, (1000, 500)), won(3, 1, (1000, 990))]
# each has 2 MP and 2 head-to-head; differences 1: +100-10 = +90   2: -100+500 = +400
#   3: -500+10 = -490


def test_a_circular_three_way_tie_stays_level_on_head_to_head():
    rows = compute_standings([1, 2, 3], CIRCLE, ["match_points", "head_to_head"])
    assert table(rows) == [(1, 1), (2, 1), (3, 1)]
    assert [row.values["head_to_head"] for row in rows] == [2, 2, 2]


def test_after_a_circular_tie_the_next_metric_decides():
    assert table(compute_standings([1, 2, 3], CIRCLE, DEFAULT_ORDER)) == [(2, 1), (1, 2), (3, 3)]


def test_head_to_head_only_looks_at_the_group_level_before_it():
    # 1 beat 2, but 2 has more MP: head-to-head never compares teams that are not level.
    results = [won(1, 2), won(2, 3), won(2, 4), won(3, 1)]
    assert table(compute_standings([1, 2, 3, 4], results, DEFAULT_ORDER))[0] == (2, 1)


def test_head_to_head_later_in_the_order_sees_the_group_level_on_everything_before_it():
    # 1 and 2 level on MP (2 each) and on wins; 2 beat 1 → 2 first.
    # With point difference before head-to-head, 1's +900 puts it first.
    results = [won(2, 1, (1010, 990)), won(1, 3, (1000, 100)), won(4, 2, (1005, 995)), won(4, 3)]
    order = ["match_points", "wins", "head_to_head"]
    assert table(compute_standings([1, 2, 3, 4], results, order))[1:3] == [(2, 2), (1, 3)]
    order = ["match_points", "point_difference", "head_to_head"]
    assert table(compute_standings([1, 2, 3, 4], results, order))[1:3] == [(1, 2), (2, 3)]


# Cuts ------------------------------------------------------------------------------------


def rows_ranked(*ranks):
    return [
        Row(entry=10 + i, rank=rank, values={}, played=0, won=0, drawn=0, lost=0)
        for i, rank in enumerate(ranks)
    ]


@pytest.mark.parametrize(
    ("ranks", "cut", "level"),
    [
        ((1, 2, 3, 3, 5), 3, [12, 13]),  # only one of the two rank-3 teams can be 3rd
        ((1, 2, 3, 4), 3, []),
        ((1, 2, 2, 4), 3, []),  # both rank-2 teams are inside the top 3
        ((1, 2, 2, 4), 2, [11, 12]),
        ((1, 1, 1, 4), 1, [10, 11, 12]),  # a tie for the title
        ((1, 1, 1, 4), 2, [10, 11, 12]),
        ((1, 1, 1, 4), 3, []),
        ((1, 2, 3, 3), 3, [12, 13]),
        ((1, 2, 3, 3), 4, []),  # everybody is inside the cut
        ((1, 1), 8, []),
        ((1, 2, 2, 2, 2, 6), 4, [11, 12, 13, 14]),
    ],
)
def test_level_at_cut_names_the_teams_that_need_a_play_off(ranks, cut, level):
    assert level_at_cut(rows_ranked(*ranks), cut) == level


def test_level_at_cut_on_real_standings():
    rows = compute_standings(TEAMS, RESULTS, ["match_points"])  # 1, 2, 5 share 1st; 3, 4 share 4th
    assert level_at_cut(rows, 1) == [1, 2, 5]
    assert level_at_cut(rows, 3) == []
    assert level_at_cut(rows, 4) == [3, 4]


def test_a_cut_is_a_place_from_1():
    with pytest.raises(ValueError, match="place"):
        level_at_cut(rows_ranked(1, 2), 0)


# Orders are checked ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("order", "message"),
    [
        pytest.param([], "at least one", id="empty"),
        pytest.param(["match_points", "elo"], "unknown metric 'elo'", id="unknown"),
        pytest.param(["match_points", 3], "unknown metric 3", id="not-a-string"),
        pytest.param(["wins", "buchholz", "wins"], "'wins' is chosen more than once", id="repeated"),
        pytest.param(["head_to_head", "match_points"], "cannot come first", id="head-to-head-first"),
        pytest.param("match_points", "not the string", id="a-string"),
    ],
)
def test_an_order_that_cannot_rank_is_refused(order, message):
    with pytest.raises(ValueError, match=message):
        validate_order(order)
    with pytest.raises(ValueError, match=message):
        compute_standings([1, 2], [], order)


@pytest.mark.parametrize(
    "order", [DEFAULT_ORDER, ["suffered"], ["wins", "head_to_head"], list(METRICS)[::-1]]
)
def test_a_usable_order_passes(order):
    validate_order(order)


# Properties ------------------------------------------------------------------------------

SCORINGS = st.builds(
    Scoring,
    win=st.integers(1, 3),
    draw=st.integers(0, 2),
    loss=st.integers(0, 1),
    bye=st.integers(0, 3),
    bye_game_points=st.sampled_from([0, 500]),
)
ORDERS = (
    st.permutations(list(METRICS))
    .flatmap(lambda keys: st.integers(1, len(keys)).map(lambda n: keys[:n]))
    .filter(lambda order: order[0] != "head_to_head")
)


@st.composite
def tournaments(draw):
    """Teams 1..n and any finished matches or byes between them (repeats allowed)."""
    n = draw(st.integers(1, 10))
    teams = list(range(1, n + 1))
    one = st.sampled_from(teams)
    result = st.one_of(
        st.builds(lambda a: Result(a=a, b=None, points=(0, 0), winner=0), one),
        st.tuples(one, one, st.tuples(st.integers(0, 30), st.integers(0, 30)), st.sampled_from([0, 1, None]))
        .filter(lambda t: t[0] != t[1])
        .map(
            lambda t: Result(
                a=t[0],
                b=t[1],
                points=(t[2][0] * 10, t[2][1] * 10),
                winner=t[3],
                suffered=(t[2][0] % 3, t[2][1] % 2),
            )
        ),
    )
    # few distinct point totals, so that ties (and head-to-head groups) are common
    return teams, draw(st.lists(result, max_size=25))


def ordered_values(row, order):
    return tuple(row.values[key] for key in order)


@BOUNDED
@given(tournaments(), ORDERS, SCORINGS)
def test_ranks_start_at_1_and_never_go_down(tournament, order, scoring):
    teams, results = tournament
    rows = compute_standings(teams, results, order, scoring)
    ranks = [row.rank for row in rows]
    assert ranks[0] == 1
    assert ranks == sorted(ranks)
    assert all(rank == ranks.index(rank) + 1 for rank in ranks)  # 1, 2, 2, 4: competition ranking
    assert sorted(row.entry for row in rows) == teams


@BOUNDED
@given(tournaments(), ORDERS, SCORINGS)
def test_equal_values_on_every_ordered_metric_if_and_only_if_equal_rank(tournament, order, scoring):
    teams, results = tournament
    rows = compute_standings(teams, results, order, scoring)
    for first in rows:
        for second in rows:
            same = ordered_values(first, order) == ordered_values(second, order)
            assert same == (first.rank == second.rank)


@BOUNDED
@given(tournaments(), ORDERS, SCORINGS)
def test_rows_follow_each_metric_in_its_direction(tournament, order, scoring):
    teams, results = tournament
    rows = compute_standings(teams, results, order, scoring)

    def key(row):
        return tuple(
            -v if not METRICS[k].ascending else v
            for k, v in zip(order, ordered_values(row, order), strict=True)
        )

    assert [key(row) for row in rows] == sorted(key(row) for row in rows)
    for before, after in itertools.pairwise(rows):
        if before.rank == after.rank:
            assert before.entry < after.entry


@BOUNDED
@given(tournaments(), ORDERS, SCORINGS)
def test_the_match_points_add_up_to_what_the_results_award(tournament, order, scoring):
    teams, results = tournament
    awarded = 0
    for result in results:
        if result.b is None:
            awarded += scoring.bye
        elif result.winner is None:
            awarded += 2 * scoring.draw
        else:
            awarded += scoring.win + scoring.loss
    rows = compute_standings(teams, results, order, scoring)
    assert sum(row.values["match_points"] for row in rows) == awarded
    assert sum(row.played for row in rows) == 2 * sum(1 for r in results if r.b is not None)
    assert sum(row.byes for row in rows) == sum(1 for r in results if r.b is None)
    assert all(row.played == row.won + row.drawn + row.lost for row in rows)


@BOUNDED
@given(tournaments(), ORDERS, SCORINGS, st.randoms(use_true_random=False))
def test_the_order_of_the_results_and_of_the_entries_does_not_matter(tournament, order, scoring, rnd):
    teams, results = tournament
    shuffled_results, shuffled_teams = list(results), list(teams)
    rnd.shuffle(shuffled_results)
    rnd.shuffle(shuffled_teams)
    assert compute_standings(shuffled_teams, shuffled_results, order, scoring) == compute_standings(
        teams, results, order, scoring
    )


@BOUNDED
@given(tournaments(), ORDERS, SCORINGS)
def test_game_points_and_differences_balance(tournament, order, scoring):
    teams, results = tournament
    rows = compute_standings(teams, results, order, scoring)
    byes = sum(1 for r in results if r.b is None)
    assert sum(row.values["point_difference"] for row in rows) == byes * scoring.bye_game_points
    assert sum(row.values["game_points"] for row in rows) == (
        sum(sum(r.points) for r in results) + byes * scoring.bye_game_points
    )


# A big Swiss -----------------------------------------------------------------------------


def random_swiss(teams: int, rounds: int, seed: int) -> list[Result]:
    """Random pairings each round (an odd team out gets the bye), random outcomes."""
    rnd = random.Random(seed)
    ids = list(range(1, teams + 1))
    results = []
    for _ in range(rounds):
        rnd.shuffle(ids)
        if len(ids) % 2:
            results.append(Result(a=ids[-1], b=None, points=(0, 0), winner=0))
        for a, b in zip(ids[0:-1:2], ids[1::2], strict=True):
            points = (rnd.randrange(0, 1600, 10), rnd.randrange(0, 1600, 10))
            winner = None if points[0] == points[1] else (0 if points[0] > points[1] else 1)
            results.append(
                Result(a=a, b=b, points=points, winner=winner, suffered=(rnd.randrange(3), rnd.randrange(3)))
            )
    return results


def earned(result: Result, side: int, scoring: Scoring) -> int:
    if result.winner is None:
        return scoring.draw
    return scoring.win if result.winner == side else scoring.loss


def oracle(teams: list[int], results: list[Result], scoring: Scoring) -> dict[int, dict[str, int]]:
    """The plain metrics team by team, each read straight off the results (slow on purpose)."""

    def mp(team: int) -> int:
        total = 0
        for r in results:
            if r.b is None:
                total += scoring.bye if r.a == team else 0
            elif team in (r.a, r.b):
                total += earned(r, 0 if r.a == team else 1, scoring)
        return total

    points = {team: mp(team) for team in teams}
    out = {}
    for team in teams:
        mine = [(r, 0 if r.a == team else 1) for r in results if r.b is not None and team in (r.a, r.b)]
        byes = sum(1 for r in results if r.b is None and r.a == team)
        out[team] = {
            "match_points": points[team],
            "wins": sum(1 for r, side in mine if r.winner == side),
            "game_points": sum(r.points[side] for r, side in mine) + byes * scoring.bye_game_points,
            "points_against": sum(r.points[1 - side] for r, side in mine),
            "point_difference": sum(r.points[side] - r.points[1 - side] for r, side in mine)
            + byes * scoring.bye_game_points,
            "buchholz": sum(points[r.b if side == 0 else r.a] for r, side in mine),
            "suffered": sum(r.suffered[side] for r, side in mine),
        }
    return out


def oracle_head_to_head(group: list[int], results: list[Result], scoring: Scoring) -> dict[int, int]:
    met: dict[frozenset[int], list[Result]] = defaultdict(list)
    for r in results:
        if r.b is not None and r.a in group and r.b in group:
            met[frozenset((r.a, r.b))].append(r)
    if any(frozenset((x, y)) not in met for x in group for y in group if x < y):
        return dict.fromkeys(group, 0)
    out = dict.fromkeys(group, 0)
    for games in met.values():
        for r in games:
            for side, team in enumerate((r.a, r.b)):
                out[team] += earned(r, side, scoring)
    return out


@pytest.mark.parametrize("order", [DEFAULT_ORDER, ["match_points", "buchholz", "suffered", "wins"]])
def test_256_teams_9_rounds_are_ranked_as_the_oracle_ranks_them(order):
    teams = list(range(1, 257))
    results = random_swiss(256, 9, seed=20240907)
    scoring = Scoring(win=3, draw=1, loss=0, bye=3, bye_game_points=500)
    rows = compute_standings(teams, results, order, scoring)

    expected = oracle(teams, results, scoring)
    if "head_to_head" in order:
        before = order[: order.index("head_to_head")]
        groups = defaultdict(list)
        for team in teams:
            groups[tuple(expected[team][k] for k in before)].append(team)
        for group in groups.values():
            for team, value in oracle_head_to_head(group, results, scoring).items():
                expected[team]["head_to_head"] = value

    def key(team):
        return tuple(expected[team][k] if METRICS[k].ascending else -expected[team][k] for k in order)

    ranked = sorted(teams, key=lambda team: (key(team), team))
    assert [row.entry for row in rows] == ranked
    for row in rows:
        assert {k: v for k, v in row.values.items() if k in expected[row.entry]} == expected[row.entry]
        assert row.played == 9 and row.byes == 0
        assert row.rank == 1 + sum(1 for team in teams if key(team) < key(row.entry))

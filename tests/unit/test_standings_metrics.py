"""Every tie-break metric against values worked out by hand on a small made-up tournament.

Five teams, three rounds, one bye a round (ids 1-5: Aces, Kings, Queens, Jacks,
Tens). ``suffered`` is the mesa/inside count of each side.

    round  a  b    points        winner  suffered
    1      1  2    1020 – 640    a       0 – 2
    1      3  4     880 – 880    draw    1 – 1
    1      5  bye
    2      1  3     700 – 1010   b       2 – 0
    2      2  5    1005 – 990    a       1 – 1
    2      4  bye
    3      1  4    1000 – 450    a       0 – 3
    3      5  3    1030 – 770    a       0 – 1
    3      2  bye

Default scoring (win 2, draw 1, loss 0, bye 2, no game points for a bye):

    team  results             P W D L bye  MP   GP for  against  diff  suffered  opponents
    1     W 2, L 3, W 4       3 2 0 1  0    4    2720     2100    +620     2       2, 3, 4
    2     L 1, W 5, bye       2 1 0 1  1    4    1645     2010    -365     3       1, 5
    3     D 4, W 1, L 5       3 1 1 1  0    3    2660     2610     +50     2       4, 1, 5
    4     D 3, bye, L 1       2 0 1 1  1    3    1330     1880    -550     4       3, 1
    5     bye, L 2, W 3       2 1 0 1  1    4    2020     1775    +245     1       2, 3

    GP for:  1: 1020+700+1000   2: 640+1005+0     3: 880+1010+770   4: 880+0+450   5: 0+990+1030
    against: 1: 640+1010+450    2: 1020+990       3: 880+700+1030   4: 880+1000    5: 1005+770
    Buchholz (opponents' MP):   1: 4+3+3 = 10     2: 4+4 = 8        3: 3+4+4 = 11
                                4: 3+4 = 7        5: 4+3 = 7
"""

from __future__ import annotations

import pytest

from tournaments.standings import (
    DEFAULT_ORDER,
    METRICS,
    GroupMetric,
    Result,
    Scoring,
    compute_standings,
    tally,
)

TEAMS = [1, 2, 3, 4, 5]
RESULTS = [
    Result(a=1, b=2, points=(1020, 640), winner=0, suffered=(0, 2)),
    Result(a=3, b=4, points=(880, 880), winner=None, suffered=(1, 1)),
    Result(a=5, b=None, points=(0, 0), winner=0),
    Result(a=1, b=3, points=(700, 1010), winner=1, suffered=(2, 0)),
    Result(a=2, b=5, points=(1005, 990), winner=0, suffered=(1, 1)),
    Result(a=4, b=None, points=(0, 0), winner=0),
    Result(a=1, b=4, points=(1000, 450), winner=0, suffered=(0, 3)),
    Result(a=5, b=3, points=(1030, 770), winner=0, suffered=(0, 1)),
    Result(a=2, b=None, points=(0, 0), winner=0),
]

# team: (match_points, wins, game_points, point_difference, buchholz, suffered)
BY_HAND = {
    1: (4, 2, 2720, 620, 10, 2),
    2: (4, 1, 1645, -365, 8, 3),
    3: (3, 1, 2660, 50, 11, 2),
    4: (3, 0, 1330, -550, 7, 4),
    5: (4, 1, 2020, 245, 7, 1),
}
PLAIN = ("match_points", "wins", "game_points", "point_difference", "buchholz", "suffered")


def values_of(rows):
    return {row.entry: row.values for row in rows}


# The metrics themselves ------------------------------------------------------------------


def test_the_registry_holds_every_metric_of_the_issue_by_its_key():
    assert set(METRICS) == {*PLAIN, "head_to_head", "points_against"}
    for key, metric in METRICS.items():
        assert metric.key == key
        assert metric.name and metric.abbr


@pytest.mark.parametrize(
    ("key", "ascending"),
    [
        ("match_points", False),
        ("wins", False),
        ("game_points", False),
        ("point_difference", False),
        ("head_to_head", False),
        ("buchholz", False),
        ("suffered", True),
        ("points_against", True),
    ],
)
def test_only_suffered_and_points_against_are_better_when_fewer(key, ascending):
    assert METRICS[key].ascending is ascending


def test_the_default_order_is_match_points_head_to_head_difference_game_points():
    assert DEFAULT_ORDER == ("match_points", "head_to_head", "point_difference", "game_points")


@pytest.mark.parametrize("key", PLAIN)
def test_each_metric_matches_the_values_worked_out_by_hand(key):
    rows = compute_standings(TEAMS, RESULTS, DEFAULT_ORDER)
    expected = {team: values[PLAIN.index(key)] for team, values in BY_HAND.items()}
    assert {entry: values[key] for entry, values in values_of(rows).items()} == expected


@pytest.mark.parametrize("key", PLAIN)
def test_a_metric_reads_one_record_of_the_tally(key):
    counted = tally(RESULTS)
    assert METRICS[key].value(counted.record(1), counted) == BY_HAND[1][PLAIN.index(key)]


def test_played_won_drawn_lost_and_byes_are_counted_per_team():
    rows = {row.entry: row for row in compute_standings(TEAMS, RESULTS, DEFAULT_ORDER)}
    assert {e: (r.played, r.won, r.drawn, r.lost, r.byes) for e, r in rows.items()} == {
        1: (3, 2, 0, 1, 0),
        2: (2, 1, 0, 1, 1),
        3: (3, 1, 1, 1, 0),
        4: (2, 0, 1, 1, 1),
        5: (2, 1, 0, 1, 1),
    }


def test_every_row_carries_every_metric_whatever_the_order():
    for row in compute_standings(TEAMS, RESULTS, ["wins"]):
        assert list(row.values) == list(METRICS)


# Draws and byes as configured ------------------------------------------------------------


def test_wins_draws_and_byes_earn_the_configured_match_points():
    # win 3, draw 1, loss 0, bye 1:
    #   1: W W L = 3+3+0 = 6    2: L W bye = 0+3+1 = 4    3: D W L = 1+3+0 = 4
    #   4: D bye L = 1+1+0 = 2  5: bye L W = 1+0+3 = 4
    rows = compute_standings(TEAMS, RESULTS, DEFAULT_ORDER, Scoring(win=3, draw=1, loss=0, bye=1))
    assert {e: v["match_points"] for e, v in values_of(rows).items()} == {1: 6, 2: 4, 3: 4, 4: 2, 5: 4}


def test_a_bye_worth_nothing_when_so_configured():
    rows = compute_standings(TEAMS, RESULTS, DEFAULT_ORDER, Scoring(bye=0))
    assert {e: v["match_points"] for e, v in values_of(rows).items()} == {1: 4, 2: 2, 3: 3, 4: 1, 5: 2}


def test_a_loss_can_be_worth_a_point():
    # win 3, draw 2, loss 1, bye 3: 1: 3+1+3 = 7   3: 2+3+1 = 6   4: 2+3+1 = 6
    rows = compute_standings(TEAMS, RESULTS, DEFAULT_ORDER, Scoring(win=3, draw=2, loss=1, bye=3))
    assert {e: v["match_points"] for e, v in values_of(rows).items()} == {1: 7, 2: 7, 3: 6, 4: 6, 5: 7}


def test_configured_bye_game_points_count_for_and_in_the_difference():
    # 500 for each bye of 2, 4 and 5, nothing against:
    #   GP   2: 1645+500 = 2145   4: 1330+500 = 1830   5: 2020+500 = 2520
    #   diff 2: -365+500 = 135    4: -550+500 = -50    5: 245+500 = 745
    rows = compute_standings(TEAMS, RESULTS, DEFAULT_ORDER, Scoring(bye_game_points=500))
    values = values_of(rows)
    assert {e: v["game_points"] for e, v in values.items()} == {1: 2720, 2: 2145, 3: 2660, 4: 1830, 5: 2520}
    assert {e: v["point_difference"] for e, v in values.items()} == {1: 620, 2: 135, 3: 50, 4: -50, 5: 745}


def test_a_bye_is_not_a_match_played_nor_a_win():
    rows = {row.entry: row for row in compute_standings([5], RESULTS[2:3], ["wins"])}
    assert (rows[5].played, rows[5].won, rows[5].byes, rows[5].values["wins"]) == (0, 0, 1, 0)
    assert rows[5].values["match_points"] == 2


def test_a_bye_adds_nothing_to_buchholz():
    # 5's only results: the bye (no opponent) and the loss to 2 (MP 2 here, from beating 5).
    results = [RESULTS[2], RESULTS[4]]
    values = values_of(compute_standings([2, 5], results, DEFAULT_ORDER))
    assert values[5]["buchholz"] == 2
    assert values[2]["buchholz"] == 2  # 5's bye


def test_buchholz_counts_an_opponent_once_per_meeting():
    # 1 and 2 meet twice, 1 wins both: 1 has 4 MP, 2 has 0. 2's Buchholz: 4 + 4.
    results = [Result(a=1, b=2, points=(900, 500), winner=0), Result(a=2, b=1, points=(400, 800), winner=1)]
    values = values_of(compute_standings([1, 2], results, DEFAULT_ORDER))
    assert (values[1]["buchholz"], values[2]["buchholz"]) == (0, 8)


# Withdrawn teams -------------------------------------------------------------------------


def test_results_against_a_team_left_out_still_count_for_its_opponents():
    rows = compute_standings([1, 2, 3, 5], RESULTS, DEFAULT_ORDER)  # 4 withdrew
    values = values_of(rows)
    assert set(values) == {1, 2, 3, 5}
    assert values[1]["match_points"] == 4  # the win over 4 stays
    assert values[1]["buchholz"] == 10  # 4's 3 MP still count
    assert values[3]["game_points"] == 2660  # the draw with 4 stays
    assert [row.rank for row in rows] == [1, 2, 3, 4]


def test_a_team_without_results_has_zeros():
    values = values_of(compute_standings([1, 9], RESULTS, DEFAULT_ORDER))[9]
    assert set(values.values()) == {0}


# Head-to-head ----------------------------------------------------------------------------


def test_head_to_head_is_a_group_metric():
    assert isinstance(METRICS["head_to_head"], GroupMetric)


def test_head_to_head_is_the_mini_league_of_the_teams_level_before_it():
    # MP 4: {1, 2, 5}, but 1 and 5 never met → all 0.  MP 3: {3, 4}, drew → 1 each.
    values = values_of(compute_standings(TEAMS, RESULTS, DEFAULT_ORDER))
    assert {e: v["head_to_head"] for e, v in values.items()} == {1: 0, 2: 0, 3: 1, 4: 1, 5: 0}


def test_head_to_head_of_a_complete_mini_league():
    # 1 beat 2 and 3, 2 beat 3: 1 has 4, 2 has 2, 3 has 0 against the others of the group.
    results = [
        Result(a=1, b=2, points=(1000, 990), winner=0),
        Result(a=1, b=3, points=(1000, 995), winner=0),
        Result(a=2, b=3, points=(1000, 980), winner=0),
        Result(a=2, b=4, points=(1000, 800), winner=0),
    ]
    counted = tally(results)
    assert METRICS["head_to_head"].values([1, 2, 3], counted) == {1: 4, 2: 2, 3: 0}
    # the win over 4 is outside the group and does not count
    assert METRICS["head_to_head"].values([2, 4], counted) == {2: 2, 4: 0}


def test_head_to_head_counts_every_meeting_of_a_double_round_robin():
    results = [
        Result(a=1, b=2, points=(1000, 700), winner=0),
        Result(a=2, b=1, points=(1000, 980), winner=0),
        Result(a=1, b=2, points=(900, 900), winner=None),
    ]
    assert METRICS["head_to_head"].values([1, 2], tally(results)) == {1: 3, 2: 3}


def test_head_to_head_leaves_level_a_group_that_did_not_all_meet():
    # 1 beat 2, 2 beat 3; 1 and 3 never met.
    results = [Result(a=1, b=2, points=(1000, 700), winner=0), Result(a=2, b=3, points=(1000, 700), winner=0)]
    assert METRICS["head_to_head"].values([1, 2, 3], tally(results)) == {1: 0, 2: 0, 3: 0}


def test_head_to_head_out_of_the_order_is_shown_among_teams_sharing_a_rank():
    # order wins only: 1 has 2 wins; 2, 3, 5 share rank 2 (1 win) but did not all meet → 0; 4 alone.
    values = values_of(compute_standings(TEAMS, RESULTS, ["wins"]))
    assert {e: v["head_to_head"] for e, v in values.items()} == {1: 0, 2: 0, 3: 0, 4: 0, 5: 0}
    # order match_points only: 3 and 4 share rank 4 and drew → 1 each
    values = values_of(compute_standings(TEAMS, RESULTS, ["match_points"]))
    assert (values[3]["head_to_head"], values[4]["head_to_head"]) == (1, 1)


# Results are checked ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param(dict(a=1, b=1, points=(1, 0), winner=0), "itself", id="against-itself"),
        pytest.param(dict(a=1, b=2, points=(1, 0), winner=2), "winner", id="winner-2"),
        pytest.param(dict(a=1, b=None, points=(0, 0), winner=None), "bye", id="bye-drawn"),
        pytest.param(dict(a=1, b=None, points=(100, 0), winner=0), "bye_game_points", id="bye-with-points"),
        pytest.param(dict(a=1, b=2, points=(1, 2, 3), winner=0), "pair", id="three-points"),
    ],
)
def test_a_result_that_cannot_be_is_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Result(**kwargs)


def test_points_given_as_lists_become_tuples():
    result = Result(a=1, b=2, points=[900, 800], winner=0, suffered=[1, 0])  # type: ignore[arg-type]
    assert (result.points, result.suffered) == ((900, 800), (1, 0))

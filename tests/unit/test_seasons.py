"""A season's table, counted by hand (league/season_points.py): the scale, the points for taking part,
shared ranks, the best N results, the order of the table and its shared ranks."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.season_points import Event, Result, rank_points, season_standings

F1 = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
NAMES = {p: p.capitalize() for p in ("ana", "bob", "cleo", "dora", "eli", "fay")}


def table(events, **settings):
    settings.setdefault("scale", F1)
    return season_standings([Event(k, ranks) for k, ranks in events], NAMES, **settings)


def line(rows, player):
    return next(row for row in rows if row.player == player)


@pytest.mark.parametrize(
    ("rank", "participation", "points"),
    [(1, 0, 25), (2, 0, 18), (10, 0, 1), (11, 0, 0), (11, 2, 2), (40, 3, 3)],
)
def test_a_rank_earns_its_place_on_the_scale_or_the_participation_points(rank, participation, points):
    assert rank_points(rank, F1, participation) == points


def test_a_rank_starts_at_one():
    with pytest.raises(ValueError):
        rank_points(0, F1)


def test_totals_over_three_events_by_hand():
    rows = table(
        [
            ("spring", {"ana": 1, "bob": 2, "cleo": 3}),
            ("summer", {"bob": 1, "ana": 3, "dora": 2}),
            ("autumn", {"cleo": 1, "ana": 2}),
        ]
    )
    # ana 25 + 15 + 18 = 58; bob 18 + 25 = 43; cleo 15 + 25 = 40; dora 18.
    assert [(r.rank, r.player, r.total, r.played, r.wins) for r in rows] == [
        (1, "ana", 58, 3, 1),
        (2, "bob", 43, 2, 1),
        (3, "cleo", 40, 2, 1),
        (4, "dora", 18, 1, 0),
    ]
    ana = line(rows, "ana")
    assert [(r.event, r.rank, r.points, r.counted) for r in ana.results] == [
        ("spring", 1, 25, True),
        ("summer", 3, 15, True),
        ("autumn", 2, 18, True),
    ]
    assert line(rows, "dora").cells == (None, Result("summer", 2, 18, True), None)


def test_a_rank_past_the_scale_earns_the_participation_points():
    rows = table([("night", {"ana": 1, "bob": 2, "cleo": 3, "dora": 4})], scale=[5, 3], participation=1)
    assert [(r.player, r.total) for r in rows] == [("ana", 5), ("bob", 3), ("cleo", 1), ("dora", 1)]
    assert [r.rank for r in rows] == [1, 2, 3, 4]  # the same points, but cleo finished better


def test_shared_ranks_earn_the_shared_ranks_points():
    # Two losing semi-finalists share 3rd: both earn 3rd's 15; the next is 5th and earns 10.
    rows = table([("cup", {"ana": 1, "bob": 2, "cleo": 3, "dora": 3, "eli": 5})])
    assert {r.player: r.total for r in rows} == {"ana": 25, "bob": 18, "cleo": 15, "dora": 15, "eli": 10}
    assert [(r.player, r.rank) for r in rows] == [
        ("ana", 1),
        ("bob", 2),
        ("cleo", 3),
        ("dora", 3),
        ("eli", 5),
    ]


def test_best_of_drops_the_worst_results():
    rows = table(
        [
            ("e1", {"ana": 4}),  # 12
            ("e2", {"ana": 1}),  # 25
            ("e3", {"ana": 7}),  # 6
            ("e4", {"ana": 2}),  # 18
        ],
        best_of=2,
    )
    ana = rows[0]
    assert ana.total == 25 + 18
    assert ana.played == 4
    assert [(r.event, r.counted) for r in ana.results] == [
        ("e1", False),
        ("e2", True),
        ("e3", False),
        ("e4", True),
    ]
    assert [r.event for r in ana.dropped] == ["e1", "e3"]


def test_best_of_keeps_the_earlier_of_equal_results():
    rows = table([("e1", {"ana": 3}), ("e2", {"ana": 3}), ("e3", {"ana": 3})], best_of=2)
    assert [r.counted for r in rows[0].results] == [True, True, False]
    assert rows[0].total == 30


def test_best_of_more_than_played_counts_everything():
    rows = table([("e1", {"ana": 3}), ("e2", {"ana": 5})], best_of=8)
    assert rows[0].total == 25 and not rows[0].dropped


def test_level_totals_are_ordered_by_wins_then_best_finish_then_name():
    rows = table(
        [
            (
                "e1",
                {"bob": 1, "cleo": 2, "ana": 3, "dora": 3, "eli": 6},
            ),  # bob 25, cleo 18, ana 15, dora 15, eli 8
            ("e2", {"cleo": 7, "ana": 5, "dora": 5, "eli": 2}),  # cleo 6, ana 10, dora 10, eli 18
        ],
        scale=F1,
    )
    # bob 25 (one win), ana 25 (best 3rd), dora 25 (best 3rd), cleo 24, eli 26.
    assert [(r.player, r.total, r.wins, r.best_finish, r.rank) for r in rows] == [
        ("eli", 26, 0, 2, 1),
        ("bob", 25, 1, 1, 2),  # a win comes before the same total without one
        ("ana", 25, 0, 3, 3),  # ana and dora are level on everything: one rank, by name
        ("dora", 25, 0, 3, 3),
        ("cleo", 24, 0, 2, 5),
    ]


def test_the_best_finish_separates_equal_totals_without_wins():
    rows = table([("e1", {"ana": 2, "bob": 3}), ("e2", {"ana": 10, "bob": 3})], scale=[10, 8, 5, 0])
    # ana 8 + 0 = 8, bob 5 + 5 = 10: bob first; then with equal totals:
    assert [r.player for r in rows] == ["bob", "ana"]
    rows = table([("e1", {"bob": 3, "ana": 2}), ("e2", {"bob": 3, "ana": 4})], scale=[10, 8, 5, 2])
    # ana 8 + 2 = 10, bob 5 + 5 = 10: ana's 2nd beats bob's 3rd.
    assert [(r.player, r.rank) for r in rows] == [("ana", 1), ("bob", 2)]


def test_no_events_no_table():
    assert table([]) == []


def test_best_of_is_at_least_one():
    with pytest.raises(ValueError):
        table([("e1", {"ana": 1})], best_of=0)


events_strategy = st.lists(
    st.dictionaries(st.sampled_from(sorted(NAMES)), st.integers(min_value=1, max_value=12), max_size=6),
    max_size=8,
)
scales = st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=10).map(
    lambda s: sorted(s, reverse=True)
)


@given(events_strategy, scales, st.integers(min_value=0, max_value=5), st.none() | st.integers(1, 10))
def test_the_total_is_the_counted_results_and_never_more_than_all(events, scale, participation, best_of):
    participation = min(participation, scale[-1])
    rows = table(list(enumerate(events)), scale=scale, participation=participation, best_of=best_of)
    assert {r.player for r in rows} == {p for ranks in events for p in ranks}
    for row in rows:
        everything = sum(r.points for r in row.results)
        assert row.total == sum(r.points for r in row.results if r.counted)
        assert row.total <= everything
        assert row.played == len(row.results) == sum(c is not None for c in row.cells)
        counted = sum(r.counted for r in row.results)
        assert counted == (row.played if best_of is None else min(best_of, row.played))
        # a dropped result is never worth more than a counted one
        if row.dropped:
            assert max(r.points for r in row.dropped) <= min(r.points for r in row.results if r.counted)
    # the order: total, then wins, then best finish; ranks shared exactly when all three are equal
    keys = [(-r.total, -r.wins, r.best_finish) for r in rows]
    assert keys == sorted(keys)
    for before, after, k1, k2 in zip(rows, rows[1:], keys, keys[1:], strict=False):
        assert (after.rank == before.rank) == (k1 == k2)


def test_the_table_code_imports_no_django():
    source = Path(__file__).resolve().parents[2] / "league" / "season_points.py"
    imported = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & {"django", "rest_framework", "celery", "league", "tournaments", "players"}

"""The standings table: every team's values, sorted by the tournament's order.

``compute_standings`` tallies the results once (O(matches)), computes every
plain metric per team, then sorts (O(teams log teams)). Head-to-head is filled
in group by group: the teams level on the metrics before it in the order form
a group, and only the matches inside a group are looked at.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .metrics import METRICS, GroupMetric, validate_order
from .tally import DEFAULT_SCORING, Penalty, Result, Scoring, Tally, tally


@dataclass(frozen=True)
class Row:
    entry: int
    rank: int  # 1-based; teams equal on every metric of the order share it (1, 2, 2, 4)
    values: Mapping[str, int]  # every metric's value, in METRICS order, not only the order's
    played: int  # matches at the table: won + drawn + lost (byes not included)
    won: int
    drawn: int
    lost: int
    byes: int = 0


def compute_standings(
    entries: Sequence[int],
    results: Iterable[Result],
    order: Sequence[str],
    scoring: Scoring = DEFAULT_SCORING,
    penalties: Iterable[Penalty] = (),
) -> list[Row]:
    """The rows of ``entries``, best first.

    Sorted by the order's metrics, each in its direction; teams equal on all of
    them share a rank and are listed by entry id. Which teams are in the table
    is the caller's choice (leave out a team that withdrew); results against a
    team not in ``entries`` still count for its opponents, and its match points
    still count in their Buchholz.
    """
    validate_order(order)
    entries = list(entries)
    if len(set(entries)) != len(entries):
        raise ValueError("an entry is listed twice")
    counted = tally(results, scoring, penalties)
    records = [counted.record(entry) for entry in entries]
    # Every metric's values, one column a metric in the entries' order: a tournament's standings
    # compute thousands of values, and the sort keys and the rows are then made from the columns.
    columns: dict[str, list[int]] = {}
    for key, metric in METRICS.items():
        if not isinstance(metric, GroupMetric):
            value = metric.value
            columns[key] = [value(record, counted) for record in records]
    keys = list(order)
    for position, key in enumerate(keys):
        metric = METRICS[key]
        if isinstance(metric, GroupMetric):
            _fill_groupwise(metric, entries, columns, keys[:position], counted)

    # Sorted on flat tuples of integers (the order's values, then the entry, then its index), which
    # Python compares fastest; the first ``len(keys)`` items are the team's sort key.
    signed = [columns[key] if METRICS[key].ascending else [-v for v in columns[key]] for key in keys]
    ranked = sorted(zip(*signed, entries, range(len(entries)), strict=True))
    size = len(keys)

    # A group metric left out of the order is shown among the teams sharing a rank.
    for key, metric in METRICS.items():
        if isinstance(metric, GroupMetric) and key not in keys:
            _fill_groupwise(metric, entries, columns, keys, counted)

    names = list(METRICS)
    table = list(zip(*(columns[key] for key in names), strict=True))
    rows: list[Row] = []
    previous: tuple[int, ...] | None = None
    rank = 0
    for place, item in enumerate(ranked, start=1):
        current, entry, index = item[:size], item[size], item[size + 1]
        if current != previous:
            rank, previous = place, current
        record = records[index]
        values = dict(zip(names, table[index], strict=True))
        # Positional, in the fields' order: a frozen row is a quarter slower to make by keywords.
        rows.append(
            Row(entry, rank, values, record.played, record.won, record.drawn, record.lost, record.byes)
        )
    return rows


def _fill_groupwise(
    metric: GroupMetric,
    entries: Sequence[int],
    columns: dict[str, list[int]],
    level_on: Sequence[str],
    counted: Tally,
) -> None:
    """Give every team ``metric``'s value within its group of teams equal on ``level_on``: the
    column ``columns[metric.key]``, in the order of ``entries``."""
    groups: defaultdict[tuple[int, ...], list[int]] = defaultdict(list)
    level = [columns[key] for key in level_on]
    keys: Iterable[tuple[int, ...]] = zip(*level, strict=True) if level else [()] * len(entries)
    for entry, values in zip(entries, keys, strict=True):
        groups[values].append(entry)
    found: dict[int, int] = {}
    for group in groups.values():
        found.update(metric.values(group, counted))
    columns[metric.key] = [found[entry] for entry in entries]


def level_at_cut(rows: Sequence[Row], cut: int) -> list[int]:
    """The entries sharing the rank that straddles place ``cut``: they need a play-off.

    Place ``cut`` is the last one that qualifies (or wins a medal). With ranks
    1, 2, 3, 3, 5 and cut 3, both rank-3 teams are returned, since only one of
    them can have 3rd place; with 1, 2, 2, 4 and cut 3 nobody is (both rank-2
    teams are inside the cut). A cut at or past the last row separates nobody.
    Entries come in the rows' order.
    """
    if cut < 1:
        raise ValueError(f"a cut is a place from 1, not {cut!r}")
    if cut >= len(rows):
        return []
    ranks = sorted(row.rank for row in rows)
    rank = ranks[cut - 1]
    level = [row.entry for row in rows if row.rank == rank]
    ahead = sum(1 for r in ranks if r < rank)
    return level if ahead + len(level) > cut else []

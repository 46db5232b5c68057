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
    plain = [(key, metric.value) for key, metric in METRICS.items() if not isinstance(metric, GroupMetric)]
    records = [counted.record(entry) for entry in entries]
    values = {record.entry: {key: value(record, counted) for key, value in plain} for record in records}
    keys = list(order)
    for position, key in enumerate(keys):
        metric = METRICS[key]
        if isinstance(metric, GroupMetric):
            _fill_groupwise(metric, values, keys[:position], counted)

    directions = [(key, METRICS[key].ascending) for key in keys]

    def sort_key(entry: int) -> tuple[int, ...]:
        team = values[entry]
        return tuple(team[key] if ascending else -team[key] for key, ascending in directions)

    sort_keys = {entry: sort_key(entry) for entry in entries}
    ranked = sorted(entries, key=lambda entry: (sort_keys[entry], entry))

    # A group metric left out of the order is shown among the teams sharing a rank.
    for key, metric in METRICS.items():
        if isinstance(metric, GroupMetric) and key not in keys:
            _fill_groupwise(metric, values, keys, counted)

    rows: list[Row] = []
    previous: tuple[int, ...] | None = None
    rank = 0
    by_entry = {record.entry: record for record in records}
    for place, entry in enumerate(ranked, start=1):
        current = sort_keys[entry]
        if current != previous:
            rank, previous = place, current
        record = by_entry[entry]
        team = values[entry]
        rows.append(
            Row(
                entry=entry,
                rank=rank,
                values={key: team[key] for key in METRICS},
                played=record.played,
                won=record.won,
                drawn=record.drawn,
                lost=record.lost,
                byes=record.byes,
            )
        )
    return rows


def _fill_groupwise(
    metric: GroupMetric, values: dict[int, dict[str, int]], level_on: Sequence[str], counted: Tally
) -> None:
    """Give every team ``metric``'s value within its group of teams equal on ``level_on``."""
    groups: defaultdict[tuple[int, ...], list[int]] = defaultdict(list)
    for entry, team in values.items():
        groups[tuple(team[key] for key in level_on)].append(entry)
    for group in groups.values():
        for entry, value in metric.values(group, counted).items():
            values[entry][metric.key] = value


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

"""The tie-breaks an organizer chooses from, one small class each.

Each metric has a ``key`` (stored in the tournament's order), a ``name`` and a
short ``abbr`` for display, and ``ascending``: False when more is better, True
when fewer is better. A plain metric reads one team's record
(``value(record, tally)``); head-to-head depends on which teams are level, so
it is a ``GroupMetric`` and gives values for a whole group at once
(``values(group, tally)``). Add a metric by writing its class and listing it in
``METRICS``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from .tally import Record, Tally


class Metric:
    key: ClassVar[str]
    name: ClassVar[str]
    abbr: ClassVar[str]
    ascending: ClassVar[bool] = False  # False: more is better

    def value(self, record: Record, tally: Tally) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key!r}>"


class GroupMetric(Metric):
    """A metric computed among a group of teams level on the metrics before it."""

    def value(self, record: Record, tally: Tally) -> int:
        return self.values([record.entry], tally)[record.entry]

    def values(self, group: Sequence[int], tally: Tally) -> dict[int, int]:
        raise NotImplementedError


class MatchPoints(Metric):
    """Match points from ``Scoring``: per win, draw, loss and bye."""

    key = "match_points"
    name = "Match points"
    abbr = "Pts"

    def value(self, record: Record, tally: Tally) -> int:
        return record.match_points


class Wins(Metric):
    """Matches won at the table; a bye is not a win (it is counted in ``byes``)."""

    key = "wins"
    name = "Wins"
    abbr = "W"

    def value(self, record: Record, tally: Tally) -> int:
        return record.won


class GamePoints(Metric):
    """Game points scored, summed over the matches (plus ``Scoring.bye_game_points`` per bye)."""

    key = "game_points"
    name = "Game points for"
    abbr = "GP"

    def value(self, record: Record, tally: Tally) -> int:
        return record.game_points


class PointsAgainst(Metric):
    """Game points conceded, summed over the matches. Fewer is better."""

    key = "points_against"
    name = "Game points against"
    abbr = "GA"
    ascending = True

    def value(self, record: Record, tally: Tally) -> int:
        return record.game_points_against


class PointDifference(Metric):
    """Game points for minus game points against (a bye counts nothing against)."""

    key = "point_difference"
    name = "Point difference"
    abbr = "Diff"

    def value(self, record: Record, tally: Tally) -> int:
        return record.game_points - record.game_points_against


class HeadToHead(GroupMetric):
    """A mini-league of the teams level on the metrics before it in the order:
    the match points each took in the matches between them (every meeting
    counts, so a double round robin counts both legs).

    Only a complete mini-league decides: when some two teams of the group have
    not played each other, every team of the group gets 0 and they stay level
    on this metric (the next metric decides). A team alone in its group gets 0.

    When head-to-head is not in the order it is shown for information, among
    the teams that share a rank.
    """

    key = "head_to_head"
    name = "Head-to-head"
    abbr = "H2H"

    def values(self, group: Sequence[int], tally: Tally) -> dict[int, int]:
        members = set(group)
        needed = len(members) - 1
        out: dict[int, int] = {}
        for entry in members:
            against = tally.record(entry).against
            met = [other for other in against if other in members]
            if len(met) < needed:
                return dict.fromkeys(members, 0)
            out[entry] = sum(against[other] for other in met)
        return out


class Buchholz(Metric):
    """Opponents' match points: the sum of the current match points of every
    opponent met, once per meeting. A bye has no opponent and adds nothing.
    Opponents who withdrew still count with the points they have."""

    key = "buchholz"
    name = "Opponents' match points (Buchholz)"
    abbr = "Buch"

    def value(self, record: Record, tally: Tally) -> int:
        records = tally.records
        total = 0
        for opponent in record.opponents:  # a loop: half the time of sum() over a generator
            total += records[opponent].match_points
        return total


class Suffered(Metric):
    """Deals lost as the contracting side: mesa (Mpourloto), failed (Pilotta),
    inside (Bulgarian), dedans (French and Classic). Fewer is better."""

    key = "suffered"
    name = "Mesa/inside suffered"
    abbr = "Mesa"
    ascending = True

    def value(self, record: Record, tally: Tally) -> int:
        return record.suffered


METRICS: dict[str, Metric] = {
    metric.key: metric
    for metric in (
        MatchPoints(),
        Wins(),
        GamePoints(),
        PointsAgainst(),
        PointDifference(),
        HeadToHead(),
        Buchholz(),
        Suffered(),
    )
}

# Match points first; then, among teams level on them, the games they played
# against each other (what players expect in a round robin, and harmless in a
# Swiss, where level teams have seldom all met: the metric then leaves them
# level); then the point difference, then the game points scored.
DEFAULT_ORDER: tuple[str, ...] = ("match_points", "head_to_head", "point_difference", "game_points")


def validate_order(order: Sequence[str]) -> None:
    """Raise ``ValueError`` unless ``order`` is a usable tie-break order: known
    keys, none repeated, at least one, and head-to-head not first (it needs a
    group of teams already level on something)."""
    if isinstance(order, str):
        raise ValueError(f"the order is a list of metric keys, not the string {order!r}")
    keys = list(order)
    if not keys:
        raise ValueError("choose at least one metric")
    unknown = [key for key in keys if not isinstance(key, str) or key not in METRICS]
    if unknown:
        raise ValueError(f"unknown metric {unknown[0]!r}; choose from {', '.join(METRICS)}")
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise ValueError(f"{repeated[0]!r} is chosen more than once")
    if isinstance(METRICS[keys[0]], GroupMetric):
        raise ValueError(f"{keys[0]!r} cannot come first: it only separates teams already level")

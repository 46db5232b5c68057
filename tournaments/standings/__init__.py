"""Standings: pure Python, no Django (STYLE.md practice 6).

``compute_standings(entries, results, order, scoring)`` ranks the teams from
their finished matches (``Result``) by a tie-break order of metric keys, chosen
from ``METRICS`` and checked by ``validate_order``; ``level_at_cut`` names the
teams that stay level across a cut and need a play-off. The default order is
``DEFAULT_ORDER``: match points, head-to-head, point difference, game points.
``final_ranking(stage, knockout)`` places every team once the knockout (if any) is played.
"""

from .final import KnockoutTable, Placed, final_ranking, knockout_finished, round_name
from .metrics import (
    DEFAULT_ORDER,
    METRICS,
    Buchholz,
    GamePoints,
    GroupMetric,
    HeadToHead,
    MatchPoints,
    Metric,
    PointDifference,
    PointsAgainst,
    Suffered,
    Wins,
    validate_order,
)
from .table import Row, compute_standings, level_at_cut
from .tally import DEFAULT_SCORING, Penalty, Record, Result, Scoring, Tally, tally

__all__ = [
    "DEFAULT_ORDER",
    "DEFAULT_SCORING",
    "METRICS",
    "Buchholz",
    "GamePoints",
    "GroupMetric",
    "HeadToHead",
    "KnockoutTable",
    "MatchPoints",
    "Metric",
    "Penalty",
    "Placed",
    "PointDifference",
    "PointsAgainst",
    "Record",
    "Result",
    "Row",
    "Scoring",
    "Suffered",
    "Tally",
    "Wins",
    "compute_standings",
    "final_ranking",
    "knockout_finished",
    "level_at_cut",
    "round_name",
    "tally",
    "validate_order",
]

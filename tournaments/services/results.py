"""The results the standings count, read in one query, and the standings computed from them."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence

from django.db import NotSupportedError
from django.db.models import Case, F, Func, IntegerField, OuterRef, Q, Subquery, When

from scoring.models import Match

from .. import standings
from ..models import Adjustment, Round, Table, Tournament
from .common import PLAYOFF_ORDER, STAGE_KINDS
from .stage import pools


def _scoring(tournament: Tournament) -> standings.Scoring:
    return standings.Scoring(
        win=tournament.points_win,
        draw=tournament.points_draw,
        loss=tournament.points_loss,
        bye=tournament.points_bye,
        bye_game_points=tournament.bye_game_points,
    )


class _Integer:
    """An integer the database works out, taken as it comes: Django would otherwise call ``int()``
    on every value, thousands of times for a tournament's standings."""

    output_field = IntegerField()

    def get_db_converters(self, connection) -> list:
        return []


class _Counts(_Integer, Case):
    """1 for a table whose result counts, else 0."""


class _Playoff(_Integer, Case):
    """A play-off round's number, 0 for a round of the stage: one small integer a row, where the
    round's kind and number were a string and an integer."""


class _Side(_Integer, Func):
    """One side's number of a match's JSON pair (``totals``, ``suffered``), read by the database,
    on the two databases Tsoxa runs on: one path lookup per value, where Django's key transforms
    add type checks a pair of integers does not need (they made the read a third slower at 1,000
    teams on SQLite)."""

    def __init__(self, field: str, side: int) -> None:
        super().__init__(F(f"match__{field}"))
        self.side = int(side)

    def as_sql(self, compiler, connection, **extra):
        raise NotSupportedError("the standings read match totals on SQLite or PostgreSQL")

    def as_postgresql(self, compiler, connection, **extra):  # jsonb
        template = f"((%(expressions)s ->> {self.side})::integer)"
        return super().as_sql(compiler, connection, template=template, **extra)

    def as_sqlite(self, compiler, connection, **extra):
        template = f"JSON_EXTRACT(%(expressions)s, '$[{self.side}]')"
        return super().as_sql(compiler, connection, template=template, **extra)


def _results(tournament: Tournament) -> tuple[list[standings.Result], list[list[standings.Result | None]]]:
    """The results the standings count, in one query of the columns they read: every bye and
    counted match of the stage (Swiss or round robin rounds), and each finished play-off's tables
    in the order the play-offs were played (None for a table whose match does not count yet).

    A match counts once finished, and, in a tournament with confirmation, once confirmed. An
    individual round's table is two results with the same score: ``entry0`` v ``entry1`` and
    ``partner0`` v ``partner1``, so that each player has their partnership's result once; a player
    sitting out has a bye."""
    counted = Q(match__status=Match.Status.FINISHED)
    if tournament.confirmation:
        counted &= Q(match__confirmed_at__isnull=False)
    rows = (
        Table.objects.filter(round__tournament=tournament)
        .filter(
            Q(round__kind__in=STAGE_KINDS)
            | Q(round__kind=Round.Kind.PLAYOFF, round__status=Round.Status.FINISHED)
        )
        .annotate(
            playoff=_Playoff(When(round__kind=Round.Kind.PLAYOFF, then=F("round__number")), default=0),
            counts=_Counts(When(counted, then=1), default=0),
            points0=_Side("totals", 0),
            points1=_Side("totals", 1),
            suffered0=_Side("suffered", 0),
            suffered1=_Side("suffered", 1),
        )
        .order_by()
        .values_list(
            "playoff",
            "entry0_id",
            "entry1_id",
            "partner0_id",
            "partner1_id",
            "counts",
            "match__winner",
            "points0",
            "points1",
            "suffered0",
            "suffered1",
        )
    )
    decided = [row[4] for row in adjustments(tournament) if row[0] in DECISIONS and row[4] is not None]
    paper = _paper_counted(tournament, counted)
    decided += paper
    if decided:  # the director's decision (or the paper sheet) stands for these tables (below)
        rows = rows.exclude(pk__in=decided)
    # Each result is made as ``Result`` makes it, without a call of it a row (a quarter of reading the
    # results at 1,000 teams): the checks a row of the database could fail (a team against itself, a
    # winner other than 0, 1 or None) are made here, and ``Result`` raises its own error for them.
    Result, made = standings.Result, tuple.__new__
    stage: list[standings.Result] = []
    playoffs: dict[int, list[standings.Result | None]] = {}
    for playoff, a, b, partner_a, partner_b, counts, winner, p0, p1, s0, s1 in rows:
        if b is None:
            result = made(Result, (a, None, (0, 0), 0, (0, 0)))
        elif counts:
            points, suffered = (p0 or 0, p1 or 0), (s0 or 0, s1 or 0)
            if a == b or winner not in (0, 1, None):
                Result(a, b, points, winner, suffered)
            result = made(Result, (a, b, points, winner, suffered))
        else:
            result = None
        if playoff:
            playoffs.setdefault(playoff, []).append(result)
        elif result is not None:
            stage.append(result)
            if partner_a is not None and b is not None:  # an individual table: the partners' result too
                stage.append(Result(partner_a, partner_b, result.points, result.winner, result.suffered))
    for kind, number, result in _decisions(tournament, paper):
        if kind == Round.Kind.PLAYOFF:
            playoffs.setdefault(number, []).append(result)
        elif kind in STAGE_KINDS:
            stage.append(result)
    return stage, [playoffs[number] for number in sorted(playoffs)]


DECISIONS = (Adjustment.Kind.FORFEIT, Adjustment.Kind.AWARD)
# A table with one of these is done: decided by the director, or its result typed from the paper sheet.
SETTLED = (*DECISIONS, Adjustment.Kind.PAPER)


def _paper_counted(tournament: Tournament, counted: Q) -> list[int]:
    """The tables whose paper result counts (``services.paper``): a table with a paper result and no
    decision of the director, whose match is not finished (and confirmed, where asked) by its deals.
    The rule: **the deals replace the paper result** once they finish the match; a forfeit or a
    match awarded stands above both. No query when the tournament has no paper result."""
    rows = adjustments(tournament)
    paper = {row[4] for row in rows if row[0] == Adjustment.Kind.PAPER and row[4] is not None}
    paper -= {row[4] for row in rows if row[0] in DECISIONS}
    if not paper:
        return []
    by_deals = set(Table.objects.filter(counted, pk__in=paper).values_list("pk", flat=True))
    return sorted(paper - by_deals)


def adjustments(tournament: Tournament) -> list[tuple]:
    """Every decision of the director, oldest first, with what the standings read of it: one query
    (a recomputation reads it once: ``standings_refresh`` keeps it on its locked tournament)."""
    found = getattr(tournament, "_adjustment_rows", None)
    if found is None:
        found = list(
            Adjustment.objects.filter(tournament=tournament)
            .order_by("created_at", "pk")
            .values_list(
                "kind",
                "entry_id",
                "points",
                "match_points",
                "table_id",
                "table__round__kind",
                "table__round__number",
                "table__entry0_id",
                "table__entry1_id",
                "table__partner0_id",
                "table__partner1_id",
                "winner",
                "scores",
            )
        )
    return found


def _decisions(
    tournament: Tournament, paper: Collection[int] = ()
) -> list[tuple[str, int, standings.Result]]:
    """The tables the director decided (a forfeit or a match awarded): the latest decision of each,
    as a result with the scores the organizer set, whatever was played there; then the tables whose
    paper result counts (``_paper_counted``), as a result with the paper's totals (no deals: nothing
    suffered)."""
    latest: dict[int, tuple[str, int, standings.Result]] = {}
    partners: dict[int, tuple[str, int, standings.Result]] = {}
    paper = set(paper)
    for kind_, _, _, _, table, kind, number, a, b, partner_a, partner_b, winner, scores in adjustments(
        tournament
    ):
        if table is None or b is None:
            continue
        if kind_ not in DECISIONS and not (kind_ == Adjustment.Kind.PAPER and table in paper):
            continue
        points = tuple(scores) if len(scores or ()) == 2 else (0, 0)
        latest[table] = (kind, number, standings.Result(a, b, points, winner))
        if partner_a is not None:  # an individual table: the partners are decided alike
            partners[table] = (kind, number, standings.Result(partner_a, partner_b, points, winner))
    return [*latest.values(), *partners.values()]


def penalties(tournament: Tournament) -> list[standings.Penalty]:
    """The director's penalties (points taken) and the late entries' missed rounds (points given,
    so a negative penalty), one per decision."""
    sign = {Adjustment.Kind.PENALTY: 1, Adjustment.Kind.LATE: -1}
    return [
        standings.Penalty(entry, sign[kind] * match_points, sign[kind] * points)
        for kind, entry, points, match_points, *_ in adjustments(tournament)
        if kind in sign and entry is not None
    ]


def penalties_shown(tournament: Tournament) -> dict[int, list[int]]:
    """Each penalised team's [game points, match points] taken, as the standings show them."""
    taken: dict[int, list[int]] = {}
    for kind, entry, points, match_points, *_ in adjustments(tournament):
        if kind == Adjustment.Kind.PENALTY and entry is not None:
            total = taken.setdefault(entry, [0, 0])
            total[0] += points
            total[1] += match_points
    return taken


def standings_compute(tournament: Tournament) -> list[standings.Row]:
    """The stage's standings (Swiss or round robin rounds), play-off results applied at the cuts.
    With pools, each pool's standings in turn (A's, then B's …), ranked within the pool."""
    stage, playoffs = _results(tournament)
    scoring, taken = _scoring(tournament), penalties(tournament)
    if tournament.format == Tournament.Format.POOLS:
        return [
            row
            for members in pools(tournament).values()
            for row in standings.compute_standings(members, stage, tournament.tiebreaks, scoring, taken)
        ]
    rows = standings.compute_standings(tournament.participants, stage, tournament.tiebreaks, scoring, taken)
    return _apply_playoffs(rows, playoffs)


def across_pools(tournament: Tournament, rows: list[standings.Row]) -> list[standings.Row]:
    """The stage's order for a ranking: with pools, the pools' first, then their seconds … (each
    place in the pools' order); else the standings as they are."""
    if tournament.format != Tournament.Format.POOLS:
        return rows
    letter = {entry: pool for pool, members in pools(tournament).items() for entry in members}
    return sorted(rows, key=lambda row: (row.rank, letter.get(row.entry, "")))


def _apply_playoffs(
    rows: list[standings.Row], playoffs: Sequence[Sequence[standings.Result | None]]
) -> list[standings.Row]:
    """Teams level at a cut take the order of their finished, decisive play-off."""
    rows = list(rows)
    for played in playoffs:
        results = [r for r in played if r is not None]
        if len(results) < len(played):
            continue
        group = {e for r in results for e in (r.a, r.b) if e is not None}
        positions = [i for i, row in enumerate(rows) if row.entry in group]
        if len(positions) != len(group) or len({rows[i].rank for i in positions}) != 1:
            continue  # no longer the level group it was played for
        mini = standings.compute_standings(sorted(group), results, PLAYOFF_ORDER)
        if len({row.rank for row in mini}) < len(mini):
            continue  # the play-off left them level: another one is due
        base = rows[positions[0]].rank
        by_entry = {rows[i].entry: rows[i] for i in positions}
        for k, (i, row) in enumerate(zip(positions, mini, strict=True)):
            rows[i] = dataclasses.replace(by_entry[row.entry], rank=base + k)
    return rows


def knockout_tables(tournament: Tournament) -> list[standings.KnockoutTable]:
    """Every table of the knockout rounds, in one query: its teams, bracket and winner (a bye wins;
    a match wins once it counts, as in the standings: finished, and confirmed where asked; a table
    the director decided, by the decision; else a table with a paper result, by the paper sheet, until
    its deals finish the match)."""
    counted = Q(match__status=Match.Status.FINISHED)
    if tournament.confirmation:
        counted &= Q(match__confirmed_at__isnull=False)
    decided = Adjustment.objects.filter(table=OuterRef("pk"), kind__in=DECISIONS).order_by(
        "-created_at", "-pk"
    )
    paper = Adjustment.objects.filter(table=OuterRef("pk"), kind=Adjustment.Kind.PAPER).order_by(
        "-created_at", "-pk"
    )
    rows = (
        Table.objects.filter(round__tournament=tournament, round__kind=Round.Kind.KNOCKOUT)
        .annotate(
            counts=_Counts(When(counted, then=1), default=0),
            decision=Subquery(decided.values("winner")[:1]),
            paper=Subquery(paper.values("winner")[:1]),
        )
        .order_by("round__number", "number")
        .values_list(
            "round__number",
            "entry0_id",
            "entry1_id",
            "bracket",
            "counts",
            "match__winner",
            "decision",
            "paper",
        )
    )
    tables = []
    for number, a, b, bracket, counts, side, decision, on_paper in rows:
        if b is None:
            winner = a
        elif decision is not None:
            winner = (a, b)[decision]
        elif counts and side is not None:
            winner = (a, b)[side]
        elif on_paper is not None:  # the paper sheet, until the deals finish the match
            winner = (a, b)[on_paper]
        else:
            winner = None
        tables.append(standings.KnockoutTable(round=number, a=a, b=b, winner=winner, bracket=bracket))
    return tables

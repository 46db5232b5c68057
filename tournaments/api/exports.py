"""The tournaments API: the exports streamed as they are read (every deal as CSV, the whole
tournament as one JSON document).

Its actions join ``TournamentViewSet`` (viewset.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.utils.encoders import JSONEncoder

from api import spreadsheet
from scoring import api_schema as scoring_schema
from scoring import selectors as scoring_selectors

from .. import selectors
from ..models import Table, Tournament
from ..prizes import prize_list
from . import schema as api_schema
from .prizes import PrizeListSerializer
from .rounds import RoundSerializer
from .schema import EntrySerializer
from .tournaments import TournamentSerializer


class TournamentExportSerializer(serializers.Serializer):
    """The whole tournament as one document (``_export_parts`` writes it), for the schema."""

    tournament = TournamentSerializer()
    entries = EntrySerializer(many=True)
    rounds = RoundSerializer(many=True)
    standings = api_schema.StandingsRowSerializer(many=True)
    ranking = api_schema.RankingRowSerializer(many=True)
    prizes = PrizeListSerializer(help_text="The prize list (tournaments/prizes.py prize_list)")
    matches = serializers.DictField(
        child=scoring_schema.ExportedMatchSerializer(),
        help_text="Every match of the tournament's tables, by its id: its match file and its sheet",
    )


class ExportActions:
    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="deals.csv")
    def deals_csv(self, request, slug=None):
        """Every deal of every match, one row each, with what it gave; streamed as it is read."""
        tournament = self.get_object()
        return _csv_stream(_deal_rows(tournament), f"{tournament.slug}-deals.csv")

    @extend_schema(
        responses={200: TournamentExportSerializer}, description="The whole tournament as one document."
    )
    @action(detail=True, methods=["get"])
    def export(self, request, slug=None):
        """Streamed: each part as soon as it is made, the matches a batch of tables at a time."""
        tournament = self.get_object()
        response = StreamingHttpResponse(_export_parts(tournament), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
        return response


TABLES_A_BATCH = 200  # tables (with their matches and deals) read at a time by the exports


def _played(tournament: Tournament) -> Any:
    """The tournament's tables with a match, in playing order."""
    return Table.objects.filter(round__tournament=tournament, match__isnull=False).order_by(
        "round__number", "number"
    )


def _tables(tournament: Tournament) -> Iterator[Table]:
    """The tournament's tables with a match, in playing order, read ``TABLES_A_BATCH`` at a time
    (each batch in two queries: the tables with their round and their match's teams, and every deal
    of their matches), so that an export starts at once and never holds a whole big tournament in
    memory."""
    ids = list(_played(tournament).values_list("pk", flat=True))
    for start in range(0, len(ids), TABLES_A_BATCH):
        chunk = ids[start : start + TABLES_A_BATCH]
        tables = _tables_read().in_bulk(chunk)
        yield from (tables[pk] for pk in chunk)


def _tables_read():
    """What ``deals.csv`` writes of a table: its round's number, its match's teams' names, its deals."""
    return Table.objects.select_related("round", "match__team0", "match__team1").prefetch_related(
        scoring_selectors.prefetch_active_deals("match__deals")
    )


DEALS_CSV_HEAD = [
    "round",
    "table",
    "match",
    "team_0",
    "team_1",
    "deal",
    "dealer",
    "result",
    "maker",
    "card_points_0",
    "card_points_1",
    "last_trick",
    "capot",
    "melds_0",
    "melds_1",
    "belote_0",
    "belote_1",
    "contract",
    "score_0",
    "score_1",
    "total_0",
    "total_1",
]


def _deal_rows(tournament: Tournament) -> Iterator[list[Any]]:
    yield DEALS_CSV_HEAD
    for table in _tables(tournament):
        assert table.match is not None  # _tables: the tables with a match
        data = scoring_selectors.match_sheet(match=table.match)
        for line in data.lines:
            d, row = line.deal.data, line.row
            contract = d.get("contract") or {}
            yield [
                table.round.number,
                table.number,
                table.match_id,
                table.match.team0.name,  # the entries' teams, or an individual table's partnerships
                table.match.team1.name,
                row.number,
                row.dealer,
                row.result,
                d.get("maker", ""),
                *(d.get("card_points") or ["", ""]),
                d.get("last_trick", ""),
                d.get("capot", ""),
                " ".join(d.get("melds", [[], []])[0]),
                " ".join(d.get("melds", [[], []])[1]),
                *(d.get("belote") or [0, 0]),
                " ".join(str(contract[k]) for k in ("bid", "suit", "multiplier") if contract.get(k)),
                *row.scores,
                *row.totals,
            ]


def _csv_stream(rows: Iterable[list[Any]], filename: str) -> StreamingHttpResponse:
    """CSV rows sent as they are made, in pieces of a few hundred rows (names cannot become formulas)."""

    def pieces() -> Iterator[str]:
        out = io.StringIO()
        writer = spreadsheet.writer(out)
        for n, row in enumerate(rows, start=1):
            writer.writerow(row)
            if n % 500 == 0:
                yield out.getvalue()
                out.seek(0)
                out.truncate()
        yield out.getvalue()

    response = StreamingHttpResponse(pieces(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _export_parts(tournament: Tournament) -> Iterator[str]:
    """The export document as JSON text, each part sent as soon as it is made: the tournament, its
    entries, its rounds one by one, the standings, the ranking, the prize list, then the matches by id
    (their match file and sheet), a batch of ``TABLES_A_BATCH`` at a time. The text is the one
    ``json.dumps`` makes of the whole document (a dict's items joined by ", ", a key by ": ")."""

    def dump(value: Any) -> str:
        return json.dumps(value, cls=JSONEncoder, ensure_ascii=False)

    yield '{"tournament": ' + dump(TournamentSerializer(tournament).data)
    yield ', "entries": ' + dump(EntrySerializer(selectors.entries(tournament=tournament), many=True).data)
    yield ', "rounds": ['
    context: dict[str, Any] = {}  # shared by every round's tables, as in one list: paper results read once
    for n, rnd in enumerate(selectors.rounds_with_tables(tournament=tournament)):
        yield ("" if n == 0 else ", ") + dump(RoundSerializer(rnd, context=context).data)
    standings_now = selectors.standings_get(tournament=tournament)
    numbers = selectors.entry_numbers(tournament=tournament)
    standings = [{**r, "number": numbers.get(r["entry"])} for r in standings_now["rows"]]
    ranking = [{**r, "number": numbers.get(r["entry"])} for r in standings_now.get("ranking", [])]
    yield '], "standings": ' + dump(standings) + ', "ranking": ' + dump(ranking)
    yield ', "prizes": ' + dump(prize_list(tournament=tournament)) + ', "matches": {'
    ids = list(_played(tournament).values_list("match_id", flat=True))
    for start in range(0, len(ids), TABLES_A_BATCH):
        chunk = ids[start : start + TABLES_A_BATCH]
        matches = scoring_selectors.matches_exported(match_ids=chunk)
        yield ("" if start == 0 else ", ") + ", ".join(f'"{pk}": ' + dump(matches[pk]) for pk in chunk)
    yield "}}"

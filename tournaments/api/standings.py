"""The tournaments API: the standings and the final ranking, as JSON and as CSV.

Its actions join ``TournamentViewSet`` (viewset.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission."""

from __future__ import annotations

import io

from django.http import HttpResponse
from django.utils.http import http_date
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response

from api import spreadsheet

from .. import selectors, standings
from ..models import Tournament
from ..prizes import prize_list
from . import schema as api_schema
from .schema import RankingSerializer


class StandingsActions:
    @extend_schema(
        responses={200: api_schema.StandingsSerializer},
        description="The standings as last computed: the rows best first, each with its rank and every "
        "tie-break value, the play-offs due at the cuts and the final ranking so far.",
    )
    @action(detail=True, methods=["get"])
    def standings(self, request, slug=None):
        tournament = self.get_object()
        data = selectors.standings_get(tournament=tournament)
        numbers = selectors.entry_numbers(tournament=tournament)  # the rows' entries' numbers
        response = Response(
            {
                "tiebreaks": tournament.tiebreaks,
                "version": data["version"],
                "computed_at": data["computed_at"],
                "rows": [{**r, "number": numbers.get(r["entry"])} for r in data["rows"]],
                "playoffs": data["playoffs"],
                "ranking": [{**r, "number": numbers.get(r["entry"])} for r in data.get("ranking", [])],
            }
        )
        if data["computed_at"]:
            response["Last-Modified"] = http_date(data["computed_at"].timestamp())
        return response

    @extend_schema(responses={200: RankingSerializer})
    @action(detail=True, methods=["get"])
    def ranking(self, request, slug=None):
        """The final ranking: the knockout's result (champion, finalist, losing semi-finalists …, each
        group in the stage's order), then the teams that did not reach it in the stage's order; without
        a knockout, the standings after the last round and its play-offs. ``final`` is false until the
        tournament is finished."""
        tournament = self.get_object()
        data = selectors.standings_get(tournament=tournament)
        numbers = selectors.entry_numbers(tournament=tournament)
        return Response(
            RankingSerializer(
                {
                    "final": tournament.status == Tournament.Status.FINISHED,
                    "status": tournament.status,
                    "finished_at": tournament.finished_at,
                    "finish_reason": tournament.finish_reason,
                    "finish_in_play": tournament.finish_in_play,
                    "version": data["version"],
                    "rows": [{**r, "number": numbers.get(r["entry"])} for r in data.get("ranking", [])],
                }
            ).data
        )

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="ranking.csv")
    def ranking_csv(self, request, slug=None):
        tournament = self.get_object()
        out = io.StringIO()
        writer = spreadsheet.writer(out)
        writer.writerow(
            [
                *("position", "rank", "team", "player_a", "player_b", "reached", "stage_rank", "withdrawn"),
                *("prize_amount", "prize", "special_prizes"),  # amount in units ("177.00"), text, categories
            ]
        )
        prizes = _prizes_by_place(tournament)
        for r in selectors.standings_get(tournament=tournament).get("ranking", []):
            writer.writerow(
                [
                    r["position"],
                    r["rank"],
                    r["team"],
                    *_two(r["players"]),
                    r["reached"],
                    r["stage_rank"],
                    r["withdrawn"],
                    *prizes(r["position"], r["entry"]),
                ]
            )
        return _csv(out, f"{tournament.slug}-ranking.csv")

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="standings.csv")
    def standings_csv(self, request, slug=None):
        tournament = self.get_object()
        rows = selectors.standings_get(tournament=tournament)["rows"]
        metrics = list(standings.METRICS)
        out = io.StringIO()
        writer = spreadsheet.writer(out)  # names cannot become formulas
        writer.writerow(
            ["rank", "team", "player_a", "player_b", "played", "won", "drawn", "lost", "withdrawn", *metrics]
        )
        for r in rows:
            writer.writerow(
                [
                    r["rank"],
                    r["team"],
                    *_two(r["players"]),
                    r["played"],
                    r["won"],
                    r["drawn"],
                    r["lost"],
                    r["withdrawn"],
                    *(r["values"].get(m, "") for m in metrics),
                ]
            )
        return _csv(out, f"{tournament.slug}-standings.csv")


def _prizes_by_place(tournament: Tournament):
    """The ranking CSV's prize columns of a place and its entry: the amount in units, the text, the
    names of the categories it won."""
    found = prize_list(tournament=tournament)
    places = {p["position"]: p for p in found["places"]}
    won: dict[int, list[str]] = {}
    for category in found["categories"]:
        for team in category["winners"]:
            won.setdefault(team["entry"], []).append(category["name"])

    def columns(position: int, entry: int) -> list[str]:
        place = places.get(position) or {}
        amount = place.get("amount")
        return [
            f"{amount // 100}.{amount % 100:02d}" if amount else "",
            place.get("text", ""),
            "; ".join(won.get(entry, [])),
        ]

    return columns


def _two(players: list[str]) -> list[str]:
    """The player_a and player_b columns: an individual event's entry fills the first."""
    return [*players, "", ""][:2]


def _csv(out: io.StringIO, filename: str) -> HttpResponse:
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

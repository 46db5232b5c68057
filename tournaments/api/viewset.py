"""REST API (v1) for tournaments: read for everyone (public ones), write for their organizer.

One viewset, its actions grouped by resource in this package's modules (entries, rounds, the
director's decisions, standings, exports, …), each a mixin."""

from __future__ import annotations

from django.db import transaction
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from api.sync import SyncPagination

from .. import selectors, services
from ..models import Tournament
from .bracket import BracketActions
from .bulk import BulkActions
from .checkin import CheckinActions
from .console import ConsoleActions
from .director import DirectorActions
from .entries import EntryActions
from .exports import ExportActions
from .paper import PaperActions
from .personal import FinderActions
from .prizes import PrizeActions
from .rounds import RoundActions
from .standings import StandingsActions
from .tournaments import (
    FinishSerializer,
    OrganizerOrReadOnly,
    TournamentFilter,
    TournamentSerializer,
    TournamentWriteSerializer,
)


@extend_schema(tags=["tournaments"])
class TournamentViewSet(
    BulkActions,
    EntryActions,
    CheckinActions,
    ConsoleActions,
    PaperActions,
    BracketActions,
    PrizeActions,
    FinderActions,
    RoundActions,
    DirectorActions,
    StandingsActions,
    ExportActions,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    mixins.ListModelMixin,
    viewsets.GenericViewSet,
):
    """Tournaments, their rounds and pairings, standings with every tie-break value, and exports.

    No ``destroy``: a tournament is not deleted through the API (its results are a record), so its
    path answers DELETE with a 405 and does not list it in ``Allow``."""

    serializer_class = TournamentSerializer
    permission_classes = [OrganizerOrReadOnly]
    filterset_class = TournamentFilter
    pagination_class = SyncPagination  # updated_since: pages continue after their last tournament
    lookup_field = "slug"
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        return selectors.tournament_list(user=self.request.user).select_related("organizer").order_by("-id")

    def _managed(self) -> Tournament:
        tournament = self.get_object()
        if not selectors.can_manage(tournament, self.request.user):
            raise PermissionDenied(OrganizerOrReadOnly.message)
        return tournament

    @extend_schema(
        request=TournamentWriteSerializer,
        responses={201: TournamentSerializer},
        examples=[
            OpenApiExample(
                "A concours under a named preset",
                value={
                    "name": "Contrée du vendredi",
                    "preset": "Cannes 2001 points or 40 minutes",
                    "format": "concours",
                    "swiss_rounds": 5,
                },
                request_only=True,
            )
        ],
    )
    def create(self, request):
        data = TournamentWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        embed = {name: values.pop(name) for name in services.EMBED_SETTINGS if name in values}
        with transaction.atomic():
            tournament = services.tournament_create(organizer=request.user, **values)
            if embed:
                tournament = services.tournament_embed_update(
                    tournament=tournament, user=request.user, **embed
                )
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TournamentWriteSerializer, responses={200: TournamentSerializer})
    def partial_update(self, request, slug=None):
        tournament = self._managed()
        data = TournamentWriteSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        embed = {name: values.pop(name) for name in services.EMBED_SETTINGS if name in values}
        with transaction.atomic():  # the embeds' settings alone may change once started
            if values or not embed:
                tournament = services.tournament_update(tournament=tournament, user=request.user, **values)
            if embed:
                tournament = services.tournament_embed_update(
                    tournament=tournament, user=request.user, **embed
                )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(request=None, responses={200: TournamentSerializer})
    @action(detail=True, methods=["post"])
    def start(self, request, slug=None):
        tournament = services.tournament_start(tournament=self._managed(), user=request.user)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(request=FinishSerializer, responses={200: TournamentSerializer})
    @action(detail=True, methods=["post"])
    def finish(self, request, slug=None):
        """Finish a running tournament early, with a reason (audited). Matches in play are finished on
        their totals or left out; rounds drawn but not started are removed. Afterwards the tournament is
        read-only, except for the organizer's corrections of results."""
        tournament = self._managed()
        data = FinishSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_finish(
            tournament=tournament, user=request.user, **data.validated_data
        )
        return Response(TournamentSerializer(tournament).data)

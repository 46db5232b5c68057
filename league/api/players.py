"""Players through the API: who they are and the matches they sat in."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action

from players.models import Player
from scoring import selectors
from scoring.api import MatchListSerializer, PlayerSerializer


@extend_schema(tags=["players"])
class PlayerViewSet(viewsets.ReadOnlyModelViewSet):
    """Players, but those known only from private tournaments this account does not organize."""

    serializer_class = PlayerSerializer
    queryset = Player.objects.order_by("id")
    filterset_fields = {"name": ["exact", "icontains"]}

    def get_queryset(self):
        return selectors.visible_players(self.request.user).order_by("id")

    @extend_schema(responses={200: MatchListSerializer(many=True)}, description="The player's matches.")
    @action(detail=True, methods=["get"], filter_backends=[])
    def history(self, request, pk=None):
        player = self.get_object()
        seats = selectors.seated(player)
        matches = (
            selectors.visible_matches(request.user)
            .filter(seats)
            .select_related(*selectors.MATCH_LIST_RELATED)
            .order_by("-id")
        )
        page = self.paginate_queryset(matches)
        return self.get_paginated_response(MatchListSerializer(page, many=True).data)

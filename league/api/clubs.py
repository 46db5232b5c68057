"""Clubs through the API: who they are, their members, their events and their seasons; the club's
admins add and remove members."""

from __future__ import annotations

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from league import clubs as selectors
from players import clubs
from players.models import Club
from players.services import player_create
from scoring.permissions import can_write
from scoring.selectors import visible_players


class ClubListSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["slug", "name", "city"]


class MemberSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The player's id (a merged record is given as its root)")
    name = serializers.CharField()
    joined_on = serializers.DateField(allow_null=True)


class ClubEventSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    status = serializers.CharField()
    starts_on = serializers.DateField(allow_null=True)
    public = serializers.BooleanField()


class ClubSeasonSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()


class ClubSerializer(serializers.ModelSerializer):
    """A club as this account may see it: the members and events it may see."""

    members = serializers.SerializerMethodField()
    events = serializers.SerializerMethodField()
    seasons = serializers.SerializerMethodField()

    class Meta:
        model = Club
        fields = ["slug", "name", "city", "about", "members", "events", "seasons"]

    def _user(self):
        return self.context["request"].user

    @extend_schema_field(MemberSerializer(many=True))
    def get_members(self, club: Club) -> list:
        return MemberSerializer(selectors.club_members(club=club, user=self._user()), many=True).data

    @extend_schema_field(ClubEventSerializer(many=True))
    def get_events(self, club: Club) -> list:
        return ClubEventSerializer(selectors.club_events(club=club, user=self._user()), many=True).data

    @extend_schema_field(ClubSeasonSerializer(many=True))
    def get_seasons(self, club: Club) -> list:
        return ClubSeasonSerializer(selectors.club_seasons(club=club, user=self._user()), many=True).data


class MemberWriteSerializer(serializers.Serializer):
    player_id = serializers.IntegerField(
        required=False, min_value=1, max_value=2**63 - 1, help_text="An existing player, by id"
    )
    name = serializers.CharField(required=False, max_length=80, help_text="A new player of this name")
    joined_on = serializers.DateField(required=False, allow_null=True, help_text="Today when left out")

    def validate(self, data: dict) -> dict:
        if ("player_id" in data) == ("name" in data):
            raise ValidationError(gettext("Give either player_id (a player) or name (a new one)."))
        return data


MEMBER_EXAMPLES = [
    OpenApiExample(
        "A player who exists", value={"player_id": 1, "joined_on": "2025-09-01"}, request_only=True
    ),
    OpenApiExample("A new player", value={"name": "Eleni K."}, request_only=True),
]


class AdminOrReadOnly(permissions.BasePermission):
    message = "Only the club's admins change its members."

    def has_permission(self, request, view) -> bool:
        return request.method in permissions.SAFE_METHODS or can_write(request.user)

    def has_object_permission(self, request, view, obj) -> bool:
        return request.method in permissions.SAFE_METHODS or clubs.is_admin(obj, request.user)


@extend_schema(tags=["clubs"])
class ClubViewSet(viewsets.ReadOnlyModelViewSet):
    """Clubs, by name; a club with its present members, its events (newest first) and its seasons."""

    permission_classes = [AdminOrReadOnly]
    lookup_field = "slug"
    lookup_value_regex = "[^/]+"  # a club's slug keeps its letters (Κλαμπ Αθηνών: κλαμπ-αθηνών)

    def get_queryset(self):
        return selectors.club_list()

    def get_serializer_class(self):
        return ClubListSerializer if self.action == "list" else ClubSerializer

    @extend_schema(request=MemberWriteSerializer, responses={201: MemberSerializer}, examples=MEMBER_EXAMPLES)
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def members(self, request, slug=None):
        """Add a member: an existing player (``player_id``: a merged record adds the record it was
        merged into) or a new one (``name``), from ``joined_on`` (today when left out)."""
        club = self.get_object()
        data = MemberWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        with transaction.atomic():
            if "player_id" in d:
                player = visible_players(request.user).filter(pk=d["player_id"]).first()
                if player is None:
                    raise ValidationError({"player_id": [gettext("No such player.")]})
            else:
                player = player_create(name=d["name"])
            membership = clubs.member_add(club=club, player=player, joined_on=d.get("joined_on"))
        body = {"id": membership.player_id, "name": membership.player.name, "joined_on": membership.joined_on}
        return Response(MemberSerializer(body).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"members/(?P<player_id>[0-9]{1,18})",
        filter_backends=[],
        pagination_class=None,
    )
    def member(self, request, slug=None, player_id=None):
        """A member leaves the club today; the club keeps the row, with that day."""
        club = self.get_object()
        player = get_object_or_404(selectors.club_members(club=club, user=request.user), pk=int(player_id))
        clubs.member_remove(club=club, player=player)
        return Response(status=status.HTTP_204_NO_CONTENT)

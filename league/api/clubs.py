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

from league import club_selectors as selectors
from players import club_services as clubs
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


class MembershipAnswerSerializer(serializers.Serializer):
    """What a member add did: a member now, or (a claimed record) an invitation its account answers."""

    id = serializers.IntegerField(help_text="The player's id (a merged record is given as its root)")
    name = serializers.CharField()
    joined_on = serializers.DateField(allow_null=True)
    status = serializers.ChoiceField(
        choices=["active", "invited"],
        help_text="active: a member; invited: a claimed record, a member once its account accepts; "
        "declined: its account said no",
    )


class InvitationSerializer(serializers.Serializer):
    """A club's invitation waiting for this account's answer."""

    club = serializers.CharField(source="club.slug", help_text="The club's slug")
    club_name = serializers.CharField(source="club.name")
    player = serializers.IntegerField(source="player_id", help_text="The record invited")
    joined_on = serializers.DateField(allow_null=True)
    created_at = serializers.DateTimeField()


class InvitationAnswerSerializer(serializers.Serializer):
    answer = serializers.ChoiceField(
        choices=["accept", "decline"], help_text="accept: a member from now on; decline: not"
    )


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

    # With many=True a serializer is a ListSerializer, whose data is a list: the stubs type it as the
    # serializer itself, whose data is a dict.

    @extend_schema_field(MemberSerializer(many=True))
    def get_members(self, club: Club) -> list:
        members = selectors.club_members(club=club, user=self._user())
        return MemberSerializer(members, many=True).data  # type: ignore[return-value]  # a list

    @extend_schema_field(ClubEventSerializer(many=True))
    def get_events(self, club: Club) -> list:
        events = selectors.club_events(club=club, user=self._user())
        return ClubEventSerializer(events, many=True).data  # type: ignore[return-value]  # a list

    @extend_schema_field(ClubSeasonSerializer(many=True))
    def get_seasons(self, club: Club) -> list:
        seasons = selectors.club_seasons(club=club, user=self._user())
        return ClubSeasonSerializer(seasons, many=True).data  # type: ignore[return-value]  # a list


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

    @extend_schema(
        request=MemberWriteSerializer, responses={201: MembershipAnswerSerializer}, examples=MEMBER_EXAMPLES
    )
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def members(self, request, slug=None):
        """Add a member: an existing player (``player_id``: a merged record adds the record it was
        merged into) or a new one (``name``), from ``joined_on`` (today when left out). A claimed
        player is invited (``status`` invited): a member only once their account accepts."""
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
            membership = clubs.member_add(
                club=club, player=player, joined_on=d.get("joined_on"), by=request.user
            )
        body = {
            "id": membership.player_id,
            "name": membership.player.name,
            "joined_on": membership.joined_on,
            "status": membership.status,
        }
        return Response(MembershipAnswerSerializer(body).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={200: InvitationSerializer(many=True)},
        description="The clubs' invitations waiting for this account's answer (to its player, a claimed "
        "record).",
    )
    @action(
        detail=False,
        methods=["get"],
        filter_backends=[],
        pagination_class=None,
        permission_classes=[permissions.IsAuthenticated],
    )
    def invitations(self, request):
        return Response(InvitationSerializer(clubs.invitations(request.user), many=True).data)

    @extend_schema(
        request=InvitationAnswerSerializer,
        responses={200: MembershipAnswerSerializer},
        description="The invited player's account accepts (a member from now on) or declines the club's "
        "invitation. 404: no invitation of this club waits for this account.",
    )
    @action(
        detail=True,
        methods=["post"],
        filter_backends=[],
        pagination_class=None,
        permission_classes=[permissions.IsAuthenticated],
    )
    def invitation(self, request, slug=None):
        club = get_object_or_404(selectors.club_list(), slug=slug)
        body = InvitationAnswerSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        membership = get_object_or_404(clubs.invitations(request.user), club=club)
        membership = clubs.member_answer(
            membership=membership, user=request.user, accept=body.validated_data["answer"] == "accept"
        )
        answer = {
            "id": membership.player_id,
            "name": membership.player.name,
            "joined_on": membership.joined_on,
            "status": membership.status,
        }
        return Response(MembershipAnswerSerializer(answer).data)

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
        clubs.member_remove(club=club, player=player, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

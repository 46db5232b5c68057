"""Players through the API: who they are and the matches they sat in; an account's claim, the merge of
two records of one person and its split (``league.api.identity``)."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from api.sync import SyncPagination, UpdatedSinceFilter
from league import confirmations, counting, ratings
from league.api import identity as bodies
from league.api.confirmations import (
    CONFIRM_EXAMPLE,
    ConfirmationSerializer,
    ConfirmRequestSerializer,
    PlayerMatchSerializer,
)
from league.api.ratings import RatingHistorySerializer
from league.identity_selectors import merge_problem, person_merges, seen_records
from league.permissions import may_claim, may_merge, may_split
from players import identity_services as identity
from players.errors import PlayerError
from players.models import Player, PlayerMerge
from scoring import selectors
from scoring.api import PlayerSerializer


class PlayerFilter(UpdatedSinceFilter):
    class Meta:
        model = Player
        fields = {"name": ["exact", "icontains"]}


@extend_schema(tags=["players"])
class PlayerViewSet(viewsets.ReadOnlyModelViewSet):
    """Players, but those known only from private tournaments this account does not organize."""

    serializer_class = PlayerSerializer
    queryset = Player.objects.order_by("id")
    filterset_class = PlayerFilter
    pagination_class = SyncPagination  # updated_since: pages continue after their last player

    def get_queryset(self):
        players = selectors.visible_players(self.request.user).select_related("merged_into").order_by("id")
        # The list shows people (roots); a merged record's id still answers, as its person.
        return players.filter(merged_into__isnull=True) if self.action == "list" else players

    def get_object(self):
        """The record named, as its person: a merged record answers as the one it was merged into."""
        return identity.root_of(super().get_object())

    @extend_schema(
        responses={200: PlayerMatchSerializer(many=True)},
        description="The player's matches, each with whether it counts for them, and whether it is "
        "unconfirmed (a player at the table with an account has not stood behind it: it counts for "
        "nobody) and awaits this player's own confirmation (``confirm``).",
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def history(self, request, pk=None):
        player = self.get_object()
        seats = selectors.seated_person(player)  # under any of the person's records
        matches = (
            selectors.visible_matches(request.user)
            .filter(seats)
            .select_related(*selectors.MATCH_LIST_RELATED, *(f"seat{n}__merged_into" for n in range(4)))
            .order_by("-id")
        )
        page = self.paginate_queryset(counting.with_counting(matches, person=player))
        data = PlayerMatchSerializer(page, many=True, context={"person": player}).data
        return self.get_paginated_response(data)

    @extend_schema(
        request=ConfirmRequestSerializer,
        responses={200: ConfirmationSerializer},
        examples=[CONFIRM_EXAMPLE],
        description="The player's own account says of a match they sat at: ``me`` (it counts for them; "
        "for a tournament's match, every match of theirs in that event) or ``not_me`` (it stays "
        "unconfirmed, counted for nobody). A later answer replaces the earlier one. 403: not this "
        "player's account. 400: no such match of theirs.",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated], filter_backends=[])
    def confirm(self, request, pk=None):
        player = self.get_object()
        body = ConfirmRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if player.user_id is None or player.user_id != request.user.pk:
            raise PermissionDenied(gettext("Only the player's own account may confirm their matches."))
        match = selectors.visible_matches(request.user).filter(pk=body.validated_data["match"]).first()
        if match is None:
            raise PlayerError(
                gettext("There is no match %(id)s.") % {"id": body.validated_data["match"]}, field="match"
            )
        answer = confirmations.match_answer(
            match=match, user=request.user, answer=body.validated_data["answer"]
        )
        return Response(ConfirmationSerializer(answer).data)

    @extend_schema(
        responses={200: RatingHistorySerializer},
        description="The player's current rating (skill ± uncertainty, rated matches) and its history, "
        "oldest first: the points of private tournaments' matches this account may not see are left out.",
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def rating(self, request, pk=None):
        player = self.get_object()
        player.visible_history = ratings.rating_history(player=player, user=request.user)
        return Response(RatingHistorySerializer(player).data)

    # Who the player is: claim, merge, split --------------------------------------------------------

    @extend_schema(
        request=bodies.ClaimRequestSerializer,
        responses={201: bodies.ClaimSerializer},
        examples=[bodies.CLAIM_EXAMPLE],
        description="This account asks to be this player; a decider approves it on the site (the site's "
        "staff, a club or an event with a say over the record: see /help/#records). 400: the player is "
        "claimed already, the account is a player already or waits on another claim.",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated], filter_backends=[])
    def claim(self, request, pk=None):
        player = self.get_object()
        body = bodies.ClaimRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if not may_claim(request.user):
            raise PermissionDenied(gettext("A club's account cannot be a player."))
        claim = identity.claim_request(
            player=player, user=request.user, message=body.validated_data["message"]
        )
        return Response(bodies.ClaimSerializer(claim).data, status=201)

    @extend_schema(
        responses={200: bodies.MergeSerializer(many=True)},
        description="The merges (not undone) that made this person of several records, the latest first.",
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def merges(self, request, pk=None):
        merges = list(person_merges(player=self.get_object(), user=request.user))
        ids = [int(pk) for merge in merges for pk in merge.records]
        context = {"seen": seen_records(ids=ids, user=request.user)}
        return Response(bodies.MergeSerializer(merges, many=True, context=context).data)

    @extend_schema(
        request=bodies.MergeRequestSerializer,
        responses={201: bodies.MergeSerializer},
        examples=[bodies.MERGE_EXAMPLE],
        description="Merge another record of the same person (``absorbed``) into this one: no match changes, "
        "both records' matches count for this one. The site's staff, a club admin whose club both stand "
        "in, or the organizer of a finished public event that made every record of both (403 otherwise). "
        "400: the same record, a merged record (merge its root), two records claimed by different "
        "accounts, or a record known only from private events keeping its name over a public one.",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated], filter_backends=[])
    def merge(self, request, pk=None):
        survivor = self.get_object()
        body = bodies.MergeRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        absorbed = selectors.visible_players(request.user).filter(pk=body.validated_data["absorbed"]).first()
        if absorbed is None:
            raise PlayerError(
                gettext("There is no player %(id)s.") % {"id": body.validated_data["absorbed"]},
                field="absorbed",
            )
        if not may_merge(request.user, survivor, absorbed):
            raise PermissionDenied(
                gettext("Only the site's staff, or a club or an event with a say over both, merge them.")
            )
        if (problem := merge_problem(survivor=survivor, absorbed=absorbed)) is not None:
            raise PlayerError(problem, field="absorbed")
        merge = identity.player_merge(
            survivor=survivor, absorbed=absorbed, by=request.user, reason=body.validated_data["reason"]
        )
        ratings.ratings_request()
        return Response(bodies.MergeSerializer(merge).data, status=201)

    @extend_schema(
        request=bodies.SplitRequestSerializer,
        responses={200: bodies.MergeSerializer},
        examples=[bodies.SPLIT_EXAMPLE],
        description="Undo one of this person's merges: each record has its own matches back. Whoever may "
        "merge the records may split them (403 otherwise). 400: no such merge of this player, already "
        "split, or a later merge took one of its records elsewhere (split that one first).",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated], filter_backends=[])
    def split(self, request, pk=None):
        player = self.get_object()
        body = bodies.SplitRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        ours = Q(absorbed__merged_into=player) | Q(absorbed=player) | Q(survivor=player)
        merge = PlayerMerge.objects.filter(ours, pk=body.validated_data["merge"]).first()
        if merge is None:
            raise PlayerError(
                gettext("%(player)s has no merge %(id)s.")
                % {"player": player.name, "id": body.validated_data["merge"]},
                field="merge",
            )
        if not may_split(request.user, merge):
            raise PermissionDenied(
                gettext("Only the site's staff, or a club or an event with a say over both, split them.")
            )
        merge = identity.player_split(merge=merge, by=request.user)
        ratings.ratings_request()
        return Response(bodies.MergeSerializer(merge).data)

"""Webhooks through the API: the subscriptions an account manages (its tournaments', its clubs'),
each one's delivery log, a redelivery, a new secret.

Every answer holds the subscription's secret, so only the account itself reads them: its token, a
signed-in session or a ``full`` scoped token (a ``read`` or ``score`` token may not even list them);
and each is sent with ``Cache-Control: no-store``.
"""

from __future__ import annotations

import json
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
)
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response

from players.models import ApiToken, Club
from tournaments.models import Tournament
from tournaments.selectors import tournament_visible

from . import selectors, services
from .models import Delivery, Event, Subscription

EVENTS_HELP = (
    "The events sent: match.finished, round.started, round.finished, standings.updated (after each "
    "recomputation of the standings, one per burst of results), tournament.finished"
)

CREATE_EXAMPLES = [
    OpenApiExample(
        "A tournament's results to a club's site",
        value={
            "url": "https://club.example.org/hooks/tsoxa",
            "events": ["match.finished", "standings.updated", "tournament.finished"],
            "tournament": "spring-cup",
        },
        request_only=True,
    ),
    OpenApiExample(
        "Every round of a club's public tournaments",
        value={
            "url": "https://club.example.org/hooks/tsoxa",
            "events": ["round.started", "round.finished"],
            "club": "kafeneio",
        },
        request_only=True,
    ),
]
UPDATE_EXAMPLES = [
    OpenApiExample("Pause it", value={"active": False}, request_only=True),
    OpenApiExample(
        "Resume it, with one more event",
        value={"active": True, "events": ["match.finished", "round.finished"]},
        request_only=True,
    ),
]


class OwnAccountOnly(permissions.BasePermission):
    """Signed in, and not through a ``read`` or ``score`` scoped token: the answers hold secrets."""

    message = _("Webhooks are managed with the account's own token, a “full” token or a signed-in session.")

    def has_permission(self, request: Any, view: Any) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        return not isinstance(request.auth, ApiToken) or request.auth.scope == ApiToken.Scope.FULL


# Serializers ------------------------------------------------------------------------------------


class WebhookSerializer(serializers.ModelSerializer):
    """A subscription: where, which events, of what, and how its deliveries go."""

    events = serializers.ListField(
        child=serializers.ChoiceField(choices=Event.choices), help_text=EVENTS_HELP
    )
    tournament: serializers.SlugRelatedField[Tournament] = serializers.SlugRelatedField(
        slug_field="slug",
        read_only=True,
        allow_null=True,
        help_text="The tournament whose events are sent; none: a club's",
    )
    club: serializers.SlugRelatedField[Club] = serializers.SlugRelatedField(
        slug_field="slug",
        read_only=True,
        allow_null=True,
        help_text="The club whose public tournaments' events are sent; none: a tournament's",
    )
    created_by = serializers.CharField(
        source="created_by.username", read_only=True, allow_null=True, default=None
    )
    secret = serializers.CharField(
        read_only=True,
        help_text="Signs every delivery (Tsoxa-Signature): keep it on the receiving server only",
    )
    active = serializers.BooleanField(help_text="False: paused, no delivery is sent")
    paused_reason = serializers.CharField(
        read_only=True,
        help_text="Paused after too many failed deliveries in a row: the last one's answer; empty otherwise",
    )
    consecutive_failures = serializers.IntegerField(
        read_only=True, help_text="Deliveries failed in a row (each after all its attempts)"
    )

    class Meta:
        model = Subscription
        fields = [
            "id",
            "url",
            "events",
            "tournament",
            "club",
            "active",
            "paused_at",
            "paused_reason",
            "consecutive_failures",
            "secret",
            "created_by",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields


class WebhookCreateSerializer(serializers.Serializer):
    url = serializers.CharField(
        max_length=500, help_text="https://… on a public address (checked now and at each delivery)"
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=Event.choices),
        min_length=1,
        max_length=len(Event.values),
        help_text=EVENTS_HELP,
    )
    tournament = serializers.CharField(
        required=False, allow_null=True, max_length=140, help_text="A tournament's slug (its organizer)"
    )
    club = serializers.CharField(
        required=False, allow_null=True, max_length=140, help_text="Or a club's slug (its admins)"
    )


class WebhookUpdateSerializer(serializers.Serializer):
    url = serializers.CharField(max_length=500, required=False)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=Event.choices),
        min_length=1,
        max_length=len(Event.values),
        required=False,
        help_text=EVENTS_HELP,
    )
    active = serializers.BooleanField(required=False, help_text="False pauses it; true resumes it")


class WebhookAttemptSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="From 1")
    manual = serializers.BooleanField(help_text="A redelivery asked for by the owner")
    at = serializers.DateTimeField()
    ok = serializers.BooleanField(allow_null=True, help_text="Answered 2xx; null while it is being made")
    status_code = serializers.IntegerField(allow_null=True, help_text="The answer's HTTP status; null: none")
    error = serializers.CharField(help_text="What went wrong before an answer (refused address, timeout …)")
    response = serializers.CharField(help_text="The start of the answer's body")
    duration_ms = serializers.IntegerField(allow_null=True)


class WebhookPayloadTournamentSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    url = serializers.URLField(help_text="The tournament's page")


class WebhookPayloadTeamSerializer(serializers.Serializer):
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())


class WebhookPayloadMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    teams = WebhookPayloadTeamSerializer(many=True)
    totals = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True, help_text="0 or 1; null: a draw")


class WebhookPayloadRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()


class WebhookPayloadLinksSerializer(serializers.Serializer):
    standings = serializers.URLField(help_text="GET: the standings (the API)")
    ranking = serializers.URLField(help_text="GET: the final ranking (the API)")
    round = serializers.URLField(required=False, help_text="round.*: the round's pairings (the API)")
    page = serializers.URLField(required=False, help_text="round.*: the round's page")
    match = serializers.URLField(required=False, help_text="match.finished: the match (the API)")
    sheet = serializers.URLField(required=False, help_text="match.finished: its score sheet (the API)")
    export = serializers.URLField(required=False, help_text="tournament.finished: the whole tournament")


class WebhookPayloadDataSerializer(serializers.Serializer):
    """What the event is about; which fields come depends on the event (each field says)."""

    round = WebhookPayloadRoundSerializer(required=False, help_text="round.*, match.finished: the round")
    table = serializers.IntegerField(required=False, help_text="match.finished: the table's number")
    entries = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        required=False,
        help_text="match.finished: the two entries (the standings' entry)",
    )
    match = WebhookPayloadMatchSerializer(required=False, help_text="match.finished")
    version = serializers.IntegerField(required=False, help_text="standings.updated: the standings' version")
    finished_at = serializers.DateTimeField(required=False, allow_null=True, help_text="tournament.finished")
    early = serializers.BooleanField(required=False, help_text="tournament.finished: by its organizer, early")
    reason = serializers.CharField(required=False, help_text="tournament.finished early: why")
    links = WebhookPayloadLinksSerializer()


class WebhookPayloadSerializer(serializers.Serializer):
    """The JSON body posted (and signed) for one event."""

    id = serializers.UUIDField(help_text="The delivery's id (also Tsoxa-Delivery)")
    type = serializers.ChoiceField(choices=Event.choices, help_text="The event (also Tsoxa-Event)")
    created = serializers.DateTimeField(help_text="When the event happened")
    tournament = WebhookPayloadTournamentSerializer()
    # The metaclass moves a declared field into _declared_fields: Serializer.data stays the property.
    data = WebhookPayloadDataSerializer()  # type: ignore[assignment]  # the stubs read it as an override


class WebhookDeliverySerializer(serializers.ModelSerializer):
    """One event sent to a subscription: its body, where it stands, and each attempt."""

    payload = serializers.SerializerMethodField()
    log = WebhookAttemptSerializer(many=True, read_only=True, help_text="Every attempt, the first first")

    class Meta:
        model = Delivery
        fields = [
            "id",
            "event",
            "status",
            "attempts",
            "created_at",
            "delivered_at",
            "next_attempt_at",
            "payload",
            "log",
        ]
        read_only_fields = fields

    @extend_schema_field(WebhookPayloadSerializer)
    def get_payload(self, delivery: Delivery) -> dict[str, Any]:
        return json.loads(delivery.body)


# Views ------------------------------------------------------------------------------------------

DELIVERY_ID = OpenApiParameter(
    "delivery_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The delivery's id"
)


def _refused(error: services.WebhookError) -> ValidationError:
    return ValidationError({error.field or "non_field_errors": [error.message]})


@extend_schema(tags=["webhooks"])
class WebhookViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Webhooks: an address told of a tournament's events (or of every public tournament of a club),
    each delivery signed with the subscription's secret. The account's own subscriptions only."""

    queryset = Subscription.objects.none()  # the schema's model; get_queryset gives the account's
    serializer_class = WebhookSerializer
    permission_classes = [OwnAccountOnly]
    lookup_value_regex = "[0-9]+"
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    filter_backends: list = []

    def get_queryset(self):
        return selectors.subscription_list(user=self.request.user)

    def finalize_response(self, request, response, *args, **kwargs):
        """Every answer here may hold a secret: no cache, the browser's or a proxy's, keeps it."""
        response = super().finalize_response(request, response, *args, **kwargs)
        add_never_cache_headers(response)
        return response

    def _target(self, kind: str, slug: str) -> Tournament | Club:
        """The tournament or club named: a 403 when the account sees it but does not run it, and
        "no such" when it does not see it (a private tournament stays unknown)."""
        if kind == "tournament":
            found = Tournament.objects.filter(slug=slug).first()
            if found is None or not tournament_visible(found, self.request.user):
                raise ValidationError({"tournament": [gettext("No such tournament.")]})
            if not selectors.may_manage_tournament(self.request.user, found):
                raise PermissionDenied(gettext("Only the tournament's organizer registers its webhooks."))
            return found
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise ValidationError({"club": [gettext("No such club.")]})
        if not selectors.may_manage_club(self.request.user, club):
            raise PermissionDenied(gettext("Only the club's admins register its webhooks."))
        return club

    @extend_schema(
        request=WebhookCreateSerializer,
        responses={201: WebhookSerializer},
        examples=CREATE_EXAMPLES,
    )
    def create(self, request):
        """Register an address for events of one tournament (its organizer) or one club (its
        admins). The address must be https:// and resolve to public addresses only. The answer holds
        the secret that signs the deliveries."""
        data = WebhookCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        if bool(d.get("tournament")) == bool(d.get("club")):
            raise ValidationError({"tournament": [gettext("Name one tournament or one club.")]})
        kind = "tournament" if d.get("tournament") else "club"
        target = self._target(kind, d[kind])
        try:
            subscription = services.subscription_create(
                user=request.user, url=d["url"], events=d["events"], **{kind: target}
            )
        except services.WebhookError as error:
            raise _refused(error) from None
        return Response(WebhookSerializer(subscription).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=WebhookUpdateSerializer,
        responses={200: WebhookSerializer},
        examples=UPDATE_EXAMPLES,
    )
    def partial_update(self, request, pk=None):
        """Change the address or the events; ``"active": false`` pauses it, ``true`` resumes it (its
        count of failures starts again)."""
        subscription = self.get_object()
        data = WebhookUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            subscription = services.subscription_update(subscription=subscription, **data.validated_data)
        except services.WebhookError as error:
            raise _refused(error) from None
        return Response(WebhookSerializer(subscription).data)

    def destroy(self, request, pk=None):
        """Delete it, with its delivery log."""
        services.subscription_delete(subscription=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={200: WebhookSerializer})
    @action(detail=True, methods=["post"])
    def secret(self, request, pk=None):
        """A new secret: the deliveries from now on are signed with it (the old one stops at once)."""
        subscription = services.subscription_rotate(subscription=self.get_object())
        return Response(WebhookSerializer(subscription).data)

    @extend_schema(responses={200: WebhookDeliverySerializer(many=True)})
    @action(detail=True, methods=["get"])
    def deliveries(self, request, pk=None):
        """The delivery log, newest first: each delivery's body, status and attempts (paginated)."""
        log = selectors.delivery_log(subscription=self.get_object())
        page = self.paginate_queryset(log)
        return self.get_paginated_response(WebhookDeliverySerializer(page, many=True).data)

    @extend_schema(
        request=None,
        parameters=[DELIVERY_ID],
        responses={202: WebhookDeliverySerializer},
    )
    @action(detail=True, methods=["post"], url_path=r"deliveries/(?P<delivery_id>[0-9a-fA-F-]{36})/redeliver")
    def redeliver(self, request, pk=None, delivery_id=None):
        """Send a delivered or failed delivery again: one more attempt of the same body, signed with
        a new timestamp, by the worker (the answer comes before it: read the log). Also while the
        subscription is paused, to try the receiver before resuming it."""
        subscription = self.get_object()
        delivery = get_object_or_404(Delivery, pk=delivery_id, subscription=subscription)
        try:
            delivery = services.delivery_redeliver(delivery=delivery)
        except services.WebhookError as error:  # still being sent: its attempts have not ended
            raise ValidationError(error.message) from None
        return Response(WebhookDeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)

"""What is gone, for a client mirroring the API: ``GET /api/v1/changes/?since=<ISO 8601>``.

The lists of matches, tournaments, players and teams, read with ``updated_since``, give what changed
or came back; this gives what a mirror must drop (the tombstones of ``scoring.removals``): a deal
deleted, an entry withdrawn, a tournament made private with its matches and the teams and players
only it showed, a player record merged into another. Ids only.

Who reads what: a tombstone of a tournament's object is listed to whoever may see that tournament
(public, or its organizer; a superuser sees all); a deal of a standalone match follows the match;
a merged player is listed, while the record is merged into that person, to whoever may see that
record (one known only from private events is listed only to those who see them; a split gives
it back: it is listed again, its ``updated_at`` moved). An empty ``since=`` is a 400, as an empty
``updated_since=`` on the lists. The tombstones of a tournament made private (reason
``private``) are listed to everyone who may no longer see it: their mirror must drop what it had,
while its organizer's keeps it (and a tournament public again lists them to nobody: its objects
come back in the lists, their ``updated_at`` moved).
"""

from __future__ import annotations

import datetime as dt

import django_filters
from django.db.models import Case, Exists, OuterRef, Q, Subquery, When
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets

from api.sync import AFTER_ID_HELP, ID_MOST, IdFilter, SyncPagination, refuse_empty, utc
from players.models import Player
from scoring.models import Removal
from scoring.selectors import visible_matches, visible_players
from tournaments.models import Entry, Tournament

DEFAULT_DAYS = 30  # without ``since``: the tombstones of the last 30 days

SINCE_HELP = (
    "ISO 8601 date and time: the removals at or after it (inclusive: those of that very moment come "
    f"again), oldest first. Left out: the last {DEFAULT_DAYS} days. Keep the largest `at` seen and ask "
    "again with it; the next link of a page continues after its last removal."
)


class ChangeSerializer(serializers.Serializer):
    """Something a mirror holds that is gone from what these credentials may read: drop it."""

    kind = serializers.ChoiceField(
        choices=Removal.Kind.values,
        help_text="What is gone: deal, match, team, player, entry (of a tournament) or tournament",
    )
    id = serializers.IntegerField(
        source="object_id", help_text="Its id (a tournament's id: `tournament` gives its slug)"
    )
    reason = serializers.ChoiceField(
        choices=Removal.Reason.values,
        help_text="deleted (a deal), private (a tournament made private: it, its matches, and the teams "
        "and players only it showed), withdrawn (an entry), merged (a player record, now part of `into`)",
    )
    at = serializers.DateTimeField(help_text="When it went")
    match = serializers.IntegerField(source="match_id", allow_null=True, help_text="A deal's match")
    tournament = serializers.CharField(
        source="tournament_slug",
        allow_null=True,
        help_text="The slug of the tournament it belonged to (null: none, or a tournament no longer there)",
    )
    into = serializers.IntegerField(
        source="into_id",
        allow_null=True,
        help_text="A merged player: the person's id now (GET /api/v1/players/{into}/ answers for both ids)",
    )
    team = serializers.IntegerField(
        source="entry_team",
        allow_null=True,
        help_text="A withdrawn entry: its team's id (null in an individual event, whose entry is a player)",
    )


class ChangeFilter(django_filters.FilterSet):
    since = django_filters.IsoDateTimeFilter(method="removed_since", help_text=SINCE_HELP)
    after_id = IdFilter(method="continued", min_value=0, max_value=ID_MOST, help_text=AFTER_ID_HELP)
    kind = django_filters.ChoiceFilter(choices=Removal.Kind.choices, help_text="Only this kind")

    class Meta:
        model = Removal
        fields = ["since", "after_id", "kind"]

    def is_valid(self):
        valid = super().is_valid()
        return refuse_empty(self, "since") and valid

    def removed_since(self, queryset, name, value):
        since = utc(value)
        after = self.form.cleaned_data.get("after_id")
        if after is None:
            return queryset.filter(at__gte=since)
        return queryset.filter(Q(at__gt=since) | Q(at=since, pk__gt=after))

    def continued(self, queryset, name, value):
        return queryset  # read by removed_since


class ChangePagination(SyncPagination):
    """Pages linked by where they ended (``since`` and ``after_id`` of the last removal)."""

    since_param = "since"
    moment = "at"
    always = True


def still_gone() -> Q:
    """A merged record's tombstone holds while the record is merged into that person: a split gave
    it back (a person again, in the lists) or a later merge's tombstone says where it is now."""
    merged = Player.objects.filter(pk=OuterRef("object_id"), merged_into=OuterRef("into_id"))
    return ~Q(reason=Removal.Reason.MERGED) | Q(Exists(merged))


def visible_removals(user) -> Q:
    """Which tombstones these credentials may read (see the module's note)."""
    signed_in = user is not None and user.is_authenticated
    if signed_in and user.is_superuser:
        return Q()
    seen = Tournament.objects.filter(pk=OuterRef("tournament_id"))
    seen = seen.filter(Q(public=True) | Q(organizer=user)) if signed_in else seen.filter(public=True)
    in_seen = Q(Exists(seen))
    match_seen = Q(Exists(visible_matches(user).filter(pk=OuterRef("match_id"))))
    standalone = Q(tournament_id__isnull=True) & (Q(match_id__isnull=True) | match_seen)
    private = Q(reason=Removal.Reason.PRIVATE)
    # A merged record is told gone only to whoever could see it: one known only from private events
    # they do not see never had its id in their mirror, and its tombstone must not give it away.
    merged = Q(reason=Removal.Reason.MERGED)
    record_seen = Q(Exists(visible_players(user).filter(pk=OuterRef("object_id"))))
    listed = (private & ~in_seen) | (~private & (standalone | (Q(tournament_id__isnull=False) & in_seen)))
    return listed & (~merged | record_seen)


@extend_schema(tags=["sync"])
class ChangeViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """What is gone since a moment, for a client mirroring the API: deals deleted, entries withdrawn,
    tournaments made private (with their matches, and the teams and players only they showed), player
    records merged into another. Oldest first; ids only. The lists of matches, tournaments, players
    and teams, read with `updated_since`, give what changed or came back."""

    serializer_class = ChangeSerializer
    filterset_class = ChangeFilter
    pagination_class = ChangePagination

    def get_queryset(self):
        tournament = Tournament.objects.filter(pk=OuterRef("tournament_id")).values("slug")[:1]
        team = Entry.objects.filter(pk=OuterRef("object_id")).values("team_id")[:1]
        removals = Removal.objects.filter(visible_removals(self.request.user), still_gone()).annotate(
            tournament_slug=Subquery(tournament),
            entry_team=Case(When(kind=Removal.Kind.ENTRY, then=Subquery(team)), default=None),
        )
        if not self.request.query_params.get("since"):
            removals = removals.filter(at__gte=timezone.now() - dt.timedelta(days=DEFAULT_DAYS))
        return removals.order_by("at", "pk")

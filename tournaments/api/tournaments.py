"""The tournaments API: a tournament itself (its settings, start, finish), the filter of the list and
who may change it. ``viewset.py`` joins it to the other resources' actions."""

from __future__ import annotations

import re

import django_filters
from django.db.models import Q
from django.utils.translation import gettext_lazy
from rest_framework import permissions, serializers

from api.sync import UpdatedSinceFilter
from players.models import Club
from scoring import api_schema as scoring_schema
from scoring.models import RULESET_KEYS
from scoring.permissions import can_write

from .. import selectors, services, standings
from ..models import Tournament


class TournamentSerializer(serializers.ModelSerializer):
    organizer = serializers.CharField(source="organizer.username", read_only=True)
    club: serializers.SlugRelatedField[Club] = serializers.SlugRelatedField(
        slug_field="slug",
        read_only=True,
        allow_null=True,
        help_text="The club that holds it (its slug), or null",
    )
    embed_origins = serializers.SerializerMethodField(
        help_text="The websites (origins) whose pages may frame the embeds (/tournaments/{slug}/embed/…)"
    )
    finish_in_play = serializers.ChoiceField(
        choices=Tournament.InPlay.choices,
        allow_blank=True,
        read_only=True,
        help_text="Finished early: what became of the matches in play (empty: not finished early)",
    )
    options = scoring_schema.options_field(help_text="The rule set's options for every match")
    tiebreaks = scoring_schema.typed_json(
        serializers.ListField(child=serializers.ChoiceField(choices=list(standings.METRICS))),
        help_text="Metric keys in order, fixed when the tournament starts",
    )
    cuts = scoring_schema.typed_json(
        serializers.ListField(child=serializers.IntegerField()),
        help_text="Places where a tie is played off, e.g. [3, 8]",
    )
    avoid = scoring_schema.typed_json(
        serializers.ListField(child=scoring_schema.pair(serializers.IntegerField(), "Two entry ids")),
        help_text="Pairs of entries kept apart while the pairing allows (same club, same family)",
    )

    class Meta:
        model = Tournament
        read_only_fields = [
            "slug",
            "organizer",
            "status",
            "checkin_open",
            "created_at",
            "started_at",
            "finished_at",
            "finish_reason",
            "finish_in_play",
            "avoid",
            "updated_at",
        ]
        fields = [*read_only_fields[:2], *services.SETTINGS, *services.EMBED_SETTINGS, *read_only_fields[2:]]

    def get_embed_origins(self, tournament: Tournament) -> list[str]:
        return tournament.embed_origins.split()


class TournamentWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    ruleset = serializers.ChoiceField(
        choices=RULESET_KEYS, required=False, help_text="Left out: the preset's game, else mpourloto"
    )
    options = scoring_schema.OptionsInputField(
        required=False, default=dict, help_text="With a preset: changes over the preset's options"
    )
    preset = serializers.CharField(
        max_length=80,
        required=False,
        allow_blank=True,
        help_text="A named preset (GET /api/v1/presets/), by name or slug: it sets the game and the options "
        "of every match, and the minutes a round when time_limit is left out or 0",
    )
    format = serializers.ChoiceField(choices=Tournament.Format.values, default="swiss")
    swiss_rounds = serializers.IntegerField(
        min_value=1, max_value=30, default=5, help_text="Rounds of a Swiss, a concours or an individual event"
    )
    seed = serializers.IntegerField(
        min_value=1,
        max_value=999_999,
        required=False,
        help_text="The draw's seed (round 1 of a concours, an individual movement); random when left out",
    )
    time_limit = serializers.IntegerField(
        min_value=0,
        max_value=600,
        default=0,
        help_text="Minutes a stage round lasts once its clock is started (0: untimed). When time is up, the "
        "next deal recorded at a table is its last: the match ends on its totals",
    )
    bye_game_points = serializers.IntegerField(
        min_value=0, max_value=100_000, default=0, help_text="Game points a bye is worth (rankings on points)"
    )
    knockout_size = serializers.IntegerField(min_value=0, max_value=256, default=0)
    pool_size = serializers.IntegerField(
        min_value=3, max_value=8, default=4, help_text="Pools: teams a pool, each a round robin (3 to 8)"
    )
    consolation = serializers.BooleanField(
        default=False, help_text="The teams that miss the knockout play a consolation bracket of their own"
    )
    third_place = serializers.BooleanField(
        default=False, help_text="The losing semi-finalists play a match for third place (a knockout of 4+)"
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(standings.METRICS)), required=False
    )
    deals_per_match = serializers.IntegerField(min_value=0, max_value=100, default=0)
    points_win = serializers.IntegerField(min_value=0, max_value=10, default=2)
    points_draw = serializers.IntegerField(min_value=0, max_value=10, default=1)
    points_loss = serializers.IntegerField(min_value=0, max_value=10, default=0)
    points_bye = serializers.IntegerField(min_value=0, max_value=10, default=2)
    playoff_deals = serializers.IntegerField(min_value=1, max_value=12, default=2)
    cuts = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=500), required=False)
    public = serializers.BooleanField(default=True)
    club = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Club.objects.all(),
        required=False,
        allow_null=True,
        help_text="The club that holds it, by its slug: one the organizer runs (null: none)",
        error_messages={"does_not_exist": gettext_lazy("No club has the slug {value}.")},
    )
    confirmation = serializers.BooleanField(default=False)
    deal_check = serializers.BooleanField(
        default=False,
        help_text="After each deal the tablet shows its line to the other team for one tap OK; an unchecked "
        "deal shows on the organizer's console (POST /api/v1/matches/{id}/deals/{deal_id}/check/)",
    )
    rated = serializers.BooleanField(default=True, help_text="Its matches count in the players' ratings")
    seed_by_rating = serializers.BooleanField(
        default=False,
        help_text="Swiss or concours: round 1 seeded by the players' ratings (the best against the middle of "
        "the field) instead of drawn",
    )
    signup_open = serializers.BooleanField(default=False)
    starts_on = serializers.DateField(required=False, allow_null=True)
    # The embeds on a club's own website: may change at any time, once started too.
    embed_origins = serializers.ListField(
        child=serializers.CharField(max_length=300),
        max_length=20,
        required=False,
        help_text="The websites whose pages may frame the embeds (/tournaments/{slug}/embed/standings/, "
        "…/embed/round/, …/embed/rounds/{n}/), as origins: https://club.example[:port], no path "
        "(http:// only for localhost and 127.0.0.1; a wildcard only as https://*.club.example); "
        "[] for none (this site only)",
    )
    colour = serializers.RegexField(
        r"^(#[0-9a-fA-F]{6})?$",
        required=False,
        allow_blank=True,
        help_text="The embeds' main colour, #rrggbb; empty: the site's green",
    )
    background = serializers.RegexField(
        r"^(#[0-9a-fA-F]{6})?$",
        required=False,
        allow_blank=True,
        help_text="The embeds' background, #rrggbb; empty: white",
    )

    def validate_embed_origins(self, origins: list[str]) -> list[str]:
        try:
            return services.embed_origins_parse(origins)
        except services.TournamentError as error:
            raise serializers.ValidationError(str(error).split("\n")) from None


class FinishSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, help_text="Why the tournament finishes early (audited)")
    in_play = serializers.ChoiceField(
        choices=Tournament.InPlay.values,
        default=Tournament.InPlay.TOTALS,
        help_text="Matches still in play: finished on their totals, or left out (counted for nobody)",
    )


class TournamentFilter(UpdatedSinceFilter):
    club = django_filters.CharFilter(
        method="by_club", help_text="The club's slug (its tournaments), or the organizing club's account"
    )
    ruleset = django_filters.ChoiceFilter(choices=[(k, k) for k in RULESET_KEYS])
    status = django_filters.ChoiceFilter(choices=Tournament.Status.choices)
    date_from = django_filters.DateFilter(field_name="starts_on", lookup_expr="gte")
    date_to = django_filters.DateFilter(field_name="starts_on", lookup_expr="lte")
    player = django_filters.CharFilter(method="by_player", help_text="A player's id or exact name")

    class Meta:
        model = Tournament
        fields = ["club", "ruleset", "status", "date_from", "date_to", "player"]

    def by_club(self, queryset, name, value):
        return queryset.filter(Q(club__slug=value) | Q(organizer__username=value))

    def by_player(self, queryset, name, value):
        """By a person's id (the records merged into it too: ``Player.merged_into``) or a record's name."""
        keys = ["pk", "merged_into"] if re.fullmatch(r"[0-9]{1,18}", value) else ["name__iexact"]
        entered = Q()
        for key in keys:
            for who in ("entries__team__player_a", "entries__team__player_b", "entries__player"):
                entered |= Q(**{f"{who}__{key}": value})
        return queryset.filter(entered).distinct()


class OrganizerOrReadOnly(permissions.BasePermission):
    message = "Only the tournament's organizer may change it."

    def has_permission(self, request, view) -> bool:
        return request.method in permissions.SAFE_METHODS or can_write(request.user)

    def has_object_permission(self, request, view, obj) -> bool:
        return request.method in permissions.SAFE_METHODS or selectors.can_manage(obj, request.user)

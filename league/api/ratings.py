"""Ratings through the API: the leaderboard, and a player's rating with the history this account may
see (``PlayerViewSet.rating``, under /players/{id}/rating/). Read only: the worker writes them."""

from __future__ import annotations

import django_filters
from django import forms
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets

from league import ratings
from league.models import RatingPoint
from players.models import Player


class RatingSerializer(serializers.ModelSerializer):
    """A player's current rating: the number tables sort by, the skill and its uncertainty."""

    rating = serializers.FloatField(
        read_only=True,
        allow_null=True,
        help_text="mu − 3 sigma: the number shown and sorted by (null: unrated)",
    )
    mu = serializers.FloatField(
        source="rating_mu", read_only=True, allow_null=True, help_text="The skill (null: unrated)"
    )
    sigma = serializers.FloatField(
        source="rating_sigma", read_only=True, allow_null=True, help_text="Its uncertainty (null: unrated)"
    )
    rated_matches = serializers.IntegerField(
        read_only=True, help_text="Finished matches of rated tournaments"
    )

    class Meta:
        model = Player
        fields = ["id", "name", "rating", "mu", "sigma", "rated_matches"]


class RatingPointSerializer(serializers.ModelSerializer):
    """The player's rating after one rated match."""

    match = serializers.IntegerField(source="match_id", read_only=True)
    position = serializers.IntegerField(
        read_only=True, help_text="The match's place in the whole run, from 1"
    )
    at = serializers.DateTimeField(read_only=True, help_text="When the match finished")

    class Meta:
        model = RatingPoint
        fields = ["match", "position", "at", "rating", "mu", "sigma"]


class RatingHistorySerializer(RatingSerializer):
    """The current rating and the history this account may see (oldest first): the points of a
    private tournament's matches it may not see are left out; the current rating counts them."""

    history = RatingPointSerializer(many=True, read_only=True, source="visible_history")

    class Meta(RatingSerializer.Meta):
        fields = [*RatingSerializer.Meta.fields, "history"]


class IntegerFilter(django_filters.NumberFilter):
    field_class = forms.IntegerField  # type: ignore[assignment]  # the stubs allow a DecimalField only


class RatingFilter(django_filters.FilterSet):
    min_matches = IntegerFilter(
        method="at_least",
        min_value=1,
        max_value=10_000,
        help_text="Only players with at least this many rated matches "
        f"(default {ratings.LEADERBOARD_MIN_MATCHES})",
    )

    class Meta:
        model = Player
        fields = ["min_matches"]

    def at_least(self, queryset, name: str, value: int):
        return queryset.filter(rated_matches__gte=value)

    def filter_queryset(self, queryset):
        if self.form.cleaned_data.get("min_matches") is None:  # not asked: the default minimum
            queryset = queryset.filter(rated_matches__gte=ratings.LEADERBOARD_MIN_MATCHES)
        return super().filter_queryset(queryset)


@extend_schema(tags=["ratings"])
class RatingViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """The players by rating, best first (then by name): those this account may see with a rating
    over at least ``min_matches`` rated matches. A rating counts every finished match of a rated
    tournament, in the order they finished (Weng–Lin, OpenSkill's Plackett–Luce model)."""

    serializer_class = RatingSerializer
    filterset_class = RatingFilter

    def get_queryset(self):
        return ratings.rating_leaderboard(user=self.request.user, min_matches=1)  # the filter narrows it

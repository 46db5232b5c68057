"""The tournaments API: the prize list, and the organizer's prize settings.

Its actions join ``TournamentViewSet`` (viewset.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``. Amounts are integer
cents; the reads and writes are tournaments/prizes.py's."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from .. import prizes as prize_rules  # the module; ``prizes`` is the action
from ..models import PrizeSettings

ROUNDINGS = [choice.value for choice in PrizeSettings.Rounding]


class PrizeTeamSerializer(serializers.Serializer):
    entry = serializers.IntegerField(help_text="The entry's id")
    number = serializers.IntegerField(allow_null=True, help_text="The entry's number")
    name = serializers.CharField(help_text="The team's (or the player's) name")
    players = serializers.ListField(child=serializers.CharField(), help_text="Its players' names")


class PrizePlaceSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="The place: 1 for the first")
    rank = serializers.IntegerField(allow_null=True, help_text="The rank shown (shared on a tie)")
    tied = serializers.BooleanField(
        help_text="Its team shares its rank with another: teams the tie-breaks cannot separate"
    )
    label = serializers.CharField(  # type: ignore[assignment]  # a declared field: DRF's metaclass takes it off the class
        help_text='The place as written, in the request\'s language: "2", or "=2" on each line of a '
        "shared place"
    )
    team = PrizeTeamSerializer(allow_null=True, help_text="The team at that place; null while none holds it")
    withdrawn = serializers.BooleanField()
    points = serializers.FloatField(
        allow_null=True, help_text="The value of the format's first ranking metric (points_key)"
    )
    values = serializers.DictField(
        child=serializers.FloatField(allow_null=True), help_text="Every ranking metric's value, by key"
    )
    text = serializers.CharField(allow_blank=True, help_text="The prize in words (a trophy, a ham …)")
    amount = serializers.IntegerField(
        allow_null=True, help_text="The money prize in cents: what the team at this place gets"
    )
    computed = serializers.IntegerField(
        allow_null=True, help_text="The split's amount of this place in cents"
    )
    edited = serializers.BooleanField(
        help_text="The organizer typed the amount: it stays as typed, tie or not"
    )
    pooled = serializers.BooleanField(
        help_text="A shared place: the amount is an equal share of the money of the places the tied teams "
        "hold (lines not edited), rounded down as the split is, what the rounding leaves to the first of "
        "them in the ranking. 437 at 40/25/15/12/8 down to the unit, places 2 and 3 tied: 8700 each"
    )


class PrizeCategorySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    text = serializers.CharField(allow_blank=True)
    amount = serializers.IntegerField(allow_null=True, help_text="In cents")
    winners = PrizeTeamSerializer(many=True)


class PrizeListSerializer(serializers.Serializer):
    currency = serializers.CharField(help_text="The symbol written after an amount")
    pot = serializers.IntegerField(help_text="The pot in cents")
    percentages = serializers.ListField(
        child=serializers.CharField(), help_text="The pot's percent per place from the first, as decimal text"
    )
    rounding = serializers.ChoiceField(choices=ROUNDINGS)
    unassigned = serializers.IntegerField(help_text="Cents of the pot no place gets (percentages under 100)")
    final = serializers.BooleanField(help_text="The places follow the final ranking (else the standings now)")
    points_key = serializers.CharField(allow_null=True, help_text="The metric of ``points``")
    shared = serializers.BooleanField(help_text="A place on the list is shared by tied teams")
    places = PrizePlaceSerializer(many=True, help_text="Each place with a prize, from the first")
    categories = PrizeCategorySerializer(many=True)


class PrizeLineWriteSerializer(serializers.Serializer):
    place = serializers.IntegerField(min_value=1)
    text = serializers.CharField(max_length=200, allow_blank=True, default="")
    amount = serializers.IntegerField(
        min_value=0, allow_null=True, default=None, help_text="Cents, kept as edited; null: the split's"
    )


class PrizeCategoryWriteSerializer(serializers.Serializer):
    id = serializers.IntegerField(required=False, help_text="An existing category's id; none: a new one")
    name = serializers.CharField(max_length=120)
    text = serializers.CharField(max_length=200, allow_blank=True, default="")
    amount = serializers.IntegerField(min_value=0, allow_null=True, default=None, help_text="In cents")
    winners = serializers.ListField(child=serializers.IntegerField(), default=list, help_text="Entry ids")


class PrizeSettingsWriteSerializer(serializers.Serializer):
    pot = serializers.IntegerField(
        min_value=0, max_value=prize_rules.MAX_POT_CENTS, required=False, help_text="In cents"
    )
    percentages = serializers.ListField(
        child=serializers.DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100),
        required=False,
        help_text="The pot's percent per place from the first; at most 100 in all",
    )
    rounding = serializers.ChoiceField(
        choices=ROUNDINGS, required=False, help_text="cent; unit, five, ten: each share rounded down to it"
    )
    currency = serializers.CharField(max_length=8, required=False)
    lines = PrizeLineWriteSerializer(
        many=True,
        required=False,
        help_text="Places' texts and edited amounts: PUT replaces them all, PATCH changes the places named "
        "(a line with no text and a null amount is removed)",
    )
    categories = PrizeCategoryWriteSerializer(
        many=True,
        required=False,
        help_text="The whole list of categories: those not named (by id) are deleted",
    )


PUT_DEFAULTS: dict[str, Any] = {
    "pot": 0,
    "percentages": [],
    "rounding": PrizeSettings.Rounding.UNIT,
    "currency": "€",
    "lines": [],
    "categories": [],
}


def prizes_apply(tournament, user, data: dict[str, Any], *, replace: bool) -> None:
    """Save what an API request sent (``replace``: a PUT, everything not sent back to its default)."""
    if replace:
        data = {**PUT_DEFAULTS, **data}
    with transaction.atomic():
        settings = {
            name: data[key]
            for key, name in (
                ("pot", "pot_cents"),
                ("percentages", "percentages"),
                ("rounding", "rounding"),
                ("currency", "currency"),
            )
            if key in data
        }
        if settings:
            prize_rules.prizes_update(tournament=tournament, user=user, **settings)
        if "lines" in data:
            lines = [(line["place"], line.get("text", ""), line.get("amount")) for line in data["lines"]]
            if replace:
                named = {place for place, _, _ in lines}
                lines += [(p.place, "", None) for p in tournament.place_prizes.exclude(place__in=named)]
            prize_rules.prize_lines_update(tournament=tournament, lines=lines, user=user)
        if "categories" in data:
            _categories_apply(tournament, user, data["categories"])


def _categories_apply(tournament, user, wanted: list[dict[str, Any]]) -> None:
    existing = {c.pk: c for c in tournament.prize_categories.all()}
    entries = {e.pk: e for e in tournament.entries.all()}
    kept = {c["id"] for c in wanted if c.get("id")}
    unknown = kept - set(existing)
    if unknown:
        raise serializers.ValidationError(
            {"categories": [gettext("No category has the id %(id)s.") % {"id": min(unknown)}]}
        )
    for category in [c for pk, c in existing.items() if pk not in kept]:
        prize_rules.prize_category_delete(category=category, user=user)
    for item in wanted:
        missing = [pk for pk in item.get("winners", []) if pk not in entries]
        if missing:
            raise serializers.ValidationError(
                {
                    "categories": [
                        gettext("No entry of this tournament has the id %(id)s.") % {"id": missing[0]}
                    ]
                }
            )
        prize_rules.prize_category_save(
            tournament=tournament,
            category=existing.get(item.get("id")),
            name=item["name"],
            text=item.get("text", ""),
            amount_cents=item.get("amount"),
            winners=[entries[pk] for pk in item.get("winners", [])],
            user=user,
        )


class PrizeActions:
    @extend_schema(
        methods=["GET"],
        summary="The prize list",
        responses={200: PrizeListSerializer},
        tags=["tournaments"],
        description="Public as the standings are: each place with a prize (its team from the final ranking, "
        "or the standings while the event runs; the points it is ranked by; the prize's text and amount in "
        "cents, the split's amount and whether the organizer edited it), the organizer's categories with "
        "their winners, the pot, its percentages and rounding, the currency symbol. Teams the tie-breaks "
        'cannot separate share a place (label "=2" on each line): the money of the places they hold is '
        "pooled and split equally (an edited amount stays as typed), a prize in words stays per place.",
    )
    @extend_schema(
        methods=["PUT"],
        summary="Set the prizes",
        request=PrizeSettingsWriteSerializer,
        responses={200: PrizeListSerializer},
        tags=["tournaments"],
        description="The organizer's: the pot (cents), the percentages per place, the rounding (cent; unit, "
        "five, ten: down to it, the remainder to the first place), the currency, the places' texts and "
        "edited amounts, the categories and their winners. What is left out goes back to its default. "
        "Refused (400, nothing saved): negative percentages, more than 100 % in all, more places than "
        "entries.",
    )
    @extend_schema(
        methods=["PATCH"],
        summary="Change the prizes",
        request=PrizeSettingsWriteSerializer(partial=True),
        responses={200: PrizeListSerializer},
        tags=["tournaments"],
        description="As PUT, but only what is sent changes; ``lines`` changes the places it names.",
    )
    @action(
        detail=True,
        methods=["get", "put", "patch"],
        url_path="prizes",
        http_method_names=["get", "put", "patch", "head", "options"],
    )
    def prizes(self, request, slug=None):
        if request.method in ("GET", "HEAD"):
            return Response(prize_rules.prize_list(tournament=self.get_object()))
        tournament = self._managed()
        replace = request.method == "PUT"
        data = PrizeSettingsWriteSerializer(data=request.data, partial=not replace)
        data.is_valid(raise_exception=True)
        with transaction.atomic():
            prizes_apply(tournament, request.user, dict(data.validated_data), replace=replace)
        return Response(prize_rules.prize_list(tournament=tournament))

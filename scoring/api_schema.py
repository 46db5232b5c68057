"""The shapes of the match API's answers, as named components of the OpenAPI schema.

FORMAT.md's deal, score sheet and match file, a rule set's options and the answer to a deal written,
each a read-only serializer: the views answer with the dicts the engine and the selectors make (field
names are FORMAT.md's contract), and these say what those dicts hold, so that a client generated from
the schema reads ``totals``, ``winner`` and a deal's ``contract`` as typed members. The options are
read from the rule sets' own option classes: a new option or a new game is in the schema at once.

``typed_json`` documents a JSON model field (a match's ``options``, its ``totals``) by one of these
shapes without changing what it answers.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from .engine.rulesets import RULESETS
from .engine.rulesets.coinche import CHOICES as COINCHE_CHOICES
from .engine.types import BID_WORDS, MELD_CODES, SEATS, SUITS, TEAMS, Result
from .models import RULESET_KEYS, Match

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def typed_json(schema: Any, **kwargs: Any) -> serializers.JSONField:
    """A read-only JSON field, answered as stored, documented as ``schema`` (a serializer, a field or
    an OpenAPI schema as a dict)."""
    field_class = extend_schema_field(schema)(type("TypedJSONField", (serializers.JSONField,), {}))
    return field_class(read_only=True, **kwargs)


def documented_field(schema: dict[str, Any], base: type[serializers.Field] = serializers.JSONField, **kwargs):
    """A field of ``base`` documented by an OpenAPI schema of its own (a value of one of two types)."""
    return extend_schema_field(schema)(type("DocumentedField", (base,), {}))(**kwargs)


def nullable(schema: Any) -> serializers.JSONField:
    """An item that is ``schema`` or null (a list's item: a bye's side of a table)."""
    return documented_field(schema, allow_null=True)


def pair(child: serializers.Field, help_text: str, **kwargs: Any) -> serializers.ListField:
    """Two values, one per team (index 0 and 1)."""
    return serializers.ListField(child=child, min_length=2, max_length=2, help_text=help_text, **kwargs)


def team_field(help_text: StrOrPromise | None, **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=min(TEAMS), max_value=max(TEAMS), help_text=help_text, **kwargs)


def seat_field(help_text: StrOrPromise | None, **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=min(SEATS), max_value=max(SEATS), help_text=help_text, **kwargs)


# A rule set's options ------------------------------------------------------------------------------

OPTION_HELP = {
    "target": "Points to reach (in match points where the game counts in tens)",
    "deals": "A fixed number of played deals instead of the target (0: to the target)",
    "ended_after": "The match was ended by agreement after this many recorded deals, thrown-in ones "
    "included (only in a match so ended)",
    "ties_hang": "A tie is not mesa: the makers' points hang for the next deal",
    "best_melds_only": "Only the team with the single best meld scores its melds",
    "capo_100": "The capo bonus is 100 instead of 90",
    "partner_relief": "A play rule only: a player need not beat a partner's winning card",
    "capot_bonus": "The capot bonus: 90 or 100",
    "kirtik": "Minus 10 match points to a committed team inside and to a team that suffers a valat",
    "litige": "French Belote: true when an exact tie holds the taker's points for the next winner (not "
    "dedans). Coinche: what equal totals at or over the bid are: failed, made or held",
    "target_rule": "Reach the target (at least) or pass it (more than)",
    "base": "A failed contract's card part: 160 or 162",
    "made_scoring": "What a made side writes: its points and its bid, or its bid only",
    "need_more_than_defence": "The takers need more than the defence (false: reaching the bid is enough)",
    "belote_counts": "The belote counts toward the bid",
    "melds_count": "The announcements count toward the bid",
    "annonces": "Announcements are played (false: contrée, the belote alone)",
    "melds_scoring": "Announcements scored by the team with the best one only, or by each team",
    "capot_takes_melds": "Takers who take every trick score the defence's announcements too",
    "coinche_scoring": "How a coinched or surcoinched deal is scored",
    "coinche_multiplier": "The coinche's multiplier",
    "surcoinche_multiplier": "The surcoinche's multiplier: 4 or 3",
    "multiply_belote": "The winner's belote is multiplied with the rest",
    "failed_scoring": "What the defence of a failed contract writes",
    "defence_capot": "A defence that took every trick: the base, or the capot's card value",
    "capot_card_value": "A capot's card side: 252, 250, or 162 (no bonus for a capot not bid)",
    "capot_bid_value": "A capot bid's value: 250 or 500",
    "generale_bid_value": "A générale bid's value: 500 or 300",
    "generale_card_value": 'The card side of a générale: "capot" (as a capot), 500 or 300',
    "special_made": "A made capot or générale: added to the points, or its bid alone (flat; flat_both: "
    "failed ones too)",
    "rounding": "How a deal's points are rounded to tens",
    "sa_ta": "Sans-atout and tout-atout may be bid",
    "sa_ta_values": "Card values in sans-atout and tout-atout",
    "sa_carres": "Fours in sans-atout: the FFB's values (Aces 200, 10s 150) or the same as in a suit",
    "belote_alone_cannot_win": "A team over the target only by its belote in a deal it lost has not won yet",
    "max_bid": "The highest numbered bid: 160 or 180",
    "timed_last_deal_exact": "The last deal of a match ended by the clock is not rounded",
}


def _games() -> dict[str, list[tuple[str, Any]]]:
    """Every option of every rule set: its name, and the games that have it with their default."""
    games: dict[str, list[tuple[str, Any]]] = {}
    for key, rules in RULESETS.items():
        for option in dataclasses.fields(rules.Options):
            games.setdefault(option.name, []).append((key, option.default))
    return games


def _value_schema(game: str, name: str, default: Any) -> dict[str, Any]:
    """The OpenAPI schema of one game's option: a closed list of values (Coinche's) or a type."""
    choices = COINCHE_CHOICES.get(name) if game == "coinche" else None
    if choices:
        strings = [c for c in choices if isinstance(c, str)]
        numbers = [c for c in choices if isinstance(c, int)]
        branches: list[dict[str, Any]] = [{"type": "string", "enum": strings}] if strings else []
        branches += [{"type": "integer", "enum": numbers}] if numbers else []
        return branches[0] if len(branches) == 1 else {"oneOf": branches}
    if isinstance(default, bool):
        return {"type": "boolean"}
    if isinstance(default, int):
        return {"type": "integer"}
    return {"type": "string"}


def _option_field(name: str, games: list[tuple[str, Any]]) -> serializers.Field:
    """One option, typed; an option that two games type differently (``litige``) is either."""
    schemas: list[dict[str, Any]] = []
    for key, default in games:
        schema = _value_schema(key, name, default)
        if schema not in schemas:
            schemas.append(schema)
    keys = ", ".join(key for key, _ in games)
    help_text = f"{OPTION_HELP.get(name, name)}. Games: {keys}."
    schema = schemas[0] if len(schemas) == 1 else {"oneOf": schemas}
    return documented_field({**schema, "description": help_text}, required=False, help_text=help_text)


def _options_serializer() -> type[serializers.Serializer]:
    fields = {name: _option_field(name, games) for name, games in _games().items()}
    doc = (
        "A rule set's options by name (FORMAT.md; Coinche's: RULES.md §6): the union of every game's, each "
        "member saying the games that have it. A match and a sheet spell out every option of their game; "
        "a request gives only those it changes (the others take their defaults)."
    )
    return type("RuleOptionsSerializer", (serializers.Serializer,), {**fields, "__doc__": doc})


RuleOptionsSerializer = _options_serializer()


def options_field(**kwargs: Any) -> serializers.JSONField:
    """A match's, a tournament's or a preset's options as stored, documented as ``RuleOptions``."""
    return typed_json(RuleOptionsSerializer, **kwargs)


@extend_schema_field(RuleOptionsSerializer)
class OptionsInputField(serializers.DictField):
    """Options in a request: checked by the engine as given (an unknown one is refused there), so kept
    a plain mapping; documented as ``RuleOptions``."""


# A deal (FORMAT.md) ---------------------------------------------------------------------------------

BID_SCHEMA = {
    "oneOf": [
        {
            "type": "integer",
            "minimum": 0,
            "description": "Points: 80, 90 … (Pilotta; Coinche 80 to 160 in tens)",
        },
        {
            "type": "string",
            "enum": list(BID_WORDS),
            "description": "Coinche: every trick, every trick by one taker",
        },
    ]
}
DECLARATIONS_WINNER_SCHEMA = {
    "oneOf": [
        {"type": "integer", "enum": list(TEAMS), "description": "The team whose declarations count"},
        {"type": "string", "enum": ["equal"], "description": "Bulgarian Belote: no sequence counts"},
    ]
}


class ContractSerializer(serializers.Serializer):
    """The contract of a deal: its suit, its bid and its multiplier. Mpourloto and the French games may
    leave it out."""

    suit = serializers.ChoiceField(choices=SUITS, required=False)
    bid = documented_field(
        {**BID_SCHEMA, "description": 'Pilotta: the bid; Coinche: 80 to 160 in tens, "capot" or "generale"'},
        required=False,
    )
    multiplier = serializers.ChoiceField(
        choices=[1, 2, 4], help_text="1; 2 contra (coinché); 4 sur-contra (surcoinché)"
    )


class DealSerializer(serializers.Serializer):
    """A deal as the table reports it (FORMAT.md, "a deal"): ``{"thrown_in": true}`` when all passed,
    else the maker, the card points and what the rule set records.

    One object with every game's members, each optional, rather than a ``oneOf`` per rule set: a deal
    names no rule set (its match does), and the games share these names, so a generated client gets one
    model it can always read, not look-alike variants it cannot tell apart."""

    thrown_in = serializers.BooleanField(required=False, help_text="All passed: the deal has no other member")
    maker = team_field("The team that took trumps, won the auction or took the card", required=False)
    contract = ContractSerializer(required=False)
    card_points = pair(
        serializers.IntegerField(min_value=0),
        "Both teams' card points without the last trick, adding up to the contract's deck",
        required=False,
    )
    last_trick = team_field("The team that won the last trick (left out when capot is given)", required=False)
    capot = team_field("The team that took every trick", required=False)
    solo_capot = serializers.BooleanField(
        required=False, help_text="Belote Classic: one player took every trick"
    )
    melds = pair(
        serializers.ListField(child=serializers.ChoiceField(choices=MELD_CODES)),
        "Each team's melds (declarations, announcements)",
        required=False,
    )
    belote = pair(
        serializers.IntegerField(min_value=0),
        "How many K+Q-of-trumps belotes each team announced",
        required=False,
    )
    declarations_winner = documented_field(
        {
            **DECLARATIONS_WINNER_SCHEMA,
            "description": "The team that won the declaration contest when the best ones are equal",
        },
        required=False,
    )
    generale = seat_field(
        "Coinche: the seat of the player who took every trick alone, a seat of the capot team (either team; "
        "only a générale bid by the takers scores it)",
        required=False,
    )


@extend_schema_serializer(component_name="Deal")
class DealInputSerializer(DealSerializer):
    """A deal to record (FORMAT.md): the members of ``Deal``; ``maker``, ``last_trick``, ``capot``,
    ``declarations_winner`` and ``generale`` may also be null, which is the same as leaving them out."""

    maker = team_field(DealSerializer._declared_fields["maker"].help_text, required=False, allow_null=True)
    last_trick = team_field("The team that won the last trick", required=False, allow_null=True)
    capot = team_field("The team that took every trick, or null", required=False, allow_null=True)
    declarations_winner = documented_field(
        {
            **DECLARATIONS_WINNER_SCHEMA,
            "description": "The team that won the declaration contest when the best ones are equal; in "
            "Coinche null when they stay equal",
        },
        required=False,
        allow_null=True,
    )
    generale = seat_field(
        DealSerializer._declared_fields["generale"].help_text, required=False, allow_null=True
    )


class RecordedDealSerializer(DealSerializer):
    """A recorded deal: FORMAT.md's deal with its id, its number on the sheet and when it was entered."""

    id = serializers.IntegerField(help_text="The deal's id (PUT and DELETE …/deals/{deal_id}/)")
    number = serializers.IntegerField(
        allow_null=True, help_text="1, 2 … on the sheet, thrown-in deals included (null: no longer on it)"
    )
    entered_at = serializers.DateTimeField()


# The score sheet (FORMAT.md output) -----------------------------------------------------------------


class SheetRowSerializer(serializers.Serializer):
    """One deal's line of the sheet."""

    scores = pair(
        serializers.IntegerField(),
        "What each team adds for the deal (points, or match points where the game counts in tens), "
        "hanging points already carried in",
    )
    result = serializers.ChoiceField(choices=[str(r) for r in Result])
    totals = pair(serializers.IntegerField(), "The running totals after the deal")
    dealer = seat_field("The seat that dealt")
    points = pair(serializers.IntegerField(), "Each team's points at the table, before the verdict")
    held = serializers.IntegerField(help_text="Points hanging after the deal (0 when none)")
    tie_break = serializers.BooleanField(help_text="Played in a tie-break (Mpourloto)")
    raw = pair(
        serializers.IntegerField(),
        "Games counting in tens: the points given before rounding (left out in the others)",
        required=False,
    )


class SheetHeadSerializer(serializers.Serializer):
    """The sheet without its rows: where the match stands."""

    totals = pair(serializers.IntegerField(), "Both teams' totals")
    held = serializers.IntegerField(help_text="Points hanging after the last deal (0 when none)")
    status = serializers.ChoiceField(choices=Match.Status.choices)
    winner = team_field("The winning team; null while in play, and for a draw", allow_null=True)
    next_dealer = seat_field("The seat that deals next")
    next_leader = seat_field("The seat that leads the next deal's first trick")
    ruleset = serializers.ChoiceField(choices=RULESET_KEYS)
    options = RuleOptionsSerializer(help_text="Every option of the game, spelt out")


class SheetSerializer(SheetHeadSerializer):
    """The score sheet (FORMAT.md output): a row per deal, in playing order, and where the match stands."""

    deals = SheetRowSerializer(many=True)


class DealWrittenSerializer(serializers.Serializer):
    """A deal just recorded: the deal, its row on the sheet, the sheet's head and the match's version."""

    deal = RecordedDealSerializer()
    row = SheetRowSerializer(
        allow_null=True, help_text="The deal's row (null: a resent deal no longer on it)"
    )
    sheet = SheetHeadSerializer(help_text="Where the match stands (GET …/sheet/ has the rows)")
    version = serializers.IntegerField(
        help_text="The match's version: send it as If-Match with the next write"
    )


class DealCheckedSerializer(serializers.Serializer):
    """A deal the other team has checked (a match whose tournament asks for it): the deal's id, its
    number on the sheet, when it was checked, and the match's version (a check does not change it)."""

    id = serializers.IntegerField(help_text="The deal's id")
    number = serializers.IntegerField(help_text="1, 2 … on the sheet")
    checked_at = serializers.DateTimeField(help_text="When the other team checked it (a correction: none)")
    version = serializers.IntegerField(help_text="The match's version, unchanged by a check")


class DealCorrectedSerializer(DealWrittenSerializer):
    """A deal just corrected: the deal, its row, the whole sheet replayed and the match's version."""

    sheet = SheetSerializer(help_text="The whole sheet, replayed with the correction")


# The match file (FORMAT.md input) -------------------------------------------------------------------


class MatchFileTeamSerializer(serializers.Serializer):
    """A team: its name and its two players' names (seats 0 and 2 for team 0, 1 and 3 for team 1)."""

    name = serializers.CharField()
    players = pair(serializers.CharField(), "The two players' names, in seat order")


class MatchFileSerializer(serializers.Serializer):
    """A match and its deals (FORMAT.md input): it replays to the same sheet."""

    ruleset = serializers.ChoiceField(choices=RULESET_KEYS)
    options = RuleOptionsSerializer(help_text="Every option of the game, spelt out")
    preset = serializers.CharField(
        required=False, help_text="The named preset the options came from (left out: none)"
    )
    teams = MatchFileTeamSerializer(many=True)
    first_dealer = seat_field("The seat that dealt first")
    deals = DealSerializer(many=True)


@extend_schema_serializer(component_name="MatchFile")
class MatchFileInputSerializer(serializers.Serializer):
    """A match file to import (FORMAT.md input). ``teams`` is the view's (a team may pick existing
    players by id, ``MatchTeamSerializer``)."""

    ruleset = serializers.ChoiceField(choices=RULESET_KEYS, required=False, help_text="Left out: mpourloto")
    options = OptionsInputField(required=False, help_text="Left out: the game's (or the preset's) defaults")
    preset = serializers.CharField(
        required=False, help_text="A named preset: fills in the game and the options the file leaves out"
    )
    first_dealer = seat_field("The seat that dealt first", required=False)
    deals = DealInputSerializer(many=True, required=False)


class ExportedMatchSerializer(MatchFileSerializer):
    """A match of a tournament's export: its match file and its sheet."""

    sheet = SheetSerializer()

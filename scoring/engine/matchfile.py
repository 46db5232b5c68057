"""The match file of FORMAT.md: read it, check it, write it."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .errors import ScoringError
from .match import replay
from .rulesets import get_ruleset
from .types import Deal, Sheet

TOP_FIELDS = ("ruleset", "options", "preset", "teams", "first_dealer", "deals")
PRESET_NAME_MAX = 80


@dataclass(frozen=True)
class TeamEntry:
    name: str
    players: tuple[str, str]


@dataclass(frozen=True)
class MatchFile:
    ruleset: str
    options: Mapping[str, Any] = field(default_factory=dict)
    teams: tuple[TeamEntry, TeamEntry] | None = None
    first_dealer: int = 0
    deals: tuple[Deal, ...] = ()
    # The named preset the options came from (FORMAT.md): a name only, the options hold every rule it
    # sets, so the file scores the same without it.
    preset: str = ""

    def sheet(self) -> Sheet:
        """The score sheet, replayed once and kept: a match file never changes."""
        return self._sheet

    @cached_property
    def _sheet(self) -> Sheet:
        return replay(self.ruleset, self.deals, options=self.options, first_dealer=self.first_dealer)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ruleset": self.ruleset, "options": dict(self.options)}
        if self.preset:
            out["preset"] = self.preset
        if self.teams is not None:
            out["teams"] = [{"name": t.name, "players": list(t.players)} for t in self.teams]
        out["first_dealer"] = self.first_dealer
        out["deals"] = [deal.to_dict() for deal in self.deals]
        return out


def _printable(text: str) -> bool:
    return text.isprintable()


def _teams(raw: Any) -> tuple[TeamEntry, TeamEntry]:
    if not isinstance(raw, Sequence) or isinstance(raw, str) or len(raw) != 2:
        raise ScoringError("must be a list of two teams", field="teams")
    teams = []
    for i, team in enumerate(raw):
        if not isinstance(team, Mapping):
            raise ScoringError("must be an object with name and players", field=f"teams[{i}]")
        name = team.get("name")
        if not isinstance(name, str) or not name.strip() or not _printable(name):
            raise ScoringError(
                "must be a non-empty name, without control characters", field=f"teams[{i}].name"
            )
        players = team.get("players")
        if (
            not isinstance(players, Sequence)
            or isinstance(players, str)
            or len(players) != 2
            or not all(isinstance(p, str) and p.strip() and _printable(p) for p in players)
        ):
            raise ScoringError("must be the two players' names", field=f"teams[{i}].players")
        teams.append(TeamEntry(name.strip(), (players[0].strip(), players[1].strip())))
    return teams[0], teams[1]


def load_match(data: Any) -> MatchFile:
    """Read a match file (already parsed from JSON) and check every deal.

    Raises ``ScoringError`` naming the deal and field of the first fault.
    """
    if not isinstance(data, Mapping):
        raise ScoringError(
            "a match file is a JSON object with ruleset, options, teams, first_dealer and deals"
        )
    unknown = sorted(set(data) - set(TOP_FIELDS))
    if unknown:
        raise ScoringError(f"unknown field; a match file has {', '.join(TOP_FIELDS)}", field=unknown[0])
    ruleset = data.get("ruleset", "mpourloto")
    if not isinstance(ruleset, str):
        raise ScoringError("must be the rule set's name", field="ruleset")
    rules = get_ruleset(ruleset)
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise ScoringError("must be an object of option names and values", field="options")
    rules.options(options)
    preset = data.get("preset") or ""
    if not isinstance(preset, str) or len(preset) > PRESET_NAME_MAX or not _printable(preset):
        raise ScoringError(
            f"must be the preset's name (at most {PRESET_NAME_MAX} characters)", field="preset"
        )
    teams = _teams(data["teams"]) if data.get("teams") is not None else None
    first_dealer = data.get("first_dealer", 0)
    raw_deals = data.get("deals", [])
    if not isinstance(raw_deals, Sequence) or isinstance(raw_deals, str):
        raise ScoringError("must be a list of deals", field="deals")
    deals = []
    for position, raw in enumerate(raw_deals):
        try:
            deals.append(Deal.from_dict(raw))
        except ScoringError as error:
            raise error.at(position) from None
    match = MatchFile(ruleset, dict(options), teams, first_dealer, tuple(deals), preset.strip())
    match.sheet()  # every deal checked against the rules, in order
    return match


def _not_a_json_number(name: str) -> Any:
    raise ScoringError(f"not valid JSON: {name} is not a JSON number")


def loads(text: str | bytes) -> MatchFile:
    """Read a match file from JSON text, or from bytes that must be UTF-8 (a byte order mark is allowed).

    Whatever the input (malformed, nested too deeply, not UTF-8), a fault is a ``ScoringError``,
    never another exception.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise ScoringError(
                f"not UTF-8 text: byte 0x{error.object[error.start]:02x} at position {error.start}"
            ) from None
    try:
        data = json.loads(text, parse_constant=_not_a_json_number)
    except ScoringError:
        raise
    except json.JSONDecodeError as error:
        raise ScoringError(
            f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise ScoringError("not valid JSON: nested too deeply") from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise ScoringError("not valid JSON: a number has too many digits") from None
    return load_match(data)

"""Reads: the score sheet of a match and the lists around it."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from players.models import Player, Team

from . import engine
from .models import Deal, Match

MATCH_RELATED = ("team0", "team1", "seat0", "seat1", "seat2", "seat3")


@dataclass(frozen=True)
class SheetLine:
    deal: Deal
    row: engine.SheetRow


@dataclass(frozen=True)
class MatchSheet:
    match: Match
    sheet: engine.Sheet
    lines: tuple[SheetLine, ...]


def match_list(*, status: str | None = None) -> QuerySet[Match]:
    matches = Match.objects.select_related(*MATCH_RELATED)
    return matches.filter(status=status) if status else matches


def prefetch_active_deals(path: str = "deals") -> Prefetch:
    """For a list that reads many matches' deals: one query for all (see ``active_deals``)."""
    return Prefetch(
        path,
        queryset=Deal.objects.filter(deleted_at__isnull=True).order_by("position"),
        to_attr="active_deals",
    )


def active_deals(match: Match) -> list[Deal]:
    """The match's deals in playing order, prefetched by ``prefetch_active_deals`` if they were."""
    if hasattr(match, "active_deals"):
        return match.active_deals
    return list(match.deals.filter(deleted_at__isnull=True).order_by("position"))


def match_sheet(*, match: Match) -> MatchSheet:
    """The sheet, recomputed by the engine from the deals in playing order."""
    deals = active_deals(match)
    sheet = engine.replay(
        match.ruleset, [d.as_engine() for d in deals], options=match.options, first_dealer=match.first_dealer
    )
    return MatchSheet(match, sheet, tuple(SheetLine(d, r) for d, r in zip(deals, sheet.rows, strict=True)))


def deal_history(*, deal: Deal) -> QuerySet:
    """Every version of the deal, newest first, with who made it."""
    return deal.history.select_related("history_user").order_by("-history_date", "-history_id")


def match_deal_history(*, match: Match) -> QuerySet:
    """Every change to every deal of the match, newest first."""
    return (
        Deal.history.filter(match_id=match.pk)
        .select_related("history_user")
        .order_by("-history_date", "-history_id")
    )


def player_names() -> list[str]:
    return list(Player.objects.order_by("name").values_list("name", flat=True))


def team_list() -> QuerySet[Team]:
    return Team.objects.select_related("player_a", "player_b").order_by("name")


def match_file(*, match: Match) -> dict:
    """The match as a match file (FORMAT.md input): it replays to the same sheet."""
    deals = active_deals(match)
    return engine.MatchFile(
        ruleset=match.ruleset,
        options=dict(match.options),
        teams=tuple(engine.TeamEntry(t.name, (t.player_a.name, t.player_b.name)) for t in match.teams),
        first_dealer=match.first_dealer,
        deals=tuple(d.as_engine() for d in deals),
    ).to_dict()

"""Reads about seasons: who sees and runs one, which events count, and its table.

The table is counted by ``league.season_points`` (pure code, whose docstring says how) from the final
rankings the tournaments stored when they finished (``StandingsSnapshot.ranking``): nothing is
replayed. Every entry of a final ranking played the event, a withdrawn one at the place the ranking
gives it. Three queries however long the season: its events with their rankings, the entries
ranked, and the players in them (each record read as the record it was merged into, if any, and
named by that root's name, so that a person merged from two records counts once).

Which events count: the finished tournaments whose day (``starts_on``, or else the day it
finished) falls within the season's dates; of the club, for a club's season ("club"), or the ones
chosen ("chosen"). A public table counts only public tournaments: a private event's ranking is not
published through a season. A private season (seen only by who runs it) counts private events too.
A claimed person's result in an event counts only when they stood behind every match of theirs
there (``league.counting``: they organized it, answered "this was me" for it, kept or confirmed
the match, or it finished before their claim); one more query, when a claimed person is ranked.
"""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Case, Q, QuerySet, When
from django.db.models.functions import Coalesce, TruncDate

from players import club_services as clubs
from players.models import Player
from scoring.models import Match
from tournaments.models import Entry, StandingsSnapshot, Tournament
from tournaments.selectors import tournament_visible

from .counting import SEATS, unbacked_seat, unconfirmed
from .models import Season
from .season_points import Event, Result, Standing, season_standings

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations  # django-stubs' (dev only)

__all__ = [
    "Result",
    "SeasonTable",
    "Standing",
    "can_create",
    "can_manage",
    "can_see",
    "choosable_events",
    "may_choose",
    "season_events",
    "season_get",
    "season_list",
    "season_table",
]


def _signed_in(user: Any) -> bool:
    return user is not None and user.is_authenticated


def can_create(club: Any, user: Any) -> bool:
    """A league's season (no club) may be started by any signed-in account, which then owns it; a
    club's season only by the club's admins; a superuser always."""
    if club is None:
        return _signed_in(user)
    return clubs.is_admin(club, user)


def can_manage(season: Season, user: Any) -> bool:
    """A club's season is run by the club's admins, a league's by its owner; a superuser runs any."""
    if season.club is not None:
        return clubs.is_admin(season.club, user)
    return _signed_in(user) and (user.is_superuser or season.owner_id == user.pk)


def can_see(season: Season, user: Any) -> bool:
    """A public season, everyone; a private one, only who runs it (and its owner, as the club's page
    shows it to them)."""
    return season.public or (_signed_in(user) and season.owner_id == user.pk) or can_manage(season, user)


def season_list(*, user: Any = None, club: Any = None) -> QuerySet[Season]:
    """The public seasons, and the private ones this person runs; newest first. ``club``: only
    that club's."""
    seasons = Season.objects.all()
    if not (_signed_in(user) and user.is_superuser):
        visible = Q(public=True)
        if _signed_in(user):
            visible |= Q(owner=user) | Q(club__in=clubs.administered(user).values("pk"))
        seasons = seasons.filter(visible)
    if club is not None:
        seasons = seasons.filter(club=club)
    return seasons.select_related("club").order_by("-starts_on", "name", "pk")


def season_get(*, slug: str, user: Any = None) -> Season:
    """The season, if this person may see it (``Season.DoesNotExist`` otherwise: a private season is
    nobody's business but its runners')."""
    season = Season.objects.select_related("club", "owner").get(slug=slug)
    if not can_see(season, user):
        raise Season.DoesNotExist
    return season


def choosable_events(user: Any) -> QuerySet[Tournament]:
    """The tournaments this person may put in a season of chosen events: those they can see
    (public, or theirs), finished or not (one counts once it has finished); newest first."""
    if _signed_in(user) and (user.is_superuser or user.is_staff):
        events = Tournament.objects.all()
    else:
        visible = Q(public=True)
        if _signed_in(user):
            visible |= Q(organizer=user)
        events = Tournament.objects.filter(visible)
    return events.order_by("-starts_on", "-created_at", "-pk")


def may_choose(tournament: Tournament, user: Any) -> bool:
    return tournament_visible(tournament, user) or (_signed_in(user) and user.is_superuser)


class _Dated(TypedDict):
    day: datetime.date | None  # starts_on, or else the day it finished


def _events(season: Season) -> QuerySet[WithAnnotations[Tournament, _Dated]]:
    start, end = season.starts_on, season.ends_on
    in_dates = Q(starts_on__gte=start, starts_on__lte=end) | Q(
        starts_on__isnull=True, finished_at__date__gte=start, finished_at__date__lte=end
    )
    events = Tournament.objects.filter(in_dates, status=Tournament.Status.FINISHED)
    if season.events == Season.Events.CLUB:
        events = events.filter(club_id=season.club_id) if season.club_id else events.none()
    else:
        events = events.filter(seasons=season)
    if season.public:
        events = events.filter(public=True)
    day = Coalesce("starts_on", TruncDate("finished_at"))
    return events.annotate(day=day).order_by("day", "finished_at", "pk")


def season_events(season: Season) -> list[WithAnnotations[Tournament, _Dated]]:
    """The events that count, oldest first (module docstring). One query."""
    return list(_events(season))


def _unbacked(events: Sequence[Tournament]) -> set[tuple[int, int]]:
    """(event, person) pairs: a claimed person (their root record) with a match in the event they
    have not stood behind (``league.counting``). Their result there counts for nobody. One query."""
    flags = {
        f"unbacked{n}": Case(When(unbacked_seat(seat), then=True), default=False)
        for n, seat in enumerate(SEATS)
    }
    rows = (
        Match.objects.filter(unconfirmed(), table__round__tournament__in=[e.pk for e in events])
        .annotate(**flags)
        .values_list(
            "table__round__tournament",
            *(f"{s}_id" for s in SEATS),
            *(f"{s}__merged_into" for s in SEATS),
            *flags,
        )
    )
    found = set()
    for event, *row in rows:
        records, roots, unbacked = row[:4], row[4:8], row[8:]
        found |= {
            (event, root or record) for record, root, no in zip(records, roots, unbacked, strict=True) if no
        }
    return found


@dataclass(frozen=True)
class SeasonTable:
    """A season's table: ``events`` oldest first, ``rows`` in the table's order (``Standing.player``
    is the player's id: the root record's, for merged records)."""

    season: Season
    events: list[WithAnnotations[Tournament, _Dated]]
    rows: list[Standing]

    @property
    def best_of(self) -> int | None:
        return self.season.best_of


def season_table(season: Season) -> SeasonTable:
    """The season's table from its events' stored final rankings (module docstring)."""
    events = list(_events(season).select_related("standings").defer("standings__rows", "standings__playoffs"))
    rankings: list[list[dict]] = []
    for event in events:
        try:
            rankings.append(event.standings.ranking or [])
        except StandingsSnapshot.DoesNotExist:
            rankings.append([])
    entry_ids = {row["entry"] for ranking in rankings for row in ranking}
    players_of: dict[int, tuple[int, ...]] = {}
    for pk, player_a, player_b, alone in Entry.objects.filter(pk__in=entry_ids).values_list(
        "pk", "team__player_a_id", "team__player_b_id", "player_id"
    ):
        players_of[pk] = (alone,) if alone is not None else (player_a, player_b)
    record_ids = {p for players in players_of.values() for p in players}
    root: dict[int, int] = {}
    names: dict[Hashable, str] = {}  # season_standings' keys: any player key
    claimed = False
    for pk, root_id, root_name, account in Player.objects.filter(pk__in=record_ids).values_list(
        "pk",
        Coalesce("merged_into_id", "pk"),
        Coalesce("merged_into__name", "name"),
        Coalesce("merged_into__user", "user"),
    ):
        root[pk], names[root_id] = root_id, root_name
        claimed = claimed or account is not None
    unbacked = _unbacked(events) if claimed else set()
    results = []
    for event, ranking in zip(events, rankings, strict=True):
        ranks: dict[Hashable, int] = {}
        for row in ranking:
            for record in players_of.get(row["entry"], ()):
                player = root[record]
                if (event.pk, player) in unbacked:
                    continue
                ranks[player] = min(row["rank"], ranks.get(player, row["rank"]))
        results.append(Event(event.pk, ranks))
    rows = season_standings(
        results,
        names,
        scale=season.scale,
        participation=season.participation,
        best_of=season.best_of,
    )
    return SeasonTable(season=season, events=events, rows=rows)

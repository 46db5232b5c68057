"""Writes about seasons: create, change, delete. Each checks who asks (``league.seasons.can_create``,
``can_manage``) and the settings, and saves all or nothing."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from itertools import pairwise
from typing import Any, TypeGuard

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from players.models import Club
from tournaments.models import Tournament

from .models import DEFAULT_SCALE, Season
from .season_points import MAX_SCALE
from .seasons import can_create, can_manage, may_choose

MAX_POINTS = 10_000  # for one place on the scale: far above any club's, far below a database limit
MAX_BEST_OF = 1_000
SETTINGS = (
    "name",
    "starts_on",
    "ends_on",
    "events",
    "tournaments",
    "scale",
    "participation",
    "best_of",
    "public",
)


class SeasonError(ValueError):
    """A season's settings that cannot be saved, in plain words; ``field`` names the setting at fault
    (or is ``None``)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _unique_slug(name: str) -> str:
    """The name as a slug (its own letters kept, as a club's), made unique with -2, -3 … ("new" is
    the address of the form that starts one)."""
    base = slugify(name, allow_unicode=True)[:120] or "season"
    slug, n = base, 1
    while slug == "new" or Season.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_scale(scale: Any) -> list[int]:
    if not isinstance(scale, list | tuple) or not scale:
        raise SeasonError(gettext("The scale needs the points of at least the winner."), "scale")
    if len(scale) > MAX_SCALE:
        raise SeasonError(
            gettext("The scale names at most %(count)s places.") % {"count": MAX_SCALE}, "scale"
        )
    if not all(_whole(p) and 0 <= p <= MAX_POINTS for p in scale):
        raise SeasonError(
            gettext("The scale's points are whole numbers from 0 to %(most)s.") % {"most": MAX_POINTS},
            "scale",
        )
    if any(later > earlier for earlier, later in pairwise(scale)):
        raise SeasonError(
            gettext(
                "A place cannot earn more points than the place before it: list them from the winner's down."
            ),
            "scale",
        )
    return list(scale)


def _day(tournament: Tournament) -> date | None:
    """The day that puts an event in a season's dates: its start, or else the day it finished, in
    the site's time zone (an aware time's ``.date()`` would be UTC's day)."""
    if tournament.starts_on:
        return tournament.starts_on
    return timezone.localdate(tournament.finished_at) if tournament.finished_at else None


def _check(
    values: dict[str, Any], *, club: Club | None, user: Any, kept: frozenset[int] = frozenset()
) -> dict[str, Any]:
    """The settings, checked and cleaned; a SeasonError on the first one at fault. An event chosen
    must be one this person may see, but for those already in the season (``kept``: another of the
    club's admins may have chosen them)."""
    name = (values.get("name") or "").strip()
    if not name:
        raise SeasonError(gettext("A season needs a name."), "name")
    if len(name) > 120:
        raise SeasonError(gettext("A season's name has at most 120 characters."), "name")
    starts_on, ends_on = values.get("starts_on"), values.get("ends_on")
    if not isinstance(starts_on, date) or not isinstance(ends_on, date):
        raise SeasonError(gettext("A season needs the day it starts and the day it ends."), "starts_on")
    if ends_on < starts_on:
        raise SeasonError(gettext("The season ends before it starts: swap the two dates."), "ends_on")
    events = values.get("events")
    if events not in Season.Events.values:
        raise SeasonError(gettext("Count the club's events or the events chosen."), "events")
    if events == Season.Events.CLUB and club is None:
        raise SeasonError(gettext("A season without a club counts the events chosen: choose them."), "events")
    scale = _check_scale(values.get("scale"))
    participation = values.get("participation")
    if not _whole(participation) or participation < 0:
        raise SeasonError(
            gettext("The points for a place past the scale are a whole number, 0 or more."), "participation"
        )
    if participation > scale[-1]:
        raise SeasonError(
            gettext("A place past the scale cannot earn more than the scale's last place (%(points)s).")
            % {"points": scale[-1]},
            "participation",
        )
    best_of = values.get("best_of")
    if best_of is not None and (not _whole(best_of) or not 1 <= best_of <= MAX_BEST_OF):
        raise SeasonError(
            gettext("Best of: a number of results from 1 to %(most)s, or none to count them all.")
            % {"most": MAX_BEST_OF},
            "best_of",
        )
    tournaments = list(dict.fromkeys(values.get("tournaments") or ()))
    if tournaments and events != Season.Events.CHOSEN:
        raise SeasonError(
            gettext("Events are chosen only in a season of chosen events; this one counts the club's."),
            "tournaments",
        )
    for tournament in tournaments:
        if tournament.pk not in kept and not may_choose(tournament, user):
            raise SeasonError(gettext("No such tournament."), "tournaments")
        day = _day(tournament)
        if day is not None and not starts_on <= day <= ends_on:
            raise SeasonError(
                gettext("%(event)s is on %(day)s, outside the season's dates.")
                % {"event": tournament.name, "day": day.isoformat()},
                "tournaments",
            )
    return {
        "name": name,
        "starts_on": starts_on,
        "ends_on": ends_on,
        "events": events,
        "tournaments": tournaments,
        "scale": scale,
        "participation": participation,
        "best_of": best_of,
        "public": bool(values.get("public", True)),
    }


@transaction.atomic
def season_create(
    *,
    user: Any,
    name: str,
    starts_on: date,
    ends_on: date,
    club: Club | None = None,
    events: str | None = None,
    tournaments: Iterable[Tournament] = (),
    scale: list[int] | None = None,
    participation: int = 0,
    best_of: int | None = None,
    public: bool = True,
) -> Season:
    """A club's season (by one of its admins) or a league's (no club: owned by whoever creates it).
    ``events`` defaults to the club's events for a club, the events chosen without one."""
    if not can_create(club, user):
        raise PermissionDenied(gettext("Only the club's admins may start its seasons."))
    values = _check(
        {
            "name": name,
            "starts_on": starts_on,
            "ends_on": ends_on,
            "events": events or (Season.Events.CLUB if club is not None else Season.Events.CHOSEN),
            "tournaments": tournaments,
            "scale": list(DEFAULT_SCALE) if scale is None else scale,
            "participation": participation,
            "best_of": best_of,
            "public": public,
        },
        club=club,
        user=user,
    )
    chosen = values.pop("tournaments")
    season = Season.objects.create(owner=user, club=club, slug=_unique_slug(values["name"]), **values)
    season.tournaments.set(chosen)
    return season


@transaction.atomic
def season_update(*, season: Season, user: Any, **changes: Any) -> Season:
    """Change some of the settings (the others kept). The club and the address (slug) stay: a
    season moves to another club as a new season. Back to the club's events, the chosen ones are
    forgotten."""
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise SeasonError(gettext("Unknown setting %(name)r.") % {"name": sorted(unknown)[0]})
    season = Season.objects.select_for_update(of=("self",)).select_related("club").get(pk=season.pk)
    if not can_manage(season, user):
        raise PermissionDenied(gettext("Only who runs the season may change it."))
    current = {name: getattr(season, name) for name in SETTINGS if name != "tournaments"}
    kept = list(season.tournaments.all())
    if "tournaments" not in changes and changes.get("events", season.events) == Season.Events.CHOSEN:
        current["tournaments"] = kept
    values = _check({**current, **changes}, club=season.club, user=user, kept=frozenset(t.pk for t in kept))
    chosen = values.pop("tournaments")
    for name, value in values.items():
        setattr(season, name, value)
    season.save()
    season.tournaments.set(chosen)
    return season


@transaction.atomic
def season_delete(*, season: Season, user: Any) -> None:
    """Delete the season (its events and their results stay)."""
    if not can_manage(season, user):
        raise PermissionDenied(gettext("Only who runs the season may delete it."))
    season.delete()

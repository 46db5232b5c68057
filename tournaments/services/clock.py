"""The organizer's round clock: start it, pause and resume it, add or take time (every table or one).

Each change is saved with its history (the audit shows who and when) and pushed to the big screens
and the tablets' pages; the time left is worked out by whoever reads it (``tournaments.clock``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from .. import clock, live
from ..models import Round, Table, Tournament
from . import sync
from .common import TournamentError

ACTIONS = ("start", "pause", "resume", "extend")


@transaction.atomic
def round_clock(
    *, rnd: Round, action: str, minutes: int = 0, table: int | None = None, user: Any = None
) -> Round:
    """``action`` the round's clock: ``start`` (the round is being played), ``pause`` / ``resume``
    (every table, or the table numbered ``table``), ``extend`` by ``minutes`` (negative takes time
    away; every table or one)."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)
    tournament = rnd.tournament
    if action not in ACTIONS:
        raise TournamentError(gettext("The clock starts, pauses, resumes or extends."))
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError(gettext("The clock runs while the tournament is running."))
    if not clock.timed(rnd):
        raise TournamentError(
            gettext("This round is not timed: set a time limit for the tournament's rounds.")
        )
    if rnd.status != Round.Status.STARTED:
        raise TournamentError(gettext("Start the round first: its clock runs while it is being played."))
    now = timezone.now()
    target: Round | Table = rnd
    if table is not None:
        locked = Table.objects.select_for_update().filter(round=rnd, number=table).first()
        if locked is None or locked.is_bye:
            raise TournamentError(gettext("No such table."))
        target = locked
        if action == "start":
            raise TournamentError(gettext("The clock starts for the whole round."))
    if action != "start" and rnd.clock_started_at is None:
        raise TournamentError(gettext("The clock has not been started."))
    paused_at, paused_seconds, extra = (
        ("clock_paused_at", "clock_paused_seconds", "clock_extra_seconds")
        if target is rnd
        else ("paused_at", "paused_seconds", "extra_seconds")
    )
    if action == "start":
        if rnd.clock_started_at is not None:
            raise TournamentError(gettext("The clock is already running."))
        rnd.clock_started_at = now
    elif action == "pause":
        if getattr(target, paused_at) is not None:
            raise TournamentError(gettext("The clock is already paused."))
        setattr(target, paused_at, now)
    elif action == "resume":
        since = getattr(target, paused_at)
        if since is None:
            raise TournamentError(gettext("The clock is not paused."))
        setattr(target, paused_seconds, getattr(target, paused_seconds) + int((now - since).total_seconds()))
        setattr(target, paused_at, None)
    else:
        if not minutes or abs(minutes) > 120:
            raise TournamentError(gettext("Add or take between 1 and 120 minutes."))
        setattr(target, extra, getattr(target, extra) + 60 * minutes)
    target._history_user = user
    target.save()
    sync.tournament_touch(tournament)
    live.publish(tournament.pk, "clock")
    return rnd

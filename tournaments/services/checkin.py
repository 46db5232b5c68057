"""Check-in before the first round: every team at once (the organizer), or each team by its own link
(``Entry.checkin_token``, printed as a QR code on its slip) while the organizer keeps check-in open.

Only during registration: once the tournament starts, who plays is settled. Every change is audited
(the entry's history, with the organizer or "self check-in"), moves the tournament for the API's
mirrors (``sync``) and tells its open screens and consoles (``live``) once committed.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext
from simple_history.utils import bulk_update_with_history

from .. import live
from ..models import Entry, Tournament
from . import sync
from .common import TournamentError

SELF_CHECKIN = "self check-in"  # the change reason in the entry's history (its link has no account)


class CheckinRefused(TournamentError):
    """A team's own link cannot check it in now; ``reason`` names the state its page shows:
    ``closed`` (the tournament has started or finished), ``withdrawn``, ``pending`` (awaiting the
    organizer's approval) or ``not_open`` (the organizer has not opened self check-in yet)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def _registration_only(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(gettext("Check-in is over: the tournament has started."))


def _changed(tournament: Tournament) -> None:
    live.publish(tournament.pk, "round")  # the consoles and screens read who is there again


@transaction.atomic
def checkin_all(*, tournament: Tournament, user: Any) -> int:
    """Check in every registered entry (not the ones awaiting approval, nor the withdrawn) at once;
    answers how many were checked in now."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _registration_only(tournament)
    entries = list(
        Entry.objects.select_for_update().filter(tournament=tournament, status=Entry.Status.REGISTERED)
    )
    if not entries:
        return 0
    for entry in entries:
        entry.status = Entry.Status.CHECKED_IN
    bulk_update_with_history(entries, Entry, ["status"], batch_size=500, default_user=user)
    sync.tournament_touch(tournament)  # what ``sync.entry_changed`` does for a check-in, once for all
    _changed(tournament)
    return len(entries)


@transaction.atomic
def checkin_open_set(*, tournament: Tournament, open: bool, user: Any) -> Tournament:
    """Open (or close) self check-in: while it is open, each team's own link checks it in."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(gettext("Self check-in opens only before the tournament starts."))
    if tournament.checkin_open != open:
        tournament.checkin_open = open
        tournament._history_user = user
        tournament.save(update_fields=["checkin_open", "updated_at"])
        _changed(tournament)
    return tournament


def checkin_refusal(entry: Entry) -> CheckinRefused | None:
    """Why the team's own link cannot check it in now (None: it can, or it already is)."""
    tournament, team = entry.tournament, {"team": entry.name}
    if tournament.status != Tournament.Status.REGISTRATION:
        return CheckinRefused(gettext("Check-in is closed: the tournament has started."), "closed")
    if entry.status == Entry.Status.WITHDRAWN:
        return CheckinRefused(
            gettext("%(team)s has withdrawn: ask the organizer at the desk.") % team, "withdrawn"
        )
    if entry.status == Entry.Status.PENDING:
        return CheckinRefused(
            gettext("%(team)s is awaiting the organizer's approval: check in at the desk.") % team,
            "pending",
        )
    if entry.status == Entry.Status.CHECKED_IN:
        return None
    if not tournament.checkin_open:
        return CheckinRefused(
            gettext("Check-in is not open yet: the organizer opens it shortly before the first round."),
            "not_open",
        )
    return None


@transaction.atomic
def checkin_self(*, token: str) -> tuple[Entry, bool]:
    """A team checks itself in by its own link. Answers the entry and whether it was checked in now
    (False: it already was, which is no error). Raises ``Entry.DoesNotExist`` for an unknown link,
    ``CheckinRefused`` when check-in is not open, is over, or the entry cannot play."""
    found = Entry.objects.only("pk", "tournament_id").get(checkin_token=token)
    # The tournament first, then the entry (as ``checkin_all`` and the start lock them): the start
    # cannot slip between the check and the check-in.
    tournament = Tournament.objects.select_for_update().get(pk=found.tournament_id)
    entry = Entry.objects.select_for_update(of=("self",)).select_related("team", "player").get(pk=found.pk)
    entry.tournament = tournament
    refusal = checkin_refusal(entry)
    if refusal is not None:
        raise refusal
    if entry.status == Entry.Status.CHECKED_IN:
        return entry, False
    entry.status = Entry.Status.CHECKED_IN
    entry._change_reason = SELF_CHECKIN
    entry.save(update_fields=["status"])
    sync.entry_changed(entry)
    _changed(entry.tournament)
    return entry, True

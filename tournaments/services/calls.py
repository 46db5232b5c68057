"""A table's call for the director: one silent tap on its sheet, shown on the organizer's console
with the table's number until the director acknowledges it.

One open call per table: tapping again while it is open changes nothing (the same call is
returned), so repeated taps never pile up.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from .. import presence
from ..models import DirectorCall, Round, Table, Tournament
from .common import TournamentError


def call_open(*, table: Table) -> DirectorCall | None:
    """The table's open call, if any."""
    return DirectorCall.objects.filter(table=table, acknowledged_at__isnull=True).first()


@transaction.atomic
def call_create(*, table: Table) -> DirectorCall:
    """The table calls the director; its open call if it has one already."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    rnd, tournament = table.round, table.round.tournament
    if table.is_bye:
        raise TournamentError(gettext("A bye has no table to call from."))
    if tournament.status != Tournament.Status.RUNNING or rnd.status == Round.Status.DRAFT:
        raise TournamentError(gettext("The director is called while the round is being played."))
    existing = call_open(table=table)
    if existing is not None:
        return existing
    call = DirectorCall.objects.create(tournament=tournament, table=table)
    presence.changed_on_commit(tournament.pk)
    return call


@transaction.atomic
def call_acknowledge(*, call: DirectorCall, user: Any = None) -> DirectorCall:
    """The director has seen the call (and is on the way): it leaves the console."""
    call = DirectorCall.objects.select_for_update().get(pk=call.pk)
    if call.acknowledged_at is not None:
        raise TournamentError(gettext("This call is already acknowledged."))
    call.acknowledged_at = timezone.now()
    call.acknowledged_by = user if user is not None and user.is_authenticated else None
    call.save(update_fields=["acknowledged_at", "acknowledged_by"])
    presence.changed_on_commit(call.tournament_id)
    return call

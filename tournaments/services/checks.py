"""The other team's check of each deal, where the tournament asks for it (bridge tablets' "OK").

The tournament holds the question (``Tournament.deal_check``, set when it is created, on its set-up
before the start, or switched on and off here while it runs); each match carries it too
(``Match.deal_check``, scoring), so that the tablet, its page and the API read it without reaching up
to the tournament: ``round_start`` gives a new round's matches the tournament's answer, and switching
it here changes the matches of the rounds in play and of the latest round with it. The check itself is
on each deal (``scoring.services.deal_check``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from scoring.models import Match

from ..models import Round, Tournament
from . import sync
from .common import TournamentError


def _matches(tournament: Tournament):
    return Match.objects.filter(table__round__tournament=tournament)


def deal_check_asked(tournament: Tournament) -> bool:
    """Does the tournament ask the other team to check each deal?"""
    return tournament.deal_check


@transaction.atomic
def tournament_deal_check(*, tournament: Tournament, on: bool, user: Any = None) -> int:
    """Ask the other team to check each deal on the tablet (``on``), or stop asking: from now on, at
    every table of the rounds in play and of the latest round, and of every round started later. The
    deals already played stay as they are (checked or not). Returns the number of matches changed."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.status == Tournament.Status.FINISHED:
        raise TournamentError(gettext("The tournament is finished: its deals are no longer checked."))
    if locked.deal_check != on:
        locked.deal_check = on
        locked._history_user = user
        locked.save()
    tournament.deal_check, tournament.updated_at = locked.deal_check, locked.updated_at
    latest = _matches(tournament).order_by("-pk").values_list("table__round_id", flat=True).first()
    if latest is None:
        return 0
    in_play = Q(table__round__status=Round.Status.STARTED) | Q(table__round_id=latest)
    changed = (
        _matches(tournament)
        .filter(in_play)
        .exclude(deal_check=on)
        .update(deal_check=on, updated_at=timezone.now())  # a client mirroring the API fetches them
    )
    if changed:
        sync.tournament_touch(tournament)
    return changed

"""Finishing a tournament early: rounds abandoned, a power cut, the café closing.

A tournament finishes by itself when its last round (and play-off, and final) is decided
(``refresh``); this is the organizer's decision to stop before that, with a reason, audited.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring import engine
from scoring import services as scoring_services
from scoring.models import Match

from .. import live, signals
from ..models import Adjustment, Round, Table, Tournament
from . import queue
from .common import TournamentError

IN_PLAY = Tournament.InPlay


@transaction.atomic
def tournament_finish(
    *, tournament: Tournament, reason: str, in_play: str = IN_PLAY.TOTALS, user: Any = None
) -> Tournament:
    """Finish a running tournament now. Each match still in play is either finished on its totals
    (``in_play="totals"``: the higher total wins, equal totals are a draw; a match with no deal
    played stays out) or left out (``"left_out"``: it counts for nobody). A finished match still
    waiting for its confirmation is confirmed (the director's decision: nobody is left to confirm
    it). Rounds drawn but not started are removed; the standings and the final ranking are
    recomputed from what was played. Afterwards a match left out (or never begun) takes no deal,
    the organizer's neither (``scoring.services``: ``Table.event_over``)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    reason = " ".join((reason or "").split())
    if not reason:
        raise TournamentError(gettext("Say why the tournament finishes early."))
    if len(reason) > 300:
        raise TournamentError(gettext("The reason is too long (300 characters at most)."))
    if in_play not in IN_PLAY.values:
        raise TournamentError(gettext("Choose what becomes of the matches in play."))
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(gettext("The tournament is already finished."))
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError(gettext("The tournament has not started: there is nothing to finish."))

    # A table typed from its paper sheet is done: its match is neither finished on its totals (its
    # deals would replace the paper result) nor left out (``services.paper``).
    on_paper = Adjustment.objects.filter(tournament=tournament, kind=Adjustment.Kind.PAPER).values("table_id")
    open_tables = (
        Table.objects.filter(round__tournament=tournament, round__status=Round.Status.STARTED)
        .exclude(match__isnull=True)
        .exclude(match__status=Match.Status.FINISHED)
        .exclude(pk__in=on_paper)
        .select_related("match")
    )
    now = timezone.now()
    if in_play == IN_PLAY.TOTALS:
        for table in open_tables:
            assert table.match is not None  # open_tables leaves out the tables without a match
            try:
                match = scoring_services.match_finish(match=table.match, user=user)
            except engine.ScoringError:  # no deal played: nothing to finish it on
                continue
            if tournament.confirmation:  # the director's decision: nobody is left to confirm it
                match.confirmed_at, match.confirmed_by = now, user
                match._history_user = user
                match.save(update_fields=["confirmed_at", "confirmed_by", "updated_at"])
    if tournament.confirmation:  # a result played to its end and waiting for its confirmation: it counts
        waiting = Match.objects.filter(
            table__round__tournament=tournament,
            table__round__status=Round.Status.STARTED,
            status=Match.Status.FINISHED,
            confirmed_at__isnull=True,
        )
        for match in waiting:
            match.confirmed_at, match.confirmed_by = now, user
            match._history_user = user
            match.save(update_fields=["confirmed_at", "confirmed_by", "updated_at"])
    # What was not played to its end now counts for nobody, and takes no more deals (scoring asks
    # ``Table.left_out``), the organizer's neither: finished is finished.
    left_out = (
        Table.objects.filter(round__tournament=tournament, round__status=Round.Status.STARTED)
        .exclude(match__isnull=True)
        .exclude(pk__in=on_paper)
    )
    for table in left_out.exclude(match__status=Match.Status.FINISHED):
        table.left_out = True
        table._history_user = user
        table.save(update_fields=["left_out"])
    for rnd in tournament.rounds.filter(status=Round.Status.DRAFT):
        rnd._history_user = user
        rnd.delete()  # drawn, never played: its tables have no match
    for rnd in tournament.rounds.filter(status=Round.Status.STARTED):
        rnd.status = Round.Status.FINISHED
        rnd._history_user = user
        rnd.save(update_fields=["status"])
        signals.round_finished.send(sender=Round, tournament=tournament, round=rnd)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.finish_reason = reason
    tournament.finish_in_play = in_play
    tournament._history_user = user
    tournament.save()
    queue.standings_request(tournament.pk)
    live.publish(tournament.pk, "finished")
    signals.tournament_finished.send(sender=Tournament, tournament=tournament)
    return tournament

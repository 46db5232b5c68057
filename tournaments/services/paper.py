"""A table's result typed from its paper sheet: the tablet died, the battery ran out, the scorekeeper
kept score on paper. The organizer enters the two totals (and, where they tie, the winner the rules
give); it is stored as a result without deals (an ``Adjustment`` of kind ``PAPER``), counted in the
standings like any other result, and shown "from the paper sheet" wherever the match is.

The deals replace it: once the table's match is finished by its deals (and confirmed, where the
tournament asks for it), the deals count and the paper result no longer does
(``results._results``, ``results.knockout_tables``). The organizer can also remove it.

A forfeit or a match awarded (``director.table_decide``) stands above both: a table decided by the
director takes no paper result, and a decision taken after a paper result is what counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from scoring.models import Match

from .. import live
from ..models import Adjustment, Round, Table, Tournament
from . import queue, sync
from .common import TournamentError
from .director import MAX_POINTS
from .results import DECISIONS

MAX_TOTAL = MAX_POINTS  # a sane bound for one side's total: far above any evening's match


def paper_counts_deals(table: Table) -> bool:
    """Whether ``table``'s match is finished by its deals (and confirmed, where asked): then its deals
    count, not a paper result."""
    match = table.match
    if match is None or match.status != Match.Status.FINISHED:
        return False
    return not table.round.tournament.confirmation or match.confirmed_at is not None


def table_paper(table: Table) -> Adjustment | None:
    """``table``'s paper result (the latest), or None."""
    return table.adjustments.filter(kind=Adjustment.Kind.PAPER).order_by("-created_at", "-pk").first()


def _totals(totals: Sequence[Any]) -> list[int]:
    totals = list(totals or [])
    if len(totals) != 2 or any(
        not isinstance(t, int) or isinstance(t, bool) or t < 0 or t > MAX_TOTAL for t in totals
    ):
        raise TournamentError(
            gettext("The totals are two whole numbers from 0 to %(max)s, one per team.") % {"max": MAX_TOTAL}
        )
    return totals


def _winner(rnd: Round, totals: list[int], winner: Any) -> int | None:
    """The side that won: the higher total; on a tie, the winner the rules give (a knockout match
    needs one; elsewhere a tie is a draw unless the organizer gives the winner, say after the
    tie-break deals of a match played to its target)."""
    if winner is not None and (winner not in (0, 1) or isinstance(winner, bool)):
        raise TournamentError(gettext("The winner is side 0 or 1 (or none, for a draw)."))
    if totals[0] != totals[1]:
        higher = 0 if totals[0] > totals[1] else 1
        if winner is not None and winner != higher:
            raise TournamentError(gettext("The winner cannot be the team with the lower total."))
        return higher
    if winner is None and rnd.kind == Round.Kind.KNOCKOUT:
        raise TournamentError(
            gettext(
                "The totals are level and a knockout match needs a winner: say which team the rules give "
                "it to."
            )
        )
    return winner


def _check_table(table: Table) -> None:
    rnd, tournament = table.round, table.round.tournament
    if tournament.status == Tournament.Status.REGISTRATION:
        raise TournamentError(gettext("The tournament has not started: there is no result to enter."))
    if table.is_bye:
        raise TournamentError(gettext("A bye has no match: there is no result to enter."))
    if rnd.status == Round.Status.DRAFT:
        raise TournamentError(gettext("Start the round first: a drawn round's tables are not played yet."))
    if table.left_out:
        raise TournamentError(
            gettext("The tournament finished without this table's match: it counts for nobody.")
        )
    if table.adjustments.filter(kind__in=DECISIONS).exists():
        raise TournamentError(
            gettext(
                "This table is decided by a forfeit or a match awarded: that decision counts. Remove it "
                "first to enter the paper result."
            )
        )


def _told(tournament_id: int) -> None:
    """As for a decision: the mirrors, the standings' recomputation, the screens and consoles."""
    sync.tournament_touch(tournament_id)
    queue.standings_request(tournament_id)
    live.publish(tournament_id, "standings")
    live.publish(tournament_id, "round")


@transaction.atomic
def table_paper_result(
    *, table: Table, totals: Sequence[int], winner: int | None = None, reason: str = "", user: Any = None
) -> Adjustment:
    """Enter ``table``'s result from its paper sheet: the two ``totals`` (side 0's, side 1's) and, on a
    tie, the ``winner`` the rules give (None: a draw). Replaces an earlier paper result of the table
    (its history keeps it). Refused for a bye, a left-out table, a table decided by a forfeit or an
    award, a round not started, and a match its deals have finished (they count: correct a deal
    instead). Allowed while the round is played, after it, and after the tournament's end (a
    correction)."""
    table = Table.objects.select_related("round__tournament", "match").get(pk=table.pk)
    tournament = Tournament.objects.select_for_update().get(pk=table.round.tournament_id)
    table.round.tournament = tournament
    _check_table(table)
    if paper_counts_deals(table):
        raise TournamentError(
            gettext(
                "This table's match is finished by its deals: they count. Correct a deal on its sheet "
                "instead."
            )
        )
    totals = _totals(totals)
    side = _winner(table.round, totals, winner)
    reason = " ".join((reason or "").split()) or gettext("From the paper sheet")
    if len(reason) > 300:
        raise TournamentError(gettext("The reason is too long (300 characters at most)."))
    author = user if getattr(user, "is_authenticated", False) else None
    for earlier in table.adjustments.filter(kind=Adjustment.Kind.PAPER):
        earlier._history_user = author
        earlier.delete()
    adjustment = Adjustment(
        tournament=tournament,
        kind=Adjustment.Kind.PAPER,
        table=table,
        winner=side,
        scores=totals,
        reason=reason,
        created_by=author,
    )
    adjustment._history_user = author
    adjustment.save()
    _told(tournament.pk)
    return adjustment


@transaction.atomic
def table_paper_remove(*, table: Table, user: Any = None) -> None:
    """Remove ``table``'s paper result (its history keeps it, and who removed it): the table counts
    its deals again, once its match is finished."""
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    Tournament.objects.select_for_update().get(pk=table.round.tournament_id)
    found = list(table.adjustments.filter(kind=Adjustment.Kind.PAPER))
    if not found:
        raise TournamentError(gettext("This table has no paper result."))
    author = user if getattr(user, "is_authenticated", False) else None
    for adjustment in found:
        adjustment._history_user = author
        adjustment.delete()
    _told(table.round.tournament_id)

"""Rounds: the next pairings drawn, swapped, started; play-offs at the cuts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from simple_history.utils import bulk_create_with_history

from scoring import services as scoring_services

from .. import live, pairing
from ..models import Entry, Round, Table, Tournament
from . import queue
from .common import STAGE_KINDS, TournamentError
from .results import knockout_tables, standings_compute
from .stage import pending_playoffs, stage_complete, stage_rounds, ties_at_cuts


def _playing(tournament: Tournament) -> list[int]:
    withdrawn = set(tournament.entries.filter(status=Entry.Status.WITHDRAWN).values_list("pk", flat=True))
    return [e for e in tournament.participants if e not in withdrawn]


def _played_pairs(tournament: Tournament) -> set[frozenset[int]]:
    pairs = Table.objects.filter(round__tournament=tournament, entry1__isnull=False)
    return {frozenset(p) for p in pairs.values_list("entry0_id", "entry1_id")}


def _byes(tournament: Tournament) -> set[int]:
    byes = Table.objects.filter(round__tournament=tournament, entry1__isnull=True)
    return set(byes.values_list("entry0_id", flat=True))


def _next_pairs(tournament: Tournament) -> tuple[str, list[pairing.Pair], pairing.Pair | None]:
    """The next round's kind, its pairs, and (before a final) the match for third place."""
    stage = tournament.rounds.filter(kind__in=STAGE_KINDS)
    done = stage.count()
    if done < stage_rounds(tournament):
        playing = _playing(tournament)
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            pairs = []
            for pair in pairing.round_robin(tournament.participants)[done]:
                a_in, b_in = pair.a in playing, pair.b is not None and pair.b in playing
                if a_in and b_in:
                    pairs.append(pair)
                elif a_in or b_in:  # the opponent withdrew: a bye
                    pairs.append(pairing.Pair(pair.a if a_in else pair.b, None))
            return Round.Kind.ROUND_ROBIN, pairs, None
        rows = {row.entry: row for row in standings_compute(tournament)}
        byes = _byes(tournament)
        entries = [
            pairing.SwissEntry(
                entry=e, score=rows[e].values["match_points"], rank=rows[e].rank, had_bye=e in byes
            )
            for e in playing
        ]
        return Round.Kind.SWISS, pairing.swiss_pairs(entries, _played_pairs(tournament)), None
    if pending_playoffs(tournament):
        raise TournamentError(gettext("A tie-break play-off is still being played."))
    if not tournament.knockout_size:
        raise TournamentError(gettext("Every round has been played."))
    tables = knockout_tables(tournament)
    if not tables:
        rows = standings_compute(tournament)
        playing = set(_playing(tournament))
        seeds = [row.entry for row in rows if row.entry in playing][: tournament.knockout_size]
        return Round.Kind.KNOCKOUT, pairing.knockout_bracket(seeds), None
    last = [t for t in tables if t.round == max(t.round for t in tables) and t.bracket == Table.Bracket.MAIN]
    winners = [t.a if t.b is None else t.winner for t in last]
    if len(winners) < 2:
        raise TournamentError(gettext("The knockout is over."))
    if None in winners:
        raise TournamentError(gettext("Every match of the last knockout round needs a winner."))
    third = None
    if len(winners) == 2 and tournament.third_place:
        losers = [t.b if t.winner == t.a else t.a for t in last if t.b is not None]
        if len(losers) == 2:  # a semi-final that was a bye leaves its third place to the one loser
            third = pairing.Pair(*losers)
    return Round.Kind.KNOCKOUT, pairing.knockout_next(winners), third


@transaction.atomic
def round_generate(*, tournament: Tournament, user: Any = None) -> Round:
    """Draw the next round's pairings and number the tables (a draft until it starts)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_running(tournament, gettext("Rounds are drawn while the tournament is running."))
    if tournament.rounds.exclude(status=Round.Status.FINISHED).exclude(kind=Round.Kind.PLAYOFF).exists():
        raise TournamentError(gettext("The current round is not finished yet."))
    try:
        kind, pairs, third = _next_pairs(tournament)
        playing = [e for pair in [*pairs, third] if pair for e in pair.entries]
        if kind == Round.Kind.SWISS:  # one bye at most, to a team that has had none while one is left
            pairing.check_pairing(playing, pairs, _played_pairs(tournament), byes=_byes(tournament))
        else:  # a bracket or a round robin with withdrawals may give several byes
            pairing.check_pairing(playing, [*pairs, third] if third else pairs, max_byes=None)
    except pairing.PairingError as error:
        raise TournamentError(
            gettext("The pairing was not valid, nothing was saved: %(error)s") % {"error": error}
        ) from None
    number = (tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    rnd = Round(tournament=tournament, number=number, kind=kind)
    rnd._history_user = user
    rnd.save()
    _save_tables(rnd, pairs, byes_last=kind != Round.Kind.KNOCKOUT, user=user, third_place=third)
    live.publish(tournament.pk, "round")
    return rnd


def _check_running(tournament: Tournament, message: str) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(gettext("The tournament is finished: only a result can still be corrected."))
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError(message)


def _save_tables(
    rnd: Round,
    pairs: Sequence[pairing.Pair],
    *,
    byes_last: bool = True,
    user: Any = None,
    third_place: pairing.Pair | None = None,
) -> None:
    """Number the tables in the pairing's order; byes last, except in a bracket (its order is the draw);
    the match for third place after the final. Saved in one go, each with its history row (who drew
    the round)."""
    if byes_last:
        pairs = [p for p in pairs if p.b is not None] + [p for p in pairs if p.b is None]
    tables = [
        Table(round=rnd, number=number, entry0_id=pair.a, entry1_id=pair.b)
        for number, pair in enumerate(pairs, start=1)
    ]
    if third_place is not None:
        tables.append(
            Table(
                round=rnd,
                number=len(tables) + 1,
                entry0_id=third_place.a,
                entry1_id=third_place.b,
                bracket=Table.Bracket.THIRD_PLACE,
            )
        )
    bulk_create_with_history(tables, Table, default_user=user)


@transaction.atomic
def round_swap(*, rnd: Round, first: tuple[int, int], second: tuple[int, int], user: Any = None) -> Round:
    """Swap two teams of a drawn round: (table number, side 0 or 1) each."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)
    _check_running(rnd.tournament, gettext("Rounds are changed while the tournament is running."))
    if rnd.status != Round.Status.DRAFT:
        raise TournamentError(gettext("The round has started: its pairings are fixed."))
    tables = {t.number: t for t in rnd.tables.select_for_update()}
    try:
        (ta, sa), (tb, sb) = first, second
        a, b = tables[ta], tables[tb]
    except (KeyError, ValueError):
        raise TournamentError(gettext("No such table.")) from None
    if sa not in (0, 1) or sb not in (0, 1):
        raise TournamentError(gettext("A side is 0 or 1."))
    ea, eb = getattr(a, f"entry{sa}_id"), getattr(b, f"entry{sb}_id")
    if ea is None or eb is None:
        raise TournamentError(gettext("A bye has no team to swap; swap the team that has the bye."))
    setattr(a, f"entry{sa}_id", eb)
    setattr(b, f"entry{sb}_id", ea)
    pairs = [pairing.Pair(t.entry0_id, t.entry1_id) for t in sorted(tables.values(), key=lambda t: t.number)]
    try:
        pairing.check_pairing([e for p in pairs for e in (p.a, p.b) if e is not None], pairs)
    except pairing.PairingError as error:
        raise TournamentError(
            gettext("That swap makes no valid pairing: %(error)s") % {"error": error}
        ) from None
    for table in (a, b) if a.pk != b.pk else (a,):
        table._history_user = user
        table.save()
    live.publish(rnd.tournament_id, "round")
    return rnd


@transaction.atomic
def round_start(*, rnd: Round, user: Any = None) -> Round:
    """Open a match at every table; each table's scorekeeper link now opens its sheet."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)
    _check_running(rnd.tournament, gettext("Rounds are started while the tournament is running."))
    if rnd.status != Round.Status.DRAFT:
        raise TournamentError(gettext("The round has already started."))
    tournament = rnd.tournament
    options = dict(tournament.options)
    if rnd.kind == Round.Kind.KNOCKOUT:
        options["deals"] = 0  # a knockout match is played to the target: it needs a winner
    elif rnd.kind == Round.Kind.PLAYOFF:
        options["deals"] = tournament.playoff_deals
    for table in rnd.tables.select_related(
        "entry0__team__player_a", "entry0__team__player_b", "entry1__team__player_a", "entry1__team__player_b"
    ):
        if table.is_bye:
            continue
        # The entries' own people (and so their teams): a name would make new players.
        teams = [(e.team.name, (e.team.player_a, e.team.player_b)) for e in (table.entry0, table.entry1)]
        table.match = scoring_services.match_create(
            teams=teams, ruleset=tournament.ruleset, options=options, created_by=user
        )
        table.save(update_fields=["match"])
    rnd.status = Round.Status.STARTED
    rnd.started_at = timezone.now()
    rnd._history_user = user
    rnd.save()
    queue.standings_request(tournament.pk)
    live.publish(tournament.pk, "round")
    return rnd


@transaction.atomic
def playoffs_create(*, tournament_id: int) -> list[Round]:
    """A short play-off for each group of teams level at a cut that has none under way."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    if tournament.status != Tournament.Status.RUNNING or pending_playoffs(tournament):
        return []
    if not stage_complete(tournament):
        return []
    created = []
    for tie in ties_at_cuts(tournament, standings_compute(tournament)):
        entries = tie["entries"]
        if len(entries) == 2:
            pairs = [pairing.Pair(entries[0], entries[1])]
        else:
            pairs = [p for rnd in pairing.round_robin(entries) for p in rnd if p.b is not None]
        number = (tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        rnd = Round.objects.create(
            tournament=tournament, number=number, kind=Round.Kind.PLAYOFF, cut=tie["cut"]
        )
        _save_tables(rnd, pairs)
        round_start(rnd=rnd)
        created.append(rnd)
    return created

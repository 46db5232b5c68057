"""The standings snapshot: recomputed, stored, published; rounds closed; play-offs queued."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import BooleanField, Case, Exists, OuterRef, Q, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from scoring.models import Match

from .. import live, signals, standings
from ..models import Adjustment, Entry, Round, StandingsSnapshot, Table, Tournament
from . import queue, sync
from .common import STAGE_KINDS
from .results import SETTLED, across_pools, adjustments, knockout_tables, penalties_shown, standings_compute
from .stage import pending_playoffs, pools, stage_rounds, ties_at_cuts


def _entries(tournament: Tournament) -> dict[int, tuple[str, list[str], bool]]:
    """Each entry's team name, players and whether it withdrew (one query of those columns); an
    individual event's entry is its player: the name, and the players ``[name]``."""
    return {
        pk: (team, [player_a, player_b] if player_a is not None else [team], status == Entry.Status.WITHDRAWN)
        for pk, team, player_a, player_b, status in Entry.objects.filter(tournament=tournament)
        .order_by()
        .values_list(
            "pk",
            Coalesce("team__name", "player__name"),
            "team__player_a__name",
            "team__player_b__name",
            "status",
        )
    }


def _ranking_rows(
    placed: list[standings.Placed], entries: dict[int, tuple[str, list[str], bool]]
) -> list[dict[str, Any]]:
    """The final ranking as stored and served."""
    return [
        {
            "position": p.position,
            "rank": p.rank,
            "entry": p.entry,
            "team": entries[p.entry][0],
            "players": entries[p.entry][1],
            "withdrawn": entries[p.entry][2],
            "reached": p.reached,
            "stage_rank": p.stage_rank,
        }
        for p in placed
    ]


def _snapshot_rows(
    rows: list[standings.Row],
    entries: dict[int, tuple[str, list[str], bool]],
    taken: dict[int, list[int]] | None = None,
) -> list[dict[str, Any]]:
    """The rows as stored and served: the standings beside each team's name, players and status."""
    return [
        {
            "entry": row.entry,
            "rank": row.rank,
            "team": entries[row.entry][0],
            "players": entries[row.entry][1],
            "withdrawn": entries[row.entry][2],
            "played": row.played,
            "won": row.won,
            "drawn": row.drawn,
            "lost": row.lost,
            "values": row.values,  # the row's own dict, made for it by ``compute_standings``
            # The director's penalties, already out of the values: [game points, match points].
            "penalty": (taken or {}).get(row.entry, [0, 0]),
        }
        for row in rows
    ]


def rounds_close_finished(tournament: Tournament) -> Sequence[Round]:
    """A started round whose every match is finished (and confirmed, if asked), decided by the
    director or typed from its paper sheet, is finished: one query reads every round and finds them
    (the tables of the started rounds only are looked at); each one closed is saved with its
    history. Read from the matches, never from the standings: the recomputation and the draw both
    call it. Returns every round of the tournament, as closed."""
    open_match = Q(match__isnull=True) | ~Q(match__status=Match.Status.FINISHED)
    if tournament.confirmation:
        open_match |= Q(match__confirmed_at__isnull=True)
    # The tournament and the status repeat what the round already says: PostgreSQL may read the open
    # tables once for every round (a hashed subplan) rather than round by round, and then reads only
    # this tournament's started rounds' tables, not the site's (beside four 10,000-team events:
    # 2.4 ms where it took 35 ms; docs/developers/benchmarks.md).
    open_tables = Table.objects.filter(
        open_match,
        round=OuterRef("pk"),
        round__tournament_id=tournament.pk,
        round__status=Round.Status.STARTED,
        entry1__isnull=False,
    ).exclude(Exists(Adjustment.objects.filter(table=OuterRef("pk"), kind__in=SETTLED)))
    done = Case(
        When(status=Round.Status.STARTED, then=~Exists(open_tables)),
        default=False,
        output_field=BooleanField(),
    )
    rounds = list(tournament.rounds.order_by("number").annotate(done=done))
    for rnd in rounds:
        if rnd.done:
            rnd.status = Round.Status.FINISHED
            rnd.save(update_fields=["status"])
            signals.round_finished.send(sender=Round, tournament=tournament, round=rnd)
    return rounds


def _round_states(tournament: Tournament, rounds: Sequence[Round]) -> tuple[bool, bool]:
    """Whether the stage is complete and whether a play-off is pending, from its ``rounds``."""
    stage = open_stage = pending = 0
    for rnd in rounds:
        kind, finished = rnd.kind, rnd.status == Round.Status.FINISHED
        if kind in STAGE_KINDS:
            stage += 1
            open_stage += not finished
        elif kind == Round.Kind.PLAYOFF:
            pending += not finished
    return stage >= stage_rounds(tournament) and not open_stage, bool(pending)


@transaction.atomic
def standings_refresh(*, tournament_id: int) -> StandingsSnapshot | None:
    """Recompute and store the standings and the final ranking; close finished rounds; start the
    play-offs the cuts need; finish the tournament when its last round, play-off or final is decided.

    Safe to run twice: it only reads the matches and writes the snapshot.
    """
    # The tournament locked, read with its snapshot (not the rows it is about to replace): the
    # snapshot is written under the tournament's lock, here and when the tournament starts.
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("standings")
        .defer("standings__rows", "standings__playoffs", "standings__ranking")
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None or tournament.status == Tournament.Status.REGISTRATION:
        return None
    complete, playoffs_pending = _round_states(tournament, rounds_close_finished(tournament))
    tournament._adjustment_rows = adjustments(tournament)  # read once for this recomputation
    rows = standings_compute(tournament)
    ties = ties_at_cuts(tournament, rows) if complete else []
    try:
        snapshot = tournament.standings
    except StandingsSnapshot.DoesNotExist:
        snapshot = StandingsSnapshot(tournament=tournament)
    entries = _entries(tournament)
    taken = penalties_shown(tournament)
    snapshot.rows = _snapshot_rows(rows, entries, taken)
    if tournament.format == Tournament.Format.POOLS:  # each row says its pool
        letter = {entry: pool for pool, members in pools(tournament).items() for entry in members}
        for row in snapshot.rows:
            row["pool"] = letter.get(row["entry"], "")
    knockout = knockout_tables(tournament) if tournament.knockout_size else []
    ranking = standings.final_ranking(
        [(row.entry, row.rank) for row in across_pools(tournament, rows)], knockout
    )
    snapshot.ranking = _ranking_rows(ranking, entries)
    snapshot.playoffs = [
        {**tie, "pending": True, "teams": [r["team"] for r in snapshot.rows if r["entry"] in tie["entries"]]}
        for tie in ties
    ]
    snapshot.version += 1
    if snapshot._state.adding:
        snapshot.save()
    else:
        snapshot.save(update_fields=["rows", "playoffs", "ranking", "version", "computed_at"])
    signals.standings_updated.send(sender=StandingsSnapshot, tournament=tournament, snapshot=snapshot)
    running = tournament.status == Tournament.Status.RUNNING
    decided = not tournament.knockout_size or standings.knockout_finished(knockout)
    if ties and not playoffs_pending and running:
        transaction.on_commit(lambda: queue.queue_playoffs(tournament.pk))
    elif running and not ties and complete and not playoffs_pending and decided:
        _finish(tournament)
    transaction.on_commit(lambda: _publish(snapshot))
    sync.tournament_touch(tournament)  # its standings, rounds closed, maybe its status: for the mirrors
    live.publish(tournament.pk, "standings")  # after the cache is set: screens read it at once
    return snapshot


def standings_catch_up(*, tournament_id: int) -> StandingsSnapshot | None:
    """The standings recomputed now if they are older than the tournament's last result (the worker
    behind, the broker down: ``queue.standings_stale``); None if they were current. Idempotent."""
    if not queue.standings_stale(tournament_id=tournament_id):
        return None
    return standings_refresh(tournament_id=tournament_id)


def _publish(snapshot: StandingsSnapshot) -> None:
    """The committed standings replace the cached ones (readers only ever add)."""
    from ..selectors import standings_data

    cache.set(queue.standings_cache_key(snapshot.tournament_id), standings_data(snapshot), timeout=300)


def _finish(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.FINISHED and not pending_playoffs(tournament):
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        live.publish(tournament.pk, "finished")
        signals.tournament_finished.send(sender=Tournament, tournament=tournament)

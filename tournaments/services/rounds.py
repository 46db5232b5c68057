"""Rounds: the next pairings drawn, swapped, started; play-offs at the cuts."""

from __future__ import annotations

import contextlib
import gc
import random
from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import Any, cast

from django.conf import settings
from django.db import connection, transaction
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext

from players.history import history_fields
from scoring import services as scoring_services

from .. import live, pairing, signals
from ..models import Entry, Round, Table, Tournament, new_seed
from . import checks, individual, queue, refresh, sync
from .common import STAGE_KINDS, TournamentError
from .results import across_pools, knockout_tables, standings_compute
from .stage import pending_playoffs, pools, stage_complete, stage_rounds, ties_at_cuts


def _playing(tournament: Tournament) -> list[int]:
    withdrawn = set(tournament.entries.filter(status=Entry.Status.WITHDRAWN).values_list("pk", flat=True))
    return [e for e in tournament.participants if e not in withdrawn]


class _Earlier:
    """The earlier rounds as a draw reads them: the pairs that met and the teams that had a bye, read
    together in one query when first asked (the pairing and its check both need them)."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    @cached_property
    def _read(self) -> tuple[set[frozenset[int]], set[int]]:
        pairs: set[frozenset[int]] = set()
        byes: set[int] = set()
        tables = Table.objects.filter(round__tournament=self.tournament).order_by()
        for a, b in tables.values_list("entry0_id", "entry1_id"):
            if b is None:
                byes.add(a)
            else:
                pairs.add(frozenset((a, b)))
        return pairs, byes

    @property
    def pairs(self) -> set[frozenset[int]]:
        return self._read[0]

    @property
    def byes(self) -> set[int]:
        return self._read[1]


def _kept_apart(tournament: Tournament) -> set[frozenset[int]]:
    """The pairs the organizer keeps apart (same club, same family): the pairing treats them as if
    they had met, so they meet only when no pairing without a rematch exists (never forced apart)."""
    return {frozenset(pair) for pair in tournament.avoid if len(set(pair)) == 2}


Extra = list[tuple[str, pairing.Pair]]  # tables of other brackets: (bracket, pair)


def _next_pairs(tournament: Tournament, earlier: _Earlier) -> tuple[str, list[pairing.Pair], Extra]:
    """The next round's kind, its pairs (the main bracket's, in a knockout), and the tables of the
    other brackets: the match for third place beside a final, the consolation bracket's."""
    stage = tournament.rounds.filter(kind__in=STAGE_KINDS)
    done = stage.count()
    if done < stage_rounds(tournament):
        playing = _playing(tournament)
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            schedule = pairing.round_robin(tournament.participants)[done]
            return Round.Kind.ROUND_ROBIN, _still_playing(schedule, playing), []
        if tournament.format == Tournament.Format.POOLS:
            return Round.Kind.POOL, _pool_pairs(tournament, playing, done), []
        if tournament.format == Tournament.Format.CONCOURS:
            return Round.Kind.CONCOURS, _concours_pairs(tournament, playing, done, earlier), []
        rows = {row.entry: row for row in standings_compute(tournament)}
        byes = earlier.byes
        seeded = _seeded_by_rating(playing) if done == 0 and tournament.seed_by_rating else {}
        entries = [
            pairing.SwissEntry(
                entry=e,
                score=rows[e].values["match_points"],
                rank=seeded.get(e, rows[e].rank),
                had_bye=e in byes,
            )
            for e in playing
        ]
        return (
            Round.Kind.SWISS,
            pairing.swiss_pairs(entries, earlier.pairs | _kept_apart(tournament)),
            [],
        )
    if pending_playoffs(tournament):
        raise TournamentError(gettext("A tie-break play-off is still being played."))
    if not tournament.knockout_size:
        raise TournamentError(gettext("Every round has been played."))
    tables = knockout_tables(tournament)
    if not tables:
        return _knockout_first(tournament)
    last_round = max(t.round for t in tables)
    main = [t for t in tables if t.round == last_round and t.bracket == Table.Bracket.MAIN]
    consolation = [t for t in tables if t.round == last_round and t.bracket == Table.Bracket.CONSOLATION]
    winners, others = _winners(main), _winners(consolation)
    if len(winners) < 2 and len(others) < 2:
        raise TournamentError(gettext("The knockout is over."))
    if None in winners or None in others:
        raise TournamentError(gettext("Every match of the last knockout round needs a winner."))
    extra: Extra = []
    if len(winners) == 2 and tournament.third_place:
        losers = [t.b if t.winner == t.a else t.a for t in main if t.b is not None]
        if len(losers) == 2:  # a semi-final that was a bye leaves its third place to the one loser
            extra.append((Table.Bracket.THIRD_PLACE, pairing.Pair(*losers)))
    # Every table has its winner (refused above otherwise): no None left in either list.
    if len(others) >= 2:
        extra += [
            (Table.Bracket.CONSOLATION, pair) for pair in pairing.knockout_next(cast("list[int]", others))
        ]
    return (
        Round.Kind.KNOCKOUT,
        pairing.knockout_next(cast("list[int]", winners)) if len(winners) >= 2 else [],
        extra,
    )


def _winners(tables: list) -> list[int | None]:
    return [t.a if t.b is None else t.winner for t in tables]


def _knockout_first(tournament: Tournament) -> tuple[str, list[pairing.Pair], Extra]:
    """The knockout's first round: the best of the stage (of each pool, crossed), seeded; with a
    consolation bracket, the others in a bracket of their own, seeded by the stage."""
    rows = standings_compute(tournament)
    playing = set(_playing(tournament))
    order = [row.entry for row in rows if row.entry in playing]
    if tournament.format == Tournament.Format.POOLS:
        drawn = pools(tournament)
        per_pool = tournament.knockout_size // max(1, len(drawn))
        placed = {letter: [e for e in order if e in set(members)] for letter, members in drawn.items()}
        pairs = pairing.pool_bracket(placed, per_pool)
    else:
        pairs = pairing.knockout_bracket(order[: tournament.knockout_size])
    qualified = {e for pair in pairs for e in pair.entries}
    extra: Extra = []
    ranked = [row.entry for row in across_pools(tournament, rows) if row.entry in playing]
    rest = [e for e in ranked if e not in qualified]
    if tournament.consolation and len(rest) >= 2:
        extra = [(Table.Bracket.CONSOLATION, pair) for pair in pairing.knockout_bracket(rest)]
    return Round.Kind.KNOCKOUT, pairs, extra


def _pool_pairs(tournament: Tournament, playing: list[int], done: int) -> list[pairing.Pair]:
    """Round ``done + 1`` of every pool's round robin (a pool with fewer rounds sits this one out);
    a team whose opponent withdrew has a bye."""
    pairs = []
    for members in pools(tournament).values():
        schedule = pairing.round_robin(members)
        if done >= len(schedule):
            continue
        pairs += _still_playing(schedule[done], playing)
    return pairs


def _still_playing(scheduled: list[pairing.Pair], playing: list[int]) -> list[pairing.Pair]:
    """A round robin's round for the teams still playing: a team whose opponent withdrew has a bye."""
    pairs = []
    for pair in scheduled:
        a_in, b_in = pair.a in playing, pair.b is not None and pair.b in playing
        if a_in and b_in:
            pairs.append(pair)
        elif a_in or b_in:  # pair.b is not None when b_in
            pairs.append(pairing.Pair(pair.a if a_in else cast(int, pair.b), None))
    return pairs


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while the pairing is worked out (the standings read, the
    pairing, its check): the objects it makes (at 5,000 teams, tens of thousands of results, rows
    and edges, none of them in a cycle) would set off full collections, each walking all of them.
    One fell inside one draw in five of the benchmark's and added 70-180 ms, more than the pairing
    itself took (issue 29). They are freed as usual, by their counts; the collector runs again right after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def round_generate(*, tournament: Tournament, user: Any = None) -> Round:
    """Draw the next round's pairings and number the tables (a draft until it starts).

    A round is finished when its matches are, however old the standings: results the worker has not
    counted yet (it is behind, or the broker was down) are counted first, in a transaction of their
    own, so the draw reads fresh standings and what the recomputation decides (rounds closed, the
    play-offs at the cuts, the finish) is kept even when the draw is refused."""
    refresh.standings_catch_up(tournament_id=tournament.pk)
    return _round_draw(tournament=tournament, user=user)


@transaction.atomic
def _round_draw(*, tournament: Tournament, user: Any = None) -> Round:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_running(tournament, gettext("Rounds are drawn while the tournament is running."))
    sync.tournament_touch(tournament)  # a round drawn (nothing is kept if the draw is refused)
    refresh.rounds_close_finished(tournament)  # from the matches, not from the standings' last run
    if tournament.rounds.exclude(status=Round.Status.FINISHED).exclude(kind=Round.Kind.PLAYOFF).exists():
        raise TournamentError(gettext("The current round is not finished yet."))
    if (
        tournament.cuts
        and tournament.knockout_size
        and not pending_playoffs(tournament)
        and stage_complete(tournament)
        and ties_at_cuts(tournament, standings_compute(tournament))
    ):  # the recomputation has queued their play-off; the worker has not made it yet
        raise TournamentError(gettext("Teams are level at a cut: their play-off is being set up. Try again."))
    if individual.is_individual(tournament):  # players alone: the movement seats them, four a table
        rnd = individual.round_draw(tournament=tournament, playing=_playing(tournament), user=user)
        signals.round_drawn.send(sender=Round, tournament=tournament, round=rnd)
        return rnd
    earlier = _Earlier(tournament)
    try:
        with _collector_paused():
            kind, pairs, extra = _next_pairs(tournament, earlier)
            everyone = [*pairs, *(pair for _, pair in extra)]
            playing = [e for pair in everyone for e in pair.entries]
            if kind in (Round.Kind.SWISS, Round.Kind.CONCOURS):  # one bye at most, to a team without one
                pairing.check_pairing(playing, pairs, earlier.pairs, byes=earlier.byes)
            else:  # a bracket or a round robin with withdrawals may give several byes
                pairing.check_pairing(playing, everyone, max_byes=None)
    except pairing.PairingError as error:
        raise TournamentError(
            gettext("The pairing was not valid, nothing was saved: %(error)s") % {"error": error}
        ) from None
    number = (tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    rnd = Round(tournament=tournament, number=number, kind=kind)
    rnd._history_user = user
    rnd.save()
    _save_tables(rnd, pairs, byes_last=kind != Round.Kind.KNOCKOUT, user=user, extra=extra)
    live.publish(tournament.pk, "round")
    signals.round_drawn.send(sender=Round, tournament=tournament, round=rnd)
    return rnd


def _concours_pairs(
    tournament: Tournament, playing: list[int], done: int, earlier: _Earlier
) -> list[pairing.Pair]:
    """A concours round: the first drawn at random (from the tournament's seed, so the draw can be
    shown and made again), then "the first against the first": neighbours in the ranking (1 v 2,
    3 v 4 …), no rematch while one can be avoided, the bye to the lowest-ranked team that has not
    had one. The Swiss matching with every team in one score group does exactly this."""
    if done == 0 and tournament.seed_by_rating:
        place = {entry: rank - 1 for entry, rank in _seeded_by_rating(playing).items()}
    elif done == 0:
        order = sorted(playing)
        random.Random(tournament.seed).shuffle(order)
        place = {entry: i for i, entry in enumerate(order)}
    else:
        place = {row.entry: i for i, row in enumerate(standings_compute(tournament))}
    byes = earlier.byes
    entries = [
        pairing.SwissEntry(entry=e, score=0, rank=place[e] + 1, had_bye=e in byes)
        for e in sorted(playing, key=place.__getitem__)
    ]
    pairs = pairing.swiss_pairs(entries, earlier.pairs | _kept_apart(tournament))
    return sorted(pairs, key=lambda p: (p.b is None, min(place[e] for e in p.entries)))


NEW_PLAYER_RATING = 0.0  # mu − 3σ of OpenSkill's start, 25 − 3 × 25/3: what an unrated player counts as


def _rating(player: str) -> Coalesce:
    """A player's rating, a merged record's being its root's (the record it counts as)."""
    return Coalesce(f"{player}__merged_into__rating", f"{player}__rating")


def _seeded_by_rating(playing: list[int]) -> dict[int, int]:
    """Round 1 seeded by rating (``Tournament.seed_by_rating``): each entry's place (from 1) for the
    pairing, which seats neighbours together (1 v 2, 3 v 4 …).

    The entries are ranked by the mean rating of their players (``Player.rating``, written by the
    league's rating run; an individual event's entry, its player's), best first. A player not rated
    yet counts as what a new player's rating is, 0 (the help says so), whether beside a rated
    partner or not: an entry of newcomers sits where 0 does, above every negative rating. Ties keep
    the order of ``playing`` (the seeds). Then folded, so that the best half meets the other half in
    order: 1 v n/2 + 1, 2 v n/2 + 2 … (the strongest do not meet in round 1), and with an odd
    number the lowest-ranked entry is placed last, for the bye."""
    rating: dict[int, float] = {}
    rows = Entry.objects.filter(pk__in=playing).values_list(
        "pk", "team_id", _rating("team__player_a"), _rating("team__player_b"), _rating("player")
    )
    for pk, team, a, b, alone in rows:
        players = (a, b) if team is not None else (alone,)
        rating[pk] = sum(r or NEW_PLAYER_RATING for r in players) / len(players)
    # Best first. Sorting is stable: ties keep the seeds' order.
    ranked = sorted(playing, key=lambda e: -rating.get(e, NEW_PLAYER_RATING))
    half = len(ranked) // 2
    order = [e for pair in zip(ranked[:half], ranked[half : 2 * half], strict=True) for e in pair]
    order += ranked[2 * half :]
    return {entry: place for place, entry in enumerate(order, start=1)}


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
    extra: Sequence[tuple[str, pairing.Pair]] = (),
) -> None:
    """Number the tables in the pairing's order; byes last, except in a bracket (its order is the draw);
    the match for third place after the final. Saved in one statement, then their history rows (who
    drew the round) in another."""
    if byes_last:
        pairs = [p for p in pairs if p.b is not None] + [p for p in pairs if p.b is None]
    rows: list[tuple[int, int, int | None, str]] = [
        (number, pair.a, pair.b, Table.Bracket.MAIN) for number, pair in enumerate(pairs, start=1)
    ]
    for bracket, pair in extra:  # the match for third place, the consolation bracket: after the main one
        rows.append((len(rows) + 1, pair.a, pair.b, bracket))
    if not rows:
        return
    if connection.vendor == "postgresql":
        _tables_insert(rnd, rows)
    else:
        tables = [Table(round=rnd, number=n, entry0_id=a, entry1_id=b, bracket=br) for n, a, b, br in rows]
        Table.objects.bulk_create(tables)
    _tables_history(rnd, user or Table.history.model.get_default_history_user(Table(round=rnd)))


TABLE_GIVEN = ("number", "entry0_id", "entry1_id", "bracket")  # a drawn table's own values, in this order


def _column(field: Any) -> str:
    """A concrete field's column, quoted."""
    return str(connection.ops.quote_name(field.column))


def _tables_insert(rnd: Round, rows: Sequence[tuple[int, int, int | None, str]]) -> None:
    """The tables of ``rnd`` (``TABLE_GIVEN`` each) in one INSERT on PostgreSQL, each column given as
    an array (``unnest``): ``bulk_create`` made a model instance a table and the ORM prepared its every
    value, a third of drawing a 5,000-team round. Every other field takes its model default, drawn a
    table at a time when it is a function (the scorekeeper link's token), else written once."""
    columns, selected, params, arrays = [], [], [], []
    for field in Table._meta.concrete_fields:
        if field.primary_key:
            continue
        columns.append(_column(field))
        db_type = field.db_type(connection)
        if field.attname in TABLE_GIVEN:
            at = TABLE_GIVEN.index(field.attname)
            arrays.append((db_type, [row[at] for row in rows]))
        elif field.has_default() and callable(field.default):
            arrays.append((db_type, [field.get_default() for _ in rows]))
        else:
            value = rnd.pk if field.attname == Table.round.field.attname else field.get_default()
            params.append(field.get_db_prep_save(value, connection))
            selected.append(f"%s::{db_type}")
            continue
        selected.append(f"u.c{len(arrays)}")
    unnest = ", ".join(f"%s::{db_type}[]" for db_type, _ in arrays)
    names = ", ".join(f"c{i}" for i in range(1, len(arrays) + 1))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {connection.ops.quote_name(Table._meta.db_table)} ({', '.join(columns)}) "
            f"SELECT {', '.join(selected)} "
            f"FROM unnest({unnest}) AS u({names})",
            [*params, *(values for _, values in arrays)],
        )


def _tables_history(rnd: Round, user: Any) -> None:
    """The history row ("+", by ``user``) of every table of ``rnd``, a round just drawn: the rows
    django-simple-history's ``bulk_history_create`` writes, copied by the database from the tables as
    saved in one statement, where it made a model instance a row and the ORM prepared its every value
    (two thirds of drawing a 5,000-team round). The columns come from the models' metadata."""
    if not getattr(settings, "SIMPLE_HISTORY_ENABLED", True):
        return
    history, copied, own = history_fields(Table, "the draw")
    values = {
        "history_date": timezone.now(),
        "history_change_reason": None,
        "history_type": "+",
        "history_user_id": getattr(user, "pk", None),
    }
    q = connection.ops.quote_name
    columns = ", ".join(_column(f) for f in (*copied, *own))
    picked = ", ".join(f"t.{_column(f)}" for f in copied)
    marks = ", ".join(["%s"] * len(own))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {q(history._meta.db_table)} ({columns}) SELECT {picked}, {marks} "
            f"FROM {q(Table._meta.db_table)} t WHERE t.{_column(Table.round.field)} = %s "
            f"ORDER BY t.{_column(Table._meta.get_field('number'))}",
            [*(f.get_db_prep_save(values[f.attname], connection) for f in own), rnd.pk],
        )


SWAP_CHECKED = (Round.Kind.SWISS, Round.Kind.CONCOURS, Round.Kind.ROUND_ROBIN, Round.Kind.POOL)


def _swap_problems(rnd: Round, touched: Sequence[Table]) -> list[str]:
    """What a swap makes at the tables it changed that the draw avoids: two teams that met in an
    earlier round, a team given a second bye (the stage's rounds; a knockout's bracket has neither
    rule). Each problem names the teams, for the organizer."""
    if rnd.kind not in SWAP_CHECKED:
        return []
    earlier = Table.objects.filter(round__tournament_id=rnd.tournament_id, round__number__lt=rnd.number)
    met: dict[frozenset[int], int] = {}
    byes: set[int] = set()
    rows = earlier.order_by("round__number").values_list("round__number", "entry0_id", "entry1_id")
    for number, a, b in rows:
        if b is None:
            byes.add(a)
        else:
            met.setdefault(frozenset((a, b)), number)
    seated = [e for t in touched for e in (t.entry0_id, t.entry1_id) if e is not None]
    names = {e.pk: e.name for e in Entry.objects.filter(pk__in=seated).select_related("team", "player")}
    problems = []
    for table in touched:
        if table.entry1_id is None:
            if table.entry0_id in byes:
                problems.append(
                    gettext("%(team)s would have a second bye") % {"team": names[table.entry0_id]}
                )
        elif (met_in := met.get(frozenset((table.entry0_id, table.entry1_id)))) is not None:
            problems.append(
                gettext("%(a)s and %(b)s already met in round %(round)s")
                % {"a": names[table.entry0_id], "b": names[table.entry1_id], "round": met_in}
            )
    return problems


class SwapRefused(TournamentError):
    """A swap that makes a rematch or a second bye: made only if the organizer confirms it (``force``)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(
            gettext("That swap makes what the draw avoids: %(problems)s. Swap anyway only if it must be so.")
            % {"problems": "; ".join(self.problems)}
        )


@transaction.atomic
def round_swap(
    *, rnd: Round, first: tuple[int, int], second: tuple[int, int], user: Any = None, force: bool = False
) -> Round:
    """Swap two teams of a drawn round: (table number, side 0 or 1) each. A swap that makes a rematch
    or gives a team a second bye is refused, the problems named (``SwapRefused``), unless the organizer
    confirms it (``force``): then it is made, the problems kept in the tables' history (the audit)."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)
    _check_running(rnd.tournament, gettext("Rounds are changed while the tournament is running."))
    sync.tournament_touch(rnd.tournament)  # a pairing swapped (nothing is kept if the swap is refused)
    if rnd.status != Round.Status.DRAFT:
        raise TournamentError(gettext("The round has started: its pairings are fixed."))
    if rnd.kind == Round.Kind.INDIVIDUAL:  # four seats a table
        return individual.round_swap(rnd=rnd, first=first, second=second, user=user)
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
    touched = (a, b) if a.pk != b.pk else (a,)
    problems = _swap_problems(rnd, touched)
    if problems and not force:
        raise SwapRefused(problems)
    for table in touched:
        table._history_user = user
        if problems:  # the audit says the organizer confirmed it, and what it made
            reason = gettext("Swapped anyway: %(problems)s") % {"problems": "; ".join(problems)}
            table._change_reason = reason if len(reason) <= 100 else f"{reason[:99]}…"  # the history's column
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
    deal_check = checks.deal_check_asked(tournament)  # the tournament's question (services.checks)
    for table in rnd.tables.select_related(
        "entry0__team__player_a", "entry0__team__player_b", "entry1__team__player_a", "entry1__team__player_b"
    ).select_related(*individual.MATCH_RELATED):
        if table.is_bye:
            continue
        if table.partner0_id:  # an individual round: two partnerships of the day
            teams = individual.match_teams(table)
        else:  # the entries' own people (and so their teams): a name would make new players
            assert table.entry1 is not None  # not a bye: two entries
            team0, team1 = table.entry0.team, table.entry1.team
            assert team0 is not None and team1 is not None  # an event of teams (no partners): each has one
            teams = [(t.name, (t.player_a, t.player_b)) for t in (team0, team1)]
        table.match = scoring_services.match_create(
            teams=teams,
            ruleset=tournament.ruleset,
            options=options,
            preset=tournament.preset,  # its name beside the options, spelt out (deleted since or not)
            created_by=user,
            preset_must_exist=False,
            deal_check=deal_check,
        )
        table.save(update_fields=["match"])
    rnd.status = Round.Status.STARTED
    rnd.started_at = timezone.now()
    rnd._history_user = user
    rnd.save()
    sync.tournament_touch(tournament)
    queue.standings_request(tournament.pk)
    live.publish(tournament.pk, "round")
    signals.round_started.send(sender=Round, tournament=tournament, round=rnd)
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


# A drawn round taken back before it starts ----------------------------------------------------


def _last_draft(rnd: Round, user: Any) -> Round:
    """``rnd`` locked, if it may be taken back: the tournament running, the round drawn and not
    started, and the last one."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)
    Tournament.objects.select_for_update().get(pk=rnd.tournament_id)
    _check_running(rnd.tournament, gettext("Rounds are changed while the tournament is running."))
    if rnd.status != Round.Status.DRAFT:
        raise TournamentError(
            gettext(
                "Round %(number)s has started: only a drawn round not started yet can be redrawn or deleted."
            )
            % {"number": rnd.number}
        )
    last = rnd.tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    if last != rnd.number:
        raise TournamentError(gettext("Only the last round drawn can be redrawn or deleted."))
    return rnd


def _round_remove(rnd: Round, user: Any) -> None:
    """Delete a drawn round and its tables, each with its history row (who removed it): a drawn
    round's tables have no match yet (``round_start`` makes them), and nothing else points at them."""
    for table in rnd.tables.all():
        table._history_user = user
        table.delete()
    rnd._history_user = user
    rnd.delete()


def _draws_at_random(tournament: Tournament, number: int) -> bool:
    """The round drawn by lot (from the tournament's seed): a concours's first round (unless seeded
    by rating), an individual event's first round (the movement relabels the players by the seed).
    Every other round follows from the standings, the schedule or the bracket: drawn again, it is
    the same."""
    if number != 1:
        return False
    if tournament.format == Tournament.Format.CONCOURS:
        return not tournament.seed_by_rating
    return tournament.format == Tournament.Format.INDIVIDUAL


def _pairings_of(rnd: Round) -> frozenset:
    """Who plays whom in ``rnd``, whatever the table numbers and sides: each table's two sides (a
    team, or an individual round's partnership; a bye's empty side)."""
    rows = rnd.tables.values_list("entry0_id", "partner0_id", "entry1_id", "partner1_id")
    return frozenset(frozenset((frozenset((a, pa)), frozenset((b, pb)))) for a, pa, b, pb in rows)


@transaction.atomic
def round_delete(*, rnd: Round, user: Any = None) -> None:
    """Delete a drawn round before it starts (the last one only), its tables with it; audited (the
    round's and the tables' history keep them, and who deleted them). The next draw makes it again."""
    rnd = _last_draft(rnd, user)
    tournament_id = rnd.tournament_id
    _round_remove(rnd, user)
    sync.tournament_touch(tournament_id)
    live.publish(tournament_id, "round")


@transaction.atomic
def round_redraw(*, rnd: Round, user: Any = None) -> Round:
    """Draw a drawn round again before it starts (the last one only): it is deleted and drawn anew.

    Where the format draws by lot (a concours's first round, an individual event's first round), a
    new seed is drawn and stored (``Tournament.seed``, audited: the new draw can still be shown and
    made again), until the pairings differ from the old ones. Elsewhere the draw follows from the
    standings (Swiss, a concours's later rounds), the schedule (round robin, pools) or the bracket:
    the same pairings come again, which undoes the organizer's swaps."""
    rnd = _last_draft(rnd, user)
    tournament = Tournament.objects.get(pk=rnd.tournament_id)
    number, before = rnd.number, _pairings_of(rnd)
    _round_remove(rnd, user)
    if not _draws_at_random(tournament, number):
        return _round_draw(tournament=tournament, user=user)
    for _ in range(20):  # two teams (or players) have one draw only: give up after a few seeds
        tournament.seed = new_seed()
        tournament._history_user = user
        tournament.save(update_fields=["seed"])
        with transaction.atomic():  # a draw that gives the same pairings is undone, and another seed tried
            drawn = _round_draw(tournament=tournament, user=user)
            if _pairings_of(drawn) != before:
                return drawn
            transaction.set_rollback(True)
    return _round_draw(tournament=tournament, user=user)

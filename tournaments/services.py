"""Writes for tournaments: set-up, entries, rounds, standings. Pure pairing and
standings code lives in ``pairing/`` and ``standings/``; this layer feeds them
rows and saves what they return."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.db import NotSupportedError, transaction
from django.db.models import Case, Exists, F, Func, IntegerField, OuterRef, Q, When
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext
from simple_history.utils import bulk_create_with_history

from players.models import Player
from players.services import player_create, team_get_or_create
from scoring import engine
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.messages import engine_message, engine_sentence
from scoring.models import Match
from scoring.signals import MatchResult

from . import after_response, pairing, standings
from .models import Entry, Round, StandingsSnapshot, Table, Tournament

logger = logging.getLogger(__name__)
ACTIVE = (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)
STAGE_KINDS = (Round.Kind.SWISS, Round.Kind.ROUND_ROBIN)
PLAYOFF_ORDER = ("match_points", "point_difference", "game_points")


class TournamentError(ValueError):
    """An organizer's request that cannot be done now, in plain words."""


# Set-up ----------------------------------------------------------------------


def _match_options(ruleset: str, options: dict[str, Any] | None, deals: int) -> dict[str, Any]:
    rules = engine.get_ruleset(ruleset)
    opts = rules.options({**(options or {}), "deals": deals})
    return rules.spelt_out(opts)


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


SETTINGS = (
    "name",
    "ruleset",
    "options",
    "format",
    "swiss_rounds",
    "knockout_size",
    "tiebreaks",
    "deals_per_match",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "playoff_deals",
    "cuts",
    "public",
    "signup_open",
    "starts_on",
    "confirmation",
)


def _check_settings(values: dict[str, Any]) -> dict[str, Any]:
    try:
        standings.validate_order(values.get("tiebreaks") or standings.DEFAULT_ORDER)
    except ValueError as error:
        raise TournamentError(gettext("Tie-breaks: %(error)s") % {"error": error}) from None
    values["tiebreaks"] = list(values.get("tiebreaks") or standings.DEFAULT_ORDER)
    cuts = values.get("cuts") or []
    if any(not isinstance(c, int) or c < 1 for c in cuts):
        raise TournamentError(gettext("Cuts are places: whole numbers from 1."))
    values["cuts"] = sorted(set(cuts))
    if values.get("format") == Tournament.Format.SWISS and not values.get("swiss_rounds"):
        raise TournamentError(gettext("A Swiss tournament needs a number of rounds."))
    if values.get("knockout_size", 0) == 1:
        raise TournamentError(gettext("A knockout stage needs at least 2 teams (0 for none)."))
    ruleset = values.get("ruleset", "mpourloto")
    try:
        values["options"] = _match_options(ruleset, values.get("options"), values.get("deals_per_match") or 0)
    except engine.ScoringError as error:
        raise TournamentError(
            gettext("Rules: %(error)s") % {"error": engine_message(error.message)}
        ) from None
    return values


@transaction.atomic
def tournament_create(*, organizer: Any, name: str, **settings: Any) -> Tournament:
    unknown = set(settings) - set(SETTINGS)
    if unknown:
        raise TournamentError(gettext("Unknown setting %(name)r.") % {"name": sorted(unknown)[0]})
    if not name.strip():
        raise TournamentError(gettext("A tournament needs a name."))
    values = _check_settings({"name": name.strip(), **settings})
    tournament = Tournament(organizer=organizer, slug=_unique_slug(name), **values)
    tournament._history_user = organizer
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, user: Any, **settings: Any) -> Tournament:
    """Change the set-up; only before the start (the rules and tie-breaks never change silently)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(
            gettext("The tournament has started: its rules, format and tie-breaks are fixed.")
        )
    current = {name: getattr(tournament, name) for name in SETTINGS}
    if settings.get("ruleset", tournament.ruleset) != tournament.ruleset and "options" not in settings:
        current["options"] = {}  # another game: its own options, at their defaults
    values = _check_settings({**current, **settings})
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament._history_user = user
    tournament.save()
    return tournament


# Entries ---------------------------------------------------------------------


def _team(name: str, players: Sequence[str], player_ids: Sequence[int | None] | None, user: Any):
    """The entry's team: the players picked by ``player_ids`` (ones ``user`` may see), new players for
    the other names. A typed name never joins an existing person to the tournament."""
    if len(players) != 2:
        raise TournamentError(gettext("A team has two players."))
    try:
        _, given = scoring_selectors.team_entry(
            name=name, players=players, player_ids=player_ids, user=user, field="players"
        )
        typed = [" ".join(p.split()).casefold() for p in given if isinstance(p, str)]
        if len(typed) == 2 and typed[0] == typed[1]:
            raise TournamentError(gettext("A team has two different players."))
        a, b = (p if isinstance(p, Player) else player_create(name=p) for p in given)
        if a == b:
            raise TournamentError(gettext("A team has two different players."))
        return team_get_or_create(name=name, players=(a, b))
    except engine.ScoringError as error:
        raise TournamentError(engine_sentence(error.message)) from None


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    name: str,
    players: Sequence[str],
    status: str = Entry.Status.REGISTERED,
    contact="",
    player_ids: Sequence[int | None] | None = None,
    user: Any = None,
) -> Entry:
    """Enter a team. Names make new players; the organizer (``user``) may pick existing players,
    ones they may see, by ``player_ids`` (two ids or nulls, beside the names)."""
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(gettext("Registration is closed: the tournament has started."))
    team = _team(name, players, player_ids, user)
    if Entry.objects.filter(tournament=tournament, team=team).exists():
        raise TournamentError(gettext("%(team)s is already entered.") % {"team": team.name})
    taken = Entry.objects.filter(tournament=tournament).exclude(status=Entry.Status.WITHDRAWN)
    clash = taken.filter(Q(team__player_a__in=team.players) | Q(team__player_b__in=team.players)).first()
    if clash is not None:
        raise TournamentError(
            gettext("A player of %(team)s already plays for %(other)s.")
            % {"team": team.name, "other": clash.team.name}
        )
    return Entry.objects.create(tournament=tournament, team=team, status=status, contact=contact)


def entry_signup(*, tournament: Tournament, name: str, players: Sequence[str], contact: str = "") -> Entry:
    """A public sign-up: the entry waits for the organizer's approval. Its names are always new players:
    whoever signs up cannot attach anyone existing (the organizer may, by registering them)."""
    if not tournament.signup_open or not tournament.public:
        raise TournamentError(gettext("This tournament takes no sign-ups."))
    return entry_register(
        tournament=tournament, name=name, players=players, status=Entry.Status.PENDING, contact=contact
    )


@transaction.atomic
def entry_set_status(*, entry: Entry, status: str, user: Any = None) -> Entry:
    """Approve (registered), check in, undo a check-in, or withdraw an entry."""
    entry = Entry.objects.select_for_update().select_related("tournament").get(pk=entry.pk)
    tournament = entry.tournament
    if entry.status == Entry.Status.WITHDRAWN:
        raise TournamentError(gettext("%(team)s has withdrawn.") % {"team": entry.team.name})
    if status == Entry.Status.WITHDRAWN:
        entry.withdrawn_at = timezone.now()
    elif tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(
            gettext("The tournament has started: only a withdrawal can change an entry now.")
        )
    entry.status = status
    entry._history_user = user
    entry.save()
    if status == Entry.Status.WITHDRAWN and tournament.status == Tournament.Status.RUNNING:
        standings_request(tournament.pk)
    return entry


@transaction.atomic
def tournament_start(*, tournament: Tournament, user: Any = None) -> Tournament:
    """Fix the teams that play: the checked-in ones if any team checked in, else every registered one."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(gettext("The tournament has already started."))
    entries = tournament.entries.filter(status__in=ACTIVE)
    if entries.filter(status=Entry.Status.CHECKED_IN).exists():
        entries = entries.filter(status=Entry.Status.CHECKED_IN)
    ids = list(entries.order_by("seed", "pk").values_list("pk", flat=True))
    if len(ids) < 2:
        raise TournamentError(gettext("At least two teams are needed to start."))
    tournament.participants = ids
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament._history_user = user
    tournament.save()
    StandingsSnapshot.objects.update_or_create(tournament=tournament, defaults={"rows": [], "playoffs": []})
    standings_request(tournament.pk)
    return tournament


# Standings -------------------------------------------------------------------


def _scoring(tournament: Tournament) -> standings.Scoring:
    return standings.Scoring(
        win=tournament.points_win,
        draw=tournament.points_draw,
        loss=tournament.points_loss,
        bye=tournament.points_bye,
    )


class _Integer:
    """An integer the database works out, taken as it comes: Django would otherwise call ``int()``
    on every value, thousands of times for a tournament's standings."""

    output_field = IntegerField()

    def get_db_converters(self, connection) -> list:
        return []


class _Counts(_Integer, Case):
    """1 for a table whose result counts, else 0."""


class _Side(_Integer, Func):
    """One side's number of a match's JSON pair (``totals``, ``suffered``), read by the database,
    on the two databases Tsoxa runs on: one path lookup per value, where Django's key transforms
    add type checks a pair of integers does not need (they made the read a third slower at 1,000
    teams on SQLite)."""

    def __init__(self, field: str, side: int) -> None:
        super().__init__(F(f"match__{field}"))
        self.side = int(side)

    def as_sql(self, compiler, connection, **extra):
        raise NotSupportedError("the standings read match totals on SQLite or PostgreSQL")

    def as_postgresql(self, compiler, connection, **extra):  # jsonb
        template = f"((%(expressions)s ->> {self.side})::integer)"
        return super().as_sql(compiler, connection, template=template, **extra)

    def as_sqlite(self, compiler, connection, **extra):
        template = f"JSON_EXTRACT(%(expressions)s, '$[{self.side}]')"
        return super().as_sql(compiler, connection, template=template, **extra)


def _results(tournament: Tournament) -> tuple[list[standings.Result], list[list[standings.Result | None]]]:
    """The results the standings count, in one query of the columns they read: every bye and
    counted match of the stage (Swiss or round robin rounds), and each finished play-off's tables
    in the order the play-offs were played (None for a table whose match does not count yet).

    A match counts once finished, and, in a tournament with confirmation, once confirmed."""
    counted = Q(match__status=Match.Status.FINISHED)
    if tournament.confirmation:
        counted &= Q(match__confirmed_at__isnull=False)
    rows = (
        Table.objects.filter(round__tournament=tournament)
        .filter(
            Q(round__kind__in=STAGE_KINDS)
            | Q(round__kind=Round.Kind.PLAYOFF, round__status=Round.Status.FINISHED)
        )
        .annotate(
            counts=_Counts(When(counted, then=1), default=0),
            points0=_Side("totals", 0),
            points1=_Side("totals", 1),
            suffered0=_Side("suffered", 0),
            suffered1=_Side("suffered", 1),
        )
        .order_by()
        .values_list(
            "round__kind",
            "round__number",
            "entry0_id",
            "entry1_id",
            "counts",
            "match__winner",
            "points0",
            "points1",
            "suffered0",
            "suffered1",
        )
    )
    Result = standings.Result
    stage: list[standings.Result] = []
    playoffs: dict[int, list[standings.Result | None]] = {}
    for kind, number, a, b, counts, winner, p0, p1, s0, s1 in rows:
        if b is None:
            result = Result(a, None, (0, 0), 0)
        elif counts:  # positional: a few milliseconds less at 1,000 teams
            result = Result(a, b, (p0 or 0, p1 or 0), winner, (s0 or 0, s1 or 0))
        else:
            result = None
        if kind == Round.Kind.PLAYOFF:
            playoffs.setdefault(number, []).append(result)
        elif result is not None:
            stage.append(result)
    return stage, [playoffs[number] for number in sorted(playoffs)]


def standings_compute(tournament: Tournament) -> list[standings.Row]:
    """The stage's standings (Swiss or round robin rounds), play-off results applied at the cuts."""
    stage, playoffs = _results(tournament)
    rows = standings.compute_standings(
        tournament.participants, stage, tournament.tiebreaks, _scoring(tournament)
    )
    return _apply_playoffs(rows, playoffs)


def _apply_playoffs(
    rows: list[standings.Row], playoffs: Sequence[Sequence[standings.Result | None]]
) -> list[standings.Row]:
    """Teams level at a cut take the order of their finished, decisive play-off."""
    rows = list(rows)
    for results in playoffs:
        if any(r is None for r in results):
            continue
        group = {e for r in results for e in (r.a, r.b) if e is not None}
        positions = [i for i, row in enumerate(rows) if row.entry in group]
        if len(positions) != len(group) or len({rows[i].rank for i in positions}) != 1:
            continue  # no longer the level group it was played for
        mini = standings.compute_standings(sorted(group), results, PLAYOFF_ORDER)
        if len({row.rank for row in mini}) < len(mini):
            continue  # the play-off left them level: another one is due
        base = rows[positions[0]].rank
        by_entry = {rows[i].entry: rows[i] for i in positions}
        for k, (i, row) in enumerate(zip(positions, mini, strict=True)):
            rows[i] = dataclasses.replace(by_entry[row.entry], rank=base + k)
    return rows


def _snapshot_rows(tournament: Tournament, rows: list[standings.Row]) -> list[dict[str, Any]]:
    """The rows as stored and served: the standings beside each team's name, players and status
    (one query of those columns)."""
    entries = {
        pk: (team, [player_a, player_b], status == Entry.Status.WITHDRAWN)
        for pk, team, player_a, player_b, status in Entry.objects.filter(tournament=tournament)
        .order_by()
        .values_list("pk", "team__name", "team__player_a__name", "team__player_b__name", "status")
    }
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
            "values": dict(row.values),
        }
        for row in rows
    ]


def _stage_rounds(tournament: Tournament) -> int:
    if tournament.format == Tournament.Format.SWISS:
        return tournament.swiss_rounds
    return len(pairing.round_robin(tournament.participants))


def _stage_complete(tournament: Tournament) -> bool:
    stage = tournament.rounds.filter(kind__in=STAGE_KINDS)
    return (
        stage.count() >= _stage_rounds(tournament)
        and not stage.exclude(status=Round.Status.FINISHED).exists()
    )


def _pending_playoffs(tournament: Tournament) -> bool:
    return tournament.rounds.filter(kind=Round.Kind.PLAYOFF).exclude(status=Round.Status.FINISHED).exists()


def _close_finished_rounds(tournament: Tournament) -> None:
    """A started round whose every match is finished (and confirmed, if asked) is finished: one
    query finds them, whatever the number of rounds; each one closed is saved with its history."""
    open_match = Q(match__isnull=True) | ~Q(match__status=Match.Status.FINISHED)
    if tournament.confirmation:
        open_match |= Q(match__confirmed_at__isnull=True)
    open_tables = Table.objects.filter(open_match, round=OuterRef("pk"), entry1__isnull=False)
    for rnd in tournament.rounds.filter(status=Round.Status.STARTED).exclude(Exists(open_tables)):
        rnd.status = Round.Status.FINISHED
        rnd.save(update_fields=["status"])


def _round_states(tournament: Tournament) -> tuple[bool, bool]:
    """Whether the stage is complete and whether a play-off is pending, from one query."""
    stage = open_stage = pending = 0
    for kind, status in tournament.rounds.order_by().values_list("kind", "status"):
        finished = status == Round.Status.FINISHED
        if kind in STAGE_KINDS:
            stage += 1
            open_stage += not finished
        elif kind == Round.Kind.PLAYOFF:
            pending += not finished
    return stage >= _stage_rounds(tournament) and not open_stage, bool(pending)


def _ties_at_cuts(tournament: Tournament, rows: list[standings.Row]) -> list[dict[str, Any]]:
    ties = []
    for cut in tournament.cuts:
        level = standings.level_at_cut(rows, cut)
        if level:
            ties.append({"cut": cut, "entries": level})
    return ties


@transaction.atomic
def standings_refresh(*, tournament_id: int) -> StandingsSnapshot | None:
    """Recompute and store the standings; close finished rounds; start play-offs the cuts need.

    Safe to run twice: it only reads the matches and writes the snapshot.
    """
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None or tournament.status == Tournament.Status.REGISTRATION:
        return None
    _close_finished_rounds(tournament)
    rows = standings_compute(tournament)
    complete, playoffs_pending = _round_states(tournament)
    ties = _ties_at_cuts(tournament, rows) if complete else []
    # Locked, without reading the rows it is about to replace.
    stored = StandingsSnapshot.objects.select_for_update().defer("rows", "playoffs")
    snapshot, _ = stored.get_or_create(tournament=tournament)
    snapshot.rows = _snapshot_rows(tournament, rows)
    snapshot.playoffs = [
        {**tie, "pending": True, "teams": [r["team"] for r in snapshot.rows if r["entry"] in tie["entries"]]}
        for tie in ties
    ]
    snapshot.version += 1
    snapshot.save(update_fields=["rows", "playoffs", "version", "computed_at"])
    if ties and not playoffs_pending:
        transaction.on_commit(lambda: _queue_playoffs(tournament.pk))
    elif not ties and complete and not tournament.knockout_size and not playoffs_pending:
        _finish(tournament)
    transaction.on_commit(lambda: _publish(snapshot))
    return snapshot


def _publish(snapshot: StandingsSnapshot) -> None:
    """The committed standings replace the cached ones (readers only ever add)."""
    from .selectors import standings_data

    cache.set(standings_cache_key(snapshot.tournament_id), standings_data(snapshot), timeout=300)


def _finish(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.FINISHED and not _pending_playoffs(tournament):
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])


def standings_cache_key(tournament_id: int) -> str:
    return f"standings-page:{tournament_id}"


def _queue_key(tournament_id: int) -> str:
    return f"standings-queued:{tournament_id}"


def standings_affected(before: MatchResult, after: MatchResult, *, confirmation: bool = True) -> bool:
    """Whether a change of a match can change the standings: it finished, or it was finished and
    is corrected (its totals, winner or suffered deals), unfinished again, or, when the tournament
    asks for confirmation, confirmed or unconfirmed. A deal of a match in play changes nothing."""
    if not (before.finished or after.finished):
        return False
    if not confirmation:
        before = dataclasses.replace(before, confirmed=False)
        after = dataclasses.replace(after, confirmed=False)
    return before != after


def standings_request(tournament_id: int) -> None:
    """Ask for a recomputation once the current transaction commits.

    A burst of results queues one task per tournament: the first request after
    the commit sets a flag the task clears when it starts (and reads the results
    after that); requests meanwhile find the flag set. With no broker (the task
    runs eagerly, in this process) it waits until the response of the request
    that asked has been sent (``after_response``). Neither a cache nor a broker
    that is down stops a deal from being recorded: the failure is logged, and
    the standings catch up when a worker starts (``standings_catch_up``) or with
    the next result.
    """
    transaction.on_commit(lambda: _queue_standings(tournament_id))


def _queue_standings(tournament_id: int) -> None:
    from .tasks import standings_recompute

    try:
        first = cache.add(_queue_key(tournament_id), 1, timeout=30)
    except Exception:  # the cache is down: queue anyway, the task is safe to run twice
        logger.warning("standings: cache unavailable, queueing without coalescing", exc_info=True)
        first = True
    if not first:
        return
    if standings_recompute.app.conf.task_always_eager:
        after_response.run_after_response(lambda: _send_standings(tournament_id))
    else:
        _send_standings(tournament_id)


def _send_standings(tournament_id: int) -> None:
    from .tasks import standings_recompute

    try:
        standings_recompute.apply_async((tournament_id,), countdown=1)
    except Exception:  # the broker is down: the deal is saved; a later deal or a worker start catches up
        logger.warning("standings: could not queue tournament %s", tournament_id, exc_info=True)
        try:
            cache.delete(_queue_key(tournament_id))
        except Exception:
            logger.warning("standings: cache unavailable", exc_info=True)


def standings_started(tournament_id: int) -> None:
    """The task has begun: later changes must queue a new run."""
    try:
        cache.delete(_queue_key(tournament_id))
    except Exception:
        logger.warning("standings: cache unavailable", exc_info=True)


def standings_stale() -> list[int]:
    """Running tournaments whose standings are older than one of their matches."""
    from django.db.models import Max, OuterRef, Subquery

    latest = (
        Match.objects.filter(table__round__tournament=OuterRef("pk"))
        .values("table__round__tournament")
        .annotate(last=Max("updated_at"))
        .values("last")
    )
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    running = running.annotate(last_change=Subquery(latest))  # the dates only, not the stored rows
    return [
        pk
        for pk, last_change, computed_at in running.values_list("pk", "last_change", "standings__computed_at")
        if last_change is not None and (computed_at is None or computed_at < last_change)
    ]


def _queue_playoffs(tournament_id: int) -> None:
    from .tasks import playoffs_create

    playoffs_create.delay(tournament_id)


# Rounds ----------------------------------------------------------------------


def _playing(tournament: Tournament) -> list[int]:
    withdrawn = set(tournament.entries.filter(status=Entry.Status.WITHDRAWN).values_list("pk", flat=True))
    return [e for e in tournament.participants if e not in withdrawn]


def _played_pairs(tournament: Tournament) -> set[frozenset[int]]:
    pairs = Table.objects.filter(round__tournament=tournament, entry1__isnull=False)
    return {frozenset(p) for p in pairs.values_list("entry0_id", "entry1_id")}


def _byes(tournament: Tournament) -> set[int]:
    byes = Table.objects.filter(round__tournament=tournament, entry1__isnull=True)
    return set(byes.values_list("entry0_id", flat=True))


def _next_pairs(tournament: Tournament) -> tuple[str, list[pairing.Pair]]:
    stage = tournament.rounds.filter(kind__in=STAGE_KINDS)
    done = stage.count()
    if done < _stage_rounds(tournament):
        playing = _playing(tournament)
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            pairs = []
            for pair in pairing.round_robin(tournament.participants)[done]:
                a_in, b_in = pair.a in playing, pair.b is not None and pair.b in playing
                if a_in and b_in:
                    pairs.append(pair)
                elif a_in or b_in:  # the opponent withdrew: a bye
                    pairs.append(pairing.Pair(pair.a if a_in else pair.b, None))
            return Round.Kind.ROUND_ROBIN, pairs
        rows = {row.entry: row for row in standings_compute(tournament)}
        byes = _byes(tournament)
        entries = [
            pairing.SwissEntry(
                entry=e, score=rows[e].values["match_points"], rank=rows[e].rank, had_bye=e in byes
            )
            for e in playing
        ]
        return Round.Kind.SWISS, pairing.swiss_pairs(entries, _played_pairs(tournament))
    if _pending_playoffs(tournament):
        raise TournamentError(gettext("A tie-break play-off is still being played."))
    if not tournament.knockout_size:
        raise TournamentError(gettext("Every round has been played."))
    knockout = list(tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).order_by("number"))
    if not knockout:
        rows = standings_compute(tournament)
        playing = set(_playing(tournament))
        seeds = [row.entry for row in rows if row.entry in playing][: tournament.knockout_size]
        return Round.Kind.KNOCKOUT, pairing.knockout_bracket(seeds)
    winners = _knockout_winners(knockout[-1])
    if len(winners) < 2:
        raise TournamentError(gettext("The knockout is over."))
    return Round.Kind.KNOCKOUT, pairing.knockout_next(winners)


def _knockout_winners(rnd: Round) -> list[int]:
    winners = []
    for table in rnd.tables.select_related("match").order_by("number"):
        if table.is_bye:
            winners.append(table.entry0_id)
        elif table.match is not None and table.match.winner is not None:
            winners.append(table.entry1_id if table.match.winner else table.entry0_id)
    return winners


@transaction.atomic
def round_generate(*, tournament: Tournament, user: Any = None) -> Round:
    """Draw the next round's pairings and number the tables (a draft until it starts)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError(gettext("Rounds are drawn while the tournament is running."))
    if tournament.rounds.exclude(status=Round.Status.FINISHED).exclude(kind=Round.Kind.PLAYOFF).exists():
        raise TournamentError(gettext("The current round is not finished yet."))
    try:
        kind, pairs = _next_pairs(tournament)
        playing = [e for pair in pairs for e in (pair.a, pair.b) if e is not None]
        if kind == Round.Kind.SWISS:  # one bye at most, to a team that has had none while one is left
            pairing.check_pairing(playing, pairs, _played_pairs(tournament), byes=_byes(tournament))
        else:  # a bracket or a round robin with withdrawals may give several byes
            pairing.check_pairing(playing, pairs, max_byes=None)
    except pairing.PairingError as error:
        raise TournamentError(
            gettext("The pairing was not valid, nothing was saved: %(error)s") % {"error": error}
        ) from None
    number = (tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    rnd = Round(tournament=tournament, number=number, kind=kind)
    rnd._history_user = user
    rnd.save()
    _save_tables(rnd, pairs, byes_last=kind != Round.Kind.KNOCKOUT, user=user)
    return rnd


def _save_tables(
    rnd: Round, pairs: Sequence[pairing.Pair], *, byes_last: bool = True, user: Any = None
) -> None:
    """Number the tables in the pairing's order; byes last, except in a bracket (its order is the draw).
    Saved in one go, each with its history row (who drew the round)."""
    if byes_last:
        pairs = [p for p in pairs if p.b is not None] + [p for p in pairs if p.b is None]
    tables = [
        Table(round=rnd, number=number, entry0_id=pair.a, entry1_id=pair.b)
        for number, pair in enumerate(pairs, start=1)
    ]
    bulk_create_with_history(tables, Table, default_user=user)


@transaction.atomic
def round_swap(*, rnd: Round, first: tuple[int, int], second: tuple[int, int], user: Any = None) -> Round:
    """Swap two teams of a drawn round: (table number, side 0 or 1) each."""
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
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
    return rnd


@transaction.atomic
def round_start(*, rnd: Round, user: Any = None) -> Round:
    """Open a match at every table; each table's scorekeeper link now opens its sheet."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)
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
    standings_request(tournament.pk)
    return rnd


@transaction.atomic
def playoffs_create(*, tournament_id: int) -> list[Round]:
    """A short play-off for each group of teams level at a cut that has none under way."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    if tournament.status != Tournament.Status.RUNNING or _pending_playoffs(tournament):
        return []
    if not _stage_complete(tournament):
        return []
    created = []
    for tie in _ties_at_cuts(tournament, standings_compute(tournament)):
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

"""The standings of a 1,000-team, 10-round Swiss: a full recompute, and the update after one result.

Measured: the time of a full recompute of the standings (the snapshot and its cache rewritten
from every result) and of the update that follows one result (a finished match corrected, as at
the scorer's table), each the median and worst of a few runs, beside the targets; and the SQL
queries of each (counted in a run of their own, not a timed one), which must not grow with the
tournament (a 16-team tournament is measured alongside: the command fails if they differ).
Absolute times are printed, not enforced.

The tournament is built quickly (players, teams, entries, rounds, tables and matches written in
bulk, each match's result drawn at random), as ``benchmarks/swiss.py`` fills its results: the
building is set-up, not a figure. Only the measured match is played through the services.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from players.models import Player, Team
from scoring import services as scoring
from scoring.models import Match
from tournaments import after_response, services
from tournaments.models import Entry, Round, Table, Tournament

TEAMS = 1000
ROUNDS = 10
REPEATS = 7
FULL_TARGET_MS = 150
UPDATE_TARGET_MS = 50
WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62
WIN_1 = {"maker": 1, "card_points": [62, 90], "last_trick": 1}  # 62 v 100


def _entries(tournament: Tournament, teams: int) -> list[Entry]:
    tag = f"{tournament.pk}-"
    players = Player.objects.bulk_create(
        [Player(name=f"{side}{tag}{i}") for i in range(teams) for side in ("A", "B")]
    )
    made = Team.objects.bulk_create(
        [
            Team(name=f"Team {tag}{i}", player_a=players[2 * i], player_b=players[2 * i + 1])
            for i in range(teams)
        ]
    )
    return Entry.objects.bulk_create([Entry(tournament=tournament, team=team) for team in made])


def _result(rng: random.Random) -> dict:
    """A finished one-deal-a-match result: the winner's 100 or more against the other's points."""
    roll = rng.random()
    if roll < 0.05:  # a draw, now and then
        return {"winner": None, "totals": [81, 81], "suffered": [0, 0]}
    winner = int(roll < 0.5)
    points = [rng.randint(0, 99), rng.randint(100, 162)]
    if winner == 0:
        points.reverse()
    suffered = [0, 0]
    if rng.random() < 0.1:
        suffered[1 - winner] = 1
    return {"winner": winner, "totals": points, "suffered": suffered}


def _round(tournament: Tournament, number: int, entries: list[Entry], rng: random.Random, *, last: bool):
    """A round of random pairs (a bye for an odd one out), every match finished but, in the last
    round, the one at table 1, left unplayed for the benchmark to play through the services."""
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        kind=Round.Kind.SWISS,
        status=Round.Status.STARTED,
        started_at=timezone.now(),
    )
    order = list(entries)
    rng.shuffle(order)
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
    now = timezone.now()
    matches = []
    for number_at, (a, b) in enumerate(pairs, start=1):
        match = Match(
            ruleset=tournament.ruleset,
            options={**tournament.options, "deals": 1},
            team0=a.team,
            team1=b.team,
            seat0=a.team.player_a,
            seat1=b.team.player_a,
            seat2=a.team.player_b,
            seat3=b.team.player_b,
            totals=[0, 0],
            suffered=[0, 0],
        )
        if not (last and number_at == 1):
            result = _result(rng)
            match.status, match.winner = Match.Status.FINISHED, result["winner"]
            match.totals, match.suffered = result["totals"], result["suffered"]
            match.finished_at, match.version = now, 1
        matches.append(match)
    matches = Match.objects.bulk_create(matches, batch_size=500)
    tables = [
        Table(round=rnd, number=n, entry0=a, entry1=b, match=m)
        for n, ((a, b), m) in enumerate(zip(pairs, matches, strict=True), start=1)
    ]
    if len(order) % 2:
        tables.append(Table(round=rnd, number=len(pairs) + 1, entry0=order[-1]))
    Table.objects.bulk_create(tables, batch_size=500)
    if not last:
        Round.objects.filter(pk=rnd.pk).update(status=Round.Status.FINISHED)
    return rnd


def build(teams: int, rounds: int, rng: random.Random) -> tuple[Tournament, Match]:
    """A running Swiss of ``teams`` teams in its last round: every match finished but one, which is
    returned (one deal a match: its one deal finishes it)."""
    organizer, _ = get_user_model().objects.get_or_create(username=f"bench-standings-{teams}")
    settings = {"swiss_rounds": rounds + 1, "deals_per_match": 1, "rated": False}  # ratings: ratings.py
    tournament = services.tournament_create(organizer=organizer, name=f"Standings {teams}", **settings)
    entries = list(
        Entry.objects.filter(pk__in=[e.pk for e in _entries(tournament, teams)]).select_related(
            "team__player_a", "team__player_b"
        )
    )
    tournament = services.tournament_start(tournament=tournament)
    for number in range(1, rounds + 1):
        last = _round(tournament, number, entries, rng, last=number == rounds)
    return tournament, last.tables.get(number=1).match


def timed(step: Callable[[], object]) -> tuple[float, float]:
    """The step's wall and CPU time (seconds: this thread's, SQLite's work included, not a
    PostgreSQL server's)."""
    started, cpu = time.perf_counter(), time.thread_time()
    step()
    return time.perf_counter() - started, time.thread_time() - cpu


def counted(step: Callable[[], object]) -> int:
    """The step's SQL queries, from a run of its own: recording them (Django's debug cursor keeps
    every statement's text, the snapshot's whole JSON among them) would weigh on a timed run, and a
    worker records nothing."""
    with CaptureQueriesContext(connection) as queries:
        step()
    return len(queries.captured_queries)


def measure(tournament: Tournament, match: Match, repeats: int) -> dict[str, tuple[list, int]]:
    """The full recompute's and the update's times (wall, CPU), and their queries (a run more).

    The update is the work a result leaves for after its response (with no broker; a worker runs
    the same task): a correction of the finished match, its winner changed each time."""

    def recompute() -> None:
        services.standings_refresh(tournament_id=tournament.pk)

    full = [timed(recompute) for _ in range(repeats)]
    full_queries = counted(recompute)
    deal = scoring.deal_record(match=match, deal=WIN_0)  # the last match finishes
    update, update_queries = [], 0
    for n in range(repeats + 1):
        with after_response.held() as work:
            deal = scoring.deal_correct(deal=deal, data=WIN_1 if n % 2 == 0 else WIN_0)
        if len(work) != 1:
            raise SystemExit(f"one result changed, {len(work)} standings updates queued")
        if n < repeats:
            update.append(timed(work[0]))
        else:
            update_queries = counted(work[0])
    return {"full": (full, full_queries), "update": (update, update_queries)}


def ms(times: list[tuple[float, float]], target: int) -> str:
    wall, cpu = [t[0] * 1000 for t in times], [t[1] * 1000 for t in times]
    return (
        f"median {statistics.median(wall):5.1f} ms, worst {max(wall):5.1f} ms "
        f"(CPU median {statistics.median(cpu):5.1f} ms), target ≤ {target} ms"
    )


def run() -> None:
    rng = random.Random(1000)
    print(f"Standings: {TEAMS:,} teams, {ROUNDS} rounds of results ({connection.vendor})")
    started = time.perf_counter()
    big, big_match = build(TEAMS, ROUNDS, rng)
    print(f"  built in {time.perf_counter() - started:.1f} s (set-up, not a figure)")
    small, small_match = build(16, 4, rng)
    if connection.vendor == "postgresql":  # a database in use has its statistics (autovacuum's)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    figures = measure(big, big_match, REPEATS)
    small_figures = measure(small, small_match, 2)
    grew = []
    for key, label, target in (
        ("full", "full recompute:          ", FULL_TARGET_MS),
        ("update", "update after one result: ", UPDATE_TARGET_MS),
    ):
        times, queries = figures[key]
        small_queries = small_figures[key][1]
        print(f"{label}{ms(times, target)} · {queries} SQL queries (16 teams: {small_queries})")
        if queries != small_queries:
            grew.append(key)
    if grew:
        raise SystemExit(f"the standings' queries grow with the tournament: {', '.join(grew)}")

"""The players' ratings over 5,000 rated matches of 200 players: a full run and the runs that follow.

Measured, each the median and worst of a few runs, with its SQL queries:

- the rating alone (``league.ratings.rate_matches`` over the results already read: the library's
  work, no database);
- the first run (``ratings_refresh`` on an empty history: every result read and rated, 200
  players' ratings and 20,000 history points written);
- a run with nothing changed (everything read and rated again, nothing written);
- the run after one more result (the usual case: a match finished; its four players' ratings and
  points written);
- the run after the first result is corrected (the worst case: every later point changes and is
  written again).

Absolute times are printed, not enforced: a full recompute every run is the design (deterministic,
corrections and merges just run it again), and this says what it costs.

The results are built quickly, as ``benchmarks/standings.py`` builds its tournament: one rated
tournament whose rounds seat the 200 players four to a table at random (partners change every
round, as in an individual event), every match finished one second after the one before, the
winner drawn at random (a draw now and then), all written in bulk. The building is set-up, not a
figure.
"""

from __future__ import annotations

import datetime
import random
import statistics
import time
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from league import ratings
from league.models import RatingPoint
from players.models import Player, Team
from scoring.models import Match
from tournaments import services
from tournaments.models import Entry, Round, Table, Tournament

PLAYERS = 200
MATCHES = 5000
REPEATS = 5


def build(rng: random.Random) -> Tournament:
    """A running, rated tournament with ``MATCHES`` finished matches of ``PLAYERS`` players."""
    organizer, _ = get_user_model().objects.get_or_create(username="bench-ratings")
    tournament = services.tournament_create(organizer=organizer, name="Ratings", deals_per_match=1)
    players = Player.objects.bulk_create([Player(name=f"Rated {i}") for i in range(PLAYERS)])
    teams = Team.objects.bulk_create(
        [
            Team(name=f"Pair {i}", player_a=players[2 * i], player_b=players[2 * i + 1])
            for i in range(PLAYERS // 2)
        ]
    )
    entries = Entry.objects.bulk_create([Entry(tournament=tournament, team=team) for team in teams])
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tables_a_round = PLAYERS // 4
    start = timezone.now() - datetime.timedelta(days=30)
    number = 0
    for round_number in range(1, MATCHES // tables_a_round + 1):
        rnd = Round.objects.create(
            tournament=tournament, number=round_number, kind=Round.Kind.SWISS, status=Round.Status.FINISHED
        )
        seated = rng.sample(players, PLAYERS)
        matches = []
        for k in range(tables_a_round):
            a, b, c, d = seated[4 * k : 4 * k + 4]
            roll = rng.random()
            number += 1
            matches.append(
                Match(
                    team0=teams[2 * k % len(teams)],
                    team1=teams[(2 * k + 1) % len(teams)],
                    seat0=a,
                    seat1=b,
                    seat2=c,
                    seat3=d,
                    status=Match.Status.FINISHED,
                    winner=None if roll < 0.05 else int(roll < 0.525),
                    totals=[0, 0],
                    suffered=[0, 0],
                    finished_at=start + datetime.timedelta(seconds=number),
                    version=1,
                )
            )
        matches = Match.objects.bulk_create(matches, batch_size=500)
        Table.objects.bulk_create(
            [
                Table(
                    round=rnd,
                    number=n,
                    entry0=entries[2 * (n - 1) % len(entries)],
                    entry1=entries[(2 * n - 1) % len(entries)],
                    match=m,
                )
                for n, m in enumerate(matches, start=1)
            ],
            batch_size=500,
        )
    return tournament


def timed(step: Callable[[], object]) -> tuple[float, int]:
    """The step's wall time (seconds) and its SQL queries."""
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        step()
        elapsed = time.perf_counter() - started
    return elapsed, len(queries.captured_queries)


def figure(label: str, times: list[float], queries: int) -> str:
    ms = [t * 1000 for t in times]
    median, worst = statistics.median(ms), max(ms)
    return f"  {label:<38} median {median:7.1f} ms, worst {worst:7.1f} ms · {queries} SQL queries"


def run() -> None:
    rng = random.Random(200)
    print(f"Ratings: {MATCHES:,} rated matches of {PLAYERS} players ({connection.vendor})")
    started = time.perf_counter()
    # A run of every benchmark leaves the earlier ones' rated tournaments in this database (the Swiss,
    # the exports): the ratings count every rated match of the site, so they are set aside here.
    Tournament.objects.update(rated=False)
    tournament = build(rng)
    print(f"  built in {time.perf_counter() - started:.1f} s (set-up, not a figure)")
    results = ratings.read_results()
    alone = [timed(lambda: ratings.rate_matches(results))[0] for _ in range(REPEATS)]
    print(figure("the rating alone (no database):", alone, 0))

    first = []
    for _ in range(REPEATS):
        RatingPoint.objects.all().delete()
        Player.objects.update(rating=None, rating_mu=None, rating_sigma=None, rated_matches=0)
        elapsed, first_queries = timed(ratings.ratings_refresh)
        first.append(elapsed)
    print(figure("first run (all written):", first, first_queries))
    points = RatingPoint.objects.count()
    if points != 4 * MATCHES:
        raise SystemExit(f"{points} history points written, {4 * MATCHES} expected")

    same = [timed(ratings.ratings_refresh) for _ in range(REPEATS)]
    print(figure("run with nothing changed:", [t for t, _ in same], same[-1][1]))

    last = Match.objects.filter(table__round__tournament=tournament).order_by("-finished_at").first()
    one_more = []
    for n in range(REPEATS):  # the last result comes in again, a second later each time
        Match.objects.filter(pk=last.pk).update(
            finished_at=last.finished_at + datetime.timedelta(seconds=n + 1)
        )
        one_more.append(timed(ratings.ratings_refresh))
    print(figure("run after one more result:", [t for t, _ in one_more], one_more[-1][1]))

    first_match = Match.objects.filter(table__round__tournament=tournament).order_by("finished_at").first()
    corrected = []
    for n in range(REPEATS):  # the first result's winner corrected: every later point moves
        Match.objects.filter(pk=first_match.pk).update(winner=n % 2)
        corrected.append(timed(ratings.ratings_refresh))
    print(figure("run after the first result corrected:", [t for t, _ in corrected], corrected[-1][1]))
    best = Player.objects.filter(rating__isnull=False).order_by("-rating").first()
    print(
        f"  best: {best.rating:.1f} (skill {best.rating_mu:.1f} ± {best.rating_sigma:.1f}, "
        f"{best.rated_matches} matches)"
    )

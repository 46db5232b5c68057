"""A 256-team, 9-round Swiss with 12 deals a match.

Measured: the time to pair each round, to recompute the full standings, to
serve the standings page, and the SQL queries per page (which must not grow
with the tournament: a 16-team tournament is measured alongside).
Results are filled in quickly (deals written in bulk, the match verdicts from
the engine): the filling is set-up, not a figure.
"""

from __future__ import annotations

import random
import statistics
import time

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import engine
from scoring.models import Deal, Match
from scoring.services import suffered
from tournaments import services
from tournaments.models import Round

DEALS = 12


def random_deal(rng: random.Random) -> dict:
    if rng.random() < 0.05:
        return {"thrown_in": True}
    maker = rng.randrange(2)
    points = rng.randint(20, 132)
    cards = [points, 152 - points]
    melds = [[], []]
    if rng.random() < 0.3:
        melds[rng.randrange(2)].append(rng.choice(["seq3", "seq4"]))
    return {"maker": maker, "card_points": cards, "last_trick": rng.randrange(2), "melds": melds}


def fill_round(rnd: Round, rng: random.Random) -> None:
    """Every match of the round played: its deals written in bulk, the verdict from the engine."""
    deals, matches = [], []
    for table in rnd.tables.select_related("match"):
        match = table.match
        if match is None:
            continue
        played = []
        while len([d for d in played if not d.get("thrown_in")]) < DEALS:
            played.append(random_deal(rng))
        sheet = engine.replay(
            match.ruleset, [engine.Deal.from_dict(d) for d in played], options=match.options
        )
        deals += [Deal(match=match, position=i + 1, data=d) for i, d in enumerate(played)]
        match.status, match.winner = str(sheet.status), sheet.winner
        match.totals, match.suffered = list(sheet.totals), suffered(sheet)
        matches.append(match)
    Deal.objects.bulk_create(deals, batch_size=2000)
    Match.objects.bulk_update(matches, ["status", "winner", "totals", "suffered"], batch_size=500)


def tournament(teams: int, rounds: int, rng: random.Random, *, report: bool) -> tuple:
    organizer, _ = get_user_model().objects.get_or_create(username=f"bench-{teams}")
    t = services.tournament_create(
        organizer=organizer, name=f"Bench {teams}", swiss_rounds=rounds, deals_per_match=DEALS
    )
    for i in range(teams):
        services.entry_register(
            tournament=t, name=f"Team {teams}-{i}", players=[f"A{teams}-{i}", f"B{teams}-{i}"]
        )
    t = services.tournament_start(tournament=t)
    pair_times, standings_times = [], []
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        rnd = services.round_generate(tournament=t)
        pair_times.append(time.perf_counter() - started)
        services.round_start(rnd=rnd)
        fill_round(rnd, rng)
        started = time.perf_counter()
        services.standings_refresh(tournament_id=t.pk)
        standings_times.append(time.perf_counter() - started)
        if report:
            print(f"  round {number}: pairing {pair_times[-1] * 1000:7.1f} ms · "
                  f"standings {standings_times[-1] * 1000:7.1f} ms")  # fmt: skip
    return t, pair_times, standings_times


def page(t, repeats: int = 20) -> tuple[list[float], int, list[float], int]:
    """Standings page: times and queries, from the cache and with the cache cold."""
    from django.core.cache import cache

    client = Client()
    url = reverse("tournaments:standings", args=[t.slug])
    warm, cold = [], []
    for _ in range(repeats):
        cache.clear()
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as cold_queries:
            assert client.get(url).status_code == 200
        cold.append(time.perf_counter() - started)
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as warm_queries:
            assert client.get(url).status_code == 200
        warm.append(time.perf_counter() - started)
    return warm, len(warm_queries), cold, len(cold_queries)


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"


def run() -> None:
    rng = random.Random(256)
    print(f"Swiss: 256 teams, 9 rounds, {DEALS} deals a match ({connection.vendor})")
    big, pair_times, standings_times = tournament(256, 9, rng, report=True)
    small, *_ = tournament(16, 4, rng, report=False)
    warm, warm_q, cold, cold_q = page(big)
    _, s_warm_q, _, s_cold_q = page(small)
    print(f"pairing a round:            {ms(pair_times)}")
    print(f"recomputing the standings:  {ms(standings_times)}")
    print(f"standings page (cached):    {ms(warm)}, {warm_q} SQL queries (16 teams: {s_warm_q})")
    print(f"standings page (cold):      {ms(cold)}, {cold_q} SQL queries (16 teams: {s_cold_q})")
    if warm_q != s_warm_q or cold_q != s_cold_q:
        raise SystemExit("the standings page's queries grow with the tournament")

"""Swiss pairing at 256, 1,000 and 5,000 teams, and the standings of the 256.

Measured, for every round: the pairing itself (``swiss_pairs``; its wall-clock time, and its CPU
time, steadier when the machine is shared) and drawing the round through the services
(``round_generate``: the standings read, the pairing, the tables saved); for each, the median and
the worst round, the pairing's worst beside its target (≤ 100 ms at 1,000 teams, ≤ 1 s at 5,000),
drawing's at 5,000 teams beside its own (≤ 500 ms).
Rematches are counted: these fields always have a pairing without one, so the command fails on
any. For the 256-team Swiss (9 rounds, 12 deals a match, its teams registered through the
services), also: the time to recompute the full standings and to serve the standings page, and
the SQL queries per page, which must not grow with the tournament (a 16-team tournament is
measured alongside; the command fails if they differ). Absolute times are printed, not enforced.

The 1,000 (10 rounds) and 5,000 teams (5 rounds) run the worker's code path without building their
teams through HTTP: the teams are written in bulk, then each round is drawn and started through
the services. Results are filled in quickly everywhere (deals written in bulk, the match verdicts
from the engine; 2 deals a match for the large fields): the filling is set-up, not a figure.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from players.models import Player, Team
from scoring import engine
from scoring.models import Deal, Match
from scoring.services import suffered
from tournaments import pairing, services
from tournaments.models import Entry, Round, Tournament

# teams: (rounds, deals a match, teams registered through the services, target for pairing a round
# in ms, target for drawing one: the standings read, the pairing, the tables saved; issue 29)
FIELDS = {256: (9, 12, True, None, None), 1000: (10, 2, False, 100, None), 5000: (5, 2, False, 1000, 500)}


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


def fill_round(rnd: Round, rng: random.Random, deals_a_match: int) -> None:
    """Every match of the round played: its deals written in bulk, the verdict from the engine."""
    deals, matches = [], []
    for table in rnd.tables.select_related("match"):
        match = table.match
        if match is None:
            continue
        played = []
        while len([d for d in played if not d.get("thrown_in")]) < deals_a_match:
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


def enter_in_bulk(t: Tournament, teams: int) -> None:
    """Players, teams and entries written in bulk (set-up: registering is not measured here)."""
    players = Player.objects.bulk_create(
        [Player(name=f"{side}{t.pk}-{i}") for i in range(teams) for side in "AB"], batch_size=1000
    )
    pairs = [(players[2 * i], players[2 * i + 1]) for i in range(teams)]
    made = Team.objects.bulk_create(
        [Team(name=f"Team {t.pk}-{i}", player_a=a, player_b=b) for i, (a, b) in enumerate(pairs)],
        batch_size=1000,
    )
    Entry.objects.bulk_create([Entry(tournament=t, team=team) for team in made], batch_size=1000)


@dataclass
class Figures:
    pairing: list[float] = field(default_factory=list)  # swiss_pairs alone, seconds
    pairing_cpu: list[float] = field(default_factory=list)  # its CPU time (the machine may be shared)
    drawing: list[float] = field(default_factory=list)  # round_generate, seconds
    standings: list[float] = field(default_factory=list)
    rematches: int = 0


class PairingClock:
    """Times ``swiss_pairs`` where the services call it (``tournaments.pairing.swiss_pairs``): the
    last call's wall-clock and CPU time."""

    def __init__(self) -> None:
        self.last = self.last_cpu = 0.0
        self.original: Callable = pairing.swiss_pairs

    def __enter__(self) -> PairingClock:
        def timed(*args, **kwargs):
            started, started_cpu = time.perf_counter(), time.process_time()
            try:
                return self.original(*args, **kwargs)
            finally:
                self.last = time.perf_counter() - started
                self.last_cpu = time.process_time() - started_cpu

        pairing.swiss_pairs = timed
        return self

    def __exit__(self, *exc) -> None:
        pairing.swiss_pairs = self.original


def tournament(teams: int, rng: random.Random, *, report: bool) -> tuple[Tournament, Figures]:
    rounds, deals, registered, _, _ = FIELDS.get(teams, (4, 12, True, None, None))
    organizer, _ = get_user_model().objects.get_or_create(username=f"bench-{teams}")
    t = services.tournament_create(
        organizer=organizer, name=f"Bench {teams}", swiss_rounds=rounds, deals_per_match=deals
    )
    if registered:
        for i in range(teams):
            services.entry_register(
                tournament=t, name=f"Team {teams}-{i}", players=[f"A{teams}-{i}", f"B{teams}-{i}"]
            )
    else:
        enter_in_bulk(t, teams)
    t = services.tournament_start(tournament=t)
    figures = Figures()
    met: set[frozenset[int]] = set()
    with PairingClock() as clock:
        for number in range(1, rounds + 1):
            started = time.perf_counter()
            rnd = services.round_generate(tournament=t)
            figures.drawing.append(time.perf_counter() - started)
            figures.pairing.append(clock.last)
            figures.pairing_cpu.append(clock.last_cpu)
            pairs = {
                frozenset(p) for p in rnd.tables.filter(entry1__isnull=False).values_list("entry0", "entry1")
            }
            figures.rematches += len(pairs & met)
            met |= pairs
            services.round_start(rnd=rnd)
            fill_round(rnd, rng, deals)
            started = time.perf_counter()
            services.standings_refresh(tournament_id=t.pk)
            figures.standings.append(time.perf_counter() - started)
            if report:
                pair, cpu, draw, table = (
                    x[-1] * 1000
                    for x in (figures.pairing, figures.pairing_cpu, figures.drawing, figures.standings)
                )
                print(f"  round {number:2}: pairing {pair:7.1f} ms (CPU {cpu:7.1f} ms) · drawing the round "
                      f"{draw:7.1f} ms · standings {table:7.1f} ms")  # fmt: skip
    return t, figures


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


def ms(values: list[float], target: int | None = None) -> str:
    text = f"median {statistics.median(values) * 1000:7.1f} ms, worst {max(values) * 1000:7.1f} ms"
    return text if target is None else f"{text}  (target: worst ≤ {target:,} ms)"


def run() -> None:
    rng = random.Random(256)
    rematches = 0
    for teams, (rounds, deals, registered, target, draw_target) in FIELDS.items():
        how = "registered through the services" if registered else "written in bulk"
        print(f"Swiss: {teams:,} teams ({how}), {rounds} rounds, {deals} deals a match ({connection.vendor})")
        started = time.perf_counter()
        t, figures = tournament(teams, rng, report=True)
        rematches += figures.rematches
        print(f"pairing a round:            {ms(figures.pairing, target)}")
        print(f"  its CPU time:             {ms(figures.pairing_cpu)}")
        print(f"drawing a round:            {ms(figures.drawing, draw_target)}")
        print(f"recomputing the standings:  {ms(figures.standings)}")
        print(f"rematches:                  {figures.rematches}")
        if teams == 256:
            small, _ = tournament(16, rng, report=False)
            warm, warm_q, cold, cold_q = page(t)
            _, s_warm_q, _, s_cold_q = page(small)
            print(f"standings page (cached):    {ms(warm)}, {warm_q} SQL queries (16 teams: {s_warm_q})")
            print(f"standings page (cold):      {ms(cold)}, {cold_q} SQL queries (16 teams: {s_cold_q})")
            if warm_q != s_warm_q or cold_q != s_cold_q:
                raise SystemExit("the standings page's queries grow with the tournament")
        print(f"  ({time.perf_counter() - started:.0f} s in all, with the set-up)")
    if rematches:
        raise SystemExit(f"{rematches} rematches: a pairing without one exists in these fields")

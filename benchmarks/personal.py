"""A player's own page (tournaments/personal.py) on a 200-team event with 4 rounds played and the
fifth in play: the page and its data view, each the median and worst of a few runs and their SQL
queries, which must not grow with the event (a 10-team event is measured alongside: the command
fails if they differ). Target: ≤ 50 ms. Runs on the throw-away database of ``./run bench``
(SQLite or PostgreSQL, whichever DATABASE_URL names)."""

from __future__ import annotations

import statistics
import time

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from benchmarks import load
from scoring import services as scoring
from scoring.models import Match
from tournaments import personal, services
from tournaments.models import Entry, Tournament

TEAMS = 200
ROUNDS = 4
REPEATS = 15
TARGET_MS = 50
DEAL = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


def set_up(organizer, teams: int, name: str) -> Tournament:
    t = services.tournament_create(organizer=organizer, name=name, swiss_rounds=ROUNDS + 1, deals_per_match=1)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"{name} {i}", players=[f"{name}-{i}a", f"{name}-{i}b"])
    services.tournament_start(tournament=t, user=organizer)
    for _ in range(ROUNDS):
        rnd = services.round_start(
            rnd=services.round_generate(tournament=Tournament.objects.get(pk=t.pk), user=organizer),
            user=organizer,
        )
        for match_id in rnd.tables.exclude(match=None).values_list("match_id", flat=True):
            scoring.deal_record(match=Match.objects.get(pk=match_id), deal=DEAL)
        services.standings_refresh(tournament_id=t.pk)
    services.round_start(
        rnd=services.round_generate(tournament=Tournament.objects.get(pk=t.pk), user=organizer),
        user=organizer,
    )
    return Tournament.objects.get(pk=t.pk)


def measure(tournament: Tournament) -> dict[str, tuple[float, float, int]]:
    entry = Entry.objects.filter(tournament=tournament).order_by("pk")[3]
    token = personal.personal_token(entry)
    client = Client()
    out = {}
    for name, path in (("page", f"/me/{token}/"), ("data", f"/me/{token}/data/")):
        client.get(path)  # warm
        times = []
        for _ in range(REPEATS):
            started = time.perf_counter()
            assert client.get(path).status_code == 200
            times.append((time.perf_counter() - started) * 1000)
        with CaptureQueriesContext(connection) as queries:
            client.get(path)
        out[name] = (statistics.median(times), max(times), len(queries))
    return out


def run() -> None:
    print(
        f"Personal page: a {TEAMS}-team event, {ROUNDS} rounds played and one in play ({connection.vendor})"
    )
    cache.clear()
    organizer = get_user_model().objects.create_user("personal-organizer")
    small = set_up(organizer, 10, "Small")
    big = set_up(organizer, TEAMS, "Big")
    few, many = measure(small), measure(big)
    failures = []
    for name, label in (("page", "personal page"), ("data", "its data view")):
        median, worst, queries = many[name]
        load.figure(
            f"{label}, {TEAMS} teams",
            f"median {median:.1f} ms, worst {worst:.1f} ms, {queries} queries "
            f"(10 teams: {few[name][0]:.1f} ms, {few[name][2]} queries)",
            f"≤ {TARGET_MS} ms",
            median <= TARGET_MS,
            width=36,
        )
        if queries != few[name][2]:
            failures.append(f"{label}: {queries} queries for {TEAMS} teams, {few[name][2]} for 10")
    if failures:
        raise SystemExit("; ".join(failures))

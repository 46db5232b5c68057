"""Importing a 1,000-deal Mpourloto match file, through the service and through the API.

Measured: the time of one import (median and worst of a few), beside the target of 2 s, and
its SQL queries, which must not grow with the file (a 10-deal file is measured alongside). An
import replays the file once and saves its deals in bulk; it used to record them one by one,
replaying the whole match each time. Absolute times are printed, not enforced.
"""

from __future__ import annotations

import json
import random
import statistics
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from scoring import engine, services

DEALS = 1000
REPEATS = 5
TARGET_SECONDS = 2.0
URL = "/api/v1/matches/import/"


def random_deal(rng: random.Random) -> dict:
    """A Mpourloto deal as a scorekeeper enters it: thrown in now and then, melds, capo."""
    roll = rng.random()
    if roll < 0.04:
        return {"thrown_in": True}
    maker = rng.randrange(2)
    if roll < 0.07:
        return {"maker": maker, "card_points": [152, 0] if maker == 0 else [0, 152], "capot": maker}
    points = rng.randint(20, 132)
    melds: list[list[str]] = [[], []]
    if rng.random() < 0.3:
        melds[rng.randrange(2)].append(rng.choice(["seq3", "seq4", "four"]))
    return {
        "maker": maker,
        "card_points": [points, 152 - points],
        "last_trick": rng.randrange(2),
        "melds": melds,
    }


def match_file(deals: int, rng: random.Random) -> dict:
    """A valid file: a match of a fixed number of played deals, ended by its last one."""
    played = [random_deal(rng) for _ in range(deals)]
    return {
        "ruleset": "mpourloto",
        "options": {"deals": sum(1 for d in played if not d.get("thrown_in"))},
        "teams": [
            {"name": "Bench A", "players": ["Import 1", "Import 3"]},
            {"name": "Bench B", "players": ["Import 2", "Import 4"]},
        ],
        "first_dealer": 0,
        "deals": played,
    }


def through_service(document: dict, user) -> tuple[float, int]:
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        services.match_import(data=document, created_by=user)
        elapsed = time.perf_counter() - started
    return elapsed, len(queries.captured_queries)


def through_api(document: dict, client: Client) -> tuple[float, int]:
    body = json.dumps(document)
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = client.post(URL, body, content_type="application/json")
        elapsed = time.perf_counter() - started
    if response.status_code != 201:
        raise SystemExit(f"the import answered {response.status_code}: {response.content[:300]!r}")
    return elapsed, len(queries.captured_queries)


def line(name: str, times: list[float], queries: int, small_queries: int) -> str:
    median, worst = statistics.median(times), max(times)
    verdict = "" if worst < TARGET_SECONDS else "  (over the target)"
    return (
        f"{name:<8} median {median:.3f} s, worst {worst:.3f} s (target < {TARGET_SECONDS:.0f} s), "
        f"{queries} SQL queries ({small_queries} for 10 deals){verdict}"
    )


def run() -> None:
    rng = random.Random(1000)
    document = match_file(DEALS, rng)
    small = match_file(10, rng)
    sheet = engine.load_match(document).sheet()
    size = len(json.dumps(document))
    print(
        f"Import: a Mpourloto file of {DEALS} deals, {size / 1024:.0f} KiB, ends {sheet.status} "
        f"{sheet.totals[0]}–{sheet.totals[1]} ({connection.vendor}; "
        f"limit {settings.TSOXA_IMPORT_MAX_DEALS} deals)"
    )
    user, _ = get_user_model().objects.get_or_create(username="bench-import")
    token, _ = Token.objects.get_or_create(user=user)
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")

    through_service(small, user)  # the players and teams exist from here on
    _, small_service_q = through_service(small, user)
    _, small_api_q = through_api(small, client)
    service = [through_service(document, user) for _ in range(REPEATS)]
    api = [through_api(document, client) for _ in range(REPEATS)]
    print(line("service", [t for t, _ in service], service[-1][1], small_service_q))
    print(line("API", [t for t, _ in api], api[-1][1], small_api_q))
    if service[-1][1] != small_service_q or api[-1][1] != small_api_q:
        raise SystemExit("the queries of an import grow with its deals")

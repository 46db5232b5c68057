"""The exports and the printable links page of a 1,000-team, 10-round Swiss.

Measured through the project's views (Django's test client, as a server would call them): the
time to the first byte and to the last of ``deals.csv`` and of the JSON export (both streamed),
and the time of the organizer's scorekeeper-links page of a round (500 tables: the QR codes are
images of their own, fetched by the browser, so one is timed apart). Targets: the first byte
within 1 s. Absolute times are printed, not enforced (the machine is shared).

The tournament is the standings benchmark's (``benchmarks.standings.build``: written in bulk),
with one deal stored for every match, so that the exports have every match's sheet to work out.
"""

from __future__ import annotations

import random
import time

from django.test import Client
from django.urls import reverse

from scoring.models import Deal, Match

from .standings import build

TEAMS = 1000
ROUNDS = 10
FIRST_BYTE_TARGET_S = 1.0
DEAL = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


def _with_deals(tournament) -> int:
    matches = Match.objects.filter(table__round__tournament=tournament).values_list("pk", flat=True)
    deals = [Deal(match_id=pk, position=1, data=DEAL) for pk in matches]
    Deal.objects.bulk_create(deals, batch_size=1000)
    return len(deals)


def _streamed(client: Client, url: str) -> tuple[float, float, int]:
    """Seconds to the first byte and to the last, and the bytes."""
    started = time.perf_counter()
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    chunks = iter(response.streaming_content)
    size = len(next(chunks))
    first = time.perf_counter() - started
    for chunk in chunks:
        size += len(chunk)
    return first, time.perf_counter() - started, size


def run() -> None:
    print(f"Exports: {TEAMS:,} teams, {ROUNDS} rounds, one deal a match")
    started = time.perf_counter()
    tournament, _ = build(TEAMS, ROUNDS, random.Random(7))
    deals = _with_deals(tournament)
    print(f"  built in {time.perf_counter() - started:.1f} s ({deals:,} matches; set-up, not a figure)")
    client = Client()
    client.force_login(tournament.organizer)
    slow = []
    for name in ("deals.csv", "export/"):
        first, last, size = _streamed(client, f"/api/v1/tournaments/{tournament.slug}/{name}")
        print(
            f"{name:<12} first byte {first * 1000:6.0f} ms (target ≤ {FIRST_BYTE_TARGET_S * 1000:.0f} ms), "
            f"last byte {last:5.1f} s, {size / 1e6:.1f} MB"
        )
        if first > FIRST_BYTE_TARGET_S:
            slow.append(name)
    links = reverse("tournaments:round_links", args=[tournament.slug, 1])
    started = time.perf_counter()
    page = client.get(links)
    elapsed = time.perf_counter() - started
    assert page.status_code == 200
    qr = reverse("tournaments:table_qr", args=[tournament.slug, 1, 1])
    started = time.perf_counter()
    assert client.get(qr).status_code == 200
    one = time.perf_counter() - started
    print(
        f"links page   {elapsed * 1000:6.0f} ms for {TEAMS // 2} tables (target ≤ "
        f"{FIRST_BYTE_TARGET_S * 1000:.0f} ms), one QR code {one * 1000:.1f} ms"
    )
    if slow:
        print(f"  (over the first-byte target on this run: {', '.join(slow)}; times are not enforced)")

"""Bulk entry: a paste of 200 teams previewed, then saved, with 5,000 player records to match against.

Measured: the preview (parsing, matching every name against the records the organizer may see,
checking each line), the save (new records, teams and numbered entries, all or nothing), their sum
beside the target of 1 s in all, and the SQL queries of each, which must not grow with the paste
(a paste of 10 teams is measured alongside). A quarter of the names are existing people (half
the teams' first players), some of them namesakes; a few records are known only from a private
tournament of another organizer and must not be offered. Absolute times are printed, not enforced.
"""

from __future__ import annotations

import random
import statistics
import time

from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from players.models import Player, Team
from tournaments import services
from tournaments.models import Entry, Tournament

RECORDS = 5000
TEAMS = 200
REPEATS = 3
TARGET_SECONDS = 1.0
FIRST = ["Nikos", "Eleni", "Giorgos", "Maria", "Kostas", "Vaso", "Petros", "Rena", "Yannis", "Sofia"]
LAST = ["Papas", "Kosta", "Dimou", "Ioannou", "Georgiou", "Nikolaou", "Pappa", "Vlachou"]


def _name(i: int) -> str:
    return f"{FIRST[i % len(FIRST)]} {LAST[i // len(FIRST) % len(LAST)]} {i}"


def _records(organizer) -> list[str]:
    """5,000 players, 2,000 in teams entered in ten public tournaments (their last event), a hundred
    known only from another organizer's private tournament; some names twice (namesakes)."""
    names = [_name(i % 4500) for i in range(RECORDS)]  # the last 500 are namesakes of the first
    players = Player.objects.bulk_create([Player(name=n) for n in names])
    teams = Team.objects.bulk_create(
        [
            Team(name=f"Old team {i}", player_a=players[2 * i], player_b=players[2 * i + 1])
            for i in range(1050)
        ]
    )
    stranger, _ = get_user_model().objects.get_or_create(username="bench-bulk-stranger")
    for n in range(11):
        private = n == 10
        past = Tournament.objects.create(
            organizer=stranger if private else organizer,
            name=f"Past event {n}",
            slug=f"bench-bulk-past-{n}",
            public=not private,
        )
        chunk = teams[1000:1050] if private else teams[n * 100 : (n + 1) * 100]
        Entry.objects.bulk_create([Entry(tournament=past, team=t, number=i + 1) for i, t in enumerate(chunk)])
    return names


def _paste(names: list[str], teams: int, rng: random.Random, tag: str = "") -> str:
    """A paste of ``teams`` lines, half the teams' first players existing people."""
    known = iter(rng.sample(sorted(set(names)), teams))  # each existing person in one team at most
    lines = []
    for i in range(teams):
        first = next(known) if rng.random() < 0.5 else f"Newcomer {tag}{i}-0"
        players = [first, f"Newcomer {tag}{i}-1"]
        lines.append(f"Paste team {i}\t{players[0]}\t{players[1]}")
    return "\n".join(lines)


def _once(organizer, text: str, n: int) -> tuple[float, int, float, int, int]:
    tournament = services.tournament_create(organizer=organizer, name=f"Bench bulk {n}")
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        preview = services.entries_bulk_preview(tournament=tournament, text=text, user=organizer)
        previewed = time.perf_counter() - started
    preview_queries = len(queries.captured_queries)
    if not preview.ok:
        wrong = preview.wrong[0]
        raise SystemExit(f"the paste was refused: line {wrong.number}: {wrong.errors}")
    matched = sum(1 for line in preview.lines for seat in line.seats if seat.chosen is not None)
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        entries = services.entries_bulk_create(tournament=tournament, text=text, user=organizer)
        saved = time.perf_counter() - started
    if len(entries) != len(preview.lines):
        raise SystemExit("the save did not enter every line")
    return previewed, preview_queries, saved, len(queries.captured_queries), matched


def run() -> None:
    rng = random.Random(26)
    organizer, _ = get_user_model().objects.get_or_create(username="bench-bulk")
    names = _records(organizer)
    if connection.vendor == "postgresql":  # a database in use has its statistics (autovacuum's)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    texts = [_paste(names, TEAMS, rng, f"{n}.") for n in range(REPEATS)]  # new names each time
    text = texts[0]
    small = _paste(names, 10, rng, "small.")
    print(
        f"Bulk entry: a paste of {TEAMS} teams ({len(text.encode()) / 1024:.0f} KiB) against "
        f"{Player.objects.count():,} player records ({connection.vendor})"
    )
    _, small_pq, _, small_sq, _ = _once(organizer, small, 0)
    runs = [_once(organizer, t, n) for n, t in enumerate(texts, start=1)]
    print("runs     " + ", ".join(f"{(r[0] + r[2]) * 1000:.0f} ms" for r in runs))
    preview_ms = statistics.median(r[0] for r in runs) * 1000
    save_ms = statistics.median(r[2] for r in runs) * 1000
    total = statistics.median(r[0] + r[2] for r in runs)
    worst = max(r[0] + r[2] for r in runs)
    _, preview_q, _, save_q, matched = runs[-1]
    verdict = "" if worst <= TARGET_SECONDS else "  (over the target)"
    print(
        f"preview  median {preview_ms:.0f} ms, {preview_q} SQL queries ({small_pq} for 10 teams); "
        f"{matched} names matched"
    )
    print(f"save     median {save_ms:.0f} ms, {save_q} SQL queries ({small_sq} for 10 teams)")
    print(
        f"total    median {total * 1000:.0f} ms, worst {worst * 1000:.0f} ms "
        f"(target ≤ {TARGET_SECONDS:.0f} s in all){verdict}"
    )
    if preview_q > small_pq or save_q > small_sq + 1:  # + the teams of people already known
        raise SystemExit("the queries of a bulk entry grow with the paste")

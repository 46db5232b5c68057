"""Screenshots for the README and the guides: the sheet with its pad, a tournament's standings, a
player's page (with the rating's chart), the new-match page, a club's page, a Coinche sheet with its
pad (docs/games/coinche.md), the correction page of a deal (docs/scorekeeper.md) and a tournament
table's sheet (opened from its link), on a 10" tablet in landscape (1280×800) and portrait (800×1280).

    .venv/bin/python docs/screenshots.py            # writes docs/screenshots/*.png
    .venv/bin/python docs/screenshots.py --out /tmp/shots --lang el

It builds the demo data (``manage.py demo_data``) in a throw-away SQLite database, serves the app
on a free local port and drives the system's Chromium with Playwright (as the browser tests do:
TSOXA_CHROMIUM or the PATH). Nothing of the project's own database is touched.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
SIZES = {"landscape": {"width": 1280, "height": 800}, "portrait": {"width": 800, "height": 1280}}
MOST_BYTES = 300_000  # each PNG stays small enough for a README
COINCHE_DEALS = (
    {"maker": 0, "contract": {"suit": "hearts", "bid": 100, "multiplier": 1}, "card_points": [92, 60],
     "last_trick": 0, "melds": [[], []], "belote": [1, 0]},
    {"maker": 0, "contract": {"suit": "diamonds", "bid": 90, "multiplier": 2}, "card_points": [100, 52],
     "last_trick": 0, "melds": [[], []], "belote": [0, 1]},
)  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare() -> dict[str, str]:
    """Inside Django (a child process, on the throw-away database): the demo data and a few more
    finished matches, so that a player's page has a record, partners and a chart (the page shown is a
    rated player's, with the rating's history). The pages' paths."""
    import random

    from django.core.management import call_command

    from league.management.commands.demo_data import demo_deal
    from players.models import Player, Team
    from scoring import services
    from scoring.models import Match
    from tournaments.models import Table, Tournament

    call_command("migrate", verbosity=0)
    call_command("demo_data", verbosity=0)
    user = Match.objects.exclude(created_by=None).first().created_by
    team = {t.name: t for t in Team.objects.all()}
    rng = random.Random(11)
    for a, b in (("Kafeneio A", "Platanos"), ("Limani", "Kafeneio A")):
        pair = [(team[n].name, (team[n].player_a, team[n].player_b)) for n in (a, b)]
        match = services.match_create(teams=pair, first_dealer=1, created_by=user)
        number = 0
        while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
            services.deal_record(match=match, deal=demo_deal(rng, number), user=user)
            number += 1
    playing = Match.objects.get(team0__name="Kafeneio A", team1__name="Kafeneio B")
    rated = Player.objects.filter(rating__isnull=False).order_by("-rated_matches", "-rating").first()
    # A tournament table in play, opened from its link: two of its four deals played.
    night = Tournament.objects.get(name="Friday club night")
    table = Table.objects.select_related("match").get(round__tournament=night, round__number=2, number=3)
    for number in range(2):
        services.deal_record(match=table.match, deal=demo_deal(rng, number), user=user)
    # A Coinche match: 100 hearts made with the belote, then 90 diamonds coinché (docs/games/coinche.md,
    # worked examples 1 and 4: 220–60, then 500–20).
    coinche = services.match_create(
        teams=[("Les As", ("Éric", "Marie")), ("Les Rois", ("Paul", "Sophie"))],
        ruleset="coinche",
        first_dealer=0,
        created_by=user,
    )
    for deal in COINCHE_DEALS:
        services.deal_record(match=coinche, deal=deal, user=user)
    # The correction page of the playing match's latest deal played (not thrown in).
    corrected = next(
        d for d in playing.deals.filter(deleted_at=None).order_by("-position") if not d.data.get("thrown_in")
    )
    return {
        "new-match": "/matches/new/",
        "sheet": f"/matches/{playing.pk}/",
        "standings": f"/tournaments/{Tournament.objects.get(name='Friday club night').slug}/standings/",
        "player": f"/players/{rated.pk}/",
        "club": "/clubs/demo-club/",
        "coinche": f"/matches/{coinche.pk}/",
        "deal-edit": f"/matches/{playing.pk}/deals/{corrected.pk}/",
        "table": f"/s/{table.token}/",  # last: it is opened without an account
    }


def serve(env: dict[str, str], port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "manage.py"),
            "runserver",
            f"127.0.0.1:{port}",
            "--noreload",
            "--skip-checks",
        ],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=1)
            return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("the app did not start")


def shoot(base: str, paths: dict[str, str], out: Path, lang: str) -> list[Path]:
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT))
    from tests.functional.conftest import CHROMIUM_ARGS, chromium_executable

    executable = chromium_executable()
    if executable is None:
        raise SystemExit("no Chromium found: set TSOXA_CHROMIUM to a Chromium binary")
    written = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        for orientation, viewport in SIZES.items():
            context = browser.new_context(
                viewport=viewport, locale=lang, extra_http_headers={"Accept-Language": lang}
            )
            page = context.new_page()
            page.goto(f"{base}/accounts/login/")
            page.locator('input[name="username"]').fill("demo")
            page.locator('input[name="password"]').fill("demo")
            page.locator('main button[type="submit"]').click()
            page.wait_for_load_state()
            for name, path in paths.items():
                if path.startswith("/s/"):  # a table's link (listed last): its tablet, without an account
                    context.clear_cookies()
                page.goto(base + path)
                page.wait_for_load_state("networkidle")
                file = out / f"{name}-{orientation}.png"
                page.screenshot(path=str(file))
                written.append(file)
            context.close()
        browser.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tsoxa-shots-") as tmp:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.dev",
            "DATABASE_URL": f"sqlite:///{tmp}/db.sqlite3",
            "DJANGO_DEBUG": "false",
            "CELERY_BROKER_URL": "",
        }
        prepared = subprocess.run(
            [sys.executable, "-c", "import django, json; django.setup(); "
             "from docs.screenshots import prepare; print(json.dumps(prepare()))"],
            env=env, cwd=ROOT, check=True, capture_output=True, text=True,
        )  # fmt: skip
        paths = json.loads(prepared.stdout.strip().splitlines()[-1])
        port = free_port()
        server = serve(env, port)
        try:
            written = shoot(f"http://127.0.0.1:{port}", paths, args.out, args.lang)
        finally:
            server.terminate()
            server.wait(timeout=10)
    too_big = []
    for path in written:
        size = path.stat().st_size
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}  {size // 1024} KB")
        if size > MOST_BYTES:
            too_big.append(path.name)
    if too_big:
        raise SystemExit(f"larger than {MOST_BYTES // 1000} KB: {', '.join(too_big)}")


if __name__ == "__main__":
    main()

"""The developers' guides' examples, run as a reader would run them: the Python snippets of
docs/developers/ against a live server (the demo's tournament, `friday-club-night`), the webhook
receiver as a server of its own, and the JavaScript check with Node where Node is installed."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from tests.factories import WIN_0, WIN_1
from webhooks import signing

ROOT = Path(__file__).resolve().parents[2]
GUIDES = ROOT / "docs" / "developers"
SECRET = "a-webhook-secret-for-this-test"
STANDINGS = "https://tsoxa.example/api/v1/tournaments/friday-club-night/standings/"
RANKING = "https://tsoxa.example/api/v1/tournaments/friday-club-night/ranking/"


def snippet(page: str, heading: str, language: str = "python", index: int = 0) -> str:
    """The ``index``-th ``language`` block of the guide ``page`` after ``heading``."""
    text = (GUIDES / page).read_text()
    section = text[text.index(heading) :]
    blocks = re.findall(rf"```{language}\n(.*?)```", section, re.S)
    return blocks[index]


def run(code: str, base: str, **replace: str) -> str:
    """``code`` run against ``base`` (for the guides' localhost:8000), what it printed."""
    code = code.replace("http://localhost:8000", base)
    for old, new in replace.items():
        code = code.replace(old, new)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "<guide>", "exec"), {"__name__": "guide"})
    return printed.getvalue()


@pytest.fixture
def friday(db, django_user_model):
    """The demo's Swiss, "Friday club night": four teams, round 1 played, the standings computed."""
    from scoring import services as scoring
    from tournaments import services

    organizer = django_user_model.objects.create_user(username="demo", password="pw-demo-12345")
    t = services.tournament_create(
        organizer=organizer, name="Friday club night", swiss_rounds=3, deals_per_match=1
    )
    for name, players in [("Pyrgos", ("Lefteris", "Chryssa")), ("Akti", ("Michalis", "Rena")),
                          ("Kyma", ("Nikos", "Eleni")), ("Limani", ("Maria", "Kostas"))]:  # fmt: skip
        services.entry_register(tournament=t, name=name, players=list(players))
    t = services.tournament_start(tournament=t, user=organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for k, table in enumerate(rnd.tables.filter(match__isnull=False).order_by("number")):
        scoring.deal_record(match=table.match, deal=WIN_0 if k % 2 else WIN_1, user=organizer)
    services.standings_refresh(tournament_id=t.pk)
    assert t.slug == "friday-club-night"
    return organizer


pytestmark = pytest.mark.django_db(transaction=True)


def test_the_quick_start_and_the_api_guide_read_the_standings(live_server, friday):
    for page, heading in (
        ("index.md", "**1. Fetch the standings.**"),
        ("api.md", "## Reading, without a token"),
    ):
        lines = run(snippet(page, heading), live_server.url).splitlines()
        ranks = [int(line.split()[0]) for line in lines]
        teams = {line.split()[1] for line in lines}
        assert ranks[0] == 1 and ranks == sorted(ranks), page
        assert teams == {"Pyrgos", "Akti", "Kyma", "Limani"}, page


def test_the_api_guide_reads_a_problem(live_server, friday):
    token = Token.objects.create(user=friday).key
    printed = run(snippet("api.md", "A client can read any"), live_server.url, **{"9944b0…": token})
    assert printed.splitlines()[0] == "400 validation-error name: This field is required."
    assert "  name required This field is required." in printed


def test_the_api_guides_mirror_reads_every_change(live_server, friday):
    mirror = snippet("api.md", "A mirror in a few lines of Python")
    printed = run(mirror, live_server.url, **{"2026-01-01T00:00:00Z": "2000-01-01T00:00:00Z"})
    count, since = re.fullmatch(r"(\d+) changed; ask again from (\S+)\n", printed).groups()
    assert int(count) == 2  # round 1's two matches
    again = run(mirror, live_server.url, **{"2026-01-01T00:00:00Z": since})
    assert again == f"1 changed; ask again from {since}\n"  # inclusive: the last one changed comes again


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def post(port: int, body: bytes, signature: str, delivery: str) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/", data=body, method="POST",
        headers={"Content-Type": "application/json", signing.HEADER: signature, "Tsoxa-Delivery": delivery},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code


def test_the_webhook_receiver_runs_as_the_guide_shows():
    """Saved as receiver.py and started with its secret, it takes a signed delivery once, however
    often it comes, and refuses one signed with another secret."""
    port = free_port()
    environment = {**os.environ, "TSOXA_SECRET": SECRET, "PORT": str(port), "PYTHONUNBUFFERED": "1"}
    code = snippet("webhooks.md", "## A receiver you can run")
    server = subprocess.Popen(
        [sys.executable, "-c", code], env=environment, stdout=subprocess.PIPE, text=True
    )
    try:
        for _ in range(50):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
            time.sleep(0.1)
        body = json.dumps({
            "id": "5b0e3c1e-0000-4000-8000-000000000001", "type": "standings.updated", "created": "…",
            "tournament": {"slug": "friday-club-night", "name": "Friday club night", "url": "…"},
            "data": {"version": 3, "links": {"standings": STANDINGS, "ranking": RANKING}},
        }).encode()  # fmt: skip
        delivery = "5b0e3c1e-0000-4000-8000-000000000001"
        assert post(port, body, signing.sign(SECRET, body), delivery) == 204
        assert post(port, body, signing.sign(SECRET, body), delivery) == 204  # a retry: nothing again
        assert post(port, body, signing.sign("another secret", body), delivery) == 401
        assert post(port, body + b" ", signing.sign(SECRET, body), delivery) == 401
    finally:
        server.terminate()
        printed, _ = server.communicate(timeout=10)
    events = [line for line in printed.splitlines() if line.startswith("standings.updated")]
    links = json.dumps({"standings": STANDINGS, "ranking": RANKING})
    assert events == [f"standings.updated friday-club-night {links}"]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
def test_the_webhook_check_in_javascript_agrees_with_the_server(tmp_path):
    code = snippet("webhooks.md", "The same in JavaScript (Node)", language="js")
    (tmp_path / "verify.js").write_text(code.replace('"kP2..."', json.dumps(SECRET)))
    body = b'{"id": "x", "type": "match.finished"}'
    cases = {
        "good": (signing.sign(SECRET, body), body),
        "body changed": (signing.sign(SECRET, body), body + b"\n"),
        "another secret": (signing.sign("another", body), body),
        "too old": (signing.sign(SECRET, body, timestamp=time.time() - 3600), body),
        "malformed": ("t=²,v1=00", body),
    }
    script = (
        "const {verified} = require('./verify.js');\nconst cases = "
        + json.dumps({name: [header, body.decode()] for name, (header, body) in cases.items()})
        + ";\nfor (const [name, [h, b]] of Object.entries(cases))"
        + " console.log(name, verified(h, Buffer.from(b)));\n"
    )
    (tmp_path / "check.js").write_text(script)
    done = subprocess.run(["node", "check.js"], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "good true", "body changed false", "another secret false", "too old false", "malformed false",
    ]  # fmt: skip

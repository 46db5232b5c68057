"""A club's website reads the standings from the visitor's browser, and can do nothing else.

The club's website is a tiny server of its own (``http://127.0.0.1:<port>``, a thread of the test)
whose page runs ``fetch()`` against the tests' live server (``http://localhost:<other port>``):
another origin, another site. Chromium shows the page the public standings (api/cors.py answers
them to any origin) and refuses it the rest: recording a deal, even with a token written into the
page, a read sending a token, a read asking for the visitor's cookies.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect
from rest_framework.authtoken.models import Token

from scoring import services as scoring
from scoring.models import Deal
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62
TEAMS = ["Kafeneio Platanos", "Oi Asoi tou Pirea", "Ta Galazia Trapoula", "Limani"]

# The club's page: its own script, as a club's developer would write it (the API's quick start).
CLUB_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Our club</title></head>
<body>
<h1>Our club</h1>
<ol id="standings"></ol>
<p id="read"></p>
<button id="record" type="button">Record a deal</button>
<button id="record-form" type="button">Record a deal as a form</button>
<button id="read-with-token" type="button">Read with a token</button>
<button id="read-with-cookies" type="button">Read with cookies</button>
<p id="outcome"></p>
<script>
const API = %(api)s, SLUG = %(slug)s, MATCH = %(match)s, TOKEN = %(token)s;
const standings = `${API}/api/v1/tournaments/${SLUG}/standings/`;
const deals = `${API}/api/v1/matches/${MATCH}/deals/`;
const say = (text) => { document.getElementById("outcome").textContent = text; };
const tell = (request) => request.then((answer) => say(`answered ${answer.status}`), () => say("refused"));

fetch(standings)
  .then((answer) => answer.json())
  .then((table) => {
    for (const row of table.rows) {
      const line = document.createElement("li");
      line.textContent = `${row.rank}. ${row.team}`;
      document.getElementById("standings").append(line);
    }
    document.getElementById("read").textContent = `version ${table.version}`;
  }, (error) => { document.getElementById("read").textContent = `refused: ${error}`; });

document.getElementById("record").addEventListener("click", () => tell(fetch(deals, {
  method: "POST",
  headers: {"Content-Type": "application/json", "Authorization": `Token ${TOKEN}`},
  body: JSON.stringify(%(deal)s),
})));
document.getElementById("record-form").addEventListener("click", () => tell(fetch(deals, {
  method: "POST",
  headers: {"Content-Type": "application/x-www-form-urlencoded"},
  body: "maker=0&card_points=90&card_points=62&last_trick=0",
})));
document.getElementById("read-with-token").addEventListener("click", () => tell(fetch(standings, {
  headers: {"Authorization": `Token ${TOKEN}`},
})));
document.getElementById("read-with-cookies").addEventListener("click", () => tell(fetch(standings, {
  credentials: "include",
})));
</script>
</body></html>
"""


@pytest.fixture
def night() -> Tournament:
    """A running Swiss of 4 teams, round 1 started, its table 1 finished; the standings computed."""
    organizer = get_user_model().objects.create_user(username="org", password="pw-org-12345")
    t = services.tournament_create(organizer=organizer, name="Club night", swiss_rounds=3, deals_per_match=1)
    for i, name in enumerate(TEAMS):
        services.entry_register(tournament=t, name=name, players=[f"A{i}", f"B{i}"])
    services.tournament_start(tournament=t, user=organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    scoring.deal_record(match=rnd.tables.get(number=1).match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    return t


class ClubSite:
    """The club's website: one page, its script calling ``api``."""

    def __init__(self, page: str) -> None:
        body = page.encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def club(live_server, night) -> Iterator[ClubSite]:
    """The club's site, on another origin than the live server, calling it with the organizer's
    token written into the page (what a club must never do, and what must not work)."""
    token = Token.objects.create(user=night.organizer).key
    match = night.rounds.get(number=1).tables.get(number=2).match
    values = {"api": live_server.url, "slug": night.slug, "match": match.pk, "token": token, "deal": WIN_0}
    site = ClubSite(CLUB_PAGE % {name: json.dumps(value) for name, value in values.items()})
    assert site.url.split(":")[1] != live_server.url.split(":")[1]  # 127.0.0.1 against localhost
    try:
        yield site
    finally:
        site.server.shutdown()
        site.server.server_close()


def test_a_page_on_another_origin_shows_the_standings(page: Page, club: ClubSite, night):
    page.goto(club.url)
    rows = page.locator("#standings li")
    expect(rows).to_have_count(len(TEAMS))
    winner = night.rounds.get(number=1).tables.select_related("entry0").get(number=1).entry0.name
    expect(rows.first).to_have_text(f"1. {winner}")
    expect(page.locator("#read")).to_have_text(f"version {night.standings.version}")


@pytest.mark.parametrize(
    "button",
    ["record", "record-form"],
    ids=["json-with-a-token", "a-form-without-preflight"],
)
def test_the_same_page_cannot_record_a_deal(page: Page, club: ClubSite, night, button):
    """With a token and JSON the browser asks first (a preflight), is refused, and sends nothing; a
    form it sends without asking is refused by the server (no credentials) and its answer hidden."""
    deals = Deal.objects.count()
    page.goto(club.url)
    expect(page.locator("#standings li")).to_have_count(len(TEAMS))
    page.locator(f"#{button}").click()
    expect(page.locator("#outcome")).to_have_text("refused")
    assert Deal.objects.count() == deals


@pytest.mark.parametrize("button", ["read-with-token", "read-with-cookies"])
def test_the_same_page_gets_nothing_when_it_sends_credentials(page: Page, club: ClubSite, button):
    page.goto(club.url)
    expect(page.locator("#standings li")).to_have_count(len(TEAMS))
    page.locator(f"#{button}").click()
    expect(page.locator("#outcome")).to_have_text("refused")

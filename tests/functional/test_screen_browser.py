"""The big screen in a real browser, at a TV's 1920×1080 and a projector's 1280×720.

- Readable across the room: the round clock's digits at least 15% of the screen's height, the
  pairings and standings at 28px or more, nothing cut off or scrolling; long lists are cut into
  pages, and every table and every team is on one of them.
- The clock counts down in the browser, from the time the round ends.
- Pushed, not polled: a result recorded after the page has loaded appears without a reload, after
  one fetch of the data; while nothing changes the page asks the server for nothing.

The tests' live server is a WSGI server, as ``./run serve`` is: the stream answers at once with
what changed and the browser asks again 3 s later, the screen still shown as live
(tests/integration/test_screen.py and test_streams.py test the ASGI streams, with and without Redis).
"""

from __future__ import annotations

import importlib.machinery
import re
import sys
import types
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from scoring import services as scoring
from tournaments import live, services
from tournaments.models import Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62
TEAMS = 36  # 18 tables: more than one page of pairings, several of standings
NAMES = ["Kafeneio Platanos", "Oi Asoi tou Pirea", "Ta Galazia Trapoula", "Les Belotiers de Lyon"]
TV, PROJECTOR = {"width": 1920, "height": 1080}, {"width": 1280, "height": 720}
PUSH_MS = 12_000  # the stream checks every 2 s; then one fetch


@pytest.fixture
def night() -> Tournament:
    organizer = get_user_model().objects.create_user(username="org", password="pw-org-12345")
    t = services.tournament_create(
        organizer=organizer, name="Thursday night", swiss_rounds=3, deals_per_match=1
    )
    for i in range(TEAMS):
        services.entry_register(tournament=t, name=f"{NAMES[i % 4]} {i + 1}", players=[f"A{i}", f"B{i}"])
    services.tournament_start(tournament=t, user=organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for table in rnd.tables.order_by("number")[:4]:
        scoring.deal_record(match=table.match, deal=WIN_0)
    return Tournament.objects.get(pk=t.pk)


@pytest.fixture
def clock(monkeypatch):
    """A timed round ending 10 minutes from now (``tournaments.clock``, as the timed rounds have it)."""
    module = types.ModuleType("tournaments.clock")
    module.__spec__ = importlib.machinery.ModuleSpec("tournaments.clock", None)
    ends = datetime.now(UTC) + timedelta(minutes=10)
    module.round_clock = lambda rnd: {
        "round": rnd.number,
        "ends_at": ends,
        "paused_left": None,
        "state": "running",
    }
    monkeypatch.setitem(sys.modules, "tournaments.clock", module)
    # A closed page's stream notices within a second (its next heartbeat), and lets its thread go.
    monkeypatch.setattr(live, "HEARTBEAT_SECONDS", 1.0)


def open_screen(page: Page, base: str, night: Tournament, viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)
    page.goto(f"{base}/tournaments/{night.slug}/screen/")
    expect(page.locator(".screen-live")).to_have_class("screen-live is-live")  # the stream is open


def px(page: Page, selector: str) -> list[float]:
    return page.eval_on_selector_all(
        selector, "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )


@pytest.mark.parametrize("viewport", [TV, PROJECTOR], ids=["1920x1080", "1280x720"])
def test_the_screen_is_readable_across_the_room(page: Page, live_server, night, clock, viewport):
    open_screen(page, live_server.url, night, viewport)
    height = viewport["height"]

    # The clock first, in big digits, counting down by itself.
    digits = page.locator(".panel.current .clock-digits")
    expect(digits).to_have_text(re.compile(r"^(9|10):\d\d$"))
    assert px(page, ".clock-digits")[0] >= 0.15 * height
    before = digits.text_content()
    page.wait_for_timeout(1500)
    assert digits.text_content() != before

    # Pairings and standings: large type, every table and every team on one of the pages.
    assert min(px(page, ".pairing .team, .pairing .table-no")) >= 28
    assert min(px(page, ".screen-table td")) >= 28
    tables = page.eval_on_selector_all(
        ".panel-pairings .table-no", "els => els.map(e => Number(e.textContent))"
    )
    assert sorted(tables) == list(range(1, TEAMS // 2 + 1))
    assert page.locator(".panel-pairings").count() >= 2 and page.locator(".panel-standings").count() >= 2
    assert page.locator(".panel-pairings .panel-page").first.text_content().startswith("1/")
    teams = page.eval_on_selector_all(".panel-standings .team-name", "els => els.map(e => e.textContent)")
    assert sorted(teams) == sorted(f"{NAMES[i % 4]} {i + 1}" for i in range(TEAMS))
    assert page.locator(".panel-pairings .is-finished").count() == 4

    # Nothing scrolls, and every row of every page stands inside its panel.
    size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size[0] <= viewport["width"] and size[1] <= viewport["height"]
    outside = page.evaluate(
        """() => Array.from(document.querySelectorAll('.panel-body')).flatMap(body => {
            const box = body.getBoundingClientRect();
            return Array.from(body.querySelectorAll('.pairing, tr, .clock-digits')).filter(row => {
                const r = row.getBoundingClientRect();
                return r.bottom > box.bottom + 1 || r.right > box.right + 1 || r.left < box.left - 1;
            }).map(row => row.textContent.trim().slice(0, 40));
        })"""
    )
    assert outside == []

    # One panel at a time.
    assert page.locator(".panel.current").count() == 1


def test_a_result_recorded_after_the_page_loaded_is_pushed_to_the_screen(
    page: Page, live_server, night, clock
):
    fetched: list[str] = []
    page.on(
        "request", lambda request: fetched.append(request.url) if "/screen/data/" in request.url else None
    )
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    open_screen(page, live_server.url, night, TV)
    page.evaluate("window.__same_page = true")

    page.wait_for_timeout(3500)
    assert fetched == []  # nothing changed: the page asks for nothing
    # The stream was answered and asked again meanwhile: the screen did not show itself offline.
    expect(page.locator(".screen-live")).to_have_class("screen-live is-live")

    rnd = night.rounds.get(number=1)
    table = rnd.tables.select_related("entry0__team").get(number=5)
    row = page.locator(".panel-pairings .pairing").filter(has_text=table.entry0.team.name)
    expect(row.locator(".score")).to_have_text("")
    scoring.deal_record(match=table.match, deal=WIN_0)  # table 5 finishes: the standings follow

    expect(row.locator(".score")).to_have_text("100–62", timeout=PUSH_MS)
    expect(row).to_have_class("pairing is-finished")
    leader = page.locator(".panel-standings tbody tr").filter(has_text=table.entry0.team.name)
    expect(leader.locator("td").nth(3)).to_have_text("1–0–0")
    assert page.evaluate("window.__same_page === true")  # no reload
    assert 1 <= len(fetched) <= 2  # one fetch for the change (a second only if the data lagged behind it)
    assert refused == []
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.STARTED

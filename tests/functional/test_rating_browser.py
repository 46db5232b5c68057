"""A player's page with a rating history, and the ratings page, in a real browser at 1280×800.

A rated Swiss of four teams is played through the services for three rounds (the rating run as the
worker does it), then the public opens a player's page: the rating, the skill ± uncertainty and
the number of rated matches are shown as stored, the chart draws one marker a match on its band,
inside the page's width, with no breach of the Content-Security-Policy; the ratings page lists the
player and links back.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from playwright.sync_api import Page, expect

from league import ratings
from players.models import Player
from scoring import services as scoring
from tests.factories import WIN_0, WIN_1
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


@pytest.fixture
def rated_night():
    """Three rounds of a rated Swiss of four teams, one deal a match; the ratings run."""
    cache.clear()
    organizer = get_user_model().objects.create_user(username="org", password="pw-org-12345")
    t = services.tournament_create(organizer=organizer, name="Rated night", deals_per_match=1, swiss_rounds=3)
    for i, (a, b) in enumerate([("Ana", "Bo"), ("Cy", "Di"), ("Ed", "Fay"), ("Gus", "Hal")]):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[a, b])
    t = services.tournament_start(tournament=t, user=organizer)
    for _ in range(3):
        rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
        for k, table in enumerate(rnd.tables.filter(match__isnull=False).order_by("number")):
            scoring.deal_record(match=table.match, deal=WIN_1 if k % 2 else WIN_0, user=organizer)
        services.standings_refresh(tournament_id=t.pk)
    ratings.ratings_refresh()  # as the worker does (it ran already, after each result: once more)
    return Player.objects.get(name="Ana")


def test_a_players_page_shows_the_rating_and_its_history_chart(page: Page, live_server, rated_night):
    ana = rated_night
    assert ana.rated_matches == 3
    reports: list[str] = []
    page.on("console", lambda m: reports.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(WATCH_VIOLATIONS)
    page.goto(f"{live_server.url}/players/{ana.pk}/")

    panel = page.get_by_test_id("player-rating")
    expect(panel.get_by_role("heading", name="Rating")).to_be_visible()
    expect(panel.get_by_test_id("rating")).to_have_text(f"rating {ana.rating:.1f}")
    expect(panel.get_by_test_id("skill")).to_have_text(f"skill {ana.rating_mu:.1f} ± {ana.rating_sigma:.1f}")
    expect(panel.get_by_test_id("rated-matches")).to_have_text("3 rated matches")

    chart = panel.get_by_test_id("rating-chart").locator("svg")
    expect(chart).to_be_visible()
    expect(chart.locator("g.markers circle")).to_have_count(3)
    expect(chart.locator("polygon.band")).to_have_count(1)
    expect(chart.locator("polyline.rating")).to_have_count(1)
    expect(chart.locator("desc")).to_contain_text("Rated matches shown: 3.")
    box, viewport = chart.bounding_box(), page.viewport_size
    assert box["width"] > 400 and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]

    history = panel.get_by_test_id("rating-history")
    expect(history.locator("tbody tr")).to_have_count(3)
    newest = ana.rating_points.order_by("-position").first()
    expect(history.locator("tbody tr").first.locator("td").nth(2)).to_have_text(f"{newest.rating:.1f}")

    panel.get_by_role("link", name="All ratings").click()
    expect(page).to_have_url(re.compile(r"/ratings/$"))
    page.get_by_label("Minimum rated matches").fill("1")
    page.get_by_role("button", name="Show").click()
    expect(page.get_by_test_id("rating-row")).to_have_count(8)
    row = page.get_by_test_id("rating-row").filter(has=page.get_by_role("link", name="Ana", exact=True))
    expect(row).to_contain_text(f"{ana.rating:.1f}")
    expect(page.locator(".mainnav a[aria-current]")).to_have_text("Leaderboard")
    reports.extend(page.evaluate("window.__cspViolations || []"))
    assert reports == [], f"Content-Security-Policy reports: {reports}"

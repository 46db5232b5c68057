"""A knockout's bracket in a real browser: the page, and the big screen's bracket panel at a TV's
1920×1080 (issue 26). Screenshots are written to $TSOXA_SHOTS (default /tmp) to be looked at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from scoring import services as scoring
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}
TV = {"width": 1920, "height": 1080}
NAMES = ["Kafeneio Platanos", "Oi Asoi tou Pirea", "Ta Galazia Trapoula", "Les Belotiers de Lyon"]
SHOTS = Path(os.environ.get("TSOXA_SHOTS", "/tmp"))


def finish(table, side=0):
    deal = {"maker": side, "card_points": [152, 0] if side == 0 else [0, 152], "capot": side}
    while table.match.status != "finished":
        scoring.deal_record(match=table.match, deal=deal)
        table.match.refresh_from_db()


@pytest.fixture
def cup() -> Tournament:
    """Eight teams, a Swiss round, then a knockout of 8 with a match for third place: the
    quarter-finals drawn, two of them played."""
    organizer = get_user_model().objects.create_user(username="org", password="pw-org-12345")
    t = services.tournament_create(
        organizer=organizer, name="Winter cup", swiss_rounds=1, knockout_size=8, third_place=True,
        deals_per_match=1,
    )  # fmt: skip
    for i in range(8):
        services.entry_register(tournament=t, name=f"{NAMES[i % 4]} {i + 1}", players=[f"A{i}", f"B{i}"])
    services.tournament_start(tournament=t, user=organizer)
    stage = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for table in stage.tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    quarters = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    tables = list(quarters.tables.order_by("number"))
    finish(tables[0], 0)
    finish(tables[1], 1)
    return Tournament.objects.get(pk=t.pk)


def test_the_bracket_page(page: Page, live_server, cup):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/tournaments/{cup.slug}/bracket/")
    bracket = page.get_by_test_id("bracket")
    expect(bracket).to_be_visible()
    rounds = page.locator(".bracket-round").all_text_contents()
    assert rounds[:3] == ["Quarter-finals", "Semi-finals", "Final"]
    assert "Match for third place" in rounds
    assert page.get_by_test_id("bracket-winner").count() == 2
    assert page.locator(".bracket-match.is-playing").count() == 2
    assert page.locator(".bracket-match.is-empty").count() == 4  # 2 semis, the final, the third place
    # The columns stand side by side, each later one's matches between the earlier one's.
    boxes = page.eval_on_selector_all(
        ".bracket > .bracket-column", "els => els.map(e => e.getBoundingClientRect().x)"
    )
    assert boxes == sorted(boxes) and len(boxes) == 3
    page.screenshot(path=str(SHOTS / "bracket_page.png"), full_page=True)


def test_the_big_screen_shows_the_bracket_panel(page: Page, live_server, cup):
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.set_viewport_size(TV)
    page.goto(f"{live_server.url}/tournaments/{cup.slug}/screen/")
    expect(page.get_by_test_id("screen-round")).to_contain_text("Quarter-finals")
    panel = page.locator(".panel-bracket")
    expect(panel).to_have_count(1)
    assert page.locator(".panel-standings").count() == 0
    # Show the bracket panel (the screen turns its panels every 15 s).
    page.evaluate(
        """() => document.querySelectorAll('.panel').forEach(p =>
              p.classList.toggle('current', p.dataset.panel === 'bracket'))"""
    )
    expect(panel.locator(".bracket-column")).to_have_count(3)
    page.wait_for_timeout(1500)  # the panels' cross-fade
    assert panel.locator(".bracket-side.is-winner").count() == 2
    # Readable across the room, and nothing cut off or scrolling.
    sizes = page.eval_on_selector_all(
        ".panel-bracket .bracket-team", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert min(sizes) >= 24
    size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size[0] <= TV["width"] and size[1] <= TV["height"]
    outside = page.evaluate(
        """() => { const box = document.querySelector('.panel-bracket .panel-body').getBoundingClientRect();
            return Array.from(document.querySelectorAll('.panel-bracket .bracket-match')).filter(m => {
              const r = m.getBoundingClientRect();
              return r.bottom > box.bottom + 1 || r.right > box.right + 1;
            }).length; }"""
    )
    assert outside == 0
    page.screenshot(path=str(SHOTS / "bracket_screen_1920.png"))
    assert refused == []


PUSH_MS = 12_000  # the WSGI stream is asked again every 3 s; then one fetch


def test_the_big_screens_bracket_follows_a_match_deal_by_deal(page: Page, live_server, cup):
    """Issue 27: a match in play shows its running score, never 0–0; a deal recorded moves it on the
    open screen without a reload, with a fetch of the tables part only (it carries the bracket)."""
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/screen/data/" in r.url else None)
    page.set_viewport_size(TV)
    page.goto(f"{live_server.url}/tournaments/{cup.slug}/screen/")
    expect(page.locator(".screen-live")).to_have_class("screen-live is-live")
    page.evaluate(
        """() => document.querySelectorAll('.panel').forEach(p =>
              p.classList.toggle('current', p.dataset.panel === 'bracket'))"""
    )
    panel = page.locator(".panel-bracket")
    third = panel.locator(".bracket-column").first.get_by_test_id("bracket-match").nth(2)
    expect(third.get_by_test_id("bracket-note")).to_have_text("playing")  # begun, no deal yet
    assert third.locator(".bracket-score").all_text_contents() == ["", ""]
    assert "0–0" not in panel.text_content()
    page.evaluate("window.__same_page = true")
    fetched.clear()
    table = cup.rounds.get(number=2).tables.get(number=3)
    scoring.deal_record(match=table.match, deal=WIN_0)  # 100 v 62
    expect(third.get_by_test_id("bracket-note")).to_have_text(
        f"100–62 of {table.match.target}", timeout=PUSH_MS
    )
    assert page.evaluate("window.__same_page === true")
    assert fetched and all("part=tables" in url for url in fetched)
    # The finished quarter-finals keep their final score and their winner.
    first = panel.locator(".bracket-column").first.get_by_test_id("bracket-match").first
    assert all(s.isdigit() for s in first.locator(".bracket-score").all_text_contents())
    expect(first.locator(".is-winner")).to_have_count(1)
    page.screenshot(path=str(SHOTS / "bracket_screen_running.png"))

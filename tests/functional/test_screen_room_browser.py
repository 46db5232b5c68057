"""The big screen for a room (issue 27) in a real browser at a TV's 1920×1080: a concours with
its team numbers and players, a table's running score following its deals without a reload (one
light fetch of the tables, not the whole data), the standings paged evenly, the finder, the QR
codes, the club's colours, the final ranking with its points; and a knockout's bracket panel.
Screenshots are written to $TSOXA_SHOTS (default /tmp), to be looked at."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from players.models import Club
from scoring import services as scoring
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62
TV, PROJECTOR = {"width": 1920, "height": 1080}, {"width": 1280, "height": 720}
NAMES = ["Kafeneio Platanos", "Oi Asoi tou Pirea", "Ta Galazia Trapoula", "Les Belotiers de Lyon"]
FIRST = ["Giorgos", "Maria", "Nikos", "Eleni", "Dimitra", "Kostas", "Sofia"]
LAST = ["Papadopoulos", "Georgiou", "Ioannou", "Nikolaidis", "Vlachou"]
SHOTS = Path(os.environ.get("TSOXA_SHOTS", "/tmp"))
PUSH_MS = 12_000  # the WSGI stream is asked again every 3 s; then one fetch
TEAMS = 13


def player(i: int) -> str:
    return f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]} {i}"


@pytest.fixture
def concours() -> Tournament:
    """13 teams of the café's club in gold (a bye), three-deal matches; round 1 started, table 1
    one deal in, table 2 finished."""
    organizer = get_user_model().objects.create_user(username="org", password="pw-org-12345")
    club = Club.objects.create(name="Kafeneio Club", slug="kafeneio-club")
    t = services.tournament_create(
        organizer=organizer, name="Thursday concours", swiss_rounds=3, deals_per_match=3
    )
    Tournament.objects.filter(pk=t.pk).update(club=club, colour="#f2c200")
    for i in range(TEAMS):
        services.entry_register(
            tournament=t, name=f"{NAMES[i % 4]} {i + 1}", players=[player(2 * i), player(2 * i + 1)]
        )
    services.tournament_start(tournament=t, user=organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    scoring.deal_record(match=rnd.tables.get(number=1).match, deal=WIN_0)
    for _ in range(3):
        scoring.deal_record(match=rnd.tables.get(number=2).match, deal=WIN_0)
    return Tournament.objects.get(pk=t.pk)


def open_screen(page: Page, base: str, t: Tournament, viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)
    page.goto(f"{base}/tournaments/{t.slug}/screen/")
    expect(page.locator(".screen-live")).to_have_class("screen-live is-live")


def show(page: Page, kind: str) -> None:
    """Bring the first panel of ``kind`` to the front (as the 15 s turn would), for a screenshot."""
    page.evaluate(
        """kind => document.querySelectorAll('.panel').forEach(p =>
            p.classList.toggle('current', p === document.querySelector('.panel-' + kind)))""",
        kind,
    )
    page.wait_for_timeout(700)  # the fade


def test_a_concours_on_the_big_screen(page: Page, live_server, concours):
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/screen/data/" in r.url else None)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    open_screen(page, live_server.url, concours, TV)
    rnd = concours.rounds.get(number=1)
    tables = {
        t.number: t
        for t in rnd.tables.select_related("entry0__team__player_a", "entry0__team__player_b", "match")
    }

    # The pairings: each side's number, its team and its two players.
    first = page.locator(".panel-pairings .pairing[data-table='1']")
    team = tables[1].entry0.team
    expect(first.locator(".side0 .team")).to_have_text(f"{tables[1].entry0.number} {team.name}")
    expect(first.locator(".side0 .players")).to_have_text(f"{team.player_a.name} & {team.player_b.name}")
    expect(page.locator(".panel-pairings .pairing .bye, .panel-pairings .pairing em")).to_have_count(1)

    # Table 1 plays: its running score and its deal; table 2 is finished.
    expect(first.locator(".score")).to_have_text("Deal 2 of 3 100–62")
    expect(first).to_have_class("pairing is-playing")
    expect(page.locator(".pairing[data-table='2']")).to_have_class("pairing is-finished")

    # The club, its colour on the bar, its dark ink (gold is too light for white).
    expect(page.get_by_test_id("screen-club")).to_have_text("Kafeneio Club")
    bar = page.eval_on_selector(
        ".screen-bar", "e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color]"
    )
    assert bar == ["rgb(242, 194, 0)", "rgb(27, 20, 0)"]

    # The QR codes, drawn.
    for to in ("standings", "finder"):
        code = page.get_by_test_id(f"qr-{to}")
        expect(code).to_be_visible()
        assert code.evaluate("img => img.complete && img.naturalWidth > 100")
    # "Find your table": everyone, alphabetically, each with a table.
    names = page.eval_on_selector_all(".panel-finder .finder-name", "els => els.map(e => e.textContent)")
    assert len(names) == 3 * TEAMS and names == sorted(names, key=str.casefold)
    page.screenshot(path=str(SHOTS / "screen_room_pairings.png"))
    show(page, "finder")
    page.screenshot(path=str(SHOTS / "screen_room_finder.png"))
    show(page, "standings")
    page.screenshot(path=str(SHOTS / "screen_room_standings.png"))
    show(page, "pairings")

    # A deal at table 1: no publish, the counter moves; the screen follows without a reload, with
    # a fetch of its tables only.
    page.evaluate("window.__same_page = true")
    fetched.clear()
    scoring.deal_record(match=tables[1].match, deal=WIN_0)
    expect(first.locator(".score")).to_have_text("Deal 3 of 3 200–124", timeout=PUSH_MS)
    assert page.evaluate("window.__same_page === true")
    assert fetched and all("part=tables" in url for url in fetched)
    assert refused == []


@pytest.mark.parametrize("viewport", [TV, PROJECTOR], ids=["1920x1080", "1280x720"])
def test_the_standings_are_paged_evenly(page: Page, live_server, concours, viewport):
    open_screen(page, live_server.url, concours, viewport)
    pages = page.eval_on_selector_all(
        ".panel-standings", "els => els.map(e => e.querySelectorAll('tbody tr').length)"
    )
    assert sum(pages) == TEAMS
    assert max(pages) - min(pages) <= 1 and (len(pages) == 1 or min(pages) > 1), pages
    if viewport is PROJECTOR:
        assert pages == [7, 6]  # 13 rows on pages of 10 or so: never 12 and 1
        show(page, "standings")
        page.screenshot(path=str(SHOTS / "screen_room_standings_720.png"))
    # The points a concours is ranked by: its first column, highlighted, with the team numbers.
    assert page.locator(".panel-standings th.ranked").first.text_content() == "Pts"
    assert page.locator(".panel-standings td.team-cell small.no").count() == TEAMS


def test_the_final_ranking_with_its_points(page: Page, live_server, concours):
    organizer = concours.organizer
    rnd = concours.rounds.get(number=1)
    for table in rnd.tables.select_related("match").order_by("number"):
        while table.match is not None and table.match.status != "finished":
            scoring.deal_record(match=table.match, deal=WIN_0)
            table.match.refresh_from_db()
    services.tournament_finish(tournament=concours, reason="The café closes", user=organizer)
    open_screen(page, live_server.url, concours, TV)
    expect(page.get_by_test_id("screen-podium")).to_be_visible()
    ranking = page.locator(".panel-ranking")
    assert set(ranking.locator("th.ranked").all_text_contents()) == {"Pts"}
    points = ranking.locator("td.ranked").all_text_contents()  # every page's
    assert len(points) == TEAMS and all(re.fullmatch(r"\d+", p) for p in points)
    assert [int(p) for p in points] == sorted((int(p) for p in points), reverse=True)
    show(page, "ranking")
    page.screenshot(path=str(SHOTS / "screen_room_ranking.png"))


def finish(table, side=0):
    deal = {"maker": side, "card_points": [152, 0] if side == 0 else [0, 152], "capot": side}
    while table.match.status != "finished":
        scoring.deal_record(match=table.match, deal=deal)
        table.match.refresh_from_db()


def test_a_knockouts_bracket_panel(page: Page, live_server):
    organizer = get_user_model().objects.create_user(username="org", password="pw-org-12345")
    t = services.tournament_create(
        organizer=organizer, name="Winter cup", swiss_rounds=1, knockout_size=8, third_place=True,
        deals_per_match=1,
    )  # fmt: skip
    for i in range(8):
        services.entry_register(
            tournament=t, name=f"{NAMES[i % 4]} {i + 1}", players=[player(2 * i), player(2 * i + 1)]
        )
    services.tournament_start(tournament=t, user=organizer)
    stage = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for table in stage.tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    quarters = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    tables = list(quarters.tables.order_by("number"))
    finish(tables[0], 0)
    open_screen(page, live_server.url, t, TV)
    expect(page.locator(".panel-bracket")).to_have_count(1)
    assert page.locator(".panel-bracket .bracket-column").count() == 3
    assert page.locator(".panel-bracket .is-winner").count() == 1
    # The quarter-finals' pairings with their players, and the finder, beside the bracket.
    assert page.locator(".panel-pairings .players").count() == 8
    assert page.locator(".panel-finder").count() >= 1
    show(page, "bracket")
    page.screenshot(path=str(SHOTS / "screen_room_bracket.png"))

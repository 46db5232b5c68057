"""The organizer's console (issue 26) in a real browser: the console open in one page, a deal
recorded at a table's tablet in another: the table's tile changes without a reload; the table
calls the director with one silent tap: the call appears on the console, is acknowledged, and is
gone. The console fits a tablet, landscape (1280×800) and portrait (800×1280)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.functional.test_mpourloto_sheet import Pad
from tournaments import services
from tournaments.models import DirectorCall

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "director", "pw-director-123"
SIZES = {"landscape": {"width": 1280, "height": 800}, "portrait": {"width": 800, "height": 1280}}


def round_in_play(organizer, teams=8):
    t = services.tournament_create(organizer=organizer, name="Friday Concours", deals_per_match=8)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    t = services.tournament_start(tournament=t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    return t, list(rnd.tables.order_by("number"))


def log_in(page: Page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


@pytest.mark.parametrize("size", SIZES)
def test_the_console_follows_the_tables_live(
    live_server, browser: Browser, page: Page, django_user_model, size
):
    organizer = django_user_model.objects.create_user(username=USERNAME, password=PASSWORD)
    t, tables = round_in_play(organizer)
    page.set_viewport_size(SIZES[size])
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/tournaments/{t.slug}/manage/console/")
    expect(page.get_by_test_id("tile-state-1")).to_have_text("Not started")
    expect(page.get_by_test_id("tile-4")).to_be_visible()
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the console is wider than the tablet by {overflow}px"
    tile_box = page.get_by_test_id("tile-1").bounding_box()
    assert tile_box["height"] >= 44

    tablet = browser.new_context(viewport=SIZES[size])
    keeper = tablet.new_page()
    errors: list[str] = []
    keeper.on("pageerror", lambda error: errors.append(str(error)))
    keeper.goto(f"{live_server.url}/s/{tables[0].token}/")
    pad = Pad(keeper)
    pad.trumps(0)
    pad.key_in(100)
    pad.last_trick("0")
    pad.record()
    expect(keeper.locator("tr[data-testid=deal-row]")).to_have_count(1)
    # The console's tile changes by itself: no reload.
    expect(page.get_by_test_id("tile-state-1")).to_contain_text(re.compile(r"Deal 2 of 8"))
    expect(page.get_by_test_id("flag-silent-1")).to_have_count(0)  # the tablet was heard

    # One silent tap: no dialog, the button says so.
    keeper.get_by_test_id("call-director").click()
    expect(keeper.get_by_test_id("director-called")).to_have_text("Director called")
    keeper.get_by_test_id("director-called").click(force=True)  # tapped again: nothing piles up
    expect(page.get_by_test_id("call-1")).to_be_visible()
    expect(page.get_by_test_id("flag-call-1")).to_be_visible()
    calls = page.get_by_test_id("console-calls").bounding_box()
    assert calls["y"] < page.get_by_test_id("console-tables").bounding_box()["y"]  # at the top
    assert DirectorCall.objects.filter(table=tables[0]).count() == 1
    page.get_by_test_id("acknowledge-1").click()
    expect(page.get_by_test_id("call-1")).to_have_count(0)
    expect(page.get_by_test_id("flag-call-1")).to_have_count(0)
    keeper.reload()
    expect(keeper.get_by_test_id("call-director")).to_have_text("Call the director")
    tablet.close()
    assert not errors, errors


def test_the_manage_page_shows_the_console_first_and_it_follows_a_call(
    live_server, browser: Browser, page: Page, django_user_model
):
    organizer = django_user_model.objects.create_user(username=USERNAME, password=PASSWORD)
    t, tables = round_in_play(organizer)
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/tournaments/{t.slug}/manage/")
    console = page.get_by_test_id("console-section")
    expect(console).to_be_visible()
    assert console.bounding_box()["y"] < page.locator("#rounds").bounding_box()["y"]
    expect(page.get_by_test_id("draw-waiting")).to_contain_text("Waiting for tables 1, 2, 3, 4 (4 of 4)")
    services.call_create(table=tables[2])  # committed at once (a transactional test): the counter moves
    expect(page.get_by_test_id("call-3")).to_be_visible()
    page.get_by_test_id("acknowledge-3").click()
    expect(page.get_by_test_id("call-3")).to_have_count(0)

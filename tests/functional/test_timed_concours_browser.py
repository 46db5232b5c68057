"""A timed concours round with two tables, in a real browser: the organizer starts the round and its
clock, the two tablets show the time left, the organizer calls time (takes the time away), each
tablet says its deal in play is the last, and the deal each records ends its match on the totals.

The tournament and its teams are set up through the services; everything else through the pages.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.functional.test_mpourloto_sheet import Pad
from tournaments import services
from tournaments.models import Round, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "director", "pw-director-123"


@pytest.fixture
def concours(django_user_model):
    organizer = django_user_model.objects.create_user(username=USERNAME, password=PASSWORD)
    t = services.tournament_create(
        organizer=organizer, name="Friday concours", format="concours", swiss_rounds=3, time_limit=40
    )
    for team, players in [
        ("Aces", ("Ada", "Bo")),
        ("Kings", ("Cy", "Di")),
        ("Queens", ("Ed", "Flo")),
        ("Jacks", ("Gus", "Hal")),
    ]:
        services.entry_register(tournament=t, name=team, players=list(players))
    return services.tournament_start(tournament=t)


def test_a_timed_concours_round_with_two_tables(live_server, browser: Browser, page: Page, concours):
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{base}/tournaments/{concours.slug}/manage/")
    page.get_by_role("button", name=re.compile(r"^Draw (round \d+|the next round)$")).click()
    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_test_id("clock-controls")).to_contain_text("40:00 once started.")
    page.get_by_test_id("clock-start").click()
    expect(page.get_by_test_id("clock-controls").locator(".round-clock")).to_contain_text(
        re.compile(r"Time left\s+(40:00|39:5\d)")
    )

    tables = list(Table.objects.filter(round__tournament=concours).order_by("number"))
    assert len(tables) == 2
    tablets = browser.new_context(viewport={"width": 1280, "height": 800})
    keepers = []
    for table in tables:
        keeper = tablets.new_page()
        keeper.goto(f"{base}/s/{table.token}/")
        expect(keeper.get_by_test_id("round-clock")).to_contain_text("Time left")
        pad = Pad(keeper)  # a first deal within the time: the makers of side 0 take 100 + 10
        pad.trumps(0)
        pad.key_in(100)
        pad.last_trick("0")
        pad.record()
        expect(keeper.get_by_test_id("total-0")).to_have_text("110")
        keepers.append(keeper)

    # The director calls time: every table's remaining time is taken away.
    clock_form = page.get_by_test_id("clock-controls")
    clock_form.locator('input[name="minutes"]').fill("-40")
    clock_form.get_by_role("button", name="Add time").click()
    expect(page.get_by_test_id("clock-controls").locator(".round-clock")).to_contain_text(
        "Time is up: each table's deal in play is its last"
    )

    for n, keeper in enumerate(keepers):
        keeper.reload()
        expect(keeper.get_by_test_id("round-clock")).to_have_text(
            re.compile("Time is up: this deal is the last")
        )
        pad = Pad(keeper)  # the deal in play when time was called: side 1 makes it
        pad.trumps(1)
        pad.key_in(90 + n)
        pad.last_trick("1")
        pad.record()
        expect(keeper.get_by_test_id("match-state").locator(".winner-banner")).to_be_visible()
        expect(keeper.locator(".entry .done")).to_contain_text("The match is over")
        expect(keeper.get_by_test_id("round-clock")).to_have_count(0)

    rnd = Round.objects.get(tournament=concours, number=1)
    deadline = time.monotonic() + 10  # the round closes with the standings, just after the answer
    while rnd.status != Round.Status.FINISHED and time.monotonic() < deadline:
        time.sleep(0.1)
        rnd.refresh_from_db()
    assert rnd.status == Round.Status.FINISHED
    for table in Table.objects.filter(round=rnd).select_related("match"):
        assert table.match.status == "finished" and table.match.options["ended_after"] == 2
    page.goto(f"{base}/tournaments/{concours.slug}/rounds/1/")
    expect(page.get_by_test_id("pairings").locator("tbody tr")).to_have_count(2)
    expect(page.get_by_test_id("pairings").locator(".score-cell")).to_contain_text(["✓", "✓"])
    tablets.close()

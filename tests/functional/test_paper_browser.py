"""In a real browser: a drawn round drawn again, deleted after its confirmation, drawn and started; then
a table's result typed from its paper sheet, shown on the round's pairings as from the paper sheet.

The tournament and its teams are set up through the services; everything else through the pages.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tournaments import services
from tournaments.models import Adjustment, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "director", "pw-director-123"


@pytest.fixture
def concours(django_user_model):
    organizer = django_user_model.objects.create_user(username=USERNAME, password=PASSWORD)
    t = services.tournament_create(
        organizer=organizer, name="Friday concours", format="concours", swiss_rounds=3
    )
    for team, players in [("Aces", ("Ada", "Bo")), ("Kings", ("Cy", "Di")), ("Queens", ("Ed", "Flo"))]:
        services.entry_register(tournament=t, name=team, players=list(players))
    services.entry_register(tournament=t, name="Jacks", players=["Gus", "Hal"])
    return services.tournament_start(tournament=t)


def test_redraw_delete_and_a_paper_result(live_server, page: Page, concours):
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    manage = f"{base}/tournaments/{concours.slug}/manage/"
    page.goto(manage)
    draw = page.get_by_role("button", name=re.compile(r"^Draw (round \d+|the next round)$"))
    draw.click()
    page.get_by_test_id("round-redraw").click()
    expect(page.get_by_text("Round 1 is drawn again")).to_be_visible()
    page.get_by_test_id("round-delete").click()
    expect(page.get_by_role("heading", name="Delete round 1?")).to_be_visible()
    page.get_by_role("checkbox").check()
    page.get_by_role("button", name="Delete the round").click()
    expect(page.get_by_text("Round 1 is deleted")).to_be_visible()
    assert not Round.objects.filter(tournament=concours).exists()

    draw.click()
    page.get_by_role("button", name="Start round 1").click()
    page.goto(f"{base}/tournaments/{concours.slug}/manage/rounds/1/tables/1/paper/")
    totals = page.locator("input[inputmode=numeric]")
    expect(totals).to_have_count(2)
    totals.nth(0).fill("1012")
    totals.nth(1).fill("874")
    page.get_by_test_id("paper-save").click()
    expect(page).to_have_url(re.compile(r"/manage/#console$"))
    assert Adjustment.objects.get(kind=Adjustment.Kind.PAPER).scores == [1012, 874]
    page.goto(f"{base}/tournaments/{concours.slug}/rounds/1/")
    expect(page.get_by_test_id("paper")).to_contain_text("From the paper sheet")
    expect(page.get_by_test_id("paper")).to_contain_text("1012–874")

"""The other team's check of each deal on a tournament table's tablet (issue 25), in a real browser,
landscape (1280×800) and portrait (800×1280).

On a tournament that asks for it: after Record, the deal's line appears between the pad and the
sheet's rows, in view, with a big "OK" and "Correct", the pad where it was; the next deal is
recorded without tapping OK (its line replaces the last one); tapping OK records the check and
moves no control of the pad;
the organizer's console lists the deal left unchecked. On a tournament that does not ask, nothing
of it appears. The tournaments are set up through the services; the rest through the pages.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from scoring.models import Deal
from tests.functional.test_mpourloto_sheet import Pad
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "director", "pw-director-123"
SIZES = {"landscape": {"width": 1280, "height": 800}, "portrait": {"width": 800, "height": 1280}}


def round_in_play(organizer, *, checked: bool):
    t = services.tournament_create(organizer=organizer, name="Friday Concours", deals_per_match=8)
    for team, players in [("Aces", ("Ada", "Bo")), ("Kings", ("Cy", "Di")), ("Queens", ("Ed", "Flo"))]:
        services.entry_register(tournament=t, name=team, players=list(players))
    services.entry_register(tournament=t, name="Jacks", players=["Gus", "Hal"])
    t = services.tournament_start(tournament=t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    if checked:
        services.tournament_deal_check(tournament=t, on=True)
    return t, rnd.tables.order_by("number").first()


def boxes(page: Page) -> dict[str, dict]:
    """Where the pad's controls are: every tap, key and button of the deal form."""
    found = page.evaluate(
        """() => Array.from(document.querySelectorAll(
               'form.deal-form label.tap, form.deal-form button, form.deal-form input[type=text]'))
             .map((el, i) => [i, el.getBoundingClientRect().toJSON()])"""
    )
    return {str(i): {k: round(v) for k, v in box.items()} for i, box in found}


def deal(pad: Pad, team: int, points: int) -> None:
    pad.trumps(team)
    pad.key_in(points)
    pad.last_trick(str(team))


@pytest.mark.parametrize("size", SIZES)
def test_the_other_team_checks_each_deal_with_one_tap(
    live_server, browser: Browser, page: Page, django_user_model, size
):
    organizer = django_user_model.objects.create_user(username=USERNAME, password=PASSWORD)
    t, table = round_in_play(organizer, checked=True)
    tablet = browser.new_context(viewport=SIZES[size])
    keeper = tablet.new_page()
    errors: list[str] = []
    keeper.on("pageerror", lambda error: errors.append(str(error)))
    keeper.goto(f"{live_server.url}/s/{table.token}/")
    expect(keeper.get_by_test_id("check-ok")).to_have_count(0)  # no deal yet

    pad = Pad(keeper)
    deal(pad, 0, 100)
    form_top = keeper.locator("form.deal-form").bounding_box()["y"]
    pad.record()
    line = keeper.get_by_test_id("check-line")
    expect(line).to_contain_text("Deal 1: the other team checks it")
    expect(line).to_contain_text("+110")
    expect(keeper.get_by_test_id("check-ok")).to_be_in_viewport()
    expect(keeper.get_by_test_id("check-correct")).to_be_in_viewport()
    ok_box = keeper.get_by_test_id("check-ok").bounding_box()
    assert ok_box["height"] >= 44 and ok_box["width"] >= 44
    assert keeper.locator("form.deal-form").bounding_box()["y"] == form_top  # the line is under the pad

    # The next deal does not wait for the check: its line replaces the last one.
    deal(pad, 1, 90)
    pad.record()
    expect(line).to_contain_text("Deal 2: the other team checks it")
    expect(keeper.locator("tr[data-testid=deal-row]")).to_have_count(2)
    before = boxes(keeper)
    keeper.get_by_test_id("check-ok").click()
    expect(keeper.get_by_test_id("check-done")).to_have_text("Deal 2 checked by the other team.")
    after = boxes(keeper)
    moved = {k: (before[k], after.get(k)) for k in before if after.get(k) != before[k]}
    assert not moved, f"the pad moved when OK was tapped: {moved}"
    deals = list(Deal.objects.filter(match_id=table.match_id).order_by("position"))
    assert [d.checked_at is not None for d in deals] == [False, True]

    # The organizer's console: deal 1 was never checked.
    keeper.goto(f"{live_server.url}/accounts/login/")
    keeper.get_by_label("Username").fill(USERNAME)
    keeper.get_by_label("Password").fill(PASSWORD)
    keeper.get_by_role("button", name="Log in").click()
    keeper.goto(f"{live_server.url}/tournaments/{t.slug}/manage/")
    expect(keeper.get_by_test_id("unchecked-deals")).to_contain_text(
        f"Round 1, table {table.number}: deal 1 not checked"
    )
    tablet.close()
    assert not errors, errors


@pytest.mark.parametrize("size", SIZES)
def test_a_tournament_that_does_not_ask_shows_no_check(
    live_server, browser: Browser, page: Page, django_user_model, size
):
    organizer = django_user_model.objects.create_user(username=USERNAME, password=PASSWORD)
    t, table = round_in_play(organizer, checked=False)
    tablet = browser.new_context(viewport=SIZES[size])
    keeper = tablet.new_page()
    keeper.goto(f"{live_server.url}/s/{table.token}/")
    pad = Pad(keeper)
    deal(pad, 0, 100)
    pad.record()
    expect(keeper.locator("tr[data-testid=deal-row]")).to_have_count(1)
    expect(keeper.get_by_test_id("deal-check")).to_have_count(0)
    expect(keeper.get_by_test_id("check-ok")).to_have_count(0)
    keeper.goto(f"{live_server.url}/accounts/login/")
    keeper.get_by_label("Username").fill(USERNAME)
    keeper.get_by_label("Password").fill(PASSWORD)
    keeper.get_by_role("button", name="Log in").click()
    keeper.goto(f"{live_server.url}/tournaments/{t.slug}/manage/")
    expect(keeper.get_by_test_id("deal-check-on")).to_be_visible()
    expect(keeper.get_by_test_id("unchecked-deals")).to_have_count(0)
    tablet.close()

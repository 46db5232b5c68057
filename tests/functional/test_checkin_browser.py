"""Self check-in on a phone (issue 26): the organizer opens self check-in on the manage page; a team
opens its own link (its slip's QR code) on a phone, taps once and is checked in; the organizer's
count of who is missing drops."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tournaments import services
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "organizer", "pw-organizer-123"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username=USERNAME, password=PASSWORD)


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    """A phone, never logged in: the team's. A JavaScript error on its pages fails the test."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    context.set_default_timeout(10_000)
    js_errors: list[str] = []
    context.on("page", lambda tab: tab.on("pageerror", lambda error: js_errors.append(str(error))))
    try:
        yield context
    finally:
        context.close()
    assert not js_errors, f"JavaScript errors on the team's phone: {js_errors}"


def shot(tab: Page | Locator, name: str) -> None:
    """With TSOXA_SCREENSHOTS=<folder>: the page (or a part) as the README and the help show it."""
    folder = os.environ.get("TSOXA_SCREENSHOTS")
    if folder:
        path = str(Path(folder) / f"checkin-{name}.png")
        tab.screenshot(path=path, full_page=True) if isinstance(tab, Page) else tab.screenshot(path=path)


def log_in(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".topbar .who")).to_have_text(USERNAME)


def test_a_team_checks_itself_in_from_its_link_on_a_phone(page: Page, phone, live_server, organizer):
    t = services.tournament_create(organizer=organizer, name="Friday concours", swiss_rounds=4)
    for name in ("Kyma", "Limani", "Asteri"):
        services.entry_register(tournament=t, name=name, players=[f"{name} A", f"{name} B"])
    kyma = t.entries.get(team__name="Kyma")

    # The organizer opens self check-in: nobody is there yet.
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/tournaments/{t.slug}/manage/")
    count = page.get_by_test_id("checkin-count")
    expect(count).to_have_text("0 of 3 checked in · missing: 1 Kyma, 2 Limani, 3 Asteri")
    page.get_by_role("button", name="Open self check-in").click()
    expect(page).to_have_url(re.compile(r"/manage/#checkin$"))
    expect(page.get_by_test_id("checkin-open-state")).to_contain_text("Self check-in is open")
    expect(page.get_by_role("button", name="Close self check-in")).to_be_visible()

    # The slips: one per team, each with its QR code.
    page.get_by_role("link", name="Print the check-in slips").click()
    slips = page.get_by_test_id("checkin-slip")
    expect(slips).to_have_count(3)
    expect(slips.nth(0)).to_contain_text("Kyma")
    for n in range(3):  # each slip's two codes are drawn: its check-in link, and the team's own page
        codes = slips.nth(n).locator("img.slip-qr")
        expect(codes).to_have_count(2)
        for code in codes.all():
            expect(code).to_have_js_property("complete", True)
            assert code.evaluate("img => img.naturalWidth") > 0
    shot(page, "slips")
    page.get_by_role("link", name="Back to the tournament").click()
    expect(page).to_have_url(re.compile(r"/manage/#checkin$"))

    # The team scans its slip: the page shows who it is and one big button; opening it changes nothing.
    tab = phone.new_page()
    tab.goto(f"{live_server.url}/c/{kyma.checkin_token}/")
    expect(tab.get_by_test_id("checkin-event")).to_have_text("Friday concours")
    expect(tab.get_by_test_id("checkin-number")).to_have_text("1")
    expect(tab.get_by_test_id("checkin-team")).to_have_text("Kyma")
    expect(tab.get_by_test_id("checkin-players")).to_have_text("Kyma A & Kyma B")
    button = tab.get_by_test_id("checkin-button")
    expect(button).to_have_text("Check in")
    box = button.bounding_box()
    assert box["height"] >= 64 and box["width"] >= 300, box  # a thumb's target, the phone's width
    assert box["y"] + box["height"] <= PHONE["height"], box  # on the first screen, no scrolling
    assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing sideways
    assert Entry.objects.get(pk=kyma.pk).status == "registered"
    shot(tab, "phone")

    # One tap: checked in.
    button.tap()
    expect(tab.get_by_test_id("checkin-status")).to_have_text("✓ Checked in — see you at the tables")
    expect(tab.get_by_test_id("checkin-button")).to_have_count(0)
    assert Entry.objects.get(pk=kyma.pk).status == "checked_in"
    shot(tab, "phone-done")

    # The organizer's count drops.
    page.reload()
    expect(count).to_have_text("1 of 3 checked in · missing: 2 Limani, 3 Asteri")
    shot(page.get_by_test_id("checkin"), "manage")

    # Check in all: nobody is missing.
    page.get_by_role("button", name="Check in all").click()
    expect(page.locator(".messages")).to_have_text("2 teams checked in.")
    expect(count).to_have_text("3 of 3 checked in")

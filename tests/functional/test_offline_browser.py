"""The tablet keeps scoring without a connection, and a reload does not lose anything.

In Chromium: the sheet of a match is opened once (the service worker keeps it), the connection
drops, three deals are recorded, the page is reloaded (served by the service worker, with the three
deals waiting), a fourth is recorded, the connection returns: the four deals are stored once each,
in order, and the header says "all sent".

Mpourloto, worked out by hand (RULES.md §1): made, each team adds its card points + 10 for the last
trick; mesa (makers not more), the other team adds both teams' points.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from scoring import services as scoring
from scoring.models import Deal
from tests.functional.conftest import TABLET, TIMEOUT_MS
from tests.functional.test_mpourloto_sheet import Pad

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEAMS = [("Alpha", ("Anna", "Chris")), ("Beta", ("Babis", "Dora"))]
WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def keep_match(page: Page, live_server, django_user_model):
    """A match, and this tablet logged in as its scorekeeper."""
    keeper = django_user_model.objects.create_user(username="keeper", password="pw-keeper-12345")
    match = scoring.match_create(teams=TEAMS, first_dealer=0, created_by=keeper)
    client = Client()
    client.force_login(keeper)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )
    return match


@pytest.fixture
def tablet(page: Page, live_server, django_user_model) -> Iterator[tuple[Page, str, object]]:
    """A scorekeeper's tablet, logged in, and their match; fails on any report of the policy."""
    match = keep_match(page, live_server, django_user_model)
    reports: list[str] = []
    page.on("console", lambda m: reports.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(WATCH_VIOLATIONS)
    yield page, live_server.url, match
    with contextlib.suppress(Exception):
        reports.extend(page.evaluate("window.__cspViolations || []"))
    assert reports == [], f"Content-Security-Policy reports: {reports}"


def deal(pad: Pad, *, maker: int, points: int, last: str) -> None:
    """The trump makers, their card points (the pad counts them for the makers), the last trick."""
    pad.trumps(maker)
    pad.key_in(points)
    pad.last_trick(last)
    pad.record()


def waiting_rows(page: Page):
    return page.get_by_test_id("waiting-row")


def test_deals_recorded_offline_survive_a_reload_and_are_stored_once_in_order(tablet) -> None:
    page, base, match = tablet
    sheet = f"{base}/matches/{match.pk}/"
    status = page.get_by_test_id("net-status")
    page.goto(sheet)
    # The service worker takes the page over and keeps a copy of the sheet (it says so when done).
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "true")
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == f"{base}/sw.js"
    expect(status).to_have_text("all sent")

    page.context.set_offline(True)
    expect(status).to_have_text("offline")
    pad = Pad(page)
    deal(pad, maker=0, points=90, last="0")  # Alpha 100, Beta 62: made
    expect(waiting_rows(page)).to_have_count(1)
    expect(status).to_have_text("offline, 1 waiting")
    deal(pad, maker=1, points=100, last="1")  # Beta 110, Alpha 52: made
    deal(pad, maker=0, points=80, last="1")  # Alpha 80, Beta 72 + 10: mesa, Beta 162
    expect(status).to_have_text("offline, 3 waiting")
    # The newest first, as the sheet's rows; the totals say they are from before the waiting deals.
    expect(waiting_rows(page).locator("td:first-child")).to_have_text(["3", "2", "1"])
    expect(waiting_rows(page).locator("td:nth-child(2)")).to_have_text(
        ["waiting Alpha · 80–72", "waiting Beta · 52–100", "waiting Alpha · 90–62"]
    )
    expect(page.get_by_test_id("total-0")).to_have_text("0")
    expect(page.get_by_test_id("before-waiting")).to_have_text("Totals before 3 waiting deals")
    assert Deal.objects.filter(match=match).count() == 0

    # A reload without the connection: the service worker's copy, with what waits in IndexedDB.
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-offline-copy", re.compile(r"^\d{4}-\d\d-\d\dT"))
    expect(page.get_by_test_id("offline-copy")).to_contain_text(
        "No connection: this is the copy of this sheet from"
    )
    expect(waiting_rows(page)).to_have_count(3)
    expect(status).to_have_text("offline, 3 waiting")
    expect(page.get_by_test_id("before-waiting")).to_have_text("Totals before 3 waiting deals")

    # Another page without the connection: the offline page, which leads back to the kept sheet.
    page.goto(f"{base}/tournaments/")
    expect(page.get_by_test_id("offline-page")).to_be_visible()
    kept = page.get_by_test_id("kept-sheets").get_by_role("link", name="Alpha – Beta")
    expect(page.get_by_test_id("kept-sheets")).to_contain_text("3 waiting")
    kept.click()
    expect(page).to_have_url(sheet)
    expect(waiting_rows(page)).to_have_count(3)

    # One more on the copy, then the connection returns: all four go, in order, once each.
    pad = Pad(page)
    deal(pad, maker=1, points=70, last="0")  # Beta 70, Alpha 82 + 10: mesa, Alpha 162
    expect(status).to_have_text("offline, 4 waiting")
    page.context.set_offline(False)
    expect(status).to_have_text("all sent")
    expect(waiting_rows(page)).to_have_count(0)
    expect(page.get_by_test_id("offline-copy")).to_have_count(0)
    expect(page.get_by_test_id("before-waiting")).to_be_hidden()
    expect(page.locator("tr[data-testid=deal-row]")).to_have_count(4)
    expect(page.get_by_test_id("total-0")).to_have_text(str(100 + 52 + 0 + 162))
    expect(page.get_by_test_id("total-1")).to_have_text(str(62 + 110 + 162 + 0))

    stored = list(Deal.objects.filter(match=match).order_by("position"))
    assert [(d.data["maker"], d.data["card_points"], d.data["last_trick"]) for d in stored] == [
        (0, [90, 62], 0),
        (1, [52, 100], 1),
        (0, [80, 72], 1),
        (1, [82, 70], 0),
    ]
    assert len({d.client_key for d in stored}) == 4
    # Opened again: nothing waits, nothing is sent twice.
    page.reload()
    expect(status).to_have_text("all sent")
    expect(page.locator("tr[data-testid=deal-row]")).to_have_count(4)
    assert Deal.objects.filter(match=match).count() == 4

    # Logging out forgets the sheets kept on this tablet: the next person may not see them.
    assert page.evaluate("caches.open('tsoxa-sheets').then(c => c.keys()).then(k => k.length)") >= 1
    page.get_by_role("button", name="Log out").click()
    expect(page.locator(".topbar").get_by_role("link", name="Log in")).to_be_visible()
    assert page.evaluate("caches.open('tsoxa-sheets').then(c => c.keys()).then(k => k.length)") == 0


@pytest.fixture
def tablet_without_worker(browser, live_server, django_user_model) -> Iterator[tuple[Page, str, object]]:
    """As ``tablet``, in a browser that runs no service worker (so that the test can cut the
    requests of the page): the deals still wait in IndexedDB."""
    context = browser.new_context(viewport=TABLET, service_workers="block")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    match = keep_match(page, live_server, django_user_model)
    try:
        yield page, live_server.url, match
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_a_lost_deal_holds_back_the_next_and_a_double_tap_waits_once(tablet_without_worker):
    page, base, match = tablet_without_worker
    status = page.get_by_test_id("net-status")
    page.goto(f"{base}/matches/{match.pk}/")
    page.context.set_offline(True)
    pad = Pad(page)
    pad.trumps(0)
    pad.key_in(90)
    pad.last_trick("0")
    # No preview without the server: the pad says what will happen instead.
    expect(page.get_by_test_id("preview")).to_have_text(
        "No connection: the deal will wait on this tablet and be sent when it returns."
    )
    pad.record()
    pad.record()  # the finger taps Record twice: the deal waits once, the empty pad is not a deal
    expect(waiting_rows(page)).to_have_count(1)
    deal(pad, maker=1, points=100, last="1")
    expect(status).to_have_text("offline, 2 waiting")

    # The connection returns but the first deal's post is lost on the way: nothing is sent after it.
    posts: list[str] = []

    def lose_the_first(route) -> None:
        posts.append(route.request.post_data or "")
        if len(posts) == 1:
            route.abort()
        else:
            route.continue_()

    page.route("**/matches/*/deals/", lose_the_first)
    with page.expect_event("requestfailed"):
        page.context.set_offline(False)
    page.wait_for_timeout(500)  # time enough for a deal sent after the lost one
    assert len(posts) == 1 and "maker=0" in posts[0]
    expect(status).to_have_text("2 waiting to be sent")
    expect(waiting_rows(page)).to_have_count(2)
    assert Deal.objects.filter(match=match).count() == 0

    page.evaluate("window.dispatchEvent(new Event('online'))")  # as the next retry would
    expect(status).to_have_text("all sent")
    stored = list(Deal.objects.filter(match=match).order_by("position"))
    assert [(d.data["maker"], d.data["card_points"]) for d in stored] == [(0, [90, 62]), (1, [52, 100])]
    expect(page.locator("tr[data-testid=deal-row]")).to_have_count(2)

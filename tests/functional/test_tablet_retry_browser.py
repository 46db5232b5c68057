"""The tablet never lies (issue 24): a Record the server fails, or never answers, is not lost.

In Chromium, with the connection up all along: the first post of a deal gets a server error (500),
the first retry gets no answer (cut on the way), and a second deal is recorded meanwhile; the header
says how many deals wait and never "all sent" before the server has them; then the deals go, each
stored once, the first before the second. A refusal is another thing: the pad says why and keeps
what was typed, and nothing waits.

Mpourloto, worked out by hand (RULES.md §1): made, each team adds its card points + 10 for the last
trick.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from urllib.parse import parse_qs

import pytest
from django.contrib.sessions.models import Session
from playwright.sync_api import Page, Route, expect

from scoring.models import Deal
from tests.functional.conftest import TABLET, TIMEOUT_MS
from tests.functional.test_mpourloto_sheet import Pad
from tests.functional.test_offline_browser import deal, keep_match, waiting_rows

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tablet(browser, live_server, django_user_model) -> Iterator[tuple[Page, str, object]]:
    """A scorekeeper's tablet and their match, in a browser that runs no service worker (so that
    the test sees, and cuts, the page's own requests)."""
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


def posted(route: Route) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(route.request.post_data or "").items()}


def test_a_deal_the_server_fails_twice_waits_is_sent_again_and_stored_once_in_order(tablet) -> None:
    page, base, match = tablet
    status = page.get_by_test_id("net-status")
    posts: list[dict[str, str]] = []
    held: list[Route] = []

    def fail_twice(route: Route) -> None:
        posts.append(posted(route))
        if len(posts) == 1:
            route.fulfill(status=500, content_type="text/html", body="<h1>Server Error (500)</h1>")
        elif len(posts) == 2:
            held.append(route)  # no answer yet: cut below, once the next deal is recorded
        else:
            route.continue_()

    page.route("**/matches/*/deals/", fail_twice)
    page.goto(f"{base}/matches/{match.pk}/")
    expect(status).to_have_text("all sent")
    pad = Pad(page)

    deal(pad, maker=0, points=90, last="0")  # Alpha 100, Beta 62: made
    # Not silent: the deal waits, with its key, and the header says so; the pad is free again.
    expect(status).to_have_text("1 waiting to be sent")
    expect(waiting_rows(page)).to_have_count(1)
    expect(waiting_rows(page).locator("td:nth-child(2)")).to_have_text("waiting Alpha · 90–62")
    expect(page.get_by_test_id("before-waiting")).to_have_text("Totals before 1 waiting deal")
    expect(page.locator("#card-points")).to_have_value("")
    first_key = posts[0]["client_key"]

    # Recorded while the first waits: it waits behind it, never sent before it.
    deal(pad, maker=1, points=100, last="1")  # Beta 110, Alpha 52: made
    expect(status).to_have_text("2 waiting to be sent")
    expect(waiting_rows(page)).to_have_count(2)
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(100)  # the first retry comes after a pause (2 s)
    assert len(posts) == 2 and posts[1]["client_key"] == first_key  # the first again, not the second
    assert Deal.objects.filter(match=match).count() == 0
    expect(status).to_have_text("2 waiting to be sent")  # never "all sent" before the server has them
    held[0].abort()  # the second try gets no answer either

    expect(status).to_have_text("all sent")
    expect(waiting_rows(page)).to_have_count(0)
    expect(page.locator("tr[data-testid=deal-row]")).to_have_count(2)
    expect(page.get_by_test_id("total-0")).to_have_text(str(100 + 52))
    expect(page.get_by_test_id("total-1")).to_have_text(str(62 + 110))
    stored = list(Deal.objects.filter(match=match).order_by("position"))
    assert [(d.data["maker"], d.data["card_points"]) for d in stored] == [(0, [90, 62]), (1, [52, 100])]
    assert str(stored[0].client_key) == first_key  # the key it had from the first tap: stored once
    assert [p["client_key"] for p in posts] == [first_key, first_key, first_key, str(stored[1].client_key)]


def test_a_deal_that_gets_no_answer_in_time_waits_and_is_sent_again(tablet) -> None:
    page, base, match = tablet
    status = page.get_by_test_id("net-status")
    posts: list[Route] = []

    def no_answer_at_first(route: Route) -> None:
        posts.append(route)
        if len(posts) > 1:
            route.continue_()  # the first is never answered

    page.route("**/matches/*/deals/", no_answer_at_first)
    page.goto(f"{base}/matches/{match.pk}/")
    # The pad gives a deal 15 s for its answer; here, half a second (a listener after offline.js's).
    page.evaluate(
        """document.addEventListener("htmx:configRequest", function (e) {
            if (!e.detail.elt.matches("form.deal-form")) return;
            window.__answerMs = e.detail.timeout;
            e.detail.timeout = 500;
        })"""
    )
    deal(Pad(page), maker=0, points=90, last="0")
    expect(status).to_have_text("sending…")  # on its way: not "all sent"
    expect(status).to_have_text("1 waiting to be sent")  # no answer in time: it waits
    assert page.evaluate("window.__answerMs") == 15_000
    expect(status).to_have_text("all sent")  # sent again after a pause, and stored
    expect(page.locator("tr[data-testid=deal-row]")).to_have_count(1)
    stored = list(Deal.objects.filter(match=match))
    assert [(d.data["maker"], d.data["card_points"]) for d in stored] == [(0, [90, 62])]
    assert len(posts) == 2


def test_a_refusal_says_why_keeps_the_pad_and_nothing_waits(tablet) -> None:
    page, base, match = tablet
    status = page.get_by_test_id("net-status")
    page.goto(f"{base}/matches/{match.pk}/")
    pad = Pad(page)

    # The rules refuse it: the pad says why and keeps what was typed.
    deal(pad, maker=0, points=200, last="0")  # more card points than the deck holds
    expect(page.get_by_test_id("pad-alert")).to_contain_text("Card points are between 0 and 152")
    expect(page.locator("#card-points")).to_have_value("200")
    expect(waiting_rows(page)).to_have_count(0)
    expect(status).to_have_text("all sent")

    # The server refuses it (the session has ended): the pad says so and keeps the deal too.
    page.locator('form.deal-form button[data-key="clear"]').click()
    pad.key_in(90)
    Session.objects.all().delete()
    pad.record()
    expect(page.get_by_test_id("pad-alert")).to_contain_text(
        "Not recorded: Only this match's scorekeeper can change it"
    )
    expect(page.locator("#card-points")).to_have_value("90")
    expect(page.locator('input[name="maker"][value="0"]')).to_be_checked()
    expect(waiting_rows(page)).to_have_count(0)
    expect(status).to_have_text("all sent")
    assert Deal.objects.filter(match=match).count() == 0

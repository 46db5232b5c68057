"""The API's documentation pages in a real browser: Swagger UI (/api/docs/) and ReDoc (/api/redoc/)
render the operations, grouped, with their summaries and the quick start, and every request they
make goes to this site: no font, logo, favicon or badge from elsewhere, so they work offline.

Every request of the page is recorded (Playwright sees each one the browser makes, the worker's
and the images' too); a request elsewhere is also refused, as a café without internet would.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Route, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOT_NETWORK = ("data:", "blob:")  # made in the page itself, nothing fetched
# The schema is made for each request (seconds) and the pages render a hundred operations: on a
# busy machine that takes a while.
LOADING_MS = 60_000


class Requests:
    """The addresses a page asked for, and those outside the live server's origin."""

    def __init__(self, page: Page, origin: str) -> None:
        self.origin = origin
        self.seen: list[str] = []
        self.elsewhere: list[str] = []
        page.on("request", lambda request: self.seen.append(request.url))
        page.context.route("**/*", self.route)

    def local(self, url: str) -> bool:
        parts = urlsplit(url)
        return url.startswith(NOT_NETWORK) or f"{parts.scheme}://{parts.netloc}" == self.origin

    def route(self, route: Route) -> None:
        if self.local(route.request.url):
            route.continue_()
        else:  # offline: nothing leaves the site
            self.elsewhere.append(route.request.url)
            route.abort()

    def outside(self) -> list[str]:
        return sorted({url for url in [*self.seen, *self.elsewhere] if not self.local(url)})


@pytest.fixture
def requests(page: Page, live_server) -> Iterator[Requests]:
    recorded = Requests(page, live_server.url)
    yield recorded
    assert recorded.outside() == [], f"requests outside the site: {recorded.outside()}"


def test_swagger_ui_shows_the_groups_the_summaries_and_no_padlock_on_public_reads(
    page: Page, live_server, requests: Requests
):
    page.goto(f"{live_server.url}/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Tsoxa API", timeout=LOADING_MS)
    # The quick start, at the top.
    info = page.locator(".swagger-ui .info")
    expect(info.get_by_role("heading", name="Quick start")).to_be_visible()
    expect(info.get_by_role("heading", name="Show them on your club's website")).to_be_visible()
    expect(info).to_contain_text("Tsoxa-Signature")
    # The operations, grouped by what a club does, each with its summary.
    for group in ("Tournaments and results", "Standings and rankings", "Entering results", "Webhooks"):
        expect(page.locator(".opblock-tag", has_text=group)).to_be_visible()
    standings = page.locator(".opblock-get").filter(
        has=page.locator('[data-path="/api/v1/tournaments/{slug}/standings/"]')
    )
    expect(standings.locator(".opblock-summary-description")).to_have_text(
        "The standings, with every tie-break value"
    )
    deal = page.locator(".opblock-post").filter(has=page.locator('[data-path="/api/v1/matches/{id}/deals/"]'))
    expect(deal.locator(".opblock-summary-description")).to_have_text("Record a deal")
    # No padlock on a read anyone may make; one on a write.
    expect(standings.locator(".authorization__btn")).to_have_count(0)
    expect(deal.locator(".authorization__btn")).to_have_count(1)

    # The Authorize box says what to type for a token.
    page.locator(".auth-wrapper .authorize").click()
    dialog = page.locator(".auth-container").filter(has_text="tokenAuth")
    expect(dialog).to_contain_text("Authorization: Token <your token>")
    page.locator(".auth-btn-wrapper .btn-done").first.click()

    # A public read, tried from the page: it answers, without credentials.
    standings.locator(".opblock-summary-control").click()
    expect(standings.locator(".try-out__btn")).to_be_visible()
    assert all(requests.local(url) for url in requests.seen)
    assert any(url.endswith("/api/schema/") or "/api/schema/?" in url for url in requests.seen)


def test_redoc_renders_the_quick_start_and_the_groups_with_nothing_from_elsewhere(
    page: Page, live_server, requests: Requests
):
    page.goto(f"{live_server.url}/api/redoc/")
    expect(page.get_by_role("heading", name="Tsoxa API", exact=False).first).to_be_visible(timeout=LOADING_MS)
    menu = page.locator("[role=menu], .menu-content").first
    for entry in ("Quick start", "Be told when something happens: webhooks", "Standings and rankings"):
        expect(menu.get_by_text(entry, exact=True).first).to_be_attached()
    expect(page.get_by_text("The standings, with every tie-break value").first).to_be_attached()
    expect(page.locator("img[src*='redoc.ly']")).to_have_count(0)
    # The system's fonts: no stylesheet or font from elsewhere.
    fonts = page.evaluate("[...document.fonts].map((font) => font.family)")
    assert not [family for family in fonts if "Montserrat" in family], fonts
    assert any("/api/redoc/redoc-" in url for url in requests.seen)

"""The guides at /docs/ in a real browser: the Material theme's scripts run under the page's own
Content-Security-Policy (the first visit and the one answered 304), nothing is fetched from another
origin (a café without internet), the search finds English and Greek words, and the in-app help's
link opens the scorekeeper's card in the reader's language."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.integration.test_guides import ROOT, built_site

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SEARCH_BUILT_MS = 40_000  # the guides' search index, built in the browser when first asked

WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


@pytest.fixture
def guides(settings, live_server, page: Page):
    """The built guides served by the live server; the page fails the test on a refusal of the
    policy, and lists every request outside the site."""
    settings.TSOXA_DOCS_DIR = built_site()
    reports: list[str] = []
    outside: list[str] = []
    page.on("console", lambda m: reports.append(m.text) if "Content Security Policy" in m.text else None)
    page.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith((live_server.url, "data:")) else None,
    )
    page.add_init_script(WATCH_VIOLATIONS)
    yield page, live_server.url, outside
    assert reports == [], reports
    assert outside == [], f"fetched from elsewhere: {outside}"


def violations(page: Page) -> list[str]:
    return page.evaluate("window.__cspViolations || []")


def search(page: Page, words: str):
    """The results of ``words`` typed in the theme's search box, key by key as a reader types (the
    theme reads the box on each key's release, not on a value set at once), then End pressed:
    Playwright inserts a letter its keyboard lacks (Greek) with no key released, so the theme would
    never read a Greek word. Typed once the index is built (the box's note turns from "Initializing
    search" to "Type to start searching"): keys typed while the worker still builds it are lost."""
    field = page.locator("input.md-search__input")
    field.click()
    expect(page.locator(".md-search-result__meta")).not_to_contain_text(
        "Initializing", timeout=SEARCH_BUILT_MS
    )
    field.press_sequentially(words, delay=20)
    field.press("End")
    return page.locator(".md-search-result__item")


def test_the_guides_run_their_scripts_and_search_offline(guides):
    page, base, _outside = guides
    page.goto(f"{base}/docs/")
    expect(page.locator("h1").first).to_have_text(re.compile(r"^Tsoxa"))
    # The theme's scripts ran: its inline start-up set the scope, its bundle built the navigation.
    assert page.evaluate("typeof __md_scope !== 'undefined' && typeof __md_get === 'function'")
    # The search builds its index in the browser when first asked (lunr, a web worker): on a machine
    # busy with other tests' browsers that took more than 15 s.
    expect(search(page, "webhook").first).to_be_visible(timeout=SEARCH_BUILT_MS)
    expect(page.locator(".md-search-result__list")).to_contain_text("Webhooks")
    assert violations(page) == []

    # A guide, then the index again: this time a 304, whose headers the browser takes.
    page.goto(f"{base}/docs/deploy/outage/")
    expect(page.locator("h1").first).to_contain_text("What happens in an outage")
    response = page.goto(f"{base}/docs/")
    assert response.status in (200, 304)
    assert page.evaluate("typeof __md_get === 'function'")
    assert violations(page) == []


@pytest.mark.skipif(not (ROOT / "docs" / "el" / "scorekeeper.md").is_file(), reason="no Greek card yet")
def test_the_help_opens_the_card_in_greek_and_greek_words_are_found(guides, browser, live_server):
    page, base, _outside = guides
    page.context.set_extra_http_headers({"Accept-Language": "el"})
    page.goto(f"{base}/help/")
    page.locator('[data-testid="guides"] a[href="/docs/el/scorekeeper/"]').click()
    expect(page).to_have_url(f"{base}/docs/el/scorekeeper/")
    title = page.locator("h1").first.inner_text()
    words = re.findall(r"[α-ωάέήίόύώΑ-Ω]+", title)
    assert words, title
    word = words[-1]
    expect(search(page, word).first).to_be_visible(timeout=SEARCH_BUILT_MS)
    expect(page.locator(".md-search-result__list")).to_contain_text(word)
    assert violations(page) == []

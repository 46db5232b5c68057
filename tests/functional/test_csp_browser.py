"""Under the Content-Security-Policy nothing breaks: the pages, htmx, tablet.js and the API docs
run in a real browser, and the browser reports no violation of the policy.

Chromium writes every refusal to the console ("Refused to execute inline script because it
violates the following Content Security Policy directive …") and fires a
securitypolicyviolation event; either fails the test, as does a JavaScript error (``page``).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from playwright.sync_api import Page, expect

from scoring import services as scoring
from tests.factories import TEAMS
from tests.functional.test_mpourloto_sheet import Pad
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "keeper", "pw-keeper-12345"
WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


@pytest.fixture
def watched(page: Page) -> Iterator[Page]:
    """``page``, failing the test on any report of the Content-Security-Policy or of htmx."""
    cache.clear()  # the login below counts against the rate limits
    reports: list[str] = []

    def listen(message) -> None:
        # A refusal of the policy, or htmx refusing to evaluate (its eval is off: base.html).
        if "Content Security Policy" in message.text or (message.type == "error" and "htmx:" in message.text):
            reports.append(message.text)

    page.on("console", listen)
    page.add_init_script(WATCH_VIOLATIONS)

    def collect() -> None:
        with contextlib.suppress(Exception):  # a page between two loads has no window to ask
            reports.extend(page.evaluate("window.__cspViolations || []"))

    page.collect_csp = collect  # type: ignore[attr-defined]
    yield page
    collect()
    assert reports == [], f"Content-Security-Policy reports: {reports}"


def visit(page: Page, url: str) -> None:
    """Go to ``url`` after collecting what the page before reported; the page is under a policy
    that allows no inline script without a nonce and no eval."""
    page.collect_csp()  # type: ignore[attr-defined]
    response = page.goto(url)
    policy = response.headers.get("content-security-policy", "")
    assert re.search(r"(^|;)\s*script-src 'self'( 'nonce-[^']+')?\s*(;|$)", policy), (url, policy)


def log_in(page: Page, base: str) -> None:
    visit(page, f"{base}/accounts/login/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".topbar .who")).to_have_text(USERNAME)


@pytest.fixture
def keeper(django_user_model):
    return django_user_model.objects.create_user(username=USERNAME, password=PASSWORD)


@pytest.fixture
def running(keeper):
    """A running Swiss tournament, round 1 under way: its standings page follows the results."""
    t = services.tournament_create(organizer=keeper, name="Policy night", swiss_rounds=2, deals_per_match=1)
    for name, players in [*TEAMS, ("C", ("Kostas", "Sofia")), ("D", ("Yannis", "Katerina"))]:
        services.entry_register(tournament=t, name=name, players=players)
    services.tournament_start(tournament=t)
    services.round_start(rnd=services.round_generate(tournament=t))
    services.standings_refresh(tournament_id=t.pk)
    return t


def test_the_pages_htmx_and_the_api_docs_run_under_the_policy(watched: Page, live_server, keeper, running):
    page, base = watched, live_server.url
    match = scoring.match_create(teams=TEAMS, first_dealer=0, created_by=keeper)

    visit(page, f"{base}/")
    expect(page.locator("html")).to_have_class(re.compile(r"\bjs\b"))  # base.html's inline script ran
    log_in(page, base)

    # The sheet: a deal entered on the pad, previewed and recorded through htmx.
    visit(page, f"{base}/matches/{match.pk}/")
    pad = Pad(page)
    pad.trumps(0)
    pad.key_in(90)
    pad.last_trick("0")
    pad.expect_preview("100")
    pad.record()
    expect(page.locator("tr[data-testid=deal-row]")).to_have_count(1)
    expect(page.get_by_test_id("total-0")).to_have_text("100")

    # Correcting a deal: deleting it asks first (tablet.js, no inline handler); declined, it stays.
    deal = match.deals.get()
    visit(page, f"{base}/matches/{match.pk}/deals/{deal.pk}/")
    questions: list[str] = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Delete this deal").click()
    expect(page).to_have_url(f"{base}/matches/{match.pk}/deals/{deal.pk}/")
    assert questions == ["Delete deal 1?"]

    # The printable sheet: its button prints (print.js).
    visit(page, f"{base}/matches/{match.pk}/print/")
    page.evaluate("window.print = function () { window.__printed = true; }")
    page.get_by_role("button", name="Print").click()
    assert page.evaluate("window.__printed === true")

    # The standings of a running tournament follow the results: htmx polls, without eval.
    visit(page, f"{base}/tournaments/{running.slug}/standings/")
    with page.expect_request(
        lambda r: r.url.endswith(f"/tournaments/{running.slug}/standings/") and r.headers.get("hx-request"),
        timeout=15_000,
    ):
        pass
    for name in ("home", "round"):
        path = {"home": "", "round": "rounds/1/"}[name]
        visit(page, f"{base}/tournaments/{running.slug}/{path}")
        expect(page.locator("main h1").first).to_be_visible()

    # The API's documentation: Swagger UI and ReDoc render the schema.
    # Each renders the whole schema (440 kB) in the browser: ReDoc 4 s here alone, over 20 s with
    # four browsers on two cores (CI failed on it).
    visit(page, f"{base}/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Tsoxa API", timeout=60_000)
    expect(page.locator(".opblock").first).to_be_visible()
    visit(page, f"{base}/api/redoc/")
    expect(page.get_by_role("heading", name=re.compile("Tsoxa API"))).to_be_visible(timeout=60_000)

    # The API as browsed in a browser (DRF's pages), and the admin's login page.
    visit(page, f"{base}/api/v1/tournaments/")
    expect(page.locator(".response-info")).to_contain_text("Policy night")
    visit(page, f"{base}/admin/login/")
    expect(page.locator("#id_username")).to_be_visible()

"""One look for the whole site, checked in a real browser (tsoxa.css, base.html).

- The header's navigation reaches every section (matches, a new match, tournaments, players, the
  leaderboard, help, logging in and out) from every main page, on screen and not covered.
- Each page stays light: its CSS and JavaScript, htmx aside, weigh 100 KB at most.
- An empty list says what to do next, with a button to do it.
- The two teams keep their colours everywhere: scoreboard, lists, pairings, new match, chart.
- In Greek and Bulgarian, at 800 px wide (a tablet upright), no page scrolls sideways.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from players.models import Player
from scoring import services
from scoring.models import Match
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOST_BYTES = 100_000  # CSS and JavaScript of one page, htmx aside
PORTRAIT = {"width": 800, "height": 1280}
LONG = [
    ("Kafeneio Kyparissia", ("Konstantinos", "Aikaterini")),
    ("Ομάδα Παλαιοπαντοπωλείου", ("Παναγιώτης", "Αικατερίνη")),
]

# The header's sections: link text → where it goes.
SECTIONS = {
    "Matches": "/",
    "New match": "/matches/new/",
    "Tournaments": "/tournaments/",
    "Players": "/players/",
    "Clubs": "/clubs/",
    "Leaderboard": "/players/leaderboard/",
    "Help": "/help/",
}


@pytest.fixture
def demo(db) -> dict[str, str]:
    """The demo data (a demo account, matches, a Swiss tournament in its second round), a match
    with long team names, and the paths of the main pages."""
    call_command("demo_data", stdout=io.StringIO())
    demo_user = Match.objects.exclude(created_by=None).first().created_by
    services.match_create(teams=LONG, created_by=demo_user)
    playing = Match.objects.get(team0__name="Kafeneio A", team1__name="Kafeneio B")
    slug = Tournament.objects.get(name="Friday club night").slug
    return {
        "home": "/",
        "sheet": f"/matches/{playing.pk}/",
        "long sheet": f"/matches/{Match.objects.latest('pk').pk}/",
        "new match": "/matches/new/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{slug}/",
        "standings": f"/tournaments/{slug}/standings/",
        "round": f"/tournaments/{slug}/rounds/2/",
        "players": "/players/",
        "player": f"/players/{playing.seat0_id}/",
        "leaderboard": "/players/leaderboard/",
        "help": "/help/",
    }


def context(browser: Browser, *, viewport=None, lang: str = "en", **options) -> BrowserContext:
    viewport = viewport or {"width": 1280, "height": 800}
    ctx = browser.new_context(viewport=viewport, extra_http_headers={"Accept-Language": lang}, **options)
    ctx.set_default_timeout(10_000)
    return ctx


def sign_in(ctx: BrowserContext, base: str, username: str = "demo") -> None:
    """The browser signed in as ``username`` (a session made here: no login form, no rate limit)."""
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    session = client.cookies[settings.SESSION_COOKIE_NAME]
    ctx.add_cookies([{"name": session.key, "value": session.value, "url": base}])


def log_in(page: Page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.locator('main input[name="username"]').fill("demo")
    page.locator('main input[name="password"]').fill("demo")
    page.locator('main button[type="submit"]').click()
    expect(page.locator(".topbar .who")).to_have_text("demo")


@pytest.fixture
def logged_in(browser: Browser, live_server, demo) -> Iterator[Page]:
    ctx = context(browser)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server.url)
    yield page
    ctx.close()
    assert not errors, errors


def uncovered(page: Page, locator) -> bool:
    """The element is inside the window and the topmost thing at its centre (nothing over it)."""
    return locator.evaluate(
        """el => {
            const r = el.getBoundingClientRect();
            const outside = r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight;
            if (r.width === 0 || outside) return false;
            const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return !!top && (top === el || el.contains(top));
        }"""
    )


# The navigation ----------------------------------------------------------------------------------


def test_the_header_reaches_every_section_from_every_main_page(logged_in: Page, live_server, demo):
    page, base = logged_in, live_server.url
    for name, path in demo.items():
        page.goto(base + path)
        nav = page.get_by_role("navigation", name="Main menu")
        for label, target in SECTIONS.items():
            link = nav.get_by_role("link", name=label, exact=True)
            expect(link).to_have_attribute("href", target)
            assert uncovered(page, link), f"{label} is hidden or covered on {name}"
        assert uncovered(page, page.get_by_role("button", name="Log out")), name
        assert uncovered(page, page.get_by_test_id("language-switcher")), name

    # Each section opens from the header, which then marks where one is.
    page.goto(base + demo["sheet"])
    for label, target in SECTIONS.items():
        page.get_by_role("navigation", name="Main menu").get_by_role("link", name=label, exact=True).click()
        expect(page).to_have_url(base + target)
        current = page.locator(".mainnav a[aria-current]")
        expect(current).to_have_count(1)
        expect(current).to_have_text(label)
    page.goto(base + "/players/")
    page.get_by_role("link", name="Nikos", exact=True).click()  # a player's page is under Players
    expect(page.locator("h1")).to_have_text("Nikos")
    expect(page.locator(".mainnav a[aria-current]")).to_have_text("Players")

    page.get_by_role("button", name="Log out").click()
    page.goto(base + "/")
    page.locator(".topbar").get_by_role("link", name="Log in").click()
    expect(page.locator("h1")).to_have_text("Log in")


@pytest.mark.parametrize("lang", ["en", "el", "fr", "bg"])
def test_the_header_keeps_to_one_row_on_a_landscape_tablet(browser: Browser, live_server, demo, lang):
    """At 1280 px the header is one row in every language, the connection status shown, so that the
    pad below has the height it needs."""
    ctx = context(browser, lang=lang)
    sign_in(ctx, live_server.url)
    page = ctx.new_page()
    for name in ("sheet", "home", "player"):
        page.goto(live_server.url + demo[name])
        # The connection status as offline.js shows it with deals waiting (it shows on any page).
        page.get_by_test_id("net-status").evaluate(
            "(el, text) => { el.textContent = text; el.dataset.state = 'offline'; el.hidden = false; }",
            "offline, 3 waiting",
        )
        tops = {round(link.bounding_box()["y"]) for link in page.locator(".mainnav a").all()}
        assert len(tops) == 1, (name, tops)
        assert page.locator(".topbar").bounding_box()["height"] < 80, name
    ctx.close()


# Page weight ----------------------------------------------------------------------------------------


def weight(
    browser: Browser, base: str, path: str, lang: str, username: str | None = "demo", **options
) -> dict[str, int]:
    """The CSS and JavaScript a fresh browser loads for the page (htmx aside), in bytes as they are
    used (uncompressed), by address; "inline" for what the page itself holds in <script> and <style>.
    Signed in as ``username`` (None: nobody); ``options``: the browser's (a phone's viewport)."""
    ctx = context(browser, lang=lang, service_workers="block", **options)  # a first visit: nothing cached
    if username:
        sign_in(ctx, base, username)
    page = ctx.new_page()
    ctx.new_cdp_session(page).send("Network.setCacheDisabled", {"cacheDisabled": True})
    page.goto(base + path)
    page.wait_for_load_state("load")
    entries = page.evaluate(
        """performance.getEntriesByType("resource")
            .filter(e => ["link", "script", "css"].includes(e.initiatorType))
            .map(e => [e.name, e.decodedBodySize])"""
    )
    loaded = {url: size for url, size in entries if "htmx" not in url and not url.endswith((".png", ".svg"))}
    loaded["inline"] = page.evaluate(
        "[...document.querySelectorAll('script:not([src]), style')]"
        ".reduce((n, el) => n + el.textContent.length, 0)"
    )
    ctx.close()
    return loaded


@pytest.mark.parametrize("lang", ["en", "el"])
def test_every_page_loads_at_most_100_kb_of_css_and_javascript(browser: Browser, live_server, demo, lang):
    heavy = {}
    for name in ("home", "sheet", "new match", "tournament", "standings", "players", "player"):
        loaded = weight(browser, live_server.url, demo[name], lang)
        assert any(url.endswith("tsoxa.css") for url in loaded), name  # it was measured
        assert any(url.endswith("tablet.js") for url in loaded), name
        if sum(loaded.values()) > MOST_BYTES:
            heavy[name] = loaded
    assert heavy == {}


# Empty lists ----------------------------------------------------------------------------------------


def test_an_empty_list_says_what_to_do_next(page: Page, live_server):
    nobody = Player.objects.create(name="Sofia")  # a player without a match, then nobody at all
    base = live_server.url
    for path, action in [
        (f"/players/{nobody.pk}/", "/matches/new/"),
        ("/", "/matches/new/"),
        ("/tournaments/", "/accounts/login/"),
        ("/players/leaderboard/", "/matches/new/"),
        ("/players/", "/matches/new/"),
    ]:
        if path == "/players/":
            nobody.delete()
        page.goto(base + path)
        empty = page.locator(".empty-state").last
        expect(empty).to_be_visible()
        assert len(empty.inner_text().split()) >= 5, path  # a sentence, not a blank box
        button = empty.locator("a.button", has_not_text="Help").last
        assert button.get_attribute("href").startswith(action), path
        assert uncovered(page, button), path
    page.locator(".empty-state a.button.primary").click()  # the last one: start a match
    expect(page).to_have_url(f"{base}/matches/new/")


# Team colours -----------------------------------------------------------------------------------------


def colour(page: Page, selector: str, prop: str) -> str:
    return page.locator(selector).first.evaluate(f"el => getComputedStyle(el).{prop}")


def css_var(page: Page, name: str) -> str:
    """A colour variable of tsoxa.css as the browser computes a colour: rgb(r, g, b)."""
    return page.evaluate(
        """name => {
            const probe = document.createElement("i");
            probe.style.color = `var(${name})`;
            document.body.append(probe);
            const c = getComputedStyle(probe).color;
            probe.remove();
            return c;
        }""",
        name,
    )


def test_each_team_keeps_its_colour_on_every_page(logged_in: Page, live_server, demo):
    page, base = logged_in, live_server.url
    page.goto(base + demo["sheet"])
    team0, team1 = css_var(page, "--team0"), css_var(page, "--team1")
    assert team0 != team1
    # The scoreboard: each team's name in its colour, on its own tint.
    assert colour(page, ".score.team0 .team-name", "color") == team0
    assert colour(page, ".score.team1 .team-name", "color") == team1
    assert colour(page, ".score.team0", "backgroundColor") == css_var(page, "--team0-bg")
    assert colour(page, ".score.team1", "backgroundColor") == css_var(page, "--team1-bg")
    # The chart draws the teams in the same two colours.
    chart = page.request.get(base + page.locator("[data-testid=score-chart] img").get_attribute("src")).text()
    strokes = re.findall(r'stroke="(#[0-9a-f]{6})"', chart)
    hex_of = {team0: None, team1: None}
    for hex_colour in set(strokes):
        rgb = "rgb({}, {}, {})".format(*(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)))
        if rgb in hex_of:
            hex_of[rgb] = hex_colour
    assert None not in hex_of.values(), strokes

    page.goto(base + "/")  # the list of matches: the score and the winner's badge
    assert colour(page, ".score-cell .side0", "color") == team0
    assert colour(page, ".score-cell .side1", "color") == team1
    assert colour(page, ".badge.team1", "backgroundColor") == team1

    page.goto(base + demo["round"])  # pairings: the first team plays as team 1
    assert colour(page, ".pairings .team-dot.team0", "backgroundColor") == team0
    assert colour(page, ".pairings .team-dot.team1", "backgroundColor") == team1

    page.goto(base + "/matches/new/")  # the two teams' boxes and their seats at the table
    assert colour(page, "fieldset.team0", "borderTopColor") == team0
    assert colour(page, "fieldset.team1", "borderTopColor") == team1
    assert colour(page, ".seats .seat0", "borderLeftColor") == team0
    assert colour(page, ".seats .seat1", "borderLeftColor") == team1


# Long words ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["el", "bg"])
def test_no_page_scrolls_sideways_at_800_px(browser: Browser, live_server, demo, lang):
    ctx = context(browser, viewport=PORTRAIT, lang=lang)
    sign_in(ctx, live_server.url)
    page = ctx.new_page()
    wide = {}
    for name, path in demo.items():
        page.goto(live_server.url + path)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        sizes = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        if sizes[0] > sizes[1]:
            wide[name] = sizes
        for link in page.locator(".mainnav a").all():  # the header wraps: its links stay on screen
            assert uncovered(page, link), (name, link.inner_text())
    ctx.close()
    assert wide == {}

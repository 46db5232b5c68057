"""A tournament table's sheet on a 10" tablet (issue 25, "A table knows where it is"), in a real browser,
at 1280×800 and 800×1280, for every rule set.

A concours of 12 deals a match, with long team names, its first round started; the tablet opens its
table's link (/s/<token>/, no account) with a few deals already played there. The header says the
event, the round, the table and the two team numbers in one row, with no site menu (a small ♣ to
leave, the connection's status, the languages); the scoreboard says "Deal n of 12" and no target's
"to go"; "End the match" is not offered (the organizer decides). Every control of the pad and of the
header is in view at rest, large enough and uncovered (as tests/functional/test_tablet_layout.py
measures the pad), and the score table is whole.

Then a one-deal concours played to its end on the pad: the sheet says "waiting for round 2" at once,
and, without a reload (htmx asks every 15 s), each team's table of round 2 once it is drawn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from scoring import services as scoring
from tests.functional.test_tablet_layout import (
    LANDSCAPE,
    PLAYED,
    SIZES,
    TABLE_JS,
    TEAMS,
    control_count,
    pad_problems,
    record_a_deal,
)
from tournaments import services
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EVENT = "Friday Concours at the Kafeneio"
DEALS = 12

# The header's own controls: the way out and the languages; and the place, which must show whole.
HEADER_JS = """
() => {
  const out = [];
  const topbar = document.querySelector(".topbar");
  const items = [...topbar.querySelectorAll("a, button, .table-place")].filter((el) => el.checkVisibility());
  if (items.length < 3) out.push(`only ${items.length} header items`);
  for (const el of items) {
    const r = el.getBoundingClientRect();
    const words = el.innerText.trim().slice(0, 30);
    const name = `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${words}"`;
    if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
      out.push(`${name} is outside the viewport`);
      continue;
    }
    if (!el.matches(".table-place") && (r.width < 40 || r.height < 40)) out.push(`${name} is too small`);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit) || hit.contains(el))) out.push(`${name} is covered`);
  }
  const place = topbar.querySelector(".table-place");
  if (place && place.scrollWidth > place.clientWidth + 1) out.push("the place is cut");
  return out;
}
"""


def concours(organizer, ruleset: str, *, deals: int = DEALS, teams=TEAMS, rounds: int = 3):
    t = services.tournament_create(
        organizer=organizer, name=EVENT, ruleset=ruleset, format="concours", swiss_rounds=rounds,
        deals_per_match=deals,
    )  # fmt: skip
    for name, players in teams:
        services.entry_register(tournament=t, name=name, players=list(players))
    return services.tournament_start(tournament=t, user=organizer)


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user("director", password="pw-director-123")


@pytest.fixture
def tablet(browser: Browser, live_server) -> Iterator[Callable[..., Page]]:
    """``tablet(table, size)``: a touch tablet of that size that opened the table's link."""
    contexts, errors = [], []

    def open_link(table: Table, size=LANDSCAPE) -> Page:
        context = browser.new_context(viewport=size, has_touch=True)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live_server.url}/s/{table.token}/")
        expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
        return page

    yield open_link
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("ruleset", PLAYED)
def test_the_table_link_says_where_it_is_and_every_control_stays_in_view(
    tablet, organizer, ruleset: str, size: str
) -> None:
    long_teams = [
        *TEAMS,
        ("Kafeneio Platia Agiou Nikolaou", ("Petros Nikolaidis", "Sofia Karagianni")),
        ("Taverna To Steki tou Mitsou", ("Vasilis Ioannou", "Anna Pappa")),
    ]
    t = concours(organizer, ruleset, teams=long_teams)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    table = rnd.tables.select_related("match").get(number=1)
    for deal in PLAYED[ruleset]:
        scoring.deal_record(match=table.match, deal=deal)
        table.match.refresh_from_db()
    played = sum(1 for deal in PLAYED[ruleset] if not deal.get("thrown_in"))
    numbers = {pk: n for n, pk in enumerate(t.participants, start=1)}

    page = tablet(table, SIZES[size])
    place = page.get_by_test_id("table-place")
    expect(place).to_have_text(
        f"{EVENT} · Round 1 · Table 1 · Teams {numbers[table.entry0_id]} – {numbers[table.entry1_id]}"
    )
    expect(page.locator(".topbar").get_by_test_id("table-place")).to_be_in_viewport()
    expect(page.get_by_role("navigation", name="Main menu")).to_have_count(0)
    expect(page.locator(".topbar .brand")).to_be_visible()  # the way out
    expect(page.get_by_test_id("deal-of")).to_have_text(f"Deal {played + 1} of {DEALS}")
    expect(page.locator(".score .to-go")).to_have_count(0)
    expect(page.get_by_role("button", name="End the match")).to_have_count(0)
    expect(page.get_by_role("button", name="Undo last deal")).to_be_visible()
    # The header keeps to one row: the place beside the ♣ and the languages.
    brand, where = page.locator(".topbar .brand").bounding_box(), place.bounding_box()
    assert abs((brand["y"] + brand["height"] / 2) - (where["y"] + where["height"] / 2)) < 24, (brand, where)
    assert page.locator(".topbar").bounding_box()["height"] < 80

    # Every control in view at rest, none covered; the header's too; the table whole.
    assert control_count(page) >= 20
    assert pad_problems(page, scroll_each=False) == []
    assert pad_problems(page, scroll_each=True) == []
    assert page.evaluate(HEADER_JS) == []
    assert page.evaluate(TABLE_JS) == []

    # A deal recorded on the pad: the count goes on, still no End the match.
    record_a_deal(page, ruleset)
    expect(page.get_by_test_id("deal-of")).to_have_text(f"Deal {played + 2} of {DEALS}")
    expect(page.get_by_role("button", name="End the match")).to_have_count(0)
    assert pad_problems(page, scroll_each=False) == []
    assert page.evaluate(HEADER_JS) == []


def test_on_a_phone_the_place_takes_a_row_of_its_own_and_nothing_covers_it(tablet, organizer) -> None:
    t = concours(organizer, "mpourloto")
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    page = tablet(rnd.tables.get(number=1), {"width": 390, "height": 844})
    expect(page.get_by_test_id("table-place")).to_contain_text(f"{EVENT} · Round 1 · Table 1")
    brand, where = (
        page.locator(".topbar .brand").bounding_box(),
        page.get_by_test_id("table-place").bounding_box(),
    )
    assert where["y"] >= brand["y"] + brand["height"] - 1, (brand, where)  # under the ♣ and the languages
    assert page.evaluate(HEADER_JS) == []


def test_the_last_deal_then_what_happens_next(tablet, organizer) -> None:
    teams = [
        ("Aces", ("Ada", "Bo")),
        ("Kings", ("Cy", "Di")),
        ("Queens", ("Ed", "Flo")),
        ("Jacks", ("Gus", "Hal")),
    ]
    t = concours(organizer, "mpourloto", deals=2, teams=teams)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    first, second = (rnd.tables.select_related("match", "entry0", "entry1").get(number=n) for n in (1, 2))
    scoring.deal_record(match=first.match, deal=PLAYED["mpourloto"][0])
    page = tablet(first, SIZES["portrait"])
    expect(page.get_by_test_id("deal-of")).to_have_text("Last deal")
    expect(page.get_by_test_id("table-next")).to_have_count(0)

    record_a_deal(page, "mpourloto")  # the last deal: the match is over
    expect(page.get_by_test_id("match-state").locator(".winner-banner")).to_be_visible()
    expect(page.get_by_test_id("table-next")).to_contain_text("Waiting for round 2.")
    expect(page.get_by_test_id("table-next")).to_contain_text("1 table still playing.")
    expect(page.get_by_test_id("table-next")).to_be_in_viewport()

    # The other table finishes and the organizer draws round 2: the sheet shows it by itself.
    scoring.deal_record(match=second.match, deal=PLAYED["mpourloto"][0])
    scoring.deal_record(match=second.match, deal=PLAYED["mpourloto"][1])
    page.evaluate("window.tsoxaSamePage = 'yes'")
    following = services.round_generate(tournament=t, user=organizer)
    moves = page.get_by_test_id("moves").locator("li")
    expect(moves).to_have_count(2, timeout=25_000)
    for entry in (first.entry0, first.entry1):
        there = next(x for x in following.tables.all() if entry.pk in (x.entry0_id, x.entry1_id))
        opponent = there.entry1 if there.entry0_id == entry.pk else there.entry0
        expect(moves.filter(has_text=entry.name)).to_have_text(
            f"{entry.name} · Round 2: table {there.number} against {opponent.name}"
        )
    assert page.evaluate("window.tsoxaSamePage") == "yes"  # no reload

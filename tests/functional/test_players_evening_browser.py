"""A player's evening on a 390×844 phone, and the room's big screen at 1920×1080 (issue 27).

The player opens their own page (the link of the check-in slip's second code), turns the
notifications on (the browser's PushManager is stubbed as in test_push_browser.py: its endpoint is
the local push service of tests/push_fakes.py, which checks the VAPID signature; the message is
decrypted with the stubbed browser's keys), and then, for each round the organizer draws (through
the services, as the console would), the push service receives "Round n: table t, against …", the
page shows the table without a reload, a deal recorded at that table shows as the live score, and
at the end the page shows the place of the final ranking. "Find your table" finds them by name.
The big screen follows a concours round (numbers, players, a running score) and a knockout's
bracket. With TSOXA_SCREENSHOTS=<dir> the pictures of docs/players.md are written there
(docs/screenshots/players-*.png)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser as Chromium
from playwright.sync_api import Page, expect

from scoring import services as scoring
from tests.functional.test_push_browser import STUB
from tests.push_fakes import Browser, PushReceiver, vapid_claims
from tournaments import personal, selectors, services
from tournaments.models import Entry, Tournament
from tournaments.prizes import prizes_update

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62
TEAMS = [
    ("Kyma", "Eleni Markou", "Nikos Papas"),
    ("Limani", "Giorgos Ioannou", "Maria Vlachou"),
    ("Platanos", "Kostas Nikolaidis", "Sofia Georgiou"),
    ("Les Belotiers", "Hélène Martin", "Jean Dupont"),
    ("Oi Asoi", "Dimitra Pappa", "Yannis Karras"),
    ("Trapoula", "Anna Stavrou", "Petros Lekkas"),
]
PUSH_S = 10  # seconds a push may take to reach the local push service (eager: at once)
LIVE_MS = 15_000  # the page's stream is asked again every 3 s under WSGI; the poll every 2 s here


def shot(tab: Page, name: str, clip: dict | None = None) -> None:
    """docs/screenshots/players-<name>.png: the visible screen (or ``clip``), CSS pixels, < 150 kB."""
    folder = os.environ.get("TSOXA_SCREENSHOTS")
    if not folder:
        return
    path = Path(folder) / f"players-{name}.png"
    tab.evaluate("window.scrollTo(0, 0)")
    tab.screenshot(path=str(path), clip=clip, scale="css", animations="disabled")
    assert path.stat().st_size < 150_000, f"{path} is {path.stat().st_size} bytes"


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def concours(organizer, *, rounds: int = 2, deals: int = 2) -> Tournament:
    t = services.tournament_create(
        organizer=organizer, name="Friday concours", swiss_rounds=rounds, deals_per_match=deals
    )
    for name, a, b in TEAMS:
        services.entry_register(tournament=t, name=name, players=[a, b])
    return services.tournament_start(tournament=t, user=organizer)


def finish_round(rnd) -> None:
    for table in rnd.tables.select_related("match"):
        while table.match is not None and table.match.status != "finished":
            scoring.deal_record(match=table.match, deal=WIN_0)
            table.match.refresh_from_db()


def drawn_messages(receiver: PushReceiver, phone: Browser, vapid: str) -> list[str]:
    bodies = []
    for request in receiver.delivered("phone"):
        assert vapid_claims(request["headers"]["Authorization"], vapid)["aud"] == receiver.origin
        bodies.append(phone.decrypt(request["body"])["body"])
    return bodies


def wait_for_messages(receiver: PushReceiver, count: int) -> None:
    assert receiver.wait_for(count, PUSH_S), f"{len(receiver.requests)} of {count} pushes arrived"


def test_a_players_evening_on_a_phone(
    browser: Chromium, live_server, receiver, vapid, organizer, monkeypatch
):
    monkeypatch.setattr(personal, "POLL_SECONDS", 2)  # 20 s in use; deals are not published
    t = concours(organizer)
    entry = Entry.objects.select_related("team__player_a").get(tournament=t, team__name="Kyma")
    me = entry.team.player_a
    phone = Browser()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(15_000)
    given = {"mode": "stub", "permission": "default", "answer": "granted"}
    given |= {"endpoint": receiver.endpoint("phone"), "keys": phone.keys()}
    # a new tab's about:blank has no ServiceWorkerRegistration: the stub waits for the site's pages
    stub = STUB.replace("(() => {", "(() => {\n  if (!self.ServiceWorkerRegistration) return;", 1)
    context.add_init_script(stub % {"given": json.dumps(given)})
    errors: list[str] = []
    context.on("page", lambda tab: tab.on("pageerror", lambda error: errors.append(str(error))))
    try:
        tab = context.new_page()
        tab.goto(live_server.url + personal.personal_url(None, entry, me))
        expect(tab.get_by_test_id("personal-name")).to_have_text(me.name)
        expect(tab.get_by_test_id("personal-now")).to_contain_text("not drawn yet")
        tab.get_by_role("button", name="Tell me when my table is drawn").click()
        expect(tab.locator("[data-push]")).to_have_attribute("data-push-status", "subscribed")
        tab.evaluate("window.__same_page = true")

        sent = 0
        for number in (1, 2):
            rnd = services.round_generate(tournament=Tournament.objects.get(pk=t.pk), user=organizer)
            table = rnd.tables.select_related("entry0__team", "entry1__team").get(
                pk__in=[x.pk for x in rnd.tables.all() if entry.pk in (x.entry0_id, x.entry1_id)]
            )
            side = 0 if table.entry0_id == entry.pk else 1
            them = (table.entry1 if side == 0 else table.entry0).name
            sent += 1
            wait_for_messages(receiver, sent)
            assert (
                drawn_messages(receiver, phone, vapid)[-1]
                == f"Round {number}: table {table.number}, against {them}"
            )
            expect(tab.get_by_test_id("personal-table")).to_have_text(str(table.number), timeout=LIVE_MS)
            expect(tab.get_by_test_id("personal-opponents")).to_contain_text(them)

            services.round_start(rnd=rnd, user=organizer)
            sent += 1  # "Round n has started: table t"
            wait_for_messages(receiver, sent)
            assert (
                drawn_messages(receiver, phone, vapid)[-1]
                == f"Round {number} has started: table {table.number}"
            )
            table.refresh_from_db()
            scoring.deal_record(match=table.match, deal=WIN_0)  # at the table's tablet
            totals = type(table.match).objects.get(pk=table.match_id).totals
            live = tab.get_by_test_id("personal-live")
            expect(live).to_contain_text("Deal 2 of 2", timeout=LIVE_MS)
            expect(live).to_contain_text(f"{totals[side]}–{totals[1 - side]}")
            if number == 1:
                shot(tab, "phone")
            finish_round(rnd)
        assert tab.evaluate("window.__same_page === true")  # never reloaded
        assert tab.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")

        # "Find your table", by a piece of the name, accents and capitals aside
        finder = context.new_page()
        finder.goto(f"{live_server.url}/tournaments/{t.slug}/find/")
        finder.get_by_test_id("finder-q").press_sequentially("eleni mark", delay=20)
        expect(finder.get_by_test_id("finder-results")).to_contain_text(me.name)
        expect(finder.get_by_test_id("finder-results")).to_contain_text(f"table {table.number}")
        shot(finder, "finder")
        finder.close()

        # The end: the final ranking, on the page without a reload, and told by the push service
        t = Tournament.objects.get(pk=t.pk)
        if t.status != Tournament.Status.FINISHED:
            services.tournament_finish(tournament=t, reason="The café closes", user=organizer)
        services.standings_refresh(tournament_id=t.pk)
        ranking = selectors.standings_get(tournament=t)["ranking"]
        mine = next(r for r in ranking if r["entry"] == entry.pk)
        place = mine.get("rank") or mine.get("position")
        expect(tab.get_by_test_id("personal-final")).to_contain_text(
            f"Place {place} of {len(ranking)}", timeout=LIVE_MS
        )
        wait_for_messages(receiver, sent + 1)
        assert drawn_messages(receiver, phone, vapid)[-1].startswith("Final ranking: you are ")
        assert tab.evaluate("window.__same_page === true")

        # the prize list, on the phone
        prizes_update(
            tournament=t, user=organizer, pot_cents=43_700, percentages=["40", "25", "15", "12", "8"]
        )
        tab.goto(f"{live_server.url}/tournaments/{t.slug}/prizes/")
        # the evening's first two level on every tie-break: "=1" on both lines, (177 + 109) / 2 = 143 €
        first = tab.locator("[data-testid^='prize-place-']").filter(has_text="143 €")
        expect(first).to_have_count(2)
        expect(first.get_by_test_id("prize-label")).to_have_text(["=1", "=1"])
        shot(tab, "prizes")
        assert not errors, errors
    finally:
        context.close()


def show(tab: Page, kind: str) -> None:
    """Bring the first panel of ``kind`` to the front (as the screen's turn would)."""
    tab.evaluate(
        """kind => document.querySelectorAll('.panel').forEach(p =>
            p.classList.toggle('current', p === document.querySelector('.panel-' + kind)))""",
        kind,
    )
    tab.wait_for_timeout(700)  # the fade


def test_the_big_screen_follows_a_concours_and_a_knockout(page: Page, live_server, organizer):
    t = concours(organizer, rounds=2, deals=3)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    first = rnd.tables.select_related("entry0__team__player_a", "entry0__team__player_b", "match").get(
        number=1
    )
    scoring.deal_record(match=first.match, deal=WIN_0)
    page.set_viewport_size(TV)
    page.goto(f"{live_server.url}/tournaments/{t.slug}/screen/")
    expect(page.locator(".screen-live")).to_have_class("screen-live is-live")

    row = page.locator(".panel-pairings .pairing[data-table='1']")
    team = first.entry0.team
    expect(row.locator(".side0 .team")).to_have_text(f"{first.entry0.number} {team.name}")
    expect(row.locator(".side0 .players")).to_have_text(f"{team.player_a.name} & {team.player_b.name}")
    expect(row.locator(".score")).to_have_text("Deal 2 of 3 100–62")
    show(page, "pairings")
    shot(page, "screen-pairings", {"x": 0, "y": 0, "width": 1920, "height": 620})

    page.evaluate("window.__same_page = true")
    scoring.deal_record(match=first.match, deal=WIN_0)  # the running score moves, no reload
    expect(row.locator(".score")).to_have_text("Deal 3 of 3 200–124", timeout=LIVE_MS)
    assert page.evaluate("window.__same_page === true")
    finish_round(rnd)  # the round's results: the standings follow
    expect(page.locator(".panel-standings td.ranked").first).not_to_have_text("0", timeout=LIVE_MS)
    show(page, "standings")
    expect(page.locator(".panel-standings th.ranked").first).to_have_text("Pts")
    shot(page, "screen-standings", {"x": 0, "y": 0, "width": 1920, "height": 620})

    # A knockout of four after one Swiss round: the bracket panel
    cup = services.tournament_create(
        organizer=organizer, name="Winter cup", swiss_rounds=1, knockout_size=4, deals_per_match=1
    )
    for name, a, b in TEAMS[:4]:
        services.entry_register(tournament=cup, name=name, players=[a, b])
    services.tournament_start(tournament=cup, user=organizer)
    stage = services.round_start(rnd=services.round_generate(tournament=cup, user=organizer), user=organizer)
    finish_round(stage)
    services.standings_refresh(tournament_id=cup.pk)
    semis = services.round_start(rnd=services.round_generate(tournament=cup, user=organizer), user=organizer)
    finish_round(semis.tables.order_by("number")[0].round)  # both semi-finals played
    page.goto(f"{live_server.url}/tournaments/{cup.slug}/screen/")
    expect(page.locator(".panel-bracket")).to_have_count(1)
    assert page.locator(".panel-bracket .bracket-column").count() == 2  # semi-finals, final
    assert page.locator(".panel-bracket .is-winner").count() == 2

"""Without the network, the tablet works the sheet out with the project's own engine.

In Chromium: the sheet of a match is opened once (the service worker keeps it, its match file and
the engine: Pyodide's core files and scoring/engine/'s Python files), the connection drops, and a
whole match is played on the tablet. Each waiting deal's row, the totals, the next dealer and the
end of the match are shown, marked "not yet confirmed by the server", and are those of
``scoring.engine.replay`` over the same deals, called here. The connection returns: every deal is
stored once, and the server's sheet shows what the tablet showed.

A page that needs no engine (no deal waits) never loads Pyodide.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from scoring import engine
from scoring.models import Deal
from tests.functional.test_mpourloto_sheet import Pad
from tests.functional.test_offline_browser import WATCH_VIOLATIONS, keep_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

if not (Path(settings.BASE_DIR) / "static" / "pyodide" / "pyodide.asm.wasm").exists():
    # ./run installs it (npm ci, then its core files to static/pyodide/); CI must have it.
    reason = "Pyodide is not installed: run ./run (or ./run test) once"
    if os.environ.get("CI") == "true":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason, allow_module_level=True)

ENGINE_MS = 60_000  # Pyodide's first start on a busy machine
TARGET = 501
SEATS = ["Anna", "Babis", "Chris", "Dora"]  # seats 0-3: Alpha's Anna and Chris, Beta's Babis and Dora


@pytest.fixture
def tablet(page: Page, live_server, django_user_model) -> Iterator[tuple[Page, str, object]]:
    """A scorekeeper's tablet, logged in, and their match; fails on any report of the policy
    (Pyodide's WebAssembly compiles under it, nothing is evaluated)."""
    match = keep_match(page, live_server, django_user_model)
    reports: list[str] = []
    page.on("console", lambda m: reports.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(WATCH_VIOLATIONS)
    yield page, live_server.url, match
    with contextlib.suppress(Exception):
        reports.extend(page.evaluate("window.__cspViolations || []"))
    assert reports == [], f"Content-Security-Policy reports: {reports}"


def pyodide_requests(page: Page) -> list[str]:
    return page.evaluate(
        r"""performance.getEntriesByType("resource").map(e => e.name)
            .filter(n => n.includes("/pyodide/") || /\/engine[-.]/.test(n))"""
    )


def shown_rows(rows, dealer: str, total: str) -> list[list[str]]:
    """Each row's number, dealer and two totals (``dealer``: a selector; ``total``: the test id)."""
    return rows.evaluate_all(
        """(rows, [dealer, total]) => rows.map(r => [r.cells[0].textContent.trim(),
            r.querySelector(dealer).textContent, r.querySelector(`[data-testid=${total}-0] b`).textContent,
            r.querySelector(`[data-testid=${total}-1] b`).textContent])""",
        [dealer, total],
    )


def test_a_match_played_offline_is_worked_out_on_the_tablet_as_the_server_does(tablet) -> None:
    page, base, match = tablet
    match.options = {"target": TARGET}
    match.save(update_fields=["options"])
    sheet = f"{base}/matches/{match.pk}/"
    status = page.get_by_test_id("net-status")
    html = page.locator("html")

    page.goto(sheet)
    expect(html).to_have_attribute("data-offline-ready", "true")
    # The worker keeps the engine with a sheet that has a pad; the page itself has not loaded it.
    expect(html).to_have_attribute("data-engine-kept", "true", timeout=ENGINE_MS)
    assert pyodide_requests(page) == []

    page.context.set_offline(True)
    expect(status).to_have_text("offline")
    pad = Pad(page)
    played: list[dict] = []

    def play(maker: int, points: int | None, last: str, melds: tuple[int, str] | None, deal: dict) -> None:
        pad.trumps(maker)
        if points is not None:
            pad.key_in(points)
        pad.last_trick(last)
        if melds:
            pad.meld(*melds)
        pad.record()
        played.append(deal)
        expect(page.get_by_test_id("waiting-row")).to_have_count(len(played))
        expect(page.locator("#tablet-sheet")).to_have_attribute(
            "data-deals", str(len(played)), timeout=ENGINE_MS
        )
        expect_worked_out(page, played)

    # Alpha 90 + the last trick, a sequence of 3: made. Alpha 100 + 20, Beta 62.
    first = {"maker": 0, "card_points": [90, 62], "last_trick": 0, "melds": [["seq3"], []]}
    play(0, 90, "0", (0, "seq3"), first)
    page.once("dialog", lambda dialog: dialog.accept())  # where the game asks first
    pad.throw_in()
    played.append({"thrown_in": True})
    expect(page.get_by_test_id("waiting-row")).to_have_count(2)
    expect(page.locator("#tablet-sheet")).to_have_attribute("data-deals", "2", timeout=ENGINE_MS)
    expect_worked_out(page, played)
    play(1, 100, "1", None, {"maker": 1, "card_points": [52, 100], "last_trick": 1, "melds": [[], []]})
    # Alpha take it with 80 and the other 72 + 10 go to Beta: mesa, 162 to Beta.
    play(0, 80, "1", None, {"maker": 0, "card_points": [80, 72], "last_trick": 1, "melds": [[], []]})
    # Beta take every trick: 152 + 90, over 501.
    play(1, None, "capo1", None, {"maker": 1, "card_points": [0, 152], "capot": 1, "melds": [[], []]})

    final = engine.replay("mpourloto", [engine.Deal.from_dict(d) for d in played], options={"target": TARGET})
    assert final.status == engine.Status.FINISHED  # the whole match, on the tablet
    over = page.get_by_test_id("tablet-match-over")
    expect(over).to_have_text(f"Match over: Beta win {final.totals[1]}–{final.totals[0]}")
    shown = {
        "totals": [page.get_by_test_id(f"tablet-total-{t}").inner_text() for t in (0, 1)],
        "rows": shown_rows(
            page.locator("#waiting-deals tr"), "[data-testid=waiting-dealer]", "waiting-total"
        ),
    }
    assert Deal.objects.filter(match=match).count() == 0

    # Back online: each deal is stored once, and the server's sheet is the tablet's.
    page.context.set_offline(False)
    expect(status).to_have_text("all sent")
    expect(page.get_by_test_id("waiting-row")).to_have_count(0)
    expect(page.locator("#tablet-sheet")).to_have_count(0)
    rows = page.locator("tr[data-testid=deal-row]")
    expect(rows).to_have_count(len(played))
    assert Deal.objects.filter(match=match).count() == len(played)
    assert [d.data for d in Deal.objects.filter(match=match).order_by("position")] == [
        engine.Deal.from_dict(d).to_dict() for d in played
    ]
    assert [page.get_by_test_id(f"total-{t}").inner_text() for t in (0, 1)] == shown["totals"]
    server_rows = shown_rows(rows, "td:nth-child(2)", "row-total")
    assert sorted(server_rows) == sorted(shown["rows"])
    expect(page.get_by_test_id("match-state")).to_contain_text(
        f"Beta win {final.totals[1]}–{final.totals[0]}"
    )


def expect_worked_out(page: Page, played: list[dict]) -> None:
    """The tablet's rows, totals and next dealer are the engine's replay of the same deals."""
    sheet = engine.replay("mpourloto", [engine.Deal.from_dict(d) for d in played], options={"target": TARGET})
    rows = page.locator("#waiting-deals tr")
    for i, row in enumerate(sheet.rows):
        line = rows.filter(has=page.locator(f"td:first-child:text-is('{i + 1}')"))
        expect(line.get_by_test_id("waiting-unconfirmed")).to_have_text(
            f"{SEATS[row.dealer]} · not yet confirmed by the server"
        )
        for t in (0, 1):
            expect(line.get_by_test_id(f"waiting-total-{t}").locator("b")).to_have_text(str(row.totals[t]))
    for t in (0, 1):
        expect(page.get_by_test_id(f"tablet-total-{t}")).to_have_text(str(sheet.totals[t]))
    if sheet.status == engine.Status.FINISHED:
        expect(page.get_by_test_id("tablet-next-dealer")).to_have_count(0)
    else:
        expect(page.get_by_test_id("tablet-next-dealer")).to_have_text(SEATS[sheet.next_dealer])


def test_a_sheet_with_nothing_waiting_loads_no_engine(tablet) -> None:
    page, base, match = tablet
    page.goto(f"{base}/matches/{match.pk}/")
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "true")
    expect(page.get_by_test_id("net-status")).to_have_text("all sent")
    page.wait_for_load_state("networkidle")
    assert pyodide_requests(page) == []
    assert page.evaluate("typeof window.tsoxaEngine") == "undefined"
    # Opened again (the worker already in charge): the engine is kept for it, still not loaded.
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-engine-kept", "true", timeout=ENGINE_MS)
    assert pyodide_requests(page) == []
    assert page.evaluate("typeof window.tsoxaEngine") == "undefined"

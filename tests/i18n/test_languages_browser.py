"""tablet.js speaks the page's language, and the switcher works by tapping, in a real browser."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.functional.conftest import (
    CHROMIUM_ARGS,
    TABLET,
    TIMEOUT_MS,
    _unavailable,
    chromium_executable,
    headless_shell_executable,
)

pytestmark = pytest.mark.browser


def in_greek_browser(test: Callable[[Page], None]) -> None:
    """Run ``test`` on a tablet whose browser asks for Greek. Playwright's sync API allows one
    instance a thread, and tests/functional's session browser may hold this one: a thread of its own."""
    executable = headless_shell_executable() or chromium_executable()  # as conftest.py's browser
    if executable is None:
        _unavailable("no Chromium found: set TSOXA_CHROMIUM to a Chromium binary")
    outcome: dict[str, BaseException] = {}

    def run() -> None:
        try:
            with sync_playwright() as playwright:
                chromium = playwright.chromium.launch(
                    executable_path=executable, headless=True, args=CHROMIUM_ARGS
                )
                context = chromium.new_context(viewport=TABLET, locale="el-GR")
                context.set_default_timeout(TIMEOUT_MS)
                expect.set_options(timeout=TIMEOUT_MS)
                page = context.new_page()
                js_errors: list[str] = []
                page.on("pageerror", lambda error: js_errors.append(str(error)))
                try:
                    test(page)
                finally:
                    chromium.close()
                assert not js_errors, f"JavaScript errors on the page: {js_errors}"
        except BaseException as error:  # re-raised in the test's own thread
            outcome["error"] = error

    thread = threading.Thread(target=run, name="greek-browser")
    thread.start()
    thread.join(timeout=180)
    if thread.is_alive():
        pytest.fail("the browser did not finish in 3 minutes")
    if "error" in outcome:
        raise outcome["error"]


def test_the_tablet_in_greek_then_english(live_server) -> None:
    in_greek_browser(lambda page: greek_then_english(page, live_server.url))


def greek_then_english(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/matches/new/")
    expect(page.locator("html")).to_have_attribute("lang", "el")
    # The dealer buttons follow the names typed; an emptied name gives the seat back, in Greek (tablet.js).
    seat = page.locator('input[name="team0_player_a"]')
    seat.press_sequentially("Anna")
    expect(page.locator('[data-seat-label="0"]')).to_have_text("Anna")
    seat.fill("")
    seat.dispatch_event("input")
    expect(page.locator('[data-seat-label="0"]')).to_have_text("Θέση 1")
    names = {"team0_name": "Alpha", "team0_player_a": "Anna", "team0_player_b": "Chris",
             "team1_name": "Beta", "team1_player_a": "Babis", "team1_player_b": "Dora"}  # fmt: skip
    for field, name in names.items():
        page.locator(f'input[name="{field}"]').fill(name)
    page.get_by_role("button", name="Ξεκίνημα παιχνιδιού").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("form.deal-form .pad-label").first).to_have_text("Ατού")

    # A deal entered without a connection waits, and the tablet says so in Greek.
    form = page.locator("form.deal-form")
    page.context.set_offline(True)
    form.locator("label.tap", has=page.locator('input[name="maker"][value="0"]')).click()
    for digit in "90":
        form.locator(f'button[data-key="{digit}"]').click()
    expect(form.locator("#other-points")).to_have_text("62")
    form.locator("label.tap", has=page.locator('input[name="last_trick"][value="0"]')).click()
    page.get_by_role("button", name="Καταχώριση μοιρασιάς").click()
    expect(page.get_by_test_id("pending")).to_contain_text("1 μοιρασιά περιμένει τη σύνδεση")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.get_by_test_id("total-0")).to_have_text("100")
    expect(page.locator("td.result")).to_have_text(["βγήκε"])

    # The switcher, by tapping: English from now on, on this page and the next.
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="Record deal")).to_be_visible()
    expect(page.locator("td.result")).to_have_text(["made"])
    page.goto(f"{base_url}/help/")
    expect(page.locator("h1")).to_have_text("Keeping the sheet")

"""Browser fixtures: the system's Chromium driven by Playwright's sync API.

Playwright's own browser download is never used: the executable comes from
TSOXA_CHROMIUM (set by ``./run test``) or the PATH. Without one the browser
tests are skipped, except on CI (CI=true), where a missing browser fails.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

# Playwright's sync API runs an event loop in the test thread; Django would then
# refuse ORM calls made from that thread (the live server's setup, the test's checks).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TABLET = {"width": 1280, "height": 800}
TIMEOUT_MS = 10_000


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: the browser tests must run)", pytrace=False)
    pytest.skip(reason)


def chromium_executable() -> str | None:
    """TSOXA_CHROMIUM if it names a runnable file, else the first Chromium on the PATH."""
    candidates = [os.environ.get("TSOXA_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"]
    for candidate in candidates:
        found = candidate and shutil.which(candidate)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:  # pragma: no cover - a dev dependency
        _unavailable("the playwright package is not installed")
    executable = chromium_executable()
    if executable is None:
        _unavailable("no Chromium found: set TSOXA_CHROMIUM to a Chromium binary")
    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser) -> Iterator[object]:
    """A fresh tablet-sized page; a JavaScript error on it fails the test."""
    context = browser.new_context(viewport=TABLET)
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    js_errors: list[str] = []
    tab.on("pageerror", lambda error: js_errors.append(str(error)))
    try:
        yield tab
    finally:
        context.close()
    assert not js_errors, f"JavaScript errors on the page: {js_errors}"

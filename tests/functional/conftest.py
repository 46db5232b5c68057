"""Browser fixtures: the system's Chromium driven by Playwright's sync API.

Playwright's own browser download is never used: the executable comes from
TSOXA_CHROMIUM (set by ``./run test``) or the PATH. Without one the browser
tests are skipped, except on CI (CI=true), where a missing browser fails.

The tests run in Chromium's headless shell (Debian's chromium-headless-shell,
TSOXA_CHROMIUM_SHELL or the PATH), what Playwright itself runs headless: the
same engine without the full browser around it, half of the full browser's CPU
(measured over the browser tests on CI's 2 cores: 11:15 in the full browser,
6:48 in the shell). Where it is missing, the full browser runs them. The shell
shows no notification: the service worker's pushes are tested in the full
browser (``full_browser``).
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


def headless_shell_executable() -> str | None:
    """TSOXA_CHROMIUM_SHELL if it names a runnable file, else Chromium's headless shell on the PATH."""
    for candidate in (os.environ.get("TSOXA_CHROMIUM_SHELL", ""), "chromium-headless-shell"):
        found = candidate and shutil.which(candidate)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def _playwright() -> Iterator[object]:
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:  # pragma: no cover - a dev dependency
        _unavailable("the playwright package is not installed")
    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        yield playwright


def _launched(playwright, executable: str | None) -> Iterator[object]:
    if executable is None:
        _unavailable("no Chromium found: set TSOXA_CHROMIUM to a Chromium binary")
    chromium = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture(scope="session")
def browser(_playwright) -> Iterator[object]:
    """Chromium's headless shell, or the full browser where the shell is missing."""
    yield from _launched(_playwright, headless_shell_executable() or chromium_executable())


@pytest.fixture(scope="session")
def full_browser(_playwright) -> Iterator[object]:
    """The full Chromium, for what the headless shell does not do (show a notification)."""
    yield from _launched(_playwright, chromium_executable())


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

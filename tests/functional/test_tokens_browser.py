"""The API tokens page in a browser: the new key's copy button (the site's copy.js) copies the key,
and a click in the key's field selects all of it (tokens.js)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, expect

from players.models import ApiToken

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_new_key_is_copied_with_one_tap(browser: Browser, live_server, django_user_model):
    anna = django_user_model.objects.create_user("anna", password="pw-anna-12345")
    client = Client()
    client.force_login(anna)
    session = client.cookies[settings.SESSION_COOKIE_NAME]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
        context.add_cookies([{"name": session.key, "value": session.value, "url": live_server.url}])
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live_server.url}/account/tokens/")
        expect(page.get_by_test_id("token-made")).to_have_count(0)
        page.get_by_role("textbox", name="Name").fill("Club website")
        page.get_by_role("button", name="Make the token").click()
        key = page.get_by_test_id("token-key")
        expect(key).to_be_visible()
        shown = key.input_value()
        assert ApiToken.objects.get(user=anna).name == "Club website" and len(shown) >= 20

        button = page.get_by_test_id("token-made").locator('button[data-copy="#token-key"]')
        expect(button).to_have_text("Copy")  # shown by copy.js (hidden without JavaScript)
        page.bring_to_front()  # the clipboard is written only from the focused page
        button.click()
        expect(button).to_have_text("Copied")
        assert page.evaluate("navigator.clipboard.readText()") == shown
        expect(button).to_have_text("Copy", timeout=4000)

        page.evaluate("window.getSelection().removeAllRanges()")
        page.get_by_role("heading").first.click()
        key.click()
        assert page.evaluate(
            "(() => { const f = document.getElementById('token-key'); "
            "return [f.selectionStart, f.selectionEnd]; })()"
        ) == [0, len(shown)]
    finally:
        context.close()
    assert not errors, errors


def test_without_javascript_the_copy_button_stays_hidden(browser: Browser, live_server, django_user_model):
    """The key is still shown to select by hand; the button that needs copy.js is not (the button
    style's display must not undo its ``hidden``)."""
    anna = django_user_model.objects.create_user("anna", password="pw-anna-12345")
    client = Client()
    client.force_login(anna)
    session = client.cookies[settings.SESSION_COOKIE_NAME]
    context = browser.new_context(viewport={"width": 1280, "height": 800}, java_script_enabled=False)
    try:
        context.add_cookies([{"name": session.key, "value": session.value, "url": live_server.url}])
        page = context.new_page()
        page.goto(f"{live_server.url}/account/tokens/")
        page.get_by_role("textbox", name="Name").fill("Club website")
        page.get_by_role("button", name="Make the token").click()
        expect(page.get_by_test_id("token-key")).to_be_visible()
        page.wait_for_load_state("load")  # the stylesheets applied: hidden by them, not before them
        button = page.get_by_test_id("token-made").locator('button[data-copy="#token-key"]')
        assert button.evaluate("b => getComputedStyle(b).display") == "none"
    finally:
        context.close()

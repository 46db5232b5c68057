"""Accounts in a real browser, on a phone: create one from the login page, log out, forget the
password, reset it through the e-mail's link (read from the outbox) and log in with the new one.
Every page of the way fits the phone's width and a tablet's, with buttons large enough to tap."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import Browser, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1280, "height": 800}
LINK = re.compile(r"https?://[^\s/]+(/accounts/reset/\S+/)")

# Horizontal scrolling, and buttons or fields of the main part too small to tap (44 px).
LAYOUT = """() => {
  const out = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) out.push(`scrolls sideways: ${root.scrollWidth} px`);
  for (const el of document.querySelectorAll("main .button, main button, main input:not([type=hidden])")) {
    const box = el.getBoundingClientRect();
    if (box.height < 44) out.push(`${el.outerHTML.slice(0, 60)} is ${box.height} px high`);
    if (box.right > root.clientWidth + 1) out.push(`${el.outerHTML.slice(0, 60)} sticks out`);
  }
  return out;
}"""


def fits(page: Page) -> None:
    assert page.evaluate(LAYOUT) == [], page.url


def test_create_an_account_then_reset_its_password(browser: Browser, live_server):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"{live_server.url}/accounts/login/?next=/tournaments/")
    fits(page)
    page.get_by_role("link", name="Create an account").click()
    expect(page.get_by_role("heading", name="Create an account")).to_be_visible()
    fits(page)
    page.get_by_label("Username").fill("eleni")
    page.get_by_label("E-mail address").fill("eleni@example.org")
    page.get_by_label("Password", exact=True).fill("kozer-and-belote-42")
    page.get_by_label("Password confirmation").fill("kozer-and-belote-42")
    page.get_by_role("button", name="Create my account").click()
    expect(page).to_have_url(f"{live_server.url}/tournaments/")
    expect(page.locator(".messages")).to_contain_text("Welcome, eleni")
    expect(page.locator(".account .who")).to_have_text("eleni")

    page.locator(".account").get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", name="Logged out")).to_be_visible()

    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    fits(page)
    page.get_by_label("E-mail address").fill("Eleni@example.org")
    page.get_by_role("button", name="Send me the link").click()
    expect(page.get_by_role("heading", name="Check your e-mail")).to_be_visible()
    fits(page)

    (message,) = mail.outbox
    assert message.to == ["eleni@example.org"]
    page.goto(live_server.url + LINK.search(message.body).group(1))
    expect(page.get_by_role("heading", name="Choose a new password")).to_be_visible()
    fits(page)
    page.get_by_label("New password", exact=True).fill("trumps-and-tens-77")
    page.get_by_label("New password confirmation").fill("trumps-and-tens-77")
    page.get_by_role("button", name="Save my new password").click()
    expect(page.get_by_role("heading", name="Your password is changed")).to_be_visible()

    page.locator("main").get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("eleni")
    page.get_by_label("Password").fill("trumps-and-tens-77")
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.locator(".account .who")).to_have_text("eleni")
    assert get_user_model().objects.get(username="eleni").check_password("trumps-and-tens-77")

    # The old link is spent.
    page.goto(live_server.url + LINK.search(message.body).group(1))
    expect(page.get_by_role("heading", name="This link no longer works")).to_be_visible()
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_the_account_pages_fit(browser: Browser, live_server, viewport):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    for path in ("/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"):
        page.goto(live_server.url + path)
        fits(page)
    # A refused sign-up, with its errors and the password rules shown, still fits.
    page.goto(live_server.url + "/accounts/signup/")
    page.get_by_label("Username").fill("eleni")
    page.get_by_label("E-mail address").fill("eleni@example.org")
    page.get_by_label("Password", exact=True).fill("123")
    page.get_by_label("Password confirmation").fill("123")
    page.get_by_role("button", name="Create my account").click()
    expect(page.locator(".errorlist").first).to_be_visible()
    fits(page)
    ctx.close()

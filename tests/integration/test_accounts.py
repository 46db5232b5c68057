"""Accounts from the login page (players/accounts.py): creating one, resetting a forgotten password by
a link sent by e-mail (the locmem outbox here), both rate-limited like the login."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db

SIGNUP, RESET, LOGIN = "/accounts/signup/", "/accounts/password_reset/", "/accounts/login/"
GOOD = {
    "username": "eleni",
    "email": "eleni@example.org",
    "password1": "kozer-and-belote-42",
    "password2": "kozer-and-belote-42",
}
LINK = re.compile(r"https?://[^\s/]+(/accounts/reset/[^\s]+/)")


def users():
    return list(get_user_model().objects.values_list("username", flat=True))


def test_the_urls_have_their_names():
    assert reverse("signup") == SIGNUP
    assert reverse("password_reset") == RESET


# --- Sign-up -------------------------------------------------------------------------------------


def test_the_login_page_links_to_the_sign_up_and_the_reset(client):
    page = client.get(LOGIN + "?next=/tournaments/").text
    assert 'href="/accounts/signup/?next=/tournaments/"' in page
    assert "Create an account" in page
    assert f'href="{RESET}"' in page and "Forgot your password?" in page


def test_an_account_is_made_logged_in_and_sent_home(client):
    response = client.post(SIGNUP, GOOD)
    assert response.status_code == 302 and response["Location"] == reverse("scoring:home")
    user = get_user_model().objects.get(username="eleni")
    assert user.email == "eleni@example.org" and user.check_password(GOOD["password1"])
    assert not user.is_staff and user.is_active
    home = client.get(response["Location"])
    assert home.wsgi_request.user == user
    assert "Welcome, eleni: your account is ready." in home.text


def test_the_sign_up_page_shows_its_fields(client):
    page = client.get(SIGNUP)
    assert page.status_code == 200
    for name in ("username", "email", "password1", "password2"):
        assert f'name="{name}"' in page.text
    assert 'type="email"' in page.text and 'autocomplete="new-password"' in page.text


@pytest.mark.parametrize(
    ("change", "field", "said"),
    [
        ({"username": "Nikos"}, "username", "A user with that username already exists."),
        ({"email": "not-an-address"}, "email", "Enter a valid email address."),
        ({"email": ""}, "email", "This field is required."),
        ({"email": "NIKOS@Example.org"}, "email", "This e-mail address cannot be used for a new account."),
        ({"password2": "kozer-and-belote-43"}, "password2", "The two password fields didn"),
        ({"password1": "12345678", "password2": "12345678"}, "password2", "This password is too common."),
        ({"password1": "short", "password2": "short"}, "password2", "This password is too short."),
        ({"password1": "eleni1234", "password2": "eleni1234"}, "password2", "too similar to the username"),
    ],
    ids=[
        "taken username (any case)",
        "bad e-mail",
        "no e-mail",
        "taken e-mail (any case)",
        "mismatched passwords",
        "common password",
        "short password",
        "password like the username",
    ],
)
def test_a_refused_sign_up_says_why_and_makes_nothing(client, django_user_model, change, field, said):
    django_user_model.objects.create_user(username="nikos", email="nikos@example.org", password="x-pw-12345")
    response = client.post(SIGNUP, {**GOOD, **change})
    assert response.status_code == 422
    assert said in response.text
    assert field in response.context["form"].errors
    assert users() == ["nikos"]
    assert "_auth_user_id" not in client.session


def test_a_taken_e_mail_names_no_account(client, django_user_model):
    django_user_model.objects.create_user(username="nikos", email="nikos@example.org", password="x-pw-12345")
    response = client.post(SIGNUP, {**GOOD, "email": "nikos@example.org"})
    assert "nikos" not in response.text.replace("nikos@example.org", "")


def test_a_closed_sign_up_makes_nothing(client, settings):
    settings.TSOXA_SIGNUP_OPEN = False
    page = client.get(SIGNUP)
    assert page.status_code == 403 and "ask its organizers" in page.text
    assert client.post(SIGNUP, GOOD).status_code == 403
    assert users() == []
    login = client.get(LOGIN).text
    assert "/accounts/signup/" not in login and "Forgot your password?" in login


@pytest.mark.parametrize(
    ("next_url", "goes_to"),
    [
        ("/tournaments/", "/tournaments/"),
        ("/players/?page=2", "/players/?page=2"),
        ("https://evil.example.com/", "/"),
        ("//evil.example.com/", "/"),
        ("javascript:alert(1)", "/"),
        ("", "/"),
    ],
    ids=["a page", "with a query", "another site", "scheme-relative", "javascript", "none"],
)
def test_the_sign_up_goes_on_to_a_safe_next_only(client, next_url, goes_to):
    page = client.get(SIGNUP, {"next": next_url})
    expected_hidden = next_url if goes_to == next_url else ""
    assert f'name="next" value="{expected_hidden}"'.replace("&", "&amp;") in page.text
    response = client.post(SIGNUP, {**GOOD, "next": next_url})
    assert response.status_code == 302 and response["Location"] == goes_to


def test_a_logged_in_person_is_sent_on(client, django_user_model):
    client.force_login(django_user_model.objects.create_user(username="nikos", password="x-pw-12345"))
    assert client.get(SIGNUP, {"next": "/tournaments/"})["Location"] == "/tournaments/"


def test_sign_ups_are_limited_per_address(client):
    for number in range(10):
        refused = client.post(SIGNUP, {**GOOD, "password2": "other"}, REMOTE_ADDR="203.0.113.7")
        assert refused.status_code == 422, number
    limited = client.post(SIGNUP, GOOD, REMOTE_ADDR="203.0.113.7")
    assert limited.status_code == 429 and "Too many attempts" in limited.text
    assert users() == []
    # Another address is not held back.
    assert client.post(SIGNUP, GOOD, REMOTE_ADDR="203.0.113.8").status_code == 302


# --- Password reset ------------------------------------------------------------------------------


@pytest.fixture
def eleni(django_user_model):
    return django_user_model.objects.create_user(
        username="eleni", email="eleni@example.org", password="old-password-17"
    )


def ask(client, email, **extra):
    return client.post(RESET, {"email": email}, **extra)


def link_in(message) -> str:
    (path,) = LINK.findall(message.body)
    return path


def test_a_reset_mails_a_working_link(client, eleni):
    response = ask(client, "Eleni@Example.org")
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    (message,) = mail.outbox
    assert message.to == ["eleni@example.org"]
    assert message.subject == "Choose a new Tsoxa password"
    assert "Your username: eleni\n" in message.body and "within 72 hours" in message.body
    assert "&#x27;" not in message.body and "&amp;" not in message.body  # plain text, not HTML-escaped
    form = client.get(link_in(message), follow=True)
    assert form.status_code == 200 and "Choose a new password" in form.text
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": "new-password-29", "new_password2": "new-password-29"}
    )
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    eleni.refresh_from_db()
    assert eleni.check_password("new-password-29")
    assert client.post(LOGIN, {"username": "eleni", "password": "new-password-29"}).status_code == 302


def test_an_unknown_address_is_answered_the_same_and_sent_nothing(client, eleni):
    known, unknown = ask(client, "eleni@example.org"), ask(client, "nobody@example.org")
    assert (unknown.status_code, unknown["Location"]) == (known.status_code, known["Location"])
    assert len(mail.outbox) == 1
    done = client.get(unknown["Location"]).text
    assert "If an account has this address" in done


def test_a_weak_new_password_is_refused(client, eleni):
    ask(client, "eleni@example.org")
    form = client.get(link_in(mail.outbox[0]), follow=True)
    refused = client.post(form.redirect_chain[-1][0], {"new_password1": "123", "new_password2": "123"})
    assert refused.status_code == 200 and "This password is too short." in refused.text
    eleni.refresh_from_db()
    assert eleni.check_password("old-password-17")


def test_a_used_link_is_refused(client, eleni):
    ask(client, "eleni@example.org")
    link = link_in(mail.outbox[0])
    form = client.get(link, follow=True)
    client.post(
        form.redirect_chain[-1][0], {"new_password1": "new-password-29", "new_password2": "new-password-29"}
    )
    again = client.get(link, follow=True)
    assert "This link no longer works" in again.text and 'name="new_password1"' not in again.text
    assert f'href="{RESET}"' in again.text


def test_a_link_too_old_is_refused(client, eleni, monkeypatch):
    ask(client, "eleni@example.org")
    link = link_in(mail.outbox[0])
    made = default_token_generator._now()
    monkeypatch.setattr(type(default_token_generator), "_now", lambda self: made.replace(year=made.year + 1))
    page = client.get(link, follow=True)
    assert "This link no longer works" in page.text
    eleni.refresh_from_db()
    assert eleni.check_password("old-password-17")


def test_a_link_whose_token_was_changed_is_refused(client, eleni):
    ask(client, "eleni@example.org")
    link = link_in(mail.outbox[0])
    page = client.get(link[:-3] + "zz/", follow=True)
    assert "This link no longer works" in page.text


def test_reset_requests_are_limited_per_e_mail_address(client, eleni):
    """Three mails at most to one address in a quarter of an hour, whoever asks; the limit holds
    for unknown addresses too, so it tells nothing."""
    for number in range(3):
        assert ask(client, "eleni@example.org", REMOTE_ADDR=f"203.0.113.{number}").status_code == 302
    assert ask(client, "ELENI@example.org", REMOTE_ADDR="203.0.113.9").status_code == 429
    assert len(mail.outbox) == 3
    for number in range(3):
        assert ask(client, "nobody@example.org", REMOTE_ADDR=f"203.0.113.{number}").status_code == 302
    assert ask(client, "nobody@example.org", REMOTE_ADDR="203.0.113.9").status_code == 429


def test_reset_requests_are_limited_per_address(client, eleni):
    for number in range(10):
        assert ask(client, f"someone{number}@example.org", REMOTE_ADDR="203.0.113.7").status_code == 302
    limited = ask(client, "eleni@example.org", REMOTE_ADDR="203.0.113.7")
    assert limited.status_code == 429 and "Too many attempts" in limited.text
    assert mail.outbox == []
    assert ask(client, "eleni@example.org", REMOTE_ADDR="203.0.113.8").status_code == 302


def test_the_account_pages_carry_the_strict_policy(client):
    for url in (SIGNUP, RESET, reverse("password_reset_done"), reverse("password_reset_complete")):
        response = client.get(url)
        assert response.status_code == 200, url
        assert (
            "'unsafe-inline'" not in response["Content-Security-Policy"].split("script-src")[1].split(";")[0]
        )

"""The account's API tokens page, /account/tokens/: make a token (its key shown once), the list,
revoke; and the services behind it (players/tokens.py)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from players import tokens
from players.errors import PlayerError
from players.models import ApiToken

pytestmark = pytest.mark.django_db

PAGE = "/account/tokens/"


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user("anna", password="pw-anna-12345")


@pytest.fixture
def signed_in(client, anna):
    client.force_login(anna)
    return client


def key_on(page: str) -> str | None:
    """The key in the page's "token made" field, if any."""
    found = re.search(r'<input[^>]* id="token-key"[^>]* value="([^"]*)"', page)
    return found.group(1) if found else None


# The page ------------------------------------------------------------------------------------------


def test_the_page_needs_an_account(client):
    response = client.get(PAGE)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert client.post(PAGE, {"name": "x", "scope": "read"}).status_code == 302
    assert not ApiToken.objects.exists()


def test_the_page_offers_three_scopes_each_with_what_it_may_do(signed_in):
    page = signed_in.get(PAGE).content.decode()
    radios = re.findall(r'<input type="radio" name="scope" value="(\w+)"', page)
    assert radios == ["read", "score", "full"]
    assert "club's website" in page and "records, corrects" in page
    assert 'value="read" checked' in page  # the least a token may do, unless chosen otherwise


def test_the_header_links_the_signed_in_account_to_its_tokens(signed_in, client):
    page = signed_in.get(reverse("tournaments:list")).content.decode()
    assert f'href="{PAGE}"' in page
    client.logout()
    assert f'href="{PAGE}"' not in client.get(reverse("tournaments:list")).content.decode()


def test_a_new_tokens_key_is_shown_once(signed_in, anna):
    response = signed_in.post(PAGE, {"name": "Club website", "scope": "read"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    page = response.content.decode()
    key = key_on(page)
    assert key is not None and key.startswith("tsx_")
    token = ApiToken.objects.get(user=anna)
    assert token.name == "Club website" and token.scope == "read"
    assert token.key_hash == tokens.key_hash(key) and token.prefix == key[:12]
    assert 'data-copy="#token-key"' in page  # the copy button (shown by copy.js)
    # Never again: not on the page, not in the list.
    again = signed_in.get(PAGE).content.decode()
    assert key not in again
    assert f"{token.prefix}…" in again and "Club website" in again


def test_the_list_shows_name_scope_prefix_and_use(signed_in, anna):
    used, _ = tokens.token_create(user=anna, name="Tablet", scope="score")
    tokens.token_create(user=anna, name="Script", scope="full")
    ApiToken.objects.filter(pk=used.pk).update(last_used_at=timezone.now() - datetime.timedelta(hours=1))
    page = signed_in.get(PAGE).content.decode()
    table = page[page.index('data-testid="tokens"') :]
    assert table.index("Script") < table.index("Tablet")  # newest first
    assert "Score" in table and "Full" in table and "never" in table
    assert f"{used.prefix}…" in table


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"name": "", "scope": "read"}, "This field is required"),
        ({"name": "Website", "scope": "admin"}, "Select a valid choice"),
        ({"name": "Website\x07", "scope": "read"}, "no control characters"),
    ],
)
def test_a_refused_token_is_told_on_the_page(signed_in, body, error):
    response = signed_in.post(PAGE, body)
    assert response.status_code == 422
    assert error in response.content.decode()
    assert key_on(response.content.decode()) is None
    assert not ApiToken.objects.exists()


def test_revoke(signed_in, anna):
    token, key = tokens.token_create(user=anna, name="Old website", scope="read")
    response = signed_in.post(reverse("league:token_revoke", args=[token.pk]), follow=True)
    assert response.status_code == 200
    assert "revoked" in response.content.decode()
    assert not ApiToken.objects.exists()
    assert tokens.token_find(key=key) is None


def test_someone_elses_token_is_not_revocable(signed_in, django_user_model):
    bob = django_user_model.objects.create_user("bob", password="pw-bob-12345")
    theirs, _ = tokens.token_create(user=bob, name="Bob's", scope="full")
    assert signed_in.post(reverse("league:token_revoke", args=[theirs.pk])).status_code == 404
    assert ApiToken.objects.filter(pk=theirs.pk).exists()
    assert "Bob's" not in signed_in.get(PAGE).content.decode()


def test_revoke_is_a_post(signed_in, anna):
    token, _ = tokens.token_create(user=anna, name="Website", scope="read")
    assert signed_in.get(reverse("league:token_revoke", args=[token.pk])).status_code == 405
    assert ApiToken.objects.filter(pk=token.pk).exists()


# The services ---------------------------------------------------------------------------------------


def test_keys_are_random_and_found_by_their_hash_only(anna):
    made = [tokens.token_create(user=anna, name=f"T{n}", scope="read") for n in range(3)]
    keys = {key for _token, key in made}
    assert len(keys) == 3
    for token, key in made:
        assert tokens.token_find(key=key) == token
        assert tokens.token_find(key=key[:-1]) is None
        assert tokens.token_find(key=key.replace("tsx_", "tsy_", 1)) is None


@pytest.mark.parametrize("name", ["", "  ", "x" * 81, "bell\x07"])
def test_a_token_needs_a_plain_name(anna, name):
    with pytest.raises(PlayerError) as refused:
        tokens.token_create(user=anna, name=name, scope="read")
    assert refused.value.field == "name"


def test_a_name_is_kept_with_its_spaces_collapsed(anna):
    token, _ = tokens.token_create(user=anna, name="  Club   website ", scope="score")
    assert token.name == "Club website"


def test_token_used_writes_at_most_once_a_minute(anna, django_assert_num_queries):
    token, _ = tokens.token_create(user=anna, name="Website", scope="read")
    now = timezone.now()
    with django_assert_num_queries(1):
        tokens.token_used(token=token, now=now)
    with django_assert_num_queries(0):
        tokens.token_used(token=token, now=now + datetime.timedelta(seconds=59))
    # Another process holding an older copy of the token: the row says it was just written.
    stale_copy = ApiToken.objects.get(pk=token.pk)
    stale_copy.last_used_at = None
    tokens.token_used(token=stale_copy, now=now + datetime.timedelta(seconds=30))
    assert ApiToken.objects.get(pk=token.pk).last_used_at == now
    tokens.token_used(token=token, now=now + datetime.timedelta(seconds=61))
    assert ApiToken.objects.get(pk=token.pk).last_used_at == now + datetime.timedelta(seconds=61)

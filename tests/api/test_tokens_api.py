"""Scoped API tokens (``Authorization: Bearer tsx_…``): what each scope may do, the keys, the
/api/v1/tokens/ endpoints, and the request rates (per token, per account, per address).

The accounts and data are tests/api/conftest.py's: ``scorekeeper`` keeps the standalone match,
``organizer`` runs the tournaments (and so keeps their matches), ``club_reader`` is a club account
that may not write matches.
"""

from __future__ import annotations

import datetime
import hashlib

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from api.throttles import ApiRateThrottle
from players import tokens
from players.models import ApiToken
from scoring.models import Match
from tournaments.models import Round

from .conftest import WIN_0, client_for

pytestmark = pytest.mark.django_db

TOKENS = "/api/v1/tokens/"
MATCHES = "/api/v1/matches/"
NEW_MATCH = {
    "teams": [
        {"name": "Kafeneio C", "players": ["Olga", "Pavlos"]},
        {"name": "Kafeneio D", "players": ["Rea", "Sotiris"]},
    ],
    "first_dealer": 0,
}


def bearer(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def scoped(user, scope: str, name: str = "a use") -> APIClient:
    """A client holding a new token of that scope for the account."""
    _token, key = tokens.token_create(user=user, name=name, scope=scope)
    return bearer(key)


def deals_url(match) -> str:
    return f"{MATCHES}{match.pk}/deals/"


# What each scope may do -----------------------------------------------------------------------------


@pytest.mark.parametrize("scope", ["read", "score", "full"])
def test_every_scope_reads_what_the_account_may_see(organizer, private_tournament, scope):
    path = f"/api/v1/tournaments/{private_tournament.slug}/standings/"
    assert scoped(organizer, scope).get(path).status_code == 200
    assert APIClient().get(path).status_code == 404  # the organizer's right, not the token's


def test_a_read_token_may_not_write(scorekeeper, standalone):
    client = scoped(scorekeeper, "read")
    response = client.post(deals_url(standalone), WIN_0, format="json")
    assert response.status_code == 403
    assert "read" in response.json()["detail"]
    assert client.post(MATCHES, NEW_MATCH, format="json").status_code == 403
    assert standalone.deals.count() == 3  # nothing recorded
    assert client.get(deals_url(standalone)).status_code == 200


def test_a_score_token_keeps_its_accounts_match(scorekeeper, standalone):
    client = scoped(scorekeeper, "score")
    response = client.post(deals_url(standalone), WIN_0, format="json")
    assert response.status_code == 201, response.content
    deal = response.json()["deal"]["id"]
    corrected = client.put(f"{deals_url(standalone)}{deal}/", {"thrown_in": True}, format="json")
    assert corrected.status_code == 200, corrected.content
    assert client.delete(f"{deals_url(standalone)}{deal}/").status_code == 204
    assert client.post(f"{MATCHES}{standalone.pk}/finish/").status_code == 200
    assert Match.objects.get(pk=standalone.pk).status == "finished"


def test_a_score_token_starts_and_imports_matches(scorekeeper):
    client = scoped(scorekeeper, "score")
    made = client.post(MATCHES, NEW_MATCH, format="json")
    assert made.status_code == 201, made.content
    imported = client.post(f"{MATCHES}import/", {**NEW_MATCH, "deals": [WIN_0]}, format="json")
    assert imported.status_code == 201, imported.content


def test_a_score_token_adds_no_right(organizer, scorekeeper, standalone):
    """The organizer does not keep the standalone match: a score token changes nothing to that."""
    response = scoped(organizer, "score").post(deals_url(standalone), WIN_0, format="json")
    assert response.status_code == 403
    assert standalone.deals.count() == 3


@pytest.mark.parametrize("scope", ["score", "full"])
def test_no_scope_lets_a_read_only_club_write(club_reader, scope):
    assert scoped(club_reader, scope).post(MATCHES, NEW_MATCH, format="json").status_code == 403


def test_a_score_token_may_not_run_a_tournament(organizer, draft_tournament):
    path = f"/api/v1/tournaments/{draft_tournament.slug}/rounds/1/start/"
    response = scoped(organizer, "score").post(path)
    assert response.status_code == 403
    assert "score" in response.json()["detail"]
    assert Round.objects.get(tournament=draft_tournament, number=1).status != Round.Status.STARTED
    patch = scoped(organizer, "score").patch(f"/api/v1/tournaments/{draft_tournament.slug}/", {"name": "X"})
    assert patch.status_code == 403


def test_a_full_token_does_what_the_account_may(organizer, draft_tournament):
    path = f"/api/v1/tournaments/{draft_tournament.slug}/rounds/1/start/"
    response = scoped(organizer, "full").post(path)
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "started"


def test_the_accounts_own_token_and_session_stay_unscoped(organizer, draft_tournament, open_tournament):
    path = f"/api/v1/tournaments/{draft_tournament.slug}/rounds/1/start/"
    assert client_for(organizer).post(path).status_code == 200
    session = APIClient()
    session.force_login(organizer)
    renamed = session.patch(f"/api/v1/tournaments/{open_tournament.slug}/", {"name": "Summer Open"})
    assert renamed.status_code == 200, renamed.content


# Keys -----------------------------------------------------------------------------------------------


def test_only_the_keys_hash_is_stored(scorekeeper):
    token, key = tokens.token_create(user=scorekeeper, name="Tablet 3", scope="score")
    assert key.startswith("tsx_") and len(key) >= 4 + 43  # 32 random bytes, urlsafe
    row = ApiToken.objects.get(pk=token.pk)
    assert row.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert row.prefix == key[:12]
    stored = [str(value) for value in ApiToken.objects.filter(pk=token.pk).values().get().values()]
    assert key not in stored


def test_a_revoked_token_is_401_at_once(scorekeeper, standalone):
    token, key = tokens.token_create(user=scorekeeper, name="Tablet", scope="read")
    client = bearer(key)
    assert client.get(f"{MATCHES}{standalone.pk}/").status_code == 200
    tokens.token_revoke(token=token)
    response = client.get(f"{MATCHES}{standalone.pk}/")
    assert response.status_code == 401


@pytest.mark.parametrize(
    "header",
    [
        "Bearer tsx_" + "A" * 43,  # our shape, no such key
        "Bearer not-a-key-of-ours",
        "Bearer tsx_a tsx_b",
        "Bearer",
        "Bearer tsx_" + "A" * 500,
    ],
)
def test_a_wrong_key_is_401_even_for_a_read(standalone, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    assert client.get(f"{MATCHES}{standalone.pk}/").status_code == 401


def test_a_key_is_not_an_account_token(scorekeeper, standalone):
    _token, key = tokens.token_create(user=scorekeeper, name="Tablet", scope="full")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get(f"{MATCHES}{standalone.pk}/").status_code == 401


def test_an_inactive_accounts_token_is_401(scorekeeper, standalone):
    _token, key = tokens.token_create(user=scorekeeper, name="Tablet", scope="full")
    scorekeeper.is_active = False
    scorekeeper.save()
    assert bearer(key).get(f"{MATCHES}{standalone.pk}/").status_code == 401


def test_last_used_is_written_at_most_once_a_minute(scorekeeper, standalone):
    token, key = tokens.token_create(user=scorekeeper, name="Website", scope="read")
    client = bearer(key)
    assert ApiToken.objects.get(pk=token.pk).last_used_at is None
    client.get(f"{MATCHES}{standalone.pk}/")
    first = ApiToken.objects.get(pk=token.pk).last_used_at
    assert first is not None and timezone.now() - first < datetime.timedelta(seconds=10)

    recently = timezone.now() - datetime.timedelta(seconds=30)
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=recently)
    client.get(f"{MATCHES}{standalone.pk}/")
    assert ApiToken.objects.get(pk=token.pk).last_used_at == recently  # not written again

    long_ago = timezone.now() - datetime.timedelta(seconds=61)
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=long_ago)
    client.get(f"{MATCHES}{standalone.pk}/")
    assert ApiToken.objects.get(pk=token.pk).last_used_at > long_ago


# /api/v1/tokens/ ------------------------------------------------------------------------------------


def test_a_session_makes_lists_and_revokes_tokens(scorekeeper, standalone):
    session = APIClient()
    session.force_login(scorekeeper)
    made = session.post(TOKENS, {"name": "Club website", "scope": "read"}, format="json")
    assert made.status_code == 201, made.content
    answer = made.json()
    assert answer["scope"] == "read" and answer["name"] == "Club website"
    key = answer["key"]
    assert key.startswith(answer["prefix"]) and len(answer["prefix"]) == 12
    assert bearer(key).get(f"{MATCHES}{standalone.pk}/").status_code == 200

    listed = session.get(TOKENS).json()["results"]
    assert [(t["id"], t["name"], t["scope"]) for t in listed] == [(answer["id"], "Club website", "read")]
    assert "key" not in listed[0] and key not in session.get(TOKENS).content.decode()

    assert session.delete(f"{TOKENS}{answer['id']}/").status_code == 204
    assert not ApiToken.objects.exists()
    assert bearer(key).get(f"{MATCHES}{standalone.pk}/").status_code == 401


def test_the_accounts_token_and_a_full_token_manage_tokens(scorekeeper):
    made = client_for(scorekeeper).post(TOKENS, {"name": "Everything", "scope": "full"}, format="json")
    assert made.status_code == 201
    full = bearer(made.json()["key"])
    second = full.post(TOKENS, {"name": "Tablet", "scope": "score"}, format="json")
    assert second.status_code == 201
    assert len(full.get(TOKENS).json()["results"]) == 2
    assert full.delete(f"{TOKENS}{second.json()['id']}/").status_code == 204


@pytest.mark.parametrize("scope", ["read", "score"])
def test_a_read_or_score_token_may_not_manage_tokens(scorekeeper, scope):
    client = scoped(scorekeeper, scope)
    mine = ApiToken.objects.get()
    assert client.post(TOKENS, {"name": "More", "scope": "full"}, format="json").status_code == 403
    assert client.get(TOKENS).status_code == 403
    assert client.delete(f"{TOKENS}{mine.pk}/").status_code == 403
    assert ApiToken.objects.count() == 1


def test_tokens_are_the_accounts_own(scorekeeper, organizer):
    theirs, _key = tokens.token_create(user=organizer, name="Theirs", scope="full")
    client = client_for(scorekeeper)
    assert client.get(TOKENS).json()["results"] == []
    assert client.delete(f"{TOKENS}{theirs.pk}/").status_code == 404
    assert ApiToken.objects.filter(pk=theirs.pk).exists()


def test_tokens_need_credentials(db):
    assert APIClient().get(TOKENS).status_code == 401
    assert APIClient().post(TOKENS, {"name": "x", "scope": "read"}, format="json").status_code == 401


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Website", "scope": "admin"}, "scope"),
        ({"name": "", "scope": "read"}, "name"),
        ({"name": "   ", "scope": "read"}, "name"),
        ({"name": "x" * 81, "scope": "read"}, "name"),
        ({"scope": "read"}, "name"),
    ],
)
def test_a_bad_token_request_is_400(scorekeeper, body, field):
    response = client_for(scorekeeper).post(TOKENS, body, format="json")
    assert response.status_code == 400
    assert field in response.content.decode()
    assert not ApiToken.objects.exists()


def test_an_account_holds_at_most_50_tokens(scorekeeper):
    for n in range(tokens.TOKENS_PER_ACCOUNT):
        tokens.token_create(user=scorekeeper, name=f"T{n}", scope="read")
    response = client_for(scorekeeper).post(TOKENS, {"name": "One more", "scope": "read"}, format="json")
    assert response.status_code == 400
    assert ApiToken.objects.count() == tokens.TOKENS_PER_ACCOUNT


# Request rates --------------------------------------------------------------------------------------

NOW = 1_000_030.0  # 10 s into a minute's window (1_000_020 is a multiple of 60): 50 s of it left


@pytest.fixture
def low_rates(settings, monkeypatch):
    """Rates of a few requests a minute, and a clock that stands still unless a test moves it."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "read": "2/min", "score": "4/min", "user": "5/min"},
    }
    clock = {"now": NOW}
    monkeypatch.setattr(ApiRateThrottle, "timer", staticmethod(lambda: clock["now"]))
    return clock


def statuses(client, path: str, times: int, **extra) -> list[int]:
    return [client.get(path, **extra).status_code for _ in range(times)]


def test_each_token_counts_apart_at_its_scopes_rate(low_rates, scorekeeper, standalone):
    path = f"{MATCHES}{standalone.pk}/"
    website, other_site = scoped(scorekeeper, "read", "Website"), scoped(scorekeeper, "read", "Other site")
    assert statuses(website, path, 2) == [200, 200]
    refused = website.get(path)
    assert refused.status_code == 429
    assert refused["Retry-After"] == "50"
    # Another token of the same account has its own count, and so has the account's own token.
    assert statuses(other_site, path, 2) == [200, 200]
    assert statuses(client_for(scorekeeper), path, 5) == [200] * 5
    assert client_for(scorekeeper).get(path).status_code == 429
    # A score token has its scope's rate.
    assert statuses(scoped(scorekeeper, "score", "Tablet"), path, 5) == [200] * 4 + [429]
    # The next minute, the website reads again.
    low_rates["now"] = NOW + 50
    assert website.get(path).status_code == 200


def test_a_session_counts_with_the_accounts_token(low_rates, scorekeeper, standalone):
    path = f"{MATCHES}{standalone.pk}/"
    session = APIClient()
    session.force_login(scorekeeper)
    assert statuses(session, path, 3) == [200] * 3
    assert statuses(client_for(scorekeeper), path, 3) == [200, 200, 429]


def test_writes_count_too(low_rates, scorekeeper, standalone):
    client = scoped(scorekeeper, "score")
    posted = [client.post(deals_url(standalone), WIN_0, format="json").status_code for _ in range(5)]
    assert posted == [201] * 4 + [429]
    assert standalone.deals.count() == 3 + 4


def test_without_credentials_each_address_counts_apart(low_rates, standalone):
    path = f"{MATCHES}{standalone.pk}/"
    client = APIClient()
    assert statuses(client, path, 4, REMOTE_ADDR="203.0.113.7") == [200, 200, 200, 429]
    assert statuses(client, path, 3, REMOTE_ADDR="203.0.113.8") == [200, 200, 200]


def test_behind_a_trusted_proxy_the_forwarded_address_counts(low_rates, settings, standalone):
    settings.TSOXA_TRUSTED_PROXIES = 1
    path = f"{MATCHES}{standalone.pk}/"
    client = APIClient()
    proxy = {"REMOTE_ADDR": "127.0.0.1"}
    one = statuses(client, path, 4, HTTP_X_FORWARDED_FOR="198.51.100.1", **proxy)
    assert one == [200, 200, 200, 429]
    # A client that names another address to the left of the proxy's entry gains nothing.
    forged = client.get(path, HTTP_X_FORWARDED_FOR="10.9.9.9, 198.51.100.1", **proxy)
    assert forged.status_code == 429
    assert statuses(client, path, 3, HTTP_X_FORWARDED_FOR="198.51.100.2", **proxy) == [200] * 3

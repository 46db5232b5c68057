"""A request whose credentials are refused (401) counts at its address's anonymous rate, though DRF
refuses it before asking the throttle: guessing tokens is held to that rate (api/throttles.py,
api/errors.py)."""

import pytest
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from api.throttles import ApiRateThrottle, refused_credentials_counted

pytestmark = pytest.mark.django_db

GUESSER = {"REMOTE_ADDR": "203.0.113.9"}
NEIGHBOUR = {"REMOTE_ADDR": "203.0.113.10"}


@pytest.fixture
def anon_rate_of_three(settings, monkeypatch):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "anon": "3/min"},
    }
    monkeypatch.setattr(ApiRateThrottle, "timer", staticmethod(lambda: 1_000_030.0))  # one window


def guess(client: APIClient, header: str, path: str = "/api/v1/tournaments/", **extra) -> int:
    return client.get(path, HTTP_AUTHORIZATION=header, **{**GUESSER, **extra}).status_code


@pytest.mark.parametrize(
    "header",
    ["Token 0123456789abcdef0123456789abcdef01234567", "Bearer tsx_notakey", "Bearer", "Token"],
    ids=["wrong account token", "wrong scoped token", "bad Bearer header", "bad Token header"],
)
def test_guessing_tokens_is_held_to_the_anonymous_rate(anon_rate_of_three, header):
    client = APIClient()
    assert [guess(client, header) for _ in range(3)] == [401] * 3
    refused = client.get("/api/v1/tournaments/", HTTP_AUTHORIZATION=header, **GUESSER)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    # The address's own anonymous reads share that count; another address has its own.
    assert client.get("/api/v1/tournaments/", **GUESSER).status_code == 429
    assert client.get("/api/v1/tournaments/", **NEIGHBOUR).status_code == 200


def test_failed_and_anonymous_requests_share_one_count(anon_rate_of_three):
    client = APIClient()
    assert client.get("/api/v1/tournaments/", **GUESSER).status_code == 200
    assert client.get("/api/v1/tournaments/", **GUESSER).status_code == 200
    assert guess(client, "Bearer tsx_notakey") == 401
    assert guess(client, "Bearer tsx_notakey") == 429


def test_a_write_without_credentials_counts_too(anon_rate_of_three):
    """No credentials where a write needs them: refused by the permission, before the throttle."""
    client = APIClient()
    answers = [client.post("/api/v1/matches/", {}, format="json", **GUESSER).status_code for _ in range(4)]
    assert answers == [401, 401, 401, 429]


def test_a_request_the_throttle_counted_is_not_counted_again(anon_rate_of_three):
    """A refusal after the throttle (an object's permission, say) adds nothing to its count."""
    request = Request(APIRequestFactory().get("/api/v1/tournaments/", **GUESSER))
    throttle = ApiRateThrottle()
    for _ in range(3):
        assert throttle.allow_request(request, None)
        assert refused_credentials_counted(request, None) is None
    assert not throttle.allow_request(Request(APIRequestFactory().get("/", **GUESSER)), None)

"""An answer that carries a token's key is kept by no cache (``Cache-Control: no-store``): the scoped
token's creation, the account's token (POST /api/v1/token/), the tokens page's answer."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from .conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_new_scoped_tokens_answer_is_not_stored(scorekeeper):
    response = client_for(scorekeeper).post(
        "/api/v1/tokens/", {"name": "Tablet", "scope": "score"}, format="json"
    )
    assert response.status_code == 201 and response.json()["key"].startswith("tsx_")
    assert "no-store" in response["Cache-Control"]


def test_the_accounts_token_is_not_stored(scorekeeper):
    response = APIClient().post(
        "/api/v1/token/", {"username": "keeper", "password": "pw-keeper-12345"}, format="json"
    )
    assert response.status_code == 200 and response.json()["token"] == scorekeeper.token
    assert "no-store" in response["Cache-Control"]


def test_the_tokens_page_that_shows_a_key_is_not_stored(client, scorekeeper):
    client.force_login(scorekeeper)
    response = client.post(reverse("league:tokens"), {"name": "Website", "scope": "read"})
    assert response.status_code == 200 and "tsx_" in response.text
    assert "no-store" in response["Cache-Control"]

"""A claimed person's record through the API (issue 24): a stranger's match with her id is unconfirmed
in her history and counts for nobody until her own account confirms it (``POST
/api/v1/players/{id}/confirm/``)."""

from __future__ import annotations

import pytest

from league import records
from players import identity_services as identity
from players.models import Player
from tests.factories import made

from .conftest import _user, client_for

pytestmark = pytest.mark.django_db

PLAYERS = "/api/v1/players/"


@pytest.fixture
def maria(django_user_model):
    """Maria's record and her account (with a token), the claim approved."""
    account = _user(django_user_model, "maria")
    record = Player.objects.create(name="Maria")
    identity.claim_approve(claim=identity.claim_request(player=record, user=account), by=None)
    record.refresh_from_db()
    return record, account


def started_by(client, maria_id):
    """Nikos & Eleni beat Giorgos & Maria (picked by id) in a one-deal match the client starts."""
    teams = [
        {"name": "A", "players": ["Nikos", "Eleni"]},
        {"name": "B", "players": ["Giorgos", "Maria"], "player_ids": [None, maria_id]},
    ]
    response = client.post("/api/v1/matches/", {"teams": teams, "options": {"deals": 1}}, format="json")
    assert response.status_code == 201, response.content
    match = response.json()["id"]
    assert client.post(f"/api/v1/matches/{match}/deals/", made(0), format="json").status_code == 201
    return match


def history(client, player):
    return {m["id"]: m for m in client.get(f"{PLAYERS}{player.pk}/history/").json()["results"]}


def test_a_strangers_match_is_unconfirmed_in_her_history_until_she_confirms(maria, scorekeeper, anon):
    record, account = maria
    match = started_by(client_for(scorekeeper), record.pk)
    seen = history(anon, record)[match]
    assert seen["status"] == "finished"
    assert (seen["counted"], seen["unconfirmed"], seen["awaiting"], seen["confirmation"]) == (
        False,
        True,
        True,
        None,
    )
    assert records.player_record(player=record).stats.record.played == 0

    confirm = f"{PLAYERS}{record.pk}/confirm/"
    assert (
        client_for(scorekeeper).post(confirm, {"match": match, "answer": "me"}, format="json").status_code
        == 403
    )
    assert anon.post(confirm, {"match": match, "answer": "me"}, format="json").status_code in (401, 403)
    mine = client_for(account)
    assert mine.post(confirm, {"match": match, "answer": "yes"}, format="json").status_code == 400
    assert mine.post(confirm, {"match": 10**6, "answer": "me"}, format="json").status_code == 400
    assert history(anon, record)[match]["unconfirmed"] is True

    answer = mine.post(confirm, {"match": match, "answer": "me"}, format="json")
    assert answer.status_code == 200, answer.content
    assert {k: answer.json()[k] for k in ("match", "tournament", "answer")} == {
        "match": match,
        "tournament": None,
        "answer": "me",
    }
    seen = history(anon, record)[match]
    assert (seen["counted"], seen["unconfirmed"], seen["awaiting"], seen["confirmation"]) == (
        True,
        False,
        False,
        "me",
    )
    assert records.player_record(player=record).stats.record.lost == 1


def test_not_me_keeps_it_out_of_her_record(maria, scorekeeper, anon):
    record, account = maria
    match = started_by(client_for(scorekeeper), record.pk)
    body = {"match": match, "answer": "not_me"}
    assert client_for(account).post(f"{PLAYERS}{record.pk}/confirm/", body, format="json").status_code == 200
    seen = history(anon, record)[match]
    assert (seen["counted"], seen["unconfirmed"], seen["confirmation"]) == (False, True, "not_me")


def test_her_own_match_counts_at_once(maria, anon):
    record, account = maria
    match = started_by(client_for(account), record.pk)
    seen = history(anon, record)[match]
    assert (seen["counted"], seen["unconfirmed"], seen["awaiting"]) == (True, False, False)


def test_an_unclaimed_record_keeps_the_sides_rule(scorekeeper, anon):
    record = Player.objects.create(name="Maria")
    match = started_by(client_for(scorekeeper), record.pk)
    seen = history(anon, record)[match]
    assert (seen["counted"], seen["unconfirmed"], seen["awaiting"], seen["confirmation"]) == (
        True,
        False,
        False,
        None,
    )
    body = {"match": match, "answer": "me"}
    assert (
        client_for(scorekeeper).post(f"{PLAYERS}{record.pk}/confirm/", body, format="json").status_code == 403
    )

"""GET /api/v1/tournaments/{slug}/console/ and POST …/calls/{id}/acknowledge/: the organizer's
console of the current round as JSON, and a table's call for the director acknowledged (issue 26)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring import services as scoring
from scoring.models import Match
from tournaments import services
from tournaments.models import DirectorCall, Round

from .conftest import NOT_ORGANIZERS, WIN_0, client_for

pytestmark = pytest.mark.django_db


def in_play(organizer, teams=6):
    t = services.tournament_create(organizer=organizer, name="Console", deals_per_match=6)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    t = services.tournament_start(tournament=t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    # Ten minutes into the round: a tablet not heard from since the start is flagged.
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - timedelta(minutes=10))
    return t, list(rnd.tables.order_by("number"))


def test_the_console_as_json(organizer):
    t, tables = in_play(organizer)
    scoring.deal_record(match=Match.objects.get(pk=tables[0].match_id), deal=WIN_0)
    call = services.call_create(table=tables[2])
    response = client_for(organizer).get(f"/api/v1/tournaments/{t.slug}/console/")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["round"] == {"number": 1, "status": "started", "kind": "swiss"}
    states = {row["number"]: row["state"] for row in body["tables"]}
    assert states == {1: "playing", 2: "not_started", 3: "not_started"}
    first = body["tables"][0]
    assert first["label"] == "Deal 2 of 6 · 100–62" and first["played"] == 1 and first["totals"] == [100, 62]
    assert first["teams"][0]["numbers"] and first["teams"][1]["name"]
    assert body["tables"][1]["silent"] is True and body["tables"][2]["call"] == call.pk
    assert body["calls"][0]["id"] == call.pk and body["calls"][0]["table"] == 3
    assert body["waiting"] == [1, 2, 3] and body["playing"] == 3 and body["version"]


@pytest.mark.parametrize("who", NOT_ORGANIZERS)
def test_only_the_organizer_reads_it_or_acknowledges(organizer, users, who):
    t, tables = in_play(organizer)
    call = services.call_create(table=tables[0])
    client = client_for(users[who]) if users.get(who) else client_for()
    assert client.get(f"/api/v1/tournaments/{t.slug}/console/").status_code in (401, 403, 404)
    answer = client.post(f"/api/v1/tournaments/{t.slug}/calls/{call.pk}/acknowledge/")
    assert answer.status_code in (401, 403, 404)
    assert DirectorCall.objects.get(pk=call.pk).acknowledged_at is None


def test_acknowledge_a_call_once(organizer):
    t, tables = in_play(organizer)
    call = services.call_create(table=tables[1])
    client = client_for(organizer)
    response = client.post(f"/api/v1/tournaments/{t.slug}/calls/{call.pk}/acknowledge/")
    assert response.status_code == 200, response.content
    assert response.json()["table"] == 2
    call.refresh_from_db()
    assert call.acknowledged_by == organizer
    again = client.post(f"/api/v1/tournaments/{t.slug}/calls/{call.pk}/acknowledge/")
    assert again.status_code == 400 and "already acknowledged" in again.content.decode()
    assert client.post(f"/api/v1/tournaments/{t.slug}/calls/999999/acknowledge/").status_code == 404
    assert client.get(f"/api/v1/tournaments/{t.slug}/console/").json()["calls"] == []

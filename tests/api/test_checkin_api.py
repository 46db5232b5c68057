"""Check-in through the API (issue 26): the organizer reads who is there and each team's own link,
opens or closes self check-in, and checks every registered team in at once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.problems import fields, problem
from tournaments import services
from tournaments.models import Entry

from .conftest import client_for, tournament

pytestmark = pytest.mark.django_db

TEAMS = [(name, (f"{name} A", f"{name} B")) for name in ("Thalassa", "Ammos", "Vrachos", "Kyma", "Ilios")]


def url(t, tail="") -> str:
    return f"/api/v1/tournaments/{t.slug}/checkin/{tail}"


@pytest.fixture
def evening(organizer):
    """Five teams entered; Ammos checked in, Vrachos withdrawn; a sign-up awaits approval."""
    t = tournament(organizer, "Friday concours", TEAMS, swiss_rounds=3)
    entries = {e.name: e for e in t.entries.select_related("team")}
    services.entry_set_status(entry=entries["Ammos"], status=Entry.Status.CHECKED_IN, user=organizer)
    services.entry_set_status(entry=entries["Vrachos"], status=Entry.Status.WITHDRAWN, user=organizer)
    services.entry_register(tournament=t, name="Late", players=["L a", "L b"], status=Entry.Status.PENDING)
    return t


def test_the_organizer_reads_the_counts_who_is_missing_and_each_teams_link(api, evening):
    response = api("organizer").get(url(evening))
    assert response.status_code == 200, response.content
    body = response.json()
    assert {k: body[k] for k in ("open", "checked_in", "registered", "pending", "withdrawn")} == {
        "open": False,
        "checked_in": 1,
        "registered": 4,
        "pending": 1,
        "withdrawn": 1,
    }
    assert [(m["number"], m["name"]) for m in body["missing"]] == [(1, "Thalassa"), (4, "Kyma"), (5, "Ilios")]
    links = {e["name"]: e for e in body["entries"]}
    assert set(links) == {"Thalassa", "Ammos", "Kyma", "Ilios"}  # those that play
    kyma = evening.entries.get(team__name="Kyma")
    assert links["Kyma"]["checkin_url"] == "http://testserver" + reverse(
        "tournaments:checkin_self", args=[kyma.checkin_token]
    )
    assert links["Ammos"]["status"] == "checked_in" and links["Kyma"]["id"] == kyma.pk


@pytest.mark.parametrize("role", ["anonymous", "player", "scorekeeper", "club_writer"])
def test_nobody_else_reads_the_links_or_changes_check_in(api, evening, role):
    client = api(role)
    for response in (
        client.get(url(evening)),
        client.post(url(evening), {"open": True}, format="json"),
        client.post(url(evening, "all/")),
    ):
        assert response.status_code in (401, 403), (role, response.status_code)
        assert "checkin_url" not in response.content.decode()
    evening.refresh_from_db()
    assert not evening.checkin_open
    assert evening.entries.filter(status=Entry.Status.CHECKED_IN).count() == 1


def test_a_rival_organizer_is_refused(rival, evening):
    assert client_for(rival).get(url(evening)).status_code == 403


def test_the_organizer_opens_and_closes_self_check_in(api, evening, organizer):
    client = api("organizer")
    opened = client.post(url(evening), {"open": True}, format="json")
    assert opened.status_code == 200 and opened.json()["open"] is True
    evening.refresh_from_db()
    assert evening.checkin_open
    assert client.get(f"/api/v1/tournaments/{evening.slug}/").json()["checkin_open"] is True
    closed = client.post(url(evening), {"open": False}, format="json")
    assert closed.json()["open"] is False
    evening.refresh_from_db()
    assert not evening.checkin_open


def test_opening_needs_a_yes_or_no(api, evening):
    response = api("organizer").post(url(evening), {}, format="json")
    assert fields(problem(response, 400)) == {"open"}
    response = api("organizer").post(url(evening), {"open": "perhaps"}, format="json")
    assert fields(problem(response, 400)) == {"open"}
    evening.refresh_from_db()
    assert not evening.checkin_open


def test_check_in_all_checks_in_every_registered_team_and_says_how_many(api, evening):
    response = api("organizer").post(url(evening, "all/"))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["checked_in_now"] == 3 and body["checked_in"] == 4 and body["missing"] == []
    assert dict(evening.entries.values_list("team__name", "status")) == {
        "Thalassa": "checked_in",
        "Ammos": "checked_in",
        "Vrachos": "withdrawn",
        "Kyma": "checked_in",
        "Ilios": "checked_in",
        "Late": "pending",
    }
    assert api("organizer").post(url(evening, "all/")).json()["checked_in_now"] == 0


def test_check_in_is_refused_once_started(api, evening, organizer):
    kyma = evening.entries.get(team__name="Kyma")
    services.entry_set_status(entry=kyma, status=Entry.Status.CHECKED_IN, user=organizer)
    services.tournament_start(tournament=evening, user=organizer)  # Ammos and Kyma play
    client = api("organizer")
    assert "started" in problem(client.post(url(evening, "all/")), 400)["detail"]
    assert (
        "before the tournament starts"
        in problem(client.post(url(evening), {"open": True}, format="json"), 400)["detail"]
    )
    evening.refresh_from_db()
    assert not evening.checkin_open
    assert evening.entries.filter(status=Entry.Status.CHECKED_IN).count() == 2
    assert client.get(url(evening)).status_code == 200  # still readable


def test_the_tournament_says_whether_self_check_in_is_open(anon, evening):
    evening.public = True
    evening.save()
    assert anon.get(f"/api/v1/tournaments/{evening.slug}/").json()["checkin_open"] is False

"""The API of issue 26's entries: PATCH an entry, reinstate it, numbers everywhere a team is shown
or picked."""

import pytest

from players.models import Team
from tests.problems import fields, problem
from tournaments.models import Adjustment, Entry

from .conftest import NOT_ORGANIZERS

pytestmark = pytest.mark.django_db

TOURNAMENTS = "/api/v1/tournaments/"


def url(t, tail=""):
    return f"{TOURNAMENTS}{t.slug}/{tail}"


def by_name(t, name):
    return Entry.objects.select_related("team").get(tournament=t, team__name=name)


def test_patch_renames_renumbers_and_is_audited(api, open_tournament, organizer):
    sharks = by_name(open_tournament, "Sharks")
    response = api("organizer").patch(
        url(open_tournament, f"entries/{sharks.pk}/"), {"name": "Kyma", "number": 7}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["team"], body["number"], body["players"]) == ("Kyma", 7, ["Aris", "Bettina"])
    sharks.refresh_from_db()
    assert sharks.name == "Kyma" and sharks.history.latest().history_user == organizer
    listed = api("anonymous").get(url(open_tournament, "entries/")).json()
    assert {e["team"]: e["number"] for e in listed}["Kyma"] == 7


def test_patch_players_and_a_taken_number(api, open_tournament):
    sharks, eagles = by_name(open_tournament, "Sharks"), by_name(open_tournament, "Eagles")
    client = api("organizer")
    taken = client.patch(
        url(open_tournament, f"entries/{sharks.pk}/"), {"number": eagles.number}, format="json"
    )
    assert "number" in fields(problem(taken, 400))
    assert "Eagles" in taken.content.decode()
    done = client.patch(
        url(open_tournament, f"entries/{sharks.pk}/"), {"players": ["Aris", "Zeta"]}, format="json"
    )
    assert done.status_code == 200 and done.json()["players"] == ["Aris", "Zeta"]
    picked = client.patch(
        url(open_tournament, f"entries/{sharks.pk}/"),
        {"players": ["Aris", "Christos"], "player_ids": [None, eagles.team.player_a_id]},
        format="json",
    )
    assert picked.status_code == 400 and "already plays for Eagles" in picked.content.decode()
    bad = client.patch(url(open_tournament, f"entries/{sharks.pk}/"), {"number": 0}, format="json")
    assert "number" in fields(problem(bad, 400))


@pytest.mark.parametrize("role", NOT_ORGANIZERS)
def test_only_the_organizer_edits(api, open_tournament, role):
    sharks = by_name(open_tournament, "Sharks")
    response = api(role).patch(url(open_tournament, f"entries/{sharks.pk}/"), {"name": "X"}, format="json")
    assert response.status_code in (401, 403, 404)
    assert not Team.objects.filter(name="X").exists()


def test_the_number_is_fixed_after_the_start(api, public_tournament):
    lions = by_name(public_tournament, "Lions")
    response = api("organizer").patch(
        url(public_tournament, f"entries/{lions.pk}/"), {"number": 99}, format="json"
    )
    assert "number" in fields(problem(response, 400))
    renamed = api("organizer").patch(
        url(public_tournament, f"entries/{lions.pk}/"), {"name": "Leones"}, format="json"
    )
    assert renamed.status_code == 200 and renamed.json()["team"] == "Leones"


def test_reinstate(api, open_tournament):
    sharks = by_name(open_tournament, "Sharks")
    client = api("organizer")
    refused = client.post(url(open_tournament, f"entries/{sharks.pk}/reinstate/"), format="json")
    assert refused.status_code == 400 and "has not withdrawn" in refused.content.decode()
    client.post(url(open_tournament, f"entries/{sharks.pk}/status/"), {"status": "withdrawn"}, format="json")
    done = client.post(url(open_tournament, f"entries/{sharks.pk}/reinstate/"), format="json")
    assert done.status_code == 200 and done.json()["status"] == "registered"
    assert done.json()["withdrawn_at"] is None


def test_numbers_in_rounds_and_standings(api, public_tournament):
    numbers = dict(public_tournament.entries.values_list("pk", "number"))
    rnd = api("anonymous").get(url(public_tournament, "rounds/1/")).json()
    for table in rnd["tables"]:
        for side in table["teams"]:
            assert side["number"] == numbers[side["entry"]]
    standings = api("anonymous").get(url(public_tournament, "standings/")).json()
    assert standings["rows"] and all(r["number"] == numbers[r["entry"]] for r in standings["rows"])
    ranking = api("anonymous").get(url(public_tournament, "ranking/")).json()
    assert all(r["number"] == numbers[r["entry"]] for r in ranking["rows"])


def test_a_penalty_and_kept_apart_by_number(api, public_tournament):
    lions, owls = by_name(public_tournament, "Lions"), by_name(public_tournament, "Owls")
    client = api("organizer")
    response = client.post(
        url(public_tournament, "adjustments/"),
        {"kind": "penalty", "entry_number": lions.number, "points": 162, "reason": "Renounce"},
        format="json",
    )
    assert response.status_code == 201 and response.json()["entry"] == lions.pk
    assert Adjustment.objects.get(pk=response.json()["id"]).entry == lions
    unknown = client.post(
        url(public_tournament, "adjustments/"),
        {"kind": "penalty", "entry_number": 999, "points": 162, "reason": "Renounce"},
        format="json",
    )
    assert "entry_number" in fields(problem(unknown, 400))
    apart = client.post(
        url(public_tournament, "avoid/"),
        {"pairs": [], "number_pairs": [[lions.number, owls.number]]},
        format="json",
    )
    assert apart.status_code == 200 and apart.json()["avoid"] == [[lions.pk, owls.pk]]
    wrong = client.post(
        url(public_tournament, "avoid/"), {"pairs": [], "number_pairs": [[1, 999]]}, format="json"
    )
    assert "number_pairs" in fields(problem(wrong, 400))


def test_edit_is_in_the_sync_feed(api, open_tournament):
    sharks = by_name(open_tournament, "Sharks")
    before = open_tournament.updated_at
    api("organizer").patch(url(open_tournament, f"entries/{sharks.pk}/"), {"name": "Kyma"}, format="json")
    open_tournament.refresh_from_db()
    assert open_tournament.updated_at > before

"""Presets through the API: every preset for everyone, a copy with changes by a signed-in account, changed
or deleted by its owner only; a match and a tournament created from one."""

import pytest

from scoring import presets
from scoring.models import Match, RulePreset
from tests.api.conftest import client_for
from tests.problems import fields, problem
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

URL = "/api/v1/presets/"
CANNES = "Cannes 2001 points or 40 minutes"
TEAMS = [
    {"name": "Kafeneio A", "players": ["Nikos", "Eleni"]},
    {"name": "Kafeneio B", "players": ["Giorgos", "Maria"]},
]
COPY = {"based_on": "FFB 2016", "name": "Kafeneio coinche 162", "options": {"base": 162}, "about": "Fridays"}


def test_everyone_reads_every_preset_built_in_first(anon, organizer):
    presets.preset_create(owner=organizer, base="pilotta", name="Limassol 251", changes={"target": 251})
    body = anon.get(URL, {"limit": 100}).json()
    names = [p["name"] for p in body["results"]]
    assert names[: len(presets.BUILT_IN)] == [p.name for p in presets.BUILT_IN]
    assert names[-1] == "Limassol 251" and body["count"] == len(presets.BUILT_IN) + 1
    mine = body["results"][-1]
    assert (mine["owner"], mine["built_in"], mine["based_on"], mine["options"]["target"]) == (
        "kafeneio", False, "", 251
    )  # fmt: skip
    only = anon.get(URL, {"ruleset": "coinche"}).json()["results"]
    assert {p["ruleset"] for p in only} == {"coinche"} and len(only) == 3


def test_a_preset_by_its_slug_with_every_option(anon):
    body = anon.get(f"{URL}cannes-2001-points-or-40-minutes/").json()
    assert (body["name"], body["ruleset"], body["time_limit"], body["built_in"], body["owner"]) == (
        CANNES, "coinche", 40, True, None
    )  # fmt: skip
    assert body["options"]["target"] == 2001 and len(body["options"]) == 30 and body["about"]
    assert anon.get(f"{URL}no-such-preset/").status_code == 404


def test_a_signed_in_account_copies_a_preset_with_changes(api):
    response = api("organizer").post(URL, COPY, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["slug"], body["based_on"], body["owner"], body["options"]["base"]) == (
        "kafeneio-coinche-162", "FFB 2016", "kafeneio", 162
    )  # fmt: skip
    timed = api("organizer").post(
        URL, {"based_on": body["slug"], "name": "Timed 162", "time_limit": 45}, format="json"
    )
    assert timed.json()["time_limit"] == 45 and timed.json()["based_on"] == "Kafeneio coinche 162"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**COPY, "options": {"base": 161}}, "options.base"),
        ({**COPY, "options": {"no_such_option": True}}, "options.no_such_option"),
        ({**COPY, "name": "ffb 2016"}, "name"),
        ({**COPY, "based_on": "no such rules"}, "based_on"),
    ],
)
def test_a_bad_copy_is_a_400_naming_the_field_and_saves_nothing(api, body, field):
    response = api("organizer").post(URL, body, format="json")
    body = problem(response, 400)
    assert body["field"] == field
    assert field.removeprefix("options.") in body["detail"] or field == "name"
    assert not RulePreset.objects.exists()


def test_a_copy_needs_what_it_copies_and_a_name(api):
    response = api("organizer").post(URL, {"options": {"base": 162}}, format="json")
    assert fields(problem(response, 400)) >= {"based_on", "name"}


@pytest.mark.parametrize("role", ["anonymous", "club_reader"])
def test_who_may_not_write_makes_no_preset(api, role):
    assert api(role).post(URL, COPY, format="json").status_code in (401, 403)
    assert not RulePreset.objects.exists()


def test_only_the_owner_changes_or_deletes_it(api, rival):
    slug = api("organizer").post(URL, COPY, format="json").json()["slug"]
    for client in (client_for(rival), api("anonymous")):
        changed = client.patch(f"{URL}{slug}/", {"options": {"sa_ta": True}}, format="json")
        assert changed.status_code in (401, 403)
        assert client.delete(f"{URL}{slug}/").status_code in (401, 403)
    assert api("organizer").patch(f"{URL}ffb-2016/", {"about": "mine"}, format="json").status_code == 403
    owner = api("organizer")
    changed = owner.patch(f"{URL}{slug}/", {"options": {"sa_ta": True}, "time_limit": 30}, format="json")
    assert changed.status_code == 200
    assert (changed.json()["options"]["sa_ta"], changed.json()["options"]["base"]) == (True, 162)
    assert changed.json()["time_limit"] == 30
    renamed = owner.patch(f"{URL}{slug}/", {"name": "Another name"}, format="json")
    assert problem(renamed, 400)["field"] == "name"
    assert owner.delete(f"{URL}{slug}/").status_code == 204
    assert owner.get(f"{URL}{slug}/").status_code == 404


def test_a_match_from_a_preset_through_the_api(api):
    response = api("organizer").post("/api/v1/matches/", {"preset": CANNES, "teams": TEAMS}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["ruleset"], body["preset"], body["options"]["target"]) == ("coinche", CANNES, 2001)
    match_file = api("organizer").get(f"/api/v1/matches/{body['id']}/file/").json()
    assert match_file["preset"] == CANNES and match_file["options"] == body["options"]
    again = api("organizer").post("/api/v1/matches/import/", match_file, format="json")
    assert again.status_code == 201 and again.json()["preset"] == CANNES
    refused = api("organizer").post(
        "/api/v1/matches/", {"preset": CANNES, "ruleset": "pilotta", "teams": TEAMS}, format="json"
    )
    assert problem(refused, 400)["field"] == "preset"
    assert Match.objects.count() == 2


def test_a_tournament_from_a_preset_through_the_api(api, organizer):
    body = {"name": "Contrée du vendredi", "preset": CANNES, "format": "concours", "swiss_rounds": 5}
    response = api("organizer").post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert (created["ruleset"], created["preset"], created["time_limit"]) == ("coinche", CANNES, 40)
    assert created["options"]["target"] == 2001 and created["options"]["timed_last_deal_exact"] is True
    slug = created["slug"]
    client = api("organizer")
    for i in range(2):
        client.post(f"/api/v1/tournaments/{slug}/entries/", {"name": f"T{i}", "players": [f"A{i}", f"B{i}"]},
                    format="json")  # fmt: skip
    assert client.post(f"/api/v1/tournaments/{slug}/start/").status_code == 200
    assert client.post(f"/api/v1/tournaments/{slug}/rounds/").status_code == 201
    assert client.post(f"/api/v1/tournaments/{slug}/rounds/1/start/").status_code == 200
    match = Match.objects.get(table__round__tournament__slug=slug)
    assert (match.preset, match.options) == (CANNES, Tournament.objects.get(slug=slug).options)
    unknown = client.post("/api/v1/tournaments/", {**body, "preset": "No such rules"}, format="json")
    assert "No such rules" in problem(unknown, 400)["detail"]

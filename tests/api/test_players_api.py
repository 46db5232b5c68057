"""/api/v1/players/ and /api/v1/teams/: read only, for everyone."""

import pytest
from rest_framework.fields import DateTimeField

from players.models import Player, Team

from .conftest import ROLES

pytestmark = pytest.mark.django_db

PLAYERS = "/api/v1/players/"
TEAMS = "/api/v1/teams/"


def names(response):
    assert response.status_code == 200, response.content
    return [row["name"] for row in response.json()["results"]]


def stamp(obj):
    """An object's ``updated_at`` as the API writes it."""
    return DateTimeField().to_representation(obj.updated_at)


def test_players_list_in_id_order_and_pages(anon, standalone):
    body = anon.get(PLAYERS).json()
    assert body["count"] == 4
    assert body["results"] == [
        {"id": p.pk, "name": p.name, "updated_at": stamp(p)} for p in Player.objects.order_by("id")
    ]
    assert names(anon.get(PLAYERS)) == ["Nikos", "Eleni", "Giorgos", "Maria"]
    first = anon.get(PLAYERS, {"limit": 3}).json()
    assert len(first["results"]) == 3 and first["next"]
    assert names(anon.get(first["next"])) == ["Maria"]


def test_players_filter_by_name(anon, standalone, public_tournament):
    assert names(anon.get(PLAYERS, {"name": "Eleni"})) == ["Eleni"]
    assert names(anon.get(PLAYERS, {"name": "eleni"})) == []  # exact is exact
    assert names(anon.get(PLAYERS, {"name__icontains": "EL"})) == ["Eleni"]
    assert names(anon.get(PLAYERS, {"name__icontains": "os"})) == ["Nikos", "Giorgos", "Petros", "Stavros"]
    assert names(anon.get(PLAYERS, {"name": "Nobody"})) == []


def test_player_detail(anon, standalone):
    nikos = Player.objects.get(name="Nikos")
    assert anon.get(f"{PLAYERS}{nikos.pk}/").json() == {
        "id": nikos.pk,
        "name": "Nikos",
        "updated_at": stamp(nikos),
    }
    assert anon.get(f"{PLAYERS}999999/").status_code == 404
    assert anon.get(f"{PLAYERS}nikos/").status_code == 404


def test_player_history_lists_their_matches_newest_first(anon, standalone, public_tournament):
    alexis = Player.objects.get(name="Alexis")
    body = anon.get(f"{PLAYERS}{alexis.pk}/history/").json()
    assert body["count"] == 2
    matches = body["results"]
    assert [m["tournament"] for m in matches] == ["spring-cup", "spring-cup"]
    assert matches[0]["id"] > matches[1]["id"]
    assert [m["status"] for m in matches] == ["in_progress", "finished"]
    assert matches[1]["teams"][0] == {"name": "Lions", "players": ["Alexis", "Vaso"]}
    assert matches[1]["winner"] == 0 and matches[1]["totals"] == [100, 62]
    nikos = Player.objects.get(name="Nikos")
    assert [m["id"] for m in anon.get(f"{PLAYERS}{nikos.pk}/history/").json()["results"]] == [standalone.pk]
    paged = anon.get(f"{PLAYERS}{alexis.pk}/history/", {"limit": 1}).json()
    assert len(paged["results"]) == 1 and paged["count"] == 2 and paged["next"]


def test_player_history_leaves_private_tournaments_out(api, private_tournament):
    kostas = Player.objects.get(name="Kostas")
    for role in ("anonymous", "player", "club_reader"):  # known only from it: nobody to them
        assert api(role).get(f"{PLAYERS}{kostas.pk}/history/").status_code == 404


def test_a_player_without_matches_has_an_empty_history(anon, open_tournament):
    aris = Player.objects.get(name="Aris")
    assert anon.get(f"{PLAYERS}{aris.pk}/history/").json() == {
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }
    assert anon.get(f"{PLAYERS}999999/history/").status_code == 404


def test_teams_list_and_filter(anon, standalone, public_tournament):
    body = anon.get(TEAMS).json()
    assert body["count"] == 6
    kafeneio = Team.objects.get(name="Kafeneio A")
    assert body["results"][0] == {
        "id": kafeneio.pk,
        "name": "Kafeneio A",
        "players": ["Nikos", "Eleni"],
        "updated_at": stamp(kafeneio),
    }
    assert [t["id"] for t in body["results"]] == sorted(t["id"] for t in body["results"])
    assert names(anon.get(TEAMS, {"name": "Owls"})) == ["Owls"]
    assert names(anon.get(TEAMS, {"name__icontains": "kafeneio"})) == ["Kafeneio A", "Kafeneio B"]
    assert names(anon.get(TEAMS, {"name": "owls"})) == []
    assert names(anon.get(TEAMS, {"limit": 2, "offset": 4})) == ["Foxes", "Bears"]


def test_team_detail(anon, standalone):
    team = Team.objects.get(name="Kafeneio B")
    assert anon.get(f"{TEAMS}{team.pk}/").json() == {
        "id": team.pk,
        "name": "Kafeneio B",
        "players": ["Giorgos", "Maria"],
        "updated_at": stamp(team),
    }
    assert anon.get(f"{TEAMS}999999/").status_code == 404


@pytest.mark.parametrize("role", ROLES)
def test_players_and_teams_are_read_only_for_everyone(api, standalone, role):
    client = api(role)
    nikos = Player.objects.get(name="Nikos")
    team = Team.objects.get(name="Kafeneio A")
    assert client.get(PLAYERS).status_code == 200 and client.get(TEAMS).status_code == 200
    refused = [
        client.post(PLAYERS, {"name": "Intruder"}, format="json"),
        client.patch(f"{PLAYERS}{nikos.pk}/", {"name": "Nick"}, format="json"),
        client.delete(f"{PLAYERS}{nikos.pk}/"),
        client.post(TEAMS, {"name": "Intruders"}, format="json"),
        client.put(f"{TEAMS}{team.pk}/", {"name": "Renamed"}, format="json"),
        client.delete(f"{TEAMS}{team.pk}/"),
    ]
    expected = (401, 403, 405) if role == "anonymous" else (405,)
    assert all(r.status_code in expected for r in refused), [r.status_code for r in refused]
    assert Player.objects.count() == 4 and Player.objects.get(pk=nikos.pk).name == "Nikos"
    assert Team.objects.get(pk=team.pk).name == "Kafeneio A"

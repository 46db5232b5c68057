"""The API keeps private tournaments' people private, and picks people only by id.

/api/v1/players/ and /api/v1/teams/ list no one known only from a private tournament, but to its
organizer; a match (or an entry) created with names alone has new players; ``player_ids`` and a
team's ``id`` pick existing ones, among those the caller may see.
"""

import pytest

from players.models import Player, Team
from scoring.models import Match
from tests.problems import attrs, problem

from .conftest import NOT_ORGANIZERS

pytestmark = pytest.mark.django_db

PLAYERS = "/api/v1/players/"
TEAMS = "/api/v1/teams/"
MATCHES = "/api/v1/matches/"
PRIVATE_PEOPLE = {"Kostas", "Lena", "Manos", "Nefeli"}


def everyone(response):
    assert response.status_code == 200, response.content
    return {row["name"] for row in response.json()["results"]}


@pytest.mark.parametrize("role", NOT_ORGANIZERS)
def test_players_and_teams_of_a_private_tournament_are_listed_to_nobody_else(
    api, standalone, private_tournament, role
):
    client = api(role)
    players = everyone(client.get(PLAYERS, {"limit": 100}))
    assert players == {"Nikos", "Eleni", "Giorgos", "Maria"}
    assert everyone(client.get(TEAMS, {"limit": 100})) == {"Kafeneio A", "Kafeneio B"}
    assert everyone(client.get(PLAYERS, {"name__icontains": "le"})) == {"Eleni"}
    kostas = Player.objects.get(name="Kostas")
    ghosts = Team.objects.get(name="Ghosts")
    assert client.get(f"{PLAYERS}{kostas.pk}/").status_code == 404
    assert client.get(f"{PLAYERS}{kostas.pk}/history/").status_code == 404
    assert client.get(f"{TEAMS}{ghosts.pk}/").status_code == 404


def test_the_organizer_sees_their_private_tournaments_people(api, standalone, private_tournament):
    client = api("organizer")
    assert everyone(client.get(PLAYERS, {"limit": 100})) >= PRIVATE_PEOPLE
    assert {"Ghosts", "Shadows"} <= everyone(client.get(TEAMS, {"limit": 100}))
    kostas = Player.objects.get(name="Kostas")
    assert client.get(f"{PLAYERS}{kostas.pk}/history/").json()["count"] == 1


def test_another_organizer_does_not_see_them(api, users, rival, private_tournament):
    from .conftest import client_for

    assert not PRIVATE_PEOPLE & everyone(client_for(rival).get(PLAYERS, {"limit": 100}))


def test_a_private_player_who_also_plays_in_the_open_is_listed(api, users, private_tournament, scorekeeper):
    kostas = Player.objects.get(name="Kostas")
    body = {"teams": [{"name": "Open", "players": ["Kostas", "Eleni"], "player_ids": [kostas.pk, None]},
                      {"name": "Other", "players": ["Giorgos", "Maria"]}]}  # fmt: skip
    assert api("organizer").post(MATCHES, body, format="json").status_code == 201
    listed = everyone(api("anonymous").get(PLAYERS, {"limit": 100}))
    assert "Kostas" in listed and "Lena" not in listed
    history = api("anonymous").get(f"{PLAYERS}{kostas.pk}/history/").json()
    assert [m["teams"][0]["name"] for m in history["results"]] == ["Open"]  # not his private match


# Creating a match ----------------------------------------------------------------------------


def body(team0=None, team1=None):
    return {
        "teams": [
            team0 or {"name": "Kafeneio A", "players": ["Nikos", "Eleni"]},
            team1 or {"name": "Kafeneio B", "players": ["Giorgos", "Maria"]},
        ]
    }


def test_names_alone_make_new_players(api, standalone):
    response = api("scorekeeper").post(MATCHES, body(), format="json")
    assert response.status_code == 201
    match = Match.objects.get(pk=response.json()["id"])
    assert match.seat0 != standalone.seat0
    assert Player.objects.filter(name="Nikos").count() == 2


def test_player_ids_pick_existing_players(api, standalone):
    nikos, maria = standalone.seat0, standalone.seat3
    team0 = {"name": "Kafeneio A", "players": ["Nikos", "Eleni"], "player_ids": [nikos.pk, None]}
    team1 = {"name": "Kafeneio B", "players": ["Giorgos", "Maria"], "player_ids": [None, maria.pk]}
    response = api("scorekeeper").post(MATCHES, body(team0, team1), format="json")
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["id"])
    assert (match.seat0, match.seat3) == (nikos, maria)
    assert match.seat2 != standalone.seat2
    assert response.json()["teams"][0] == {"name": "Kafeneio A", "players": ["Nikos", "Eleni"]}


def test_a_team_id_picks_an_existing_team(api, standalone):
    team = standalone.team1
    response = api("club_writer").post(
        MATCHES, body({"name": "Kafeneio B", "players": ["Giorgos", "Maria"], "id": team.pk}), format="json"
    )
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["id"])
    assert (match.team0, match.seat0, match.seat2) == (team, team.player_a, team.player_b)


@pytest.mark.parametrize(
    ("team0", "field"),
    [
        (
            {"name": "A", "players": ["Kostas", "Eleni"], "player_ids": ["kostas", None]},
            "teams[0].player_ids[0]",
        ),
        (
            {"name": "A", "players": ["Nobody", "Eleni"], "player_ids": [999999, None]},
            "teams[0].player_ids[0]",
        ),
        (
            {"name": "A", "players": ["Someone", "Eleni"], "player_ids": ["nikos", None]},
            "teams[0].players[0]",
        ),
        ({"name": "Ghosts", "players": ["Kostas", "Lena"], "id": "ghosts"}, "teams[0].id"),
    ],
)
def test_a_pick_the_caller_may_not_see_is_refused_like_an_unknown_one(
    api, standalone, private_tournament, team0, field
):
    kostas, ghosts = Player.objects.get(name="Kostas"), Team.objects.get(name="Ghosts")
    ids = {"kostas": kostas.pk, "ghosts": ghosts.pk, "nikos": standalone.seat0.pk}
    if team0.get("player_ids"):
        team0["player_ids"] = [ids.get(v, v) for v in team0["player_ids"]]
    if "id" in team0:
        team0["id"] = ids[team0["id"]]
    count = Match.objects.count(), Player.objects.count()
    response = api("scorekeeper").post(MATCHES, body(team0), format="json")
    assert problem(response, 400)["field"] == field
    assert (Match.objects.count(), Player.objects.count()) == count
    if field.endswith("player_ids[0]") and team0["players"][0] == "Kostas":
        # The private tournament's organizer may pick him.
        assert api("organizer").post(MATCHES, body(team0), format="json").status_code == 201


def test_a_picked_players_name_must_be_the_one_given(api, standalone):
    team0 = {"name": "A", "players": ["Nikolas", "Eleni"], "player_ids": [standalone.seat0.pk, None]}
    response = api("scorekeeper").post(MATCHES, body(team0), format="json")
    assert response.status_code == 400
    refused = response.json()
    assert refused["field"] == "teams[0].players[0]"
    assert refused["detail"].endswith(f"player {standalone.seat0.pk} is Nikos")


def test_player_ids_have_the_shape_of_players(api, standalone):
    team0 = {"name": "A", "players": ["Nikos", "Eleni"], "player_ids": [standalone.seat0.pk]}
    response = api("scorekeeper").post(MATCHES, body(team0), format="json")
    assert attrs(problem(response, 400)) == {"teams.0.player_ids"}


def test_the_file_of_a_match_carries_no_ids(api, standalone):
    data = api("anonymous").get(f"{MATCHES}{standalone.pk}/file/").json()
    assert [sorted(team) for team in data["teams"]] == [["name", "players"], ["name", "players"]]


def test_an_import_picks_by_id_too(api, standalone, private_tournament):
    data = api("anonymous").get(f"{MATCHES}{standalone.pk}/file/").json()
    data["teams"][0]["player_ids"] = [standalone.seat0.pk, None]
    response = api("scorekeeper").post(f"{MATCHES}import/", data, format="json")
    assert response.status_code == 201, response.content
    assert Match.objects.get(pk=response.json()["id"]).seat0 == standalone.seat0
    data["teams"][0]["player_ids"] = [Player.objects.get(name="Kostas").pk, None]
    data["teams"][0]["players"][0] = "Kostas"
    response = api("scorekeeper").post(f"{MATCHES}import/", data, format="json")
    assert problem(response, 400)["field"] == "teams[0].player_ids[0]"


# Entering a tournament ----------------------------------------------------------------------------


def test_the_organizer_enters_existing_players_by_id(api, standalone, open_tournament):
    url = f"/api/v1/tournaments/{open_tournament.slug}/entries/"
    nikos = standalone.seat0
    entry = {"name": "Nikos & co", "players": ["Nikos", "Zoe"], "player_ids": [nikos.pk, None]}
    response = api("organizer").post(url, entry, format="json")
    assert response.status_code == 201, response.content
    team = open_tournament.entries.get(pk=response.json()["id"]).team
    assert team.player_a == nikos and team.player_b.name == "Zoe"
    by_name = api("organizer").post(url, {"name": "Namesake", "players": ["Nikos", "Yota"]}, format="json")
    assert by_name.status_code == 201
    assert open_tournament.entries.get(pk=by_name.json()["id"]).team.player_a != nikos


def test_an_entry_cannot_pick_an_unseen_player(api, open_tournament, rival_tournament):
    url = f"/api/v1/tournaments/{open_tournament.slug}/entries/"
    hidden = Player.objects.get(name="R1")
    response = api("organizer").post(
        url, {"name": "X", "players": ["R1", "Y"], "player_ids": [hidden.pk, None]}, format="json"
    )
    body = problem(response, 400)
    words = f"There is no player {hidden.pk}."
    assert (body["detail"], body["errors"]) == (words, [{"attr": None, "code": "refused", "detail": words}])

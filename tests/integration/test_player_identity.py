"""A typed name no longer silently becomes an existing person.

Picking an existing player (or team) is an explicit choice, by id, among those the person may see;
a name typed makes a new player, even if someone of that name exists. Two players may share a name,
and the pickers tell them apart by their last team and match.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from players.models import Player, Team
from scoring import engine, selectors, services
from scoring.models import Match
from tests.factories import TEAMS
from tournaments import services as tournaments
from tournaments.models import Entry

pytestmark = pytest.mark.django_db
NEW = reverse("scoring:match_new")


def form(**fields):
    data = {"team0_name": "A", "team0_player_a": "Nikos", "team0_player_b": "Eleni", "team1_name": "B",
            "team1_player_a": "Giorgos", "team1_player_b": "Maria", "first_dealer": "0"}  # fmt: skip
    data.update({k: str(v) for k, v in fields.items()})
    return data


def test_two_players_may_share_a_name(db):
    Player.objects.create(name="Nikos")
    Player.objects.create(name="nikos")
    assert Player.objects.filter(name__iexact="nikos").count() == 2


# The services --------------------------------------------------------------------------------


def test_a_typed_name_makes_a_new_player_even_if_one_of_that_name_exists(match):
    nikos = match.seat0
    again = services.match_create(teams=TEAMS)
    assert again.seat0 != nikos and again.seat0.name == "Nikos"
    assert Player.objects.filter(name="Nikos").count() == 2
    assert again.team0 != match.team0  # new people: a new team, though of the same name


def test_picked_players_sit_as_picked_and_keep_their_team(match):
    nikos, eleni = match.seat0, match.seat2
    again = services.match_create(teams=[("Kafeneio A", (nikos, eleni)), ("C", ("Kostas", "Sofia"))])
    assert (again.seat0, again.seat2, again.team0) == (nikos, eleni, match.team0)
    assert Player.objects.filter(name="Nikos").count() == 1


@pytest.mark.parametrize(
    "teams",
    [
        [("A", ("Nikos", "Eleni")), ("B", ("nikos ", "Maria"))],  # one new name typed twice
        "the same player picked twice",
    ],
)
def test_a_player_sits_only_once(match, teams):
    if isinstance(teams, str):
        teams = [("A", (match.seat0, "Eleni")), ("B", (match.seat0, "Maria"))]
    count = Player.objects.count()
    with pytest.raises(engine.ScoringError, match="a player sits only once"):
        services.match_create(teams=teams)
    assert Player.objects.count() == count


def test_a_namesake_picked_at_the_same_table_is_another_person(match):
    again = services.match_create(teams=[("A", (match.seat0, "Nikos")), ("B", ("Giorgos", "Maria"))])
    assert again.seat0 == match.seat0 and again.seat2 != match.seat0 and again.seat2.name == "Nikos"


# The new-match page ----------------------------------------------------------------------------


def test_the_form_makes_new_players_of_typed_names(client, match):
    assert client.post(NEW, form()).status_code == 302
    started = Match.objects.latest("pk")
    assert started.seat0 != match.seat0
    assert Player.objects.filter(name="Nikos").count() == 2


def test_the_form_sits_a_picked_player(client, match):
    response = client.post(NEW, form(team0_player_a_id=match.seat0.pk, team1_player_b_id=match.seat3.pk))
    assert response.status_code == 302
    started = Match.objects.latest("pk")
    assert started.seat0 == match.seat0 and started.seat3 == match.seat3
    assert started.seat2 != match.seat2  # Eleni was typed, not picked: a new Eleni


def test_a_picked_player_whose_name_was_changed_is_the_name_typed(client, match):
    assert (
        client.post(NEW, form(team0_player_a="Nikolas", team0_player_a_id=match.seat0.pk)).status_code == 302
    )
    started = Match.objects.latest("pk")
    assert started.seat0 != match.seat0 and started.seat0.name == "Nikolas"


def test_the_form_sits_a_picked_teams_players(client, match):
    response = client.post(NEW, form(team0_pick=match.team1.pk, team0_name="", team0_player_a=""))
    assert response.status_code == 302
    started = Match.objects.latest("pk")
    assert (started.team0, started.seat0, started.seat2) == (match.team1, match.seat1, match.seat3)


def test_an_unknown_pick_is_refused_and_nothing_is_saved(client, match):
    response = client.post(NEW, form(team0_player_a_id=999999, team1_pick=999999))
    assert response.status_code == 422
    assert "That player cannot be picked here" in response.text
    assert "That team cannot be picked here" in response.text
    assert Match.objects.count() == 1 and Player.objects.count() == 4


def test_the_page_offers_this_tablets_recent_teams_and_not_others(client, match, db):
    assert client.post(NEW, form(team0_name="Ours", team1_name="Theirs")).status_code == 302
    page = client.get(NEW).text
    # One tap each: a card with the team's name and its two players.
    assert "<b>Ours</b><small>Nikos &amp; Eleni</small>" in page
    assert "<b>Theirs</b><small>Giorgos &amp; Maria</small>" in page
    assert "Kafeneio A" not in page  # another tablet's (the fixture's) teams are not offered
    other = client.__class__()
    assert "Ours" not in other.get(NEW).text


def test_the_page_keeps_a_pick_on_an_error(client, match):
    response = client.post(NEW, form(team0_player_a_id=match.seat0.pk, team1_pick=match.team1.pk, target=0))
    assert response.status_code == 422
    assert f'name="team0_player_a_id" value="{match.seat0.pk}"' in response.text
    card = re.search(rf'<input type="radio" name="team1_pick" value="{match.team1.pk}"[^>]*>', response.text)
    assert card and " checked" in card.group(0) and 'data-name="Kafeneio B"' in card.group(0)


# The pickers' search ----------------------------------------------------------------------------


def search(client, q, kind="player"):
    response = client.get(reverse("scoring:match_new_search"), {"q": q, "kind": kind})
    assert response.status_code == 200
    return response.text


def test_the_search_tells_namesakes_apart_and_puts_the_latest_first(client, user):
    old = services.match_create(teams=[("Old", ("Nikos", "Eleni")), ("X", ("Giorgos", "Maria"))])
    new = services.match_create(teams=[("New", ("Nikos", "Anna")), ("Y", ("Petros", "Rena"))])
    Match.objects.filter(pk=old.pk).update(created_at=new.created_at.replace(year=2020))
    found = search(client, "nik")
    assert found.count("data-pick-player") == 2
    assert found.index(f'data-pick-player="{new.seat0.pk}"') < found.index(
        f'data-pick-player="{old.seat0.pk}"'
    )
    assert "New, last played" in found and "Old, last played" in found and "2020" in found


def test_the_search_needs_two_letters_and_shows_ten_at_most(client):
    for i in range(6):
        services.match_create(
            teams=[(f"T{i}", (f"Nik {i}a", f"Nik {i}b")), (f"U{i}", (f"Nik {i}c", f"Nik {i}d"))]
        )
    assert search(client, "nik").count("data-pick-player") == 10
    assert search(client, "n").count("data-pick-player") == 0  # too short: this tablet's recent (none)


def test_an_empty_search_offers_this_tablets_recent_people(client, match):
    client.post(NEW, form(team0_name="Ours", team1_name="Theirs"))
    recent = search(client, "")
    assert recent.count("data-pick-player") == 4 and "Ours, last played" in recent
    assert search(client, "", kind="team").count("data-pick-team") == 2
    assert "data-pick" not in client.__class__().get(reverse("scoring:match_new_search"), {"q": ""}).text


def test_the_team_search_finds_by_team_or_player_name(client, match):
    assert search(client, "kafeneio", kind="team").count("data-pick-team") == 2
    found = search(client, "Eleni", kind="team")
    assert found.count("data-pick-team") == 1 and f'data-player-a-id="{match.seat0.pk}"' in found


# Match files ------------------------------------------------------------------------------------


def test_an_exported_match_file_names_people_and_reimports_as_new_players(match, user):
    data = selectors.match_file(match=match)
    assert all(set(team) == {"name", "players"} for team in data["teams"])  # no ids in the file
    copy = services.match_import(data=data, created_by=user)
    assert copy.seat0 != match.seat0 and copy.seat0.name == "Nikos"


def test_an_import_picks_players_by_id_beside_their_names(match, user):
    data = selectors.match_file(match=match)
    data["teams"][0]["player_ids"] = [match.seat0.pk, None]
    data["teams"][1]["id"] = match.team1.pk
    copy = services.match_import(data=data, created_by=user)
    assert (copy.seat0, copy.team1) == (match.seat0, match.team1)
    assert copy.seat2 != match.seat2


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d, m: d["teams"][0].update(player_ids=[999999, None]), "teams[0].player_ids[0]"),
        (lambda d, m: d["teams"][0].update(player_ids=[m.seat2.pk, None]), "teams[0].players[0]"),
        (lambda d, m: d["teams"][0].update(player_ids=["1", None]), "teams[0].player_ids[0]"),
        (lambda d, m: d["teams"][0].update(player_ids=[1]), "teams[0].player_ids"),
        (lambda d, m: d["teams"][1].update(id=999999), "teams[1].id"),
        (lambda d, m: d["teams"][1].update(id=m.team1.pk, player_ids=[m.seat1.pk]), "teams[1].player_ids"),
        (
            lambda d, m: d["teams"][1].update(id=m.team1.pk, player_ids=[m.seat3.pk, None]),
            "teams[1].player_ids",
        ),
        (lambda d, m: d["teams"][1].update(id=m.team0.pk), "teams[1].name"),
    ],
)
def test_a_bad_pick_in_a_file_is_refused_and_saves_nothing(match, user, change, field):
    data = selectors.match_file(match=match)
    change(data, match)
    with pytest.raises(engine.ScoringError) as refused:
        services.match_import(data=data, created_by=user)
    assert refused.value.field == field
    assert Match.objects.count() == 1 and Player.objects.count() == 4


# Tournaments -------------------------------------------------------------------------------------


@pytest.fixture
def cup(user):
    return tournaments.tournament_create(organizer=user, name="Cup", signup_open=True)


def test_a_sign_up_never_attaches_to_existing_people(cup, match):
    entry = tournaments.entry_signup(tournament=cup, name="Kafeneio A", players=["Nikos", "Eleni"])
    assert entry.status == Entry.Status.PENDING
    assert entry.team != match.team0 and entry.team.player_a != match.seat0
    assert Player.objects.filter(name="Nikos").count() == 2


def test_the_organizer_picks_existing_players_by_id(cup, match, user):
    entry = tournaments.entry_register(
        tournament=cup,
        name="Kafeneio A",
        players=["Nikos", "Eleni"],
        player_ids=[match.seat0.pk, match.seat2.pk],
        user=user,
    )
    assert entry.team == match.team0
    with pytest.raises(tournaments.TournamentError, match="already entered"):
        tournaments.entry_register(
            tournament=cup,
            name="Kafeneio A",
            players=["Nikos", "Eleni"],
            player_ids=[match.seat0.pk, match.seat2.pk],
            user=user,
        )
    with pytest.raises(tournaments.TournamentError, match="already plays for Kafeneio A"):
        tournaments.entry_register(
            tournament=cup, name="New", players=["Nikos", "Zoe"], player_ids=[match.seat0.pk, None], user=user
        )


def test_the_organizer_cannot_pick_another_organizers_private_player(cup, user, django_user_model):
    rival = django_user_model.objects.create_user("rival", password="pw-rival-1234")
    secret = tournaments.tournament_create(organizer=rival, name="Secret", public=False)
    hidden = tournaments.entry_register(
        tournament=secret, name="Ghosts", players=["Kostas", "Lena"]
    ).team.player_a
    with pytest.raises(tournaments.TournamentError, match=f"There is no player {hidden.pk}"):
        tournaments.entry_register(
            tournament=cup, name="Mine", players=["Kostas", "Sofia"], player_ids=[hidden.pk, None], user=user
        )
    assert Team.objects.filter(name="Mine").count() == 0


def test_a_team_of_one_new_name_twice_is_refused(cup):
    with pytest.raises(tournaments.TournamentError, match="two different players"):
        tournaments.entry_signup(tournament=cup, name="Twins", players=["Ann", "ann"])

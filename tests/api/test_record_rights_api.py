"""A person's record belongs to that person, through the API (issue 24): entering a player in one's
own tournament or adding them to one's own club gives no say over the record (merge, split); a
claimed record's membership is an invitation its account answers; a record known only from private
events shows neither its name nor its id through a merge (``…/merges/``, ``/api/v1/changes/``); an
empty ``updated_since=`` is a 400.

Giorgos and Maria: public records of the ``standalone``-like casual match below; ``organizer``
(Kafeneio) runs the Secret Cup (private: Kostas, Lena, Manos, Nefeli).
"""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from players import identity_services as identity
from players.models import Club, Membership, Player, PlayerMerge
from scoring import services as scoring
from tests.factories import made
from tests.problems import fields, problem

from .conftest import client_for

pytestmark = pytest.mark.django_db
PLAYERS = "/api/v1/players/"
CLUBS = "/api/v1/clubs/"


def person(django_user_model, name, **extra):
    user = django_user_model.objects.create_user(name, password=f"pw-{name}-12345", **extra)
    user.token = Token.objects.create(user=user).key
    return user


@pytest.fixture
def public_pair(db):
    match = scoring.match_create(teams=[("A", ("Giorgos", "Maria")), ("B", ("Kostas P.", "Eleni"))])
    scoring.deal_record(match=match, deal=made(0))
    return Player.objects.get(name="Giorgos"), Player.objects.get(name="Maria")


@pytest.fixture
def mallory(django_user_model):
    return person(django_user_model, "mallory")


@pytest.fixture
def staff(django_user_model):
    return person(django_user_model, "staff", is_staff=True)


def merge_and_split_refused(client, giorgos, maria, staff):
    response = client.post(f"{PLAYERS}{giorgos.pk}/merge/", {"absorbed": maria.pk}, format="json")
    assert problem(response, 403)
    assert PlayerMerge.objects.count() == 0
    merge = identity.player_merge(survivor=giorgos, absorbed=maria, by=staff)
    response = client.post(f"{PLAYERS}{giorgos.pk}/split/", {"merge": merge.pk}, format="json")
    assert problem(response, 403)
    assert PlayerMerge.objects.get().undone_at is None


def test_entering_a_player_in_ones_own_private_tournament_gives_no_say(public_pair, mallory, staff):
    giorgos, maria = public_pair
    client = client_for(mallory)
    response = client.post("/api/v1/tournaments/", {"name": "Mine", "public": False}, format="json")
    assert response.status_code == 201, response.content
    slug = response.json()["slug"]
    for team, ids in (("G", [giorgos.pk, maria.pk]),):
        body = {"name": team, "players": ["Giorgos", "Maria"], "player_ids": ids}
        response = client.post(f"/api/v1/tournaments/{slug}/entries/", body, format="json")
        assert response.status_code == 201, response.content
    merge_and_split_refused(client, giorgos, maria, staff)


def test_adding_players_to_ones_own_club_gives_no_say(public_pair, mallory, staff):
    giorgos, maria = public_pair
    club = Club.objects.create(name="Mallory's")
    club.admins.add(mallory)
    client = client_for(mallory)
    for player in (giorgos, maria):
        response = client.post(f"{CLUBS}{club.slug}/members/", {"player_id": player.pk}, format="json")
        assert response.status_code == 201 and response.json()["status"] == "active"
    merge_and_split_refused(client, giorgos, maria, staff)


def test_the_club_merges_the_records_it_made(mallory):
    club = Club.objects.create(name="Mallory's")
    club.admins.add(mallory)
    client = client_for(mallory)
    ids = [
        client.post(f"{CLUBS}{club.slug}/members/", {"name": name}, format="json").json()["id"]
        for name in ("Nikos", "Nikos P.")
    ]
    response = client.post(f"{PLAYERS}{ids[0]}/merge/", {"absorbed": ids[1]}, format="json")
    assert response.status_code == 201, response.content
    response = client.post(f"{PLAYERS}{ids[0]}/split/", {"merge": response.json()["id"]}, format="json")
    assert response.status_code == 200, response.content


def test_a_claimed_player_is_invited_and_their_account_answers(public_pair, mallory, django_user_model):
    giorgos, _ = public_pair
    giorgos_account = person(django_user_model, "giorgos")
    Player.objects.filter(pk=giorgos.pk).update(user=giorgos_account)
    club = Club.objects.create(name="Kafeneio")
    club.admins.add(mallory)
    admin = client_for(mallory)
    response = admin.post(f"{CLUBS}{club.slug}/members/", {"player_id": giorgos.pk}, format="json")
    assert response.status_code == 201 and response.json()["status"] == "invited"
    assert admin.get(f"{CLUBS}{club.slug}/").json()["members"] == []  # not a member yet
    assert client_for(mallory).get(f"{CLUBS}invitations/").json() == []  # not hers to answer
    response = client_for(mallory).post(
        f"{CLUBS}{club.slug}/invitation/", {"answer": "accept"}, format="json"
    )
    assert problem(response, 404)
    own = client_for(giorgos_account)
    waiting = own.get(f"{CLUBS}invitations/").json()
    assert [(row["club"], row["player"]) for row in waiting] == [(club.slug, giorgos.pk)]
    response = own.post(f"{CLUBS}{club.slug}/invitation/", {"answer": "maybe"}, format="json")
    assert fields(problem(response, 400)) == {"answer"}
    response = own.post(f"{CLUBS}{club.slug}/invitation/", {"answer": "accept"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "active"
    assert [m["id"] for m in admin.get(f"{CLUBS}{club.slug}/").json()["members"]] == [giorgos.pk]
    assert Membership.objects.get(club=club).consented_by == giorgos_account
    assert own.get(f"{CLUBS}invitations/").json() == []


# A private record through a merge --------------------------------------------------------------


@pytest.fixture
def secret_merge(public_pair, private_tournament, staff):
    """Kostas (known only from the private Secret Cup, with Lena merged into him there) merged into
    the public Giorgos by the staff."""
    giorgos, _ = public_pair
    kostas, lena = Player.objects.get(name="Kostas"), Player.objects.get(name="Lena")
    identity.player_merge(survivor=kostas, absorbed=lena, by=staff)
    return giorgos, kostas, lena, identity.player_merge(survivor=giorgos, absorbed=kostas, by=staff)


def test_the_merges_of_a_public_person_hide_a_private_records_name_and_id(api, secret_merge):
    giorgos, kostas, lena, _ = secret_merge
    for role in ("anonymous", "scorekeeper"):
        text = api(role).get(f"{PLAYERS}{giorgos.pk}/merges/").content.decode()
        assert "Kostas" not in text and "Lena" not in text and f'"absorbed":{kostas.pk}' not in text
    seen = api("organizer").get(f"{PLAYERS}{giorgos.pk}/merges/").json()  # the Secret Cup's organizer
    assert [(row["absorbed_name"], sorted(row["records"])) for row in seen] == [
        ("Kostas", sorted([kostas.pk, lena.pk])),
        ("Lena", [lena.pk]),  # merged into Kostas first, carried along
    ]


def test_changes_never_give_a_private_records_id_to_whoever_cannot_see_it(api, secret_merge):
    giorgos, kostas, lena, _ = secret_merge
    since = "2000-01-01T00:00:00Z"
    for role in ("anonymous", "scorekeeper"):
        rows = api(role).get("/api/v1/changes/", {"since": since, "kind": "player"}).json()["results"]
        assert {row["id"] for row in rows}.isdisjoint({kostas.pk, lena.pk})
    rows = api("organizer").get("/api/v1/changes/", {"since": since, "kind": "player"}).json()["results"]
    assert {(row["id"], row["into"]) for row in rows} == {(kostas.pk, giorgos.pk), (lena.pk, giorgos.pk)}


def test_a_private_record_keeps_no_name_over_a_public_one(public_pair, private_tournament, django_user_model):
    giorgos, _ = public_pair
    kostas = Player.objects.get(name="Kostas")
    root = client_for(person(django_user_model, "root", is_superuser=True))
    response = root.post(f"{PLAYERS}{kostas.pk}/merge/", {"absorbed": giorgos.pk}, format="json")
    body = problem(response, 400)
    assert fields(body) == {"absorbed"} and "known only from private events" in body["detail"]
    assert PlayerMerge.objects.count() == 0


# An empty updated_since -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "param"),
    [
        ("/api/v1/matches/", "updated_since"),
        ("/api/v1/tournaments/", "updated_since"),
        ("/api/v1/players/", "updated_since"),
        ("/api/v1/teams/", "updated_since"),
        ("/api/v1/changes/", "since"),
    ],
)
def test_an_empty_moment_is_a_400_that_says_so(api, path, param):
    body = problem(api("anonymous").get(f"{path}?{param}="), 400)
    assert fields(body) == {param} and "is empty" in str(body)
    assert api("anonymous").get(path).status_code == 200  # left out: the whole list

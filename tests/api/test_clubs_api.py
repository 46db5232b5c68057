"""/api/v1/clubs/: clubs for everyone, their members as each account may see them, the events it may
list, the seasons; the club's admins add and remove members; a tournament belongs to a club its
organizer runs."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.models import Season
from players import club_services as clubs
from players.models import Club, Membership, Player
from tests.problems import fields, messages, problem
from tournaments import services
from tournaments.models import Tournament

from .conftest import client_for

pytestmark = pytest.mark.django_db

CLUBS = "/api/v1/clubs/"


@pytest.fixture
def staff(db, django_user_model):
    return django_user_model.objects.create_user("staff", password="pw-staff-12345", is_staff=True)


@pytest.fixture
def club(staff, organizer):
    """Kafeneio (Athens), run by the staff account and by the organizer of the conftest tournaments."""
    club = clubs.club_create(name="Kafeneio", by=staff, city="Athens", about="Thursdays.")
    clubs.admin_add(club=club, user=organizer)
    return club


@pytest.fixture
def admin_api(organizer):
    return client_for(organizer)


def members(client, club):
    response = client.get(f"{CLUBS}{club.slug}/")
    assert response.status_code == 200, response.content
    return [m["name"] for m in response.json()["members"]]


def test_clubs_are_listed_by_name_for_everyone(anon, club, staff):
    clubs.club_create(name="Asteri", by=staff)
    body = anon.get(CLUBS).json()
    assert body["count"] == 2
    assert body["results"] == [
        {"slug": "asteri", "name": "Asteri", "city": ""},
        {"slug": "kafeneio", "name": "Kafeneio", "city": "Athens"},
    ]


def test_a_club_with_its_members_events_and_seasons(
    anon, club, organizer, public_tournament, private_tournament
):
    Tournament.objects.filter(pk__in=[public_tournament.pk, private_tournament.pk]).update(club=club)
    nikos = Player.objects.create(name="Nikos K.")
    clubs.member_add(club=club, player=nikos, joined_on=datetime.date(2024, 9, 1))
    dates = {"starts_on": datetime.date(2025, 1, 1), "ends_on": datetime.date(2025, 12, 31)}
    Season.objects.create(name="2025", slug="kafeneio-2025", club=club, owner=organizer, **dates)
    Season.objects.create(name="Trial", slug="trial", club=club, owner=organizer, public=False, **dates)
    body = anon.get(f"{CLUBS}kafeneio/").json()
    assert {k: body[k] for k in ("slug", "name", "city", "about")} == {
        "slug": "kafeneio", "name": "Kafeneio", "city": "Athens", "about": "Thursdays."
    }  # fmt: skip
    assert body["members"] == [{"id": nikos.pk, "name": "Nikos K.", "joined_on": "2024-09-01"}]
    assert body["events"] == [
        {
            "slug": "spring-cup",
            "name": "Spring Cup",
            "status": "running",
            "starts_on": "2025-04-12",
            "public": True,
        }
    ]
    assert body["seasons"] == [
        {"slug": "kafeneio-2025", "name": "2025", "starts_on": "2025-01-01", "ends_on": "2025-12-31"}
    ]
    # The organizer (an admin) sees the private event and the private season too.
    mine = client_for(organizer).get(f"{CLUBS}kafeneio/").json()
    assert [e["slug"] for e in mine["events"]] == ["secret-cup", "spring-cup"]
    assert [s["slug"] for s in mine["seasons"]] == ["kafeneio-2025", "trial"]


def test_a_member_known_only_from_a_private_tournament_is_hidden(anon, club, organizer, private_tournament):
    kostas = Player.objects.get(name="Kostas")
    clubs.member_add(club=club, player=kostas)
    assert members(anon, club) == []
    assert members(client_for(organizer), club) == ["Kostas"]


def test_an_unknown_club_is_404(anon):
    assert anon.get(f"{CLUBS}nowhere/").status_code == 404


def test_a_unicode_slug_is_found(anon, staff):
    club = clubs.club_create(name="Λέσχη Βόλου", by=staff)
    assert anon.get(f"{CLUBS}{club.slug}/").json()["name"] == "Λέσχη Βόλου"


# Writes -----------------------------------------------------------------------------------------


def test_an_admin_adds_an_existing_player_and_a_new_one(admin_api, club):
    nikos = Player.objects.create(name="Nikos")
    response = admin_api.post(
        f"{CLUBS}kafeneio/members/", {"player_id": nikos.pk, "joined_on": "2024-09-01"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json() == {"id": nikos.pk, "name": "Nikos", "joined_on": "2024-09-01", "status": "active"}
    response = admin_api.post(f"{CLUBS}kafeneio/members/", {"name": "Nikos"}, format="json")
    assert response.status_code == 201
    new = response.json()
    assert new["id"] != nikos.pk and Player.objects.filter(name="Nikos").count() == 2
    assert members(admin_api, club) == ["Nikos", "Nikos"]


def test_a_merged_record_adds_its_root(admin_api, club):
    root = Player.objects.create(name="Nikos Papas")
    twin = Player.objects.create(name="Nikos P.", merged_into=root)
    response = admin_api.post(f"{CLUBS}kafeneio/members/", {"player_id": twin.pk}, format="json")
    assert response.status_code == 201 and response.json()["id"] == root.pk


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ({}, None),  # None: the request as a whole
        ({"player_id": 1, "name": "Both"}, None),
        ({"player_id": 999999}, "player_id"),
        ({"name": ""}, "name"),
        ({"name": "x" * 81}, "name"),
        ({"name": "Ok", "joined_on": "soon"}, "joined_on"),
    ],
)
def test_a_bad_member_is_400_and_nothing_changes(admin_api, club, body, key):
    response = admin_api.post(f"{CLUBS}kafeneio/members/", body, format="json")
    assert key in fields(problem(response, 400))
    assert not Membership.objects.exists()


def test_a_member_twice_is_400_with_the_reason(admin_api, club):
    nikos = Player.objects.create(name="Nikos")
    clubs.member_add(club=club, player=nikos)
    response = admin_api.post(f"{CLUBS}kafeneio/members/", {"player_id": nikos.pk}, format="json")
    body = problem(response, 400)
    words = "Nikos is already a member of Kafeneio."
    assert body["detail"] == words
    assert body["errors"] == [{"attr": "player", "code": "refused", "detail": words}]


def test_a_player_the_admin_may_not_see_is_no_such_player(club, rival, rival_tournament, admin_api):
    hidden = Player.objects.get(name="R1")
    response = admin_api.post(f"{CLUBS}kafeneio/members/", {"player_id": hidden.pk}, format="json")
    assert "player_id" in fields(problem(response, 400))


def test_an_admin_removes_a_member(admin_api, anon, club):
    nikos = Player.objects.create(name="Nikos")
    clubs.member_add(club=club, player=nikos)
    assert admin_api.delete(f"{CLUBS}kafeneio/members/{nikos.pk}/").status_code == 204
    assert members(anon, club) == []
    assert Membership.objects.get(player=nikos).left_on is not None  # the row stays, with the day
    assert admin_api.delete(f"{CLUBS}kafeneio/members/{nikos.pk}/").status_code == 404


@pytest.mark.parametrize("role", ["anonymous", "player", "scorekeeper", "club_reader", "club_writer"])
def test_only_the_club_admins_change_its_members(api, club, role):
    nikos = Player.objects.create(name="Nikos")
    clubs.member_add(club=club, player=nikos)
    client = api(role)
    assert client.post(f"{CLUBS}kafeneio/members/", {"name": "Intruder"}, format="json").status_code in (
        401,
        403,
    )
    assert client.delete(f"{CLUBS}kafeneio/members/{nikos.pk}/").status_code in (401, 403)
    assert not Player.objects.filter(name="Intruder").exists()
    assert members(client, club) == ["Nikos"]


def test_a_read_only_club_account_does_not_write_even_as_an_admin(club, club_reader):
    club.admins.add(club_reader)
    response = client_for(club_reader).post(f"{CLUBS}kafeneio/members/", {"name": "X"}, format="json")
    assert response.status_code == 403


# A tournament belongs to a club ------------------------------------------------------------------


def test_an_organizer_puts_a_tournament_in_a_club_they_run(admin_api, anon, club):
    response = admin_api.post(
        "/api/v1/tournaments/", {"name": "Club Night", "club": "kafeneio"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["club"] == "kafeneio"
    assert Tournament.objects.get(slug="club-night").club == club
    assert [e["slug"] for e in anon.get(f"{CLUBS}kafeneio/").json()["events"]] == ["club-night"]
    listed = anon.get("/api/v1/tournaments/", {"club": "kafeneio"}).json()["results"]
    assert [t["slug"] for t in listed] == ["club-night"]


def test_a_club_the_organizer_does_not_run_is_refused(club, rival):
    client = client_for(rival)
    response = client.post("/api/v1/tournaments/", {"name": "Mine", "club": "kafeneio"}, format="json")
    assert "not a club you run" in problem(response, 400)["detail"]
    response = client.post("/api/v1/tournaments/", {"name": "Mine", "club": "nowhere"}, format="json")
    body = problem(response, 400)
    assert fields(body) == {"club"} and "No club has the slug nowhere." in messages(body)
    assert not Tournament.objects.filter(name="Mine").exists()


def test_a_tournament_moves_into_a_club_and_out(admin_api, open_tournament, club, rival):
    url = f"/api/v1/tournaments/{open_tournament.slug}/"
    assert admin_api.get(url).json()["club"] is None
    assert admin_api.patch(url, {"club": "kafeneio"}, format="json").json()["club"] == "kafeneio"
    assert admin_api.patch(url, {"club": None}, format="json").json()["club"] is None
    other = clubs.club_create(name="Rival club", by=Club.objects.get().admins.get(username="staff"))
    response = admin_api.patch(url, {"club": other.slug}, format="json")
    assert "not a club you run" in problem(response, 400)["detail"]
    assert Tournament.objects.get(pk=open_tournament.pk).club is None


def test_a_club_costs_the_same_with_more_members_and_events(anon, club, organizer):
    def count():
        with CaptureQueriesContext(connection) as captured:
            assert anon.get(f"{CLUBS}kafeneio/").status_code == 200
        return len(captured)

    for n in range(2):
        clubs.member_add(club=club, player=Player.objects.create(name=f"P{n}"))
        services.tournament_create(organizer=organizer, name=f"Cup {n}", club=club)
    small = count()
    for n in range(2, 8):
        clubs.member_add(club=club, player=Player.objects.create(name=f"P{n}"))
        services.tournament_create(organizer=organizer, name=f"Cup {n}", club=club)
    assert count() == small

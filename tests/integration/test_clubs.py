"""Clubs: who creates and runs them, their members (a merged record stands for its root), their public
page, the admins' page, and a tournament that belongs to a club."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league.models import Season
from players import club_services as clubs
from players.errors import PlayerError
from players.models import Club, Membership, Player
from tournaments import services as tournaments
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

CLUBS = reverse("league:clubs")
NEW_TOURNAMENT = reverse("tournaments:new")


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("staff", password="pw-staff-12345", is_staff=True)


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_user("anna", password="pw-anna-12345")


@pytest.fixture
def other(django_user_model):
    return django_user_model.objects.create_user("bob", password="pw-bob-12345")


@pytest.fixture
def club(staff, admin):
    """Kafeneio, in Athens: made by the staff account, run by it and by Anna."""
    club = clubs.club_create(name="Kafeneio", by=staff, city="Athens", about="Thursdays at eight.")
    clubs.admin_add(club=club, user=admin)
    return club


def page(club):
    return reverse("league:club", args=[club.slug])


def manage(club):
    return reverse("league:club_manage", args=[club.slug])


def names(queryset):
    return [p.name for p in queryset]


def private_player(organizer, name):
    """A player known only from a private tournament of ``organizer``'s."""
    t = tournaments.tournament_create(organizer=organizer, name=f"Private {name}", public=False)
    tournaments.entry_register(tournament=t, name=f"Team {name}", players=[name, f"{name}'s partner"])
    return Player.objects.get(name=name)


# The services ------------------------------------------------------------------------------------


def test_staff_create_a_club_and_run_it(staff):
    club = clubs.club_create(name="  Kafeneio   Omonia ", by=staff, city="Athens")
    assert (club.name, club.slug, club.city) == ("Kafeneio Omonia", "kafeneio-omonia", "Athens")
    assert list(club.admins.all()) == [staff]
    assert clubs.is_admin(club, staff)


def test_a_superuser_creates_clubs_and_runs_every_club(django_user_model, club):
    boss = django_user_model.objects.create_superuser("boss", password="pw-boss-12345")
    assert clubs.may_create(boss) and clubs.is_admin(club, boss)
    assert list(clubs.administered(boss)) == [club]


def test_an_ordinary_account_does_not_create_a_club(admin):
    with pytest.raises(PlayerError, match="staff"):
        clubs.club_create(name="Mine", by=admin)
    assert not Club.objects.exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "   "}, "needs a name"),
        ({"name": "x" * 121}, "at most 120"),
        ({"name": "A\x00B"}, "control"),
        ({"name": "Ok", "city": "c" * 81}, "at most 80"),
        ({"name": "Ok", "about": "a" * 2001}, "at most 2000"),
        ({"name": "kafeneio", "city": "ATHENS"}, "already exists"),
    ],
)
def test_a_club_with_a_bad_name_city_or_about_is_refused(staff, club, fields, message):
    with pytest.raises(PlayerError, match=message):
        clubs.club_create(by=staff, **fields)
    assert Club.objects.count() == 1


def test_the_same_name_in_another_city_is_another_club(staff, club):
    other = clubs.club_create(name="Kafeneio", by=staff, city="Patras")
    assert other.slug == "kafeneio-2"


def test_a_club_renamed_keeps_its_address(club):
    clubs.club_update(club=club, name="Kafeneio Nea", about="Fridays now.\nBring cards.")
    club.refresh_from_db()
    assert (club.name, club.slug, club.city, club.about) == (
        "Kafeneio Nea",
        "kafeneio",
        "Athens",
        "Fridays now.\nBring cards.",
    )


def test_admins_are_added_and_removed_but_one_always_stays(club, staff, admin, other):
    clubs.admin_add(club=club, user=other)
    with pytest.raises(PlayerError, match="already runs"):
        clubs.admin_add(club=club, user=other)
    clubs.admin_remove(club=club, user=staff)
    clubs.admin_remove(club=club, user=other)
    with pytest.raises(PlayerError, match="at least one admin"):
        clubs.admin_remove(club=club, user=admin)
    with pytest.raises(PlayerError, match="does not run"):
        clubs.admin_remove(club=club, user=other)
    assert list(club.admins.all()) == [admin]
    assert list(clubs.administered(admin)) == [club] and list(clubs.administered(other)) == []


def test_a_member_joins_today_unless_told_and_only_once(club):
    nikos, eleni = Player.objects.create(name="Nikos"), Player.objects.create(name="Eleni")
    row = clubs.member_add(club=club, player=nikos)
    assert row.joined_on == timezone.localdate() and row.left_on is None
    clubs.member_add(club=club, player=eleni, joined_on=datetime.date(2024, 9, 1))
    with pytest.raises(PlayerError, match="already a member"):
        clubs.member_add(club=club, player=nikos)
    assert names(clubs.current_members(club)) == ["Eleni", "Nikos"]


def test_a_member_who_leaves_keeps_the_row_and_may_come_back(club):
    nikos = Player.objects.create(name="Nikos")
    clubs.member_add(club=club, player=nikos, joined_on=datetime.date(2024, 1, 10))
    with pytest.raises(PlayerError, match="before the day they joined"):
        clubs.member_remove(club=club, player=nikos, left_on=datetime.date(2023, 12, 31))
    clubs.member_remove(club=club, player=nikos, left_on=datetime.date(2025, 3, 1))
    row = Membership.objects.get(club=club, player=nikos)
    assert (row.joined_on, row.left_on) == (datetime.date(2024, 1, 10), datetime.date(2025, 3, 1))
    assert names(clubs.current_members(club)) == []
    with pytest.raises(PlayerError, match="not a member"):
        clubs.member_remove(club=club, player=nikos)
    clubs.member_add(club=club, player=nikos, joined_on=datetime.date(2025, 9, 1))
    row.refresh_from_db()
    assert (row.joined_on, row.left_on) == (datetime.date(2025, 9, 1), None)
    assert Membership.objects.filter(club=club).count() == 1


def test_a_merged_record_adds_its_root(club):
    root = Player.objects.create(name="Nikos Papas")
    merged = Player.objects.create(name="Nikos P.", merged_into=root)
    row = clubs.member_add(club=club, player=merged)
    assert row.player == root
    with pytest.raises(PlayerError, match="already a member"):
        clubs.member_add(club=club, player=root)


def test_a_record_merged_after_joining_is_listed_as_its_root_and_leaves_as_it(club):
    root, twin = Player.objects.create(name="Nikos Papas"), Player.objects.create(name="Nikos P.")
    clubs.member_add(club=club, player=twin)
    Player.objects.filter(pk=twin.pk).update(merged_into=root)  # merged after joining
    assert names(clubs.current_members(club)) == ["Nikos Papas"]
    with pytest.raises(PlayerError, match="already a member"):
        clubs.member_add(club=club, player=root)
    clubs.member_remove(club=club, player=root)
    assert Membership.objects.get(player=twin).left_on == timezone.localdate()
    assert names(clubs.current_members(club)) == []


# The public pages --------------------------------------------------------------------------------


@pytest.fixture
def events(club, admin, other):
    """The club's events: a public one (Anna's) and a private one (Anna's); Bob's public event of no club."""
    spring = tournaments.tournament_create(
        organizer=admin, name="Spring Cup", club=club, starts_on=datetime.date(2025, 4, 12)
    )
    autumn = tournaments.tournament_create(
        organizer=admin, name="Secret Autumn", club=club, public=False, starts_on=datetime.date(2025, 10, 4)
    )
    summer = tournaments.tournament_create(
        organizer=admin, name="Summer Cup", club=club, starts_on=datetime.date(2025, 7, 20)
    )
    tournaments.tournament_create(organizer=other, name="Elsewhere")
    return spring, summer, autumn


def test_the_clubs_are_listed_with_their_city(client, club):
    text = client.get(CLUBS).text
    assert "Kafeneio" in text and "Athens" in text and page(club) in text
    assert 'data-testid="club-new"' not in text  # no form for those who may not create a club


def test_the_club_page_shows_its_members_and_public_events_newest_first(client, club, events):
    nikos, eleni = Player.objects.create(name="Nikos"), Player.objects.create(name="Eleni")
    clubs.member_add(club=club, player=nikos, joined_on=datetime.date(2024, 9, 1))
    clubs.member_add(club=club, player=eleni)
    gone = Player.objects.create(name="Giorgos")
    clubs.member_add(club=club, player=gone)
    clubs.member_remove(club=club, player=gone)
    response = client.get(page(club))
    assert response.status_code == 200
    text = response.text
    assert "Thursdays at eight." in text and "Athens" in text
    assert reverse("players:detail", args=[nikos.pk]) in text and "since 1 Sep 2024" in text
    assert reverse("players:detail", args=[eleni.pk]) in text
    assert "Giorgos" not in text  # left the club
    assert text.index("Summer Cup") < text.index("Spring Cup")  # newest first
    assert "Secret Autumn" not in text and "Elsewhere" not in text
    assert 'data-testid="manage-link"' not in text


def test_a_private_event_is_listed_for_its_organizer_only(client, club, events, admin, other):
    client.force_login(other)
    assert "Secret Autumn" not in client.get(page(club)).text
    client.force_login(admin)
    text = client.get(page(club)).text
    assert "Secret Autumn" in text and reverse("tournaments:home", args=[events[2].slug]) in text
    assert 'data-testid="manage-link"' in text


def test_a_member_known_only_from_a_private_tournament_is_hidden_from_others(client, club, other):
    hidden = private_player(other, "Kostas")
    clubs.member_add(club=club, player=hidden)
    assert "Kostas" not in client.get(page(club)).text
    client.force_login(other)  # the private tournament's organizer sees them
    assert "Kostas" in client.get(page(club)).text


def test_a_merged_record_is_not_listed_its_root_is(client, club):
    root = Player.objects.create(name="Nikos Papas")
    twin = Player.objects.create(name="Nikos P.")
    clubs.member_add(club=club, player=twin)
    Player.objects.filter(pk=twin.pk).update(merged_into=root)
    text = client.get(page(club)).text
    assert "Nikos Papas" in text and "Nikos P.<" not in text
    assert reverse("players:detail", args=[root.pk]) in text


def test_an_unknown_club_is_404(client):
    assert client.get(reverse("league:club", args=["nowhere"])).status_code == 404


def test_the_club_page_lists_its_public_seasons(client, club, admin):
    dates = {"starts_on": datetime.date(2025, 1, 1), "ends_on": datetime.date(2025, 12, 31)}
    Season.objects.create(name="Season 2025", slug="season-2025", club=club, owner=admin, **dates)
    Season.objects.create(name="Trial", slug="trial", club=club, owner=admin, public=False, **dates)
    text = client.get(page(club)).text
    assert reverse("league:season", args=["season-2025"]) in text and "Trial" not in text
    client.force_login(admin)
    assert "Trial" in client.get(page(club)).text


def test_the_club_page_costs_the_same_with_more_members_and_events(client, club, admin):
    def count():
        with CaptureQueriesContext(connection) as captured:
            assert client.get(page(club)).status_code == 200
        return len(captured)

    client.force_login(admin)
    for n in range(2):
        clubs.member_add(club=club, player=Player.objects.create(name=f"P{n}"))
        tournaments.tournament_create(organizer=admin, name=f"Cup {n}", club=club)
    small = count()
    for n in range(2, 8):
        clubs.member_add(club=club, player=Player.objects.create(name=f"P{n}"))
        tournaments.tournament_create(organizer=admin, name=f"Cup {n}", club=club)
    assert count() == small


# Creating a club from the list --------------------------------------------------------------------


def test_staff_create_a_club_from_the_list(client, staff):
    client.force_login(staff)
    assert 'data-testid="club-new"' in client.get(CLUBS).text
    response = client.post(CLUBS, {"name": "Lesxi", "city": "Volos", "about": ""})
    club = Club.objects.get(name="Lesxi")
    assert response.status_code == 302 and response["Location"] == manage(club)
    assert list(club.admins.all()) == [staff]


def test_a_bad_new_club_is_422_and_nothing_is_made(client, staff, club):
    client.force_login(staff)
    response = client.post(CLUBS, {"name": "Kafeneio", "city": "Athens"})
    assert response.status_code == 422 and "already exists" in response.text
    assert client.post(CLUBS, {"name": ""}).status_code == 422
    assert Club.objects.count() == 1


def test_an_ordinary_account_cannot_create_a_club(client, other):
    client.force_login(other)
    assert client.post(CLUBS, {"name": "Mine"}).status_code == 403
    assert client.post(CLUBS, {"name": "Mine"}, follow=False).status_code == 403
    client.logout()
    assert client.post(CLUBS, {"name": "Mine"}).status_code == 403
    assert not Club.objects.filter(name="Mine").exists()


# The admins' page --------------------------------------------------------------------------------


def test_the_admins_page_is_for_the_club_admins(client, club, admin, other, django_user_model):
    response = client.get(manage(club))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    client.force_login(other)
    assert client.get(manage(club)).status_code == 403
    assert client.post(manage(club), {"action": "member_add", "member-name": "X"}).status_code == 403
    assert not Player.objects.filter(name="X").exists()
    client.force_login(admin)
    assert client.get(manage(club)).status_code == 200
    boss = django_user_model.objects.create_superuser("boss", password="pw-boss-12345")
    client.force_login(boss)
    assert client.get(manage(club)).status_code == 200


def test_an_admin_adds_a_picked_player_and_a_new_one(client, club, admin):
    nikos = Player.objects.create(name="Nikos")
    client.force_login(admin)
    text = client.get(manage(club)).text
    # The existing player search (the new-match pickers) finds the players this person may see.
    assert f'data-search-url="{reverse("scoring:match_new_search")}"' in text
    assert 'data-search="player"' in text and 'data-pick-id="member-name"' in text
    found = client.get(reverse("scoring:match_new_search"), {"kind": "player", "q": "Nik"}).text
    assert f'data-pick-player="{nikos.pk}"' in found
    response = client.post(
        manage(club),
        {
            "action": "member_add",
            "member-name": "Nikos",
            "member-player": nikos.pk,
            "member-joined_on": "2024-09-01",
        },
    )
    assert response.status_code == 302
    assert Membership.objects.get(club=club, player=nikos).joined_on == datetime.date(2024, 9, 1)
    assert Player.objects.filter(name="Nikos").count() == 1  # picked, not made again
    response = client.post(manage(club), {"action": "member_add", "member-name": "Nikos"})
    assert response.status_code == 302
    assert Player.objects.filter(name="Nikos").count() == 2  # a name typed is a new player
    assert names(clubs.current_members(club)) == ["Nikos", "Nikos"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"member-name": "  "}, "Type a name"),
        ({"member-player": "999999"}, "No such player"),
        ({"member-player": "abc"}, "whole number"),
        ({"member-name": "N", "member-joined_on": "yesterday"}, "valid date"),
        ({"member-name": "A\x07B"}, "control"),
    ],
)
def test_a_bad_member_is_422_and_nothing_changes(client, club, admin, data, message):
    client.force_login(admin)
    response = client.post(manage(club), {"action": "member_add", **data})
    assert response.status_code == 422
    assert message in response.text
    assert not Membership.objects.exists() and not Player.objects.exists()


def test_a_player_the_admin_may_not_see_cannot_be_picked(client, club, admin, other):
    hidden = private_player(other, "Kostas")
    client.force_login(admin)
    response = client.post(manage(club), {"action": "member_add", "member-player": hidden.pk})
    assert response.status_code == 422 and "No such player" in response.text
    assert not Membership.objects.exists()


def test_a_member_twice_is_422(client, club, admin):
    nikos = Player.objects.create(name="Nikos")
    clubs.member_add(club=club, player=nikos)
    client.force_login(admin)
    response = client.post(manage(club), {"action": "member_add", "member-player": nikos.pk})
    assert response.status_code == 422 and "already a member" in response.text


def test_an_admin_removes_a_member(client, club, admin):
    nikos = Player.objects.create(name="Nikos")
    clubs.member_add(club=club, player=nikos, joined_on=datetime.date(2024, 1, 1))
    client.force_login(admin)
    assert (
        client.post(manage(club), {"action": "member_remove", "remove-player": nikos.pk}).status_code == 302
    )
    assert Membership.objects.get(player=nikos).left_on == timezone.localdate()
    text = client.get(manage(club)).text
    assert 'data-testid="former"' in text and "Nikos" in text
    response = client.post(manage(club), {"action": "member_remove", "remove-player": nikos.pk})
    assert response.status_code == 422 and "not a member" in response.text


def test_an_admin_adds_and_removes_admins_by_username(client, club, admin, staff, other):
    client.force_login(admin)
    response = client.post(manage(club), {"action": "admin_add", "admin-username": "bob"})
    assert response.status_code == 302 and clubs.is_admin(club, other)
    response = client.post(manage(club), {"action": "admin_add", "admin-username": "nobody"})
    assert response.status_code == 422 and "No account is called" in response.text
    response = client.post(manage(club), {"action": "admin_add", "admin-username": "bob"})
    assert response.status_code == 422 and "already runs" in response.text
    for name in ("bob", "staff"):
        assert (
            client.post(manage(club), {"action": "admin_remove", "unadmin-username": name}).status_code == 302
        )
    response = client.post(manage(club), {"action": "admin_remove", "unadmin-username": "anna"})
    assert response.status_code == 422 and "at least one admin" in response.text
    assert list(club.admins.all()) == [admin]


def test_an_admin_who_hands_the_club_over_goes_to_its_page(client, club, admin):
    client.force_login(admin)
    response = client.post(manage(club), {"action": "admin_remove", "unadmin-username": "anna"})
    assert response.status_code == 302 and response["Location"] == page(club)


def test_an_admin_changes_the_club_details(client, club, admin):
    client.force_login(admin)
    data = {"action": "details", "club-name": "Kafeneio Nea", "club-city": "Piraeus", "club-about": "New."}
    assert client.post(manage(club), data).status_code == 302
    club.refresh_from_db()
    assert (club.name, club.city, club.about, club.slug) == ("Kafeneio Nea", "Piraeus", "New.", "kafeneio")
    response = client.post(manage(club), {**data, "club-name": ""})
    assert response.status_code == 422
    club.refresh_from_db()
    assert club.name == "Kafeneio Nea"


def test_an_unknown_action_is_422(client, club, admin):
    client.force_login(admin)
    response = client.post(manage(club), {"action": "explode"})
    assert response.status_code == 422 and "Unknown action" in response.text


# A tournament belongs to a club -----------------------------------------------------------------


def new_tournament(**fields):
    data = {"name": "Club Night", "ruleset": "mpourloto", "format": "swiss", "swiss_rounds": 3,
            "knockout_size": 0, "deals_per_match": 0, "points_win": 2, "points_draw": 1, "points_loss": 0,
            "points_bye": 2, "playoff_deals": 2, "public": "on", "rated": "on"}  # fmt: skip
    data.update(fields)
    return data


def test_the_new_tournament_page_offers_the_clubs_its_organizer_runs(client, club, admin, other):
    client.force_login(other)
    assert 'name="club"' not in client.get(NEW_TOURNAMENT).text
    client.force_login(admin)
    text = client.get(NEW_TOURNAMENT).text
    assert 'name="club"' in text and 'value="kafeneio"' in text


def test_a_tournament_made_for_a_club_shows_it(client, club, admin):
    client.force_login(admin)
    response = client.post(NEW_TOURNAMENT, new_tournament(club="kafeneio"))
    assert response.status_code == 302
    t = Tournament.objects.get(name="Club Night")
    assert t.club == club
    text = client.get(reverse("tournaments:home", args=[t.slug])).text
    assert f'href="{page(club)}"' in text and 'data-testid="club"' in text
    assert "Club Night" in client.get(page(club)).text


def test_a_tournament_for_a_club_its_organizer_does_not_run_is_refused(client, club, other):
    client.force_login(other)
    response = client.post(NEW_TOURNAMENT, new_tournament(club="kafeneio"))
    assert response.status_code == 422 and "Choose one of the clubs you run." in response.text
    assert not Tournament.objects.exists()


def test_a_tournament_without_a_club_is_made_as_before(client, club, admin):
    client.force_login(admin)
    assert client.post(NEW_TOURNAMENT, new_tournament()).status_code == 302
    t = Tournament.objects.get(name="Club Night")
    assert (
        t.club is None
        and 'data-testid="club"' not in client.get(reverse("tournaments:home", args=[t.slug])).text
    )


def test_the_services_refuse_a_club_the_organizer_does_not_run(club, admin, other, staff):
    with pytest.raises(tournaments.TournamentError, match="not a club you run"):
        tournaments.tournament_create(organizer=other, name="Mine", club=club)
    t = tournaments.tournament_create(organizer=other, name="Mine")
    with pytest.raises(tournaments.TournamentError, match="not a club you run"):
        tournaments.tournament_update(tournament=t, user=other, club=club)
    # A tournament put in the club by its admin keeps it when its organizer changes something else.
    t = tournaments.tournament_create(organizer=admin, name="Ours", club=club)
    clubs.admin_remove(club=club, user=admin)
    t = tournaments.tournament_update(tournament=t, user=admin, swiss_rounds=4)
    assert (t.club, t.swiss_rounds) == (club, 4)
    assert tournaments.tournament_update(tournament=t, user=admin, club=None).club is None


# The admin site ----------------------------------------------------------------------------------


def test_the_admin_site_edits_a_club_with_its_members_and_admins(client, club, django_user_model):
    clubs.member_add(club=club, player=Player.objects.create(name="Nikos"))
    boss = django_user_model.objects.create_superuser("boss", password="pw-boss-12345")
    client.force_login(boss)
    text = client.get(reverse("admin:players_club_change", args=[club.pk])).text
    assert "memberships-TOTAL_FORMS" in text and "Nikos" in text
    assert 'id="id_admins"' in text and "selectfilter" in text.lower()
    assert client.get(reverse("admin:players_club_add")).status_code == 200

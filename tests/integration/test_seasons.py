"""Seasons against the database: the events that count, the table from the tournaments' stored final
rankings (played through the tournaments' services), merged records, who may do what, the pages."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from league import seasons
from league.models import Season
from league.services import SeasonError, season_create, season_delete, season_update
from league.views.seasons import EventChoice
from players.models import Club, Player
from scoring import services as scoring
from tests.factories import WIN_0, WIN_1
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

D = datetime.date
SCALE = [10, 6, 4, 2]


def night(organizer, name, teams, *, day=None, club=None, public=True, finish=True):
    """A round robin of ``teams`` (name, (player, player)), the earlier team of the list winning every
    match; played to its end (``finish``), or started and left before its first round."""
    t = services.tournament_create(
        organizer=organizer,
        name=name,
        format=Tournament.Format.ROUND_ROBIN,
        deals_per_match=1,
        public=public,
        starts_on=day,
    )
    Tournament.objects.filter(pk=t.pk).update(club=club)
    strength = {}
    for k, (team, players) in enumerate(teams):
        entry = services.entry_register(tournament=t, name=team, players=list(players))
        strength[entry.pk] = k
    t = services.tournament_start(tournament=t, user=organizer)
    rounds = len(teams) if len(teams) % 2 else len(teams) - 1
    for _ in range(rounds if finish else 0):
        rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
        for table in rnd.tables.filter(match__isnull=False).select_related("match"):
            first_wins = strength[table.entry0_id] < strength[table.entry1_id]
            scoring.deal_record(match=table.match, deal=WIN_0 if first_wins else WIN_1, user=organizer)
        services.standings_refresh(tournament_id=t.pk)
    t = Tournament.objects.get(pk=t.pk)
    assert (t.status == Tournament.Status.FINISHED) == finish
    return t


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_user(username="admin", password="pw-admin-12345")


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user(username="stranger", password="pw-stranger-12345")


@pytest.fixture
def club(admin):
    club = Club.objects.create(name="Kafeneio")
    club.admins.add(admin)
    return club


@pytest.fixture
def people():
    return {n: Player.objects.create(name=n) for n in ("Ana", "Bob", "Cleo", "Dora", "Eli", "Fay")}


@pytest.fixture
def two_nights(admin, club, people):
    """The club's two finished nights of the autumn. Night 1: Ana & Bob, then Cleo & Dora, then Eli & Fay.
    Night 2: Cleo & Ana, then Eli & Bob, then Dora & Fay."""
    p = people
    first = night(
        admin,
        "Night 1",
        [("AB", (p["Ana"], p["Bob"])), ("CD", (p["Cleo"], p["Dora"])), ("EF", (p["Eli"], p["Fay"]))],
        day=D(2025, 10, 3),
        club=club,
    )
    second = night(
        admin,
        "Night 2",
        [("CA", (p["Cleo"], p["Ana"])), ("EB", (p["Eli"], p["Bob"])), ("DF", (p["Dora"], p["Fay"]))],
        day=D(2025, 11, 7),
        club=club,
    )
    return first, second


# Both sides of midnight in Athens (the site's TIME_ZONE), in winter (UTC+2) and in summer (UTC+3):
# 23:30 there is still the UTC day; 00:30 there is already the next day, and UTC's is the day before.
UTC = datetime.UTC
LOCAL_MIDNIGHT = {
    "winter-23:30": datetime.datetime(2026, 12, 31, 21, 30, tzinfo=UTC),
    "winter-00:30": datetime.datetime(2026, 12, 31, 22, 30, tzinfo=UTC),
    "summer-23:30": datetime.datetime(2026, 6, 30, 20, 30, tzinfo=UTC),
    "summer-00:30": datetime.datetime(2026, 6, 30, 21, 30, tzinfo=UTC),
}


@pytest.fixture(params=list(LOCAL_MIDNIGHT), ids=list(LOCAL_MIDNIGHT))
def local_midnight(request, monkeypatch):
    """The clock stopped on one side of the site's midnight (what ``timezone.now()`` answers, the
    ``auto_now`` dates too): a test that depends on the day passes at any hour."""
    frozen = LOCAL_MIDNIGHT[request.param]
    monkeypatch.setattr(timezone, "now", lambda: frozen)
    return frozen


def test_the_frozen_clock_straddles_the_local_midnight():
    local = {name: timezone.localtime(at) for name, at in LOCAL_MIDNIGHT.items()}
    assert {name: (at.hour, at.minute) for name, at in local.items()} == {
        "winter-23:30": (23, 30), "winter-00:30": (0, 30), "summer-23:30": (23, 30), "summer-00:30": (0, 30)
    }  # fmt: skip
    assert local["winter-00:30"].date() == D(2027, 1, 1) != LOCAL_MIDNIGHT["winter-00:30"].date()
    assert local["summer-00:30"].date() == D(2026, 7, 1) != LOCAL_MIDNIGHT["summer-00:30"].date()


def club_season(admin, club, **settings):
    values = {"name": "Autumn", "starts_on": D(2025, 9, 1), "ends_on": D(2025, 12, 31), "scale": SCALE}
    return season_create(user=admin, club=club, **{**values, **settings})


def totals(table):
    return {row.name: (row.rank, row.total, row.played) for row in table.rows}


# The table ---------------------------------------------------------------------------------------


def test_the_stored_rankings_of_a_three_team_round_robin(two_nights):
    first, _ = two_nights
    assert [(row["team"], row["rank"]) for row in first.standings.ranking] == [
        ("AB", 1),
        ("CD", 2),
        ("EF", 3),
    ]


def test_a_club_season_counts_its_finished_events_in_the_dates(admin, club, two_nights):
    season = club_season(admin, club)
    table = seasons.season_table(season)
    assert [t.name for t in table.events] == ["Night 1", "Night 2"]
    # Night 1: Ana, Bob 10; Cleo, Dora 6; Eli, Fay 4. Night 2: Cleo, Ana 10; Eli, Bob 6; Dora, Fay 4.
    assert totals(table) == {
        "Ana": (1, 20, 2),
        "Bob": (2, 16, 2),  # one win, as Cleo: Bob's 1st and 2nd against Cleo's 2nd and 1st, level
        "Cleo": (2, 16, 2),
        "Dora": (4, 10, 2),
        "Eli": (4, 10, 2),  # Dora 6 + 4, Eli 4 + 6: level on total, wins (none) and best finish (2nd)
        "Fay": (6, 8, 2),
    }
    assert [row.name for row in table.rows] == ["Ana", "Bob", "Cleo", "Dora", "Eli", "Fay"]
    ana = table.rows[0]
    assert ana.wins == 2 and [(r.rank, r.points) for r in ana.results] == [(1, 10), (1, 10)]


def test_best_of_drops_a_worse_night(admin, club, two_nights):
    table = seasons.season_table(club_season(admin, club, best_of=1))
    bob = next(row for row in table.rows if row.name == "Bob")
    assert bob.total == 10 and [r.counted for r in bob.results] == [True, False]
    assert totals(table)["Fay"] == (6, 4, 2)


def test_participation_points_past_the_scale(admin, club, two_nights):
    table = seasons.season_table(club_season(admin, club, scale=[5], participation=1))
    # Night 1: Ana, Bob 5, the rest 1; Night 2: Cleo, Ana 5, the rest 1.
    assert {name: total for name, (_, total, _) in totals(table).items()} == {
        "Ana": 10,
        "Bob": 6,
        "Cleo": 6,
        "Dora": 2,
        "Eli": 2,
        "Fay": 2,
    }


def test_unfinished_out_of_dates_other_clubs_and_private_events_are_left_out(admin, club, two_nights, people):
    other = Club.objects.create(name="Other club")
    p = people
    pairs = [("X", (p["Ana"], p["Fay"])), ("Y", (p["Bob"], p["Eli"]))]
    night(admin, "Running", pairs, day=D(2025, 10, 10), club=club, finish=False)
    night(admin, "Last spring", pairs, day=D(2025, 4, 1), club=club)
    night(admin, "Elsewhere", pairs, day=D(2025, 10, 11), club=other)
    night(admin, "Behind closed doors", pairs, day=D(2025, 10, 12), club=club, public=False)
    season = club_season(admin, club)
    assert [t.name for t in seasons.season_events(season)] == ["Night 1", "Night 2"]
    private = club_season(admin, club, name="Autumn, privately", public=False)
    assert [t.name for t in seasons.season_events(private)] == ["Night 1", "Behind closed doors", "Night 2"]


def test_an_event_without_a_start_day_counts_on_the_day_it_finished(admin, club, people, local_midnight):
    """The site's day (Europe/Athens), not UTC's: an aware time's ``.date()`` would be UTC's."""
    p = people
    t = night(admin, "Undated", [("X", (p["Ana"], p["Fay"])), ("Y", (p["Bob"], p["Eli"]))], club=club)
    assert t.finished_at == local_midnight
    day = timezone.localdate(t.finished_at)
    inside = club_season(admin, club, starts_on=day, ends_on=day)
    assert [e.name for e in seasons.season_events(inside)] == ["Undated"]
    chosen = season_create(
        user=admin, name="Chosen", starts_on=day, ends_on=day, tournaments=[t], scale=SCALE
    )  # a chosen event is checked against the dates on the same day
    assert [e.name for e in seasons.season_events(chosen)] == ["Undated"]
    choice = EventChoice(queryset=Tournament.objects.all())
    assert choice.label_from_instance(t) == f"Undated · {day.isoformat()}"  # as the season's form offers it
    Tournament.objects.filter(pk=t.pk).update(finished_at=t.finished_at + datetime.timedelta(days=2))
    assert [e.name for e in seasons.season_events(inside)] == []


def test_chosen_events_count_once_finished(admin, stranger, two_nights, people):
    _, second = two_nights
    p = people
    later = night(
        stranger, "Open night", [("X", (p["Ana"], p["Fay"])), ("Y", (p["Bob"], p["Eli"]))], finish=False
    )
    league = season_create(
        user=stranger,
        name="Stranger's league",
        starts_on=D(2025, 1, 1),
        ends_on=D(2099, 12, 31),  # the open night is played today, whenever the test runs
        tournaments=[second, later],
        scale=SCALE,
    )
    assert league.events == Season.Events.CHOSEN and league.club is None
    assert [t.name for t in seasons.season_events(league)] == ["Night 2"]  # not Night 1, not yet Open night
    # The one round of a two-team round robin: played, the tournament finishes.
    rnd = services.round_start(rnd=services.round_generate(tournament=later, user=stranger), user=stranger)
    scoring.deal_record(match=rnd.tables.get().match, deal=WIN_0, user=stranger)
    services.standings_refresh(tournament_id=later.pk)
    assert [t.name for t in seasons.season_events(league)] == ["Night 2", "Open night"]


def test_a_merged_record_counts_as_its_root(admin, club, two_nights, people):
    """Bob played night 2 as another record of his (typed anew), merged into him later: one line, under
    his name, both nights counted."""
    _, second = two_nights
    bob2 = Player.objects.create(name="Bobby")
    entry = second.entries.get(team__name="EB")
    entry.team.player_b = bob2
    entry.team.save()
    season = club_season(admin, club)
    before = totals(seasons.season_table(season))
    assert before["Bob"] == (3, 10, 1) and before["Bobby"][1:] == (6, 1)
    Player.objects.filter(pk=bob2.pk).update(merged_into=people["Bob"])
    after = seasons.season_table(season)
    assert "Bobby" not in totals(after)
    assert totals(after)["Bob"] == (2, 16, 2)
    assert next(row for row in after.rows if row.name == "Bob").player == people["Bob"].pk


def test_two_records_of_one_person_in_one_event_count_once(admin, club, two_nights, people):
    """Cleo and Dora were one person all along (merged): night 1 counts once for her, at her better rank."""
    Player.objects.filter(pk=people["Dora"].pk).update(merged_into=people["Cleo"])
    table = seasons.season_table(club_season(admin, club))
    # Night 1: 2nd (6); night 2: 1st (10) as Cleo, 3rd (4) as Dora: the 1st counts.
    assert totals(table)["Cleo"] == (2, 16, 2)
    assert "Dora" not in totals(table)


def test_the_table_costs_three_queries(admin, club, two_nights, django_assert_num_queries):
    season = Season.objects.get(pk=club_season(admin, club).pk)
    with django_assert_num_queries(3):
        table = seasons.season_table(season)
    assert len(table.rows) == 6


def test_an_individual_event_ranks_each_player(admin, club):
    t = services.tournament_create(
        organizer=admin,
        name="Solo",
        format=Tournament.Format.INDIVIDUAL,
        swiss_rounds=1,
        deals_per_match=1,
        starts_on=D(2025, 10, 20),
    )
    Tournament.objects.filter(pk=t.pk).update(club=club)
    for name in ("Ira", "Jon", "Kim", "Lia"):
        services.entry_register(tournament=t, name=name, players=[name])
    t = services.tournament_start(tournament=t, user=admin)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=admin), user=admin)
    table = rnd.tables.get()
    scoring.deal_record(match=table.match, deal=WIN_0, user=admin)
    services.standings_refresh(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    ranks = {row["team"]: row["rank"] for row in t.standings.ranking}
    season_table = seasons.season_table(club_season(admin, club))
    # The two partners who won share 1st: 10 each; the two who lost share 3rd: 4 each.
    assert sorted(ranks.values()) == [1, 1, 3, 3]
    assert {row.name: row.total for row in season_table.rows} == {
        name: 10 if rank == 1 else 4 for name, rank in ranks.items()
    }


# Writes and who may make them --------------------------------------------------------------------


def test_only_the_club_admins_start_a_club_season(club, stranger, admin, django_user_model):
    with pytest.raises(PermissionDenied):
        club_season(stranger, club)
    root = django_user_model.objects.create_superuser(username="root", password="pw-root-12345")
    assert club_season(root, club).club == club
    assert club_season(admin, club, name="Autumn").slug == "autumn-2"


def test_any_account_owns_a_league_and_only_its_owner_changes_it(stranger, admin):
    league = season_create(user=stranger, name="Λίγκα", starts_on=D(2025, 1, 1), ends_on=D(2025, 12, 31))
    assert league.slug == "λίγκα" and league.owner == stranger
    assert league.scale == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
    with pytest.raises(PermissionDenied):
        season_update(season=league, user=admin, best_of=3)
    with pytest.raises(PermissionDenied):
        season_delete(season=league, user=admin)
    assert season_update(season=league, user=stranger, best_of=3, name="Λίγκα 2025").best_of == 3
    assert Season.objects.get(pk=league.pk).slug == "λίγκα"  # the address stays
    season_delete(season=league, user=stranger)
    assert not Season.objects.filter(pk=league.pk).exists()


def test_a_club_season_is_run_by_every_admin_of_the_club(club, admin, stranger):
    season = club_season(admin, club)
    with pytest.raises(PermissionDenied):
        season_update(season=season, user=stranger, public=False)
    club.admins.add(stranger)
    assert season_update(season=season, user=stranger, public=False).public is False


@pytest.mark.parametrize(
    ("settings", "field", "words"),
    [
        ({"name": "  "}, "name", "needs a name"),
        ({"ends_on": D(2025, 8, 1)}, "ends_on", "ends before it starts"),
        ({"scale": []}, "scale", "at least the winner"),
        ({"scale": [10, 12]}, "scale", "cannot earn more points than the place before"),
        ({"scale": [10, -1]}, "scale", "whole numbers from 0"),
        ({"scale": [10, 2.5]}, "scale", "whole numbers from 0"),
        ({"scale": [True]}, "scale", "whole numbers from 0"),
        ({"scale": list(range(65, 0, -1))}, "scale", "at most 64 places"),
        ({"participation": 5}, "participation", "cannot earn more than the scale's last place (2)"),
        ({"best_of": 0}, "best_of", "from 1 to"),
        ({"events": "everything"}, "events", "club's events or the events chosen"),
    ],
)
def test_bad_settings_are_refused_in_words_and_nothing_is_saved(admin, club, settings, field, words):
    with pytest.raises(SeasonError) as refused:
        club_season(admin, club, **settings)
    assert words in str(refused.value) and refused.value.field == field
    assert not Season.objects.exists()


def test_a_league_counts_chosen_events_and_chooses_only_what_its_owner_sees(admin, stranger, club, people):
    with pytest.raises(SeasonError, match="counts the events chosen"):
        season_create(user=stranger, name="L", starts_on=D(2025, 1, 1), ends_on=D(2025, 2, 1), events="club")
    p = people
    hidden = night(admin, "Hidden", [("X", (p["Ana"], p["Fay"])), ("Y", (p["Bob"], p["Eli"]))], public=False)
    with pytest.raises(SeasonError, match="No such tournament"):
        season_create(
            user=stranger, name="L", starts_on=D(2025, 1, 1), ends_on=D(2030, 1, 1), tournaments=[hidden]
        )
    dated = night(
        admin, "Dated", [("X", (p["Ana"], p["Fay"])), ("Y", (p["Bob"], p["Eli"]))], day=D(2025, 3, 1)
    )
    with pytest.raises(SeasonError, match="Dated is on 2025-03-01, outside the season's dates"):
        season_create(
            user=stranger, name="L", starts_on=D(2025, 4, 1), ends_on=D(2025, 5, 1), tournaments=[dated]
        )
    with pytest.raises(SeasonError, match="only in a season of chosen events"):
        club_season(admin, club, tournaments=[dated])
    assert not Season.objects.exists()


def test_an_admin_keeps_the_events_another_admin_chose(admin, stranger, club, people):
    p = people
    pairs = [("X", (p["Ana"], p["Fay"])), ("Y", (p["Bob"], p["Eli"]))]
    hidden = night(admin, "Hidden", pairs, day=D(2025, 10, 1), public=False)
    season = club_season(admin, club, events="chosen", tournaments=[hidden], public=False)
    club.admins.add(stranger)
    season = season_update(season=season, user=stranger, best_of=2)
    assert list(season.tournaments.all()) == [hidden]
    season = season_update(season=season, user=stranger, events="club")
    assert list(season.tournaments.all()) == []


# Who sees what -----------------------------------------------------------------------------------


def test_a_private_season_is_seen_only_by_who_runs_it(admin, stranger, club):
    season = club_season(admin, club, public=False)
    assert seasons.season_get(slug=season.slug, user=admin) == season
    with pytest.raises(Season.DoesNotExist):
        seasons.season_get(slug=season.slug, user=stranger)
    assert list(seasons.season_list(user=stranger)) == []
    assert list(seasons.season_list(user=admin)) == [season]


# Pages -------------------------------------------------------------------------------------------


def test_the_season_page_shows_the_table_and_the_events(client, admin, club, two_nights):
    season = club_season(admin, club, best_of=1)
    page = client.get(reverse("league:season", args=[season.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="season-table"' in html
    assert reverse("players:detail", args=[Player.objects.get(name="Ana").pk]) in html
    assert reverse("tournaments:home", args=[two_nights[0].slug]) in html
    assert '<span class="dropped"' in html and "(6)" in html  # Bob's 2nd of night 2, dropped
    assert "Change the season" not in html
    listing = client.get(reverse("league:seasons")).content.decode()
    assert reverse("league:season", args=[season.slug]) in listing


def test_the_table_as_csv_cannot_become_a_formula(client, admin, club, two_nights, people):
    Player.objects.filter(pk=people["Fay"].pk).update(name="=HYPERLINK(1)")
    season = club_season(admin, club, best_of=1)
    response = client.get(reverse("league:season_csv", args=[season.slug]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["rank", "player", "total", "played", "wins", "Night 1", "Night 2"]
    assert rows[1] == ["1", "Ana", "10", "2", "2", "10", "(10)"]
    assert rows[-1][1] == "'=HYPERLINK(1)"


def test_a_private_season_and_its_forms_are_404_to_others(client, admin, stranger, club):
    season = club_season(admin, club, public=False)
    for name in ("league:season", "league:season_csv"):
        assert client.get(reverse(name, args=[season.slug])).status_code == 404
    assert client.get(reverse("league:season_edit", args=[season.slug]))["Location"].startswith(
        "/accounts/login/"
    )
    client.force_login(stranger)
    for name in ("league:season", "league:season_csv", "league:season_edit"):
        assert client.get(reverse(name, args=[season.slug])).status_code == 404
    assert client.post(reverse("league:season_delete", args=[season.slug])).status_code == 404
    client.force_login(admin)
    assert client.get(reverse("league:season", args=[season.slug])).status_code == 200


def test_the_form_creates_a_season_with_a_typed_scale(client, admin, club, two_nights):
    client.force_login(admin)
    assert client.get(reverse("league:season_new")).status_code == 200
    response = client.post(
        reverse("league:season_new"),
        {
            "name": "Winter",
            "club": club.pk,
            "starts_on": "2025-10-01",
            "ends_on": "2025-10-31",
            "events": "chosen",
            "tournaments": [two_nights[0].pk],
            "scale": "12 8, 5 3",
            "participation": "1",
            "best_of": "",
            "public": "on",
        },
    )
    season = Season.objects.get(name="Winter")
    assert response.status_code == 302 and response["Location"] == reverse(
        "league:season", args=[season.slug]
    )
    assert (season.club, season.scale, season.participation, season.best_of) == (club, [12, 8, 5, 3], 1, None)
    assert list(season.tournaments.all()) == [two_nights[0]]


@pytest.mark.parametrize(
    ("scale", "ends_on", "words"),
    [
        ("25 eighteen", "2025-10-31", "whole numbers separated by spaces"),
        ("10 12", "2025-10-31", "cannot earn more points than the place before"),
        ("10 8", "2025-09-01", "ends before it starts"),
    ],
)
def test_the_form_refuses_bad_input_with_422_and_saves_nothing(client, stranger, scale, ends_on, words):
    client.force_login(stranger)
    response = client.post(
        reverse("league:season_new"),
        {"name": "L", "starts_on": "2025-10-01", "ends_on": ends_on, "events": "chosen", "scale": scale},
    )
    assert response.status_code == 422
    assert words in response.content.decode()
    assert not Season.objects.exists()


def test_the_edit_form_changes_and_deletes(client, admin, club, two_nights):
    season = club_season(admin, club)
    client.force_login(admin)
    page = client.get(reverse("league:season_edit", args=[season.slug]))
    assert page.status_code == 200 and 'value="10 6 4 2"' in page.content.decode()
    response = client.post(
        reverse("league:season_edit", args=[season.slug]),
        {
            "name": "Autumn",
            "starts_on": "2025-09-01",
            "ends_on": "2025-12-31",
            "events": "club",
            "scale": "3 2 1",
            "participation": "0",
            "best_of": "1",
            "public": "on",
        },
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.scale, season.best_of) == ([3, 2, 1], 1)
    assert client.post(reverse("league:season_delete", args=[season.slug])).status_code == 302
    assert not Season.objects.exists()


def test_the_edit_page_is_404_to_who_does_not_run_a_public_season(client, admin, stranger, club):
    season = club_season(admin, club)
    client.force_login(stranger)
    assert client.get(reverse("league:season", args=[season.slug])).status_code == 200
    assert client.get(reverse("league:season_edit", args=[season.slug])).status_code == 404
    assert client.post(reverse("league:season_delete", args=[season.slug])).status_code == 404
    assert Season.objects.filter(pk=season.pk).exists()


def test_the_club_page_shows_the_table_of_the_season_under_way(
    client, admin, club, two_nights, local_midnight
):
    old = club_season(admin, club, name="Autumn")
    assert seasons.season_table(old).rows  # the newest season when none is under way today
    html = client.get(reverse("league:club", args=[club.slug])).content.decode()
    assert 'data-testid="season-table"' in html and "Autumn" in html
    today = timezone.localdate()  # the site's day, not the machine's nor UTC's
    season_create(
        user=admin,
        club=club,
        name="This year",
        starts_on=today.replace(month=1, day=1),
        ends_on=today.replace(month=12, day=31),
        scale=SCALE,
    )
    html = client.get(reverse("league:club", args=[club.slug])).content.decode()
    assert "This year" in html and 'data-testid="season-empty"' in html  # under way, no event yet
    assert 'data-testid="season-table"' not in html

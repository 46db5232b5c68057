"""An entry edited (name, players, number), withdrawn after a confirmation and reinstated (issue 26)."""

import re

import pytest
from django.urls import reverse

from players.models import Player, Team
from scoring import services as scoring
from tournaments import selectors, services
from tournaments.models import Entry, Round, Table, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def make(organizer, teams=4, **settings):
    settings.setdefault("deals_per_match", 1)
    settings.setdefault("swiss_rounds", 3)
    t = services.tournament_create(organizer=organizer, name="Friday", **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return t


def entry(t, name):
    return Entry.objects.select_related("team", "player").get(tournament=t, team__name=name)


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


def play(rnd):
    for table in rnd.tables.select_related("match"):
        if table.match is not None:
            scoring.deal_record(match=table.match, deal=WIN_0)


# Names -----------------------------------------------------------------------------------------------


def test_a_typo_in_a_team_used_only_here_is_corrected_in_place(organizer):
    t = make(organizer)
    e = entry(t, "Team 1")
    team_pk = e.team_id
    services.entry_edit(entry=e, name="Kyma", user=organizer)
    e.refresh_from_db()
    assert e.team_id == team_pk and Team.objects.get(pk=team_pk).name == "Kyma"
    record = e.history.latest()
    assert record.history_user == organizer and "Team 1 → Kyma" in record.history_change_reason


def test_a_team_shared_with_another_event_keeps_its_name_there(organizer):
    t = make(organizer)
    other = services.tournament_create(organizer=organizer, name="Saturday")
    e = entry(t, "Team 1")
    shared = e.team
    kept = Entry.objects.create(tournament=other, team=shared, number=1)
    services.tournament_start(tournament=t)
    rnd = services.round_generate(tournament=t)
    services.round_start(rnd=rnd)
    services.entry_edit(entry=e, name="Kyma", user=organizer)
    e.refresh_from_db()
    assert e.team.name == "Kyma" and e.team_id != shared.pk
    assert [e.team.player_a_id, e.team.player_b_id] == [shared.player_a_id, shared.player_b_id]
    shared.refresh_from_db()
    assert shared.name == "Team 1" and Entry.objects.get(pk=kept.pk).team_id == shared.pk
    table = (
        Table.objects.select_related("match").get(round=rnd, entry0=e)
        if Table.objects.filter(round=rnd, entry0=e).exists()
        else Table.objects.select_related("match").get(round=rnd, entry1=e)
    )
    assert e.team_id in (table.match.team0_id, table.match.team1_id)  # this tournament's match follows
    assert table.match.history.latest().history_user == organizer


def test_players_changed_pick_a_record_or_make_one_with_the_registrations_checks(organizer):
    t = make(organizer)
    e = entry(t, "Team 1")
    old_b = e.team.player_b
    services.entry_edit(entry=e, players=["P0a", "Newcomer"], user=organizer)
    e.refresh_from_db()
    assert e.team.player_a.name == "P0a" and e.team.player_b.name == "Newcomer" and e.team.player_b != old_b
    assert Player.objects.filter(name="P0a").count() == 1  # unchanged: the same record
    other = entry(t, "Team 2")
    with pytest.raises(services.TournamentError, match="already plays for Team 2"):
        services.entry_edit(entry=e, players=["P0a", "P1a"], player_ids=[None, other.team.player_a_id])
    with pytest.raises(services.TournamentError, match="two different players"):
        services.entry_edit(entry=e, players=["Same", "same"], user=organizer)
    outsider = Player.objects.create(name="Outsider")
    services.entry_edit(entry=e, players=["P0a", "Outsider"], player_ids=[None, outsider.pk], user=organizer)
    e.refresh_from_db()
    assert e.team.player_b == outsider


def test_an_individual_entry_is_its_player(organizer):
    t = services.tournament_create(organizer=organizer, name="Solo", format="individual", deals_per_match=1)
    for name in ("Ann", "Bob", "Cy", "Di"):
        services.entry_register(tournament=t, name=name, players=[name])
    e = Entry.objects.get(tournament=t, player__name="Ann")
    services.entry_edit(entry=e, name="Anna", user=organizer)
    e.refresh_from_db()
    assert e.player.name == "Anna" and e.name == "Anna"
    with pytest.raises(services.TournamentError, match="already entered"):
        services.entry_edit(
            entry=e, players=["Bob"], player_ids=[Entry.objects.get(player__name="Bob").player_id]
        )


# Numbers -----------------------------------------------------------------------------------------


def test_a_number_is_editable_before_the_start_unique_and_fixed_after(organizer):
    t = make(organizer)
    e = entry(t, "Team 1")
    services.entry_edit(entry=e, number=7, user=organizer)
    e.refresh_from_db()
    assert e.number == 7
    with pytest.raises(services.TournamentError, match=r"No\. 7 is taken by Team 1"):
        services.entry_edit(entry=entry(t, "Team 2"), number=7)
    for bad in (0, 10_000, -3):
        with pytest.raises(services.TournamentError, match="1 to 9999"):
            services.entry_edit(entry=e, number=bad)
    services.tournament_start(tournament=t)
    with pytest.raises(services.TournamentError, match="fixed once the tournament has started"):
        services.entry_edit(entry=e, number=8)
    services.entry_edit(entry=e, name="Kyma", number=7, user=organizer)  # its own number: fine
    assert Entry.objects.get(pk=e.pk).number == 7


def test_a_refused_edit_changes_nothing(organizer):
    t = make(organizer)
    e = entry(t, "Team 1")
    with pytest.raises(services.TournamentError):
        services.entry_edit(entry=e, name="Kyma", number=2, user=organizer)  # taken by Team 2
    e.refresh_from_db()
    assert e.name == "Team 1" and e.number == 1 and e.history.count() == 1


# Pages -------------------------------------------------------------------------------------------


def test_the_edit_page_saves_and_refuses_with_422(client, organizer):
    t = make(organizer)
    e = entry(t, "Team 1")
    client.force_login(organizer)
    url = reverse("tournaments:entry_edit", args=[t.slug, e.pk])
    page = text(client.get(url))
    assert 'value="Team 1"' in page and 'value="P0a"' in page and 'name="number"' in page
    refused = client.post(url, {"name": "Kyma", "player_a": "P0a", "player_b": "P0b", "number": "2"})
    assert refused.status_code == 422 and "No. 2 is taken by Team 2" in text(refused)
    assert Entry.objects.get(pk=e.pk).name == "Team 1"
    done = client.post(url, {"name": "Kyma", "player_a": "P0a", "player_b": "P0b", "number": "12"})
    assert done.status_code == 302
    e.refresh_from_db()
    assert (e.name, e.number) == ("Kyma", 12)
    manage = text(client.get(reverse("tournaments:manage", args=[t.slug])))
    assert "Kyma" in manage and url in manage
    audit = text(client.get(reverse("tournaments:audit", args=[t.slug])))
    assert "Team 1 → Kyma" in audit and "org" in audit


def test_the_edit_page_after_the_start_has_no_number(client, organizer):
    t = make(organizer)
    services.tournament_start(tournament=t)
    e = entry(t, "Team 1")
    client.force_login(organizer)
    url = reverse("tournaments:entry_edit", args=[t.slug, e.pk])
    page = text(client.get(url))
    assert 'name="number"' not in page and "fixed once the tournament has started" in page
    assert (
        client.post(url, {"name": "Kyma", "player_a": "P0a", "player_b": "P0b", "number": "9"}).status_code
        == 302
    )
    e.refresh_from_db()
    assert e.name == "Kyma" and e.number == 1


def test_someone_else_cannot_edit(client, organizer, django_user_model):
    t = make(organizer)
    client.force_login(django_user_model.objects.create_user(username="x", password="pw-x-12345"))
    url = reverse("tournaments:entry_edit", args=[t.slug, entry(t, "Team 1").pk])
    assert client.post(url, {"name": "Hacked", "player_a": "a", "player_b": "b"}).status_code == 404
    assert not Team.objects.filter(name="Hacked").exists()


def test_withdraw_asks_first_then_withdraws_with_the_reason(client, organizer):
    t = make(organizer)
    e = entry(t, "Team 1")
    client.force_login(organizer)
    manage = text(client.get(reverse("tournaments:manage", args=[t.slug])))
    url = reverse("tournaments:entry_withdraw", args=[t.slug, e.pk])
    assert url in manage
    page = text(client.get(url))
    assert "Withdraw Team 1 (No. 1)?" in page and "its results so far stay" in page
    assert Entry.objects.get(pk=e.pk).status == Entry.Status.REGISTERED  # GET changes nothing
    client.post(url, {"reason": "Ill"})
    e.refresh_from_db()
    assert e.status == Entry.Status.WITHDRAWN
    record = e.history.latest()
    assert record.history_user == organizer and record.history_change_reason == "Ill"
    manage = text(client.get(reverse("tournaments:manage", args=[t.slug])))
    assert reverse("tournaments:entry_reinstate", args=[t.slug, e.pk]) in manage


def test_reinstate_before_the_start_gives_back_the_check_in(client, organizer):
    t = make(organizer)
    e = entry(t, "Team 1")
    services.entry_set_status(entry=e, status=Entry.Status.CHECKED_IN)
    services.entry_set_status(entry=e, status=Entry.Status.WITHDRAWN)
    client.force_login(organizer)
    client.post(reverse("tournaments:entry_reinstate", args=[t.slug, e.pk]))
    e.refresh_from_db()
    assert e.status == Entry.Status.CHECKED_IN and e.withdrawn_at is None
    assert e.history.latest().history_user == organizer
    refused = text(client.post(reverse("tournaments:entry_reinstate", args=[t.slug, e.pk]), follow=True))
    assert "Team 1 has not withdrawn." in refused


def test_reinstated_team_is_paired_again_from_the_next_round(organizer):
    t = make(organizer, teams=4)
    t = services.tournament_start(tournament=t)
    e = entry(t, "Team 1")
    rnd1 = services.round_generate(tournament=t)
    services.round_start(rnd=rnd1)
    services.entry_set_status(entry=e, status=Entry.Status.WITHDRAWN, user=organizer)
    play(rnd1)
    rnd2 = services.round_generate(tournament=t)
    seated = set()
    for table in rnd2.tables.all():
        seated |= {table.entry0_id, table.entry1_id}
    assert e.pk not in seated
    services.round_start(rnd=rnd2)
    play(rnd2)
    services.entry_reinstate(entry=e, user=organizer)
    e.refresh_from_db()
    assert e.status == Entry.Status.CHECKED_IN
    rnd3 = services.round_generate(tournament=t)
    seated = set()
    for table in rnd3.tables.all():
        seated |= {table.entry0_id, table.entry1_id}
    assert e.pk in seated
    assert Round.objects.filter(tournament=t).count() == 3


def test_reinstate_is_refused_where_it_makes_no_sense(organizer):
    t = make(organizer)
    e = entry(t, "Team 1")
    with pytest.raises(services.TournamentError, match="has not withdrawn"):
        services.entry_reinstate(entry=e, user=organizer)
    services.entry_set_status(entry=e, status=Entry.Status.WITHDRAWN)
    services.entry_register(
        tournament=t,
        name="Again",
        players=["P0a", "Someone"],
        player_ids=[e.team.player_a_id, None],
        user=organizer,
    )
    with pytest.raises(services.TournamentError, match="already plays for Again"):
        services.entry_reinstate(entry=e, user=organizer)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(services.TournamentError, match="finished"):
        services.entry_reinstate(entry=Entry.objects.get(pk=e.pk), user=organizer)


def test_the_withdrawn_keep_refusing_status_changes(organizer):
    t = make(organizer)
    e = entry(t, "Team 1")
    services.entry_set_status(entry=e, status=Entry.Status.WITHDRAWN)
    with pytest.raises(services.TournamentError, match="has withdrawn"):
        services.entry_set_status(entry=e, status=Entry.Status.REGISTERED)


def test_a_renamed_team_reaches_the_screen_and_the_standings(organizer):
    from tournaments import screen

    t = make(organizer)
    t = services.tournament_start(tournament=t)
    rnd = services.round_generate(tournament=t)
    services.round_start(rnd=rnd)
    play(rnd)
    services.entry_edit(entry=entry(t, "Team 1"), name="Kyma", user=organizer)
    t.refresh_from_db()
    state = screen.screen_state(t)
    names = [n for table in state["round"]["tables"] for n in table["teams"]]
    assert "Kyma" in names
    rows = selectors.standings_get(tournament=t)["rows"]
    assert "Kyma" in [r["team"] for r in rows]

"""A result changes only by the right person, only while it is open, and never from a stale sheet.

Issue 10: a finished round's table link is read-only (the organizer still corrects, audited); undo,
correct and delete carry the sheet version the tablet saw; a player confirms for their own team,
once; a match is finished by agreement after any deal, a thrown-in one too.
"""

import uuid

import pytest
from django.urls import reverse

from players.models import Player
from scoring import engine, services
from scoring.models import Match
from tests.factories import TEAMS, made
from tournaments import services as tournaments
from tournaments.models import Round

pytestmark = pytest.mark.django_db

THROWN_IN = {"thrown_in": True}


def deal_form(card_points="90", **extra):
    return {
        "client_key": str(uuid.uuid4()),
        "maker": "0",
        "points_team": "0",
        "card_points": card_points,
        "last_trick": "0",
        **extra,
    }


def sheet_url(match):
    return reverse("scoring:match", args=[match.pk])


# Finishing by agreement after any deal ------------------------------------------------------------


def test_a_match_is_finished_by_agreement_after_a_thrown_in_last_deal(match):
    services.deal_record(match=match, deal=made(cards=(90, 62)))
    services.deal_record(match=match, deal=THROWN_IN)  # all passed just before time was called
    services.match_finish(match=match)
    match.refresh_from_db()
    assert (match.status, match.winner, match.totals) == ("finished", 0, [100, 62])
    assert match.options["ended_after"] == 2
    with pytest.raises(engine.ScoringError, match="already"):
        services.deal_record(match=match, deal=made())


def test_a_fixed_length_match_is_finished_after_a_thrown_in_deal(user):
    match = services.match_create(teams=TEAMS, options={"deals": 3}, created_by=user)
    for deal in (made(cards=(62, 90), last_trick=1, maker=1), made(cards=(100, 52)), THROWN_IN, THROWN_IN):
        services.deal_record(match=match, deal=deal)
    services.match_finish(match=match)
    match.refresh_from_db()
    # 62 + 110 v 100 + 52 after two played deals of three: team 0 leads when time is called.
    assert (match.status, match.winner, match.totals) == ("finished", 0, [172, 152])


def test_a_finished_match_equal_on_totals_is_a_draw_and_replays_the_same(match):
    services.deal_record(match=match, deal=made(cards=(90, 62)))  # 100 v 62
    services.deal_record(match=match, deal=made(maker=1, cards=(52, 100), last_trick=0))  # 62 v 100
    services.deal_record(match=match, deal=THROWN_IN)
    services.match_finish(match=match)
    match.refresh_from_db()
    assert (match.status, match.winner) == ("finished", None)
    from scoring import selectors

    again = engine.load_match(selectors.match_file(match=match)).sheet()
    assert (again.status, again.winner, again.totals) == (engine.Status.FINISHED, None, (162, 162))


def test_finishing_with_only_thrown_in_deals_is_refused(match):
    services.deal_record(match=match, deal=THROWN_IN)
    with pytest.raises(engine.ScoringError, match="no deal has been played"):
        services.match_finish(match=match)


# Stale sheets: undo, correct and delete carry the version the tablet saw --------------------------


@pytest.fixture
def tablets(client, django_user_model, match, user):
    """Two tablets keeping the same match (its creator's account on both)."""
    from django.test import Client

    other = Client()
    client.force_login(user)
    other.force_login(user)
    return client, other


def seven_deals(match):
    for _ in range(7):
        services.deal_record(match=match, deal=made(cards=(40, 112), last_trick=1, maker=1))
    match.refresh_from_db()
    return match.version


def test_undo_on_a_stale_sheet_does_not_take_back_a_deal_another_tablet_recorded(tablets, match):
    first, second = tablets
    seen = seven_deals(match)  # the first tablet shows "Take back deal 7?"
    assert f'name="version" value="{seen}"' in first.get(sheet_url(match)).text
    assert second.post(reverse("scoring:deal_create", args=[match.pk]), deal_form()).status_code == 302
    response = first.post(
        reverse("scoring:deal_undo", args=[match.pk]), {"version": seen}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "the sheet changed since you last saw it" in response.text.lower()
    assert match.deals.filter(deleted_at__isnull=True).count() == 8  # deal 8 is still there
    assert response.text.count('data-testid="deal-row"') == 8  # and the sheet shown is the current one
    match.refresh_from_db()
    current = first.post(reverse("scoring:deal_undo", args=[match.pk]), {"version": match.version})
    assert current.status_code == 302
    assert match.deals.filter(deleted_at__isnull=True).count() == 7


def test_a_correction_on_a_stale_sheet_is_refused_and_kept_as_typed(tablets, match):
    first, second = tablets
    seen = seven_deals(match)
    deal = match.deals.order_by("position").first()
    edit = reverse("scoring:deal_edit", args=[match.pk, deal.pk])
    assert f'name="version" value="{seen}"' in first.get(edit).text
    second.post(reverse("scoring:deal_create", args=[match.pk]), deal_form())
    response = first.post(edit, deal_form(card_points="77", version=seen))
    assert response.status_code == 422
    assert "the sheet changed since you last saw it" in response.text.lower()
    assert 'value="77"' in response.text  # the correction stays on the pad
    deal.refresh_from_db()
    assert deal.data["card_points"] == [40, 112]
    match.refresh_from_db()
    assert f'name="version" value="{match.version}"' in response.text  # ready to save on the new sheet
    again = first.post(edit, deal_form(card_points="77", version=match.version))
    assert again.status_code == 302
    deal.refresh_from_db()
    assert deal.data["card_points"] == [77, 75]


def test_a_delete_on_a_stale_sheet_is_refused(tablets, match):
    first, second = tablets
    seen = seven_deals(match)
    deal = match.deals.order_by("position").last()
    second.post(reverse("scoring:deal_create", args=[match.pk]), deal_form())
    response = first.post(
        reverse("scoring:deal_remove", args=[match.pk, deal.pk]), {"version": seen}, follow=True
    )
    assert "the sheet changed since you last saw it" in response.text.lower()
    deal.refresh_from_db()
    assert deal.deleted_at is None


def test_the_services_refuse_a_stale_version_and_change_nothing(match):
    seen = seven_deals(match)
    services.deal_record(match=match, deal=made())
    last = match.deals.order_by("position").last()
    for change in (
        lambda: services.deal_undo_last(match=match, expected_version=seen),
        lambda: services.deal_delete(deal=last, expected_version=seen),
        lambda: services.deal_correct(deal=last, data=THROWN_IN, expected_version=seen),
        lambda: services.match_finish(match=match, expected_version=seen),
    ):
        with pytest.raises(services.StaleSheet) as refused:
            change()
        assert refused.value.version == seen + 1
    match.refresh_from_db()
    assert (match.version, match.status) == (seen + 1, "in_progress")
    assert match.deals.filter(deleted_at__isnull=True).count() == 8


# A finished round's table link is read-only ---------------------------------------------------------


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user("organizer", password="pw-organizer-123")


def club_night(organizer, **settings):
    t = tournaments.tournament_create(
        organizer=organizer, name="Club night", swiss_rounds=2, deals_per_match=1, **settings
    )
    for name, players in [*TEAMS, ("C", ("Kostas", "Sofia")), ("D", ("Yannis", "Katerina"))]:
        tournaments.entry_register(tournament=t, name=name, players=players)
    tournaments.tournament_start(tournament=t, user=organizer)
    rnd = tournaments.round_generate(tournament=t, user=organizer)
    tournaments.round_start(rnd=rnd, user=organizer)
    return t


def open_link(client, table):
    response = client.get(reverse("tournaments:scorekeeper", args=[table.token]))
    assert response.status_code == 302
    return table.match


def test_a_table_link_writes_while_its_round_is_played_then_only_reads(client, organizer):
    t = club_night(organizer)
    first, second = t.rounds.get(number=1).tables.order_by("number")
    match = open_link(client, first)
    assert client.post(reverse("scoring:deal_create", args=[match.pk]), deal_form()).status_code == 302
    services.deal_record(match=second.match, deal=made())
    tournaments.standings_refresh(tournament_id=t.pk)
    assert t.rounds.get(number=1).status == Round.Status.FINISHED
    tournaments.round_generate(tournament=t, user=organizer)  # the next round is drawn from these results
    match.refresh_from_db()
    deal = match.deals.get()
    page = client.get(sheet_url(match)).text
    assert "Undo last deal" not in page and "only the organizer can change it now" in page
    for url, data in [
        (reverse("scoring:deal_undo", args=[match.pk]), {"version": match.version}),
        (reverse("scoring:deal_remove", args=[match.pk, deal.pk]), {"version": match.version}),
        (reverse("scoring:deal_edit", args=[match.pk, deal.pk]), deal_form(card_points="20")),
        (reverse("scoring:deal_create", args=[match.pk]), deal_form()),
    ]:
        assert client.post(url, data).status_code == 403, url
    api = client.delete(f"/api/v1/matches/{match.pk}/deals/{deal.pk}/")
    assert api.status_code in (401, 403)  # no account: DRF answers 401
    deal.refresh_from_db()
    assert deal.deleted_at is None and deal.data["card_points"] == [90, 62]

    # The organizer still corrects it; the history says who.
    client.force_login(organizer)
    edit = reverse("scoring:deal_edit", args=[match.pk, deal.pk])
    assert client.post(edit, deal_form(card_points="20", version=match.version)).status_code == 302
    deal.refresh_from_db()
    assert deal.data["card_points"] == [20, 132]
    assert deal.history.order_by("-history_date").first().history_user == organizer


def test_a_confirmed_match_is_read_only_for_its_table_while_the_round_goes_on(client, organizer):
    t = club_night(organizer, confirmation=True)
    first, _second = t.rounds.get(number=1).tables.order_by("number")
    match = open_link(client, first)
    client.post(reverse("scoring:deal_create", args=[match.pk]), deal_form())
    assert client.post(reverse("scoring:match_confirm", args=[match.pk]), {"team": "1"}).status_code == 302
    match.refresh_from_db()
    assert match.confirmed_by_team == 1
    tournaments.standings_refresh(tournament_id=t.pk)
    assert t.rounds.get(number=1).status == Round.Status.STARTED  # table 2 still plays
    response = client.post(reverse("scoring:deal_undo", args=[match.pk]), {"version": match.version})
    assert response.status_code == 403
    assert match.deals.filter(deleted_at__isnull=True).count() == 1


def test_the_link_of_a_round_not_yet_started_does_not_write(client, organizer):
    t = club_night(organizer)
    for table in t.rounds.get(number=1).tables.all():
        services.deal_record(match=table.match, deal=made())
    tournaments.standings_refresh(tournament_id=t.pk)
    rnd = tournaments.round_generate(tournament=t, user=organizer)
    assert rnd.status == Round.Status.DRAFT
    # A draft round has no matches yet; its tables wait. Once started, its links write.
    tournaments.round_start(rnd=rnd, user=organizer)
    table = rnd.tables.order_by("number").first()
    match = open_link(client, table)
    assert client.post(reverse("scoring:deal_create", args=[match.pk]), deal_form()).status_code == 302


# Confirmation: one's own team, once ---------------------------------------------------------------


@pytest.fixture
def finished(match):
    while match.status != Match.Status.FINISHED:  # capo after capo for team 0
        services.deal_record(match=match, deal=made(cards=(152, 0), last_trick=None) | {"capot": 0})
        match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


@pytest.fixture
def maria(django_user_model, finished):
    """Maria (seat 3, team 1) has an account."""
    account = django_user_model.objects.create_user("maria", password="pw-maria-12345")
    Player.objects.filter(pk=finished.seat3_id).update(user=account)
    return account


def test_a_player_confirms_only_for_their_own_team(client, finished, maria):
    client.force_login(maria)
    page = client.get(sheet_url(finished)).text
    assert "Kafeneio B confirm" in page and "Kafeneio A confirm" not in page
    response = client.post(reverse("scoring:match_confirm", args=[finished.pk]), {"team": "0"}, follow=True)
    assert "their own team only" in response.text
    finished.refresh_from_db()
    assert finished.confirmed_at is None
    client.post(reverse("scoring:match_confirm", args=[finished.pk]), {"team": "1"})
    finished.refresh_from_db()
    assert (finished.confirmed_by_team, finished.confirmed_by) == (1, maria)


def test_a_confirmed_result_is_not_confirmed_again(client, finished, maria, user):
    services.match_confirm(match=finished, team=1, user=maria)
    first_time = Match.objects.get(pk=finished.pk).confirmed_at
    with pytest.raises(engine.ScoringError, match="already confirmed"):
        services.match_confirm(match=finished, team=0, user=user)
    client.force_login(user)  # the scorekeeper's tablet
    response = client.post(reverse("scoring:match_confirm", args=[finished.pk]), {"team": "0"}, follow=True)
    assert "already confirmed" in response.text
    finished.refresh_from_db()
    assert (finished.confirmed_by_team, finished.confirmed_by, finished.confirmed_at) == (
        1,
        maria,
        first_time,
    )


def test_the_tablet_ends_a_match_after_a_thrown_in_deal(client, match, user):
    client.force_login(user)
    services.deal_record(match=match, deal=made(cards=(90, 62)))
    services.deal_record(match=match, deal=THROWN_IN)
    match.refresh_from_db()
    page = client.get(sheet_url(match)).text
    assert "End the match" in page
    stale = client.post(
        reverse("scoring:match_end", args=[match.pk]), {"version": match.version - 1}, follow=True
    )
    assert "the sheet changed since you last saw it" in stale.text.lower()
    response = client.post(
        reverse("scoring:match_end", args=[match.pk]), {"version": match.version}, follow=True
    )
    assert "The match was ended on its totals." in response.text
    match.refresh_from_db()
    assert (match.status, match.winner) == ("finished", 0)
    assert "End the match" not in client.get(sheet_url(match)).text


def test_only_a_scorekeeper_ends_a_match(client, match):
    services.deal_record(match=match, deal=made())
    assert client.post(reverse("scoring:match_end", args=[match.pk]), {}).status_code == 403
    match.refresh_from_db()
    assert match.status == "in_progress"

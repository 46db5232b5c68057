"""The other team's check of each deal, where the tournament asks for it (issue 25): bridge tablets'
"OK". A deal checked is kept so (who, when) until a correction changes it; the tablet shows the
newest deal's line with "OK" and "Correct" without holding the next deal back; the organizer's
console lists the deals not checked, table by table; a tournament that does not ask shows nothing."""

import uuid

import pytest
from django.urls import reverse

from scoring import engine
from scoring import services as scoring
from scoring.models import Deal, Match
from tournaments import selectors, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

MADE_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62: team 0 makes it
MADE_1 = {"maker": 1, "card_points": [62, 90], "last_trick": 1}
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def running(organizer, teams=4):
    t = services.tournament_create(organizer=organizer, name="Friday Concours", deals_per_match=6)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t)


def round_in_play(organizer, *, checked: bool):
    """A running tournament whose round 1 is being played, asking for deal checks or not."""
    t = running(organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    if checked:
        services.tournament_deal_check(tournament=t, on=True)
    return t, rnd, list(rnd.tables.select_related("match").order_by("number"))


def tablet(client, table):
    """The table's tablet: its link opened, its session kept."""
    assert client.get(reverse("tournaments:scorekeeper", args=[table.token])).status_code == 302
    return client


# The service -------------------------------------------------------------------------------------


def test_a_check_is_kept_with_who_and_when_and_a_second_tap_changes_nothing(organizer):
    _, _, (table, _) = round_in_play(organizer, checked=True)
    deal = scoring.deal_record(match=table.match, deal=MADE_0)
    version = Match.objects.get(pk=table.match_id).version
    checked = scoring.deal_check(deal=deal, user=organizer)
    assert checked.checked_at is not None and checked.checked_by == organizer
    again = scoring.deal_check(deal=deal)
    assert again.checked_at == checked.checked_at and again.checked_by == organizer
    assert Match.objects.get(pk=table.match_id).version == version  # the sheet did not change
    assert deal.history.first().checked_at == checked.checked_at  # the history keeps it
    assert deal.history.first().history_change_reason == "checked"


def test_a_match_that_does_not_ask_refuses_a_check(organizer):
    _, _, (table, _) = round_in_play(organizer, checked=False)
    deal = scoring.deal_record(match=table.match, deal=MADE_0)
    with pytest.raises(engine.ScoringError, match="not checked by the other team"):
        scoring.deal_check(deal=deal)
    assert Deal.objects.get(pk=deal.pk).checked_at is None


def test_a_correction_that_changes_the_deal_undoes_its_check_one_that_changes_nothing_keeps_it(organizer):
    _, _, (table, _) = round_in_play(organizer, checked=True)
    deal = scoring.deal_record(match=table.match, deal=MADE_0)
    scoring.deal_check(deal=deal)
    kept = scoring.deal_correct(deal=deal, data=MADE_0)
    assert kept.checked_at is not None
    corrected = scoring.deal_correct(deal=deal, data=MADE_1)
    assert corrected.checked_at is None and corrected.checked_by is None
    assert Deal.objects.get(pk=deal.pk).checked_at is None


def test_a_deleted_deal_is_not_checked(organizer):
    _, _, (table, _) = round_in_play(organizer, checked=True)
    deal = scoring.deal_record(match=table.match, deal=MADE_0)
    scoring.deal_delete(deal=deal)
    with pytest.raises(engine.ScoringError, match="deleted"):
        scoring.deal_check(deal=deal)


# The tournament's question ------------------------------------------------------------------------


def test_the_question_is_asked_from_a_round_in_play_on_and_every_later_round_inherits_it(organizer):
    t = running(organizer)
    first = services.round_generate(tournament=t)
    services.round_start(rnd=first)
    assert not services.deal_check_asked(t)
    assert services.tournament_deal_check(tournament=t, on=True) == 2
    assert set(Match.objects.filter(table__round=first).values_list("deal_check", flat=True)) == {True}
    assert services.deal_check_asked(t)
    for table in first.tables.all():  # round 1 played out
        while Match.objects.get(pk=table.match_id).status != Match.Status.FINISHED:
            scoring.deal_record(match=Match.objects.get(pk=table.match_id), deal=MADE_0)
    second = services.round_start(rnd=services.round_generate(tournament=t))
    assert set(Match.objects.filter(table__round=second).values_list("deal_check", flat=True)) == {True}
    services.tournament_deal_check(tournament=t, on=False)
    assert not services.deal_check_asked(t)
    assert set(Match.objects.filter(table__round=second).values_list("deal_check", flat=True)) == {False}


def test_the_console_lists_the_unchecked_deals_by_their_numbers_on_the_sheet(organizer):
    t, rnd, (one, two) = round_in_play(organizer, checked=True)
    first = scoring.deal_record(match=one.match, deal=MADE_0)
    gone = scoring.deal_record(match=one.match, deal=MADE_1)
    scoring.deal_delete(deal=gone)  # its position stays taken; the sheet numbers on
    scoring.deal_record(match=one.match, deal=MADE_1)  # deal 2 on the sheet
    scoring.deal_record(match=one.match, deal=MADE_0)  # deal 3
    scoring.deal_check(deal=first)
    checked = scoring.deal_record(match=two.match, deal=MADE_0)
    scoring.deal_check(deal=checked)
    assert selectors.unchecked_deals(tournament=t) == [
        {"round": 1, "table": one.number, "match_id": one.match_id, "deals": [2, 3]}
    ]
    assert selectors.unchecked_deals(tournament=t, rnd=rnd) == selectors.unchecked_deals(tournament=t)


def test_a_tournament_that_does_not_ask_lists_nothing(organizer):
    t, _, (one, _) = round_in_play(organizer, checked=False)
    scoring.deal_record(match=one.match, deal=MADE_0)
    assert selectors.unchecked_deals(tournament=t) == []


# The tablet ----------------------------------------------------------------------------------------


def record(client, match, deal=MADE_0):
    data = {
        "client_key": str(uuid.uuid4()),
        "maker": str(deal["maker"]),
        "points_team": "0",
        "card_points": str(deal["card_points"][0]),
        "last_trick": str(deal["last_trick"]),
        "version": str(Match.objects.get(pk=match.pk).version),
    }
    return client.post(reverse("scoring:deal_create", args=[match.pk]), data, **HTMX)


def test_after_record_the_tablet_shows_the_deals_line_with_ok_and_correct(client, organizer):
    _, _, (table, _) = round_in_play(organizer, checked=True)
    tablet(client, table)
    page = client.get(reverse("scoring:match", args=[table.match_id])).content.decode()
    assert 'id="deal-check"' in page and 'data-testid="check-ok"' not in page  # no deal yet
    assert "scoring/check.css" in page
    answer = record(client, table.match)
    assert answer.status_code == 200, answer.content.decode()[:2000]
    html = answer.content.decode()
    deal = Deal.objects.get(match=table.match)
    assert 'id="deal-check" class="deal-check" data-testid="deal-check" hx-swap-oob="true"' in html
    assert 'data-testid="check-ok"' in html
    assert reverse("scoring:deal_check", args=[table.match_id, deal.pk]) in html
    assert reverse("scoring:deal_edit", args=[table.match_id, deal.pk]) in html  # "Correct"
    assert "Deal 1: the other team checks it" in html
    # The page as it opens shows it too, until it is checked.
    assert (
        'data-testid="check-ok"'
        in client.get(reverse("scoring:match", args=[table.match_id])).content.decode()
    )


def test_the_next_deal_is_recorded_without_waiting_and_its_line_replaces_the_last(client, organizer):
    _, _, (table, _) = round_in_play(organizer, checked=True)
    tablet(client, table)
    record(client, table.match)
    html = record(client, table.match, MADE_1).content.decode()
    assert Match.objects.get(pk=table.match_id).deals.count() == 2
    assert "Deal 2: the other team checks it" in html and "Deal 1: the other team" not in html


def test_tapping_ok_records_the_check_and_says_so(client, organizer):
    _, _, (table, _) = round_in_play(organizer, checked=True)
    tablet(client, table)
    record(client, table.match)
    deal = Deal.objects.get(match=table.match)
    answer = client.post(reverse("scoring:deal_check", args=[table.match_id, deal.pk]), **HTMX)
    assert answer.status_code == 200
    assert "Deal 1 checked by the other team." in answer.content.decode()
    assert Deal.objects.get(pk=deal.pk).checked_at is not None
    page = client.get(reverse("scoring:match", args=[table.match_id])).content.decode()
    assert 'data-testid="check-ok"' not in page  # checked: the line is gone
    history = client.get(reverse("scoring:match_history", args=[table.match_id])).content.decode()
    assert "<td>checked by the other team</td>" in history and "<td>corrected</td>" not in history


def test_without_javascript_ok_goes_back_to_the_sheet(client, organizer):
    _, _, (table, _) = round_in_play(organizer, checked=True)
    tablet(client, table)
    deal = scoring.deal_record(match=table.match, deal=MADE_0)
    answer = client.post(reverse("scoring:deal_check", args=[table.match_id, deal.pk]))
    assert answer.status_code == 302 and answer["Location"] == reverse("scoring:match", args=[table.match_id])
    assert Deal.objects.get(pk=deal.pk).checked_at is not None


def test_only_the_tables_tablet_the_organizer_or_a_player_of_the_match_checks(client, organizer):
    _, _, (table, other) = round_in_play(organizer, checked=True)
    deal = scoring.deal_record(match=table.match, deal=MADE_0)
    tablet(client, other)  # another table's tablet
    assert client.post(reverse("scoring:deal_check", args=[table.match_id, deal.pk])).status_code == 403
    assert Deal.objects.get(pk=deal.pk).checked_at is None


def test_a_corrected_deal_asks_for_its_check_again(client, organizer):
    _, _, (table, _) = round_in_play(organizer, checked=True)
    tablet(client, table)
    deal = scoring.deal_record(match=table.match, deal=MADE_0)
    scoring.deal_check(deal=deal)
    scoring.deal_correct(deal=deal, data=MADE_1)
    page = client.get(reverse("scoring:match", args=[table.match_id])).content.decode()
    assert 'data-testid="check-ok"' in page


def test_a_tournament_that_does_not_ask_shows_no_check(client, organizer):
    _, _, (table, _) = round_in_play(organizer, checked=False)
    tablet(client, table)
    html = record(client, table.match).content.decode()
    assert "deal-check" not in html
    page = client.get(reverse("scoring:match", args=[table.match_id])).content.decode()
    assert "deal-check" not in page and "check.css" not in page
    deal = Deal.objects.get(match=table.match)
    assert client.post(reverse("scoring:deal_check", args=[table.match_id, deal.pk])).status_code == 403


# The organizer's console ---------------------------------------------------------------------------


def test_the_manage_page_asks_the_question_and_lists_the_deals_not_checked(client, organizer):
    t, rnd, (one, _) = round_in_play(organizer, checked=False)
    client.force_login(organizer)
    manage = reverse("tournaments:manage", args=[t.slug])
    page = client.get(manage).content.decode()
    assert 'data-testid="deal-check-on"' in page and 'data-testid="unchecked-deals"' not in page
    answer = client.post(reverse("tournaments:deal_check", args=[t.slug]), {"on": "1"})
    assert answer.status_code == 302
    assert Match.objects.get(pk=one.match_id).deal_check
    scoring.deal_record(match=Match.objects.get(pk=one.match_id), deal=MADE_0)
    page = client.get(manage).content.decode()
    assert 'data-testid="deal-check-off"' in page
    assert f"Round 1, table {one.number}: deal 1 not checked" in page
    round_page = client.get(reverse("tournaments:round", args=[t.slug, rnd.number])).content.decode()
    assert f"Round 1, table {one.number}: deal 1 not checked" in round_page
    client.logout()  # the public round page says nothing of it
    public = client.get(reverse("tournaments:round", args=[t.slug, rnd.number])).content.decode()
    assert "not checked" not in public


def test_asked_before_the_first_round_the_tournament_keeps_the_question_for_its_rounds(client, organizer):
    t = running(organizer)
    client.force_login(organizer)
    answer = client.post(reverse("tournaments:deal_check", args=[t.slug]), {"on": "1"}, follow=True)
    assert "The other team now checks each deal." in answer.content.decode()
    t.refresh_from_db()
    assert t.deal_check and services.deal_check_asked(t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    assert set(Match.objects.filter(table__round=rnd).values_list("deal_check", flat=True)) == {True}


def test_a_tournament_asks_for_checks_from_its_creation_through_the_api(organizer):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(organizer)
    made = api.post("/api/v1/tournaments/", {"name": "Checked Cup", "deal_check": True}, format="json")
    assert made.status_code == 201 and made.json()["deal_check"] is True
    t = Tournament.objects.get(slug=made.json()["slug"])
    for i in range(4):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"C{i}a", f"C{i}b"])
    services.tournament_start(tournament=t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    assert set(Match.objects.filter(table__round=rnd).values_list("deal_check", flat=True)) == {True}


def test_a_finished_tournament_is_no_longer_asked(organizer):
    t = running(organizer)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(services.TournamentError, match="finished"):
        services.tournament_deal_check(tournament=t, on=True)

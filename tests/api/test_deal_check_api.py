"""POST /api/v1/matches/{id}/deals/{deal_id}/check/: the other team's check of a deal, where the
tournament asks for it (issue 25)."""

import pytest
from rest_framework.authtoken.models import Token

from scoring import services as scoring
from scoring.models import Deal, Match
from tournaments import services

from .conftest import WIN_0, WIN_1, client_for

pytestmark = pytest.mark.django_db


def table_match(organizer, *, checked=True):
    t = services.tournament_create(organizer=organizer, name="Deal checks", deals_per_match=6)
    for i in range(4):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    t = services.tournament_start(tournament=t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    if checked:
        services.tournament_deal_check(tournament=t, on=True)
    return Match.objects.get(pk=rnd.tables.order_by("number").first().match_id)


def url(deal):
    return f"/api/v1/matches/{deal.match_id}/deals/{deal.pk}/check/"


def test_the_organizer_checks_a_deal_and_the_answer_gives_its_number_and_the_unchanged_version(organizer):
    match = table_match(organizer)
    scoring.deal_record(match=match, deal=WIN_0)
    deal = scoring.deal_record(match=Match.objects.get(pk=match.pk), deal=WIN_1)
    version = Match.objects.get(pk=match.pk).version
    response = client_for(organizer).post(url(deal))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["id"] == deal.pk and body["number"] == 2 and body["version"] == version
    assert Deal.objects.get(pk=deal.pk).checked_by == organizer
    again = client_for(organizer).post(url(deal))  # a double tap changes nothing
    assert again.status_code == 200 and again.json()["checked_at"] == body["checked_at"]


def test_a_player_of_the_match_checks_with_their_own_account(organizer, django_user_model):
    match = table_match(organizer)
    player_user = django_user_model.objects.create_user(username="seated", password="pw-seated-12345")
    player_user.token = Token.objects.create(user=player_user).key
    seat = match.seat1
    seat.user = player_user
    seat.save()
    deal = scoring.deal_record(match=match, deal=WIN_0)
    assert client_for(player_user).post(url(deal)).status_code == 200
    assert Deal.objects.get(pk=deal.pk).checked_by == player_user


def test_someone_else_is_refused_and_nothing_is_checked(organizer, scorekeeper, anon):
    match = table_match(organizer)
    deal = scoring.deal_record(match=match, deal=WIN_0)
    assert client_for(scorekeeper).post(url(deal)).status_code == 403
    assert anon.post(url(deal)).status_code in (401, 403)
    assert Deal.objects.get(pk=deal.pk).checked_at is None


def test_a_match_that_does_not_ask_answers_400(organizer):
    match = table_match(organizer, checked=False)
    deal = scoring.deal_record(match=match, deal=WIN_0)
    response = client_for(organizer).post(url(deal))
    assert response.status_code == 400
    assert "not checked by the other team" in response.content.decode()


def test_a_deleted_or_unknown_deal_is_404(organizer):
    match = table_match(organizer)
    deal = scoring.deal_record(match=match, deal=WIN_0)
    scoring.deal_delete(deal=deal)
    assert client_for(organizer).post(url(deal)).status_code == 404
    assert client_for(organizer).post(f"/api/v1/matches/{match.pk}/deals/999999/check/").status_code == 404


def test_the_schema_documents_the_check(anon):
    schema = anon.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/matches/{id}/deals/{deal_id}/check/"]
    assert set(operation) == {"post", "parameters"} or set(operation) == {"post"}
    ref = operation["post"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert ref.endswith("/DealChecked")

"""API writes that cannot quietly change a result (issue 10): If-Match on every match write, an
Idempotency-Key that cannot be reused for another deal, concurrent corrections, and the writes of a
table's tablet without an account (CSRF enforced, never a 500)."""

import threading

import pytest
from django.db import close_old_connections, connection
from django.urls import reverse
from rest_framework.test import APIClient

from scoring import services
from scoring.models import Deal, Match
from tests.api.conftest import WIN_0, WIN_1, client_for
from tests.problems import kind, problem

pytestmark = pytest.mark.django_db


def url(match, rest=""):
    return f"/api/v1/matches/{match.pk}/{rest}"


# If-Match ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("header", ['"{v}"', 'W/"{v}"', "{v}", "*"])
def test_a_deal_with_the_current_version_is_recorded(api, standalone, header):
    response = api("scorekeeper").post(
        url(standalone, "deals/"), WIN_0, format="json", HTTP_IF_MATCH=header.format(v=standalone.version)
    )
    assert response.status_code == 201, response.content
    assert response.json()["version"] == standalone.version + 1


@pytest.mark.parametrize("header", ['"{old}"', "{old}", '"seven"', "-1"])
def test_a_deal_on_an_older_version_is_refused_with_the_current_one(api, standalone, header):
    before = standalone.deals.count()
    old = standalone.version - 1
    response = api("scorekeeper").post(
        url(standalone, "deals/"), WIN_0, format="json", HTTP_IF_MATCH=header.format(old=old)
    )
    assert problem(response, 412)["version"] == standalone.version
    assert standalone.deals.count() == before


def test_correct_delete_and_finish_honour_if_match(api, standalone):
    client = api("scorekeeper")
    deal = standalone.deals.order_by("position").last()
    stale = {"HTTP_IF_MATCH": f'"{standalone.version - 1}"'}
    assert client.put(url(standalone, f"deals/{deal.pk}/"), WIN_0, format="json", **stale).status_code == 412
    assert client.delete(url(standalone, f"deals/{deal.pk}/"), **stale).status_code == 412
    assert client.post(url(standalone, "finish/"), **stale).status_code == 412
    deal.refresh_from_db()
    standalone.refresh_from_db()
    assert deal.deleted_at is None and deal.data["maker"] == 1 and standalone.status == "in_progress"

    current = {"HTTP_IF_MATCH": f'"{standalone.version}"'}
    response = client.put(url(standalone, f"deals/{deal.pk}/"), WIN_0, format="json", **current)
    assert response.status_code == 200 and response.json()["version"] == standalone.version + 1
    assert client.delete(url(standalone, f"deals/{deal.pk}/"), **current).status_code == 412  # now stale
    assert (
        client.delete(
            url(standalone, f"deals/{deal.pk}/"), HTTP_IF_MATCH=f'"{standalone.version + 1}"'
        ).status_code
        == 204
    )


def test_of_two_corrections_from_the_same_version_one_wins_and_the_other_is_told(api, standalone):
    first, second = api("scorekeeper"), api("scorekeeper")  # two tablets of the same scorekeeper
    deal = standalone.deals.order_by("position").last()
    seen = {"HTTP_IF_MATCH": f'"{standalone.version}"'}
    won = first.put(url(standalone, f"deals/{deal.pk}/"), WIN_0, format="json", **seen)
    lost = second.put(url(standalone, f"deals/{deal.pk}/"), WIN_1, format="json", **seen)
    assert (won.status_code, lost.status_code) == (200, 412)
    deal.refresh_from_db()
    assert deal.data["maker"] == 0
    assert lost.json()["version"] == won.json()["version"]


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_corrections_one_wins_the_other_is_told(scorekeeper, player_user):
    """Sent at the same moment from two threads (two connections): the match's row lock serializes
    them, and the one that comes second finds the version moved."""
    from tests.api.conftest import MATCH_DEALS
    from tests.factories import TEAMS

    match = services.match_create(teams=TEAMS, created_by=scorekeeper)
    for deal in MATCH_DEALS:
        services.deal_record(match=match, deal=deal, user=scorekeeper)
    match.refresh_from_db()
    deal = match.deals.order_by("position").last()
    start, answers = threading.Barrier(2), {}

    def correct(name, body):
        try:
            client = client_for(scorekeeper)
            start.wait(timeout=10)
            answers[name] = client.put(
                url(match, f"deals/{deal.pk}/"), body, format="json", HTTP_IF_MATCH=f'"{match.version}"'
            )
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=correct, args=(n, b)) for n, b in (("a", WIN_0), ("b", WIN_1))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    codes = sorted(answer.status_code for answer in answers.values())
    assert codes == [200, 412]
    winner = next(name for name, answer in answers.items() if answer.status_code == 200)
    deal.refresh_from_db()
    assert deal.data["maker"] == (0 if winner == "a" else 1)
    assert Match.objects.get(pk=match.pk).version == match.version + 1


# Idempotency-Key --------------------------------------------------------------------------------


def test_a_key_sent_again_with_the_same_deal_records_once(api, standalone):
    client = api("scorekeeper")
    first = client.post(url(standalone, "deals/"), WIN_0, format="json", HTTP_IDEMPOTENCY_KEY="tablet-1")
    again = client.post(url(standalone, "deals/"), WIN_0, format="json", HTTP_IDEMPOTENCY_KEY="tablet-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["deal"]["id"] == again.json()["deal"]["id"]


def test_a_key_reused_for_another_deal_is_refused_and_stores_nothing(api, standalone):
    client = api("scorekeeper")
    client.post(url(standalone, "deals/"), WIN_0, format="json", HTTP_IDEMPOTENCY_KEY="tablet-2")
    standalone.refresh_from_db()
    before = (Deal.objects.count(), standalone.version)
    response = client.post(url(standalone, "deals/"), WIN_1, format="json", HTTP_IDEMPOTENCY_KEY="tablet-2")
    body = problem(response, 409)
    assert "already used for another deal" in body["detail"]
    assert (body["type"], body["field"], body["deal"]) == (
        kind("idempotency-conflict"),
        "Idempotency-Key",
        None,
    )
    standalone.refresh_from_db()
    assert (Deal.objects.count(), standalone.version) == before


# A table's tablet without an account ------------------------------------------------------------


@pytest.fixture
def table_tablet(public_tournament):
    """A browser that opened a table's link of the running round (a session, no account)."""
    table = public_tournament.rounds.get(number=2).tables.filter(entry1__isnull=False).first()
    client = APIClient(enforce_csrf_checks=True)
    assert client.get(reverse("tournaments:scorekeeper", args=[table.token])).status_code == 302
    return client, table.match


def test_a_tablets_api_write_without_the_csrf_token_is_refused_not_a_server_error(table_tablet):
    client, match = table_tablet
    client.raise_request_exception = False
    response = client.post(url(match, "deals/"), WIN_0, format="json")
    assert "CSRF" in problem(response, 403)["detail"]
    assert match.deals.count() == 0


def test_a_tablets_api_write_with_the_csrf_token_is_recorded_for_nobody(table_tablet):
    client, match = table_tablet
    page = client.get(reverse("scoring:match", args=[match.pk]))
    assert page.status_code == 200
    token = client.cookies["csrftoken"].value
    response = client.post(url(match, "deals/"), WIN_0, format="json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 201, response.content
    deal = match.deals.get()
    assert deal.entered_by is None
    deal_id = response.json()["deal"]["id"]
    put = client.put(url(match, f"deals/{deal_id}/"), WIN_1, format="json", HTTP_X_CSRFTOKEN=token)
    assert put.status_code == 200
    assert client.delete(url(match, f"deals/{deal_id}/"), HTTP_X_CSRFTOKEN=token).status_code == 204


def test_a_tablet_without_an_account_cannot_create_or_import_a_match(table_tablet):
    client, match = table_tablet
    client.raise_request_exception = False
    client.get(reverse("scoring:match", args=[match.pk]))
    token = client.cookies["csrftoken"].value
    body = {"teams": [{"name": "A", "players": ["a1", "a2"]}, {"name": "B", "players": ["b1", "b2"]}]}
    for path in ("/api/v1/matches/", "/api/v1/matches/import/"):
        response = client.post(path, body, format="json", HTTP_X_CSRFTOKEN=token)
        assert response.status_code in (401, 403), (path, response.status_code)
    assert Match.objects.filter(team0__name="A").count() == 0


def test_a_tablet_writes_only_its_own_tables_match(table_tablet, standalone):
    client, _ = table_tablet
    client.raise_request_exception = False
    client.get(reverse("scoring:match", args=[standalone.pk]))
    token = client.cookies["csrftoken"].value
    response = client.post(url(standalone, "deals/"), WIN_0, format="json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code in (401, 403)  # no account: DRF answers 401
    assert standalone.deals.count() == 3


def test_the_schema_documents_the_refusals_with_their_bodies(anon):
    import json

    schema = json.loads(anon.get("/api/schema/", {"format": "json"}).content)
    paths = schema["paths"]
    post_deal = paths["/api/v1/matches/{id}/deals/"]["post"]["responses"]
    assert {"201", "400", "401", "403", "404", "409", "412"} <= set(post_deal)
    for path, method in [
        ("/api/v1/matches/{id}/deals/{deal_id}/", "put"),
        ("/api/v1/matches/{id}/deals/{deal_id}/", "delete"),
        ("/api/v1/matches/{id}/finish/", "post"),
    ]:
        assert {"400", "403", "404", "412"} <= set(paths[path][method]["responses"]), (path, method)
    stale = post_deal["412"]["content"]["application/problem+json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert {"detail", "version"} <= set(schema["components"]["schemas"][stale]["properties"])
    assert {"detail", "version"} <= set(schema["components"]["schemas"][stale]["required"])
    assert "429" in paths["/api/v1/token/"]["post"]["responses"]
    assert "404" in paths["/api/v1/tournaments/{slug}/"]["get"]["responses"]
    if_match = [
        p for p in paths["/api/v1/matches/{id}/finish/"]["post"]["parameters"] if p["name"] == "If-Match"
    ]
    assert if_match and if_match[0]["in"] == "header"

"""Webhooks through the API (/api/v1/webhooks/): registered by who runs the tournament or the club,
read only by them, refused for addresses that are not public, their log read and a delivery sent
again; the answers typed in the schema."""

import json
import uuid

import pytest
from rest_framework.test import APIClient

from players import tokens
from players.models import Club
from tests.api.conftest import client_for
from tests.webhooks_fakes import Receiver, fake_dns
from webhooks import services as webhooks
from webhooks.models import Delivery, Event, Subscription

pytestmark = pytest.mark.django_db

URL = "https://hooks.club.example/tsoxa"
EVENTS = ["match.finished", "standings.updated"]


@pytest.fixture(autouse=True)
def public_dns():
    """hooks.club.example is a public address, inside.club.example a private one."""
    with fake_dns({"hooks.club.example": "93.184.216.34", "inside.club.example": "192.168.1.20"}):
        yield


@pytest.fixture
def strict(settings):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = False


def create(client, **body):
    return client.post("/api/v1/webhooks/", {"url": URL, "events": EVENTS, **body}, format="json")


def test_the_organizer_registers_a_webhook_and_reads_its_secret(api, public_tournament, strict):
    client = api("organizer")
    response = create(client, tournament=public_tournament.slug)
    assert response.status_code == 201, response.content
    body = response.json()
    hook = Subscription.objects.get()
    assert body["id"] == hook.pk and body["url"] == URL
    assert body["events"] == EVENTS and body["tournament"] == public_tournament.slug and body["club"] is None
    assert body["secret"] == hook.secret and len(hook.secret) >= 40
    assert body["active"] is True and body["consecutive_failures"] == 0 and body["created_by"] == "kafeneio"
    listed = client.get("/api/v1/webhooks/").json()
    assert [row["id"] for row in listed["results"]] == [hook.pk]
    assert client.get(f"/api/v1/webhooks/{hook.pk}/").json()["secret"] == hook.secret


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hook",
        "https://10.0.0.1/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]/hook",
        "https://inside.club.example/hook",  # a name that resolves to a private address
        "http://hooks.club.example/tsoxa",  # http: only with the setting
    ],
)
def test_an_address_that_is_not_public_https_is_refused_at_registration(api, public_tournament, strict, url):
    response = create(api("organizer"), tournament=public_tournament.slug, url=url)
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == "url"
    assert not Subscription.objects.exists()


def test_the_setting_lets_a_local_receiver_be_registered(api, public_tournament, settings):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = True
    response = create(api("organizer"), tournament=public_tournament.slug, url="http://127.0.0.1:9999/x")
    assert response.status_code == 201


def test_events_are_checked(api, public_tournament):
    client = api("organizer")
    assert create(client, tournament=public_tournament.slug, events=[]).status_code == 400
    assert create(client, tournament=public_tournament.slug, events=["match.started"]).status_code == 400
    assert create(client, url=URL).status_code == 400  # neither a tournament nor a club
    both = create(client, tournament=public_tournament.slug, club="kafeneio")
    assert both.status_code == 400


def test_another_organizer_neither_reads_nor_adds(
    api, organizer, rival, public_tournament, private_tournament
):
    hook = webhooks.subscription_create(user=organizer, url=URL, events=EVENTS, tournament=public_tournament)
    other = client_for(rival)
    assert other.get("/api/v1/webhooks/").json()["results"] == []
    assert other.get(f"/api/v1/webhooks/{hook.pk}/").status_code == 404
    assert other.get(f"/api/v1/webhooks/{hook.pk}/deliveries/").status_code == 404
    assert other.patch(f"/api/v1/webhooks/{hook.pk}/", {"active": False}, format="json").status_code == 404
    assert other.post(f"/api/v1/webhooks/{hook.pk}/secret/").status_code == 404
    assert other.delete(f"/api/v1/webhooks/{hook.pk}/").status_code == 404
    assert create(other, tournament=public_tournament.slug).status_code == 403
    hidden = create(other, tournament=private_tournament.slug)  # not even seen: no such tournament
    assert hidden.status_code == 400 and hidden.json()["errors"][0]["attr"] == "tournament"
    assert Subscription.objects.count() == 1
    hook.refresh_from_db()
    assert hook.active


def test_without_credentials_or_with_a_read_token_nothing_is_shown(organizer, public_tournament):
    hook = webhooks.subscription_create(user=organizer, url=URL, events=EVENTS, tournament=public_tournament)
    assert APIClient().get("/api/v1/webhooks/").status_code == 401
    assert APIClient().get(f"/api/v1/webhooks/{hook.pk}/").status_code == 401
    for scope in ("read", "score"):
        _token, key = tokens.token_create(user=organizer, name=f"site {scope}", scope=scope)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
        assert client.get("/api/v1/webhooks/").status_code == 403, scope
    _token, key = tokens.token_create(user=organizer, name="everything", scope="full")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert client.get("/api/v1/webhooks/").json()["results"][0]["secret"] == hook.secret


def test_a_clubs_admins_register_its_webhook_and_no_one_else(api, organizer, rival):
    club = Club.objects.create(name="Kafeneio")
    club.admins.add(organizer)
    response = create(client_for(organizer), club=club.slug, events=["round.started"])
    assert response.status_code == 201 and response.json()["club"] == club.slug
    assert create(client_for(rival), club=club.slug).status_code == 403
    assert create(client_for(rival), club="no-such-club").status_code == 400
    club.admins.add(rival)  # another admin of the club manages it too
    assert [row["club"] for row in client_for(rival).get("/api/v1/webhooks/").json()["results"]] == [
        club.slug
    ]


def test_pause_resume_change_and_delete(api, organizer, public_tournament, strict):
    hook = webhooks.subscription_create(user=organizer, url=URL, events=EVENTS, tournament=public_tournament)
    client = api("organizer")
    paused = client.patch(f"/api/v1/webhooks/{hook.pk}/", {"active": False}, format="json")
    assert paused.status_code == 200 and paused.json()["active"] is False and paused.json()["paused_at"]
    changed = client.patch(
        f"/api/v1/webhooks/{hook.pk}/", {"active": True, "events": ["tournament.finished"]}, format="json"
    )
    assert changed.json()["active"] is True and changed.json()["events"] == ["tournament.finished"]
    refused = client.patch(f"/api/v1/webhooks/{hook.pk}/", {"url": "https://10.0.0.1/x"}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["attr"] == "url"
    hook.refresh_from_db()
    assert hook.url == URL
    assert client.delete(f"/api/v1/webhooks/{hook.pk}/").status_code == 204
    assert not Subscription.objects.exists()


def test_a_new_secret(api, organizer, public_tournament):
    hook = webhooks.subscription_create(user=organizer, url=URL, events=EVENTS, tournament=public_tournament)
    response = api("organizer").post(f"/api/v1/webhooks/{hook.pk}/secret/")
    assert response.status_code == 200
    assert response.json()["secret"] != hook.secret
    hook.refresh_from_db()
    assert response.json()["secret"] == hook.secret


def test_the_log_and_a_redelivery(
    api, organizer, public_tournament, settings, django_capture_on_commit_callbacks
):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = True
    receiver = Receiver()
    try:
        hook = webhooks.subscription_create(
            user=organizer, url=receiver.url, events=[Event.STANDINGS_UPDATED], tournament=public_tournament
        )
        with django_capture_on_commit_callbacks(execute=True):
            webhooks.event_queue(
                event=Event.STANDINGS_UPDATED,
                tournament=public_tournament,
                data=lambda: {"version": 3, "links": {}},
            )
        client = api("organizer")
        log = client.get(f"/api/v1/webhooks/{hook.pk}/deliveries/").json()
        assert log["count"] == 1
        row = log["results"][0]
        assert row["status"] == "delivered" and row["attempts"] == 1
        assert row["payload"]["type"] == "standings.updated" and row["payload"]["data"]["version"] == 3
        assert row["payload"]["id"] == row["id"]
        assert [(a["number"], a["ok"], a["status_code"]) for a in row["log"]] == [(1, True, 200)]
        with django_capture_on_commit_callbacks(execute=True):
            again = client.post(f"/api/v1/webhooks/{hook.pk}/deliveries/{row['id']}/redeliver/")
        assert again.status_code == 202 and again.json()["status"] == "pending"
        assert len(receiver.requests) == 2 and receiver.requests[1]["body"] == receiver.requests[0]["body"]
        row = client.get(f"/api/v1/webhooks/{hook.pk}/deliveries/").json()["results"][0]
        assert row["status"] == "delivered" and [a["manual"] for a in row["log"]] == [False, True]
    finally:
        receiver.stop()
    missing = client.post(f"/api/v1/webhooks/{hook.pk}/deliveries/{uuid.uuid4()}/redeliver/")
    assert missing.status_code == 404


def test_a_delivery_still_being_sent_is_not_sent_again(api, organizer, public_tournament):
    hook = webhooks.subscription_create(user=organizer, url=URL, events=EVENTS, tournament=public_tournament)
    delivery = Delivery.objects.create(subscription=hook, event="standings.updated", body="{}")
    response = api("organizer").post(f"/api/v1/webhooks/{hook.pk}/deliveries/{delivery.pk}/redeliver/")
    assert response.status_code == 400
    assert "still being sent" in response.json()["detail"]


def test_the_schema_types_every_webhook_answer(anon):
    schema = json.loads(anon.get("/api/schema/", {"format": "json"}).content)
    paths = schema["paths"]
    assert {
        "/api/v1/webhooks/",
        "/api/v1/webhooks/{id}/",
        "/api/v1/webhooks/{id}/secret/",
        "/api/v1/webhooks/{id}/deliveries/",
        "/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver/",
    } <= set(paths)
    components = schema["components"]["schemas"]

    def ref(path, method, code):
        return paths[path][method]["responses"][code]["content"]["application/json"]["schema"]["$ref"]

    assert ref("/api/v1/webhooks/", "post", "201").endswith("/Webhook")
    assert ref("/api/v1/webhooks/{id}/deliveries/", "get", "200").endswith("/PaginatedWebhookDeliveryList")
    assert ref("/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver/", "post", "202").endswith(
        "/WebhookDelivery"
    )
    assert {"id", "url", "events", "secret", "active", "consecutive_failures"} <= set(
        components["Webhook"]["properties"]
    )
    assert components["WebhookDelivery"]["properties"]["payload"]["allOf"][0]["$ref"].endswith(
        "/WebhookPayload"
    )
    payload = components["WebhookPayload"]["properties"]
    assert {"id", "type", "created", "tournament", "data"} <= set(payload)
    data = components["WebhookPayloadData"]["properties"]
    assert {"round", "table", "entries", "match", "version", "finished_at", "links"} <= set(data)
    assert {"standings", "ranking"} <= set(components["WebhookPayloadLinks"]["required"])
    assert set(components["WebhookEventEnum"]["enum"]) == set(Event.values)


def test_a_tournament_has_at_most_the_settings_number_of_webhooks(
    api, organizer, public_tournament, private_tournament, settings
):
    settings.TSOXA_WEBHOOKS_PER_OWNER = 2
    client = api("organizer")
    first, second = (create(client, tournament=public_tournament.slug) for _ in range(2))
    assert first.status_code == second.status_code == 201
    client.patch(f"/api/v1/webhooks/{first.json()['id']}/", {"active": False}, format="json")
    refused = create(client, tournament=public_tournament.slug)  # a paused one counts too
    assert refused.status_code == 400
    error = refused.json()["errors"][0]
    assert error["attr"] == "tournament"
    assert error["detail"] == "A tournament has 2 webhooks at most: delete one before adding another."
    assert Subscription.objects.filter(tournament=public_tournament).count() == 2
    assert create(client, tournament=private_tournament.slug).status_code == 201  # another one's own
    assert client.delete(f"/api/v1/webhooks/{first.json()['id']}/").status_code == 204
    assert create(client, tournament=public_tournament.slug).status_code == 201  # room again


def test_a_club_has_at_most_the_settings_number_of_webhooks(organizer, settings):
    settings.TSOXA_WEBHOOKS_PER_OWNER = 1
    club = Club.objects.create(name="Kafeneio")
    club.admins.add(organizer)
    client = client_for(organizer)
    assert create(client, club=club.slug).status_code == 201
    refused = create(client, club=club.slug)
    assert refused.status_code == 400
    error = refused.json()["errors"][0]
    assert error["attr"] == "club"
    assert error["detail"] == "A club has 1 webhook at most: delete one before adding another."
    assert Subscription.objects.filter(club=club).count() == 1


def test_the_cap_is_twenty_by_default():
    from config.settings import base

    assert base.TSOXA_WEBHOOKS_PER_OWNER == 20


def test_no_answer_holding_a_secret_is_kept_by_a_cache(api, public_tournament):
    client = api("organizer")
    created = create(client, tournament=public_tournament.slug)
    pk = created.json()["id"]
    answers = {
        "create": created,
        "rotate": client.post(f"/api/v1/webhooks/{pk}/secret/"),
        "read": client.get(f"/api/v1/webhooks/{pk}/"),
        "list": client.get("/api/v1/webhooks/"),
        "change": client.patch(f"/api/v1/webhooks/{pk}/", {"active": False}, format="json"),
    }
    for name, response in answers.items():
        assert response.status_code in (200, 201), name
        assert "secret" in json.dumps(response.json()), name
        assert "no-store" in response["Cache-Control"], name
        assert "private" in response["Cache-Control"], name

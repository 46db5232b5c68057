"""Webhooks end to end, against a local test receiver (an HTTP server on 127.0.0.1 in a thread, the
setting that allows private addresses on): each event delivered once, signed, with its payload;
retries, the delivery log, redelivery, pausing; the address guard at delivery time.

Celery runs eagerly here (no broker): a delivery is sent once the change commits, and a retry is
made at once (Celery's eager mode runs a retry straight away, whatever its countdown): nothing
sleeps.
"""

from __future__ import annotations

import json
import socket
import time
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from players.models import Club
from scoring import services as scoring
from tests.webhooks_fakes import Receiver
from tournaments import services
from tournaments.models import StandingsSnapshot
from webhooks import guard, signing
from webhooks import services as webhooks
from webhooks.models import Attempt, Delivery, Event, Subscription
from webhooks.tasks import delivery_send

pytestmark = pytest.mark.django_db(transaction=True)

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62: team 0 wins the deal
ALL = list(Event.values)


@pytest.fixture
def allow_private(settings):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = True
    settings.TSOXA_SITE_URL = "https://tsoxa.example.org"


@pytest.fixture
def receiver(allow_private):
    server = Receiver()
    yield server
    server.stop()


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def running(organizer, *, teams=4, rounds=2, **settings):
    t = services.tournament_create(
        organizer=organizer, name="Friday night", deals_per_match=1, swiss_rounds=rounds, **settings
    )
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t, user=organizer)


def next_round(tournament, user):
    rnd = services.round_generate(tournament=tournament, user=user)
    return services.round_start(rnd=rnd, user=user)


def play(rnd, user, tables=None):
    """One deal (team 0 wins it) at each table of the round (or the first ``tables``): each match
    then finishes (one deal a match)."""
    found = [t for t in rnd.tables.select_related("match").order_by("number") if t.match is not None]
    for table in found[:tables]:
        scoring.deal_record(match=table.match, deal=WIN_0, user=user)


def play_table(rnd, user, number):
    table = rnd.tables.select_related("match").get(number=number)
    scoring.deal_record(match=table.match, deal=WIN_0, user=user)


def subscribe(organizer, tournament, url, events=ALL):
    return webhooks.subscription_create(user=organizer, url=url, events=events, tournament=tournament)


def verified(request, secret) -> bool:
    return signing.verify(secret, request["headers"]["Tsoxa-Signature"], request["body"])


# Each event, once, signed, with its payload ------------------------------------------------------


def test_a_round_started_is_delivered_once_signed_with_its_round(organizer, receiver):
    t = running(organizer)
    hook = subscribe(organizer, t, receiver.url, [Event.ROUND_STARTED])
    rnd = next_round(t, organizer)
    assert receiver.events() == ["round.started"]
    request = receiver.requests[0]
    assert request["path"] == "/hooks/tsoxa"
    assert request["headers"]["Content-Type"] == "application/json"
    assert verified(request, hook.secret)
    assert not verified(request, "another secret")
    body = json.loads(request["body"])
    delivery = Delivery.objects.get(subscription=hook)
    assert request["headers"]["Tsoxa-Delivery"] == body["id"] == str(delivery.pk)
    assert body["type"] == "round.started"
    assert body["tournament"] == {
        "slug": t.slug,
        "name": "Friday night",
        "url": f"https://tsoxa.example.org/tournaments/{t.slug}/",
    }
    assert body["data"]["round"] == {"number": rnd.number, "kind": "swiss", "status": "started"}
    assert (
        body["data"]["links"]["round"] == f"https://tsoxa.example.org/api/v1/tournaments/{t.slug}/rounds/1/"
    )
    assert (
        body["data"]["links"]["standings"]
        == f"https://tsoxa.example.org/api/v1/tournaments/{t.slug}/standings/"
    )
    assert delivery.status == Delivery.Status.DELIVERED and delivery.attempts == 1
    attempt = delivery.log.get()
    assert (attempt.number, attempt.ok, attempt.status_code, attempt.response) == (1, True, 200, "thanks")
    assert attempt.duration_ms is not None and attempt.error == ""


def test_a_match_finished_is_delivered_once_with_its_table_teams_totals_and_winner(organizer, receiver):
    t = running(organizer)
    rnd = next_round(t, organizer)
    hook = subscribe(organizer, t, receiver.url, [Event.MATCH_FINISHED])
    table = rnd.tables.select_related("match").order_by("number").first()
    scoring.deal_record(match=table.match, deal=WIN_0, user=organizer)
    assert receiver.events() == ["match.finished"]
    assert verified(receiver.requests[0], hook.secret)
    data = receiver.bodies()[0]["data"]
    match = table.match
    match.refresh_from_db()
    assert data["round"] == {"number": 1, "kind": "swiss", "status": "started"} and data["table"] == 1
    assert data["entries"] == [table.entry0_id, table.entry1_id]
    assert data["match"]["id"] == match.pk
    assert data["match"]["totals"] == match.totals == [100, 62]
    assert data["match"]["winner"] == 0
    assert [team["name"] for team in data["match"]["teams"]] == [match.team0.name, match.team1.name]
    assert data["match"]["teams"][0]["players"] == [match.team0.player_a.name, match.team0.player_b.name]
    assert data["links"]["sheet"] == f"https://tsoxa.example.org/api/v1/matches/{match.pk}/sheet/"
    # A finished match corrected is no new finish.
    deal = match.deals.get()
    scoring.deal_correct(
        deal=deal, data={"maker": 1, "card_points": [62, 90], "last_trick": 1}, user=organizer
    )
    assert receiver.events() == ["match.finished"]


def test_the_standings_updated_carries_links_not_rows_once_per_recomputation(organizer, receiver):
    t = running(organizer)
    rnd = next_round(t, organizer)
    hook = subscribe(organizer, t, receiver.url, [Event.STANDINGS_UPDATED])
    play(rnd, organizer, tables=1)
    assert receiver.events() == ["standings.updated"]
    body = receiver.bodies()[0]
    assert verified(receiver.requests[0], hook.secret)
    assert set(body["data"]) == {"version", "links"}
    assert body["data"]["version"] == StandingsSnapshot.objects.get(tournament=t).version
    assert body["data"]["links"] == {
        "standings": f"https://tsoxa.example.org/api/v1/tournaments/{t.slug}/standings/",
        "ranking": f"https://tsoxa.example.org/api/v1/tournaments/{t.slug}/ranking/",
    }


def test_a_tournament_finished_by_its_last_result_is_delivered_once(organizer, receiver):
    t = running(organizer, rounds=1)
    rnd = next_round(t, organizer)
    hook = subscribe(organizer, t, receiver.url, [Event.ROUND_FINISHED, Event.TOURNAMENT_FINISHED])
    play_table(rnd, organizer, 1)
    assert receiver.events() == []  # one table still playing
    play_table(rnd, organizer, 2)
    assert receiver.events() == ["round.finished", "tournament.finished"]
    assert all(verified(r, hook.secret) for r in receiver.requests)
    finished = receiver.bodies("tournament.finished")[0]["data"]
    t.refresh_from_db()
    assert finished["early"] is False and finished["finished_at"] == t.finished_at.isoformat()
    assert finished["links"]["ranking"].endswith(f"/api/v1/tournaments/{t.slug}/ranking/")
    assert receiver.bodies("round.finished")[0]["data"]["round"]["status"] == "finished"


def test_an_early_finish_tells_the_round_and_the_tournament_with_the_reason(organizer, receiver):
    t = running(organizer, rounds=3)
    next_round(t, organizer)
    subscribe(organizer, t, receiver.url, [Event.ROUND_FINISHED, Event.TOURNAMENT_FINISHED])
    services.tournament_finish(tournament=t, reason="The café closes", in_play="left_out", user=organizer)
    assert receiver.events() == ["round.finished", "tournament.finished"]
    data = receiver.bodies("tournament.finished")[0]["data"]
    assert data["early"] is True and data["reason"] == "The café closes"


def test_only_the_events_asked_for_go_and_a_paused_webhook_gets_none(organizer, receiver):
    t = running(organizer)
    hook = subscribe(organizer, t, receiver.url, [Event.MATCH_FINISHED])
    rnd = next_round(t, organizer)  # round.started, standings.updated: not asked for
    assert receiver.requests == []
    webhooks.subscription_pause(subscription=hook)
    play(rnd, organizer, tables=1)
    assert receiver.requests == [] and not Delivery.objects.exists()


def test_a_clubs_webhook_hears_its_public_tournaments_not_a_private_one(organizer, receiver):
    club = Club.objects.create(name="Kafeneio")
    club.admins.add(organizer)
    public = running(organizer, club=club)
    hidden = running(organizer, club=club, public=False)
    other = running(organizer)
    webhooks.subscription_create(user=organizer, url=receiver.url, events=[Event.ROUND_STARTED], club=club)
    for t in (public, hidden, other):
        next_round(t, organizer)
    assert [b["tournament"]["slug"] for b in receiver.bodies()] == [public.slug]


def test_an_event_nobody_listens_to_costs_no_query(organizer, receiver):
    t = running(organizer)
    listened = running(organizer)
    subscribe(organizer, listened, receiver.url)
    services.standings_refresh(tournament_id=t.pk)  # the cache of who listens is filled
    with CaptureQueriesContext(connection) as queries:
        services.standings_refresh(tournament_id=t.pk)
    assert not any("webhooks_" in q["sql"] for q in queries.captured_queries)
    services.standings_refresh(tournament_id=listened.pk)
    assert receiver.events() == ["standings.updated"]


# Retries, the log, redelivery, pausing -----------------------------------------------------------


def test_a_failed_attempt_is_retried_and_both_are_in_the_log(organizer, receiver):
    receiver.answers = [500]
    t = running(organizer)
    hook = subscribe(organizer, t, receiver.url, [Event.ROUND_STARTED])
    next_round(t, organizer)
    assert receiver.events() == ["round.started", "round.started"]
    first, second = receiver.requests
    assert first["body"] == second["body"]  # the same payload, signed each time
    assert verified(first, hook.secret) and verified(second, hook.secret)
    delivery = Delivery.objects.get()
    assert delivery.status == Delivery.Status.DELIVERED and delivery.attempts == 2
    assert [(a.number, a.ok, a.status_code, a.response) for a in delivery.log.all()] == [
        (1, False, 500, "not now"),
        (2, True, 200, "thanks"),
    ]
    hook.refresh_from_db()
    assert hook.consecutive_failures == 0 and hook.active


def test_the_retry_asks_celery_for_the_schedules_wait(organizer, receiver):
    """Through a broker the retry waits: the task asks Celery to run it again ``retry_delay`` later,
    with the next attempt's number."""
    receiver.answers = [503]
    t = running(organizer)
    subscribe(organizer, t, receiver.url, [Event.ROUND_STARTED])
    with mock.patch("webhooks.services.delivery_queue"):  # queued, not sent: this test sends it
        next_round(t, organizer)
    delivery = Delivery.objects.get()
    with (
        mock.patch.object(delivery_send, "retry", side_effect=RuntimeError("retry")) as retry,
        pytest.raises(RuntimeError),
    ):
        delivery_send.run(str(delivery.pk), 1)
    retry.assert_called_once_with(args=(str(delivery.pk), 2), kwargs={"manual": False}, countdown=60)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.PENDING and delivery.next_attempt_at is not None


def test_an_attempt_is_made_once_however_often_its_task_runs(organizer, receiver):
    t = running(organizer)
    subscribe(organizer, t, receiver.url, [Event.ROUND_STARTED])
    next_round(t, organizer)
    delivery = Delivery.objects.get()
    assert len(receiver.requests) == 1
    delivery_send.apply(args=(str(delivery.pk), 1))  # the broker gave the task again
    delivery_send.apply(args=(str(delivery.pk), 2))  # a retry of a delivered one
    assert len(receiver.requests) == 1 and Attempt.objects.count() == 1


def test_every_attempt_failing_fails_the_delivery_after_the_last(organizer, receiver):
    receiver.answers = [500] * webhooks.ATTEMPTS
    t = running(organizer)
    hook = subscribe(organizer, t, receiver.url, [Event.ROUND_STARTED])
    next_round(t, organizer)
    delivery = Delivery.objects.get()
    assert len(receiver.requests) == webhooks.ATTEMPTS == 6
    assert delivery.status == Delivery.Status.FAILED and delivery.attempts == 6
    hook.refresh_from_db()
    assert hook.consecutive_failures == 1 and hook.active


def test_the_owner_redelivers_one_delivery_the_same_body_signed_anew(organizer, receiver):
    t = running(organizer)
    hook = subscribe(organizer, t, receiver.url, [Event.ROUND_STARTED])
    next_round(t, organizer)
    delivery = Delivery.objects.get()
    with mock.patch("webhooks.signing.time.time", return_value=time.time() + 60):
        webhooks.delivery_redeliver(delivery=delivery)
    first, again = receiver.requests
    assert again["body"] == first["body"]
    assert again["headers"]["Tsoxa-Delivery"] == str(delivery.pk)
    assert again["headers"]["Tsoxa-Signature"] != first["headers"]["Tsoxa-Signature"]  # a new timestamp
    assert verified(again, hook.secret)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.DELIVERED and delivery.attempts == 2
    assert [a.manual for a in delivery.log.all()] == [False, True]


def test_a_delivery_being_sent_is_not_redelivered(organizer, receiver):
    t = running(organizer)
    subscribe(organizer, t, receiver.url, [Event.ROUND_STARTED])
    with mock.patch("webhooks.services.delivery_queue"):
        next_round(t, organizer)
    with pytest.raises(webhooks.WebhookError):
        webhooks.delivery_redeliver(delivery=Delivery.objects.get())


def test_the_webhook_is_paused_after_n_failed_deliveries_and_resumed_by_its_owner(
    organizer, receiver, settings
):
    settings.TSOXA_WEBHOOKS_PAUSE_AFTER = 2
    receiver.answers = [500] * (2 * webhooks.ATTEMPTS)
    t = running(organizer, rounds=4)
    hook = subscribe(organizer, t, receiver.url, [Event.ROUND_STARTED])
    for _ in range(2):
        play(next_round(t, organizer), organizer)
    hook.refresh_from_db()
    assert not hook.active and hook.consecutive_failures == 2
    assert hook.paused_reason == "HTTP 500" and hook.paused_at is not None
    assert len(receiver.requests) == 2 * webhooks.ATTEMPTS
    play(next_round(t, organizer), organizer)  # paused: nothing queued, nothing sent
    assert Delivery.objects.count() == 2 and len(receiver.requests) == 2 * webhooks.ATTEMPTS
    # The owner tries one delivery again (the receiver mended), then resumes the webhook.
    webhooks.delivery_redeliver(delivery=Delivery.objects.order_by("created_at").last())
    assert Delivery.objects.order_by("created_at").last().status == Delivery.Status.DELIVERED
    hook.refresh_from_db()
    assert not hook.active
    webhooks.subscription_resume(subscription=hook)
    hook.refresh_from_db()
    assert hook.active and hook.consecutive_failures == 0 and hook.paused_reason == ""
    next_round(t, organizer)
    assert receiver.events()[-1] == "round.started" and Delivery.objects.count() == 3


# The address guard at delivery time --------------------------------------------------------------


def fake_dns(answers: dict[str, str]):
    """getaddrinfo that knows these names (and counts its lookups); anything else as usual."""
    real = socket.getaddrinfo
    lookups = []

    def getaddrinfo(host, port, *args, **kwargs):
        if host in answers:
            lookups.append(host)
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers[host], port))]
        return real(host, port, *args, **kwargs)

    getaddrinfo.lookups = lookups
    return getaddrinfo


def test_a_delivery_to_an_address_that_became_private_is_refused_and_logged(organizer, receiver, settings):
    """Registered while the setting allowed it; switched off by the delivery: the guard, not the
    connection, stops it (over http too: only https is left without the setting)."""
    t = running(organizer)
    hook = subscribe(organizer, t, f"https://127.0.0.1:{receiver.port}/x", [Event.ROUND_STARTED])
    plain = subscribe(organizer, t, receiver.url, [Event.ROUND_STARTED])
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = False
    with mock.patch("webhooks.services.retry_delay", return_value=None):  # one attempt is enough here
        next_round(t, organizer)
    assert receiver.requests == []
    attempt = Delivery.objects.get(subscription=hook).log.get()
    assert attempt.ok is False and attempt.status_code is None
    assert "127.0.0.1" in attempt.error and "public addresses" in attempt.error
    assert "https://" in Delivery.objects.get(subscription=plain).log.get().error


def test_a_name_rebound_to_a_private_address_at_delivery_is_refused(organizer, receiver, settings):
    """Registered while the name led to a public address; by the delivery it leads inside."""
    t = running(organizer)
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = False
    with mock.patch("socket.getaddrinfo", fake_dns({"hooks.club.example": "93.184.216.34"})):
        hook = subscribe(organizer, t, f"https://hooks.club.example:{receiver.port}/x", [Event.ROUND_STARTED])
    with (
        mock.patch("socket.getaddrinfo", fake_dns({"hooks.club.example": "10.0.0.1"})),
        mock.patch("webhooks.services.retry_delay", return_value=None),
    ):
        next_round(t, organizer)
    attempt = Delivery.objects.get(subscription=hook).log.get()
    assert attempt.ok is False and "10.0.0.1" in attempt.error
    assert receiver.requests == []


def test_the_delivery_connects_to_the_address_checked_with_the_name_as_host(organizer, receiver):
    """One lookup per attempt, and the connection goes to the address it gave: a name the system
    resolver does not know reaches the receiver through the checked address alone."""
    t = running(organizer)
    url = f"http://hooks.club.example:{receiver.port}/hooks/tsoxa"
    with mock.patch("socket.getaddrinfo", fake_dns({"hooks.club.example": "127.0.0.1"})):
        subscribe(organizer, t, url, [Event.ROUND_STARTED])
    dns = fake_dns({"hooks.club.example": "127.0.0.1"})
    with mock.patch("socket.getaddrinfo", dns):
        next_round(t, organizer)
    assert dns.lookups == ["hooks.club.example"]
    assert receiver.requests[0]["headers"]["Host"] == f"hooks.club.example:{receiver.port}"
    assert Delivery.objects.get().status == Delivery.Status.DELIVERED


def test_a_redirect_is_not_followed(organizer, receiver):
    receiver.answers = [302] * webhooks.ATTEMPTS
    t = running(organizer)
    subscribe(organizer, t, receiver.url, [Event.ROUND_STARTED])
    next_round(t, organizer)
    delivery = Delivery.objects.get()
    assert delivery.status == Delivery.Status.FAILED
    assert {a.status_code for a in delivery.log.all()} == {302}


def test_the_guard_refuses_a_private_address_at_registration(organizer, settings):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = False
    t = running(organizer)
    for url in (
        "https://127.0.0.1/x",
        "https://10.0.0.1/x",
        "https://169.254.169.254/latest",
        "https://[::1]/x",
    ):
        with pytest.raises(webhooks.WebhookError) as refused:
            subscribe(organizer, t, url)
        assert refused.value.field == "url"
    assert not Subscription.objects.exists()
    with pytest.raises(guard.Refused):
        guard.check("http://93.184.216.34/x")  # http: only with the setting

"""Webhooks sent by a real Celery worker, after the commit, to a local receiver: a round of a
tournament played to its end gives each event once, signed with the subscription's secret."""

import json

import pytest

from scoring import services as scoring
from tests.webhooks_fakes import Receiver
from tests.worker.test_standings_through_worker import wait_for
from tournaments import services
from webhooks import services as webhooks
from webhooks import signing
from webhooks.models import Delivery, Event

pytestmark = pytest.mark.worker

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


def test_a_tournament_played_to_its_end_is_told_to_the_receiver_by_the_worker(
    worker, django_user_model, settings
):
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = True  # this process registers the local receiver
    receiver = Receiver()
    try:
        organizer = django_user_model.objects.create_user(username="org", password="pw-org-12345")
        tournament = services.tournament_create(
            organizer=organizer, name="Hooked night", swiss_rounds=1, deals_per_match=1
        )
        for i in range(4):
            services.entry_register(tournament=tournament, name=f"T{i}", players=[f"A{i}", f"B{i}"])
        subscription = webhooks.subscription_create(
            user=organizer, url=receiver.url, events=list(Event.values), tournament=tournament
        )
        services.tournament_start(tournament=tournament)
        rnd = services.round_generate(tournament=tournament)
        services.round_start(rnd=rnd)
        for table in rnd.tables.select_related("match"):
            scoring.deal_record(match=table.match, deal=WIN_0)

        wait_for(lambda: "tournament.finished" in receiver.events())
        wait_for(lambda: not Delivery.objects.filter(status=Delivery.Status.PENDING).exists())
    finally:
        receiver.stop()

    events = receiver.events()
    assert events.count("round.started") == 1
    assert events.count("match.finished") == 2
    assert events.count("round.finished") == 1
    assert events.count("tournament.finished") == 1
    assert events.count("standings.updated") >= 1
    for request in receiver.requests:
        headers = request["headers"]
        assert signing.verify(subscription.secret, headers["Tsoxa-Signature"], request["body"])
        body = json.loads(request["body"])
        assert body["type"] == headers["Tsoxa-Event"] and body["id"] == headers["Tsoxa-Delivery"]
        assert body["tournament"]["slug"] == tournament.slug
    assert set(Delivery.objects.values_list("status", flat=True)) == {Delivery.Status.DELIVERED}

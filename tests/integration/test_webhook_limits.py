"""The webhooks' limits outside one attempt: how many webhooks a tournament or a club may have (the
service, the pages), the secret's page kept by no cache, and the deliveries' own Celery queue."""

from __future__ import annotations

import pytest
from django.urls import reverse

from players.models import Club
from tests.webhooks_fakes import fake_dns
from tournaments import services
from webhooks import services as webhooks
from webhooks.models import Subscription

pytestmark = pytest.mark.django_db

URL = "https://hooks.club.example/tsoxa"


@pytest.fixture(autouse=True)
def public_dns():
    with fake_dns({"hooks.club.example": "93.184.216.34"}):
        yield


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


@pytest.fixture
def tournament(organizer):
    return services.tournament_create(organizer=organizer, name="Friday night")


@pytest.fixture
def club(organizer):
    club = Club.objects.create(name="Kafeneio")
    club.admins.add(organizer)
    return club


def add(organizer, **owner):
    return webhooks.subscription_create(user=organizer, url=URL, events=["round.started"], **owner)


# How many ----------------------------------------------------------------------------------------


def test_a_tournament_takes_the_settings_number_of_webhooks_and_no_more(organizer, tournament, settings):
    settings.TSOXA_WEBHOOKS_PER_OWNER = 3
    hooks = [add(organizer, tournament=tournament) for _ in range(3)]
    webhooks.subscription_pause(subscription=hooks[0])
    with pytest.raises(webhooks.WebhookError) as refused:
        add(organizer, tournament=tournament)
    assert refused.value.field == "tournament"
    assert refused.value.message == "A tournament has 3 webhooks at most: delete one before adding another."
    other = services.tournament_create(organizer=organizer, name="Saturday night")
    add(organizer, tournament=other)  # each tournament its own count
    webhooks.subscription_delete(subscription=hooks[1])
    add(organizer, tournament=tournament)
    assert Subscription.objects.filter(tournament=tournament).count() == 3


def test_a_club_takes_the_settings_number_of_webhooks_and_no_more(organizer, club, tournament, settings):
    settings.TSOXA_WEBHOOKS_PER_OWNER = 2
    add(organizer, club=club)
    add(organizer, club=club)
    with pytest.raises(webhooks.WebhookError, match="A club has 2 webhooks at most") as refused:
        add(organizer, club=club)
    assert refused.value.field == "club"
    add(organizer, tournament=tournament)  # a tournament's are counted apart
    assert Subscription.objects.filter(club=club).count() == 2


def test_the_count_is_never_below_one(organizer, tournament, settings):
    settings.TSOXA_WEBHOOKS_PER_OWNER = 0
    add(organizer, tournament=tournament)
    with pytest.raises(webhooks.WebhookError, match="A tournament has 1 webhook at most"):
        add(organizer, tournament=tournament)


@pytest.mark.parametrize("kind", ["tournament", "club"])
def test_the_page_refuses_one_more_with_the_reason_and_saves_nothing(
    client, organizer, tournament, club, settings, kind
):
    settings.TSOXA_WEBHOOKS_PER_OWNER = 1
    owner = {"tournament": tournament, "club": club}[kind]
    add(organizer, **{kind: owner})
    client.force_login(organizer)
    response = client.post(
        reverse(f"webhooks:{kind}", args=[owner.slug]), {"url": URL, "events": ["round.finished"]}
    )
    assert response.status_code == 422
    text = response.content.decode()
    reason = f"A {kind} has 1 webhook at most: delete one before adding another."
    assert reason in text and 'role="alert"' in text
    assert Subscription.objects.filter(**{kind: owner}).count() == 1


# The secret's page ---------------------------------------------------------------------------------


def test_the_page_showing_the_secret_is_kept_by_no_cache(client, organizer, tournament):
    client.force_login(organizer)
    added = client.post(
        reverse("webhooks:tournament", args=[tournament.slug]), {"url": URL, "events": ["round.started"]}
    )
    hook = Subscription.objects.get()
    page = client.get(added["Location"])
    assert hook.secret in page.content.decode()
    assert "no-store" in page["Cache-Control"] and "private" in page["Cache-Control"]
    rotated = client.post(reverse("webhooks:detail", args=[hook.pk]), {"action": "rotate"}, follow=True)
    hook.refresh_from_db()
    assert hook.secret in rotated.content.decode()
    assert "no-store" in rotated["Cache-Control"]
    assert "no-store" in client.head(reverse("webhooks:detail", args=[hook.pk]))["Cache-Control"]


# Their own queue ---------------------------------------------------------------------------------


def route(task: str) -> str:
    from config.celery import app

    return app.amqp.router.route({}, task)["queue"].name


def test_deliveries_go_to_the_webhooks_queue_and_the_standings_stay_on_the_default_one():
    from tournaments import tasks as standings
    from webhooks import tasks

    assert route(tasks.delivery_send.name) == "webhooks"
    assert route(tasks.deliveries_catch_up.name) == "webhooks"
    assert route(standings.standings_recompute.name) == "celery"


def test_compose_runs_a_worker_for_each_queue():
    from pathlib import Path

    import yaml

    compose = yaml.safe_load((Path(__file__).resolve().parents[2] / "docker-compose.yml").read_text())
    commands = {name: service.get("command", "") for name, service in compose["services"].items()}
    workers = {name: c for name, c in commands.items() if isinstance(c, str) and " worker " in c}
    queues = {name: c.split("-Q ", 1)[1].split()[0].split(",") for name, c in workers.items()}
    assert sorted(queues.values()) == [["celery"], ["webhooks"]]  # apart: a slow receiver holds no standings


def test_celery_beat_queues_overdue_deliveries_again_every_few_minutes():
    from config.celery import app
    from webhooks import tasks

    entry = app.conf.beat_schedule["webhooks-catch-up"]
    assert entry["task"] == tasks.deliveries_catch_up.name and entry["task"] in app.tasks
    assert entry["schedule"] <= 300  # overdue means five minutes late (services.deliveries_overdue)

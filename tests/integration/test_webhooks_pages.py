"""The webhooks pages: a tournament's (its organizer's), a club's (its admins'), and each webhook's
page with its secret, pause and resume, a new secret, its delivery log and a Redeliver button."""

from __future__ import annotations

import pytest
from django.urls import reverse

from players.models import Club
from tests.webhooks_fakes import Receiver, fake_dns
from tournaments import services
from webhooks import services as webhooks
from webhooks.models import Delivery, Event, Subscription

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
def rival(django_user_model):
    return django_user_model.objects.create_user(username="rival", password="pw-rival-12345")


@pytest.fixture
def tournament(organizer):
    return services.tournament_create(organizer=organizer, name="Friday night")


def signed_in(client, user):
    client.force_login(user)
    return client


def test_the_organizer_page_links_to_the_webhooks(client, organizer, tournament):
    page = signed_in(client, organizer).get(reverse("tournaments:manage", args=[tournament.slug]))
    assert reverse("webhooks:tournament", args=[tournament.slug]) in page.text


def test_the_tournament_s_webhooks_page_has_the_tournament_menu_s_phone_layout(client, organizer, tournament):
    """The page shows the tournament's menu, so it loads the stylesheet that keeps that menu on one
    line on a phone (static/tournaments/phone.css), as the tournament's own pages do."""
    page = signed_in(client, organizer).get(reverse("webhooks:tournament", args=[tournament.slug])).text
    assert 'class="subnav"' in page
    assert "tournaments/phone" in page


def test_the_organizer_adds_a_webhook_and_is_shown_its_secret(client, organizer, tournament, settings):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = False
    signed_in(client, organizer)
    page = reverse("webhooks:tournament", args=[tournament.slug])
    assert client.get(page).status_code == 200
    response = client.post(page, {"url": URL, "events": ["match.finished", "tournament.finished"]})
    hook = Subscription.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("webhooks:detail", args=[hook.pk])
    assert (hook.tournament, hook.events, hook.created_by) == (
        tournament,
        ["match.finished", "tournament.finished"],
        organizer,
    )
    detail = client.get(response["Location"])
    assert hook.secret in detail.text and URL in detail.text
    assert URL in client.get(page).text


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("https://10.0.0.1/hook", "public addresses"),
        ("https://169.254.169.254/latest/meta-data/", "public addresses"),
        ("http://hooks.club.example/tsoxa", "https://"),
    ],
)
def test_a_private_address_or_plain_http_is_refused_on_the_form(
    client, organizer, tournament, settings, url, words
):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = False
    signed_in(client, organizer)
    response = client.post(
        reverse("webhooks:tournament", args=[tournament.slug]), {"url": url, "events": ["round.started"]}
    )
    assert response.status_code == 422
    assert words in response.text
    assert not Subscription.objects.exists()


def test_no_event_chosen_is_refused(client, organizer, tournament):
    signed_in(client, organizer)
    response = client.post(reverse("webhooks:tournament", args=[tournament.slug]), {"url": URL})
    assert response.status_code == 422 and "Choose at least one event." in response.text


def test_another_organizer_can_neither_read_nor_add(client, organizer, rival, tournament):
    hook = webhooks.subscription_create(
        user=organizer, url=URL, events=["round.started"], tournament=tournament
    )
    signed_in(client, rival)
    page = reverse("webhooks:tournament", args=[tournament.slug])
    assert client.get(page).status_code == 404
    assert client.post(page, {"url": URL, "events": ["round.started"]}).status_code == 404
    assert client.get(reverse("webhooks:detail", args=[hook.pk])).status_code == 404
    assert client.post(reverse("webhooks:detail", args=[hook.pk]), {"action": "delete"}).status_code == 404
    assert Subscription.objects.count() == 1


def test_signed_out_is_sent_to_log_in(client, tournament):
    response = client.get(reverse("webhooks:tournament", args=[tournament.slug]))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_clubs_webhooks_are_its_admins(client, organizer, rival):
    club = Club.objects.create(name="Kafeneio")
    club.admins.add(organizer)
    signed_in(client, organizer)
    assert (
        reverse("webhooks:club", args=[club.slug])
        in client.get(reverse("league:club_manage", args=[club.slug])).text
    )
    response = client.post(
        reverse("webhooks:club", args=[club.slug]), {"url": URL, "events": ["round.finished"]}
    )
    assert response.status_code == 302
    assert Subscription.objects.get().club == club
    client.force_login(rival)
    assert client.get(reverse("webhooks:club", args=[club.slug])).status_code == 403
    assert client.get(response["Location"]).status_code == 404


def test_pause_resume_a_new_secret_a_change_and_delete(client, organizer, tournament):
    hook = webhooks.subscription_create(
        user=organizer, url=URL, events=["round.started"], tournament=tournament
    )
    signed_in(client, organizer)
    page = reverse("webhooks:detail", args=[hook.pk])
    assert client.post(page, {"action": "pause"}).status_code == 302
    hook.refresh_from_db()
    assert not hook.active
    assert "Paused by you" in client.get(page).text
    client.post(page, {"action": "resume"})
    hook.refresh_from_db()
    assert hook.active
    old = hook.secret
    client.post(page, {"action": "rotate"})
    hook.refresh_from_db()
    assert hook.secret != old and hook.secret in client.get(page).text
    client.post(page, {"action": "edit", "url": URL, "events": ["round.finished", "standings.updated"]})
    hook.refresh_from_db()
    assert hook.events == ["round.finished", "standings.updated"]
    refused = client.post(page, {"action": "edit", "url": "https://10.0.0.1/x", "events": ["round.finished"]})
    assert refused.status_code == 422
    response = client.post(page, {"action": "delete"})
    assert response["Location"] == reverse("webhooks:tournament", args=[tournament.slug])
    assert not Subscription.objects.exists()


def test_a_paused_webhook_says_why(client, organizer, tournament):
    hook = webhooks.subscription_create(
        user=organizer, url=URL, events=["round.started"], tournament=tournament
    )
    Subscription.objects.filter(pk=hook.pk).update(
        active=False, consecutive_failures=10, paused_reason="HTTP 503"
    )
    text = signed_in(client, organizer).get(reverse("webhooks:detail", args=[hook.pk])).text
    assert "Paused after 10 failed deliveries in a row." in text and "HTTP 503" in text


def test_the_log_shows_each_delivery_and_redelivers_one(
    client, organizer, tournament, settings, django_capture_on_commit_callbacks
):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = True
    receiver = Receiver(answers=[500] * webhooks.ATTEMPTS)
    try:
        hook = webhooks.subscription_create(
            user=organizer, url=receiver.url, events=[Event.STANDINGS_UPDATED], tournament=tournament
        )
        with django_capture_on_commit_callbacks(execute=True):
            (delivery,) = webhooks.event_queue(
                event=Event.STANDINGS_UPDATED, tournament=tournament, data=lambda: {"version": 7, "links": {}}
            )
        delivery.refresh_from_db()
        assert delivery.status == Delivery.Status.FAILED and delivery.attempts == webhooks.ATTEMPTS
        signed_in(client, organizer)
        page = reverse("webhooks:detail", args=[hook.pk])
        text = client.get(page).text
        assert str(delivery.pk) in text and "HTTP 500" in text and "Failed" in text
        assert "&quot;version&quot;: 7," in text  # the body, laid out
        redeliver = reverse("webhooks:redeliver", args=[hook.pk, delivery.pk])
        assert redeliver in text
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(redeliver)
        assert response.status_code == 302 and response["Location"] == page
        delivery.refresh_from_db()
        assert delivery.status == Delivery.Status.DELIVERED and delivery.attempts == webhooks.ATTEMPTS + 1
        assert len(receiver.requests) == webhooks.ATTEMPTS + 1
        assert "Delivered" in client.get(page).text
    finally:
        receiver.stop()

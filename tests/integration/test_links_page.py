"""The organizer's printable links page comes at once at any size: the QR codes are images of their
own, each the organizer's only (a table's link is a secret)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user("organizer", password="pw-organizer-123")


def started(organizer, teams):
    t = services.tournament_create(organizer=organizer, name=f"Night {teams}", swiss_rounds=1)
    for n in range(teams):
        services.entry_register(tournament=t, name=f"T{n}", players=[f"a{teams}-{n}", f"b{teams}-{n}"])
    services.tournament_start(tournament=t, user=organizer)
    services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    return t


def test_the_links_page_shows_each_tables_code_as_an_image_and_costs_the_same_at_any_size(client, organizer):
    client.force_login(organizer)
    counts = []
    for teams in (5, 15):
        t = started(organizer, teams)
        with CaptureQueriesContext(connection) as captured:
            page = client.get(reverse("tournaments:round_links", args=[t.slug, 1]))
        assert page.status_code == 200
        counts.append(len(captured))
        codes = re.findall(r'<img class="qr" src="([^"]+)"', page.text)
        assert len(codes) == teams // 2  # the bye has no code
        qr = client.get(codes[0])
        assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
        assert qr.content.startswith(b"<svg") and b"<script" not in qr.content
        assert qr["Content-Security-Policy"] == "default-src 'none'"
    assert counts[0] == counts[1]


def test_a_tables_code_is_the_organizers_only(client, organizer, django_user_model):
    t = started(organizer, 4)
    url = reverse("tournaments:table_qr", args=[t.slug, 1, 1])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(django_user_model.objects.create_user("other", password="pw-other-12345"))
    assert client.get(url).status_code == 404
    client.force_login(organizer)
    assert client.get(url).status_code == 200
    assert client.get(reverse("tournaments:table_qr", args=[t.slug, 1, 9])).status_code == 404

"""GET /api/v1/tournaments/{slug}/find/?q=: find your table through the API (tournaments/api/personal.py)."""

import pytest

from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_find_by_name_accents_ignored_and_public_only(client, django_user_model):
    organizer = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    t = services.tournament_create(organizer=organizer, name="Friday", deals_per_match=2)
    for name, players in (("Κύμα", ["Νίκος Παππάς", "Μαρία"]), ("Limani", ["Hélène", "Jean"])):
        services.entry_register(tournament=t, name=name, players=players)
    t = services.tournament_start(tournament=t)
    rnd = services.round_generate(tournament=t)
    url = f"/api/v1/tournaments/{t.slug}/find/"
    body = client.get(url, {"q": "ΝΙΚΟΣ"}).json()
    assert [r["name"] for r in body["results"]] == ["Νίκος Παππάς"]
    row = body["results"][0]
    assert row["team"] == "Κύμα" and row["table"] == 1 and row["round"] == rnd.number
    assert row["side"] in ("A", "B") and row["opponents"] == [{"name": "Limani", "number": 2}]
    assert len(client.get(url).json()["results"]) == 6  # everybody, alphabetical
    assert client.get(url, {"q": "helene"}).json()["results"][0]["name"] == "Hélène"
    Tournament.objects.filter(pk=t.pk).update(public=False)
    assert client.get(url, {"q": "a"}).status_code == 404

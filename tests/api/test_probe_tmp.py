import json
import pytest

PIL = {"maker": 0, "contract": {"suit": "hearts", "bid": 80, "multiplier": 1}, "card_points": [90, 62], "last_trick": 0}

@pytest.mark.django_db
def test_probe(api, standalone, public_tournament, private_tournament, draft_tournament, open_tournament):
    org = api("organizer")
    def show(r):
        body = r.content[:600]
        print(r.status_code, dict((k, v) for k, v in r.items() if k in ("ETag", "Last-Modified", "Content-Type")), body)
    show(api("anonymous").get(f"/api/v1/matches/{standalone.pk}/"))
    show(api("anonymous").get("/api/v1/matches/"))
    pm = private_tournament.rounds.get(number=1).tables.get(number=1).match
    print("private match", pm.pk)
    show(org.get(f"/api/v1/matches/{pm.pk}/"))
    show(org.post(f"/api/v1/matches/{pm.pk}/deals/", PIL, format="json"))
    show(org.get(f"/api/v1/tournaments/{public_tournament.slug}/standings/"))
    show(org.get(f"/api/v1/tournaments/{public_tournament.slug}/standings.csv"))
    show(org.get(f"/api/v1/tournaments/{public_tournament.slug}/deals.csv"))
    show(org.get(f"/api/v1/tournaments/{public_tournament.slug}/rounds/2"))
    show(org.get(f"/api/v1/tournaments/{public_tournament.slug}/entries/"))
    show(org.get(f"/api/v1/players/"))
    show(org.get(f"/api/v1/teams/"))

"""GET /api/v1/tournaments/{slug}/bracket/: the knockout's bracket as JSON, public as the standings."""

import pytest

from scoring import services as scoring
from tournaments import services

from .conftest import WIN_0, client_for

pytestmark = pytest.mark.django_db


def knockout(organizer, teams=4, **settings):
    settings = {"swiss_rounds": 1, "knockout_size": 4, "third_place": True, "deals_per_match": 1, **settings}
    t = services.tournament_create(organizer=organizer, name="Cup", **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t, user=organizer)


def url(t):
    return f"/api/v1/tournaments/{t.slug}/bracket/"


def test_the_bracket_before_the_draw_is_its_empty_shape(organizer):
    t = knockout(organizer)
    answer = client_for().get(url(t))
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert data["places"] == 4 and data["size"] == 4
    assert [c["name"] for c in data["columns"]] == ["Semi-finals", "Final"]
    assert [m["state"] for c in data["columns"] for m in c["matches"]] == ["empty"] * 3
    assert data["third_place"]["state"] == "empty" and data["champion"] is None


def test_the_bracket_follows_the_knockout(organizer):
    t = knockout(organizer)
    stage = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for table in stage.tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    semis = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    table = semis.tables.get(number=1)
    while table.match.status != "finished":
        scoring.deal_record(match=table.match, deal={"maker": 0, "card_points": [152, 0], "capot": 0})
        table.match.refresh_from_db()
    data = client_for().get(url(t)).json()
    first, second = data["columns"][0]["matches"]
    assert first["state"] == "finished" and first["winner"] == 0 and first["round"] == semis.number
    assert first["sides"][0]["seed"] == 1 and first["sides"][1]["seed"] == 4
    assert {"entry", "name", "number", "seed"} <= set(first["sides"][0])
    assert second["state"] == "playing" and second["winner"] is None
    final = data["columns"][1]["matches"][0]
    assert final["state"] == "empty" and final["sides"][0]["name"] == first["sides"][0]["name"]
    assert final["sides"][1] is None


def test_no_knockout_is_an_empty_bracket_and_a_private_tournament_a_404(organizer, rival):
    swiss = knockout(organizer, knockout_size=0, third_place=False)
    answer = client_for().get(url(swiss))
    assert answer.status_code == 200
    assert answer.json() == {"places": 0, "size": 0, "columns": [], "third_place": None, "consolation": None,
                             "champion": None}  # fmt: skip
    private = knockout(organizer)
    private.public = False
    private.save()
    assert client_for().get(url(private)).status_code == 404
    assert client_for(rival).get(url(private)).status_code == 404
    assert client_for(organizer).get(url(private)).status_code == 200


def test_a_match_in_play_has_its_running_score_and_a_decided_one_says_what_decided_it(organizer):
    from tournaments.models import Adjustment

    t = knockout(organizer, third_place=False)
    stage = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for table in stage.tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    semis = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    one, two = semis.tables.order_by("number")
    data = client_for().get(url(t)).json()
    begun = data["columns"][0]["matches"][0]
    assert (begun["state"], begun["score"], begun["running"], begun["result_kind"]) == (
        "playing",
        None,
        None,
        None,
    )
    scoring.deal_record(match=one.match, deal=WIN_0)
    services.table_decide(table=two, kind=Adjustment.Kind.FORFEIT, winner=1, scores=[0, 1000],
                          reason="no show", user=organizer)  # fmt: skip
    first, second = client_for().get(url(t)).json()["columns"][0]["matches"]
    target = one.match.target
    assert first["score"] is None and first["running"] == [100, 62]
    assert (first["deal"], first["deals"], first["target"]) == (None, None, target)
    assert first["note"] == f"100–62 of {target}" and first["result_kind"] is None
    assert (second["result_kind"], second["score"], second["winner"], second["running"]) == (
        "forfeit", [0, 1000], 1, None
    )  # fmt: skip
    assert second["note"] == "Forfeit"
    empty = client_for().get(url(t)).json()["columns"][1]["matches"][0]
    assert (empty["result_kind"], empty["running"], empty["note"]) == (None, None, "")


def test_the_schema_documents_the_running_score_and_the_result_kind():
    import json

    schema = json.loads(client_for().get("/api/schema/", {"format": "json"}).content)
    match = schema["components"]["schemas"]["BracketMatch"]["properties"]
    for field in ("running", "deal", "deals", "target", "note", "result_kind"):
        assert match[field].get("description"), field
    kinds = schema["components"]["schemas"]["ResultKindEnum"]["enum"]
    assert set(kinds) == {"deals", "paper", "forfeit", "award", "bye"}

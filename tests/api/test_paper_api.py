"""/api/v1/tournaments/{slug}/rounds/{n}/tables/{t}/paper/ (a table's result from its paper sheet),
…/rounds/{n}/redraw/ and DELETE …/rounds/{n}/ (a drawn round taken back before it starts)."""

import pytest

from tests.problems import messages, problem
from tournaments import services
from tournaments.models import Adjustment, Round, StandingsSnapshot

from .conftest import NOT_ORGANIZERS, client_for

pytestmark = pytest.mark.django_db

TOURNAMENTS = "/api/v1/tournaments/"


def url(t, tail=""):
    return f"{TOURNAMENTS}{t.slug}/{tail}"


def paper_url(t, round_number=2, table=1):
    return url(t, f"rounds/{round_number}/tables/{table}/paper/")


def test_the_organizer_posts_the_totals_and_every_reader_sees_them(organizer, anon, public_tournament):
    t = public_tournament
    client = client_for(organizer)
    answer = client.post(paper_url(t), {"totals": [1012, 874], "winner": None}, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["number"] == 1 and body["paper"] == {
        "source": "paper",
        "totals": [1012, 874],
        "winner": 0,
        "counts": True,
        "reason": "From the paper sheet",
    }
    stored = Adjustment.objects.get(kind=Adjustment.Kind.PAPER)
    assert stored.table.number == 1 and stored.created_by == organizer
    tables = anon.get(url(t, "rounds/2/")).json()["tables"]
    assert [table["paper"] is not None for table in tables] == [True, False]
    listed = anon.get(url(t, "rounds/")).json()
    assert listed[0]["tables"][0]["paper"] is None and listed[1]["tables"][0]["paper"]["totals"] == [
        1012,
        874,
    ]


def test_the_standings_count_it(organizer, public_tournament):
    t = public_tournament
    table = t.rounds.get(number=2).tables.get(number=1)

    def row(entry):
        services.standings_refresh(tournament_id=t.pk)
        found = {r["entry"]: r for r in StandingsSnapshot.objects.get(tournament=t).rows}[entry]
        return found["played"], found["won"], found["lost"], found["values"]["game_points"]

    played, won, lost, points = row(table.entry0_id)
    client_for(organizer).post(paper_url(t), {"totals": [1012, 874]}, format="json")
    assert row(table.entry0_id) == (played + 1, won + 1, lost, points + 1012)
    played, won, lost, points = row(table.entry1_id)
    assert lost >= 1


def test_refusals_are_problems_and_nothing_is_saved(organizer, public_tournament):
    t = public_tournament
    client = client_for(organizer)
    for data in (
        {"totals": [1]},
        {"totals": [1, -5]},
        {"totals": ["a", 1]},
        {"totals": [5, 5], "winner": 3},
        {},
    ):
        problem(client.post(paper_url(t), data, format="json"), 400)
    lower = problem(client.post(paper_url(t), {"totals": [100, 62], "winner": 1}, format="json"), 400)
    assert "lower total" in str(lower)
    earlier = problem(client.post(paper_url(t, 1, 1), {"totals": [1, 0]}, format="json"), 400)
    assert "finished by its deals" in str(earlier)
    problem(client.post(paper_url(t, 2, 9), {"totals": [1, 0]}, format="json"), 404)
    assert not Adjustment.objects.filter(kind=Adjustment.Kind.PAPER).exists()
    problem(client.delete(paper_url(t)), 400)  # nothing to remove


@pytest.mark.parametrize("role", NOT_ORGANIZERS)
def test_only_the_organizer_writes(api, public_tournament, role):
    answer = api(role).post(paper_url(public_tournament), {"totals": [1, 0]}, format="json")
    assert answer.status_code in (401, 403, 404)
    assert api(role).delete(url(public_tournament, "rounds/2/")).status_code in (401, 403, 404)
    assert not Adjustment.objects.exists()


def test_delete_removes_the_paper_result(organizer, public_tournament):
    client = client_for(organizer)
    client.post(paper_url(public_tournament), {"totals": [1012, 874]}, format="json")
    assert client.delete(paper_url(public_tournament)).status_code == 204
    assert not Adjustment.objects.filter(kind=Adjustment.Kind.PAPER).exists()


def test_redraw_and_delete_a_drawn_round(organizer, anon, draft_tournament):
    t = draft_tournament
    client = client_for(organizer)
    before = {frozenset(p) for p in t.rounds.get(number=1).tables.values_list("entry0_id", "entry1_id")}
    answer = client.post(url(t, "rounds/1/redraw/"))
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["number"] == 1 and body["status"] == "draft"
    assert {frozenset(s["entry"] for s in table["teams"]) for table in body["tables"]} == before  # Swiss
    assert anon.get(url(t, "rounds/1/")).status_code == 200  # the GET still answers on the same path
    assert client.delete(url(t, "rounds/1/")).status_code == 204
    assert not Round.objects.filter(tournament=t).exists()
    problem(client.delete(url(t, "rounds/1/")), 404)


def test_a_started_round_is_refused(organizer, public_tournament):
    client = client_for(organizer)
    body = problem(client.delete(url(public_tournament, "rounds/2/")), 400)
    assert "has started" in messages(body) or "has started" in str(body)
    problem(client.post(url(public_tournament, "rounds/2/redraw/")), 400)
    assert public_tournament.rounds.count() == 2

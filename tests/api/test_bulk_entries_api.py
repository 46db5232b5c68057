"""POST /api/v1/tournaments/{slug}/entries/bulk/: a list pasted or a CSV, previewed (dry_run) or
entered all or nothing."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from players.models import Player
from tests.problems import problem
from tournaments import services
from tournaments.models import Entry

from .conftest import client_for

pytestmark = pytest.mark.django_db

TEXT = "Aces;Nikos;Eleni\nBees;Maria;Kostas\nCats;Yannis;Dimitra"


@pytest.fixture
def tournament(organizer):
    return services.tournament_create(organizer=organizer, name="Friday concours", format="concours")


def bulk(tournament):
    return f"/api/v1/tournaments/{tournament.slug}/entries/bulk/"


@pytest.fixture
def nikos(organizer):
    other = services.tournament_create(organizer=organizer, name="Winter cup")
    services.entry_register(tournament=other, name="Old", players=["Nikos", "Anna"])
    return Player.objects.get(name="Nikos")


def test_a_dry_run_answers_the_preview_and_saves_nothing(organizer, tournament, nikos):
    response = client_for(organizer).post(bulk(tournament), {"text": TEXT, "dry_run": True}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["ok"] is True and body["individual"] is False and body["errors"] == []
    first = body["lines"][0]
    assert (first["line"], first["team"], first["ok"]) == (1, "Aces", True)
    assert first["players"][0]["chosen"] == nikos.pk
    (match,) = first["players"][0]["matches"]
    assert (match["id"], match["name"], match["club"], match["last_event"]) == (
        nikos.pk,
        "Nikos",
        "",
        "Winter cup",
    )
    assert match["last_seen"]
    assert first["players"][1] == {"name": "Eleni", "chosen": None, "matches": []}
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_the_list_is_entered_with_the_records_chosen(organizer, tournament, nikos):
    body = {"text": TEXT, "choices": {"1": [None, None]}, "dry_run": False}
    response = client_for(organizer).post(bulk(tournament), body, format="json")
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["count"] == 3
    assert [(e["number"], e["team"], e["players"]) for e in created["entries"]] == [
        (1, "Aces", ["Nikos", "Eleni"]),
        (2, "Bees", ["Maria", "Kostas"]),
        (3, "Cats", ["Yannis", "Dimitra"]),
    ]
    assert created["entries"][0]["player_ids"][0] != nikos.pk  # a new record, as chosen
    assert Player.objects.filter(name="Nikos").count() == 2


def test_a_wrong_line_refuses_everything_with_the_errors_per_line(organizer, tournament, nikos):
    body = {"text": TEXT + "\nDogs;Nikos", "choices": {"2": [nikos.pk, None]}}
    response = client_for(organizer).post(bulk(tournament), body, format="json")
    body = problem(response, 400)
    assert body["detail"] == "2 lines are wrong: nothing was entered."
    wrong = {line["line"]: line["errors"] for line in body["lines"] if line["errors"]}
    assert wrong == {
        2: [f"Record {nikos.pk} is not one of those offered for Maria."],
        4: ["A line is a team's name and its two players (found 2 fields)."],
    }
    assert not Entry.objects.filter(tournament=tournament).exists() and Player.objects.count() == 2


def test_a_csv_file_is_taken_too(organizer, tournament):
    upload = SimpleUploadedFile(
        "teams.csv", "\ufeffteam,player,partner\nAces,Nikos,Eleni\n".encode(), "text/csv"
    )
    response = client_for(organizer).post(
        bulk(tournament), {"file": upload, "dry_run": "false"}, format="multipart"
    )
    assert response.status_code == 201, response.content
    assert response.json()["entries"][0]["players"] == ["Nikos", "Eleni"]


def test_bad_requests_are_refused_in_words(organizer, tournament):
    client = client_for(organizer)
    assert problem(client.post(bulk(tournament), {}, format="json"), 400)
    body = problem(
        client.post(bulk(tournament), {"text": "A;B;C", "choices": {"x": [1]}}, format="json"), 400
    )
    assert "Line x" in str(body)
    body = problem(client.post(bulk(tournament), {"text": "\n".join(["A;B;C"] * 501)}, format="json"), 400)
    assert "at most 500 lines" in body["detail"]
    assert not Entry.objects.exists()


def test_only_the_organizer_enters(rival, anon, tournament):
    assert client_for(rival).post(bulk(tournament), {"text": TEXT}, format="json").status_code == 403
    assert anon.post(bulk(tournament), {"text": TEXT}, format="json").status_code in (401, 403)
    assert not Entry.objects.exists()

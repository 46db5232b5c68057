"""Find your table (tournaments/personal.py): names searched with accents and case ignored, Greek
too; the answer's sentence; without JavaScript and as one types (htmx); the printable list."""

import re

import pytest
from django.urls import reverse

from tournaments import personal, services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


TEAMS = [
    ("Κύμα", ["Νίκος Παππάς", "Μαρία Σταύρου"]),
    ("Limani", ["Hélène Dupré", "Jean Martin"]),
    ("Ζέφυρος", ["Γιώργος Αλεξίου", "Ελένη Οικονόμου"]),
    ("Porto", ["Zoé Ïsaac", "Paul Renard"]),
]


def event(organizer, draw=True):
    t = services.tournament_create(organizer=organizer, name="Friday Concours", deals_per_match=2)
    for name, players in TEAMS:
        services.entry_register(tournament=t, name=name, players=players)
    t = services.tournament_start(tournament=t)
    rnd = services.round_generate(tournament=t) if draw else None
    return Tournament.objects.get(pk=t.pk), rnd


def test_fold_ignores_accents_and_case_greek_too():
    assert personal.fold("Νίκος ΠΑΠΠΆΣ") == personal.fold("νικος παππας")
    assert personal.fold("Hélène") == "helene" and personal.fold("Ïsaac") == "isaac"
    assert personal.fold("ΣΤΑΎΡΟΥ") == personal.fold("σταυρου") and personal.fold("ς") == "σ"


def test_rows_are_alphabetical_with_tables(organizer):
    t, rnd = event(organizer)
    rows = personal.finder_rows(tournament=t)
    assert len(rows) == 12
    assert [personal.fold(r["name"]) for r in rows] == sorted(personal.fold(r["name"]) for r in rows)
    nikos = next(r for r in rows if r["name"] == "Νίκος Παππάς")
    table = next(
        x for x in rnd.tables.all() if Entry.objects.get(team__name="Κύμα").pk in (x.entry0_id, x.entry1_id)
    )
    assert nikos["team"] == "Κύμα" and nikos["table"] == table.number and nikos["side"] in ("A", "B")
    assert nikos["number"] == 1 and len(nikos["against"]) == 1
    team_row = next(r for r in rows if r["name"] == "Κύμα")
    assert team_row["kind"] == "team" and team_row["table"] == table.number


@pytest.mark.parametrize("query", ["νικος", "ΝΙΚΟΣ παππας", "Νίκος", "παπ"])
def test_search_by_a_player_greek_accents_ignored(client, organizer, query):
    t, _ = event(organizer)
    html = client.get(reverse("tournaments:finder", args=[t.slug]), {"q": query}).content.decode()
    assert "Νίκος Παππάς" in html and "Κύμα" in html and "table" in html and "against" in html


def test_the_answer_sentence(client, organizer):
    t, rnd = event(organizer)
    kyma = Entry.objects.get(team__name="Κύμα")
    table = next(x for x in rnd.tables.all() if kyma.pk in (x.entry0_id, x.entry1_id))
    other = table.entry1 if table.entry0_id == kyma.pk else table.entry0
    side = "A" if table.entry0_id == kyma.pk else "B"
    html = client.get(reverse("tournaments:finder", args=[t.slug]), {"q": "nikos"}).content.decode()
    assert "Νίκος Παππάς" in html  # Latin letters find Greek names (tests/integration/test_finder_latin.py)
    html = client.get(reverse("tournaments:finder", args=[t.slug]), {"q": "helene"}).content.decode()
    assert "Hélène Dupré" in html
    html = client.get(reverse("tournaments:finder", args=[t.slug]), {"q": "κυμα"}, HTTP_HX_REQUEST="true")
    text = " ".join(html.content.decode().split())
    assert "<html" not in text  # the partial only
    assert f"table {table.number}</span>, side {side}, against {other.name} (No. {other.number})" in text


def test_nobody_and_before_the_draw(client, organizer):
    t, _ = event(organizer, draw=False)
    html = client.get(reverse("tournaments:finder", args=[t.slug]), {"q": "zzz"}).content.decode()
    assert 'data-testid="finder-none"' in html
    html = client.get(reverse("tournaments:finder", args=[t.slug])).content.decode()
    assert 'name="q"' in html and "hx-get" in html


def test_a_private_event_is_not_found(client, organizer):
    t, _ = event(organizer)
    Tournament.objects.filter(pk=t.pk).update(public=False)
    assert client.get(reverse("tournaments:finder", args=[t.slug]), {"q": "a"}).status_code == 404
    assert client.get(reverse("tournaments:finder_print", args=[t.slug])).status_code == 404


def test_the_printable_list(client, organizer):
    t, _ = event(organizer)
    response = client.get(reverse("tournaments:finder_print", args=[t.slug]))
    html = response.content.decode()
    assert response.status_code == 200 and 'data-testid="finder-print"' in html
    assert html.count('data-testid="finder-print-row"') == 12
    names = [r["name"] for r in personal.finder_rows(tournament=t)]
    first_cells = re.findall(r'data-testid="finder-print-row"[^>]*>\s*<td>(.*?)</td>', html)
    assert [re.sub(r"<[^>]+>", "", c) for c in first_cells] == names
    assert names[0] == "Hélène Dupré"  # Latin before Greek, accents ignored
    assert "print.css" in html

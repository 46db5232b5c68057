"""Find your table in Latin letters (tournaments/personal.py): a Greek café's player types
"Papadopoulos" on an English keyboard and finds "Παπαδόπουλος"; "Ivanov" finds "Иванов"; Greek typed
finds a name written in Latin letters. The page, its htmx answer, the API; the printed list stays in
the order of the names as written; the queries do not grow with the event."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import personal, services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

TEAMS = [
    ("Κύμα", ["Γιώργος Παπαδόπουλος", "Ελένη Οικονόμου"]),
    ("Limani", ["Nikos Papas", "Hélène Dupré"]),
    ("Балкан", ["Иван Иванов", "Христо Стоичков"]),
    ("Ωμέγα", ["Χρήστος Αλεξίου", "Zoé Martin"]),
]


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def event(organizer, teams=TEAMS, name="Friday Concours"):
    t = services.tournament_create(organizer=organizer, name=name, deals_per_match=2)
    for team, players in teams:
        services.entry_register(tournament=t, name=team, players=players)
    t = services.tournament_start(tournament=t)
    rnd = services.round_generate(tournament=t)
    return Tournament.objects.get(pk=t.pk), rnd


def find(client, t, query, htmx=False):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.get(reverse("tournaments:finder", args=[t.slug]), {"q": query}, **headers)
    assert response.status_code == 200
    return " ".join(response.content.decode().split())


def names_found(html):
    return re.findall(r'<strong class="fy-name">(.*?)</strong>', html)


def table_of(rnd, team):
    entry = Entry.objects.get(team__name=team)
    table = next(x for x in rnd.tables.all() if entry.pk in (x.entry0_id, x.entry1_id))
    return table, "A" if table.entry0_id == entry.pk else "B"


@pytest.mark.parametrize("query", ["Papadopoulos", "papad", "PAPADOPULOS", "giorgos papad", "Yorgos"])
def test_latin_letters_find_a_greek_name_on_the_page(client, organizer, query):
    t, rnd = event(organizer)
    html = find(client, t, query)
    table, side = table_of(rnd, "Κύμα")
    assert names_found(html) == ["Γιώργος Παπαδόπουλος"]
    assert "— Κύμα" in html and f"table {table.number}</span>, side {side}" in html
    assert 'value="' + query + '"' in html  # the box keeps what was typed


def test_the_htmx_answer_as_one_types_latin_for_cyrillic(client, organizer):
    t, rnd = event(organizer)
    html = find(client, t, "Ivanov", htmx=True)
    assert "<html" not in html  # the partial only
    table, side = table_of(rnd, "Балкан")
    assert names_found(html) == ["Иван Иванов"]
    assert f"table {table.number}</span>, side {side}" in html
    assert names_found(find(client, t, "hristo stoi", htmx=True)) == ["Христо Стоичков"]
    assert names_found(find(client, t, "Balkan", htmx=True)) == ["Балкан"]


def test_greek_letters_find_a_name_written_in_latin(client, organizer):
    t, _ = event(organizer)
    assert names_found(find(client, t, "Νίκος Παππάς", htmx=True)) == ["Nikos Papas"]
    assert names_found(find(client, t, "Λιμάνι", htmx=True)) == ["Limani"]


def test_one_query_can_find_both_scripts(client, organizer):
    t, _ = event(organizer)
    assert names_found(find(client, t, "xristos al", htmx=True)) == ["Χρήστος Αλεξίου"]
    # Hristo and Christos are one name: both found, the Greek first as written
    assert names_found(find(client, t, "hristo", htmx=True)) == ["Χρήστος Αλεξίου", "Христо Стоичков"]
    found = names_found(find(client, t, "papa", htmx=True))  # Papadopoulos, Papas: alphabetical as written
    assert found == ["Nikos Papas", "Γιώργος Παπαδόπουλος"]


def test_a_name_not_there_is_still_nobody(client, organizer):
    t, _ = event(organizer)
    html = find(client, t, "Papadimitriou", htmx=True)
    assert 'data-testid="finder-none"' in html and "Nobody by that name." in html
    assert 'data-testid="finder-none"' in find(client, t, "opoulos")  # a word's start, not its middle


def test_the_api_finds_in_latin_letters_too(client, organizer):
    t, _ = event(organizer)
    body = client.get(f"/api/v1/tournaments/{t.slug}/find/", {"q": "ivanov"}).json()
    assert [r["name"] for r in body["results"]] == ["Иван Иванов"]


def test_the_printed_list_stays_in_the_order_of_the_names_as_written(client, organizer):
    t, _ = event(organizer)
    html = client.get(reverse("tournaments:finder_print", args=[t.slug])).content.decode()
    cells = re.findall(r'data-testid="finder-print-row"[^>]*>\s*<td>(.*?)</td>', html)
    printed = [re.sub(r"<[^>]+>", "", c) for c in cells]
    assert printed == sorted(printed, key=personal.fold)
    # Latin, then Greek, then Cyrillic: not the order of their Latin spellings
    assert printed.index("Zoé Martin") < printed.index("Ωμέγα") < printed.index("Иван Иванов")
    assert sorted(printed, key=lambda n: personal.spelling(personal.fold(n))) != printed


def count_queries(client, url, data=None, **headers):
    client.get(url, data, **headers)  # warm
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, data, **headers).status_code == 200
    return len(captured)


def test_the_queries_do_not_grow_with_the_event(client, organizer):
    small, _ = event(organizer, name="Small")
    many = [(f"Ομάδα {i}", [f"Γιώργος Παπαδόπουλος {i}", f"Иван Иванов {i}"]) for i in range(24)]
    large, _ = event(organizer, teams=many, name="Large")
    for query in ("papadopoulos", "ivanov", "zzz"):
        counts = [
            count_queries(
                client, reverse("tournaments:finder", args=[t.slug]), {"q": query}, HTTP_HX_REQUEST="true"
            )
            for t in (small, large)
        ]
        assert counts[0] == counts[1], (query, counts)
    prints = [
        count_queries(client, reverse("tournaments:finder_print", args=[t.slug])) for t in (small, large)
    ]
    assert prints[0] == prints[1]
    assert len(names_found(find(client, large, "papadopoulos 1"))) == 11  # 1, 10 … 19

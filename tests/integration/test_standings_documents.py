"""The standings snapshot's documents (tournaments/fields.py): stored as written (PostgreSQL's json
type, not jsonb), read back exactly, in Greek as in English, by the model and by ``values_list``."""

import pytest
from django.db import connection

from tournaments import services
from tournaments.models import StandingsSnapshot

pytestmark = pytest.mark.django_db

ROWS = [
    {"entry": 7, "rank": 1, "team": "Οι Άσσοι", "players": ["Νίκος", "Ελένη"], "values": {"wins": 3}},
    {"entry": 9, "rank": 2, "team": "Belote & co", "players": ["Zoé", "Luc"], "penalty": [0, 1]},
]


def test_the_documents_are_read_back_as_written(user):
    tournament = services.tournament_create(organizer=user, name="Friday", swiss_rounds=3)
    documents = {"rows": ROWS, "ranking": ROWS[::-1], "playoffs": [{"entries": [7, 9]}]}
    snapshot, _ = StandingsSnapshot.objects.update_or_create(tournament=tournament, defaults=documents)
    again = StandingsSnapshot.objects.get(pk=snapshot.pk)
    assert (again.rows, again.ranking, again.playoffs) == (ROWS, ROWS[::-1], [{"entries": [7, 9]}])
    assert StandingsSnapshot.objects.filter(pk=snapshot.pk).values_list("rows", flat=True).get() == ROWS
    snapshot.rows = []
    snapshot.save(update_fields=["rows"])
    assert StandingsSnapshot.objects.get(pk=snapshot.pk).rows == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite keeps every JSON document as text")
def test_on_postgresql_they_are_json_not_jsonb():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = %s",
            [StandingsSnapshot._meta.db_table],
        )
        types = dict(cursor.fetchall())
    assert {types["rows"], types["ranking"], types["playoffs"]} == {"json"}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's TOAST compression")
def test_on_postgresql_they_are_compressed_by_lz4():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attname, attcompression FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0",
            [StandingsSnapshot._meta.db_table],
        )
        methods = dict(cursor.fetchall())
    assert {methods["rows"], methods["ranking"], methods["playoffs"]} == {"l"}

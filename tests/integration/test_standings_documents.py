"""The standings snapshot's documents (tournaments/fields.py): stored as written (PostgreSQL's json
type, not jsonb), read back exactly, in Greek as in English, by the model and by ``values_list``."""

import importlib

import pytest
from django.apps import apps
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


def columns(query: str) -> dict[str, str]:
    """Each column of the snapshot's table, with what ``query`` (of the table's name) says of it."""
    with connection.cursor() as cursor:
        cursor.execute(query, [StandingsSnapshot._meta.db_table])
        return dict(cursor.fetchall())


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite keeps every JSON document as text")
def test_on_postgresql_they_are_json_not_jsonb():
    types = columns("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = %s")
    assert {types["rows"], types["ranking"], types["playoffs"]} == {"json"}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's TOAST compression")
def test_on_postgresql_the_migration_has_them_compressed_by_lz4_and_back():
    """Migration 0015, forward then back (applied here by hand: ``./run test`` builds its test
    databases from the models, not by the migrations, which ``test_migrations`` applies)."""
    migration = importlib.import_module("tournaments.migrations.0015_standings_documents_lz4")
    query = "SELECT attname, attcompression FROM pg_attribute WHERE attrelid = %s::regclass"
    with connection.schema_editor() as editor:
        migration.lz4(apps, editor)
    methods = columns(query)
    assert {methods["rows"], methods["ranking"], methods["playoffs"]} == {"l"}
    with connection.schema_editor() as editor:
        migration.pglz(apps, editor)
    methods = columns(query)
    assert {methods["rows"], methods["ranking"], methods["playoffs"]} == {"p"}

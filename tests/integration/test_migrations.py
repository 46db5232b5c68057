"""Every migration applies to an empty database, forward to the last and back to the start, on the
database this run uses (SQLite, or a PostgreSQL database of the test's own). ``./run test`` builds
its test databases from the models (pytest-django's ``--nomigrations``: five seconds saved a test
process), so the migrations themselves are checked here; ``makemigrations --check`` (CI's lint)
checks that they match the models."""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db  # on each database's run (CI's PostgreSQL pass takes only these)


def manage(database_url: str, *args: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    environment["DATABASE_URL"] = database_url
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture
def empty_database(tmp_path):
    """The URL of an empty database of the run's kind, dropped afterwards."""
    if connection.vendor == "sqlite":
        yield f"sqlite:///{tmp_path / 'migrations.sqlite3'}"
        return
    db = settings.DATABASES["default"]
    name = f"tsoxa_migrations_{uuid.uuid4().hex[:12]}"
    server = {"host": db["HOST"] or "127.0.0.1", "port": db["PORT"] or 5432, "user": db["USER"]}
    admin = {"dbname": "postgres", "password": db["PASSWORD"] or None, "autocommit": True, **server}
    with psycopg.connect(**admin) as session:
        session.execute(f'CREATE DATABASE "{name}"')
    try:
        password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
        yield f"postgres://{db['USER']}{password}@{server['host']}:{server['port']}/{name}"
    finally:
        with psycopg.connect(**admin) as session:
            session.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_every_migration_applies_forward_and_back(empty_database):
    forward = manage(empty_database, "migrate", "--noinput")
    assert forward.returncode == 0, forward.stderr[-3000:]
    plan = manage(empty_database, "showmigrations", "--plan")
    assert plan.returncode == 0 and "[ ]" not in plan.stdout, plan.stdout[-3000:]
    back = manage(empty_database, "migrate", "tournaments", "0013", "--noinput")
    assert back.returncode == 0, back.stderr[-3000:]
    again = manage(empty_database, "migrate", "--noinput")
    assert again.returncode == 0, again.stderr[-3000:]

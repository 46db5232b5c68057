"""``manage.py demo_data`` (issue 24): refused under the production settings, and all or nothing
with a real broker: the whole load in one transaction, its tasks queued only once it commits."""

from __future__ import annotations

import io
import os
import secrets
import sqlite3
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from config.celery import app
from league.models import Season
from players.models import Club, Player
from scoring.models import Match
from tournaments.models import Round, Tournament

ROOT = Path(__file__).resolve().parents[2]


def test_demo_data_refuses_the_production_settings(tmp_path):
    """A real ``manage.py demo_data`` under config.settings.prod: a clear refusal, nothing written."""
    database = tmp_path / "prod.sqlite3"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "club.example",
        "DATABASE_URL": f"sqlite:///{database}",
        "CACHE_URL": "redis://127.0.0.1:6379/5",  # a shared cache, as the checks ask; not used
        "TSOXA_SITE_URL": "https://club.example",
        "CELERY_BROKER_URL": "",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "demo_data"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "CommandError: demo_data refuses to run under the production settings" in done.stderr
    assert "config.settings.dev" in done.stderr
    tables = sqlite3.connect(database).execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    assert tables.fetchall() == []  # nothing written, not even a login


def test_demo_data_refuses_the_production_settings_in_process(settings):
    settings.SETTINGS_MODULE = "config.settings.prod"
    with pytest.raises(CommandError, match="production settings"):
        call_command("demo_data", stdout=io.StringIO())


@pytest.fixture
def real_broker():
    """A broker configured (tasks not run in this process) that takes every task: each call says
    whether the load had committed when the task was queued."""
    queued: list[bool] = []

    def take(*args, **kwargs):
        queued.append(not connection.in_atomic_block and Season.objects.exists())

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with mock.patch("celery.app.task.Task.apply_async", side_effect=take):
            yield queued
    finally:
        app.conf.task_always_eager = eager


@pytest.mark.django_db(transaction=True)  # real commits: the tasks wait for the load's commit
def test_with_a_real_broker_the_tasks_are_queued_once_the_whole_load_committed(real_broker):
    call_command("demo_data", stdout=io.StringIO())
    assert real_broker and all(real_broker)  # every task queued after the commit, none half-way
    night = Tournament.objects.get(name="Friday club night")
    assert list(night.rounds.order_by("number").values_list("number", "status")) == [
        (1, Round.Status.FINISHED),  # closed by its matches, with no worker having run yet
        (2, Round.Status.STARTED),
    ]


@pytest.mark.django_db(transaction=True)
def test_a_failure_half_way_leaves_nothing_loaded_and_nothing_queued(real_broker):
    with (
        mock.patch(
            "league.management.commands.demo_data.season_create", side_effect=RuntimeError("disk full")
        ),
        pytest.raises(RuntimeError, match="disk full"),
    ):
        call_command("demo_data", stdout=io.StringIO())
    assert real_broker == []  # no standings, ratings or webhooks task for rows that were never kept
    assert not Match.objects.exists() and not Tournament.objects.exists()
    assert not Club.objects.exists() and not Player.objects.exists()
    call_command("demo_data", stdout=io.StringIO())  # and a second try loads it all
    assert Season.objects.filter(club__slug="demo-club").exists()

"""A real Celery worker against Redis, sharing the test database (PostgreSQL only).

Run by .ci/run as its own pytest call, with CELERY_BROKER_URL, CACHE_URL and a
PostgreSQL DATABASE_URL set; skipped anywhere else.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(config, items):
    ready = settings.CELERY_BROKER_URL and connection.vendor == "postgresql"
    if ready:
        return
    skip = pytest.mark.skip(reason="needs CELERY_BROKER_URL and PostgreSQL (see .ci/run)")
    for item in items:
        if "worker" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def worker(transactional_db):
    """Start `celery worker` on the test database; stop it after the test."""
    from config.celery import app

    app.control.purge()
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    log = open(ROOT / "celery-worker-test.log", "w")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=INFO"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=1):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the Celery worker did not start; see {log.name}")
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()

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
# The standings' queue and the webhooks' (CELERY_TASK_ROUTES): in production two workers share them
# out (docker-compose.yml); here one worker takes both.
QUEUES = "celery,webhooks"


def pytest_collection_modifyitems(config, items):
    ready = settings.CELERY_BROKER_URL and connection.vendor == "postgresql"
    if ready:
        return
    skip = pytest.mark.skip(reason="needs CELERY_BROKER_URL and PostgreSQL (see .ci/run)")
    for item in items:
        if "worker" in item.keywords:
            item.add_marker(skip)


class Worker:
    """`celery worker` on the test database, started and stopped by a test."""

    def __init__(self) -> None:
        db = settings.DATABASES["default"]
        url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        self.env = {
            **os.environ,
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            # The webhooks' test receiver listens on 127.0.0.1, which the address guard refuses otherwise.
            "TSOXA_WEBHOOKS_ALLOW_PRIVATE": "true",
        }
        self.process = None
        self.log = None

    def start(self) -> None:
        from config.celery import app

        self.log = open(ROOT / "celery-worker-test.log", "a")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--loglevel=INFO",
                "-Q",
                QUEUES,
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=1):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the Celery worker did not start; see {self.log.name}")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.process = None
        self.log.close()


@pytest.fixture
def worker(transactional_db):
    """A running worker; the test may stop and start it again."""
    from config.celery import app

    app.control.purge()
    (ROOT / "celery-worker-test.log").unlink(missing_ok=True)
    w = Worker()
    w.start()
    try:
        yield w
    finally:
        w.stop()

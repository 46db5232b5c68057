"""Ready to deploy: production settings pass `check --deploy`; logins and table links are rate-limited."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]


def check_deploy(**env):
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL"))}
    environment.update(
        DJANGO_SETTINGS_MODULE="config.settings.prod",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(60),
        DJANGO_ALLOWED_HOSTS="tsoxa.example.org",
        **env,
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_production_settings_pass_check_deploy_with_no_warning():
    done = check_deploy(CACHE_URL="redis://127.0.0.1:6379/1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_production_without_a_shared_cache_is_refused():
    done = check_deploy()
    assert done.returncode != 0
    assert "django_ratelimit.E003" in done.stdout + done.stderr


@pytest.fixture
def fresh_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.mark.django_db
def test_login_attempts_are_limited(client, fresh_limits):
    for _ in range(10):
        assert client.post(reverse("login"), {"username": "x", "password": "wrong"}).status_code == 200
    response = client.post(reverse("login"), {"username": "x", "password": "wrong"})
    assert response.status_code == 429
    assert "Too many attempts" in response.text


@pytest.mark.django_db
def test_guessing_table_links_is_limited(client, fresh_limits):
    for _ in range(30):
        assert client.get(reverse("tournaments:scorekeeper", args=["guess"])).status_code == 404
    assert client.get(reverse("tournaments:scorekeeper", args=["guess"])).status_code == 429


@pytest.mark.django_db
def test_health(client):
    assert client.get("/health/").json() == {"status": "ok"}

"""Ready to deploy: production settings pass `check --deploy`; logins and table links are rate-limited."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]


VAPID_PUBLIC = "BDZ_k4iEKtWgtMMsBR9JzaEIJKYA1STBLu2Tke4A7Q0ydzE8RCfAsOesEATEB-u9Cjft0s02p4FtZKKLKbyygLw"
VAPID_PRIVATE = "aNoKmHtBILP0vyb1oJYYwLk1hwMPiXSbFPhVG0TjEXk"


def check_deploy(*, tags=("security", "caches"), **env):
    """`manage.py check --deploy` under the production settings and ``env``: only the checks of
    ``tags`` (ours and Django's own are security's, the rate limit's shared cache is caches'),
    every check where ``tags`` is empty. Every check takes 4 s on CI's machine, three of them the
    API schema's generation (drf-spectacular's deploy check) and the URL and template checks:
    the one test that wants them all says so, the others look at the warnings of their tags."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL"))}
    environment.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.prod",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
            "DJANGO_ALLOWED_HOSTS": "tsoxa.example.org",
            "TSOXA_SITE_URL": "https://tsoxa.example.org",
            "EMAIL_URL": "smtp+tls://tsoxa:secret@smtp.example.org:587",
            "DEFAULT_FROM_EMAIL": "Tsoxa <tsoxa@example.org>",
            # Web Push on (tsoxa.W005 otherwise): a pair made by `manage.py vapid_keys` for the tests
            "TSOXA_VAPID_PUBLIC_KEY": VAPID_PUBLIC,
            "TSOXA_VAPID_PRIVATE_KEY": VAPID_PRIVATE,
            "TSOXA_VAPID_SUBJECT": "mailto:tsoxa@example.org",
            **env,
        }
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
        + [f"--tag={tag}" for tag in tags],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def run_python(code, **env):
    """``code`` run with the production settings, after django.setup()."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL"))}
    environment.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.prod",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
            "DJANGO_ALLOWED_HOSTS": "tsoxa.example.org",
            "CACHE_URL": "redis://127.0.0.1:6379/1",
            **env,
        }
    )
    program = "import django\ndjango.setup()\n" + code
    return subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_check_deploy_with_no_warning():
    done = check_deploy(tags=(), CACHE_URL="redis://127.0.0.1:6379/1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000", "https://localhost", "http://tsoxa.example.org"])
def test_production_with_the_sites_address_left_local_or_plain_http_is_warned(url):
    """The links of the webhooks' payloads and the problems' type start with TSOXA_SITE_URL."""
    done = check_deploy(CACHE_URL="redis://127.0.0.1:6379/1", TSOXA_SITE_URL=url)
    assert done.returncode != 0
    assert "tsoxa.W001" in done.stdout + done.stderr


def test_production_without_a_shared_cache_is_refused():
    done = check_deploy()
    assert done.returncode != 0
    assert "django_ratelimit.E003" in done.stdout + done.stderr


EXAMPLE_KEY = next(
    line.split("=", 1)[1]
    for line in (ROOT / ".env.example").read_text().splitlines()
    if line.startswith("DJANGO_SECRET_KEY=")
)


@pytest.mark.parametrize(
    "key",
    [
        "dev-only-insecure-key-change-me",  # base.py's development default
        EXAMPLE_KEY,  # the placeholder of .env.example
        "",
        "x7#Qm2!vR9" * 4 + "a" * 9,  # random-looking but 49 characters
        "django-insecure-" + "k" * 50,
    ],
    ids=["development default", ".env.example", "empty", "49 characters", "django-insecure"],
)
def test_production_refuses_a_secret_key_anyone_could_know(key):
    done = check_deploy(DJANGO_SECRET_KEY=key, CACHE_URL="redis://127.0.0.1:6379/1")
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert "DJANGO_SECRET_KEY must be a random string of at least 50 characters" in done.stderr


def test_production_without_a_secret_key_does_not_start():
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL"))}
    environment.update(
        DJANGO_SETTINGS_MODULE="config.settings.prod", DJANGO_ALLOWED_HOSTS="tsoxa.example.org"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr


def test_server_errors_are_logged_to_stdout_with_their_traceback():
    done = run_python(
        "import logging\n"
        "try:\n    1 / 0\n"
        "except ZeroDivisionError:\n"
        "    logging.getLogger('django.request').error('Internal Server Error: /boom/', exc_info=True)\n"
        "logging.getLogger('tsoxa').warning('a warning of ours')\n"
        "logging.getLogger('tsoxa').info('chatter')\n"
    )
    assert done.returncode == 0, done.stderr
    assert "ERROR django.request" in done.stdout
    assert "Internal Server Error: /boom/" in done.stdout
    assert "Traceback (most recent call last)" in done.stdout
    assert "ZeroDivisionError: division by zero" in done.stdout
    assert "a warning of ours" in done.stdout
    assert "chatter" not in done.stdout  # WARNING by default


def test_the_log_level_comes_from_the_environment():
    done = run_python("import logging\nlogging.getLogger('tsoxa').info('chatter')\n", DJANGO_LOG_LEVEL="info")
    assert "INFO tsoxa" in done.stdout and "chatter" in done.stdout


@pytest.mark.parametrize(
    ("value", "admins"),
    [
        (None, []),
        ("Ana <ana@example.org>,bob@example.org", ["Ana <ana@example.org>", "bob@example.org"]),
    ],
)
def test_admins_are_mailed_only_when_set(value, admins):
    env = {} if value is None else {"DJANGO_ADMINS": value}
    done = run_python("from django.conf import settings\nprint(repr(settings.ADMINS))\n", **env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr(admins)


def test_compose_publishes_the_web_port_on_the_loopback_only():
    """The TLS proxy on the host reaches gunicorn there; nothing else does."""
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert compose["services"]["web"]["ports"] == ["127.0.0.1:8000:8000"]
    for name, service in compose["services"].items():
        for port in service.get("ports", []):
            assert str(port).startswith("127.0.0.1:"), name


@pytest.mark.django_db
def test_login_attempts_are_limited(client):
    for _ in range(10):
        assert client.post(reverse("login"), {"username": "x", "password": "wrong"}).status_code == 200
    response = client.post(reverse("login"), {"username": "x", "password": "wrong"})
    assert response.status_code == 429
    assert "Too many attempts" in response.text


@pytest.mark.django_db
def test_guessing_table_links_is_limited(client):
    for _ in range(30):
        assert client.get(reverse("tournaments:scorekeeper", args=["guess"])).status_code == 404
    assert client.get(reverse("tournaments:scorekeeper", args=["guess"])).status_code == 429


@pytest.mark.django_db
def test_health(client):
    """Each dependency apart: tests/integration/test_outages.py."""
    body = client.get("/health/").json()
    assert body["status"] == "ok" and set(body["checks"]) == {"database", "cache", "broker"}


def test_the_image_holds_every_app_and_the_catalogues():
    """The Dockerfile copies each of our apps (pip installs only what is there: an app left out is an
    image that cannot start) and the compiled translations (else every page is in English)."""
    from django.conf import settings

    copied = {
        line.split()[1] for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("COPY ")
    }
    ours = {app for app in settings.INSTALLED_APPS if (ROOT / app).is_dir()}
    assert ours and ours <= copied
    assert {"config", "api", "web", "templates", "static", "locale"} <= copied


def test_the_load_benchmarks_application_starts():
    """benchmarks/load_wsgi.py is what gunicorn boots for `./run bench load`: it must set Django up
    before importing DRF's views (they import the authentication classes, and those the models)."""
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "TSOXA_LOAD_BENCHMARK": "1",
    }
    done = subprocess.run(
        [sys.executable, "-c", "import benchmarks.load_wsgi"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]

"""What `check --deploy` warns of besides Django's own (config/checks.py): webhooks allowed into the
private network (tsoxa.W002), a rate limit off (tsoxa.W003), no mail server (tsoxa.W004); the
production defaults of the Celery entry point and of the language cookie."""

import os
import subprocess
import sys

import pytest

from tests.integration.test_deploy import ROOT, check_deploy, run_python

REDIS_CACHE = "redis://127.0.0.1:6379/1"


def test_webhooks_into_the_private_network_are_warned():
    done = check_deploy(CACHE_URL=REDIS_CACHE, TSOXA_WEBHOOKS_ALLOW_PRIVATE="true")
    assert done.returncode != 0
    assert "tsoxa.W002" in done.stdout + done.stderr
    assert "tsoxa.W003" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"RATELIMIT_ENABLE": "false"}, "RATELIMIT_ENABLE is false"),
        ({"TSOXA_API_RATE_ANON": ""}, "the API's rates anon are empty"),
    ],
    ids=["login limits off", "an API rate empty"],
)
def test_a_rate_limit_turned_off_is_warned(env, said):
    done = check_deploy(CACHE_URL=REDIS_CACHE, **env)
    said_all = done.stdout + done.stderr
    assert done.returncode != 0
    assert "tsoxa.W003" in said_all and said in said_all
    assert "tsoxa.W002" not in said_all


def test_the_api_throttle_removed_is_warned():
    done = run_python(
        "from django.conf import settings\n"
        "from django.test import override_settings\n"
        "from config.checks import rate_limits_on\n"
        "rest = {**settings.REST_FRAMEWORK, 'DEFAULT_THROTTLE_CLASSES': []}\n"
        "with override_settings(REST_FRAMEWORK=rest):\n"
        "    print([w.id for w in rate_limits_on()])\n"
        "print([w.id for w in rate_limits_on()])\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["['tsoxa.W003']", "[]"]


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"EMAIL_URL": ""}, "no mail server is set"),
        ({"DEFAULT_FROM_EMAIL": ""}, "the sender, DEFAULT_FROM_EMAIL (''), is no address"),
        ({"DEFAULT_FROM_EMAIL": "Tsoxa <tsoxa@localhost>"}, "DEFAULT_FROM_EMAIL ('tsoxa@localhost')"),
    ],
    ids=["no mail server", "no sender", "a sender at localhost"],
)
def test_production_without_mail_is_warned(env, said):
    """Nobody could reset a forgotten password (players/accounts.py)."""
    done = check_deploy(CACHE_URL=REDIS_CACHE, **env)
    said_all = done.stdout + done.stderr
    assert done.returncode != 0
    assert "tsoxa.W004" in said_all and said in said_all
    assert "tsoxa.W003" not in said_all


@pytest.mark.parametrize(
    "env",
    [
        {"EMAIL_URL": "", "EMAIL_HOST": "smtp.example.org", "EMAIL_USE_TLS": "true"},
        {"EMAIL_URL": "smtp://localhost:25"},
    ],
    ids=["part by part", "a relay on the machine, named"],
)
def test_a_mail_server_named_either_way_is_not_warned(env):
    done = check_deploy(CACHE_URL=REDIS_CACHE, **env)
    assert "System check identified" in done.stdout + done.stderr  # it ran
    assert "tsoxa.W004" not in done.stdout + done.stderr


def test_the_mail_settings_come_from_the_environment():
    show = "from django.conf import settings\nprint(sorted(settings.MAILERS['default']['OPTIONS'].items()))\n"
    done = run_python(show, EMAIL_URL="smtp+ssl://tsoxa:p%40ss@smtp.example.org:465", EMAIL_TIMEOUT="5")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(
        sorted(
            {
                "host": "smtp.example.org",
                "port": 465,
                "username": "tsoxa",
                "password": "p@ss",
                "use_tls": False,
                "use_ssl": True,
                "timeout": 5,
            }.items()
        )
    )
    done = run_python(show, EMAIL_URL="smtp+tls://a:b@mail.example.org:587", EMAIL_HOST="other.example.org")
    assert "('host', 'other.example.org')" in done.stdout and "('use_tls', True)" in done.stdout
    backend = run_python("from django.core import mail\nprint(type(mail.mailers['default']).__module__)\n")
    assert backend.stdout.strip() == "django.core.mail.backends.smtp"


@pytest.mark.parametrize("module", ["config.celery", "config.wsgi", "config.asgi"])
def test_every_entry_point_defaults_to_the_production_settings(module):
    """A worker started without DJANGO_SETTINGS_MODULE runs what web and live run: production."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL"))}
    # Stop before the application is built (it needs the production secrets): just the default.
    code = (
        "import os, django\n"
        "django.setup = lambda *a, **k: None\n"
        "import django.core.wsgi, django.core.asgi\n"
        "django.core.wsgi.get_wsgi_application = django.core.asgi.get_asgi_application = lambda: None\n"
        f"import {module}\n"
        "print(os.environ['DJANGO_SETTINGS_MODULE'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "config.settings.prod"


def test_the_language_cookie_is_secure_in_production():
    done = run_python(
        "from django.test import Client\n"
        "response = Client().post('/i18n/setlang/', {'language': 'el', 'next': '/'}, secure=True, "
        "HTTP_HOST='tsoxa.example.org')\n"
        "cookie = response.cookies['django_language']\n"
        "print(response.status_code, cookie['secure'], cookie['httponly'], cookie['samesite'])\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["302", "True", "True", "Lax"]


def test_the_language_cookie_is_not_secure_on_a_laptop(client):
    """On http://127.0.0.1 (the development and test settings) a Secure cookie would be dropped."""
    response = client.post("/i18n/setlang/", {"language": "el", "next": "/"})
    cookie = response.cookies["django_language"]
    assert not cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "Lax"


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"TSOXA_VAPID_PRIVATE_KEY": ""}, "Web Push is off: TSOXA_VAPID_PRIVATE_KEY unset"),
        (
            {"TSOXA_VAPID_PUBLIC_KEY": "", "TSOXA_VAPID_SUBJECT": ""},
            "TSOXA_VAPID_PUBLIC_KEY, TSOXA_VAPID_SUBJECT",
        ),
        ({"TSOXA_VAPID_SUBJECT": "club@example.org"}, "must start with mailto: or https://"),
        ({"TSOXA_VAPID_PUBLIC_KEY": "BAAA"}, "is not the public key of TSOXA_VAPID_PRIVATE_KEY"),
        ({"TSOXA_VAPID_PRIVATE_KEY": "not*base64"}, "not base64url raw P-256 keys"),
    ],
    ids=["no private key", "two unset", "a subject that is no address", "keys of two pairs", "not a key"],
)
def test_web_push_off_or_misconfigured_is_warned(env, said):
    done = check_deploy(CACHE_URL=REDIS_CACHE, **env)
    said_all = done.stdout + done.stderr
    assert done.returncode != 0
    assert "tsoxa.W005" in said_all and said in said_all

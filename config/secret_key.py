"""Production refuses a secret key anyone could know (the signing of sessions and links rests on it)."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

# The development default (config/settings/base.py) and the placeholder of .env.example.
DEVELOPMENT_KEY = "dev-only-insecure-key-change-me"
EXAMPLE_KEY = "change-me-to-a-long-random-string-of-at-least-fifty-characters"
MIN_LENGTH = 50


def production_secret_key(value: str) -> str:
    """``value`` if it can sign production data, else ImproperlyConfigured: the server does not start."""
    known = {DEVELOPMENT_KEY, EXAMPLE_KEY}
    if value in known or value.startswith("django-insecure-") or len(value) < MIN_LENGTH:
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY must be a random string of at least {MIN_LENGTH} characters, not the "
            "example or development key: e.g. python -c 'import secrets; print(secrets.token_urlsafe(60))'"
        )
    return value

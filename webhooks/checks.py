"""A deploy check (``manage.py check --deploy``): the site's own address is set.

``TSOXA_SITE_URL`` starts the links of every webhook's payload and the ``type`` of every API problem;
left at its development default (``http://127.0.0.1:8000``), a club's server would be sent links to
itself, and the problems' pages would be nowhere.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def site_url_is_public(app_configs=None, **kwargs) -> list[Warning]:
    url = getattr(settings, "TSOXA_SITE_URL", "")
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname not in (None, "", "localhost", "127.0.0.1", "::1"):
        return []
    return [
        Warning(
            f"TSOXA_SITE_URL is {url!r}: set it to the site's public https:// address (the links in "
            "webhooks' payloads and the API problems' type start with it).",
            id="tsoxa.W001",
        )
    ]

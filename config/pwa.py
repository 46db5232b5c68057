"""The installable app: its manifest, its service worker and the page shown without a connection.

The service worker's code is static/scoring/sw.js; it is served from the site's root (``/sw.js``)
so that it controls every page, with a first line written here: the version (a digest of the
files it keeps, so that a deploy that changes one installs a new worker and drops the old copies),
the files to keep for a sheet opened without a connection, and the offline page.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import engines
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

WORKER_SOURCE = "scoring/sw.js"
THEME_COLOR = "#14533e"  # the felt of the icon (τσόχα)
BACKGROUND_COLOR = "#fafafa"  # tsoxa.css's page


def _static_paths() -> list[str]:
    """What a page loads: the project's own styles, scripts and drawn icon (the PNG icons are for
    installing), and htmx, as paths under STATIC_URL."""
    listed = finders.FileSystemFinder().list([".*", "*~"])
    own = sorted(path for path, _storage in listed if path != WORKER_SOURCE and not path.endswith(".png"))
    htmx = engines["django"].from_string("{% load django_htmx %}{% htmx_script %}").render({})
    prefix = settings.STATIC_URL if settings.STATIC_URL.startswith("/") else f"/{settings.STATIC_URL}"
    return own + [src.removeprefix(prefix) for src in re.findall(r'src="([^"]+)"', htmx)]


def _digest(paths: list[str]) -> str:
    digest = hashlib.sha256()
    for path in [WORKER_SOURCE, *paths]:
        found = finders.find(path)
        digest.update(path.encode())
        if found:
            with open(found, "rb") as file:
                digest.update(file.read())
    return digest.hexdigest()[:16]


def _worker_script() -> str:
    paths = _static_paths()
    config = {
        "version": _digest(paths),
        "static": static(""),
        "precache": [static(path) for path in paths] + [reverse("javascript-catalog")],
        "catalog": reverse("javascript-catalog"),
        "offline": reverse("offline"),
    }
    with open(finders.find(WORKER_SOURCE), encoding="utf-8") as file:
        source = file.read()
    return f"const TSOXA = {json.dumps(config)};\n{source}"


# Read once per process, unless static files are reloaded as they change (dev and test settings).
_cached_worker_script = cache(_worker_script)


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: asked again by the browser on every visit (no-cache), so a new version is seen."""
    fresh = getattr(settings, "WHITENOISE_AUTOREFRESH", settings.DEBUG)
    script = _worker_script() if fresh else _cached_worker_script()
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web-app manifest: what a tablet needs to install Tsoxa on its home screen."""
    icon = {"type": "image/png"}
    data = {
        "id": "/",
        "name": "Tsoxa",
        "short_name": "Tsoxa",
        "description": _("Score sheets and tournaments for Belote-family card games"),
        "lang": get_language(),
        "start_url": reverse("scoring:home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "icons": [
            {**icon, "src": static("icons/icon-192.png"), "sizes": "192x192", "purpose": "any"},
            {**icon, "src": static("icons/icon-512.png"), "sizes": "512x512", "purpose": "any"},
            {**icon, "src": static("icons/maskable-512.png"), "sizes": "512x512", "purpose": "maskable"},
        ],
    }
    response = JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """Kept by the service worker when it installs, shown for a page that cannot be loaded."""
    return render(request, "offline.html")

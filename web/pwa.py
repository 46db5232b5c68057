"""The installable app: its manifest, its service worker and the page shown without a connection.

The service worker's code is static/scoring/sw.js; it is served from the site's root (``/sw.js``)
so that it controls every page, with a first line written here: the version (a digest of the
files it keeps, so that a deploy that changes one installs a new worker and drops the old copies),
the files to keep for a sheet opened without a connection, and the offline page.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import engines
from django.templatetags.static import static
from django.urls import reverse
from django.utils.csp import CSP
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_safe

WORKER_SOURCE = "scoring/sw.js"
ENGINE_WORKER_SOURCE = "scoring/engine-worker.js"
# Pyodide's core files (./run copies them from npm into static/pyodide/): not kept when the worker
# installs (10 MB), but when a sheet with a pad is kept (sw.js), for the engine without a connection.
PYODIDE_DIR = "pyodide/"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
ENGINE_DIR = Path(__file__).resolve().parent.parent / "scoring" / "engine"
THEME_COLOR = "#14533e"  # the felt of the icon (τσόχα)
BACKGROUND_COLOR = "#fafafa"  # tsoxa.css's page


def _static_paths() -> list[str]:
    """What a page loads: the project's own styles, scripts and drawn icon (the PNG icons are for
    installing), and htmx, as paths under STATIC_URL."""
    listed = finders.FileSystemFinder().list([".*", "*~"])
    own = sorted(
        path
        for path, _storage in listed
        if path not in (WORKER_SOURCE, ENGINE_WORKER_SOURCE)
        and not path.endswith(".png")
        and not path.startswith(PYODIDE_DIR)
    )
    htmx = engines["django"].from_string("{% load django_htmx %}{% htmx_script %}").render({})
    prefix = settings.STATIC_URL if settings.STATIC_URL.startswith("/") else f"/{settings.STATIC_URL}"
    return own + [src.removeprefix(prefix) for src in re.findall(r'src="([^"]+)"', htmx)]


def _own(path: str) -> str:
    """The file of one of the site's own static files (in static/, always there)."""
    found = finders.find(path)
    assert found is not None, path  # shipped with the code
    return found


def _digest(paths: list[str]) -> str:
    digest = hashlib.sha256()
    for path in [WORKER_SOURCE, *paths]:
        found = finders.find(path)
        digest.update(path.encode())
        if found:
            with open(found, "rb") as file:
                digest.update(file.read())
    return digest.hexdigest()[:16]


def _engine_sources() -> list[Path]:
    return sorted(path for path in ENGINE_DIR.rglob("*.py") if "__pycache__" not in path.parts)


def _engine_digest() -> str:
    """Pyodide's version (its lock file) and the engine's files: a change keeps them again."""
    digest = hashlib.sha256()
    found = finders.find(PYODIDE_DIR + "pyodide-lock.json")
    if found:
        with open(found, "rb") as file:
            digest.update(file.read())
    for path in _engine_sources():
        digest.update(str(path.relative_to(ENGINE_DIR)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _engine_zip() -> bytes:
    """scoring/engine/'s Python files as they are (no copy that could drift), in a zip that Pyodide
    unpacks and imports as ``scoring.engine`` (``scoring/__init__.py`` is empty there: no Django)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("scoring/__init__.py", "")
        for path in _engine_sources():
            archive.writestr(f"scoring/engine/{path.relative_to(ENGINE_DIR).as_posix()}", path.read_bytes())
    return buffer.getvalue()


def _worker_script() -> str:
    paths = _static_paths()
    config = {
        "version": _digest(paths),
        "static": static(""),
        "precache": [static(path) for path in paths] + [reverse("javascript-catalog")],
        "catalog": reverse("javascript-catalog"),
        "offline": reverse("offline"),
        # The tablet's engine without a connection (static/scoring/engine-loader.js).
        "engine": {
            "version": _engine_digest(),
            "files": [static(PYODIDE_DIR + name) for name in PYODIDE_FILES]
            + [reverse("engine-worker"), reverse("engine-zip")],
        },
    }
    with open(_own(WORKER_SOURCE), encoding="utf-8") as file:
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


# The engine's worker compiles Pyodide's WebAssembly: its own policy allows that ('wasm-unsafe-eval',
# no eval), the pages keep theirs.
ENGINE_WORKER_CSP: dict[str, list[str]] = {
    **settings.SECURE_CSP,
    "script-src": [CSP.SELF, CSP.WASM_UNSAFE_EVAL],
}


@require_safe
@csp_override(ENGINE_WORKER_CSP)
def engine_worker(request: HttpRequest) -> HttpResponse:
    """``/engine-worker.js``: static/scoring/engine-worker.js, with a first line naming the static
    files' address (Pyodide's are there), under a policy of its own."""
    with open(_own(ENGINE_WORKER_SOURCE), encoding="utf-8") as file:
        source = file.read()
    script = f"const TSOXA_STATIC = {json.dumps(static(''))};\n{source}"
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def engine_zip(request: HttpRequest) -> HttpResponse:
    """``/engine.zip``: the scoring engine's Python files, run on the tablet by Pyodide when deals
    wait without a connection (static/scoring/engine-loader.js); sw.js keeps the latest."""
    response = HttpResponse(_engine_zip(), content_type="application/zip")
    response["Cache-Control"] = "no-cache"
    return response

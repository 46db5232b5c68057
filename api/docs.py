"""The API's documentation pages, /api/docs/ (Swagger UI) and /api/redoc/ (ReDoc): everything they
load comes from this site, so they work in a café without internet and tell no one who reads them.

Both run the bundles of drf-spectacular-sidecar (our static files):

- Swagger UI as the "split" view, whose start-up script is a file of its own rather than inline, so
  that the page needs no nonce; the sidecar's favicon, no validator badge (SPECTACULAR_SETTINGS).
- ReDoc on templates/api/redoc.html: no web fonts (the system's), and its bundle served by
  ``redoc_bundle`` below, the sidecar's with the one image it would fetch from Redocly's CDN (the
  small logo beside "API docs by Redocly") replaced by an empty one written inline. ReDoc runs its
  search in a worker made from a blob: URL.

Each page has its Content-Security-Policy: the site's, with scripts from our origin only.
"""

from __future__ import annotations

import functools
from pathlib import Path

import drf_spectacular_sidecar
from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

DOCS_CSP: dict[str, list[str]] = {**settings.SECURE_CSP, "script-src": [CSP.SELF]}
REDOC_CSP: dict[str, list[str]] = {**DOCS_CSP, "worker-src": [CSP.SELF, "blob:"]}

swagger = csp_override(DOCS_CSP)(SpectacularSwaggerSplitView.as_view(url_name="schema"))
redoc = csp_override(REDOC_CSP)(
    SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html")
)

REDOC_BUNDLE = "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
# The bundle's address names the sidecar's version: a browser keeps it until an upgrade.
REDOC_BUNDLE_PATH = f"redoc/redoc-{drf_spectacular_sidecar.__version__}.js"
REDOCLY_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"
NO_IMAGE = b"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='0' height='0'/%3E"
A_YEAR = 365 * 24 * 3600


@functools.cache
def redoc_bundle_bytes() -> bytes:
    """The sidecar's ReDoc bundle, with no address outside this site to load an image from."""
    found = finders.find(REDOC_BUNDLE)
    assert found is not None  # drf-spectacular-sidecar is installed (an app in INSTALLED_APPS)
    return Path(found).read_bytes().replace(REDOCLY_LOGO, NO_IMAGE)


@require_safe
@gzip_page
def redoc_bundle(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(redoc_bundle_bytes(), content_type="text/javascript; charset=utf-8")
    patch_cache_control(response, public=True, max_age=A_YEAR, immutable=True)
    return response

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

The schema itself (/api/schema/) is made once a process for each language and version: it
depends only on the code and the settings, and making it takes a second or more of CPU (anyone
may ask for it, often). A change of settings (the tests' overrides) forgets what was made.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import drf_spectacular_sidecar
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.request import Request
from rest_framework.response import Response

DOCS_CSP: dict[str, list[str]] = {**settings.SECURE_CSP, "script-src": [CSP.SELF]}
REDOC_CSP: dict[str, list[str]] = {**DOCS_CSP, "worker-src": [CSP.SELF, "blob:"]}

_schemas: dict[tuple[str | None, str | None], Any] = {}  # (language, version): the schema made


def _forget_schemas(**kwargs: Any) -> None:
    _schemas.clear()


setting_changed.connect(_forget_schemas, dispatch_uid="api.docs.forget_schemas")


class SchemaView(SpectacularAPIView):
    """drf-spectacular's schema view, each language's and version's schema made once a process
    (its ``get`` has set the language a ``?lang=`` asks for)."""

    def _get_schema_response(self, request: Request) -> Response:
        version = self.api_version or request.version or self._get_version_parameter(request)
        key = (translation.get_language(), version)
        # Only the site's languages and no version are kept: anything else a request may name
        # (?lang=xx, ?version=yy) is made for it and forgotten, never a new schema kept for good.
        keep = version is None and any(key[0] == code for code, _name in settings.LANGUAGES)
        schema = _schemas.get(key) if keep else None
        if schema is None:
            generator = self.generator_class(
                urlconf=self.urlconf, api_version=version, patterns=self.patterns
            )
            schema = generator.get_schema(request=request, public=self.serve_public)
            if keep:
                _schemas[key] = schema
        disposition = f'inline; filename="{self._get_filename(request, version)}"'
        return Response(data=schema, headers={"Content-Disposition": disposition})


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

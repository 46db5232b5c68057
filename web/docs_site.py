"""The documentation site, served at ``/docs/``: the guides of ``docs/`` as MkDocs builds them
(``mkdocs.yml``; ``./run`` builds them into ``TSOXA_DOCS_DIR`` whenever they change, the Dockerfile
when the image is built), so that a café without internet has them too.

- A directory's address answers its ``index.html`` (MkDocs' ``use_directory_urls``); without its
  trailing slash it is redirected to it. A path that is not in the site answers the site's own
  ``404.html`` with a 404; a path that leaves the site, or names a hidden file, is a 404 too.
- Every file carries its content type, ``Last-Modified`` and an ``ETag`` (a ``304`` when unchanged);
  the theme's assets, whose names carry their digest, are kept a year, the rest asked for again.
- The pages run the Material theme's scripts: its files, and a few small inline scripts (where the
  site lies, the colour scheme) that differ from page to page. Each page is served under the site's
  Content-Security-Policy with ``script-src 'self'`` and the SHA-256 of that page's own inline
  scripts, and nothing else: no ``'unsafe-inline'``, no eval, nothing from another origin.

``page_url`` gives the address of a guide in the reader's language where the site has one
(``docs/el/scorekeeper.md`` → ``/docs/el/scorekeeper/``): the in-app help links through it.
"""

from __future__ import annotations

import base64
import hashlib
import mimetypes
import re
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.exceptions import SuspiciousFileOperation
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.utils._os import safe_join
from django.utils.cache import get_conditional_response
from django.utils.csp import CSP
from django.utils.http import http_date
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

PREFIX = "/docs/"
INDEX = "index.html"
NOT_FOUND_PAGE = "404.html"
ASSETS = "assets/"  # the theme's files: their names change with their content
YEAR = 365 * 24 * 3600
# An inline <script> that runs (not a data block such as Material's type="application/json").
INLINE_SCRIPT = re.compile(rb"<script(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</script>", re.S | re.I)
SOURCE = re.compile(rb"\ssrc\s*=", re.I)
DATA_TYPE = re.compile(rb"""\stype\s*=\s*["']?(?!text/javascript|module|application/javascript)""", re.I)


def root() -> Path:
    return Path(settings.TSOXA_DOCS_DIR)


def _file(path: str) -> Path | None:
    """The site's file for ``path`` (a directory's index), or None: outside the site, hidden, absent."""
    if any(part.startswith(".") for part in path.split("/")):
        return None
    try:
        found = Path(safe_join(root(), path))
    except (SuspiciousFileOperation, ValueError):  # the path leaves the site, or holds a NUL
        return None
    if found.is_dir():
        found = found / INDEX
    return found if found.is_file() else None


@cache
def _script_hashes(path: Path, mtime_ns: int) -> tuple[str, ...]:
    """The CSP hash sources of the page's inline scripts (kept per file and modification time)."""
    html = path.read_bytes()
    hashes = []
    for script in INLINE_SCRIPT.finditer(html):
        attrs = script.group("attrs")
        if SOURCE.search(attrs) or DATA_TYPE.search(attrs):
            continue
        digest = base64.b64encode(hashlib.sha256(script.group("body")).digest()).decode()
        hashes.append(f"'sha256-{digest}'")
    return tuple(dict.fromkeys(hashes))


def policy(path: Path) -> dict:
    """The site's Content-Security-Policy for a page of the guides: its own inline scripts by hash."""
    hashes = _script_hashes(path, path.stat().st_mtime_ns)
    return {**settings.SECURE_CSP, "script-src": [CSP.SELF, *hashes]}


def _serve(request: HttpRequest, path: Path, status: int = 200) -> HttpResponseBase:
    stat = path.stat()
    html = path.suffix == ".html"
    relative = path.relative_to(root()).as_posix()
    headers = {
        "Cache-Control": f"max-age={YEAR}, immutable" if relative.startswith(ASSETS) else "no-cache",
        "Last-Modified": http_date(stat.st_mtime),
        "ETag": f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"',
    }
    response: HttpResponseBase | None = None
    if status == 200:
        # Answered here rather than by ConditionalGetMiddleware, whose 304 would lose the page's own
        # policy: a browser takes a 304's headers over those it kept, and would then refuse the
        # page's scripts.
        response = get_conditional_response(request, etag=headers["ETag"], last_modified=int(stat.st_mtime))
    if response is None:
        if html:
            response = HttpResponse(path.read_bytes(), content_type="text/html; charset=utf-8", status=status)
        else:
            response = FileResponse(path.open("rb"), status=status)  # its type guessed from the name
            content_type, encoding = mimetypes.guess_type(path.name)
            if content_type and content_type.startswith("text/") and not encoding:
                response["Content-Type"] = f"{content_type}; charset=utf-8"
    if status == 200:
        for name, value in headers.items():
            response[name] = value
    if html:
        # Read by Django's CSP middleware, as csp_override sets it.
        response._csp_config = policy(path)  # type: ignore[attr-defined]  # private, not in the stubs
    return response


def _not_found(request: HttpRequest) -> HttpResponseBase:
    page = root() / NOT_FOUND_PAGE
    if page.is_file():
        return _serve(request, page, status=404)
    message = _("The guides have not been built on this server: ./run builds them, or mkdocs build.")
    return HttpResponse(message, status=404, content_type="text/plain; charset=utf-8")


@require_safe
def page(request: HttpRequest, path: str = "") -> HttpResponseBase:
    """A file of the built site: a page, or an asset it loads."""
    found = _file(path)
    if found is None:
        return _not_found(request)
    if found.name == INDEX and path and not path.endswith("/") and not path.endswith(INDEX):
        return HttpResponseRedirect(f"{PREFIX}{path}/")
    return _serve(request, found)


def page_url(name: str, language: str | None = None) -> str:
    """The address of guide ``name`` (``"scorekeeper"``, ``"games/coinche"``, ``"#anchor"`` after it
    allowed) in ``language`` (the active one by default) where the site has that translation, else
    in English."""
    name, hash_, anchor = name.partition("#")
    language = (language or get_language() or "en").split("-")[0]
    guide = name.strip("/")
    if language != "en" and _translated(language, guide):
        guide = f"{language}/{guide}"
    address = f"{PREFIX}{guide}/" if guide else PREFIX
    return f"{address}{hash_}{anchor}"


def _translated(language: str, guide: str) -> bool:
    """Whether the guides have ``guide`` in ``language`` (its source, docs/<language>/<guide>.md)."""
    return (Path(settings.BASE_DIR) / "docs" / language / f"{guide}.md").is_file()

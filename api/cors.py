"""Which requests a club's website may make from the browser (CORS): the API's public reads, only.

A static club website fetches a tournament's standings with ``fetch()`` from its own origin. The
browser shows it the answer only if the answer says so (``Access-Control-Allow-Origin``). The rule,
here and nowhere else:

- **Public reads answer any origin**, as ``Access-Control-Allow-Origin: *``: a GET or HEAD (or the
  preflight of one, or a plain OPTIONS) of one of the routes in ``PUBLIC_READS`` under ``/api/v1/``
  (``CORS_URLS_REGEX``): a tournament, its entries, rounds, standings, ranking, prizes and bracket,
  its exports, the matches' sheets and deals, a player's public record, clubs, seasons, ratings and
  presets. What anyone may read on the site, answered as to anyone: a private tournament is a 404
  to a request without credentials, CORS or not.
- **Never with credentials.** No ``Access-Control-Allow-Credentials``: a browser never shows another
  site's page an answer to a request that carried cookies (``credentials: "include"``), and a
  request carrying an ``Authorization`` header (a token), or a preflight asking to send one, gets
  no CORS headers at all. A token belongs on a server, never in a website's script.
- **Writes and private reads never answer another origin**: POST, PUT, PATCH, DELETE on any route
  get no CORS headers, and their preflight gets none either, so the browser refuses to send them;
  nor do the account's token (``/api/v1/token/``), its scoped tokens, the sync feed of removals
  (``/api/v1/changes/``, for a club's server that mirrors the API), webhooks, club invitations, the
  director's console and check-in, or anything outside ``/api/v1/`` (the pages, the schema).

django-cors-headers does the headers (settings: ``CORS_*`` in config/settings/base.py); this
middleware only narrows which requests it answers. A new read route is private until it is listed
here; tests/api/test_cors_api.py checks this list against the schema's reads open to anyone.
"""

from __future__ import annotations

from corsheaders.middleware import CorsMiddleware
from django.http import HttpRequest
from django.urls import Resolver404, resolve

READS = frozenset({"GET", "HEAD"})

# The API's routes (api/urls.py: the router's basename and action) that anyone may read.
PUBLIC_READS = frozenset(
    {
        "api-root",
        # Tournaments and results
        "tournament-list",
        "tournament-detail",
        "tournament-entries",
        "tournament-rounds",
        "tournament-round",
        "tournament-adjustments",
        "tournament-find",
        "tournament-export",
        "tournament-deals-csv",
        "match-list",
        "match-detail",
        "match-deals",
        "match-sheet",
        "match-match-file",
        # Standings and rankings
        "tournament-standings",
        "tournament-standings-csv",
        "tournament-ranking",
        "tournament-ranking-csv",
        "tournament-prizes",
        "tournament-bracket",
        "season-table",
        "rating-list",
        # Players and clubs: a player's public record
        "player-list",
        "player-detail",
        "player-history",
        "player-merges",
        "player-rating",
        "team-list",
        "team-detail",
        "club-list",
        "club-detail",
        # Seasons and rule presets
        "season-list",
        "season-detail",
        "preset-list",
        "preset-detail",
    }
)


def public_read(request: HttpRequest) -> bool:
    """Whether ``request`` is a read of the API that anyone may make from another origin."""
    if request.method == "OPTIONS":
        asked = request.headers.get("Access-Control-Request-Method")
        if asked is not None and asked.upper() not in READS:
            return False  # the preflight of a write
        if "authorization" in request.headers.get("Access-Control-Request-Headers", "").lower():
            return False  # the preflight of a read with a token
    elif request.method not in READS:
        return False
    if "Authorization" in request.headers:
        return False
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return False
    return match.namespace == "v1" and match.url_name in PUBLIC_READS


class PublicReadsCorsMiddleware(CorsMiddleware):
    """django-cors-headers' middleware, for the public reads of ``PUBLIC_READS`` only."""

    def is_enabled(self, request: HttpRequest) -> bool:
        return super().is_enabled(request) and public_read(request)

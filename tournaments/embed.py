"""Embeds: a tournament's live standings and a round's tables on a club's own website, in a frame.

Three public pages, each the data of a public page (the standings page, a round's page) without the
site's header, menu, language bar or footer, in the tournament's colours, readable from a 300 px
column to a full page:

- ``/tournaments/<slug>/embed/standings/``: the standings;
- ``/tournaments/<slug>/embed/rounds/<n>/``: round n's tables, their totals and results;
- ``/tournaments/<slug>/embed/round/``: the current round (the latest one started), or a line saying
  that none has started yet.

Who sees them: whoever sees the tournament's pages (a private tournament's embed is a 404 for the
others). Who may frame them: the site itself and the origins the organizer lists
(``services.embed``): their Content-Security-Policy is the site's with that ``frame-ancestors``,
and they send no X-Frame-Options; every other page keeps ``frame-ancestors 'none'``. The language
is the visitor's (Accept-Language), or the one the snippet asks for with ``?lang=el``; any other
query parameter is ignored, by the ETag and the cache too.

While the tournament runs, an embed asks for its content again every ``POLL_SECONDS`` (htmx; no
inline script) and stops once the tournament is finished. Many visitors of a club's page ask at
once, so an answer is cheap: its ETag is worked out from a few columns before anything is rendered
(a ``304`` when nothing changed), and the page rendered for that ETag is kept in the cache.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Max, OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.csp import CSP
from django.utils.html import format_html
from django.utils.translation import gettext
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from web.http import HtmxHttpRequest

from . import selectors
from .models import Adjustment, Round, Table, Tournament
from .services.embed import DEFAULT_BACKGROUND, DEFAULT_COLOUR

POLL_SECONDS = 30  # how often an open embed asks again while the tournament runs
FRESH_SECONDS = 15  # how long a browser or a shared cache may keep an answer without asking (running)
QUIET_SECONDS = 120  # the same before the start and after the finish
RENDERED_SECONDS = 600  # how long a rendered page is kept in the cache for its ETag
REVISION = 1  # raise it when the embed's markup changes: the ETags change with it

DARK_INK, LIGHT_INK = "#17212b", "#f4f2ed"  # tsoxa.css's --ink, and the light one for dark backgrounds


# Framing, colours, language ------------------------------------------------------------------


def frame_policy(tournament: Tournament) -> dict[str, Any]:
    """The site's Content-Security-Policy, with the tournament's embed origins as frame ancestors."""
    return {**settings.SECURE_CSP, "frame-ancestors": [CSP.SELF, *tournament.embed_origins.split()]}


def _luminance(colour: str) -> float:
    """WCAG's relative luminance of ``#rrggbb``."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def dark_background(background: str) -> bool:
    """Whether light text reads better than the site's dark ink on ``background``."""
    lum = _luminance(background)
    return (_luminance(LIGHT_INK) + 0.05) / (lum + 0.05) > (lum + 0.05) / (_luminance(DARK_INK) + 0.05)


def colours(tournament: Tournament) -> dict[str, Any]:
    """The embed's colours: the ``style`` of its ``<html>`` (custom properties, which embed.css
    uses) and whether its background is dark."""
    colour = tournament.colour or DEFAULT_COLOUR
    background = tournament.background or DEFAULT_BACKGROUND
    return {
        "style": f"--embed-colour: {colour}; --embed-background: {background}",
        "dark": dark_background(background),
    }


def _asked_language(request: HttpRequest) -> str:
    """``?lang=`` if it names one of the site's languages, else "": the only query the embeds read."""
    asked = request.GET.get("lang", "")
    return asked if asked in dict(settings.LANGUAGES) else ""


def _language(request: HttpRequest) -> str:
    """The language asked for (``?lang=``), else the visitor's (LocaleMiddleware)."""
    return _asked_language(request) or translation.get_language()


# The answer ----------------------------------------------------------------------------------


def _visible(request: HttpRequest, slug: str) -> Tournament:
    """The tournament's pages' rule: public, or its organizer's (and staff's); a 404 for others."""
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), slug=slug)
    if not selectors.tournament_visible(tournament, request.user):
        raise Http404("No such tournament.")
    return tournament


def _etag(parts: tuple[Any, ...]) -> str:
    return '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'


def _answer(
    request: HtmxHttpRequest,
    tournament: Tournament,
    *,
    template: str,
    version: tuple[Any, ...],
    live: bool,
    context: Callable[[], dict[str, Any]],
) -> HttpResponse:
    """The embed ``template`` (its ``#body`` alone for htmx's polling), or a 304 if the browser holds
    the version asked for; ``version`` is everything besides the tournament's row that the page shows,
    ``context`` is only called to render."""
    lang = _language(request)
    # Nothing else of the query string counts: ``?x=1``, ``?x=2`` … is one answer, one cache entry.
    asked = _asked_language(request)
    t = tournament
    etag = _etag((
        REVISION, template, bool(request.htmx), lang, asked, t.pk, t.name,
        t.status, t.public, t.embed_origins, t.colour, t.background, t.tiebreaks, t.updated_at, version,
    ))  # fmt: skip
    response = get_conditional_response(request, etag=etag)
    if response is None:
        key = f"tsoxa:embed:{etag.strip(chr(34))}"
        content = cache.get(key)
        if content is None:
            with translation.override(lang):
                page = {
                    "tournament": tournament,
                    "live": live,
                    "poll_seconds": POLL_SECONDS,
                    "poll_url": request.path + (f"?lang={asked}" if asked else ""),
                    **colours(tournament),
                    **context(),
                }
                name = f"{template}#body" if request.htmx else template
                content = render_to_string(name, page, request=request)
            cache.set(key, content, RENDERED_SECONDS)
        response = HttpResponse(content)
    response["ETag"] = etag
    response["Content-Language"] = lang
    patch_vary_headers(response, ("HX-Request",))
    audience = {"public": True} if tournament.public else {"private": True}
    patch_cache_control(response, max_age=FRESH_SECONDS if live else QUIET_SECONDS, **audience)
    # Read by ContentSecurityPolicyMiddleware, as Django's csp_override sets it (the stubs lack it).
    response._csp_config = frame_policy(tournament)  # type: ignore[attr-defined]  # stubs: no _csp_config
    return response


def _round_version(rnd: Round) -> tuple[Any, ...]:
    """What a round's tables show can only change if one of these does: the round's row, its tables
    (drawn, swapped: each a new row of their history), their matches (every deal saves the match)
    and the director's decisions at them. One query."""
    tables = Table.objects.filter(round_id=OuterRef("pk")).order_by().values("round_id")
    table_history = Table.history.model.objects.filter(round_id=OuterRef("pk")).order_by().values("round_id")
    decisions = (
        Adjustment.history.model.objects.filter(table__round_id=OuterRef("pk"))
        .order_by()
        .values("table__round_id")
    )
    found = (
        Round.objects.filter(pk=rnd.pk)
        .annotate(
            tables_changed=Subquery(table_history.annotate(last=Max("history_id")).values("last")),
            matches_changed=Subquery(tables.annotate(last=Max("match__updated_at")).values("last")),
            decisions_changed=Subquery(decisions.annotate(last=Max("history_id")).values("last")),
        )
        .values_list("tables_changed", "matches_changed", "decisions_changed")
        .first()
    )
    return (rnd.pk, rnd.number, rnd.kind, rnd.status, rnd.cut, found)


def _round_context(tournament: Tournament, rnd: Round | None) -> Callable[[], dict[str, Any]]:
    def context() -> dict[str, Any]:
        if rnd is None:
            return {"round": None}
        rnd.tournament = tournament
        return {
            "round": rnd,
            "tables": selectors.round_tables(rnd=rnd),
            "decisions": selectors.decisions_by_table(rnd=rnd),
        }

    return context


# The views -----------------------------------------------------------------------------------


@xframe_options_exempt
@require_safe
def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = _visible(request, slug)
    data = selectors.standings_get(tournament=tournament)
    return _answer(
        request,
        tournament,
        template="tournaments/embed_standings.html",
        version=("standings", data["version"], data["computed_at"]),
        live=tournament.status == Tournament.Status.RUNNING,
        context=lambda: {"standings": data},
    )


@xframe_options_exempt
@require_safe
def round_detail(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _visible(request, slug)
    rnd = get_object_or_404(tournament.rounds, number=number)
    running = tournament.status == Tournament.Status.RUNNING
    return _answer(
        request,
        tournament,
        template="tournaments/embed_round.html",
        version=_round_version(rnd),
        live=running and rnd.status != Round.Status.FINISHED,
        context=_round_context(tournament, rnd),
    )


@xframe_options_exempt
@require_safe
def round_current(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The latest round started (a drawn one waits for its start), or none yet; while the tournament
    runs it follows the rounds as they start."""
    tournament = _visible(request, slug)
    rnd = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    return _answer(
        request,
        tournament,
        template="tournaments/embed_round.html",
        version=("current", _round_version(rnd) if rnd else None),
        live=tournament.status == Tournament.Status.RUNNING,
        context=_round_context(tournament, rnd),
    )


# The organizer page's snippets --------------------------------------------------------------


def snippets(request: HttpRequest, tournament: Tournament) -> list[dict[str, str]]:
    """The organizer page's copy-paste snippets, an ``<iframe>`` each: the standings, the current round."""
    found = []
    for key, name, label, height in (
        ("standings", "embed_standings", gettext("Standings"), 600),
        ("round", "embed_round_current", gettext("Current round"), 500),
        *([("bracket", "embed_bracket", gettext("Bracket"), 700)] if tournament.knockout_size > 1 else []),
    ):
        url = request.build_absolute_uri(reverse(f"tournaments:{name}", args=[tournament.slug]))
        code = format_html(
            '<iframe src="{}" title="{}" width="100%" height="{}" loading="lazy" style="border: 0"></iframe>',
            url,
            f"{label} · {tournament.name}",
            height,
        )
        found.append({"key": key, "label": label, "url": url, "code": code})
    return found

"""Project-wide views: health for the load balancer, the rate limiter's answer, and the 404 and 500
answers (config/urls.py: handler404, handler500)."""

import json
import re

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from django.views.i18n import JavaScriptCatalog

from api.errors import NOT_FOUND, PROBLEM_TYPES, SERVER_ERROR, THROTTLED, problem_response
from web.health import report


class ScriptCatalog(JavaScriptCatalog):
    """Django's catalogue of our scripts' words (``jsi18n/``), without the date and number formats
    it would add: no script of ours reads them (``get_format``), and every page stays under its
    100 kB of CSS and JavaScript (the tablet's sheet in Greek is the closest)."""

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "formats": {}}

    def render_to_response(self, context, **response_kwargs):
        """Django's catalogue with its words as they are (UTF-8, one line) rather than escaped and
        indented: a Greek or Bulgarian word weighs a third as much (the tablet's sheet, every page)."""
        response = super().render_to_response(context, **response_kwargs)
        if context["catalog"]:
            escaped = json.dumps(context["catalog"], sort_keys=True, indent=2).replace("\n", "\n  ")
            words = json.dumps(context["catalog"], sort_keys=True, ensure_ascii=False, separators=(",", ":"))
            response.content = response.content.decode().replace(escaped, words, 1).encode()
        return response


@require_safe
def problems(request: HttpRequest) -> HttpResponse:
    """The page every problem's ``type`` points to (``/api/problems/#<kind>``): each kind of refusal
    of the API, its status and what a client does about it. For developers, in English like the
    API's docs."""
    kinds = [
        {
            "slug": problem.slug,
            "status": problem.status,
            "title": problem.title,
            # `member` in the description: code on the page
            "means": mark_safe(re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(problem.means))),
        }
        for problem in PROBLEM_TYPES
    ]
    return render(request, "api_problems.html", {"problems": kinds})


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    """The database, the cache and the broker, each checked (web/health.py): 200 while the site
    serves (``"ok"``, or ``"degraded"`` without its cache or broker), 503 without its database
    (docker compose's health check, a monitor)."""
    body, status = report()
    return JsonResponse(body, status=status)


def ratelimited(request: HttpRequest, exception: Exception) -> HttpResponse:
    """429, as a problem (api/errors.py) for the API like its other refusals, in plain text
    elsewhere."""
    message = _("Too many attempts: wait a minute and try again.")
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = problem_response(request, THROTTLED, message)
    else:
        response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = "60"
    return response


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A path nothing answers: under /api/ a problem like the API's own 404s, elsewhere the page."""
    if request.path.startswith("/api/"):
        return problem_response(request, NOT_FOUND, _("No such path in this API."))
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """An error nothing caught (DEBUG off): under /api/ a problem, elsewhere Django's page."""
    if request.path.startswith("/api/"):
        return problem_response(request, SERVER_ERROR, "Server Error (500)")
    return defaults.server_error(request)

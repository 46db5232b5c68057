"""Project-wide views: health for the load balancer, the rate limiter's answer, and the 404 and 500
answers (config/urls.py: handler404, handler500)."""

import re

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.http import require_safe

from config.api_errors import NOT_FOUND, PROBLEM_TYPES, SERVER_ERROR, THROTTLED, problem_response


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


@require_safe
def health(request: HttpRequest) -> JsonResponse:
    """200 when the app answers and its database does (docker compose's health check)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


def ratelimited(request: HttpRequest, exception: Exception) -> HttpResponse:
    """429, as a problem (config/api_errors.py) for the API like its other refusals, in plain text
    elsewhere."""
    message = _("Too many attempts: wait a minute and try again.")
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

"""Project-wide views: health for the load balancer, and the rate limiter's answer."""

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _


def health(request: HttpRequest) -> JsonResponse:
    """200 when the app answers and its database does (docker compose's health check)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


def ratelimited(request: HttpRequest, exception: Exception) -> HttpResponse:
    message = _("Too many attempts: wait a minute and try again.")
    return HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")

"""Project-wide views: health for the load balancer, and the rate limiter's answer."""

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe


@require_safe
def health(request: HttpRequest) -> JsonResponse:
    """200 when the app answers and its database does (docker compose's health check)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


def ratelimited(request: HttpRequest, exception: Exception) -> HttpResponse:
    """429, in JSON for the API (as its other refusals), in plain text elsewhere."""
    message = _("Too many attempts: wait a minute and try again.")
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message}, status=429)
    else:
        response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = "60"
    return response

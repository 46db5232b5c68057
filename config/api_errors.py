"""How the API tells a refusal: the rules' and the organizers' refusals become 400s with their words;
a change asked for on an older version of the match is a 412, a client key reused for another deal a 409."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext
from rest_framework.response import Response
from rest_framework.views import exception_handler

from players.errors import PlayerError
from scoring.engine import ScoringError
from scoring.messages import engine_message
from scoring.services import IdempotencyConflict, StaleSheet
from tournaments.services import TournamentError


def handler(exc, context):
    if isinstance(exc, StaleSheet):
        # If-Match named another version: nothing was changed; here is the version to read and retry on.
        return Response({"detail": str(exc), "version": exc.version}, status=412)
    if isinstance(exc, IdempotencyConflict):
        return Response({"detail": str(exc), "field": "Idempotency-Key", "deal": None}, status=409)
    if isinstance(exc, ScoringError):
        # The deal's position and the field as they are (a number, a name or null), not as strings.
        return Response({"detail": str(exc), "field": exc.field, "deal": exc.deal}, status=400)
    if isinstance(exc, PlayerError):  # a club's member, admin or details refused
        return Response({"detail": engine_message(exc.message), "field": exc.field}, status=400)
    if isinstance(exc, TournamentError):
        return Response({"detail": str(exc)}, status=400)
    if isinstance(exc, RequestDataTooBig):
        # DRF reads a JSON or form body through request.body, where Django refuses one over
        # DATA_UPLOAD_MAX_MEMORY_SIZE before reading it: say so, rather than Django's bare 400 page.
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        detail = gettext("The body is larger than %(limit)s bytes, more than any document of this API.")
        return Response({"detail": detail % {"limit": limit}}, status=413)
    return exception_handler(exc, context)

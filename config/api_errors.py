"""How the API tells a refusal: the rules' and the organizers' refusals become 400s with their words."""

from rest_framework.response import Response
from rest_framework.views import exception_handler

from scoring.engine import ScoringError
from tournaments.services import TournamentError


def handler(exc, context):
    if isinstance(exc, ScoringError):
        # The deal's position and the field as they are (a number, a name or null), not as strings.
        return Response({"detail": str(exc), "field": exc.field, "deal": exc.deal}, status=400)
    if isinstance(exc, TournamentError):
        return Response({"detail": str(exc)}, status=400)
    return exception_handler(exc, context)

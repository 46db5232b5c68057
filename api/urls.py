"""The REST API, version 1, and its documentation."""

from django.urls import include, path
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.routers import DefaultRouter

from api.docs import REDOC_BUNDLE_PATH, SchemaView, redoc, redoc_bundle, swagger
from api.parsers import SafeJSONParser
from league.api.changes import ChangeViewSet
from league.api.clubs import ClubViewSet
from league.api.players import PlayerViewSet
from league.api.ratings import RatingViewSet
from league.api.seasons import SeasonViewSet
from league.api.tokens import TokenViewSet
from scoring.api import MatchViewSet, TeamViewSet
from scoring.presets.api import PresetViewSet
from tournaments.api import TournamentViewSet
from web.ratelimits import login_limited
from web.views import problems
from webhooks.api import WebhookViewSet

router = DefaultRouter()
router.trailing_slash = "/?"  # /standings.csv as well as /standings/
router.include_format_suffixes = False
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("matches", MatchViewSet, basename="match")
router.register("players", PlayerViewSet, basename="player")
router.register("teams", TeamViewSet, basename="team")
router.register("ratings", RatingViewSet, basename="rating")
router.register("clubs", ClubViewSet, basename="club")
router.register("seasons", SeasonViewSet, basename="season")
router.register("presets", PresetViewSet, basename="preset")
router.register("webhooks", WebhookViewSet, basename="webhook")
router.register("changes", ChangeViewSet, basename="change")
router.register("tokens", TokenViewSet, basename="token")


class TokenView(ObtainAuthToken):
    """POST username and password, get the account's token. DRF's view names its own parsers:
    ours replaces its JSON one, so that a bad body is a 400 here too."""

    parser_classes = (FormParser, MultiPartParser, SafeJSONParser)

    def post(self, request, *args, **kwargs):
        """The account's token, for its username and password: send it as ``Authorization: Token
        <your token>``. Asked again, the same token: it stays the account's until an admin deletes it."""
        response = super().post(request, *args, **kwargs)
        response["Cache-Control"] = "no-store"  # it holds the account's key: kept by no cache
        return response


urlpatterns = [
    path("v1/", include((router.urls, "api"), namespace="v1")),
    path("v1/token/", login_limited(TokenView.as_view()), name="api-token"),
    path("schema/", SchemaView.as_view(), name="schema"),
    path("problems/", problems, name="api-problems"),
    path("docs/", swagger, name="api-docs"),
    path("redoc/", redoc, name="api-redoc"),
    path(REDOC_BUNDLE_PATH, redoc_bundle, name="api-redoc-bundle"),
]

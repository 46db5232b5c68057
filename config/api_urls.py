"""The REST API, version 1, and its documentation."""

from django.urls import include, path
from django_ratelimit.decorators import ratelimit
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from scoring.api import MatchViewSet, PlayerViewSet, TeamViewSet
from tournaments.api import TournamentViewSet

router = DefaultRouter()
router.trailing_slash = "/?"  # /standings.csv as well as /standings/
router.include_format_suffixes = False
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("matches", MatchViewSet, basename="match")
router.register("players", PlayerViewSet, basename="player")
router.register("teams", TeamViewSet, basename="team")

urlpatterns = [
    path("v1/", include((router.urls, "api"), namespace="v1")),
    path("v1/token/", ratelimit(key="ip", rate="10/m", block=True)(obtain_auth_token), name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
]

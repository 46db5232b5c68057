"""Pages about people across events: clubs, seasons and ratings (the players' own pages are
``league.player_urls``, under /players/)."""

from django.urls import path, re_path

from league.views import clubs
from league.views import ratings as rating_views
from league.views import seasons as season_views
from league.views import tokens as token_views

app_name = "league"

urlpatterns: list = [
    path("ratings/", rating_views.rating_list, name="ratings"),
    path("clubs/", clubs.club_list, name="clubs"),
    path("clubs/<str:slug>/", clubs.club_detail, name="club"),
    path("clubs/<str:slug>/manage/", clubs.club_manage, name="club_manage"),
    path("seasons/", season_views.season_list, name="seasons"),
    path("seasons/new/", season_views.season_new, name="season_new"),
    path("seasons/<str:slug>/", season_views.season_detail, name="season"),
    path("seasons/<str:slug>/table.csv", season_views.season_csv, name="season_csv"),
    path("seasons/<str:slug>/edit/", season_views.season_edit, name="season_edit"),
    path("seasons/<str:slug>/delete/", season_views.season_delete, name="season_delete"),
    path("account/tokens/", token_views.token_list, name="tokens"),
    re_path(r"^account/tokens/(?P<pk>[0-9]{1,18})/revoke/$", token_views.token_revoke, name="token_revoke"),
]

from django.urls import path

from . import embed, screen, views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.tournament_new, name="new"),
    path("tournaments/<slug:slug>/", views.tournament_home, name="home"),
    path("tournaments/<slug:slug>/standings/", views.standings_page, name="standings"),
    path("tournaments/<slug:slug>/prizes/", views.prizes, name="prizes"),
    # The big screen (tournaments/screen.py); in production the events go to the ASGI live service.
    path("tournaments/<slug:slug>/screen/", screen.screen, name="screen"),
    path("tournaments/<slug:slug>/screen/data/", screen.screen_data, name="screen_data"),
    path("tournaments/<slug:slug>/screen/events/", screen.screen_events, name="screen_events"),
    # On a club's own website, in a frame (tournaments/embed.py).
    path("tournaments/<slug:slug>/embed/standings/", embed.standings, name="embed_standings"),
    path("tournaments/<slug:slug>/embed/round/", embed.round_current, name="embed_round_current"),
    path("tournaments/<slug:slug>/embed/rounds/<int:number>/", embed.round_detail, name="embed_round"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", views.round_detail, name="round"),
    path("tournaments/<slug:slug>/rounds/<int:number>/print/", views.round_print, name="round_print"),
    path("tournaments/<slug:slug>/teams/<int:entry_pk>/", views.entry_detail, name="entry"),
    path("tournaments/<slug:slug>/signup/", views.signup, name="signup"),
    path("tournaments/<slug:slug>/manage/", views.manage, name="manage"),
    path("tournaments/<slug:slug>/manage/start/", views.start, name="start"),
    path("tournaments/<slug:slug>/manage/audit/", views.audit, name="audit"),
    path("tournaments/<slug:slug>/manage/embed/", views.embed_settings, name="embed_settings"),
    path("tournaments/<slug:slug>/manage/deal-check/", views.deal_check, name="deal_check"),
    path("tournaments/<slug:slug>/manage/finish/", views.finish, name="finish"),
    path("tournaments/<slug:slug>/manage/rounds/<int:number>/clock/", views.round_clock, name="round_clock"),
    path("tournaments/<slug:slug>/manage/decisions/", views.adjustment_add, name="adjustment_add"),
    path("tournaments/<slug:slug>/manage/late/", views.entry_late, name="entry_late"),
    path("tournaments/<slug:slug>/manage/apart/", views.keep_apart, name="keep_apart"),
    path(
        "tournaments/<slug:slug>/manage/decisions/<int:pk>/delete/",
        views.adjustment_delete,
        name="adjustment_delete",
    ),
    path("tournaments/<slug:slug>/manage/entries/<int:entry_pk>/", views.entry_status, name="entry_status"),
    path("tournaments/<slug:slug>/manage/rounds/", views.round_generate, name="round_generate"),
    path("tournaments/<slug:slug>/manage/rounds/<int:number>/swap/", views.round_swap, name="round_swap"),
    path("tournaments/<slug:slug>/manage/rounds/<int:number>/start/", views.round_start, name="round_start"),
    path("tournaments/<slug:slug>/manage/rounds/<int:number>/links/", views.round_links, name="round_links"),
    path(
        "tournaments/<slug:slug>/manage/rounds/<int:number>/tables/<int:table>/qr.svg",
        views.table_qr,
        name="table_qr",
    ),
    path("s/<str:token>/", views.scorekeeper_link, name="scorekeeper"),
    path("tournaments/matches/<int:pk>/next/", views.table_next, name="table_next"),
]

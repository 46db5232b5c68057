from django.urls import path

from . import bracket, checkin, console, embed, entry_views, personal, prizes, screen, views
from . import bulk as bulk_views  # a list of teams pasted or a CSV; the team form's player pickers
from . import paper as paper_views  # a table typed from its paper sheet; a drawn round redrawn, deleted

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.tournament_new, name="new"),
    path("tournaments/<slug:slug>/", views.tournament_home, name="home"),
    path("tournaments/<slug:slug>/standings/", views.standings_page, name="standings"),
    path("tournaments/<slug:slug>/prizes/", views.prizes, name="prizes"),
    path("tournaments/<slug:slug>/prizes/certificates/", prizes.certificates_page, name="certificates"),
    path("tournaments/<slug:slug>/manage/prizes/", prizes.prizes_edit, name="prizes_edit"),
    path("tournaments/<slug:slug>/bracket/", bracket.bracket, name="bracket"),
    # The big screen (tournaments/screen.py); in production the events go to the ASGI live service.
    path("tournaments/<slug:slug>/screen/", screen.screen, name="screen"),
    path("tournaments/<slug:slug>/screen/data/", screen.screen_data, name="screen_data"),
    path("tournaments/<slug:slug>/screen/events/", screen.screen_events, name="screen_events"),
    path("tournaments/<slug:slug>/screen/qr/<str:to>.svg", screen.screen_qr, name="screen_qr"),
    # Find your table (tournaments/personal.py): a search box, and the list for the wall.
    path("tournaments/<slug:slug>/find/", personal.finder, name="finder"),
    path("tournaments/<slug:slug>/find/print/", personal.finder_print, name="finder_print"),
    # On a club's own website, in a frame (tournaments/embed.py).
    path("tournaments/<slug:slug>/embed/standings/", embed.standings, name="embed_standings"),
    path("tournaments/<slug:slug>/embed/round/", embed.round_current, name="embed_round_current"),
    path("tournaments/<slug:slug>/embed/rounds/<int:number>/", embed.round_detail, name="embed_round"),
    path("tournaments/<slug:slug>/embed/bracket/", bracket.embed_bracket, name="embed_bracket"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", views.round_detail, name="round"),
    path("tournaments/<slug:slug>/rounds/<int:number>/print/", views.round_print, name="round_print"),
    path("tournaments/<slug:slug>/teams/<int:entry_pk>/", views.entry_detail, name="entry"),
    path("tournaments/<slug:slug>/signup/", views.signup, name="signup"),
    path("tournaments/<slug:slug>/manage/", views.manage, name="manage"),
    path("tournaments/<slug:slug>/manage/start/", views.start, name="start"),
    path("tournaments/<slug:slug>/manage/audit/", views.audit, name="audit"),
    # The console of the current round (tournaments/console.py), and the tables' calls for the director.
    path("tournaments/<slug:slug>/manage/console/", console.console, name="console"),
    path("tournaments/<slug:slug>/manage/console/part/", console.console_part, name="console_part"),
    path("tournaments/<slug:slug>/manage/console/events/", console.console_events, name="console_events"),
    path(
        "tournaments/<slug:slug>/manage/calls/<int:pk>/acknowledge/",
        console.call_acknowledge,
        name="call_acknowledge",
    ),
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
    path("tournaments/<slug:slug>/manage/entries/bulk/", bulk_views.entries_bulk, name="entries_bulk"),
    path(
        "tournaments/<slug:slug>/manage/entries/players/",
        bulk_views.entry_player_search,
        name="entry_player_search",
    ),
    path("tournaments/<slug:slug>/manage/entries/<int:entry_pk>/", views.entry_status, name="entry_status"),
    path(
        "tournaments/<slug:slug>/manage/entries/<int:entry_pk>/edit/",
        entry_views.entry_edit,
        name="entry_edit",
    ),
    path(
        "tournaments/<slug:slug>/manage/entries/<int:entry_pk>/withdraw/",
        entry_views.entry_withdraw,
        name="entry_withdraw",
    ),
    path(
        "tournaments/<slug:slug>/manage/entries/<int:entry_pk>/reinstate/",
        entry_views.entry_reinstate,
        name="entry_reinstate",
    ),
    # Check-in (tournaments/checkin.py): all at once, self check-in opened, each team's slip and QR code.
    path("tournaments/<slug:slug>/manage/checkin/all/", checkin.checkin_all, name="checkin_all"),
    path("tournaments/<slug:slug>/manage/checkin/open/", checkin.checkin_open, name="checkin_open"),
    path("tournaments/<slug:slug>/manage/checkin/slips/", checkin.checkin_slips, name="checkin_slips"),
    path(
        "tournaments/<slug:slug>/manage/checkin/<int:entry_pk>/qr.svg", checkin.checkin_qr, name="checkin_qr"
    ),
    path("tournaments/<slug:slug>/manage/rounds/", views.round_generate, name="round_generate"),
    path("tournaments/<slug:slug>/manage/rounds/<int:number>/swap/", views.round_swap, name="round_swap"),
    path("tournaments/<slug:slug>/manage/rounds/<int:number>/start/", views.round_start, name="round_start"),
    path(
        "tournaments/<slug:slug>/manage/rounds/<int:number>/redraw/",
        paper_views.round_redraw,
        name="round_redraw",
    ),
    path(
        "tournaments/<slug:slug>/manage/rounds/<int:number>/delete/",
        paper_views.round_delete,
        name="round_delete",
    ),
    path(
        "tournaments/<slug:slug>/manage/rounds/<int:number>/tables/<int:table>/paper/",
        paper_views.table_paper_page,
        name="table_paper",
    ),
    path("tournaments/<slug:slug>/manage/rounds/<int:number>/links/", views.round_links, name="round_links"),
    path(
        "tournaments/<slug:slug>/manage/rounds/<int:number>/tables/<int:table>/qr.svg",
        views.table_qr,
        name="table_qr",
    ),
    path("s/<str:token>/", views.scorekeeper_link, name="scorekeeper"),
    path("s/<str:token>/call/", console.director_call, name="director_call"),
    # A team's or a player's own page (tournaments/personal.py): a signed link, no account.
    path("me/<str:token>/", personal.personal, name="personal"),
    path("me/<str:token>/data/", personal.personal_data, name="personal_data"),
    path("me/<str:token>/qr.svg", personal.personal_qr, name="personal_qr"),
    path("c/<str:token>/", checkin.checkin_self, name="checkin_self"),  # a team's own check-in link
    path("tournaments/matches/<int:pk>/next/", views.table_next, name="table_next"),
]

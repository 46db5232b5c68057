from django.urls import path

from . import views
from .presets import views as preset_views

app_name = "scoring"

urlpatterns = [
    path("", views.home, name="home"),
    path("help/", views.help_page, name="help"),
    path("matches/new/", views.match_new, name="match_new"),
    path("matches/new/search/", views.match_new_search, name="match_new_search"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/deals/", views.deal_create, name="deal_create"),
    path("matches/<int:pk>/preview/", views.deal_preview, name="deal_preview"),
    path("matches/<int:pk>/undo/", views.deal_undo, name="deal_undo"),
    path("matches/<int:pk>/confirm/", views.match_confirm, name="match_confirm"),
    path("matches/<int:pk>/end/", views.match_end, name="match_end"),
    path("matches/<int:pk>/history/", views.match_history, name="match_history"),
    path("matches/<int:pk>/print/", views.match_print, name="match_print"),
    path("matches/<int:pk>/chart.svg", views.match_chart_svg, name="match_chart_svg"),
    path("matches/<int:pk>/deals/<int:deal_pk>/", views.deal_edit, name="deal_edit"),
    path("matches/<int:pk>/deals/<int:deal_pk>/delete/", views.deal_remove, name="deal_remove"),
    path("matches/<int:pk>/deals/<int:deal_pk>/check/", views.deal_check, name="deal_check"),
    path("presets/", preset_views.preset_list, name="presets"),
    path("presets/new/", preset_views.preset_new, name="preset_new"),
    path("presets/<str:slug>/", preset_views.preset_detail, name="preset"),
    path("presets/<str:slug>/edit/", preset_views.preset_edit, name="preset_edit"),
    path("presets/<str:slug>/delete/", preset_views.preset_delete, name="preset_delete"),
]

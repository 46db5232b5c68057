from django.urls import path

from league.views import players as views

urlpatterns = [
    path("", views.player_list, name="list"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("<int:pk>/", views.player_detail, name="detail"),
]

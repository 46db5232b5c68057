from django.urls import path

from league.views import identity
from league.views import players as views

urlpatterns = [
    path("", views.player_list, name="list"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("<int:pk>/", views.player_detail, name="detail"),
    path("<int:pk>/claim/", identity.claim, name="claim"),
    path("<int:pk>/matches/<int:match>/answer/", views.match_answer, name="match_answer"),
    path("<int:pk>/merge/", identity.merge, name="merge"),
    path("claims/", identity.claims, name="claims"),
    path("claims/<int:pk>/", identity.claim_decide, name="claim_decide"),
    path("claims/<int:pk>/withdraw/", identity.claim_withdraw, name="claim_withdraw"),
    path("claims/<int:pk>/revert/", identity.claim_revert, name="claim_revert"),
    path("invitations/<int:pk>/", identity.invitation_answer, name="invitation_answer"),
    path("merges/<int:pk>/split/", identity.split, name="split"),
]

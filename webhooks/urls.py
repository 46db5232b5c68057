"""Webhooks pages: a tournament's and a club's list, and each webhook's page."""

from django.urls import path

from . import views

app_name = "webhooks"

urlpatterns = [
    path("tournaments/<slug:slug>/webhooks/", views.tournament_webhooks, name="tournament"),
    path("clubs/<str:slug>/webhooks/", views.club_webhooks, name="club"),
    path("webhooks/<int:pk>/", views.subscription_detail, name="detail"),
    path("webhooks/<int:pk>/deliveries/<uuid:delivery>/redeliver/", views.redeliver, name="redeliver"),
]

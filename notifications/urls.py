from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("notifications/subscribe/", views.subscribe, name="subscribe"),
    path("notifications/email/", views.email, name="email"),
]

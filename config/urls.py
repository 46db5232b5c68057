from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from django_ratelimit.decorators import ratelimit

from config.views import health

# Guessing passwords is slowed down: 10 login attempts a minute from one address.
login = ratelimit(key="ip", rate="10/m", method="POST", block=True)(auth_views.LoginView.as_view())

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("config.api_urls")),
    path("accounts/login/", login, name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("health/", health, name="health"),
    # The language switcher posts to i18n/setlang/; tablet.js reads its words from jsi18n/.
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("players/", include("players.urls")),
    path("", include("tournaments.urls")),
    path("", include("scoring.urls")),
]

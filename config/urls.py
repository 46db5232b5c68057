from django.contrib import admin
from django.urls import include, path

from players import accounts
from web import docs_site, pwa
from web.ratelimits import login_limited
from web.views import ScriptCatalog, health

# Guessing passwords is slowed down, per address and per username, on every way in (the admin's
# login and the API's token endpoint share the counts): web/ratelimits.py. Creating an account
# and asking for a password reset are limited too (players/accounts.py).
login = login_limited(accounts.LoginView.as_view())

# A path nothing answers, an error nothing caught: under /api/ a problem (application/problem+json,
# api/errors.py) like the API's own refusals, elsewhere Django's pages.
handler404 = "web.views.not_found"
handler500 = "web.views.server_error"

urlpatterns = [
    path("admin/login/", login_limited(admin.site.login), name="admin-login"),
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("accounts/login/", login, name="login"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/password_reset/", accounts.password_reset, name="password_reset"),
    path("accounts/password_reset/done/", accounts.password_reset_done, name="password_reset_done"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("health/", health, name="health"),
    # The guides (docs/, built by MkDocs): web/docs_site.py.
    path("docs/", docs_site.page, name="docs"),
    path("docs/<path:path>", docs_site.page, name="docs-page"),
    # The installable app (web/pwa.py): the worker is served from the root to control every page.
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("offline/", pwa.offline, name="offline"),
    path("engine-worker.js", pwa.engine_worker, name="engine-worker"),
    path("engine.zip", pwa.engine_zip, name="engine-zip"),
    # The language switcher posts to i18n/setlang/; tablet.js reads its words from jsi18n/.
    path("i18n/", include("django.conf.urls.i18n")),
    # Our own words only (locale/), not the admin's: a third of the bytes (each page stays light).
    path("jsi18n/", ScriptCatalog.as_view(packages=["scoring"]), name="javascript-catalog"),
    path("players/", include(("league.player_urls", "players"), namespace="players")),
    path("", include("webhooks.urls")),
    path("", include("notifications.urls")),
    path("", include("league.urls")),
    path("", include("tournaments.urls")),
    path("", include("scoring.urls")),
]

import os

from .base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Mail is kept in memory (django.core.mail.outbox), whatever the environment names.
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}

# SQLite: a test database in a file, not in memory, so that the live server's threads (the browser
# tests) each get a connection of their own with proper locking.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    # One file per test process, so that two runs at once do not share it.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")}  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20  # noqa: F405

# The API's rates far above what any test sends (the tests of the limits set their own, low).
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {
        "anon": "100000/min",
        "read": "100000/min",
        "score": "100000/min",
        "user": "100000/min",
    },
}

"""Settings shared by every environment. The environment is read here, once.

With nothing set: SQLite in the checkout and Celery in eager mode.
DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/tsoxa) switches to
PostgreSQL; CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0) to a real broker.
"""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")

SECRET_KEY = env("DJANGO_SECRET_KEY", default="dev-only-insecure-key-change-me")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "django_ratelimit",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "players",
    "scoring",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language follows the browser (Accept-Language) until the switcher on every page sets one.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "django_ratelimit.middleware.RatelimitMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "builtins": ["scoring.templatetags.tsoxa", "tournaments.templatetags.tournament_tags"],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Keep connections between requests (a new PostgreSQL connection costs more than a deal's queries).
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=60))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The standings pages are served from here, and a burst of deals queues one recomputation
# through a flag here: web and worker must share it (CACHE_URL=redis://127.0.0.1:6379/1).
CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}

# Login, API tokens and scorekeeper links are rate-limited (django-ratelimit) through that cache.
RATELIMIT_VIEW = "config.views.ratelimited"
RATELIMIT_ENABLE = env.bool("RATELIMIT_ENABLE", default=True)
# With no shared cache (a laptop) the limits are per process, which django-ratelimit warns about.
_PER_PROCESS_CACHE = "locmem" in CACHES["default"]["BACKEND"]
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"] if _PER_PROCESS_CACHE else []

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:list"

LANGUAGE_CODE = "en"
# No language prefix in the URLs: the language comes from the session/cookie, else Accept-Language.
LANGUAGES = [
    ("en", "English"),
    ("el", "Ελληνικά"),
    ("fr", "Français"),
    ("bg", "Български"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env("TZ_NAME", default="Europe/Athens")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="")
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=None)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_SERIALIZER = "json"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.Pagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "config.api_errors.handler",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_VERSIONING_CLASS": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tsoxa API",
    "DESCRIPTION": (
        "Score sheets and tournaments of the Belote family of card games. Deals and sheets have the "
        "shapes of the match file (FORMAT.md). Read: public tournaments and their matches, anonymously. "
        "Write: token authentication (POST /api/v1/token/ with username and password, then "
        "'Authorization: Token <key>'); scorekeepers write their matches, organizers their tournaments."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "RulesetEnum": "scoring.models.RULESET_KEYS",
        "RulesetNameEnum": "scoring.models.RULESET_CHOICES",
        "MatchStatusEnum": "scoring.models.Match.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
    },
}

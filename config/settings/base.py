"""Settings shared by every environment. The environment is read here, once.

With nothing set: SQLite in the checkout and Celery in eager mode.
DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/tsoxa) switches to
PostgreSQL; CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0) to a real broker.
"""

from pathlib import Path

import environ
from django.utils.csp import CSP

from config.secret_key import DEVELOPMENT_KEY

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")

SECRET_KEY = env("DJANGO_SECRET_KEY", default=DEVELOPMENT_KEY)  # refused by config.settings.prod
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
    "corsheaders",
    "simple_history",
    "players",
    "scoring",
    "tournaments",
    "league",
    "webhooks",
    "notifications",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # CORS for the API's public reads only (api/cors.py), before anything that may answer early.
    "api.cors.PublicReadsCorsMiddleware",
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
                "django.template.context_processors.csp",  # {{ csp_nonce }} for the inline script
            ],
            "builtins": ["scoring.templatetags.tsoxa", "tournaments.templatetags.tournament_tags"],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
# SQLite (the default, or a sqlite:/// DATABASE_URL): a transaction takes the write lock when it
# begins (IMMEDIATE), a change waits its turn up to 20 s instead of failing with "database is
# locked", and the journal is WAL (readers never wait for the writer), each commit on disk before
# the tablet is told it is kept (synchronous=FULL). Options in the URL win.
if DATABASES["default"].get("ENGINE") == "django.db.backends.sqlite3":
    _SQLITE = DATABASES["default"].setdefault("OPTIONS", {})
    _SQLITE.setdefault("timeout", 20)
    _SQLITE.setdefault("transaction_mode", "IMMEDIATE")
    _SQLITE.setdefault("init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL")
# PostgreSQL that does not answer: a request (and /health/) waits 5 s for it, not the system's minutes.
# psycopg may prepare a statement that asks for it (the deal path's: scoring/deal_sql.py), parsed and
# planned once a connection instead of on every deal; Django's own queries, bound on the client, are
# never prepared. Behind a pooler that cannot keep prepared statements (PgBouncer in transaction mode
# before 1.21): DB_PREPARED_STATEMENTS=false.
if DATABASES["default"].get("ENGINE") == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
    DATABASES["default"]["OPTIONS"].setdefault(
        "prepare_threshold", 1_000_000_000 if env.bool("DB_PREPARED_STATEMENTS", default=True) else None
    )
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Keep connections between requests (a new PostgreSQL connection costs more than a deal's queries).
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=60))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The standings pages are served from here, and a burst of deals queues one recomputation
# through a flag here: web and worker must share it (CACHE_URL=redis://127.0.0.1:6379/1).
CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}
# A Redis cache fails open (web/cache.py): unreachable, it is a miss and a warning in the log,
# after 0.25 s at most, never an error page.
_REDIS_CACHE = CACHES["default"]["BACKEND"].endswith("RedisCache")
if _REDIS_CACHE:
    CACHES["default"]["BACKEND"] = "web.cache.FailOpenRedisCache"

# The big screen's push (tournaments/live.py): Redis pub/sub, on the cache's Redis unless set.
# Empty (a laptop): each open screen's stream checks the database every 2 s instead.
LIVE_REDIS_URL = env("LIVE_REDIS_URL", default=CACHES["default"]["LOCATION"] if _REDIS_CACHE else "")
# The most streams one client address may hold open at once (a 429 past it), counted in that Redis.
TSOXA_STREAMS_PER_ADDRESS = env.int("TSOXA_STREAMS_PER_ADDRESS", default=20)

# Login, API tokens and scorekeeper links are rate-limited (django-ratelimit) through that cache.
RATELIMIT_VIEW = "web.views.ratelimited"
RATELIMIT_ENABLE = env.bool("RATELIMIT_ENABLE", default=True)
# A count the cache cannot give (its Redis down) lets the request through rather than refuse it.
RATELIMIT_FAIL_OPEN = True
# The limits count per client address: REMOTE_ADDR, or behind N trusted proxies (the TLS proxy of
# docs/deploy/index.md: 1) the address the outermost one saw, from X-Forwarded-For. Leave it at 0 unless
# every request goes through those proxies: otherwise a client could name its own address.
TSOXA_TRUSTED_PROXIES = env.int("TSOXA_TRUSTED_PROXIES", default=0)
RATELIMIT_IP_META_KEY = "web.ratelimits.client_ip"
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
# The language cookie (the switcher's): no script reads it, and no other site's form sends it.
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env("TZ_NAME", default="Europe/Athens")
USE_I18N = True
USE_TZ = True

# The documentation site (docs/, mkdocs.yml), as MkDocs builds it (./run, the Dockerfile): served at
# /docs/ by web/docs_site.py.
TSOXA_DOCS_DIR = Path(env("TSOXA_DOCS_DIR", default=str(BASE_DIR / "build" / "docs-site")))

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
# Webhooks' deliveries wait on other people's servers: their own queue, for a worker of their own
# (docker-compose.yml), so that a slow receiver never holds up the standings (queue "celery").
CELERY_TASK_ROUTES = {"webhooks.tasks.*": {"queue": "webhooks"}}
# `celery beat` (the beat service of docker-compose.yml): every minute, the standings a broker
# outage or a worker behind left older than their results are recomputed (tournaments.tasks).
CELERY_BEAT_SCHEDULE = {
    "standings-catch-up": {
        "task": "tournaments.tasks.standings_catch_up",
        "schedule": 60.0,
        "options": {"expires": 55},  # queued during an outage: one run, not a pile of them
    },
    # Webhook deliveries whose attempt is overdue (queued while the broker was down, or a retry
    # lost): queued again; each attempt is still made once (webhooks.services.delivery_attempt).
    "webhooks-catch-up": {
        "task": "webhooks.tasks.deliveries_catch_up",
        "schedule": 300.0,
        "options": {"expires": 290},
    },
}

# The most deals one import of a match file may bring (POST /api/v1/matches/import/): a longer
# file is refused before it is replayed. The body itself is capped by DATA_UPLOAD_MAX_MEMORY_SIZE.
TSOXA_IMPORT_MAX_DEALS = env.int("TSOXA_IMPORT_MAX_DEALS", default=1000)

# Webhooks (webhooks/): the site's own address, which the links in their payloads start with.
TSOXA_SITE_URL = env("TSOXA_SITE_URL", default="http://127.0.0.1:8000")
# They are posted only to public addresses, over https (webhooks/guard.py); true lets a laptop or
# the tests reach a receiver on 127.0.0.1 or the local network, over http too. Never in production.
TSOXA_WEBHOOKS_ALLOW_PRIVATE = env.bool("TSOXA_WEBHOOKS_ALLOW_PRIVATE", default=False)
# A subscription is paused after this many deliveries in a row failed (each after all its attempts).
TSOXA_WEBHOOKS_PAUSE_AFTER = env.int("TSOXA_WEBHOOKS_PAUSE_AFTER", default=10)
# The most webhooks one tournament, or one club, may have (paused ones count).
TSOXA_WEBHOOKS_PER_OWNER = env.int("TSOXA_WEBHOOKS_PER_OWNER", default=20)

# Web Push (notifications/): the server's VAPID key pair, base64url raw keys as browsers and py-vapid
# use them (`manage.py vapid_keys` makes a pair), and a contact for the push services (mailto: or
# https:). Unset: push is off (the opt-in is hidden, nothing is sent); check --deploy warns (W005).
# An endpoint is posted to only where a webhook may be (webhooks/guard.py, TSOXA_WEBHOOKS_ALLOW_PRIVATE).
TSOXA_VAPID_PUBLIC_KEY = env("TSOXA_VAPID_PUBLIC_KEY", default="")
TSOXA_VAPID_PRIVATE_KEY = env("TSOXA_VAPID_PRIVATE_KEY", default="")
TSOXA_VAPID_SUBJECT = env("TSOXA_VAPID_SUBJECT", default="")
# The most addresses one entry's players may give for the same words by e-mail.
TSOXA_EMAIL_FOLLOWS_PER_ENTRY = env.int("TSOXA_EMAIL_FOLLOWS_PER_ENTRY", default=4)

# The API's request rates (api/throttles.py), per scoped token at its scope's rate, per account
# (its DRF token or session) and per client address without credentials; counted in the cache.
TSOXA_API_RATE_ANON = env("TSOXA_API_RATE_ANON", default="120/min")
TSOXA_API_RATE_READ = env("TSOXA_API_RATE_READ", default="600/min")
TSOXA_API_RATE_SCORE = env("TSOXA_API_RATE_SCORE", default="300/min")
TSOXA_API_RATE_USER = env("TSOXA_API_RATE_USER", default="600/min")

REST_FRAMEWORK = {
    # The account's token, a scoped token (Bearer tsx_…: api/authentication.py), the session.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "api.authentication.ScopedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_THROTTLE_CLASSES": ["api.throttles.ApiRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": TSOXA_API_RATE_ANON,
        "read": TSOXA_API_RATE_READ,
        "score": TSOXA_API_RATE_SCORE,
        "user": TSOXA_API_RATE_USER,
    },
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    # Bad or absurdly nested JSON is a 400 on every endpoint, never a server error.
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 50,
    # Every refusal is an RFC 9457 problem (application/problem+json): drf-standardized-errors'
    # handler, with the formatter and handler of api/errors.py (DRF_STANDARDIZED_ERRORS).
    "EXCEPTION_HANDLER": "drf_standardized_errors.handler.exception_handler",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "api.schema.TsoxaAutoSchema",
    "DEFAULT_VERSIONING_CLASS": None,
}
DRF_STANDARDIZED_ERRORS = {
    "EXCEPTION_HANDLER_CLASS": "api.errors.ProblemHandler",
    "EXCEPTION_FORMATTER_CLASS": "api.errors.ProblemFormatter",
}
# CORS (django-cors-headers; which requests, in one place: api/cors.py): a club's website may call
# the API's public reads from the browser, from any origin, without credentials; writes, the token
# endpoints, tokens, sync, webhooks and whatever needs an account never answer another origin.
CORS_URLS_REGEX = r"^/api/v1/"
CORS_ALLOW_ALL_ORIGINS = True  # "Access-Control-Allow-Origin: *": no cookie is ever sent with it
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_METHODS = ["GET", "HEAD", "OPTIONS"]
# What a read may send besides the headers browsers always allow: If-None-Match (a 304 by the ETag).
# Not Authorization: a token belongs on the club's server, never in a web page.
CORS_ALLOW_HEADERS = ["accept", "accept-language", "content-language", "if-none-match"]
# What a script may read besides the usual few: the ETag, and Retry-After past the rate limit.
CORS_EXPOSE_HEADERS = ["ETag", "Retry-After"]

SPECTACULAR_SETTINGS = {
    "TITLE": "Tsoxa API",
    # The docs' front page: the quick start (read, show on a website, embed, webhooks, tokens). The
    # operations' groups (tags), summaries and the credentials' texts: api/schema.py.
    "DESCRIPTION": (BASE_DIR / "api" / "description.md").read_text(encoding="utf-8"),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No badge fetched from validator.swagger.io: the docs pages load nothing from elsewhere.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # ReDoc's bundle comes from the sidecar too, served by api/docs.py without the one image it
    # would fetch from Redocly's CDN; its page (templates/api/redoc.html) links no web fonts.
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Request bodies are documented as JSON only (DRF's form parsers still read a browser's forms): a
    # body in three encodings of one model leaves a generated client sending the last, multipart.
    "PARSER_WHITELIST": ["rest_framework.parsers.JSONParser"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.group_and_summarize",
    ],
    "ENUM_NAME_OVERRIDES": {
        "RulesetEnum": "scoring.models.RULESET_KEYS",
        "RulesetNameEnum": "scoring.models.RULESET_CHOICES",
        "MatchStatusEnum": "scoring.models.Match.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "WebhookEventEnum": "webhooks.models.Event",
        "DeliveryStatusEnum": "webhooks.models.Delivery.Status",
        "MatchAnswerEnum": "league.models.MatchConfirmation.Answer",
        "ConsoleTableStateEnum": "tournaments.api.console.TABLE_STATES",
        "ConsoleClockStateEnum": "tournaments.api.console.CLOCK_STATES",
        "BracketSlotStateEnum": "tournaments.api.bracket.SLOT_STATES",
        "PrizeRoundingEnum": "tournaments.api.prizes.ROUNDINGS",
    },
}

# Content-Security-Policy on every response (Django's middleware; a view may send its own, as the
# SVG chart does, or get another policy with csp_override, as the API docs do: api/urls.py;
# a tournament's embeds set theirs per response: frame-ancestors 'self' and the organizer's
# origins, tournaments/embed.py).
# Scripts come from our own files; the one inline script of base.html carries the request's nonce.
# No 'unsafe-eval': htmx only evaluates hx-on, js: values and trigger filters, which no template
# uses, and base.html turns its eval off. Styles may be inline ('unsafe-inline'): a few templates
# and the charts use style attributes, htmx adds its indicator style, and a style cannot run
# code; a nonce in style-src would make browsers ignore 'unsafe-inline', so styles get none.
# The service worker (/sw.js) and the web-app manifest come from our origin (web/pwa.py).
SECURE_CSP: dict[str, list[str]] = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "worker-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# Mail: the password reset's links (players/accounts.py) and the server errors to DJANGO_ADMINS.
# EMAIL_URL names the SMTP server in one line: smtp+tls://user:password@smtp.example.org:587
# (STARTTLS), smtp+ssl://user:password@smtp.example.org:465 (TLS from the start), smtp://localhost:25
# (a relay on the machine); a password's reserved characters percent-encoded (@ as %40). Or part by part:
# EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL, each
# winning over EMAIL_URL's. Nothing set: localhost:25, which production warns of (tsoxa.W004); the
# console in development (dev.py), kept in memory in the tests. A server that does not answer holds
# a request EMAIL_TIMEOUT seconds at most.
_EMAIL = env.email_url_config(env("EMAIL_URL", default="") or "smtp://localhost:25")
MAILERS = {
    "default": {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": env("EMAIL_HOST", default=_EMAIL["EMAIL_HOST"] or "localhost"),
            "port": env.int("EMAIL_PORT", default=_EMAIL["EMAIL_PORT"] or 25),
            "username": env("EMAIL_HOST_USER", default=_EMAIL["EMAIL_HOST_USER"] or ""),
            "password": env("EMAIL_HOST_PASSWORD", default=_EMAIL["EMAIL_HOST_PASSWORD"] or ""),
            "use_tls": env.bool("EMAIL_USE_TLS", default=_EMAIL.get("EMAIL_USE_TLS", False)),
            "use_ssl": env.bool("EMAIL_USE_SSL", default=_EMAIL.get("EMAIL_USE_SSL", False)),
            "timeout": env.int("EMAIL_TIMEOUT", default=10),
        },
    }
}
del _EMAIL  # it holds the password
# Whether the environment named a mail server at all (the deploy check tsoxa.W004 reads it).
TSOXA_MAIL_SERVER_SET = bool(env("EMAIL_URL", default="") or env("EMAIL_HOST", default=""))
# The sender of the password reset's mail: an address the mail server may send from.
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Tsoxa <tsoxa@localhost>")

# Anyone may create an account from the login page (players/accounts.py); false closes it (the
# accounts are then made in the admin).
TSOXA_SIGNUP_OPEN = env.bool("TSOXA_SIGNUP_OPEN", default=True)

# Logs go to stdout (gunicorn and docker compose keep them): warnings and errors, server errors
# (django.request) with their traceback. DJANGO_LOG_LEVEL=INFO or DEBUG says more.
# Server errors are also mailed to DJANGO_ADMINS ("Ana <ana@example.org>,bob@example.org") when
# it is set (through the mail server of EMAIL_URL above); unset, nothing is mailed.
LOG_LEVEL = env("DJANGO_LOG_LEVEL", default="WARNING").upper()
ADMINS = env.list("DJANGO_ADMINS", default=[])
SERVER_EMAIL = env("DJANGO_SERVER_EMAIL", default="tsoxa@localhost")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name} {process:d}: {message}", "style": "{"}},
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "plain"},
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console", "mail_admins"], "level": LOG_LEVEL, "propagate": False},
        # runserver's request lines still show (INFO), through the console above.
        "django.server": {"level": "INFO"},
    },
}

from config.secret_key import production_secret_key

from .base import *  # noqa: F403

DEBUG = False
# Required, and neither the development key nor the example one (config/secret_key.py).
SECRET_KEY = production_secret_key(env("DJANGO_SECRET_KEY", default=""))  # noqa: F405
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)  # noqa: F405
SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=60 * 60 * 24 * 30)  # noqa: F405
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
# Production needs a shared cache (CACHE_URL=redis://…) for the rate limits: with none, the check
# django_ratelimit.E003 fails. W001 is silenced because django-ratelimit 4.1 predates Django's own
# RedisCache (and our fail-open subclass, web/cache.py), whose increments are atomic as it needs.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]

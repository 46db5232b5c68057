from .base import *  # noqa: F403

DEBUG = env.bool("DJANGO_DEBUG", default=True)  # noqa: F405
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Mail (the password reset's links) is printed where `./run serve` prints, unless EMAIL_URL or
# EMAIL_HOST names a server.
if not TSOXA_MAIL_SERVER_SET:  # noqa: F405
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}

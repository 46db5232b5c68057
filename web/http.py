"""The request as our views see it: django-htmx's middleware adds ``htmx`` (typing only)."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails

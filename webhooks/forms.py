"""The webhooks pages' forms: an address and the events it is told of."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .models import Event

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # django-stubs' (dev only): str or a lazy translation

# The events as the pages name them (the model's labels are the admin's, in English).
EVENT_LABELS: dict[str, StrOrPromise] = {
    Event.MATCH_FINISHED: _("A match finished"),
    Event.ROUND_STARTED: _("A round started"),
    Event.ROUND_FINISHED: _("A round finished"),
    Event.STANDINGS_UPDATED: _("The standings were updated"),
    Event.TOURNAMENT_FINISHED: _("The tournament finished"),
}

STATUS_LABELS: dict[str, StrOrPromise] = {
    "pending": _("Being sent"),
    "delivered": _("Delivered"),
    "failed": _("Failed"),
}


class SubscriptionForm(forms.Form):
    url = forms.CharField(
        max_length=500,
        label=_("Address"),
        help_text=_("https://… on your server: public addresses only."),
        widget=forms.URLInput(
            attrs={"placeholder": "https://club.example.org/hooks/tsoxa", "autocomplete": "off"}
        ),
    )
    events = forms.MultipleChoiceField(
        choices=list(EVENT_LABELS.items()),
        label=pgettext_lazy("webhook", "Events"),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one event.")},
    )

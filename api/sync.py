"""Staying in sync: the ``updated_since`` read the lists of matches, tournaments, players and teams
share, and its pages.

A club mirroring the API keeps the largest ``updated_at`` it has seen and asks again with it:
``GET /api/v1/matches/?updated_since=<that>``. The bound is inclusive, so the objects changed at that
very moment come again (intended: a change made in the same instant as the last one read is never
missed). With ``updated_since`` a list answers oldest change first (``updated_at``, then ``id``),
and its ``next`` link continues after the last object of the page (``updated_since`` set to that
object's ``updated_at``, ``after_id`` to its id) rather than at an offset: an object changed while
the client pages moves to the end of the list, where the client finds it again, and never shifts an
unread object onto a page already read. An empty ``updated_since=`` is a 400 (a client that lost
its moment must not read it as "everything", nor as nothing). What is gone (a deleted deal, a
tournament made private, a merged player …) is told by ``GET /api/v1/changes/``.
"""

from __future__ import annotations

import datetime as dt

import django_filters
from django import forms
from django.db.models import Q
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework.exceptions import ValidationError
from rest_framework.utils.urls import remove_query_param, replace_query_param

from .pagination import Pagination

SINCE = "updated_since"
AFTER = "after_id"
ID_MOST = 2**63 - 1  # the largest id a database's big integer holds

UPDATED_SINCE_HELP = (
    "ISO 8601 date and time: only the objects changed at or after it (inclusive: those changed at that "
    "very moment come again), oldest change first (updated_at, then id). Keep the largest updated_at "
    "seen and ask again with it; the next link of a page continues after its last object. What is gone "
    "is listed by GET /api/v1/changes/."
)
AFTER_ID_HELP = (
    "Set by the next link of a page read with updated_since: the objects changed exactly at "
    "updated_since whose id is at most this one were on the page before."
)


def utc(value: dt.datetime) -> dt.datetime:
    """A date and time asked for, in UTC: the database is never sent an offset it refuses (past
    ±15:59 in PostgreSQL), and a moment outside the years 1 to 9999 once in UTC is a 400."""
    try:
        return value.astimezone(dt.UTC)
    except (OverflowError, ValueError):
        raise ValidationError({"detail": gettext("That date is out of range.")}) from None


def refuse_empty(filterset: django_filters.FilterSet, name: str) -> bool:
    """False, with the error on the form, when the query gives ``name`` with no value."""
    data = filterset.data
    assert data is not None  # FilterSet keeps {} when it is given no data
    if name in data and not str(data.get(name, "")).strip():
        message = gettext("%(name)s is empty: give a date and time (ISO 8601), or leave it out.")
        filterset.form.add_error(name, message % {"name": name})
        return False
    return True


@extend_schema_field(OpenApiTypes.INT)
class IdFilter(django_filters.Filter):
    field_class = forms.IntegerField


class UpdatedSinceFilter(django_filters.FilterSet):
    """``updated_since`` (and the ``after_id`` of its next links) for a list whose model has
    ``updated_at``: what changed at or after a moment, oldest change first."""

    updated_since = django_filters.IsoDateTimeFilter(method="changed_since", help_text=UPDATED_SINCE_HELP)
    after_id = IdFilter(method="continued", min_value=0, max_value=ID_MOST, help_text=AFTER_ID_HELP)

    def is_valid(self):
        """An ``updated_since`` given empty is a mistake (a client that lost its moment), never read
        as "everything": a 400 that says so."""
        valid = super().is_valid()
        return refuse_empty(self, SINCE) and valid

    def changed_since(self, queryset, name, value):
        since = utc(value)
        after = self.form.cleaned_data.get(AFTER)
        if after is None:
            changed = queryset.filter(updated_at__gte=since)
        else:
            changed = queryset.filter(Q(updated_at__gt=since) | Q(updated_at=since, pk__gt=after))
        return changed.order_by("updated_at", "pk")

    def continued(self, queryset, name, value):
        return queryset  # read by changed_since; alone it means nothing


class SyncPagination(Pagination):
    """Limit and offset, as every list; a list read with ``updated_since`` links its next page by
    where the page ended (``updated_since`` and ``after_id`` of its last object), and has no previous
    link (a client continues, it never goes back). ``count`` is what is left from this page on."""

    since_param = SINCE  # the query's moment, set in the next link to the last object's …
    moment = "updated_at"  # … value of this attribute
    always = False  # link by where the page ended even without ``since_param`` (a list read from a default)
    sync = False

    def paginate_queryset(self, queryset, request, view=None):
        listing = getattr(view, "action", None) == "list"
        self.sync = listing and (self.always or self.since_param in request.query_params)
        page = super().paginate_queryset(queryset, request, view)
        self.page = page
        return page

    def get_next_link(self):
        if not self.sync:
            return super().get_next_link()
        if not self.page or self.offset + len(self.page) >= self.count:
            return None
        last = self.page[-1]
        url = self.request.build_absolute_uri()
        url = replace_query_param(url, self.since_param, utc(getattr(last, self.moment)).isoformat())
        url = replace_query_param(url, AFTER, last.pk)
        return remove_query_param(url, self.offset_query_param)

    def get_previous_link(self):
        return None if self.sync else super().get_previous_link()

"""What django-simple-history reads off an instance as it is saved: who made the change and why.

The services set them before a save (``match._history_user = user``); the models kept with their
history inherit ``Historied`` so that the type checker knows the two names."""

from __future__ import annotations

from typing import Any


class Historied:
    _history_user: Any  # the account that made the change (None: the site itself)
    _change_reason: str | None


# The columns django-simple-history fills itself on a history row (beside its own id).
HISTORY_OWN = ("history_date", "history_change_reason", "history_type", "history_user_id")


def history_fields(model: Any, writer: str) -> tuple[Any, list[Any], list[Any]]:
    """``model``'s history model, the fields of it that copy the row's (in the table's order) and
    those simple-history fills (``HISTORY_OWN``): what a writer of history rows in SQL of its own
    (``writer``, named in the error) needs. A field that is neither fails at once, rather than a
    history row being written without it."""
    from django.core.exceptions import ImproperlyConfigured

    history = model.history.model
    names = {f.attname for f in history.tracked_fields}
    tracked, own = [], []
    for field in history._meta.concrete_fields:
        if field.attname in names:
            tracked.append(field)
        elif field.attname in HISTORY_OWN:
            own.append(field)
        elif not field.primary_key:
            field_name = f"{history.__name__}.{field.attname}"
            raise ImproperlyConfigured(f"{writer} does not know how to fill {field_name}")
    return history, tracked, own

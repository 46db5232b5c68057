"""What django-simple-history reads off an instance as it is saved: who made the change and why.

The services set them before a save (``match._history_user = user``); the models kept with their
history inherit ``Historied`` so that the type checker knows the two names."""

from __future__ import annotations

from typing import Any


class Historied:
    _history_user: Any  # the account that made the change (None: the site itself)
    _change_reason: str | None

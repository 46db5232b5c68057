"""What the organizer's console knows without a query: when each table's tablet was last heard
from, and a per-tournament counter of the changes a console shows that the big screens do not
(a deal recorded at a table, a director's call, its acknowledgement).

Both live in the cache (``django.core.cache``: Redis in production, shared by every process) and
fail open: a cache away costs a flag or a second of delay on the console, never a deal. No
migration, nothing stored in the database per heartbeat.

A tablet is heard when its sheet is loaded or a deal is posted (``match_changed``), and by the
small heartbeat its sheet's director's-call button makes (``tournaments:director_call``, GET,
every ``HEARTBEAT_SECONDS``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable

from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.dispatch import receiver

from scoring.signals import match_changed

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 60  # the sheet's call button asks this often (sheet.html, _call_button.html)
SILENT_SECONDS = 3 * HEARTBEAT_SECONDS  # unheard for longer: the console flags the table
KEEP_SECONDS = 12 * 3600  # an evening


def heard_key(table_id: int) -> str:
    return f"tsoxa:table-heard:{table_id}"


def changes_key(tournament_id: int) -> str:
    return f"tsoxa:console-changes:{tournament_id}"


def heard(table_id: int, when: float | None = None) -> None:
    """The table's tablet was heard from (now)."""
    try:
        cache.set(heard_key(table_id), when if when is not None else time.time(), KEEP_SECONDS)
    except Exception:  # fail open: a flag less, never an error
        logger.warning("console: could not record table %s heard", table_id, exc_info=True)


def heard_many(table_ids: Iterable[int]) -> dict[int, float]:
    """When each table was last heard from (epoch seconds), for those heard: one ``get_many``."""
    keys = {heard_key(pk): pk for pk in table_ids}
    if not keys:
        return {}
    try:
        found = cache.get_many(list(keys))
    except Exception:
        logger.warning("console: could not read when the tables were heard", exc_info=True)
        return {}
    return {keys[key]: value for key, value in found.items() if isinstance(value, int | float)}


def changed(tournament_id: int) -> None:
    """Tell the open consoles of a tournament that something they show changed (the stream of
    ``console.console_events`` reads this counter every second)."""
    key = changes_key(tournament_id)
    try:
        try:
            cache.incr(key)
        except ValueError:  # not there yet (or expired)
            if not cache.add(key, 1, KEEP_SECONDS):
                cache.incr(key)
    except Exception:
        logger.warning("console: could not count a change of tournament %s", tournament_id, exc_info=True)


def changes(tournament_id: int) -> int:
    try:
        return int(cache.get(changes_key(tournament_id)) or 0)
    except Exception:
        return 0


def changed_on_commit(tournament_id: int) -> None:
    transaction.on_commit(lambda: changed(tournament_id))


@receiver(match_changed, dispatch_uid="tournaments-console-deal")
def deal_recorded(sender, match, **kwargs) -> None:
    """A deal recorded (corrected, taken back, a confirmation) at a tournament table: its tablet is
    heard and the consoles are told, once the transaction commits. No query when the match came with
    its table; one small one otherwise (a match outside a tournament finds none)."""
    found: tuple[int, int] | None
    cached = match._state.fields_cache.get("table", False)
    if cached is not False:
        if cached is None:
            return
        if "round" in cached._state.fields_cache:
            found = (cached.pk, cached.round.tournament_id)
        else:
            found = _table_of(match.pk)
    else:
        try:
            found = _table_of(match.pk)
        except ObjectDoesNotExist:
            found = None
    if found is None:
        return
    table_id, tournament_id = found

    def tell() -> None:
        heard(table_id)
        changed(tournament_id)

    transaction.on_commit(tell)


def _table_of(match_id: int) -> tuple[int, int] | None:
    from .models import Table

    return Table.objects.filter(match_id=match_id).values_list("pk", "round__tournament_id").first()

"""Entries' numbers on the pages that show rows by entry id (the standings, the ranking)."""

from __future__ import annotations

from django import template

from .. import selectors

register = template.Library()


@register.simple_tag
def entry_numbers(tournament) -> dict[int, int]:
    """Each entry's number by its id: one query a page (kept on the tournament object)."""
    return selectors.entry_numbers(tournament=tournament)

"""Entries' numbers on the pages that show rows by entry id (the standings, the ranking)."""

from __future__ import annotations

from django import template

from .. import selectors

register = template.Library()


@register.simple_tag
def entry_numbers(tournament) -> dict[int, int]:
    """Each entry's number by its id: one query a page (kept on the tournament object)."""
    return selectors.entry_numbers(tournament=tournament)


@register.simple_tag
def standings_lines(tournament) -> dict[int, dict]:
    """Each entry's line of the stored standings by its id (the final ranking shows the columns the
    stage ranked by beside each place): the cached standings the pages already read."""
    return {row["entry"]: row for row in selectors.standings_get(tournament=tournament)["rows"]}

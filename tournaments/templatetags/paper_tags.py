"""A tournament match's result typed from its paper sheet, for its sheet (``services.paper``)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.simple_tag
def table_paper(match):
    """The paper result of the table ``match`` is played at, while it counts (its deals have not
    finished the match); None otherwise, and for a match outside a tournament. One query, for a
    tournament's match only."""
    from django.core.exceptions import ObjectDoesNotExist

    from tournaments.services.paper import paper_counts_deals
    from tournaments.services.paper import table_paper as paper_of

    try:
        table = match.table
    except (ObjectDoesNotExist, AttributeError):
        return None
    if table is None or paper_counts_deals(table):
        return None
    return paper_of(table)

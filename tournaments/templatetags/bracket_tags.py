"""A knockout round's name wherever rounds are labelled: ``{% load bracket_tags %}{{ rnd|knockout_name }}``
("Quarter-finals", "Final"; tournaments/bracket.py); any other round as it was ("Round 3")."""

from django import template

from ..bracket import knockout_round_label
from ..models import Round

register = template.Library()


@register.filter
def knockout_name(rnd: Round) -> str:
    """A knockout round's name by its size (one query); "" for any other round."""
    if getattr(rnd, "kind", None) != Round.Kind.KNOCKOUT:
        return ""
    return knockout_round_label(rnd)

"""Filters of the prize pages (tournaments/prizes.py)."""

from django import template

from tournaments.prizes import money as money_text
from tournaments.prizes import place_label

register = template.Library()


@register.filter
def money(cents, currency="€"):
    """``{{ amount|money:prizes.currency }}``: integer cents as "177 €", "177.50 €"; empty for none."""
    return money_text(cents, currency) if cents is not None else ""


@register.filter
def shared_place(row, rows):
    """``{{ row|shared_place:podium }}``: a ranking row's place as the prize list writes it, "2", or
    "=2" when another of ``rows`` shares its rank."""
    rank = row.get("rank")
    tied = sum(1 for other in rows if other.get("rank") == rank) > 1
    return place_label(rank, row.get("position") or rank, tied)

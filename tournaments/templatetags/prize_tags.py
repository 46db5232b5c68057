"""Filters of the prize pages (tournaments/prizes.py)."""

from django import template

from tournaments.prizes import money as money_text

register = template.Library()


@register.filter
def money(cents, currency="€"):
    """``{{ amount|money:prizes.currency }}``: integer cents as "177 €", "177.50 €"; empty for none."""
    return money_text(cents, currency) if cents is not None else ""

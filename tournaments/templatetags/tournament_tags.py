"""Filters of the tournament pages."""

from django import template

register = template.Library()


@register.filter
def metric_name(key: str) -> str:
    from tournaments.standings import METRICS

    metric = METRICS.get(key)
    return metric.name if metric else key


@register.filter
def metric_abbr(key: str) -> str:
    from tournaments.standings import METRICS

    metric = METRICS.get(key)
    return metric.abbr if metric else key


@register.filter
def at_key(mapping, key):
    try:
        return mapping[key]
    except (KeyError, TypeError):
        return ""


@register.filter
def split(value: str) -> list[str]:
    return value.split()


@register.filter
def field(form, name: str):
    return form[name]


@register.filter
def reached_name(key: str) -> str:
    """How far a team went, in the reader's language: "Champion", "Semi-final", "Round of 16" …"""
    from django.utils.translation import gettext

    names = {
        "champion": gettext("Champion"),
        "final": gettext("Finalist"),
        "third_place": gettext("Third place"),
        "fourth_place": gettext("Fourth place"),
        "semi_final": gettext("Semi-final"),
        "quarter_final": gettext("Quarter-final"),
        "stage": "",
    }
    if key in names:
        return names[key]
    if key.startswith("round_of_"):
        return gettext("Round of %(n)s") % {"n": key.removeprefix("round_of_")}
    return key

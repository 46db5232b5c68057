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

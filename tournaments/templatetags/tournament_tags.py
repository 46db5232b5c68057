"""Filters of the tournament pages."""

from django import template

from tournaments import messages as tournament_words

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
    if key.startswith("consolation_"):
        inner = key.removeprefix("consolation_")
        inner = gettext("Winner") if inner == "champion" else reached_name(inner)
        return gettext("Consolation: %(stage)s") % {"stage": inner}
    if key.startswith("round_of_"):
        return gettext("Round of %(n)s") % {"n": key.removeprefix("round_of_")}
    return key


@register.simple_tag
def table_clock(match) -> dict | None:
    """The clock of the timed round a tournament match is played in, as its table sees it (None
    for a match outside a tournament or an untimed round). Read from the rows the sheet already
    has: no query for a match read by ``match_lock``."""
    from django.core.exceptions import ObjectDoesNotExist

    from tournaments import clock

    try:
        table = match.table
    except ObjectDoesNotExist:
        return None
    if table is None:
        return None
    return clock.state(table.round, table)


def _table(match):
    from django.core.exceptions import ObjectDoesNotExist

    try:
        return match.table
    except (ObjectDoesNotExist, AttributeError):
        return None


@register.simple_tag
def table_place(match) -> dict | None:
    """Where a tournament match is played (``selectors.table_place``): its event, round, table and
    the entries' numbers; None for a match outside a tournament."""
    from tournaments import selectors

    table = _table(match)
    return None if table is None else selectors.table_place(table=table)


@register.simple_tag
def table_next(match) -> dict | None:
    """For a tournament match that is over: what happens next for its teams (``selectors.table_next``)."""
    from tournaments import selectors

    table = _table(match)
    if table is None or match.status != "finished":
        return None
    return selectors.table_next(table=table)


@register.filter
def clock_time(seconds) -> str:
    """Seconds as a clock: 2400 → "40:00", 59 → "0:59"; an hour or more as "1:05:00"."""
    try:
        seconds = max(0, int(seconds))
    except (TypeError, ValueError):
        return ""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.filter
def column_abbr(abbr: str) -> str:
    """``{{ key|metric_abbr|column_abbr }}``: a standings column heading in the page's language."""
    return tournament_words.metric_abbr(abbr)


@register.filter
def audit_word(word: str) -> str:
    """The audit page's kinds (Tournament, Deal …) and actions (created …) in the page's language."""
    return tournament_words.audit_word(word)

"""The site's navigation (base.html): which section of the header the page belongs to."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# Each section: its own list page, then the other pages under it (by namespace or view name).
SECTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "new": ("scoring:match_new", ()),
    "help": ("scoring:help", ()),
    "leaderboard": ("players:leaderboard", ("league:ratings",)),  # the ratings are a leaderboard too
    "players": ("players:list", ("players:",)),
    "clubs": ("league:clubs", ("league:club",)),
    "tournaments": ("tournaments:list", ("tournaments:",)),
    "matches": ("scoring:home", ("scoring:",)),
    "login": ("login", ()),
    "account": ("league:tokens", ()),  # the account's API tokens, from the username in the header
}


def section_of(view_name: str) -> tuple[str, bool]:
    """The section of a page's view name, and whether the page is the section's own list page."""
    for section, (page, _) in SECTIONS.items():
        if view_name == page:
            return section, True
    for section, (_, under) in SECTIONS.items():
        if any(view_name.startswith(prefix) for prefix in under):
            return section, False
    return "", False


@register.simple_tag(takes_context=True)
def nav_current(context: template.Context, section: str) -> SafeString:
    """`` aria-current="page"`` on the link to this very page, ``="true"`` on its section's."""
    match = getattr(context.get("request"), "resolver_match", None)
    here, exact = section_of(match.view_name if match else "")
    if here != section:
        return mark_safe("")
    return mark_safe(' aria-current="page"' if exact else ' aria-current="true"')

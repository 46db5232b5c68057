"""A tournament on a club's own website: the origins whose pages may frame its embeds, its colours.

The embeds (``tournaments/embed.py``) may be framed by the tournament's own site and by the origins
listed here: the ``frame-ancestors`` of their Content-Security-Policy. An origin is
``https://host[:port]``: the scheme (https; http only for ``localhost`` and ``127.0.0.1``, to try
an embed on one's own computer), the host, and a port if it is not the scheme's default; no path,
query or user. A wildcard may stand only as the host's first label and over at least two more
(``https://*.club.example``), as CSP host sources allow; no ``*`` alone, no wildcard port, no IPv6
address (CSP has no way to write one). An international name is kept in its ``xn--`` form. The
settings may change at any time, a running tournament's included (they change no result).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext, gettext_lazy

from ..models import Tournament
from .common import TournamentError

EMBED_SETTINGS = ("embed_origins", "colour", "background")
MAX_ORIGINS = 20
LOCAL_HOSTS = ("localhost", "127.0.0.1")
DEFAULT_PORTS = {"https": 443, "http": 80}
DEFAULT_COLOUR = "#14533e"  # the site's felt green (static/scoring/tsoxa.css)
DEFAULT_BACKGROUND = "#ffffff"

_COLOUR = re.compile(r"#[0-9a-f]{6}")
_ORIGIN = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*)://(?P<rest>.*)", re.IGNORECASE | re.DOTALL)
_HOST_PORT = re.compile(r"(?P<host>[^:/?#@\[\]]+)(?::(?P<port>[^/?#]*))?", re.DOTALL)
# Python's "idna" codec follows IDNA 2003, which writes these four letters otherwise than browsers do
# (ß, final sigma ς, the zero-width joiners): a name with one is asked for in its xn-- form.
DEVIATIONS = "ßς\u200c\u200d"
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")

# What is wrong with an origin refused (after "“…” cannot be listed:").
NOT_AN_ORIGIN = gettext_lazy("write it as https://club.example (the scheme, the host, a port if needed).")
NOT_ONLY_ORIGIN = gettext_lazy("only the scheme, the host and a port: no path, query or user name.")
BAD_SCHEME = gettext_lazy("only https:// (http:// only for localhost and 127.0.0.1).")
BAD_HOST = gettext_lazy("the host is not a valid name.")
BAD_PORT = gettext_lazy("the port is a number from 1 to 65535.")
IPV6 = gettext_lazy("a policy cannot name an IPv6 address: give the site's name.")
WILDCARD_PLACE = gettext_lazy("a wildcard only as the host's first part, as https://*.club.example.")
XN_FORM = gettext_lazy("write this name in its xn-- form, as the browser's address bar shows it.")
WILDCARD_WIDE = gettext_lazy("a wildcard must be followed by at least two parts, as *.club.example.")


def _refused(origin: str, reason: Any) -> TournamentError:
    return TournamentError(
        gettext("“%(origin)s” cannot be listed: %(reason)s") % {"origin": origin[:100], "reason": reason}
    )


def _host(host: str, origin: str) -> str:
    """The host in lower case and ASCII (an international name as its xn-- form)."""
    host = host.lower().rstrip(".")
    wildcard = host.startswith("*.")
    name = host[2:] if wildcard else host
    if "*" in name:
        raise _refused(origin, WILDCARD_PLACE)
    if any(c in name for c in DEVIATIONS):
        raise _refused(origin, XN_FORM)
    try:
        name = name.encode("idna").decode("ascii")
    except UnicodeError:
        raise _refused(origin, BAD_HOST) from None
    labels = name.split(".")
    if not name or len(name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        raise _refused(origin, BAD_HOST)
    if all(label.isdigit() for label in labels):
        try:
            ipaddress.IPv4Address(name)
        except ValueError:
            raise _refused(origin, BAD_HOST) from None
        if wildcard:
            raise _refused(origin, WILDCARD_PLACE)
    if wildcard and len(labels) < 2:
        raise _refused(origin, WILDCARD_WIDE)
    return f"*.{name}" if wildcard else name


def origin_parse(text: str) -> str:
    """One origin as the Content-Security-Policy writes it (``https://club.example``, lower case, no
    default port), or a ``TournamentError`` saying what is wrong with it."""
    origin = text.strip()
    found = _ORIGIN.fullmatch(origin)
    if found is None:
        raise _refused(origin, NOT_AN_ORIGIN)
    scheme, rest = found["scheme"].lower(), found["rest"]
    if scheme not in DEFAULT_PORTS:
        raise _refused(origin, BAD_SCHEME)
    if rest.endswith("/"):
        rest = rest[:-1]  # "https://club.example/", as a browser's address bar shows it
    if "[" in rest:
        raise _refused(origin, IPV6)
    parts = _HOST_PORT.fullmatch(rest)
    if parts is None:
        raise _refused(origin, NOT_ONLY_ORIGIN)
    host = _host(parts["host"], origin)
    if scheme == "http" and host not in LOCAL_HOSTS:
        raise _refused(origin, BAD_SCHEME)
    port = parts["port"]
    if port is not None:
        if not port.isascii() or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise _refused(origin, BAD_PORT)
        port = int(port)
    suffix = "" if port in (None, DEFAULT_PORTS[scheme]) else f":{port}"
    return f"{scheme}://{host}{suffix}"


def embed_origins_parse(origins: str | Iterable[str]) -> list[str]:
    """The origins, in order and once each: from a text (one a line; spaces or commas also part
    them) or a list. Every wrong one is refused in one ``TournamentError`` (one line each)."""
    items = re.split(r"[\s,]+", origins) if isinstance(origins, str) else list(origins)
    found: list[str] = []
    errors: list[str] = []
    for item in (i for i in items if i.strip()):
        try:
            origin = origin_parse(item)
        except TournamentError as error:
            errors.append(str(error))
        else:
            if origin not in found:
                found.append(origin)
    if errors:
        raise TournamentError("\n".join(errors))
    if len(found) > MAX_ORIGINS:
        raise TournamentError(gettext("At most %(count)s origins.") % {"count": MAX_ORIGINS})
    return found


def colour_parse(value: str) -> str:
    """``#rrggbb`` in lower case, or ``""`` (the site's own colour)."""
    colour = (value or "").strip().lower()
    if colour and not _COLOUR.fullmatch(colour):
        raise TournamentError(
            gettext("“%(value)s” is not a colour: write it as #rrggbb, e.g. #14533e.") % {"value": value[:20]}
        )
    return colour


@transaction.atomic
def tournament_embed_update(
    *,
    tournament: Tournament,
    user: Any,
    embed_origins: str | Iterable[str] | None = None,
    colour: str | None = None,
    background: str | None = None,
) -> Tournament:
    """Set who may frame the tournament's embeds and their colours (what is left as None stays)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if embed_origins is not None:
        tournament.embed_origins = "\n".join(embed_origins_parse(embed_origins))
    if colour is not None:
        tournament.colour = colour_parse(colour)
    if background is not None:
        tournament.background = colour_parse(background)
    tournament._history_user = user
    tournament.save()
    return tournament

"""The address guard: a webhook is posted to the public internet only.

A subscription's URL must be ``https://`` (``http://`` too only with the setting below), with a host
and no user name or password in it. Its host is resolved (``socket.getaddrinfo``) and refused when
ANY address it resolves to is not a public one: loopback, private (10/8, 172.16/12, 192.168/16,
fc00::/7), link-local (169.254/16, where clouds keep their metadata service, and fe80::/10), shared
(100.64/10), multicast, reserved, unspecified, documentation, benchmarking …, nor an IPv6 address
that carries such an IPv4 one (IPv4-mapped ``::ffff:a.b.c.d``, 6to4, NAT64, Teredo).

It is checked when the subscription is registered (a clear refusal on the form or in the API) and
again at every delivery, after resolving the name afresh: the delivery then connects to an address
that passed (``Target.addresses``), never to a second lookup of the name, which a DNS answer
changed in between (DNS rebinding) could point inside.

``TSOXA_WEBHOOKS_ALLOW_PRIVATE`` (off by default) lets a laptop or the tests reach a receiver on
127.0.0.1 or the local network, over http too.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

NAT64 = ipaddress.ip_network("64:ff9b::/96")  # the well-known prefix: the last 32 bits are IPv4
NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")


class Refused(ValueError):
    """The URL may not be posted to; the message says why, in words for its owner."""


@dataclass(frozen=True)
class Target:
    """A URL that passed: where to connect (the addresses checked) and what to ask for there."""

    scheme: str
    host: str  # the name, for the Host header and the TLS server name
    port: int
    path: str  # path and query, as sent in the request line
    addresses: tuple[str, ...]


def allow_private() -> bool:
    return bool(getattr(settings, "TSOXA_WEBHOOKS_ALLOW_PRIVATE", False))


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for, if it carries one."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]  # the client's address (the server's is public by construction)
    if ip in NAT64 or ip in NAT64_LOCAL:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_refused(address: str | Address) -> bool:
    """Is this address one a webhook may not be posted to (not a public unicast address)?"""
    ip = ipaddress.ip_address(address.split("%", 1)[0] if isinstance(address, str) else address)
    if isinstance(ip, ipaddress.IPv6Address):
        inner = _embedded_ipv4(ip)
        if inner is not None and address_refused(inner):
            return True
    return (
        not ip.is_global
        or ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or (isinstance(ip, ipaddress.IPv6Address) and ip.is_site_local)
    )


def parse(url: str) -> tuple[str, str, int, str]:
    """The URL's scheme, host, port and path; refused when it is not one a webhook may use."""
    url = (url or "").strip()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused(gettext("This is not a valid URL.")) from None
    scheme = parts.scheme.lower()
    if scheme == "http" and not allow_private():
        raise Refused(gettext("The address must start with https://."))
    if scheme not in ("https", "http"):
        raise Refused(gettext("The address must start with https://."))
    if parts.username is not None or parts.password is not None:
        raise Refused(gettext("The address may not hold a user name or a password."))
    host = parts.hostname or ""
    if not host:
        raise Refused(gettext("The address has no host name."))
    try:  # a name in another script, as DNS and the Host header carry it
        host = host.encode("idna").decode("ascii")
    except UnicodeError:
        raise Refused(gettext("This is not a valid URL.")) from None
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    if any(ord(c) < 33 or ord(c) == 127 for c in path):
        raise Refused(gettext("This is not a valid URL."))
    if port == 0:
        raise Refused(gettext("This is not a valid URL."))
    return scheme, host, port if port is not None else (443 if scheme == "https" else 80), path


def resolve(host: str, port: int) -> tuple[str, ...]:
    """Every address the host name resolves to (an address given as such: itself), in order."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise Refused(gettext("The host name %(host)s could not be resolved.") % {"host": host}) from None
    addresses: list[str] = []
    for *_, sockaddr in found:
        if sockaddr[0] not in addresses:
            addresses.append(sockaddr[0])
    if not addresses:
        raise Refused(gettext("The host name %(host)s could not be resolved.") % {"host": host})
    return tuple(addresses)


def check(url: str) -> Target:
    """The URL checked and its host resolved: a ``Target`` to connect to, or ``Refused``."""
    scheme, host, port, path = parse(url)
    addresses = resolve(host, port)
    if not allow_private():
        refused = [a for a in addresses if address_refused(a)]
        if refused:
            raise Refused(
                gettext(
                    "%(host)s leads to %(address)s, a private, local or reserved address: webhooks "
                    "are only sent to public addresses."
                )
                % {"host": host, "address": refused[0]}
            )
    return Target(scheme=scheme, host=host, port=port, path=path, addresses=addresses)

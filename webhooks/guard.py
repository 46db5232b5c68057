"""The address guard: a webhook is posted to the public internet only.

A subscription's URL must be ``https://`` (``http://`` too only with the setting below), with a host
and no user name or password in it. Its host is resolved (``socket.getaddrinfo``) and refused when
ANY address it resolves to is not a public one: every range of IANA's IPv4 and IPv6 Special-Purpose
Address Registries (loopback, private, link-local such as 169.254.169.254 where clouds keep their
metadata service, shared, multicast, reserved, documentation, benchmarking, discard-only …), every
IPv6 address outside global unicast (2000::/3), and an IPv6 address that carries a refused IPv4 one
(IPv4-mapped ``::ffff:a.b.c.d``, 6to4, NAT64). The ranges are this module's own table
(``REFUSED_V4``, ``REFUSED_V6``), not the interpreter's ``is_private``/``is_global``, whose tables
were incomplete before CPython 3.12.4 (IPv4-mapped addresses and several ranges let through).

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


def _networks(*ranges: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(r) for r in ranges)


# IANA IPv4 Special-Purpose Address Registry, every entry (also those it marks globally reachable:
# AS112, AMT and the 6to4 relays are no place for a webhook), and multicast and 240/4.
REFUSED_V4 = _networks(
    "0.0.0.0/8",  # "this network"
    "10.0.0.0/8",  # private
    "100.64.0.0/10",  # shared address space (carrier-grade NAT)
    "127.0.0.0/8",  # loopback
    "169.254.0.0/16",  # link-local (a cloud's metadata service)
    "172.16.0.0/12",  # private
    "192.0.0.0/24",  # IETF protocol assignments
    "192.0.2.0/24",  # documentation (TEST-NET-1)
    "192.31.196.0/24",  # AS112-v4
    "192.52.193.0/24",  # AMT
    "192.88.99.0/24",  # deprecated 6to4 relay anycast
    "192.168.0.0/16",  # private
    "192.175.48.0/24",  # direct delegation AS112 service
    "198.18.0.0/15",  # benchmarking
    "198.51.100.0/24",  # documentation (TEST-NET-2)
    "203.0.113.0/24",  # documentation (TEST-NET-3)
    "224.0.0.0/4",  # multicast
    "240.0.0.0/4",  # reserved
    "255.255.255.255/32",  # limited broadcast
)

# Outside this block no IPv6 address is global unicast (IANA IPv6 Address Space registry).
GLOBAL_UNICAST_V6 = ipaddress.ip_network("2000::/3")
# IPv6 addresses that stand for an IPv4 one: judged by the IPv4 address they carry.
MAPPED = ipaddress.ip_network("::ffff:0:0/96")  # IPv4-mapped
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # the well-known NAT64 prefix: the last 32 bits
SIXTOFOUR = ipaddress.ip_network("2002::/16")  # 6to4: bits 16-48
# IANA IPv6 Special-Purpose Address Registry, every entry (and the deprecated ranges still routed
# somewhere), refused whatever they carry.
REFUSED_V6 = _networks(
    "::/128",  # unspecified
    "::1/128",  # loopback
    "::/96",  # IPv4-compatible (deprecated)
    "64:ff9b:1::/48",  # local-use NAT64: a network's own translator
    "100::/64",  # discard-only
    "2001::/23",  # IETF protocol assignments (Teredo 2001::/32, ORCHID, AMT, AS112 …)
    "2001:db8::/32",  # documentation
    "3fff::/20",  # documentation
    "5f00::/16",  # segment routing (SRv6) SIDs
    "fc00::/7",  # unique local
    "fe80::/10",  # link-local
    "fec0::/10",  # site-local (deprecated)
    "ff00::/8",  # multicast
)


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


def embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for (IPv4-mapped, NAT64, 6to4), if it carries one."""
    if ip in MAPPED or ip in NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in SIXTOFOUR:
        return ipaddress.IPv4Address((int(ip) >> 80) & 0xFFFFFFFF)
    return None


def address_refused(address: str | Address) -> bool:
    """Is this address one a webhook may not be posted to (not a public unicast address)? Decided by
    this module's tables alone, the same on every Python."""
    if isinstance(address, str):
        address = ipaddress.ip_address(address.split("%", 1)[0])  # fe80::1%eth0: the zone aside
    if isinstance(address, ipaddress.IPv4Address):
        return any(address in network for network in REFUSED_V4)
    inner = embedded_ipv4(address)
    if inner is not None:
        return address_refused(inner)
    return address not in GLOBAL_UNICAST_V6 or any(address in network for network in REFUSED_V6)


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
        address = sockaddr[0]  # an int only from a Python built without IPv6, for an IPv6 address
        if isinstance(address, str) and address not in addresses:
            addresses.append(address)
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

"""The address guard (webhooks/guard.py): only public addresses, over https, checked after DNS."""

import ipaddress
import re
import socket
from unittest import mock

import pytest

from webhooks import guard

REFUSED = [
    "127.0.0.1",  # loopback
    "127.8.9.10",
    "10.0.0.1",  # private
    "172.16.5.4",
    "192.168.1.20",
    "169.254.169.254",  # link-local: a cloud's metadata service
    "100.64.0.1",  # shared (carrier-grade NAT)
    "0.0.0.0",  # unspecified
    "224.0.0.1",  # multicast
    "240.0.0.1",  # reserved
    "255.255.255.255",
    "192.0.2.10",  # documentation
    "198.18.0.1",  # benchmarking
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:10.0.0.1",
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "2002:a00:1::1",  # 6to4 of 10.0.0.1
    "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
    "2001:db8::1",  # documentation
]
PUBLIC = ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"]


@pytest.mark.parametrize("address", REFUSED)
def test_a_private_local_or_reserved_address_is_refused(address):
    assert guard.address_refused(address)


@pytest.mark.parametrize("address", PUBLIC)
def test_a_public_address_passes(address):
    assert not guard.address_refused(address)


# The guard's own table, address by address: the first and last address of each range of IANA's
# Special-Purpose Address Registries (IPv4 and IPv6), and public neighbours just outside it. The
# interpreter's ``is_private``/``is_global`` play no part (before CPython 3.12.4 they let AS112, AMT,
# 6to4 relays, 192.0.0.9 and 3fff::/20 through).
TABLE = [
    # (address, refused, why)
    ("0.0.0.0", True, "0/8: this network"),
    ("0.255.255.255", True, "0/8"),
    ("1.0.0.0", False, "public, after 0/8"),
    ("9.255.255.255", False, "public, before 10/8"),
    ("10.0.0.0", True, "10/8: private"),
    ("10.255.255.255", True, "10/8"),
    ("11.0.0.0", False, "public, after 10/8"),
    ("100.63.255.255", False, "public, before 100.64/10"),
    ("100.64.0.0", True, "100.64/10: shared (carrier-grade NAT)"),
    ("100.127.255.255", True, "100.64/10"),
    ("100.128.0.0", False, "public, after 100.64/10"),
    ("127.0.0.0", True, "127/8: loopback"),
    ("127.255.255.255", True, "127/8"),
    ("169.254.0.0", True, "169.254/16: link-local"),
    ("169.254.169.254", True, "169.254/16: a cloud's metadata service"),
    ("169.254.255.255", True, "169.254/16"),
    ("169.255.0.0", False, "public, after 169.254/16"),
    ("172.15.255.255", False, "public, before 172.16/12"),
    ("172.16.0.0", True, "172.16/12: private"),
    ("172.31.255.255", True, "172.16/12"),
    ("172.32.0.0", False, "public, after 172.16/12"),
    ("192.0.0.0", True, "192.0.0/24: IETF protocol assignments"),
    ("192.0.0.9", True, "192.0.0/24: port control protocol anycast"),
    ("192.0.0.255", True, "192.0.0/24"),
    ("192.0.1.0", False, "public, between 192.0.0/24 and 192.0.2/24"),
    ("192.0.2.0", True, "192.0.2/24: documentation"),
    ("192.0.2.255", True, "192.0.2/24"),
    ("192.0.3.0", False, "public, after 192.0.2/24"),
    ("192.31.196.0", True, "192.31.196/24: AS112-v4"),
    ("192.31.196.255", True, "192.31.196/24"),
    ("192.31.197.0", False, "public, after 192.31.196/24"),
    ("192.52.193.0", True, "192.52.193/24: AMT"),
    ("192.52.193.255", True, "192.52.193/24"),
    ("192.88.99.0", True, "192.88.99/24: 6to4 relay anycast"),
    ("192.88.99.255", True, "192.88.99/24"),
    ("192.88.100.0", False, "public, after 192.88.99/24"),
    ("192.167.255.255", False, "public, before 192.168/16"),
    ("192.168.0.0", True, "192.168/16: private"),
    ("192.168.255.255", True, "192.168/16"),
    ("192.169.0.0", False, "public, after 192.168/16"),
    ("192.175.48.0", True, "192.175.48/24: AS112 direct delegation"),
    ("192.175.48.255", True, "192.175.48/24"),
    ("198.17.255.255", False, "public, before 198.18/15"),
    ("198.18.0.0", True, "198.18/15: benchmarking"),
    ("198.19.255.255", True, "198.18/15"),
    ("198.20.0.0", False, "public, after 198.18/15"),
    ("198.51.100.0", True, "198.51.100/24: documentation"),
    ("198.51.100.255", True, "198.51.100/24"),
    ("203.0.113.0", True, "203.0.113/24: documentation"),
    ("203.0.113.255", True, "203.0.113/24"),
    ("203.0.114.0", False, "public, after 203.0.113/24"),
    ("223.255.255.255", False, "public, before 224/4"),
    ("224.0.0.0", True, "224/4: multicast"),
    ("239.255.255.255", True, "224/4"),
    ("240.0.0.0", True, "240/4: reserved"),
    ("255.255.255.254", True, "240/4"),
    ("255.255.255.255", True, "limited broadcast"),
    ("8.8.8.8", False, "public"),
    ("93.184.216.34", False, "public"),
    # IPv6
    ("::", True, "::/128: unspecified"),
    ("::1", True, "::1/128: loopback"),
    ("::8.8.8.8", True, "::/96: IPv4-compatible, whatever it carries"),
    ("::ffff:ffff", True, "::/96"),
    ("::ffff:0.0.0.0", True, "::ffff:0:0/96 carrying 0.0.0.0"),
    ("::ffff:127.0.0.1", True, "::ffff:0:0/96 carrying loopback"),
    ("::ffff:169.254.169.254", True, "::ffff:0:0/96 carrying link-local"),
    ("::ffff:192.31.196.1", True, "::ffff:0:0/96 carrying AS112"),
    ("::ffff:8.8.8.8", False, "::ffff:0:0/96 carrying a public address"),
    ("::ffff:0:808:808", True, "IPv4-translated: outside 2000::/3"),
    ("64:ff9b::a00:1", True, "64:ff9b::/96 (NAT64) carrying 10.0.0.1"),
    ("64:ff9b::c0a8:1", True, "64:ff9b::/96 carrying 192.168.0.1"),
    ("64:ff9b::808:808", False, "64:ff9b::/96 carrying 8.8.8.8"),
    ("64:ff9b:1::", True, "64:ff9b:1::/48: local-use NAT64"),
    ("64:ff9b:1::808:808", True, "64:ff9b:1::/48, whatever it carries"),
    ("64:ff9b:1:ffff:ffff:ffff:ffff:ffff", True, "64:ff9b:1::/48"),
    ("100::", True, "100::/64: discard-only"),
    ("100::ffff:ffff:ffff:ffff", True, "100::/64"),
    ("2001::", True, "2001::/23: IETF protocol assignments (Teredo 2001::/32)"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", True, "Teredo"),
    ("2001:1::1", True, "2001::/23: port control protocol anycast"),
    ("2001:3::1", True, "2001::/23: AMT"),
    ("2001:4:112::1", True, "2001::/23: AS112-v6"),
    ("2001:20::1", True, "2001::/23: ORCHIDv2"),
    ("2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", True, "2001::/23"),
    ("2001:200::1", False, "public, after 2001::/23"),
    ("2001:db8::", True, "2001:db8::/32: documentation"),
    ("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", True, "2001:db8::/32"),
    ("2001:db9::1", False, "public, after 2001:db8::/32"),
    ("2002:a00:1::1", True, "2002::/16 (6to4) carrying 10.0.0.1"),
    ("2002:7f00:1::1", True, "2002::/16 carrying 127.0.0.1"),
    ("2002:c01f:c401::1", True, "2002::/16 carrying AS112"),
    ("2002:808:808::1", False, "2002::/16 carrying 8.8.8.8"),
    ("3fff::", True, "3fff::/20: documentation"),
    ("3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", True, "3fff::/20"),
    ("3fff:1000::1", False, "public, after 3fff::/20"),
    ("5f00::", True, "5f00::/16: segment routing SIDs"),
    ("5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff", True, "5f00::/16"),
    ("fc00::", True, "fc00::/7: unique local"),
    ("fd12:3456::1", True, "fc00::/7"),
    ("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", True, "fc00::/7"),
    ("fe80::", True, "fe80::/10: link-local"),
    ("fe80::1%eth0", True, "fe80::/10, with its zone"),
    ("febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", True, "fe80::/10"),
    ("fec0::1", True, "fec0::/10: site-local"),
    ("ff00::", True, "ff00::/8: multicast"),
    ("ff02::1", True, "ff00::/8"),
    ("4000::1", True, "outside 2000::/3: not global unicast"),
    ("1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", True, "outside 2000::/3"),
    ("2000::1", False, "global unicast"),
    ("2606:4700:4700::1111", False, "public"),
    ("2a00:1450:4001:80b::200e", False, "public"),
    ("3ffe:ffff::1", False, "global unicast, before 3fff::/20"),
]


@pytest.mark.parametrize(("address", "refused", "why"), TABLE, ids=[row[0] for row in TABLE])
def test_the_guards_own_table_address_by_address(address, refused, why):
    assert guard.address_refused(address) is refused, why


class Lying:
    """An interpreter whose tables call every address public (or every one private)."""

    def __init__(self, answer: bool) -> None:
        self.patches = [
            mock.patch.object(cls, name, property(lambda self, value=value: value))
            for cls in (ipaddress.IPv4Address, ipaddress.IPv6Address)
            for name, value in (
                ("is_global", answer),
                ("is_private", not answer),
                ("is_reserved", not answer),
                ("is_loopback", not answer),
                ("is_link_local", not answer),
                ("is_multicast", not answer),
                ("is_unspecified", not answer),
            )
        ]

    def __enter__(self):
        for patch in self.patches:
            patch.start()

    def __exit__(self, *exc):
        for patch in self.patches:
            patch.stop()


@pytest.mark.parametrize("answer", [True, False], ids=["all-public", "all-private"])
def test_the_guard_decides_the_same_whatever_the_interpreters_tables_say(answer):
    with Lying(answer):
        assert ipaddress.ip_address("10.0.0.1").is_global is answer  # the tables do lie
        decided = [guard.address_refused(address) for address, _, _ in TABLE]
    assert decided == [refused for _, refused, _ in TABLE]


def dns(*addresses):
    """getaddrinfo answering these addresses for any name."""

    def getaddrinfo(host, port, *args, **kwargs):
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in addresses
        ]

    return mock.patch("socket.getaddrinfo", getaddrinfo)


@pytest.fixture
def strict(settings):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = False


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hook",
        "https://10.0.0.1/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/x",
    ],
)
def test_an_address_given_as_such_is_refused_without_the_setting(strict, url):
    with pytest.raises(guard.Refused, match="public addresses"):
        guard.check(url)


def test_a_name_is_refused_when_any_of_its_addresses_is_private(strict):
    with dns("93.184.216.34", "10.1.2.3"), pytest.raises(guard.Refused, match=re.escape("10.1.2.3")):
        guard.check("https://hooks.club.example/tsoxa")


def test_a_name_of_public_addresses_passes_with_what_to_connect_to(strict):
    with dns("93.184.216.34", "2606:4700:4700::1111"):
        target = guard.check("https://hooks.club.example:8443/tsoxa?club=7")
    assert target == guard.Target(
        scheme="https",
        host="hooks.club.example",
        port=8443,
        path="/tsoxa?club=7",
        addresses=("93.184.216.34", "2606:4700:4700::1111"),
    )


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://hooks.club.example/x", "https://"),
        ("ftp://hooks.club.example/x", "https://"),
        ("hooks.club.example/x", "https://"),
        ("https://user:pw@hooks.club.example/x", "user name"),
        ("https:///x", "host"),
        ("https://hooks.club.example:99999/x", "valid URL"),
        ("https://hooks.club.example:0/x", "valid URL"),
        ("https://hooks.club.example/a b", "valid URL"),
    ],
)
def test_only_a_plain_https_url_is_taken(strict, url, message):
    with dns("93.184.216.34"), pytest.raises(guard.Refused, match=message):
        guard.check(url)


def test_a_name_that_does_not_resolve_is_refused(strict):
    def fails(*args, **kwargs):
        raise socket.gaierror(-2, "Name or service not known")

    with mock.patch("socket.getaddrinfo", fails), pytest.raises(guard.Refused, match="could not be resolved"):
        guard.check("https://nowhere.club.example/x")


def test_the_setting_lets_a_local_receiver_through_over_http_too(settings):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = True
    target = guard.check("http://127.0.0.1:8765/hook")
    assert (target.scheme, target.port, target.addresses) == ("http", 8765, ("127.0.0.1",))
    assert guard.check("https://[::1]/x").addresses == ("::1",)


def test_the_setting_is_off_by_default():
    from config.settings import base

    assert base.TSOXA_WEBHOOKS_ALLOW_PRIVATE is False


def test_a_name_in_another_script_is_asked_for_in_its_ascii_form(strict):
    with dns("93.184.216.34"):
        target = guard.check("https://καφενείο.example/hook")
    assert target.host == "καφενείο.example".encode("idna").decode() and target.host.startswith("xn--")
    assert target.port == 443 and target.path == "/hook"

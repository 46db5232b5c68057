"""The address guard (webhooks/guard.py): only public addresses, over https, checked after DNS."""

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

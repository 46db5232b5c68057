"""The signature of a delivery (webhooks/signing.py): what a receiver checks, and what it refuses."""

import hashlib
import hmac
import time
from pathlib import Path

import pytest

from webhooks import signing

SECRET = "s3cr3t-of-the-club"
BODY = b'{"id":"5b0c","type":"match.finished","data":{}}'
NOW = 1_780_000_000


def test_the_signature_is_the_hmac_of_the_timestamp_a_dot_and_the_body():
    header = signing.sign(SECRET, BODY, timestamp=NOW)
    expected = hmac.new(SECRET.encode(), f"{NOW}.".encode() + BODY, hashlib.sha256).hexdigest()
    assert header == f"t={NOW},v1={expected}"


def test_a_receiver_with_the_secret_verifies_it():
    assert signing.verify(SECRET, signing.sign(SECRET, BODY, timestamp=NOW), BODY, now=NOW + 10)


@pytest.mark.parametrize(
    ("secret", "body", "now"),
    [
        pytest.param("another secret", BODY, NOW, id="wrong-secret"),
        pytest.param(SECRET, BODY.replace(b"match", b"round"), NOW, id="body-changed"),
        pytest.param(SECRET, BODY + b" ", NOW, id="body-reformatted"),
        pytest.param(SECRET, BODY, NOW + signing.TOLERANCE + 1, id="too-old"),
        pytest.param(SECRET, BODY, NOW - signing.TOLERANCE - 1, id="from-the-future"),
    ],
)
def test_a_signature_fails_with_the_wrong_secret_a_changed_body_or_an_old_timestamp(secret, body, now):
    header = signing.sign(SECRET, BODY, timestamp=NOW)
    assert not signing.verify(secret, header, body, now=now)


@pytest.mark.parametrize(
    "header",
    ["", "t=,v1=", f"t={NOW}", "v1=abc", f"t=²,v1={'0' * 64}", f"t={NOW},v0=abc", "garbage"],
)
def test_a_malformed_header_never_verifies(header):
    assert not signing.verify(SECRET, header, BODY, now=NOW)


def test_a_timestamp_changed_in_the_header_breaks_the_signature():
    signed = signing.sign(SECRET, BODY, timestamp=NOW)
    moved = signed.replace(f"t={NOW}", f"t={NOW + 1}")
    assert not signing.verify(SECRET, moved, BODY, now=NOW)


def test_any_of_several_v1_values_may_match():
    good = signing.sign(SECRET, BODY, timestamp=NOW).split("v1=")[1]
    assert signing.verify(SECRET, f"t={NOW},v1={'0' * 64},v1={good}", BODY, now=NOW)


def guide_receiver():
    """The check the developers' guide shows (docs/developers/webhooks.md, the Python block of
    "Checking the signature"), run as it is."""
    guide = (Path(__file__).resolve().parents[2] / "docs" / "developers" / "webhooks.md").read_text()
    section = guide[guide.index("## Checking the signature") :]
    code = section[section.index("```python\n") + len("```python\n") :]
    namespace: dict = {}
    exec(code[: code.index("```")], namespace)
    return namespace


def test_the_guides_receiver_verifies_what_a_delivery_carries():
    receiver = guide_receiver()
    secret = receiver["SECRET"].decode()
    header = signing.sign(secret, BODY)
    assert receiver["verified"](header, BODY)
    assert not receiver["verified"](header, BODY + b"\n")
    assert not receiver["verified"](signing.sign("another secret", BODY), BODY)
    assert not receiver["verified"](signing.sign(secret, BODY, timestamp=time.time() - 3600), BODY)
    assert not receiver["verified"]("t=²,v1=00", BODY)

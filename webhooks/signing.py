"""The signature of a delivery, and its check (what a receiver does; docs/developers/webhooks.md
shows the same).

``Tsoxa-Signature: t=<unix seconds>,v1=<hex>``: the hex HMAC-SHA256, keyed with the subscription's
secret, of the bytes ``<t>.<raw body>``. A receiver recomputes it over the body exactly as it came
(before parsing the JSON), compares in constant time, and refuses a timestamp older than a few
minutes (a recorded delivery replayed later). Standard library only: nothing here knows Django.
"""

from __future__ import annotations

import hashlib
import hmac
import time

HEADER = "Tsoxa-Signature"
TOLERANCE = 300  # seconds a signature stays good, either way


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256 of ``<timestamp>.<body>`` with ``secret``."""
    message = str(int(timestamp)).encode() + b"." + body
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def sign(secret: str, body: bytes, timestamp: int | None = None) -> str:
    """The ``Tsoxa-Signature`` header's value for ``body``, signed now (or at ``timestamp``)."""
    t = int(time.time()) if timestamp is None else int(timestamp)
    return f"t={t},v1={signature(secret, t, body)}"


def verify(
    secret: str, header: str, body: bytes, *, tolerance: int = TOLERANCE, now: float | None = None
) -> bool:
    """Is ``header`` (a ``Tsoxa-Signature`` value) a signature of ``body`` with ``secret``, made within
    ``tolerance`` seconds of ``now``? Several ``v1`` values may be given (any one may match)."""
    timestamp, candidates = None, []
    for part in (header or "").split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isascii() and value.isdigit():
            timestamp = int(value)
        elif key == "v1":
            candidates.append(value)
    if timestamp is None or not candidates:
        return False
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        return False
    expected = signature(secret, timestamp, body)
    return any(hmac.compare_digest(expected, candidate) for candidate in candidates)

"""One POST of a delivery, to an address the guard has just checked.

The connection is made to the checked address itself (``guard.Target.addresses``), while the Host
header and the TLS server name (and the certificate's check) are the URL's host name: no second
lookup of the name happens between the check and the connection. A redirect is not followed (a 3xx
is a failed attempt, like any answer but a 2xx); every step has a timeout.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from dataclasses import dataclass

from . import guard

TIMEOUT = 5.0  # seconds to connect, and for each read of the answer
KEEP = 500  # characters of the answer's body kept in the log
USER_AGENT = "Tsoxa-Webhooks/1"


@dataclass(frozen=True)
class Answer:
    """What an attempt met: the answer's status and the start of its body, or an error."""

    ok: bool
    status_code: int | None
    response: str
    error: str
    duration_ms: int


def _connection(target: guard.Target, address: str) -> http.client.HTTPConnection:
    """A connection to ``target`` that connects to ``address`` (and nowhere else)."""
    if target.scheme == "https":
        conn: http.client.HTTPConnection = http.client.HTTPSConnection(
            target.host, target.port, timeout=TIMEOUT, context=ssl.create_default_context()
        )
    else:
        conn = http.client.HTTPConnection(target.host, target.port, timeout=TIMEOUT)

    def connect_to_checked(_address, timeout, source_address=None):
        return socket.create_connection((address, target.port), timeout, source_address)

    conn._create_connection = connect_to_checked  # HTTPConnection.connect calls it, then TLS wraps it
    return conn


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST ``body`` to ``url``: checked by the guard, then sent to the address checked. A refusal,
    a connection error and a timeout come back as an ``Answer`` with its ``error``."""
    started = time.monotonic()

    def took() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        target = guard.check(url)
    except guard.Refused as refused:
        return Answer(False, None, "", str(refused)[:300], took())
    error = ""
    for address in target.addresses:  # the next one only when this one cannot be reached
        conn = _connection(target, address)
        try:
            conn.connect()
        except Exception as failure:  # refused, unreachable, a bad certificate: the next address
            error = f"{type(failure).__name__}: {failure}"[:300]
            conn.close()
            continue
        try:  # connected: whatever happens now, the request was made (no other address is tried)
            conn.request(
                "POST",
                target.path,
                body=body,
                headers={**headers, "User-Agent": USER_AGENT, "Content-Length": str(len(body))},
            )
            answer = conn.getresponse()
            text = answer.read(KEEP * 4).decode("utf-8", "replace")[:KEEP]
            return Answer(200 <= answer.status < 300, answer.status, text, "", took())
        except Exception as failure:  # a timeout, a reset, a bad answer: the attempt failed, with why
            return Answer(False, None, "", f"{type(failure).__name__}: {failure}"[:300], took())
        finally:
            conn.close()
    return Answer(False, None, "", error, took())

"""One POST of a delivery, to an address the guard has just checked.

The connection is made to the checked address itself (``guard.Target.addresses``), while the Host
header and the TLS server name (and the certificate's check) are the URL's host name: no second
lookup of the name happens between the check and the connection. A redirect is not followed (a 3xx
is a failed attempt, like any answer but a 2xx).

An attempt is bounded in time and in size, whatever the receiver does:

- each step (connecting, each send, each read) waits ``TIMEOUT`` seconds at most, and the whole
  attempt (connecting, the TLS handshake, sending, reading the answer, counted from before the
  name's lookup, which only the system's resolver bounds) ``DEADLINE`` seconds: every step waits
  only for what is left, so a receiver that trickles its answer a byte at a time cannot hold the
  worker longer. Past it, the attempt has failed, even after a 2xx status line.
- at most ``MAX_ANSWER`` bytes of the answer are read (status line, headers and body together);
  the rest is never read, and the attempt is judged by its status alone.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from dataclasses import dataclass

from . import guard

TIMEOUT = 5.0  # seconds to connect, and for each send or read
DEADLINE = 10.0  # seconds for the whole attempt, from its start to the answer read
MAX_ANSWER = 64 * 1024  # bytes of the answer read at most (status line, headers, body)
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
    received: int = 0  # bytes of the answer read (MAX_ANSWER at most)


class Expired(TimeoutError):
    """The attempt's deadline has passed."""


class _Bounded:
    """A socket whose every send and receive waits only for what is left before ``deadline`` (and
    ``TIMEOUT`` at most), and which receives ``MAX_ANSWER`` bytes in all: past that, it reads as if
    the receiver had closed the connection."""

    deadline: float = 0.0
    received: int = 0
    capped = False  # a read found the cap reached

    def _within(self, call, *args):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise Expired(f"no complete answer within {DEADLINE:g} s")
        self.settimeout(min(TIMEOUT, left))
        try:
            return call(*args)
        except TimeoutError:
            if time.monotonic() >= self.deadline:
                raise Expired(f"no complete answer within {DEADLINE:g} s") from None
            raise

    def _room(self, wanted: int) -> int:
        return max(0, min(wanted, MAX_ANSWER - self.received))

    def recv_into(self, buffer, nbytes=0, *args):
        room = self._room(nbytes or len(buffer))
        if room == 0:
            self.capped = True
            return 0
        got = self._within(super().recv_into, buffer, room, *args)
        self.received += got
        return got

    def recv(self, buflen=1024, flags=0):  # SSLSocket.recv's parameters
        room = self._room(buflen)
        if room == 0:
            self.capped = True
            return b""
        data = self._within(super().recv, room, flags)
        self.received += len(data)
        return data

    def send(self, data, *args):
        return self._within(super().send, data, *args)

    def sendall(self, data, *args):
        return self._within(super().sendall, data, *args)


class _Socket(_Bounded, socket.socket):
    pass


class _TLSSocket(_Bounded, ssl.SSLSocket):
    pass


def _context() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.sslsocket_class = _TLSSocket
    return context


def _connection(target: guard.Target, address: str, deadline: float) -> http.client.HTTPConnection:
    """A connection to ``target`` that connects to ``address`` (and nowhere else), every step of it
    before ``deadline``."""
    if target.scheme == "https":
        conn: http.client.HTTPConnection = http.client.HTTPSConnection(
            target.host, target.port, timeout=TIMEOUT, context=_context()
        )
    else:
        conn = http.client.HTTPConnection(target.host, target.port, timeout=TIMEOUT)

    def connect_to_checked(_address, timeout, source_address=None):
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        sock = _Socket(family, socket.SOCK_STREAM)
        sock.deadline = deadline
        try:
            sock._within(sock.connect, (address, target.port))
            sock._within(lambda: None)  # the TLS handshake that follows waits only for what is left
        except BaseException:
            sock.close()
            raise
        return sock

    # HTTPConnection.connect calls it, then TLS wraps it.
    conn._create_connection = connect_to_checked  # type: ignore[attr-defined]  # private: not in typeshed
    return conn


def _bounded(conn: http.client.HTTPConnection, deadline: float) -> _Bounded:
    """The connection's socket, plain or TLS, holding the attempt's deadline."""
    sock = conn.sock
    assert isinstance(sock, _Bounded)
    sock.deadline = deadline
    return sock


def _body(answer: http.client.HTTPResponse) -> bytes:
    """As much of the body as the socket gives (it stops at ``MAX_ANSWER``). A receiver that breaks
    off its body has still answered with its status; only a timeout (the deadline, or ``TIMEOUT``
    seconds without a byte) fails the attempt."""
    chunks: list[bytes] = []
    try:
        while chunk := answer.read(MAX_ANSWER):
            chunks.append(chunk)
    except TimeoutError:  # the deadline, or no byte for TIMEOUT seconds
        raise
    except (OSError, http.client.HTTPException):
        pass
    return b"".join(chunks)


def _too_long() -> str:
    return f"The answer's status line and headers pass {MAX_ANSWER // 1024} KiB."


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST ``body`` to ``url``: checked by the guard, then sent to the address checked. A refusal,
    a connection error, a timeout and the deadline come back as an ``Answer`` with its ``error``."""
    started = time.monotonic()
    deadline = started + DEADLINE

    def took() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        target = guard.check(url)
    except guard.Refused as refused:
        return Answer(False, None, "", str(refused)[:300], took())
    error = ""
    for address in target.addresses:  # the next one only when this one cannot be reached
        conn = _connection(target, address, deadline)
        try:
            conn.connect()
        except Expired as failure:  # no time left for another address
            conn.close()
            return Answer(False, None, "", f"Timeout: {failure}"[:300], took())
        except Exception as failure:  # refused, unreachable, a bad certificate: the next address
            error = f"{type(failure).__name__}: {failure}"[:300]
            conn.close()
            continue
        sock = _bounded(conn, deadline)
        try:  # connected: whatever happens now, the request was made (no other address is tried)
            conn.request(
                "POST",
                target.path,
                body=body,
                headers={**headers, "User-Agent": USER_AGENT, "Content-Length": str(len(body))},
            )
            answer = conn.getresponse()
            if sock.capped:  # the headers went on past the cap (http.client took the cut for their end)
                return Answer(False, None, "", _too_long(), took(), sock.received)
            text = _body(answer)[: KEEP * 4].decode("utf-8", "replace")[:KEEP]
            return Answer(200 <= answer.status < 300, answer.status, text, "", took(), sock.received)
        except Expired as failure:
            return Answer(False, None, "", f"Timeout: {failure}"[:300], took(), sock.received)
        except Exception as failure:  # a timeout, a reset, a bad answer: the attempt failed, with why
            error = _too_long() if sock.capped else f"{type(failure).__name__}: {failure}"
            return Answer(False, None, "", error[:300], took(), sock.received)
        finally:
            conn.close()
    return Answer(False, None, "", error, took())

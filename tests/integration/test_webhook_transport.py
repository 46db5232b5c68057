"""One attempt's bounds (webhooks/transport.py): a deadline for the whole attempt, however the
receiver trickles its answer, and a cap on the answer's size, past which nothing more is read and
the status alone decides. Against raw receivers on 127.0.0.1 (plain and TLS), in threads."""

from __future__ import annotations

import datetime
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable

import pytest

from webhooks import transport

DEADLINE = 1.0  # the tests' deadline (10 s in production): nothing here waits long


@pytest.fixture(autouse=True)
def quick(settings, monkeypatch):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = True
    monkeypatch.setattr(transport, "DEADLINE", DEADLINE)


class RawReceiver:
    """A server on 127.0.0.1 that reads each request and then runs ``answer(self, connection)``: it
    answers however a test says, byte by byte if need be. Optionally TLS."""

    def __init__(
        self, answer: Callable[[RawReceiver, socket.socket], None], tls: ssl.SSLContext | None = None
    ):
        self.answer, self.tls = answer, tls
        self.sent = 0  # bytes the answer managed to send
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.stopped = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return (
            f"{'https' if self.tls else 'http'}://{'localhost' if self.tls else '127.0.0.1'}:{self.port}/hook"
        )

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        try:
            if self.tls:
                conn = self.tls.wrap_socket(conn, server_side=True)
            conn.settimeout(30)
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(65536)
            head, _, body = request.partition(b"\r\n\r\n")
            length = next(
                int(line.split(b":")[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length")
            )
            while len(body) < length:
                body += conn.recv(65536)
            self.answer(self, conn)
        except OSError:  # the client gave up, as it should
            pass
        finally:
            conn.close()

    def send(self, conn: socket.socket, data: bytes) -> None:
        conn.sendall(data)
        self.sent += len(data)

    def stop(self) -> None:
        self.stopped.set()
        self.listener.close()


@pytest.fixture
def serve():
    started: list[RawReceiver] = []

    def start(answer, tls=None) -> RawReceiver:
        started.append(RawReceiver(answer, tls))
        return started[-1]

    yield start
    for receiver in started:
        receiver.stop()


def post(url: str) -> tuple[transport.Answer, float]:
    started = time.monotonic()
    answer = transport.post(url, b'{"type": "match.finished"}', {"Content-Type": "application/json"})
    return answer, time.monotonic() - started


def trickle(receiver, conn, data: bytes, every: float = 0.05) -> None:
    for byte in data:
        receiver.send(conn, bytes([byte]))
        time.sleep(every)


# The deadline ------------------------------------------------------------------------------------


def status_and_headers_trickled(receiver, conn):
    """A byte every 50 ms, each well within the 5 s a read may wait: 4 s for the whole answer."""
    trickle(receiver, conn, b"HTTP/1.1 200 OK\r\nX-Slow: " + b"z" * 60 + b"\r\nContent-Length: 2\r\n\r\nok")


def test_a_receiver_trickling_its_answer_is_given_up_at_the_deadline(serve):
    receiver = serve(status_and_headers_trickled)
    answer, took = post(receiver.url)
    assert not answer.ok and answer.status_code is None
    assert answer.error == f"Timeout: no complete answer within {DEADLINE:g} s"
    assert DEADLINE <= took < DEADLINE + 0.5
    assert DEADLINE * 1000 <= answer.duration_ms < (DEADLINE + 0.5) * 1000
    assert 0 < answer.received < 40  # what came before the deadline


def body_trickled_after_a_200(receiver, conn):
    receiver.send(conn, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n")  # then until closed
    trickle(receiver, conn, b"still thinking " * 10)


def test_a_body_trickled_after_a_2xx_fails_at_the_deadline_too(serve):
    receiver = serve(body_trickled_after_a_200)
    answer, took = post(receiver.url)
    assert not answer.ok and "Timeout" in answer.error
    assert took < DEADLINE + 0.5


def silent(receiver, conn):
    time.sleep(3)


def test_a_silent_receiver_waits_for_the_deadline_not_the_reads_timeout(serve):
    receiver = serve(silent)
    answer, took = post(receiver.url)
    assert not answer.ok and answer.error.startswith("Timeout")
    assert DEADLINE <= took < DEADLINE + 0.5


def quick_answer(receiver, conn):
    receiver.send(conn, b"HTTP/1.1 204 No Content\r\n\r\n")


def test_an_answer_in_time_is_taken(serve):
    answer, took = post(serve(quick_answer).url)
    assert answer.ok and answer.status_code == 204 and answer.error == ""
    assert took < DEADLINE


# The size of the answer ---------------------------------------------------------------------------


def huge(status: bytes, framing: bytes):
    def answer(receiver, conn):
        receiver.send(conn, b"HTTP/1.1 " + status + b"\r\nContent-Type: text/plain\r\n" + framing + b"\r\n")
        chunk = b"x" * 65536
        for _ in range(320):  # 20 MiB, if anyone read it
            if framing.startswith(b"Transfer-Encoding"):
                receiver.send(conn, b"10000\r\n" + chunk + b"\r\n")
            else:
                receiver.send(conn, chunk)

    return answer


@pytest.mark.parametrize(
    ("status", "framing", "ok"),
    [
        (b"200 OK", b"Content-Length: 20971520\r\n", True),
        (b"202 Accepted", b"Transfer-Encoding: chunked\r\n", True),
        (b"200 OK", b"", True),  # no length: read until closed
        (b"500 Internal Server Error", b"", False),
        (b"503 Service Unavailable", b"Content-Length: 20971520\r\n", False),
    ],
    ids=["length", "chunked", "until-closed", "500", "503"],
)
def test_a_huge_answer_is_read_up_to_the_cap_and_judged_by_its_status(serve, status, framing, ok):
    receiver = serve(huge(status, framing))
    answer, took = post(receiver.url)
    assert answer.ok is ok and answer.status_code == int(status[:3]), answer.error
    assert answer.error == ""
    assert answer.received == transport.MAX_ANSWER == 64 * 1024  # the cap, and not a byte more
    assert len(answer.response) <= transport.KEEP
    assert took < DEADLINE


def headers_past_the_cap(receiver, conn):
    receiver.send(conn, b"HTTP/1.1 200 OK\r\n")
    for n in range(90):  # 90 headers of 1 KiB: under http.client's own limits, over the cap
        receiver.send(conn, f"X-Filler-{n}: ".encode() + b"f" * 1024 + b"\r\n")
    receiver.send(conn, b"Content-Length: 0\r\n\r\n")


def test_headers_longer_than_the_cap_fail_the_attempt(serve):
    answer, _ = post(serve(headers_past_the_cap).url)
    assert not answer.ok and answer.status_code is None
    assert answer.error == "The answer's status line and headers pass 64 KiB."
    assert answer.received == transport.MAX_ANSWER


# Over TLS ----------------------------------------------------------------------------------------


@pytest.fixture
def tls(tmp_path, monkeypatch):
    """A certificate for localhost (openssl), trusted by the transport for this test only; the
    receiver's TLS context."""
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost"],
        check=True,
        capture_output=True,
    )  # fmt: skip
    real = ssl.create_default_context
    monkeypatch.setattr(transport.ssl, "create_default_context", lambda: real(cafile=str(cert)))
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)
    return server


def test_over_tls_an_answer_in_time_is_taken_and_the_name_checked(serve, tls):
    answer, _ = post(serve(quick_answer, tls).url)
    assert answer.ok and answer.status_code == 204, answer.error


def test_over_tls_a_trickling_receiver_is_given_up_at_the_deadline(serve, tls):
    answer, took = post(serve(status_and_headers_trickled, tls).url)
    assert not answer.ok and answer.error == f"Timeout: no complete answer within {DEADLINE:g} s"
    assert took < DEADLINE + 0.5


def test_over_tls_a_huge_answer_is_read_up_to_the_cap(serve, tls):
    answer, _ = post(serve(huge(b"200 OK", b""), tls).url)
    assert answer.ok and answer.received == transport.MAX_ANSWER


# Through a delivery ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_delivery_to_a_trickling_receiver_logs_the_timeout_and_waits_for_its_retry(
    serve, django_user_model
):
    from tournaments import services as tournaments
    from webhooks import services as webhooks
    from webhooks.models import Delivery, Event

    receiver = serve(status_and_headers_trickled)
    organizer = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    tournament = tournaments.tournament_create(organizer=organizer, name="Slow club", swiss_rounds=1)
    hook = webhooks.subscription_create(
        user=organizer, url=receiver.url, events=[Event.ROUND_STARTED], tournament=tournament
    )
    delivery = Delivery.objects.create(subscription=hook, event=Event.ROUND_STARTED, body="{}")
    wait = webhooks.delivery_attempt(delivery_id=str(delivery.pk), attempt=1)
    assert wait == 60  # the first retry, a minute later
    delivery.refresh_from_db()
    attempt = delivery.log.get()
    assert delivery.status == Delivery.Status.PENDING and delivery.attempts == 1
    assert attempt.ok is False and attempt.status_code is None
    assert attempt.error == f"Timeout: no complete answer within {DEADLINE:g} s"
    assert DEADLINE * 1000 <= attempt.duration_ms < (DEADLINE + 0.5) * 1000
    assert delivery.next_attempt_at - attempt.at > datetime.timedelta(seconds=55)

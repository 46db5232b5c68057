"""Fakes for the webhooks' tests: a club's server in a thread (the receiver), and names that resolve
to the addresses a test says (the address guard resolves every host it is given)."""

from __future__ import annotations

import json
import socket
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from unittest import mock


class Receiver:
    """A club's server, in a thread: it records every request and answers with the statuses given
    (in order; 200 once they run out)."""

    def __init__(self, answers: list[int] | None = None) -> None:
        self.requests: list[dict] = []
        self.answers = list(answers or [])
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.requests.append(
                    {"path": self.path, "headers": dict(self.headers.items()), "body": body}
                )
                status = receiver.answers.pop(0) if receiver.answers else 200
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"thanks" if status < 300 else b"not now")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks/tsoxa"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def events(self) -> list[str]:
        return [r["headers"]["Tsoxa-Event"] for r in self.requests]

    def bodies(self, event: str | None = None) -> list[dict]:
        return [
            json.loads(r["body"])
            for r in self.requests
            if event is None or r["headers"]["Tsoxa-Event"] == event
        ]


@contextmanager
def fake_dns(names: dict[str, str]):
    """``socket.getaddrinfo`` answers each name of ``names`` with its address (IPv4); any other name
    resolves as usual."""
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host in names:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (names[host], port))]
        return real(host, port, *args, **kwargs)

    with mock.patch("socket.getaddrinfo", getaddrinfo):
        yield

"""Fakes for the push tests and the benchmark: a push service in a thread (the receiver), which checks
each message's VAPID signature and keeps it, and a browser's keys, which decrypt it."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A browser's side of a subscription: its P-256 key pair and authentication secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def keys(self) -> dict[str, str]:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64(public), "auth": b64(self.auth)}

    def subscription(self, endpoint: str) -> dict:
        return {"endpoint": endpoint, "expirationTime": None, "keys": self.keys()}

    def decrypt(self, body: bytes) -> dict:
        """The message as the browser reads it (RFC 8291's aes128gcm)."""
        return json.loads(
            http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        )


def vapid_claims(authorization: str, public_key: str) -> dict:
    """The claims of a ``vapid t=<JWT>, k=<key>`` header, once its ES256 signature is checked against
    ``public_key`` (and ``k`` found to be it). AssertionError otherwise."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid", authorization
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    head, claims, signature = fields["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if it does not hold
    return json.loads(unb64(claims))


class PushReceiver:
    """A push service on 127.0.0.1: keeps every POST (path, headers, body, when) and answers with the
    status set for its path (``statuses``; 201 otherwise, as push services do)."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.statuses: dict[str, list[int] | int] = {}
        self.lock = threading.Lock()
        self.arrived = threading.Condition(self.lock)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.arrived:
                    status = receiver.statuses.get(self.path, 201)
                    if isinstance(status, list):
                        status = status.pop(0) if status else 201
                    receiver.requests.append(
                        {
                            "path": self.path,
                            "headers": dict(self.headers.items()),
                            "body": body,
                            "status": status,
                            "at": time.monotonic(),
                        }
                    )
                    receiver.arrived.notify_all()
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.send_header("Connection", "close")
                self.end_headers()

            def log_message(self, *args):
                pass

        class Server(ThreadingHTTPServer):
            request_queue_size = 512
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/push/{name}"

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def delivered(self, path_name: str) -> list[dict]:
        return [r for r in self.requests if r["path"] == f"/push/{path_name}"]

    def wait_for(self, count: int, timeout: float) -> bool:
        with self.arrived:
            return self.arrived.wait_for(lambda: len(self.requests) >= count, timeout)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

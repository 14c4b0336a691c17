"""A second origin for the transfer tests (test hooks only): a tiny HTTP/1.1 server on another 127.0.0.1 port.

Started lazily inside the app's process when ``BACKEND_TEST_HOOKS=1`` (see ``/test-hooks/witness`` in app.py).
Python standard library only.

``GET /events``
    Every request it received, oldest first: ``{"method", "path", "hasAuthorization", "userAgent",
    "bytesReceived", "contentLength", "attempt", "outcome"}`` (never the Authorization value).
``PUT|POST /flaky/<id>?fail=N&kind=slowdown|error|reset&target=<url>``
    The first ``N`` requests for ``<id>`` fail: ``slowdown`` reads the body and answers S3's 503 ``SlowDown`` XML,
    ``error`` answers 500 ``InternalError`` XML, ``reset`` reads 64 KiB of the body and resets the connection (TCP
    RST, no response). Later requests forward the whole body to ``target`` (a presigned PUT URL of the local S3)
    with the same ``Content-Type`` and answer with its status, ``ETag`` and body.
anything else
    Recorded, body read and counted, answered ``200 {"witness": true}`` (a stand-in for a foreign host).
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_EVENTS = 1000
MAX_FORWARD_BYTES = 256 * 1024 * 1024
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _s3_error(code: str, message: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f"<Error><Code>{code}</Code><Message>{message}</Message><RequestId>WITNESS</RequestId></Error>"
    ).encode()


class Witness:
    """The server, its thread and what it saw."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.events: list[dict] = []
        self.attempts: dict[str, int] = {}
        witness = self

        class Handler(_Handler):
            state = witness

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, name="witness", daemon=True)
        self.thread.start()

    def record(self, event: dict) -> None:
        with self.lock:
            self.events.append(event)
            del self.events[:-MAX_EVENTS]

    def next_attempt(self, key: str) -> int:
        with self.lock:
            self.attempts[key] = self.attempts.get(key, 0) + 1
            return self.attempts[key]

    def snapshot(self) -> list[dict]:
        with self.lock:
            return [dict(e) for e in self.events]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "Witness/1.0"
    state: Witness

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet
        pass

    def do_GET(self) -> None:  # noqa: N802
        if urllib.parse.urlsplit(self.path).path == "/events":
            return self._send(200, json.dumps(self.state.snapshot()).encode(), "application/json")
        self._witness()

    def do_PUT(self) -> None:  # noqa: N802
        self._route()

    def do_POST(self) -> None:  # noqa: N802
        self._route()

    # MARK: routes

    def _route(self) -> None:
        parsed = urllib.parse.urlsplit(self.path)
        if parsed.path.startswith("/flaky/"):
            return self._flaky(parsed.path.removeprefix("/flaky/"), urllib.parse.parse_qs(parsed.query))
        self._witness()

    def _event(self, **extra) -> dict:
        event = {
            "method": self.command,
            "path": urllib.parse.urlsplit(self.path).path,
            "hasAuthorization": self.headers.get("Authorization") is not None,
            "userAgent": self.headers.get("User-Agent"),
            "contentLength": self._content_length(),
            "bytesReceived": 0,
            "attempt": None,
            "outcome": None,
        }
        event.update(extra)
        return event

    def _witness(self) -> None:
        event = self._event(outcome="witnessed")
        event["bytesReceived"], _ = self._read_body(limit=None, keep=False)
        self.state.record(event)
        self._send(200, b'{"witness": true}', "application/json")

    def _flaky(self, key: str, query: dict[str, list[str]]) -> None:
        fail = int((query.get("fail") or ["0"])[0])
        kind = (query.get("kind") or ["slowdown"])[0]
        target = (query.get("target") or [""])[0]
        attempt = self.state.next_attempt(key)
        event = self._event(attempt=attempt)
        if attempt <= fail and kind == "reset":
            event["bytesReceived"], _ = self._read_body(limit=64 * 1024, keep=False)
            event["outcome"] = "reset"
            self.state.record(event)
            self._reset()
            return
        event["bytesReceived"], body = self._read_body(limit=None, keep=attempt > fail)
        if attempt <= fail:
            event["outcome"] = kind
            self.state.record(event)
            if kind == "error":
                return self._send(500, _s3_error("InternalError", "We encountered an internal error."), "application/xml")
            return self._send(503, _s3_error("SlowDown", "Please reduce your request rate."), "application/xml")
        request = urllib.request.Request(target, data=body, method="PUT")
        if self.headers.get("Content-Type"):
            request.add_header("Content-Type", self.headers["Content-Type"])
        try:
            with _opener.open(request, timeout=30) as answer:
                status, data, etag = answer.status, answer.read(), answer.headers.get("ETag")
        except urllib.error.HTTPError as error:
            status, data, etag = error.code, error.read(), None
        event["outcome"] = f"forwarded:{status}"
        self.state.record(event)
        self._send(status, data, "application/xml", {"ETag": etag} if etag else None)

    # MARK: plumbing

    def _content_length(self) -> int | None:
        try:
            return int(self.headers.get("Content-Length") or "")
        except ValueError:
            return None

    def _read_body(self, limit: int | None, keep: bool) -> tuple[int, bytes]:
        """Reads the Content-Length body (at most `limit` bytes of it): the count read, and the bytes when `keep`."""
        remaining = self._content_length() or 0
        if limit is not None:
            remaining = min(remaining, limit)
        keep = keep and remaining <= MAX_FORWARD_BYTES
        chunks, received = [], 0
        while remaining > 0:
            chunk = self.rfile.read(min(remaining, 64 * 1024))
            if not chunk:
                break
            received += len(chunk)
            remaining -= len(chunk)
            if keep:
                chunks.append(chunk)
        return received, b"".join(chunks)

    def _reset(self) -> None:
        """Closes the connection with a TCP RST and no response."""
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def _send(self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        # One request per connection, and said so: without the header a client keeps the connection for its next
        # request, and when this side's close has not reached it yet (a busy machine) that request is cut off.
        self.send_header("Connection", "close")
        self.close_connection = True
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

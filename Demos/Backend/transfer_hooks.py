"""Transfer test hooks (``BACKEND_TEST_HOOKS=1``): redirects, faults, echoed credentials, a second origin. For the
clients' HTTP layer (issue 13 §1).

``X-Test-Redirect: <status> <location>`` on any request (unless its query has ``redirected``): answered
    ``<status>`` with ``Location: <location>`` without reading the body, or after reading all of it with
    ``X-Test-Redirect-Read: 1``. Recorded as a "redirect" event. A location such as
    ``/upload-model?redirected=1`` redirects within this origin.
``POST|PUT /test-hooks/echo-authorization/<json|text>/<pad>/<anything>``: answered 400 with a message that quotes
    the Authorization header received, after ``<pad>`` filler characters (to place it across a client's cut), as
    JSON ``{"success": false, "message"}`` or as plain text — what a careless server does. Usable as an API base.
``X-Test-Put-Via: <index> <prefix>`` on ``/presigned-urls``: item ``<index>``'s uploadURL becomes
    ``<prefix>&target=<its presigned URL>&id=<n>``, e.g. a prefix ``{witness}/flaky/k?fail=2&kind=slowdown`` or
    ``{api}/test-hooks/redirect?status=307``. Several, separated by ``;``.
``GET /test-hooks/witness``: ``{"base": "http://127.0.0.1:<port>"}`` of the second origin (witness.py), started
    on first use (one per instance).
``PUT|POST /test-hooks/redirect?status=<3xx>&target=<url>[&read=1]``: a storage URL that redirects.
``GET /test-hooks/answers``: this instance's last 50 answers to requests with ``X-Test-Redirect`` (the redirect and
    the redirected request), oldest first: ``{"path", "redirected", "arrived", "answered", "status"}`` (Unix times),
    to tell a server that did not answer from a client that did not see the answer.

    transfer = install(app, hooks=hooks)
    transfer.route_uploads(request, items)      # applies X-Test-Put-Via to presigned items
"""

from __future__ import annotations

import collections
import threading
import time
import urllib.parse
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

import witness as witness_module
from errors import APIError
from hooks import Hooks, read_body_counting


class TransferHooks:
    def __init__(self, hooks: Hooks) -> None:
        self.hooks = hooks
        self._witness_lock = threading.Lock()
        self._witness: witness_module.Witness | None = None

    def witness(self) -> witness_module.Witness:
        with self._witness_lock:
            if self._witness is None:
                self._witness = witness_module.Witness()
            return self._witness

    def route_uploads(self, request: Request, items: list[dict[str, Any]]) -> None:
        """Applies ``X-Test-Put-Via`` to the presigned items (in place)."""
        raw = request.headers.get("x-test-put-via")
        if not raw:
            return
        for spec in (part.strip() for part in raw.split(";")):
            index_text, _, prefix = spec.partition(" ")
            try:
                index = int(index_text)
            except ValueError:
                raise APIError(400, f"X-Test-Put-Via {spec!r}: index must be an integer") from None
            if not 0 <= index < len(items) or not prefix.startswith("http"):
                raise APIError(400, f"X-Test-Put-Via {spec!r}: bad index or prefix")
            target = urllib.parse.quote(items[index]["uploadURL"], safe="")
            separator = "&" if "?" in prefix else "?"
            items[index]["uploadURL"] = f"{prefix}{separator}target={target}&id={self.hooks.next_id()}"


ANSWERS: collections.deque[dict[str, Any]] = collections.deque(maxlen=50)


class _RedirectMiddleware:
    """ASGI middleware for ``X-Test-Redirect`` (installed with the hooks only)."""

    def __init__(self, app, hooks: Hooks) -> None:
        self.app = app
        self.hooks = hooks

    @staticmethod
    def _recording(send, path: str, redirected: bool):
        arrived = time.time()

        async def recording_send(message) -> None:
            if message["type"] == "http.response.start":
                ANSWERS.append(
                    {"path": path, "redirected": redirected, "arrived": arrived, "answered": time.time(),
                     "status": message["status"]}
                )
            await send(message)

        return recording_send

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        query = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1"))
        redirect = headers.get("x-test-redirect")
        if redirect:
            send = self._recording(send, scope.get("path", ""), "redirected" in query)
        if redirect and "redirected" not in query:
            status_text, _, location = redirect.strip().partition(" ")
            request = Request(scope, receive)
            event = self.hooks.new_event(request, "redirect")
            if headers.get("x-test-redirect-read") == "1":
                event["bytesReceived"] = await read_body_counting(request)
            event["completed"] = True
            self.hooks.record(event)
            status = int(status_text) if status_text.isdigit() else 307
            return await _send_plain(send, status, b"", [(b"location", location.encode("latin-1"))])
        await self.app(scope, receive, send)


async def _send_plain(send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": headers + [(b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def install(app: FastAPI, *, hooks: Hooks) -> TransferHooks:
    transfer = TransferHooks(hooks)

    @app.get("/test-hooks/witness")
    async def hook_witness() -> JSONResponse:
        hooks.require()
        return JSONResponse({"base": transfer.witness().base})

    @app.get("/test-hooks/answers")
    async def hook_answers() -> JSONResponse:
        hooks.require()
        return JSONResponse(list(ANSWERS))

    @app.api_route("/test-hooks/redirect", methods=["PUT", "POST"])
    async def hook_redirect(request: Request) -> Response:
        hooks.require()
        event = hooks.new_event(request, "redirect")
        try:
            status = int(request.query_params.get("status", "307"))
        except ValueError:
            raise APIError(400, "status must be an integer") from None
        if not 300 <= status < 400:
            raise APIError(400, "status must be a 3xx")
        if request.query_params.get("read") == "1":
            event["bytesReceived"] = await read_body_counting(request)
        event["completed"] = True
        hooks.record(event)
        return Response(status_code=status, headers={"Location": request.query_params.get("target", "")})

    @app.api_route("/test-hooks/echo-authorization/{kind}/{pad}/{rest:path}", methods=["PUT", "POST"])
    async def hook_echo_authorization(kind: str, pad: int, rest: str, request: Request) -> Response:
        hooks.require()
        await read_body_counting(request)
        message = "x" * min(max(pad, 0), 10_000)
        message += f" rejected the credentials you sent: {request.headers.get('authorization', '')} (try again)"
        if kind == "text":
            return Response(message, status_code=400, media_type="text/plain")
        return JSONResponse({"success": False, "message": message}, status_code=400)

    if hooks.settings.test_hooks:
        app.add_middleware(_RedirectMiddleware, hooks=hooks)
    return transfer

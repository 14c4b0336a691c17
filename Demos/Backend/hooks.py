"""Test hooks (``BACKEND_TEST_HOOKS=1`` only): faults for the presigned flow, what reached the server, what S3
holds, and an instance's memory.

``X-Test-Fault: count-mismatch | put-fail:<i>[:<S3Code>] | put-hang:<i>`` on ``/presigned-urls`` (comma separated; a
``put-fail`` answers only once every ``put-hang`` of its batch has reached its hook),
``PUT /test-hooks/s3-error/<code>?id=<n>[&after=<ids>]``, ``PUT /test-hooks/hang?id=<n>``,
``GET /test-hooks/events`` (every instance's, merged), ``GET /test-hooks/object?key=<key>``,
``GET /test-hooks/objects?prefix=<prefix>`` (keys and unfinished multipart uploads),
``GET /test-hooks/memory`` and ``POST /test-hooks/memory/reset-peak`` (this instance's RSS and peak RSS).

    hooks = install(app, settings=settings, storage=storage)
    hooks.record(hooks.new_event(request, "redirect"))
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import threading
import time
import urllib.request
import uuid
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.requests import ClientDisconnect

from errors import APIError

MAX_EVENTS = 1000
S3_ERROR_MESSAGES = {
    "SignatureDoesNotMatch": "The request signature we calculated does not match the signature you provided. "
    "Check your key and signing method.",
    "AccessDenied": "Request has expired",
    "ExpiredToken": "The provided token has expired.",
    "InvalidAccessKeyId": "The AWS Access Key Id you provided does not exist in our records.",
    "NoSuchBucket": "The specified bucket does not exist",
}
# A cap, not a pace: a client that cancels hangs up within milliseconds, one that waits for the answer gets it only
# after HANG_SECONDS. It is long because a busy test machine can keep this server off the CPU for seconds (the
# request that makes a client cancel may itself take that long), and a cap that ran out first would be mistaken for a
# client that waited. Tests that use it set their client's request timeout above it, so only a cancel ends it early.
HANG_SECONDS = 60.0
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def parse_faults(raw: str | None, count: int) -> tuple[bool, dict[int, tuple[str, str]]]:
    """Parse X-Test-Fault. Returns (count_mismatch, {index: (kind, code)})."""
    mismatch = False
    per_item: dict[int, tuple[str, str]] = {}
    if not raw:
        return mismatch, per_item
    for token in (t.strip() for t in raw.split(",")):
        if not token:
            continue
        if token == "count-mismatch":
            mismatch = True
            continue
        kind, _, rest = token.partition(":")
        if kind not in ("put-fail", "put-hang"):
            raise APIError(400, f"unknown X-Test-Fault {token!r}")
        idx_s, _, code = rest.partition(":")
        try:
            idx = int(idx_s)
        except ValueError:
            raise APIError(400, f"X-Test-Fault {token!r}: index must be an integer") from None
        if not 0 <= idx < count:
            raise APIError(400, f"X-Test-Fault {token!r}: index out of range for {count} items")
        code = code or "SignatureDoesNotMatch"
        if not re.fullmatch(r"[A-Za-z]{1,64}", code):
            raise APIError(400, f"X-Test-Fault {token!r}: bad S3 error code")
        per_item[idx] = (kind, code)
    return mismatch, per_item


def _xml_escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _proc_status(field: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


async def read_body_counting(request: Request) -> int:
    n = 0
    async for chunk in request.stream():
        n += len(chunk)
    return n


class Hooks:
    """Per-instance event log; ids are unique across instances (each instance counts from its own million)."""

    def __init__(self, settings: Any, storage: Any) -> None:
        self.settings = settings
        self.storage = storage
        self._ids = itertools.count(settings.instance_index * 1_000_000 + 1)
        self._events: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def require(self) -> None:
        if not self.settings.test_hooks:
            raise APIError(404, "Not Found")

    def next_id(self) -> int:
        return next(self._ids)

    def record(self, event: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            self._events.append(event)
            del self._events[:-MAX_EVENTS]
        return event

    def new_event(self, request: Request, kind: str) -> dict[str, Any]:
        raw = request.query_params.get("id")
        return {
            "id": int(raw) if raw is not None and raw.isdigit() else None,
            "kind": kind,
            "method": request.method,
            "path": request.url.path,
            "contentType": request.headers.get("content-type"),
            "hasAuthorization": "authorization" in request.headers,
            "userAgent": request.headers.get("user-agent"),
            "bytesReceived": 0,
            "disconnectedEarly": False,
            "completed": False,
            "time": time.time(),
        }

    def local_events(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(e) for e in self._events]

    def _peer_events(self, base: str) -> list[dict[str, Any]]:
        with _opener.open(f"{base}/test-hooks/events?scope=local", timeout=5) as answer:
            return json.load(answer)

    async def all_events(self) -> list[dict[str, Any]]:
        """This instance's events and every other instance's, oldest first."""
        events = self.local_events()
        peers = [u for i, u in enumerate(self.settings.instances) if i != self.settings.instance_index]
        for found in await asyncio.gather(*(asyncio.to_thread(self._peer_events, p) for p in peers),
                                          return_exceptions=True):
            if isinstance(found, list):
                events += found
        return sorted(events, key=lambda e: e.get("time", 0))

    async def until_started(self, after: str) -> None:
        """Returns once an event exists, on any instance, for every hook id in the comma-separated ``after`` (at most
        HANG_SECONDS): a refusal waits for the hanging PUTs of its batch, so a test of a failure that cancels its
        siblings always has them in flight, however starved the client."""
        wanted = {int(part) for part in after.split(",") if part.isdigit()}
        end = time.monotonic() + HANG_SECONDS
        while wanted and time.monotonic() < end:
            wanted -= {e["id"] for e in await self.all_events()}
            if wanted:
                await asyncio.sleep(0.01)

    async def object_info(self, key: str) -> dict[str, Any] | None:
        head = await self.storage.head(key)
        if head is None:
            return None
        sha256, size = await self.storage.sha256(key)
        return {"key": key, "sha256": sha256, "size": size, "contentType": head.get("ContentType")}


def install(app: FastAPI, *, settings: Any, storage: Any) -> Hooks:
    hooks = Hooks(settings, storage)

    @app.api_route("/test-hooks/s3-error/{code}", methods=["PUT", "POST"])
    async def hook_s3_error(code: str, request: Request) -> Response:
        hooks.require()
        event = hooks.new_event(request, "s3-error")
        event["bytesReceived"] = await read_body_counting(request)
        await hooks.until_started(request.query_params.get("after", ""))
        event["code"] = code
        event["completed"] = True
        hooks.record(event)
        message = S3_ERROR_MESSAGES.get(code, "The request could not be processed.")
        xml = (
            '<?xml version="1.0" encoding="UTF-8"?>'
            f"<Error><Code>{_xml_escape(code)}</Code><Message>{_xml_escape(message)}</Message>"
            f"<RequestId>{uuid.uuid4().hex[:16].upper()}</RequestId></Error>"
        )
        return Response(xml, status_code=403, media_type="application/xml")

    @app.api_route("/test-hooks/hang", methods=["PUT", "POST"])
    async def hook_hang(request: Request) -> Response:
        hooks.require()
        event = hooks.record(hooks.new_event(request, "hang"))
        try:
            # Counted as it arrives, so a test can see how far the body got.
            async for chunk in request.stream():
                event["bytesReceived"] += len(chunk)
        except ClientDisconnect:
            # The client gave up while still sending the body: that is an early disconnect too.
            event["disconnectedEarly"] = True
            event["completed"] = True
            return Response(status_code=499)
        end = time.monotonic() + HANG_SECONDS
        while time.monotonic() < end:
            if await request.is_disconnected():
                event["disconnectedEarly"] = True
                break
            await asyncio.sleep(0.05)
        event["completed"] = True
        return Response(status_code=200)

    @app.get("/test-hooks/events")
    async def hook_events(scope: str = "all") -> JSONResponse:
        hooks.require()
        return JSONResponse(hooks.local_events() if scope == "local" else await hooks.all_events())

    @app.get("/test-hooks/object")
    async def hook_object(key: str) -> JSONResponse:
        hooks.require()
        try:
            info = await hooks.object_info(key)
        except (BotoCoreError, ClientError):
            raise APIError(502, "storage request failed") from None
        if info is None:
            raise APIError(404, f"object {key!r} not found")
        return JSONResponse(info)

    @app.get("/test-hooks/objects")
    async def hook_objects(prefix: str = "") -> JSONResponse:
        hooks.require()
        keys = [key for key, _ in await storage.keys(prefix)]
        uploads = await storage.multipart_uploads(prefix)
        return JSONResponse({"keys": keys, "multipartUploads": uploads})

    @app.get("/test-hooks/memory")
    async def hook_memory() -> JSONResponse:
        hooks.require()
        return JSONResponse({"instance": settings.instance_name, "rss": _proc_status("VmRSS"),
                             "peak": _proc_status("VmHWM"), "partSize": settings.part_size})

    @app.post("/test-hooks/memory/reset-peak")
    async def hook_memory_reset() -> JSONResponse:
        hooks.require()
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")  # resets VmHWM to the current RSS
        return JSONResponse({"instance": settings.instance_name, "rss": _proc_status("VmRSS"),
                             "peak": _proc_status("VmHWM"), "partSize": settings.part_size})

    return hooks

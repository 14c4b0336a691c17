"""Small media backend for the Swift demo: presigned S3 uploads, model uploads and resumable uploads, every byte
in S3. An instance keeps no state of its own (no local files, no upload table that matters), so any number of
instances can serve behind a load balancer, and a restart loses nothing that reached S3.

Run with ``uvicorn app:app`` (or, for the whole local stack including an S3-compatible moto server and, with
``--instances N``, N instances behind a round-robin proxy: ``python3 run_stack.py``).

Configuration comes only from environment variables (config.py):

``BACKEND_API_TOKEN``
    Required. Clients must send ``Authorization: Bearer <token>``. When it is unset every authenticated endpoint
    answers 500 "server token not configured".
``S3_ENDPOINT_URL``
    S3 endpoint, e.g. ``http://127.0.0.1:9000`` (moto). Unset = AWS default.
``S3_BUCKET``
    Bucket for media objects and uploads (default ``media``). Created at startup if missing.
``S3_REGION``
    Region used for signing (default ``us-east-1``).
``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY``
    Credentials (default ``testing`` / ``testing``).
``S3_PART_BYTES``
    Part size of the S3 multipart uploads (default 8 MiB, at least 5 MiB); an instance holds at most two parts
    of an upload in memory.
``PRESIGN_EXPIRES_SECONDS``
    Lifetime of presigned PUT URLs (default 900, allowed 1..604800).
``MAX_UPLOAD_BYTES``
    Largest accepted upload (default 1 GiB); larger -> 413.
``BACKEND_TEST_HOOKS``
    ``1`` enables the test-only ``/test-hooks/*`` endpoints (hooks.py, transfer_hooks.py), the ``X-Test-Fault``
    request header on ``/presigned-urls`` and the transfer hooks. Off by default.

Endpoints
---------
``GET /healthz`` (no auth)
    200 ``{"status": "ok", "bucket": "media"}`` once the bucket exists, else 503.
``POST /presigned-urls`` (bearer)
    Body ``{"items": [{"filename": "<uuid>.jpg", "contentType": "image/jpeg",
    "mediaType": "profile"}]}`` (1..10 items; mediaType in profile/archive/model;
    at most 64 KiB, a larger body -> 413: up to 1 MiB read to its end first, so that a client still sending reads
    the refusal rather than a reset; a larger one refused at once, before it is read when its Content-Length says so).
    200 ``{"items": [{"mediaID", "uploadURL", "contentType", "key"}]}`` in
    request order. The client must PUT the bytes to ``uploadURL`` with exactly
    that ``Content-Type`` header and no ``Authorization`` header.
``POST /upload-model`` (bearer)
    multipart/form-data with a ``file`` field, streamed into S3 as ``uploads/{fileId}{ext}`` (model_upload.py).
``/resumable-uploads``, ``/plain-uploads`` (bearer)
    The resumable-uploads draft (resumable.py).

Every error is JSON ``{"message": "<human readable>"}`` (``/upload-model``
errors additionally carry ``"success": false``). A client that hangs up before
its request is complete is logged as one line, not as an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
import time
import uuid
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

import hooks as hooks_module
import model_upload
import resumable
import transfer_hooks
from config import Settings, int_env
from errors import APIError, install_error_handlers
from filenames import filename_problem, parse_content_disposition
from storage import Storage

log = logging.getLogger("backend")

MEDIA_TYPES = ("archive", "model", "profile")
MAX_ITEMS = 10
# Ten items of a few hundred bytes each fit many times over; a larger body is refused (see _read_small_body).
MAX_PRESIGN_BODY_BYTES = 64 * 1024
# A refused small-body request up to this size is read (and dropped) to its end before the refusal: a connection
# closed with unread bytes is reset, and a client still sending — or the round-robin proxy in front — may then lose
# the 413 it was sent. A larger body is refused at once, reset or not.
REFUSED_BODY_DRAIN_BYTES = 1 << 20
CONTENT_TYPE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$")

settings = Settings()
storage = Storage(settings)
s3 = storage.client


def require_token(request: Request) -> None:
    expected = settings.api_token
    if not expected:
        raise APIError(500, "server token not configured")
    header = request.headers.get("authorization", "")
    scheme, _, supplied = header.partition(" ")
    supplied = supplied.strip()
    if scheme.lower() != "bearer" or not supplied or not hmac.compare_digest(
        supplied.encode("utf-8", "surrogateescape"), expected.encode("utf-8", "surrogateescape")
    ):
        raise APIError(401, "invalid or missing bearer token")


async def _bucket_startup_loop(deadline_s: float = 30.0) -> None:
    """Bounded retries so the app can start before S3 is reachable."""
    end = time.monotonic() + deadline_s
    delay = 0.1
    while True:
        try:
            await asyncio.to_thread(storage.ensure_bucket)
            return
        except (BotoCoreError, ClientError) as exc:
            if time.monotonic() >= end:
                log.warning("could not ensure bucket %s at startup: %s", settings.bucket, exc)
                return
        await asyncio.sleep(delay)
        delay = min(delay * 2, 1.0)


@contextlib.asynccontextmanager
async def lifespan(_app: FastAPI):
    if not settings.api_token:
        log.warning("BACKEND_API_TOKEN is not set: authenticated endpoints will answer 500")
    task = asyncio.create_task(_bucket_startup_loop())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


app = FastAPI(title="Demo media backend", lifespan=lifespan)
install_error_handlers(app)
hooks = hooks_module.install(app, settings=settings, storage=storage)
transfer = transfer_hooks.install(app, hooks=hooks)
model_upload.install(app, settings=settings, storage=storage, require_token=require_token)
resumable_uploads = resumable.install(
    app, settings=settings, storage=storage, require_token=require_token, filename_problem=filename_problem,
    parse_content_disposition=parse_content_disposition, int_env=int_env,
)


async def _storage_ready() -> bool:
    if storage.bucket_ready:
        return True
    try:
        await asyncio.to_thread(storage.ensure_bucket)
    except (BotoCoreError, ClientError):
        return False
    return True


@app.get("/healthz")
async def healthz() -> JSONResponse:
    if not await _storage_ready():
        return JSONResponse({"message": "storage not ready"}, status_code=503)
    return JSONResponse({"status": "ok", "bucket": settings.bucket})


# --------------------------------------------------------------------------
# Presigned URLs
# --------------------------------------------------------------------------


def _validate_presign_body(body: Any) -> list[dict[str, str]]:
    if not isinstance(body, dict):
        raise APIError(400, "request body must be a JSON object with an 'items' array")
    items = body.get("items")
    if not isinstance(items, list):
        raise APIError(400, "'items' must be an array")
    if not 1 <= len(items) <= MAX_ITEMS:
        raise APIError(400, f"'items' must contain between 1 and {MAX_ITEMS} entries (got {len(items)})")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise APIError(400, f"items[{i}] must be an object")
        filename = item.get("filename")
        problem = filename_problem(filename)
        if problem:
            raise APIError(400, f"items[{i}].filename {problem}")
        content_type = item.get("contentType")
        if not isinstance(content_type, str) or not CONTENT_TYPE_RE.match(content_type):
            raise APIError(400, f"items[{i}].contentType must look like 'type/subtype' (got {content_type!r})")
        media_type = item.get("mediaType")
        if media_type not in MEDIA_TYPES:
            raise APIError(
                400, f"items[{i}].mediaType must be one of {', '.join(MEDIA_TYPES)} (got {media_type!r})"
            )
        out.append({"filename": filename, "contentType": content_type, "mediaType": media_type})
    return out


async def _read_small_body(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 when it exceeds ``limit`` bytes. A body of at most
    ``REFUSED_BODY_DRAIN_BYTES`` is read to its end first (keeping no more than ``limit`` bytes), so the connection
    closes cleanly after the refusal; a larger one is refused as soon as that is known: a declared Content-Length
    before anything is read, a chunked body once the bytes read pass the bound."""
    too_large = APIError(413, f"request body too large (limit {limit} bytes)")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > REFUSED_BODY_DRAIN_BYTES:
        raise too_large
    body = bytearray()
    received = 0
    async for chunk in request.stream():
        received += len(chunk)
        if received > REFUSED_BODY_DRAIN_BYTES:
            raise too_large
        if received <= limit:
            body += chunk
    if received > limit:
        raise too_large
    return bytes(body)


@app.post("/presigned-urls")
async def presigned_urls(request: Request) -> JSONResponse:
    require_token(request)
    raw = await _read_small_body(request, MAX_PRESIGN_BODY_BYTES)
    try:
        body = json.loads(raw)
    except ValueError:
        raise APIError(400, "request body must be valid JSON") from None
    items = _validate_presign_body(body)

    mismatch, faults = (False, {})
    if settings.test_hooks:
        mismatch, faults = hooks_module.parse_faults(request.headers.get("x-test-fault"), len(items))

    if not await _storage_ready():
        raise APIError(503, "storage is not available")

    base = str(request.base_url).rstrip("/")
    # A refusal in a batch with hanging PUTs answers only once they have all reached their hook: a test of a failure
    # that cancels its siblings needs them in flight, and a starved client may not get them there before it.
    hang_ids = {i: hooks.next_id() for i, fault in faults.items() if fault[0] == "put-hang"}
    after = f"&after={','.join(map(str, hang_ids.values()))}" if hang_ids else ""
    result = []
    for i, item in enumerate(items):
        key = f"{item['mediaType']}/{item['filename']}"
        fault = faults.get(i)
        if fault and fault[0] == "put-fail":
            url = f"{base}/test-hooks/s3-error/{fault[1]}?id={hooks.next_id()}{after}"
        elif fault and fault[0] == "put-hang":
            url = f"{base}/test-hooks/hang?id={hang_ids[i]}"
        else:
            # Pure local computation (no network), cheap enough for the loop.
            url = s3.generate_presigned_url(
                "put_object",
                Params={"Bucket": settings.bucket, "Key": key, "ContentType": item["contentType"]},
                ExpiresIn=settings.presign_expires,
                HttpMethod="PUT",
            )
        result.append(
            {"mediaID": str(uuid.uuid4()), "uploadURL": url, "contentType": item["contentType"], "key": key}
        )
    if mismatch:
        result = result[:-1]
    if settings.test_hooks:
        transfer.route_uploads(request, result)
    return JSONResponse({"items": result})

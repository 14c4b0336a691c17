"""Small media backend for the Swift demo: presigned S3 uploads + model uploads.

Run with ``uvicorn app:app`` (or, for the whole local stack including an
S3-compatible moto server, ``python3 run_stack.py``).

Configuration comes only from environment variables:

``BACKEND_API_TOKEN``
    Required. Clients must send ``Authorization: Bearer <token>``. When it is
    unset every authenticated endpoint answers 500 "server token not
    configured".
``S3_ENDPOINT_URL``
    S3 endpoint, e.g. ``http://127.0.0.1:9000`` (moto). Unset = AWS default.
``S3_BUCKET``
    Bucket for media objects (default ``media``). Created at startup if missing.
``S3_REGION``
    Region used for signing (default ``us-east-1``).
``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY``
    Credentials used for signing (default ``testing`` / ``testing``).
``UPLOAD_DIR``
    Where ``/upload-model`` stores files (default: ``uploads`` next to this file).
``PRESIGN_EXPIRES_SECONDS``
    Lifetime of presigned PUT URLs (default 900, allowed 1..604800).
``MAX_UPLOAD_BYTES``
    Largest accepted ``/upload-model`` file (default 1 GiB); larger -> 413.
``BACKEND_TEST_HOOKS``
    ``1`` enables the test-only ``/test-hooks/*`` endpoints, the
    ``X-Test-Fault`` request header on ``/presigned-urls`` and the transfer
    hooks (``X-Test-Redirect``, ``X-Test-Echo-Authorization``,
    ``X-Test-Put-Via``, a second origin: see "Transfer test hooks" below).
    Off by default.

Endpoints
---------
``GET /healthz`` (no auth)
    200 ``{"status": "ok", "bucket": "media"}`` once the bucket exists, else 503.
``POST /presigned-urls`` (bearer)
    Body ``{"items": [{"filename": "<uuid>.jpg", "contentType": "image/jpeg",
    "mediaType": "profile"}]}`` (1..10 items; mediaType in profile/archive/model;
    at most 64 KiB, a larger body -> 413 before it is read).
    200 ``{"items": [{"mediaID", "uploadURL", "contentType", "key"}]}`` in
    request order. The client must PUT the bytes to ``uploadURL`` with exactly
    that ``Content-Type`` header and no ``Authorization`` header.
``POST /upload-model`` (bearer)
    multipart/form-data with a ``file`` field. Streamed to disk as
    ``UPLOAD_DIR/{fileId}{ext}``. 200 ``{"success": true, "message": "File
    uploaded successfully", "fileId", "size", "sha256"}``. Unsafe filenames
    (``/``, ``\\``, ``..``, absolute, empty, NUL, control chars) -> 400.
Test hooks (``BACKEND_TEST_HOOKS=1`` only)
    ``X-Test-Fault: count-mismatch | put-fail:<i>[:<S3Code>] | put-hang:<i>``
    (comma separated; a ``put-fail`` answers only once every ``put-hang`` of
    its batch has reached its hook), ``PUT /test-hooks/s3-error/<code>?id=<n>``,
    ``PUT /test-hooks/hang?id=<n>``, ``GET /test-hooks/events``,
    ``GET /test-hooks/object?key=<key>``.

Every error is JSON ``{"message": "<human readable>"}`` (``/upload-model``
errors additionally carry ``"success": false``). A client that hangs up before
its request is complete is logged as one line, not as an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import itertools
import json
import logging
import os
import re
import threading
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.requests import ClientDisconnect
from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger("backend")

# --------------------------------------------------------------------------
# Configuration
# --------------------------------------------------------------------------

MEDIA_TYPES = ("archive", "model", "profile")
MAX_ITEMS = 10
# Ten items of a few hundred bytes each fit many times over; a larger body is refused before it is read.
MAX_PRESIGN_BODY_BYTES = 64 * 1024
MAX_FILENAME_LEN = 200
CONTENT_TYPE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$")
EXT_RE = re.compile(r"^\.[A-Za-z0-9]{1,16}$")


def _int_env(name: str, default: int, lo: int, hi: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise RuntimeError(f"{name} must be an integer, got {raw!r}") from None
    if not lo <= value <= hi:
        raise RuntimeError(f"{name} must be between {lo} and {hi}, got {value}")
    return value


class Settings:
    def __init__(self) -> None:
        env = os.environ
        self.api_token: str | None = env.get("BACKEND_API_TOKEN") or None
        self.s3_endpoint_url: str | None = env.get("S3_ENDPOINT_URL") or None
        self.bucket: str = env.get("S3_BUCKET") or "media"
        self.region: str = env.get("S3_REGION") or "us-east-1"
        self.access_key: str = env.get("AWS_ACCESS_KEY_ID") or "testing"
        self.secret_key: str = env.get("AWS_SECRET_ACCESS_KEY") or "testing"
        default_upload = Path(__file__).resolve().parent / "uploads"
        self.upload_dir: Path = Path(env.get("UPLOAD_DIR") or default_upload).expanduser().resolve()
        self.presign_expires: int = _int_env("PRESIGN_EXPIRES_SECONDS", 900, 1, 604800)
        self.max_upload_bytes: int = _int_env("MAX_UPLOAD_BYTES", 1 << 30, 1, 1 << 40)
        self.test_hooks: bool = env.get("BACKEND_TEST_HOOKS", "").strip() == "1"


settings = Settings()


def _make_s3_client():
    return boto3.client(
        "s3",
        endpoint_url=settings.s3_endpoint_url,
        region_name=settings.region,
        aws_access_key_id=settings.access_key,
        aws_secret_access_key=settings.secret_key,
        config=Config(
            signature_version="s3v4",
            s3={"addressing_style": "path"},
            # Keep presigned PUT URLs free of SDK checksum parameters so any
            # plain HTTP client can use them.
            request_checksum_calculation="when_required",
            response_checksum_validation="when_required",
            connect_timeout=2,
            read_timeout=10,
            retries={"max_attempts": 2, "mode": "standard"},
        ),
    )


s3 = _make_s3_client()

# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------


class APIError(Exception):
    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def _error_response(request: Request, status: int, message: str, **extra: Any) -> JSONResponse:
    body: dict[str, Any] = {}
    if request.url.path == "/upload-model":
        body["success"] = False
    body["message"] = message
    body.update(extra)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(body, status_code=status, headers=headers)


def _loc_to_str(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if part in ("body", "query", "path", "header") and not out:
            continue
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "request"


async def _api_error_handler(request: Request, exc: APIError) -> JSONResponse:
    return _error_response(request, exc.status, exc.message, **exc.extra)


async def _http_error_handler(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    message = exc.detail if isinstance(exc.detail, str) else "request failed"
    return _error_response(request, exc.status_code, message)


async def _validation_error_handler(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = exc.errors()
    if errors:
        first = errors[0]
        msg = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
        message = f"{_loc_to_str(tuple(first.get('loc', ())))}: {msg}"
    else:
        message = "invalid request"
    return _error_response(request, 400, message)


async def _client_disconnect_handler(request: Request, exc: ClientDisconnect) -> Response:
    # Nobody is left to answer; the handler's own cleanup (e.g. a partial upload's temp file) has run.
    log.warning("client disconnected during %s %s before its request was complete", request.method, request.url.path)
    return Response(status_code=499)


async def _unhandled_error_handler(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return _error_response(request, 500, "internal server error")


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


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


def filename_problem(name: Any) -> str | None:
    """Return why ``name`` is not a safe basename, or None when it is safe."""
    if not isinstance(name, str):
        return "must be a string"
    if name == "":
        return "must not be empty"
    if len(name) > MAX_FILENAME_LEN:
        return f"must be at most {MAX_FILENAME_LEN} characters"
    if "\x00" in name:
        return "must not contain NUL"
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in name):
        return "must not contain control characters"
    if "/" in name or "\\" in name:
        return "must not contain path separators"
    if ".." in name:
        return "must not contain '..'"
    if name in (".",) or name.strip() in ("", "."):
        return "must be a file name"
    if os.path.isabs(name) or re.match(r"^[A-Za-z]:", name):
        return "must not be an absolute path"
    return None


def _next_hook_id() -> int:
    return next(_hook_ids)


_hook_ids = itertools.count(1)
_events: list[dict[str, Any]] = []
_events_lock = threading.Lock()
MAX_EVENTS = 1000


def _record_event(event: dict[str, Any]) -> dict[str, Any]:
    with _events_lock:
        _events.append(event)
        del _events[:-MAX_EVENTS]
    return event


def _require_hooks() -> None:
    if not settings.test_hooks:
        raise APIError(404, "Not Found")


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


_bucket_ready = False
_bucket_lock = threading.Lock()


def ensure_bucket() -> None:
    """Create the bucket if missing (blocking; call from a thread)."""
    with _bucket_lock:
        _ensure_bucket_locked()


def _ensure_bucket_locked() -> None:
    global _bucket_ready
    if _bucket_ready:
        return
    try:
        s3.head_bucket(Bucket=settings.bucket)
    except ClientError as exc:
        code = str(exc.response.get("Error", {}).get("Code", ""))
        if code not in ("404", "NoSuchBucket", "NotFound"):
            raise
        kwargs: dict[str, Any] = {"Bucket": settings.bucket}
        if settings.region != "us-east-1":
            kwargs["CreateBucketConfiguration"] = {"LocationConstraint": settings.region}
        try:
            s3.create_bucket(**kwargs)
        except ClientError as exc2:
            code2 = str(exc2.response.get("Error", {}).get("Code", ""))
            if code2 not in ("BucketAlreadyOwnedByYou", "BucketAlreadyExists"):
                raise
        log.info("created bucket %s", settings.bucket)
    _bucket_ready = True


async def _bucket_startup_loop(deadline_s: float = 30.0) -> None:
    """Bounded retries so the app can start before S3 is reachable."""
    end = time.monotonic() + deadline_s
    delay = 0.1
    while True:
        try:
            await asyncio.to_thread(ensure_bucket)
            return
        except (BotoCoreError, ClientError) as exc:
            if time.monotonic() >= end:
                log.warning("could not ensure bucket %s at startup: %s", settings.bucket, exc)
                return
        await asyncio.sleep(delay)
        delay = min(delay * 2, 1.0)


@contextlib.asynccontextmanager
async def lifespan(_app: FastAPI):
    settings.upload_dir.mkdir(parents=True, exist_ok=True)
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
app.add_exception_handler(APIError, _api_error_handler)
app.add_exception_handler(StarletteHTTPException, _http_error_handler)
app.add_exception_handler(RequestValidationError, _validation_error_handler)
app.add_exception_handler(ClientDisconnect, _client_disconnect_handler)
app.add_exception_handler(Exception, _unhandled_error_handler)


# --------------------------------------------------------------------------
# Health
# --------------------------------------------------------------------------


@app.get("/healthz")
async def healthz() -> JSONResponse:
    if not _bucket_ready:
        try:
            await asyncio.to_thread(ensure_bucket)
        except (BotoCoreError, ClientError):
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
    """The request body, refused with 413 as soon as it is known to exceed ``limit`` bytes: a declared
    Content-Length before anything is read, a chunked body once the bytes read pass the limit."""
    too_large = APIError(413, f"request body too large (limit {limit} bytes)")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
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
        mismatch, faults = parse_faults(request.headers.get("x-test-fault"), len(items))

    if not _bucket_ready:
        try:
            await asyncio.to_thread(ensure_bucket)
        except (BotoCoreError, ClientError):
            raise APIError(503, "storage is not available") from None

    base = str(request.base_url).rstrip("/")
    # A refusal in a batch with hanging PUTs answers only once they have all reached their hook: a test of a failure
    # that cancels its siblings needs them in flight, and a starved client may not get them there before it.
    hang_ids = {i: _next_hook_id() for i, fault in faults.items() if fault[0] == "put-hang"}
    after = f"&after={','.join(map(str, hang_ids.values()))}" if hang_ids else ""
    result = []
    for i, item in enumerate(items):
        key = f"{item['mediaType']}/{item['filename']}"
        fault = faults.get(i)
        if fault and fault[0] == "put-fail":
            url = f"{base}/test-hooks/s3-error/{fault[1]}?id={_next_hook_id()}{after}"
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
        _transfer_hooks_route_uploads(request, result)
    return JSONResponse({"items": result})


# --------------------------------------------------------------------------
# Model upload (streaming multipart)
# --------------------------------------------------------------------------

MAX_PART_HEADER_BYTES = 16 * 1024
MAX_PART_HEADERS = 32


def _split_params(value: str) -> list[str]:
    """Split a header value on ';' outside of quoted strings."""
    parts, buf, in_quotes, escaped = [], [], False, False
    for ch in value:
        if in_quotes:
            buf.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_quotes = False
        elif ch == '"':
            in_quotes = True
            buf.append(ch)
        elif ch == ";":
            parts.append("".join(buf))
            buf = []
        else:
            buf.append(ch)
    parts.append("".join(buf))
    return [p.strip() for p in parts]


def parse_content_disposition(value: str) -> tuple[str, dict[str, str]]:
    """Parse Content-Disposition WITHOUT any path "fix-ups".

    Quoted values are kept raw (backslashes are not unescaped), so a filename
    that contains a backslash in any form is seen — and refused — as such.
    """
    disp, *params = _split_params(value)
    out: dict[str, str] = {}
    for p in params:
        key, sep, val = p.partition("=")
        if not sep:
            continue
        key = key.strip().lower()
        val = val.strip()
        if len(val) >= 2 and val[0] == '"' and val[-1] == '"':
            val = val[1:-1]
        if key == "filename*":
            charset, _, rest = val.partition("'")
            _lang, _, encoded = rest.partition("'")
            try:
                val = urllib.parse.unquote(encoded, encoding=charset or "utf-8", errors="strict")
            except (LookupError, UnicodeDecodeError):
                val = "\x00invalid"
        out.setdefault(key, val)
    return disp.strip().lower(), out


def _decode_header(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


class _UploadState:
    def __init__(self, upload_dir: Path, max_bytes: int) -> None:
        self.upload_dir = upload_dir
        self.max_bytes = max_bytes
        self.headers: dict[str, str] = {}
        self.header_bytes = 0
        self.cur_field = bytearray()
        self.cur_value = bytearray()
        self.in_file_part = False
        self.file_done = False
        self.file_seen = False
        self.error: APIError | None = None
        self.fh = None
        self.tmp_path: Path | None = None
        self.final_path: Path | None = None
        self.file_id: str | None = None
        self.size = 0
        self.sha = hashlib.sha256()

    # ---- python-multipart callbacks (all synchronous) ----
    def on_part_begin(self) -> None:
        self.headers = {}
        self.header_bytes = 0
        self.in_file_part = False

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self.cur_field += data[start:end]
        self._count_header(end - start)

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self.cur_value += data[start:end]
        self._count_header(end - start)

    def _count_header(self, n: int) -> None:
        self.header_bytes += n
        if self.header_bytes > MAX_PART_HEADER_BYTES and self.error is None:
            self.error = APIError(400, "multipart part headers too large")

    def on_header_end(self) -> None:
        if len(self.headers) < MAX_PART_HEADERS:
            self.headers[_decode_header(bytes(self.cur_field)).strip().lower()] = _decode_header(
                bytes(self.cur_value)
            ).strip()
        elif self.error is None:
            self.error = APIError(400, "too many multipart part headers")
        self.cur_field.clear()
        self.cur_value.clear()

    def on_headers_finished(self) -> None:
        if self.error is not None or self.file_seen:
            return
        disp, params = parse_content_disposition(self.headers.get("content-disposition", ""))
        if disp != "form-data" or params.get("name") != "file":
            return  # some other field: ignored (its data is drained)
        self.file_seen = True
        names = [params[k] for k in ("filename", "filename*") if k in params]
        if not names:
            self.error = APIError(400, "invalid filename: the 'file' field has no filename")
            return
        for name in names:
            problem = filename_problem(name)
            if problem:
                self.error = APIError(400, f"invalid filename {name!r}: {problem}")
                return
        ext = os.path.splitext(names[-1])[1]
        ext = ext.lower() if EXT_RE.match(ext) else ""
        self.file_id = str(uuid.uuid4())
        root = self.upload_dir
        final = (root / f"{self.file_id}{ext}").resolve()
        tmp = (root / f".{self.file_id}.part").resolve()
        if final.parent != root or tmp.parent != root:
            self.error = APIError(400, "invalid filename: resolved path escapes the upload directory")
            return
        self.final_path, self.tmp_path = final, tmp
        # O_EXCL + O_NOFOLLOW: never clobber or follow anything already there.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o640)
        self.fh = os.fdopen(fd, "wb")
        self.in_file_part = True

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        if not self.in_file_part or self.error is not None:
            return
        chunk = data[start:end]
        self.size += len(chunk)
        if self.size > self.max_bytes:
            self.error = APIError(413, f"file too large (limit {self.max_bytes} bytes)")
            return
        self.sha.update(chunk)
        self.fh.write(chunk)

    def on_part_end(self) -> None:
        if self.in_file_part:
            self.in_file_part = False
            self.file_done = True

    # ---- lifecycle ----
    def cleanup_tmp(self) -> None:
        if self.fh is not None:
            with contextlib.suppress(Exception):
                self.fh.close()
            self.fh = None
        if self.tmp_path is not None:
            with contextlib.suppress(FileNotFoundError):
                self.tmp_path.unlink()


@app.post("/upload-model")
async def upload_model(request: Request) -> JSONResponse:
    require_token(request)
    ctype, params = parse_options_header(request.headers.get("content-type", ""))
    boundary = params.get(b"boundary")
    if ctype != b"multipart/form-data" or not boundary:
        raise APIError(400, "expected multipart/form-data with a 'file' field")

    root = settings.upload_dir
    root.mkdir(parents=True, exist_ok=True)
    state = _UploadState(root, settings.max_upload_bytes)
    parser = MultipartParser(
        boundary,
        callbacks={
            "on_part_begin": state.on_part_begin,
            "on_header_field": state.on_header_field,
            "on_header_value": state.on_header_value,
            "on_header_end": state.on_header_end,
            "on_headers_finished": state.on_headers_finished,
            "on_part_data": state.on_part_data,
            "on_part_end": state.on_part_end,
        },
    )
    try:
        async for chunk in request.stream():
            if state.error is not None:
                continue  # drain the rest of the body, discard it
            try:
                parser.write(chunk)
            except MultipartParseError:
                state.error = APIError(400, "malformed multipart body")
        if state.error is None:
            try:
                parser.finalize()
            except MultipartParseError:
                state.error = APIError(400, "malformed multipart body")
        if state.error is None and not state.file_seen:
            state.error = APIError(400, "missing 'file' field")
        if state.error is None and not state.file_done:
            state.error = APIError(400, "incomplete multipart body")
        if state.error is not None:
            raise state.error
        state.fh.flush()
        os.fsync(state.fh.fileno())
        state.fh.close()
        state.fh = None
        os.replace(state.tmp_path, state.final_path)
        state.tmp_path = None
    finally:
        state.cleanup_tmp()

    return JSONResponse(
        {
            "success": True,
            "message": "File uploaded successfully",
            "fileId": state.file_id,
            "size": state.size,
            "sha256": state.sha.hexdigest(),
        }
    )


# --------------------------------------------------------------------------
# Test hooks (BACKEND_TEST_HOOKS=1)
# --------------------------------------------------------------------------

S3_ERROR_MESSAGES = {
    "SignatureDoesNotMatch": "The request signature we calculated does not match the signature you provided. "
    "Check your key and signing method.",
    "AccessDenied": "Request has expired",
    "ExpiredToken": "The provided token has expired.",
    "InvalidAccessKeyId": "The AWS Access Key Id you provided does not exist in our records.",
    "NoSuchBucket": "The specified bucket does not exist",
}


def _hook_id(request: Request) -> int | None:
    raw = request.query_params.get("id")
    try:
        return int(raw) if raw is not None else None
    except ValueError:
        return None


async def _read_body_counting(request: Request) -> int:
    n = 0
    async for chunk in request.stream():
        n += len(chunk)
    return n


def _new_event(request: Request, kind: str) -> dict[str, Any]:
    return {
        "id": _hook_id(request),
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


@app.api_route("/test-hooks/s3-error/{code}", methods=["PUT", "POST"])
async def hook_s3_error(code: str, request: Request) -> Response:
    _require_hooks()
    event = _new_event(request, "s3-error")
    event["bytesReceived"] = await _read_body_counting(request)
    await _until_hooks_started(request.query_params.get("after", ""))
    event["code"] = code
    event["completed"] = True
    _record_event(event)
    message = S3_ERROR_MESSAGES.get(code, "The request could not be processed.")
    request_id = uuid.uuid4().hex[:16].upper()
    xml = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f"<Error><Code>{_xml_escape(code)}</Code><Message>{_xml_escape(message)}</Message>"
        f"<RequestId>{request_id}</RequestId></Error>"
    )
    return Response(xml, status_code=403, media_type="application/xml")


async def _until_hooks_started(after: str) -> None:
    """Returns once an event exists for every hook id in the comma-separated ``after`` (at most HANG_SECONDS)."""
    wanted = {int(part) for part in after.split(",") if part.isdigit()}
    end = time.monotonic() + HANG_SECONDS
    while wanted and time.monotonic() < end:
        with _events_lock:
            wanted -= {e["id"] for e in _events}
        if wanted:
            await asyncio.sleep(0.01)


def _xml_escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# A cap, not a pace: a client that cancels hangs up within milliseconds, one that waits for the answer gets it only
# after HANG_SECONDS. It is long because a busy test machine can keep this server off the CPU for seconds (the
# request that makes a client cancel may itself take that long), and a cap that ran out first would be mistaken for a
# client that waited. Tests that use it set their client's request timeout above it, so only a cancel ends it early.
HANG_SECONDS = 60.0


@app.api_route("/test-hooks/hang", methods=["PUT", "POST"])
async def hook_hang(request: Request) -> Response:
    _require_hooks()
    event = _record_event(_new_event(request, "hang"))
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
async def hook_events() -> JSONResponse:
    _require_hooks()
    with _events_lock:
        snapshot = [dict(e) for e in _events]
    return JSONResponse(snapshot)


def _object_info(key: str) -> dict[str, Any] | None:
    try:
        obj = s3.get_object(Bucket=settings.bucket, Key=key)
    except ClientError as exc:
        if str(exc.response.get("Error", {}).get("Code", "")) in ("NoSuchKey", "404", "NotFound"):
            return None
        raise
    sha = hashlib.sha256()
    size = 0
    body = obj["Body"]
    try:
        for chunk in body.iter_chunks(64 * 1024):
            sha.update(chunk)
            size += len(chunk)
    finally:
        body.close()
    return {"key": key, "sha256": sha.hexdigest(), "size": size, "contentType": obj.get("ContentType")}


@app.get("/test-hooks/object")
async def hook_object(key: str) -> JSONResponse:
    _require_hooks()
    try:
        info = await asyncio.to_thread(_object_info, key)
    except (BotoCoreError, ClientError):
        raise APIError(502, "storage request failed") from None
    if info is None:
        raise APIError(404, f"object {key!r} not found")
    return JSONResponse(info)


# --------------------------------------------------------------------------
# Transfer test hooks (BACKEND_TEST_HOOKS=1): redirects, faults, echoed
# credentials, a second origin. For the clients' HTTP layer (issue 13 §1).
# --------------------------------------------------------------------------
#
# ``X-Test-Redirect: <status> <location>`` on any request (unless its query has
#     ``redirected``): answered ``<status>`` with ``Location: <location>``
#     without reading the body, or after reading all of it with
#     ``X-Test-Redirect-Read: 1``. Recorded as a "redirect" event. A location
#     such as ``/upload-model?redirected=1`` redirects within this origin.
# ``POST|PUT /test-hooks/echo-authorization/<json|text>/<pad>/<anything>``:
#     answered 400 with a message that quotes the Authorization header
#     received, after ``<pad>`` filler characters (to place it across a
#     client's cut), as JSON ``{"success": false, "message"}`` or as plain
#     text — what a careless server does. Usable as an API base URL.
# ``X-Test-Put-Via: <index> <prefix>`` on ``/presigned-urls``: item
#     ``<index>``'s uploadURL becomes ``<prefix>&target=<its presigned URL>&id=<n>``,
#     e.g. a prefix ``{witness}/flaky/k?fail=2&kind=slowdown`` or
#     ``{api}/test-hooks/redirect?status=307``. Several, separated by ``;``.
# ``GET /test-hooks/witness``: ``{"base": "http://127.0.0.1:<port>"}`` of the
#     second origin (witness.py), started on first use.
# ``PUT|POST /test-hooks/redirect?status=<3xx>&target=<url>[&read=1]``: a
#     storage URL that redirects.

import witness as _witness_module  # noqa: E402 - test-hooks section

_witness_lock = threading.Lock()
_witness_server: "_witness_module.Witness | None" = None


def _witness() -> "_witness_module.Witness":
    global _witness_server
    with _witness_lock:
        if _witness_server is None:
            _witness_server = _witness_module.Witness()
        return _witness_server


@app.get("/test-hooks/witness")
async def hook_witness() -> JSONResponse:
    _require_hooks()
    return JSONResponse({"base": _witness().base})


@app.api_route("/test-hooks/redirect", methods=["PUT", "POST"])
async def hook_redirect(request: Request) -> Response:
    _require_hooks()
    event = _new_event(request, "redirect")
    try:
        status = int(request.query_params.get("status", "307"))
    except ValueError:
        raise APIError(400, "status must be an integer") from None
    if not 300 <= status < 400:
        raise APIError(400, "status must be a 3xx")
    if request.query_params.get("read") == "1":
        event["bytesReceived"] = await _read_body_counting(request)
    event["completed"] = True
    _record_event(event)
    return Response(status_code=status, headers={"Location": request.query_params.get("target", "")})


@app.api_route("/test-hooks/echo-authorization/{kind}/{pad}/{rest:path}", methods=["PUT", "POST"])
async def hook_echo_authorization(kind: str, pad: int, rest: str, request: Request) -> Response:
    _require_hooks()
    await _read_body_counting(request)
    message = "x" * min(max(pad, 0), 10_000)
    message += f" rejected the credentials you sent: {request.headers.get('authorization', '')} (try again)"
    if kind == "text":
        return Response(message, status_code=400, media_type="text/plain")
    return JSONResponse({"success": False, "message": message}, status_code=400)


def _transfer_hooks_route_uploads(request: Request, items: list[dict[str, Any]]) -> None:
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
        items[index]["uploadURL"] = f"{prefix}{separator}target={target}&id={_next_hook_id()}"


class _TransferTestHooks:
    """ASGI middleware for ``X-Test-Redirect`` (installed with the hooks only)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        query = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1"))
        redirect = headers.get("x-test-redirect")
        if redirect and "redirected" not in query:
            status_text, _, location = redirect.strip().partition(" ")
            request = Request(scope, receive)
            event = _new_event(request, "redirect")
            if headers.get("x-test-redirect-read") == "1":
                event["bytesReceived"] = await _read_body_counting(request)
            event["completed"] = True
            _record_event(event)
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


if settings.test_hooks:
    app.add_middleware(_TransferTestHooks)


# --------------------------------------------------------------------------
# Resumable uploads (IETF draft, interop versions 8 and 6): resumable.py
# --------------------------------------------------------------------------

import resumable  # noqa: E402  (mounted last: it uses the helpers above)

resumable_uploads = resumable.install(
    app,
    settings=settings,
    require_token=require_token,
    filename_problem=filename_problem,
    parse_content_disposition=parse_content_disposition,
    int_env=_int_env,
)

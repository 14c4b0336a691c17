"""Resumable uploads: the IETF httpbis draft "Resumable Uploads for HTTP", interop versions 8 (drafts -09 and
later) and 6 (drafts -04/-05, what Apple's reference server speaks), for raw file uploads.

Mounted by ``app.py`` with :func:`install`. Every endpoint but OPTIONS needs the bearer token.

``POST /resumable-uploads`` (the target resource)
    The body is the file. With ``Upload-Complete`` and ``Upload-Draft-Interop-Version`` the request creates an
    upload resource at ``/resumable-uploads/<id>``, announced in a ``104 Upload Resumption Supported`` (when the
    server runs with ``http_protocol.ExtendedH11Protocol``) and in the final response's ``Location``. Without them
    it is a plain upload. ``Content-Disposition: inline; filename="x.usdz"`` names the extension kept.
    Completed: ``201 {"success": true, "message", "fileId", "size", "sha256"}``, the file in
    ``UPLOAD_DIR/{fileId}{ext}``, with ``Upload-Complete: ?1``.
``OPTIONS /resumable-uploads``
    ``204`` with ``Upload-Limit`` (``max-size``, ``max-append-size``, and ``max-age`` in v8 / ``expires`` in v6).
``HEAD /resumable-uploads/<id>``
    ``204`` with ``Upload-Offset``, ``Upload-Complete``, ``Upload-Length`` (when known), ``Upload-Limit``,
    ``Cache-Control: no-store``.
``PATCH /resumable-uploads/<id>``
    ``Content-Type: application/partial-upload``, ``Upload-Offset`` (must equal the server's, else ``409`` with the
    server's ``Upload-Offset``; the upload is kept), ``Upload-Complete``. Appends the body.
``DELETE /resumable-uploads/<id>``
    ``204``; the partial file is removed.
``POST /plain-uploads``
    The same storage without the draft (ignores ``Upload-*`` fields, no OPTIONS): a server that does not speak it.

A request to an upload resource while an earlier one is still appending ends the earlier one first (the draft's
recommended concurrency handling). Uploads live in memory: a restarted server knows none (``404``), and removes
the partial files left behind. An upload expires ``max-age`` seconds after its last request (``404`` after that).
An unknown interop version gets ``400`` naming ``8``.

Environment: ``RESUMABLE_MAX_APPEND_BYTES`` (default: ``MAX_UPLOAD_BYTES``), ``RESUMABLE_MAX_AGE_SECONDS``
(default 3600). ``MAX_UPLOAD_BYTES`` is ``max-size``.

Test hooks (``BACKEND_TEST_HOOKS=1``): ``X-Test-Drop-After: N[,N…]`` on the creation request drops the connection
whenever the upload's offset reaches one of those byte counts (the bytes up to it are kept);
``GET /test-hooks/resumable-uploads?fileId=…`` (or ``?id=…``) answers the upload's counters:
``{id, offset, complete, bytesReceived, requests, conflicts, drops, fileId}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import secrets
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.requests import ClientDisconnect

from http_protocol import EXTENSION as CONNECTION_EXTENSION

INTEROP_VERSIONS = (8, 6)
LATEST_INTEROP_VERSION = 8
PARTIAL_UPLOAD = "application/partial-upload"
PROBLEM_BASE = "https://iana.org/assignments/http-problem-types#"
SF_INTEGER = re.compile(r"^[0-9]{1,15}$")
EXT_RE = re.compile(r"^\.[A-Za-z0-9]{1,16}$")
MAX_UPLOADS = 1000


def parse_sf_boolean(raw: str | None) -> bool | None:
    """An RFC 9651 Boolean item (``?0`` / ``?1``, parameters ignored); None when absent or malformed."""
    if raw is None:
        return None
    bare = raw.strip().split(";", 1)[0]
    return {"?1": True, "?0": False}.get(bare)


def parse_sf_integer(raw: str | None) -> int | None:
    """A non-negative RFC 9651 Integer item (parameters ignored); None when absent or malformed."""
    if raw is None:
        return None
    bare = raw.strip().split(";", 1)[0]
    return int(bare) if SF_INTEGER.match(bare) else None


class BadRequest(Exception):
    """A request the draft does not allow; becomes ``status`` with a problem body and the draft's fields."""

    def __init__(self, status: int, message: str, problem: str | None = None, **fields: str) -> None:
        super().__init__(message)
        self.version: int | None = None
        self.status = status
        self.message = message
        self.problem = problem
        self.fields = fields


class Dropped(Exception):
    """The drop hook closed the connection."""


@dataclass
class Upload:
    id: str
    version: int
    part_path: Path
    ext: str
    length: int | None
    max_age: int
    expires_at: float
    offset: int = 0
    complete: bool = False
    sha: Any = field(default_factory=hashlib.sha256)
    final: tuple[int, dict[str, Any]] | None = None
    file_id: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    active: "ActiveRequest | None" = None
    drop_points: list[int] = field(default_factory=list)
    bytes_received: int = 0
    requests: int = 0
    conflicts: int = 0
    drops: int = 0

    def counters(self) -> dict[str, Any]:
        return {
            "id": self.id, "offset": self.offset, "complete": self.complete, "bytesReceived": self.bytes_received,
            "requests": self.requests, "conflicts": self.conflicts, "drops": self.drops, "fileId": self.file_id,
        }


@dataclass
class ActiveRequest:
    """The request currently appending to an upload, so that a newer one can end it."""

    task: asyncio.Task | None
    control: Any
    superseded: bool = False

    def end(self) -> None:
        self.superseded = True
        if self.control is not None:
            self.control.abort()
        elif self.task is not None:
            self.task.cancel()


def install(
    app: FastAPI,
    *,
    settings: Any,
    require_token: Callable[[Request], None],
    filename_problem: Callable[[Any], str | None],
    parse_content_disposition: Callable[[str], tuple[str, dict[str, str]]],
    int_env: Callable[[str, int, int, int], int],
) -> "ResumableUploads":
    """Mount the endpoints on ``app`` with the app's settings and helpers; returns the registry."""
    service = ResumableUploads(settings, require_token, filename_problem, parse_content_disposition, int_env)
    app.include_router(service.router)
    return service


class ResumableUploads:
    def __init__(self, settings, require_token, filename_problem, parse_content_disposition, int_env) -> None:
        self.settings = settings
        self.require_token = require_token
        self.filename_problem = filename_problem
        self.parse_content_disposition = parse_content_disposition
        self.max_size: int = settings.max_upload_bytes
        self.max_append: int = int_env("RESUMABLE_MAX_APPEND_BYTES", self.max_size, 1, 1 << 40)
        self.max_age: int = int_env("RESUMABLE_MAX_AGE_SECONDS", 3600, 1, 30 * 86400)
        self.uploads: dict[str, Upload] = {}
        self.by_file_id: dict[str, Upload] = {}
        self._partials_cleared = False
        self.router = APIRouter()
        r = self.router
        r.add_api_route("/resumable-uploads", self.options, methods=["OPTIONS"])
        r.add_api_route("/resumable-uploads", self.create, methods=["POST"])
        r.add_api_route("/resumable-uploads/{upload_id}", self.head, methods=["HEAD"])
        r.add_api_route("/resumable-uploads/{upload_id}", self.append, methods=["PATCH"])
        r.add_api_route("/resumable-uploads/{upload_id}", self.cancel, methods=["DELETE"])
        r.add_api_route("/plain-uploads", self.plain, methods=["POST", "PUT"])
        r.add_api_route("/test-hooks/resumable-uploads", self.hook_counters, methods=["GET"])

    # ------------------------------------------------------------------ storage

    @property
    def partial_dir(self) -> Path:
        return self.settings.upload_dir / ".resumable"

    def _prepare_storage(self) -> None:
        """Partial files of a previous run belong to uploads this process never knew: remove them once."""
        self.partial_dir.mkdir(parents=True, exist_ok=True)
        if not self._partials_cleared:
            for leftover in self.partial_dir.glob("*.part"):
                with contextlib.suppress(OSError):
                    leftover.unlink()
            self._partials_cleared = True

    def _purge_expired(self) -> None:
        self._prepare_storage()
        now = time.monotonic()
        for upload in [u for u in self.uploads.values() if u.expires_at <= now and u.active is None]:
            self._forget(upload)

    def _forget(self, upload: Upload) -> None:
        self.uploads.pop(upload.id, None)
        if upload.file_id:
            self.by_file_id.pop(upload.file_id, None)
        if not upload.complete:
            with contextlib.suppress(OSError):
                upload.part_path.unlink()

    def _lookup(self, upload_id: str, request: Request) -> tuple[int, Upload]:
        """The token checked, then the request's interop version and the upload; a BadRequest names the version."""
        self.require_token(request)
        version: int | None = None
        try:
            version = self._version(request)
            return version, self._find(upload_id)
        except BadRequest as exc:
            exc.version = version
            raise

    def _find(self, upload_id: str) -> Upload:
        self._purge_expired()
        upload = self.uploads.get(upload_id)
        if upload is None:
            raise BadRequest(404, "no such upload (it completed long ago, expired, was cancelled, or the server restarted)")
        return upload

    def _touch(self, upload: Upload) -> None:
        upload.expires_at = time.monotonic() + upload.max_age

    # ------------------------------------------------------------------ fields

    def _version(self, request: Request, required: bool = True) -> int | None:
        raw = request.headers.get("upload-draft-interop-version")
        if raw is None and not required:
            return None
        version = parse_sf_integer(raw)
        if version not in INTEROP_VERSIONS:
            raise BadRequest(
                400,
                f"unsupported Upload-Draft-Interop-Version {raw!r}; this server speaks "
                + ", ".join(map(str, INTEROP_VERSIONS)),
            )
        return version

    def _limit_field(self, version: int, remaining_age: int | None = None) -> str:
        age_key = "max-age" if version >= 7 else "expires"
        age = self.max_age if remaining_age is None else max(0, remaining_age)
        return f"max-size={self.max_size}, max-append-size={self.max_append}, {age_key}={age}"

    def _upload_limit(self, upload: Upload) -> str:
        return self._limit_field(upload.version, int(upload.expires_at - time.monotonic()))

    def _location(self, request: Request, upload: Upload) -> str:
        return str(request.base_url).rstrip("/") + f"/resumable-uploads/{upload.id}"

    def _error(self, exc: BadRequest, version: int | None) -> Response:
        headers = {"Upload-Draft-Interop-Version": str(version or LATEST_INTEROP_VERSION), **exc.fields}
        if exc.problem:
            body = {"type": PROBLEM_BASE + exc.problem, "title": exc.message, "message": exc.message}
            return JSONResponse(body, status_code=exc.status, headers=headers, media_type="application/problem+json")
        return JSONResponse({"message": exc.message}, status_code=exc.status, headers=headers)

    def _extension(self, request: Request) -> str:
        disposition = request.headers.get("content-disposition")
        if not disposition:
            return ""
        _kind, params = self.parse_content_disposition(disposition)
        names = [params[k] for k in ("filename", "filename*") if k in params]
        for name in names:
            problem = self.filename_problem(name)
            if problem:
                raise BadRequest(400, f"invalid filename {name!r}: {problem}")
        if not names:
            return ""
        ext = os.path.splitext(names[-1])[1]
        return ext.lower() if EXT_RE.match(ext) else ""

    @staticmethod
    def _content_length(request: Request) -> int | None:
        raw = request.headers.get("content-length")
        if raw is None:
            return None
        if not raw.isdigit():
            raise BadRequest(400, "Content-Length must be a non-negative integer")
        return int(raw)

    # ------------------------------------------------------------------ endpoints

    async def options(self, request: Request) -> Response:
        try:
            version = self._version(request, required=False)
        except BadRequest as exc:
            return self._error(exc, None)
        headers = {"Allow": "OPTIONS, POST", "Upload-Limit": self._limit_field(version or LATEST_INTEROP_VERSION)}
        if version is not None:
            headers["Upload-Draft-Interop-Version"] = str(version)
        return Response(status_code=204, headers=headers)

    async def create(self, request: Request) -> Response:
        self.require_token(request)
        complete_raw = request.headers.get("upload-complete")
        if complete_raw is None or "upload-draft-interop-version" not in request.headers:
            return await self.plain(request)
        version: int | None = None
        try:
            version = self._version(request)
            complete = parse_sf_boolean(complete_raw)
            if complete is None:
                raise BadRequest(400, "Upload-Complete must be ?0 or ?1")
            offset_raw = request.headers.get("upload-offset")
            if offset_raw is not None and parse_sf_integer(offset_raw) != 0:
                raise BadRequest(400, "a creation request starts at offset 0")
            length = self._declared_length(request, offset=0, complete=complete, known=None)
            content_length = self._content_length(request)
            if length is not None and length > self.max_size:
                raise BadRequest(413, f"the upload is larger than max-size ({self.max_size} bytes)",
                                 **{"Upload-Limit": self._limit_field(version)})
            if content_length is not None and content_length > self.max_append:
                raise BadRequest(413, f"the request is larger than max-append-size ({self.max_append} bytes)",
                                 **{"Upload-Limit": self._limit_field(version)})
            ext = self._extension(request)
            upload = self._new_upload(request, version, ext, length)
        except BadRequest as exc:
            return self._error(exc, version)

        control = request.scope.get("extensions", {}).get(CONNECTION_EXTENSION)
        if control is not None:
            control.send_informational(
                104,
                [
                    ("Upload-Draft-Interop-Version", str(version)),
                    ("Location", self._location(request, upload)),
                    ("Upload-Limit", self._upload_limit(upload)),
                ],
                "Upload Resumption Supported",
            )
        await upload.lock.acquire()
        return await self._receive(request, upload, complete=complete, creation=True)

    async def head(self, upload_id: str, request: Request) -> Response:
        try:
            version, upload = self._lookup(upload_id, request)
        except BadRequest as exc:
            return self._error(exc, exc.version)
        await self._take_over(upload)
        try:
            upload.requests += 1
            self._touch(upload)
            headers = {
                "Upload-Draft-Interop-Version": str(version),
                "Upload-Offset": str(upload.offset),
                "Upload-Complete": "?1" if upload.complete else "?0",
                "Upload-Limit": self._upload_limit(upload),
                "Cache-Control": "no-store",
            }
            if upload.length is not None:
                headers["Upload-Length"] = str(upload.length)
            return Response(status_code=204, headers=headers)
        finally:
            upload.lock.release()

    async def append(self, upload_id: str, request: Request) -> Response:
        try:
            version, upload = self._lookup(upload_id, request)
        except BadRequest as exc:
            return self._error(exc, exc.version)
        try:
            content_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if content_type != PARTIAL_UPLOAD:
                raise BadRequest(415, f"an append needs Content-Type: {PARTIAL_UPLOAD}")
            offset = parse_sf_integer(request.headers.get("upload-offset"))
            if offset is None:
                raise BadRequest(400, "Upload-Offset must be a non-negative integer")
            complete = parse_sf_boolean(request.headers.get("upload-complete"))
            if complete is None:
                raise BadRequest(400, "Upload-Complete must be ?0 or ?1")
        except BadRequest as exc:
            return self._error(exc, version)

        await self._take_over(upload)
        receiving = False
        try:
            upload.requests += 1
            self._touch(upload)
            if upload.complete:
                content_length = self._content_length(request)
                if complete and offset == upload.offset and not content_length and upload.final is not None:
                    # The client lost the final response: replay it.
                    return self._final_response(upload, version, request, creation=False)
                raise BadRequest(400, "the upload is already complete", **{"Upload-Complete": "?0"})
            if offset != upload.offset:
                upload.conflicts += 1
                raise BadRequest(
                    409, f"Upload-Offset {offset} does not match the upload's offset {upload.offset}",
                    problem="mismatching-upload-offset",
                    **{"Upload-Offset": str(upload.offset), "Upload-Complete": "?0"},
                )
            upload.length = self._declared_length(request, offset=offset, complete=complete, known=upload.length)
            content_length = self._content_length(request)
            if content_length is not None and content_length > self.max_append:
                raise BadRequest(413, f"the request is larger than max-append-size ({self.max_append} bytes)",
                                 **{"Upload-Limit": self._upload_limit(upload)})
            upload.version = version
            receiving = True
            # _receive releases the lock when it is done.
            return await self._receive(request, upload, complete=complete, creation=False)
        except BadRequest as exc:
            return self._error(exc, version)
        finally:
            if not receiving:
                upload.lock.release()

    async def cancel(self, upload_id: str, request: Request) -> Response:
        try:
            version, upload = self._lookup(upload_id, request)
        except BadRequest as exc:
            return self._error(exc, exc.version)
        await self._take_over(upload)
        try:
            self._forget(upload)
        finally:
            upload.lock.release()
        return Response(status_code=204, headers={"Upload-Draft-Interop-Version": str(version)})

    async def plain(self, request: Request) -> Response:
        """A plain upload: the body is the file, no resumption."""
        self.require_token(request)
        try:
            ext = self._extension(request)
            content_length = self._content_length(request)
            if content_length is not None and content_length > self.max_size:
                raise BadRequest(413, f"file too large (limit {self.max_size} bytes)")
        except BadRequest as exc:
            return JSONResponse({"success": False, "message": exc.message}, status_code=exc.status)
        self._prepare_storage()
        file_id = str(uuid.uuid4())
        part = self.partial_dir / f"plain-{file_id}.part"
        sha, size = hashlib.sha256(), 0
        try:
            with open(part, "xb", buffering=0) as fh:
                async for chunk in request.stream():
                    size += len(chunk)
                    if size > self.max_size:
                        return JSONResponse({"success": False, "message": "file too large"}, status_code=413)
                    sha.update(chunk)
                    fh.write(chunk)
            final = self.settings.upload_dir / f"{file_id}{ext}"
            os.replace(part, final)
        except ClientDisconnect:
            return Response(status_code=499)
        finally:
            with contextlib.suppress(FileNotFoundError):
                part.unlink()
        return JSONResponse(
            {"success": True, "message": "File uploaded successfully", "fileId": file_id, "size": size,
             "sha256": sha.hexdigest()},
            status_code=201,
        )

    async def hook_counters(self, request: Request) -> JSONResponse:
        if not self.settings.test_hooks:
            return JSONResponse({"message": "Not Found"}, status_code=404)
        file_id, upload_id = request.query_params.get("fileId"), request.query_params.get("id")
        upload = self.by_file_id.get(file_id or "") or self.uploads.get(upload_id or "")
        if upload is None:
            return JSONResponse({"message": "no such upload"}, status_code=404)
        return JSONResponse(upload.counters())

    # ------------------------------------------------------------------ machinery

    def _declared_length(self, request: Request, *, offset: int, complete: bool, known: int | None) -> int | None:
        """The upload's length from ``Upload-Length`` and (when completing) ``Content-Length``; all must agree."""
        indicated: list[int] = []
        raw = request.headers.get("upload-length")
        if raw is not None:
            value = parse_sf_integer(raw)
            if value is None:
                raise BadRequest(400, "Upload-Length must be a non-negative integer")
            indicated.append(value)
        content_length = self._content_length(request)
        if complete and content_length is not None:
            indicated.append(offset + content_length)
        if known is not None:
            indicated.append(known)
        if len(set(indicated)) > 1:
            raise BadRequest(
                400, "inconsistent length values for upload", problem="inconsistent-upload-length",
                **{"Upload-Complete": "?0"},
            )
        return indicated[0] if indicated else None

    def _new_upload(self, request: Request, version: int, ext: str, length: int | None) -> Upload:
        self._prepare_storage()
        self._purge_expired()
        if len(self.uploads) >= MAX_UPLOADS:
            raise BadRequest(503, "too many uploads in progress; try again later")
        drop_points: list[int] = []
        raw_drops = request.headers.get("x-test-drop-after")
        if raw_drops is not None:
            if not self.settings.test_hooks:
                raise BadRequest(400, "X-Test-Drop-After needs BACKEND_TEST_HOOKS=1")
            try:
                drop_points = sorted(int(x) for x in raw_drops.split(","))
            except ValueError:
                raise BadRequest(400, "X-Test-Drop-After takes byte counts separated by commas") from None
            if any(p <= 0 for p in drop_points):
                raise BadRequest(400, "X-Test-Drop-After takes positive byte counts")
        upload_id = secrets.token_urlsafe(18)
        upload = Upload(
            id=upload_id, version=version, part_path=self.partial_dir / f"{upload_id}.part", ext=ext,
            length=length, max_age=self.max_age, expires_at=time.monotonic() + self.max_age,
            drop_points=drop_points,
        )
        # O_EXCL | O_NOFOLLOW: never clobber or follow anything already there.
        fd = os.open(upload.part_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o640)
        os.close(fd)
        upload.requests = 1
        self.uploads[upload.id] = upload
        return upload

    async def _take_over(self, upload: Upload) -> None:
        """End a request still appending to ``upload`` (the client has given up on it), then hold its lock."""
        if upload.active is not None:
            upload.active.end()
        await upload.lock.acquire()

    async def _receive(self, request: Request, upload: Upload, *, complete: bool, creation: bool) -> Response:
        """Append the request's body to ``upload`` (its lock held), then answer. Releases the lock."""
        control = request.scope.get("extensions", {}).get(CONNECTION_EXTENSION)
        active = ActiveRequest(task=asyncio.current_task(), control=control)
        upload.active = active
        version = upload.version
        appended = 0
        try:
            with open(upload.part_path, "ab", buffering=0) as fh:
                async for chunk in request.stream():
                    if active.superseded:
                        return Response(status_code=499)
                    if not chunk:
                        continue
                    upload.bytes_received += len(chunk)
                    if upload.length is not None and upload.offset + len(chunk) > upload.length:
                        # More than the declared length: the draft says the upload is invalid from now on.
                        self._forget(upload)
                        raise BadRequest(400, "the content goes past the upload's length", **{"Upload-Complete": "?0"})
                    if upload.offset + len(chunk) > self.max_size:
                        self._forget(upload)
                        raise BadRequest(413, f"the upload is larger than max-size ({self.max_size} bytes)")
                    appended += len(chunk)
                    if appended > self.max_append:
                        raise BadRequest(413, f"the request is larger than max-append-size ({self.max_append} bytes)")
                    self._write(upload, fh, chunk, control)
            self._touch(upload)
            if not complete:
                status = 201 if creation else 204
                headers = {
                    "Upload-Draft-Interop-Version": str(version),
                    "Upload-Complete": "?0",
                    "Upload-Offset": str(upload.offset),
                    "Upload-Limit": self._upload_limit(upload),
                }
                if creation:
                    headers["Location"] = self._location(request, upload)
                return Response(status_code=status, headers=headers)
            if upload.length is not None and upload.offset != upload.length:
                raise BadRequest(
                    400, f"the upload ends at {upload.offset} bytes but its length is {upload.length}",
                    problem="inconsistent-upload-length", **{"Upload-Complete": "?0"},
                )
            self._finish(upload)
            return self._final_response(upload, version, request, creation=creation)
        except BadRequest as exc:
            return self._error(exc, version)
        except (ClientDisconnect, Dropped, asyncio.CancelledError):
            # Interrupted: what arrived stays appended, the client resumes from the offset.
            self._touch(upload)
            return Response(status_code=499)
        finally:
            if upload.active is active:
                upload.active = None
            upload.lock.release()

    def _write(self, upload: Upload, fh, chunk: bytes, control) -> None:
        drop_at = next((p for p in upload.drop_points if upload.offset < p <= upload.offset + len(chunk)), None)
        if drop_at is not None:
            chunk = chunk[: drop_at - upload.offset]
        fh.write(chunk)
        upload.sha.update(chunk)
        upload.offset += len(chunk)
        if drop_at is not None:
            upload.drop_points = [p for p in upload.drop_points if p > upload.offset]
            upload.drops += 1
            if control is None:
                raise BadRequest(500, "the drop hook needs the server's ExtendedH11Protocol")
            control.abort()
            raise Dropped()

    def _finish(self, upload: Upload) -> None:
        file_id = str(uuid.uuid4())
        final = self.settings.upload_dir / f"{file_id}{upload.ext}"
        os.replace(upload.part_path, final)
        upload.complete = True
        upload.length = upload.offset
        upload.file_id = file_id
        self.by_file_id[file_id] = upload
        upload.final = (
            201,
            {"success": True, "message": "File uploaded successfully", "fileId": file_id, "size": upload.offset,
             "sha256": upload.sha.hexdigest()},
        )

    def _final_response(self, upload: Upload, version: int, request: Request, *, creation: bool) -> Response:
        assert upload.final is not None
        status, body = upload.final
        headers = {"Upload-Draft-Interop-Version": str(version), "Upload-Complete": "?1",
                   "Upload-Offset": str(upload.offset)}
        if creation:
            headers["Location"] = self._location(request, upload)
        return JSONResponse(body, status_code=status, headers=headers)

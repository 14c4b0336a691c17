"""Resumable uploads: the IETF httpbis draft "Resumable Uploads for HTTP", interop versions 8 (drafts -09 and
later) and 6 (drafts -04/-05, what Apple's reference server speaks), for raw file uploads, stored in S3.

Mounted by ``app.py`` with :func:`install`. Every endpoint but OPTIONS needs the bearer token.

``POST /resumable-uploads`` (the target resource)
    The body is the file. With ``Upload-Complete`` and ``Upload-Draft-Interop-Version`` the request creates an
    upload resource at ``/resumable-uploads/<id>``, announced in a ``104 Upload Resumption Supported`` (when the
    server runs with ``http_protocol.ExtendedH11Protocol``) and in the final response's ``Location``. Without them
    it is a plain upload. ``Content-Disposition: inline; filename="x.usdz"`` names the extension kept.
    Completed: ``201 {"success": true, "message", "fileId", "size", "sha256"}``, the file in S3 at
    ``uploads/{fileId}{ext}``, with ``Upload-Complete: ?1``.
``OPTIONS /resumable-uploads``
    ``204`` with ``Upload-Limit`` (``max-size``, ``max-append-size``, and ``max-age`` in v8 / ``expires`` in v6).
``HEAD /resumable-uploads/<id>``
    ``204`` with ``Upload-Offset`` (computed from S3: the parts plus the tail), ``Upload-Complete``,
    ``Upload-Length`` (when known), ``Upload-Limit``, ``Cache-Control: no-store``.
``PATCH /resumable-uploads/<id>``
    ``Content-Type: application/partial-upload``, ``Upload-Offset`` (must equal the server's, else ``409`` with the
    server's ``Upload-Offset``; the upload is kept), ``Upload-Complete``. Appends the body.
``DELETE /resumable-uploads/<id>``
    ``204``; the S3 multipart upload is aborted (its parts go), the tail and the record removed.
``POST /plain-uploads``
    The same storage without the draft (ignores ``Upload-*`` fields, no OPTIONS): a server that does not speak it.

Every instance can answer every request: the upload lives in S3 (see resumable_store.py for the layout), and the
request appending holds the upload's lease (upload_lease.py). A request to an upload whose lease another request
holds, on any instance, asks that one to end and waits for it: the draft's recommended concurrency handling. An
upload expires ``max-age`` seconds after its last append (``404`` after that); a restart of any or every instance
loses nothing that reached S3. An unknown interop version gets ``400`` naming ``8``.

Environment: ``RESUMABLE_MAX_APPEND_BYTES`` (default: ``MAX_UPLOAD_BYTES``), ``RESUMABLE_MAX_AGE_SECONDS``
(default 3600), ``RESUMABLE_LEASE_SECONDS`` (default 30: how long a killed instance's lease outlives it),
``RESUMABLE_SWEEP_SECONDS`` (default 60: how often an instance looks for expired uploads).

Test hooks (``BACKEND_TEST_HOOKS=1``): ``X-Test-Drop-After: N[,N…]`` on the creation request drops the connection
whenever the upload's offset reaches one of those byte counts (the bytes up to it are kept);
``GET /test-hooks/resumable-uploads?fileId=…`` (or ``?id=…``) answers the upload's counters:
``{id, offset, complete, bytesReceived, requests, conflicts, drops, fileId, instances}``.
"""

from __future__ import annotations

import os
import re
import secrets
import time
import uuid
from typing import Any, Callable

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response

from background import Background
from http_protocol import EXTENSION as CONNECTION_EXTENSION
from plain_upload import plain_upload
from resumable_append import Append
from resumable_expiry import UploadExpiry
from resumable_fields import (
    LATEST_INTEROP_VERSION, PARTIAL_UPLOAD, BadRequest, content_length, declared_length, error_response,
    limit_field, parse_sf_boolean, parse_sf_integer, request_version,
)
from resumable_store import Gone, ResumableStore, UploadState, remaining_age
from upload_hashes import UploadHashes
from upload_lease import Busy, UploadLease

EXT_RE = re.compile(r"^\.[A-Za-z0-9]{1,16}$")
GONE_MESSAGE = "no such upload (it completed long ago, expired, or was cancelled)"


def install(app: FastAPI, *, settings: Any, storage: Any, require_token: Callable[[Request], None],
            filename_problem: Callable[[Any], str | None],
            parse_content_disposition: Callable[[str], tuple[str, dict[str, str]]],
            int_env: Callable[[str, int, int, int], int]) -> "ResumableUploads":
    """Mount the endpoints on ``app`` with the app's settings and helpers."""
    service = ResumableUploads(settings, storage, require_token, filename_problem, parse_content_disposition, int_env)
    app.include_router(service.router)
    return service


class ResumableUploads:
    def __init__(self, settings, storage, require_token, filename_problem, parse_content_disposition, int_env):
        self.settings = settings
        self.storage = storage
        self.store = ResumableStore(storage)
        self.hashes = UploadHashes()
        self.require_token = require_token
        self.filename_problem = filename_problem
        self.parse_content_disposition = parse_content_disposition
        self.max_size: int = settings.max_upload_bytes
        self.max_append: int = int_env("RESUMABLE_MAX_APPEND_BYTES", self.max_size, 1, 1 << 40)
        self.max_age: int = int_env("RESUMABLE_MAX_AGE_SECONDS", 3600, 1, 30 * 86400)
        # How long a killed instance's hold on an upload outlives it; long enough that a live instance starved of
        # CPU (or a slow S3) still renews in time.
        self.lease_seconds: int = int_env("RESUMABLE_LEASE_SECONDS", 30, 1, 300)
        self.background = Background()
        self.expiry = UploadExpiry(self.store, self.hashes, lease_seconds=self.lease_seconds, max_age=self.max_age,
                                   sweep_every=int_env("RESUMABLE_SWEEP_SECONDS", 60, 1, 86400))
        self.router = r = APIRouter()
        r.add_api_route("/resumable-uploads", self.options, methods=["OPTIONS"])
        r.add_api_route("/resumable-uploads", self.create, methods=["POST"])
        r.add_api_route("/resumable-uploads/{upload_id}", self.head, methods=["HEAD"])
        r.add_api_route("/resumable-uploads/{upload_id}", self.append, methods=["PATCH"])
        r.add_api_route("/resumable-uploads/{upload_id}", self.cancel, methods=["DELETE"])
        r.add_api_route("/plain-uploads", self.plain, methods=["POST", "PUT"])
        r.add_api_route("/test-hooks/resumable-uploads", self.hook_counters, methods=["GET"])

    # ------------------------------------------------------------------ fields

    def upload_limit(self, record: dict[str, Any] | None, version: int | None = None) -> str:
        age = self.max_age if record is None else int(remaining_age(record))
        return limit_field(version or (record or {}).get("interop", LATEST_INTEROP_VERSION), self.max_size,
                           self.max_append, age)

    def location(self, request: Request, upload_id: str) -> str:
        return str(request.base_url).rstrip("/") + f"/resumable-uploads/{upload_id}"

    def final_response(self, record: dict[str, Any], version: int, request: Request, *, creation: bool) -> Response:
        final = record["final"]
        headers = {"Upload-Draft-Interop-Version": str(version), "Upload-Complete": "?1",
                   "Upload-Offset": str(final["size"])}
        if creation:
            headers["Location"] = self.location(request, record["id"])
        return JSONResponse(final, status_code=201, headers=headers)

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

    # ------------------------------------------------------------------ lookups

    def _version_of(self, request: Request) -> int:
        self.require_token(request)
        return request_version(request)

    async def _state(self, upload_id: str, record: dict[str, Any]) -> tuple[dict[str, Any], UploadState]:
        """The record and S3's parts and tail. An upload S3 completed whose record does not say so yet (the
        instance completing it died in between) gets its final answer now."""
        if record.get("final") is not None:
            return record, UploadState()
        state = await self.store.state(upload_id, record)
        if state.completed is False:
            raise Gone(upload_id)
        if state.completed:
            sha256, size = await self.storage.sha256(record["key"])
            final = {"success": True, "message": "File uploaded successfully", "fileId": record["fileId"],
                     "size": size, "sha256": sha256}
            record, _ = await self.store.update(
                upload_id, lambda r: {**r, "final": final, "length": size} if r.get("final") is None else None)
        return record, state

    # ------------------------------------------------------------------ endpoints

    async def options(self, request: Request) -> Response:
        try:
            version = request_version(request, required=False)
        except BadRequest as exc:
            return error_response(exc, None)
        headers = {"Allow": "OPTIONS, POST", "Upload-Limit": self.upload_limit(None, version)}
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
            version = request_version(request)
            complete = parse_sf_boolean(complete_raw)
            if complete is None:
                raise BadRequest(400, "Upload-Complete must be ?0 or ?1")
            offset_raw = request.headers.get("upload-offset")
            if offset_raw is not None and parse_sf_integer(offset_raw) != 0:
                raise BadRequest(400, "a creation request starts at offset 0")
            length = declared_length(request, offset=0, complete=complete, known=None)
            size = content_length(request)
            if length is not None and length > self.max_size:
                raise BadRequest(413, f"the upload is larger than max-size ({self.max_size} bytes)",
                                 **{"Upload-Limit": self.upload_limit(None, version)})
            if size is not None and size > self.max_append:
                raise BadRequest(413, f"the request is larger than max-append-size ({self.max_append} bytes)",
                                 **{"Upload-Limit": self.upload_limit(None, version)})
            record = self._new_record(request, version, self._extension(request), length)
        except BadRequest as exc:
            return error_response(exc, version)
        self.expiry.sweep_soon()
        etag = await self.store.create(record)
        lease = UploadLease.held(self.store, record, etag, self.lease_seconds)
        control = request.scope.get("extensions", {}).get(CONNECTION_EXTENSION)
        if control is not None:
            control.send_informational(
                104,
                [("Upload-Draft-Interop-Version", str(version)), ("Location", self.location(request, record["id"])),
                 ("Upload-Limit", self.upload_limit(record))],
                "Upload Resumption Supported",
            )
        return await Append(self, request, lease, UploadState(), version=version, complete=complete,
                            creation=True).run()

    def _new_record(self, request: Request, version: int, ext: str, length: int | None) -> dict[str, Any]:
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
        upload_id, file_id, now = secrets.token_urlsafe(18), str(uuid.uuid4()), time.time()
        return {
            "id": upload_id, "interop": version, "fileId": file_id, "key": f"uploads/{file_id}{ext}",
            "partSize": self.settings.part_size, "length": length, "maxAge": self.max_age, "createdAt": now,
            "touchedAt": now, "holder": UploadLease.new_holder(self.lease_seconds), "wanted": False,
            "appendedBy": None, "final": None, "dropPoints": drop_points, "counters": {},
        }

    async def head(self, upload_id: str, request: Request) -> Response:
        version: int | None = None
        try:
            version = self._version_of(request)
            record, _ = await self.expiry.current(upload_id)
            if self.settings.test_hooks:
                record, _ = await self.store.update(upload_id, _count_request)
            record, state = await self._state(upload_id, record)
            complete = record.get("final") is not None
            offset = record["final"]["size"] if complete else state.offset
        except BadRequest as exc:
            return error_response(exc, version)
        except Gone:
            return error_response(BadRequest(404, GONE_MESSAGE), version)
        except Busy:
            return error_response(BadRequest(503, "another request is still appending; try again"), version)
        headers = {
            "Upload-Draft-Interop-Version": str(version), "Upload-Offset": str(offset),
            "Upload-Complete": "?1" if complete else "?0", "Upload-Limit": self.upload_limit(record, version),
            "Cache-Control": "no-store",
        }
        if record.get("length") is not None:
            headers["Upload-Length"] = str(record["length"])
        return Response(status_code=204, headers=headers)

    async def append(self, upload_id: str, request: Request) -> Response:
        version: int | None = None
        try:
            version = self._version_of(request)
            content_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if content_type != PARTIAL_UPLOAD:
                raise BadRequest(415, f"an append needs Content-Type: {PARTIAL_UPLOAD}")
            offset = parse_sf_integer(request.headers.get("upload-offset"))
            if offset is None:
                raise BadRequest(400, "Upload-Offset must be a non-negative integer")
            complete = parse_sf_boolean(request.headers.get("upload-complete"))
            if complete is None:
                raise BadRequest(400, "Upload-Complete must be ?0 or ?1")
            loaded = await self.expiry.current(upload_id)
            lease = await UploadLease.acquire(self.store, upload_id, seconds=self.lease_seconds, record=loaded)
        except BadRequest as exc:
            return error_response(exc, version)
        except Gone:
            return error_response(BadRequest(404, GONE_MESSAGE), version)
        except Busy:
            return error_response(BadRequest(503, "another request is still appending; try again"), version)
        try:
            record, state = await self._state(upload_id, lease.record)
            lease.record = record
            self._check_append(request, record, state, offset, complete)
            record["length"] = declared_length(request, offset=offset, complete=complete, known=record.get("length"))
            record["interop"] = version
        except (BadRequest, Gone) as exc:
            conflict = isinstance(exc, BadRequest) and exc.status == 409
            await lease.release(lambda r: _count_request(r, conflicts=1 if conflict else 0))
            if isinstance(exc, Gone):
                return error_response(BadRequest(404, GONE_MESSAGE), version)
            if exc.status == 200:  # the client lost the final response: replay it
                return self.final_response(record, version, request, creation=False)
            return error_response(exc, version)
        return await Append(self, request, lease, state, version=version, complete=complete, creation=False).run()

    def _check_append(self, request: Request, record: dict[str, Any], state: UploadState, offset: int,
                      complete: bool) -> None:
        """Raises what the append gets instead of appending (200: replay the final answer)."""
        if record.get("final") is not None:
            if complete and offset == record["final"]["size"] and not content_length(request):
                raise BadRequest(200, "replay")
            raise BadRequest(400, "the upload is already complete", **{"Upload-Complete": "?0"})
        if offset != state.offset:
            raise BadRequest(
                409, f"Upload-Offset {offset} does not match the upload's offset {state.offset}",
                problem="mismatching-upload-offset", **{"Upload-Offset": str(state.offset), "Upload-Complete": "?0"},
            )
        size = content_length(request)
        if size is not None and size > self.max_append:
            raise BadRequest(413, f"the request is larger than max-append-size ({self.max_append} bytes)",
                             **{"Upload-Limit": self.upload_limit(record)})

    async def cancel(self, upload_id: str, request: Request) -> Response:
        version: int | None = None
        try:
            version = self._version_of(request)
            lease = await UploadLease.acquire(self.store, upload_id, seconds=self.lease_seconds)
        except BadRequest as exc:
            return error_response(exc, version)
        except Gone:
            return error_response(BadRequest(404, GONE_MESSAGE), version)
        except Busy:
            return error_response(BadRequest(503, "another request is still appending; try again"), version)
        await lease.stop_watching()
        await self.store.discard(upload_id, lease.record)
        self.hashes.forget(upload_id)
        return Response(status_code=204, headers={"Upload-Draft-Interop-Version": str(version)})

    async def plain(self, request: Request) -> Response:
        """A plain upload: the body is the file, no resumption."""
        self.require_token(request)
        try:
            ext = self._extension(request)
        except BadRequest as exc:
            return JSONResponse({"success": False, "message": exc.message}, status_code=exc.status)
        return await plain_upload(request, self.storage, key_for=lambda file_id: f"uploads/{file_id}{ext}",
                                  part_size=self.settings.part_size, max_size=self.max_size)

    async def hook_counters(self, request: Request) -> JSONResponse:
        if not self.settings.test_hooks:
            return JSONResponse({"message": "Not Found"}, status_code=404)
        upload_id = request.query_params.get("id") or await self._id_of_file(request.query_params.get("fileId"))
        loaded = await self.store.load(upload_id) if upload_id else None
        if loaded is None:
            return JSONResponse({"message": "no such upload"}, status_code=404)
        try:
            record, state = await self._state(upload_id, loaded[0])
        except Gone:
            return JSONResponse({"message": "no such upload"}, status_code=404)
        complete = record.get("final") is not None
        offset = record["final"]["size"] if complete else state.offset
        counters = record.get("counters", {})
        return JSONResponse({
            "id": upload_id, "offset": offset, "complete": complete, "fileId": record["fileId"] if complete else None,
            **{name: counters.get(name, 0) for name in ("bytesReceived", "requests", "conflicts", "drops")},
            "instances": counters.get("instances", []),
        })

    async def _id_of_file(self, file_id: str | None) -> str | None:
        """The upload that stored `file_id` (its object carries the upload's id)."""
        if not file_id or not re.fullmatch(r"[0-9a-f-]{36}", file_id):
            return None
        for key, _ in await self.storage.keys(f"uploads/{file_id}", limit=5):
            head = await self.storage.head(key)
            if head is not None and "resumable-id" in head.get("Metadata", {}):
                return head["Metadata"]["resumable-id"]
        return None


def _count_request(record: dict[str, Any], conflicts: int = 0) -> dict[str, Any]:
    counters = record.setdefault("counters", {})
    counters["requests"] = counters.get("requests", 0) + 1
    counters["conflicts"] = counters.get("conflicts", 0) + conflicts
    return record

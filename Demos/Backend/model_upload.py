"""``POST /upload-model``: a multipart/form-data body whose ``file`` field is streamed into S3 as it is parsed, as
``uploads/{fileId}{ext}`` (a multipart upload in parts of ``S3_PART_BYTES``, one uploading while the next fills;
a small file is one PutObject). A refused name, a malformed body, a failure or a client that hangs up aborts the
multipart upload: no parts are left behind.

    install(app, settings=settings, storage=storage, require_token=require_token)

Answers ``200 {"success": true, "message": "File uploaded successfully", "fileId", "size", "sha256"}``.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any, Callable

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header

from errors import APIError
from filenames import filename_problem, parse_content_disposition, safe_extension
from part_pipeline import PartPipeline

MAX_PART_HEADER_BYTES = 16 * 1024
MAX_PART_HEADERS = 32


def _decode_header(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


class _FormState:
    """What python-multipart's (synchronous) callbacks found; the file's bytes wait in ``pending`` until the
    request loop hands them to S3."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.headers: dict[str, str] = {}
        self.header_bytes = 0
        self.cur_field = bytearray()
        self.cur_value = bytearray()
        self.in_file_part = False
        self.file_done = False
        self.file_seen = False
        self.error: APIError | None = None
        self.file_id: str | None = None
        self.ext = ""
        self.size = 0
        self.sha = hashlib.sha256()
        self.pending: list[bytes] = []

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
            name = _decode_header(bytes(self.cur_field)).strip().lower()
            self.headers[name] = _decode_header(bytes(self.cur_value)).strip()
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
        # The client's name is never the key: a fresh id, plus the extension when it is plain.
        self.ext = safe_extension(names[-1])
        self.file_id = str(uuid.uuid4())
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
        self.pending.append(chunk)

    def on_part_end(self) -> None:
        if self.in_file_part:
            self.in_file_part = False
            self.file_done = True

    def callbacks(self) -> dict[str, Callable]:
        return {name: getattr(self, name) for name in (
            "on_part_begin", "on_header_field", "on_header_value", "on_header_end", "on_headers_finished",
            "on_part_data", "on_part_end")}


def install(app: FastAPI, *, settings: Any, storage: Any, require_token: Callable[[Request], None]) -> None:
    @app.post("/upload-model")
    async def upload_model(request: Request) -> JSONResponse:
        require_token(request)
        ctype, params = parse_options_header(request.headers.get("content-type", ""))
        boundary = params.get(b"boundary")
        if ctype != b"multipart/form-data" or not boundary:
            raise APIError(400, "expected multipart/form-data with a 'file' field")
        state = _FormState(settings.max_upload_bytes)
        parser = MultipartParser(boundary, callbacks=state.callbacks())
        pipeline: PartPipeline | None = None
        try:
            async for chunk in request.stream():
                if state.error is not None:
                    continue  # drain the rest of the body, discard it
                try:
                    parser.write(chunk)
                except MultipartParseError:
                    state.error = APIError(400, "malformed multipart body")
                if state.error is None and state.pending:
                    if pipeline is None:
                        pipeline = PartPipeline(storage, f"uploads/{state.file_id}{state.ext}", settings.part_size)
                    for data in state.pending:
                        await pipeline.write(data)
                    state.pending.clear()
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
            if pipeline is None:  # an empty file
                pipeline = PartPipeline(storage, f"uploads/{state.file_id}{state.ext}", settings.part_size)
            await pipeline.finish()
        except BaseException:
            if pipeline is not None:
                await pipeline.abort()
            raise
        return JSONResponse({"success": True, "message": "File uploaded successfully", "fileId": state.file_id,
                             "size": state.size, "sha256": state.sha.hexdigest()})

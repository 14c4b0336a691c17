"""The draft's header fields and errors (Resumable Uploads for HTTP, interop versions 8 and 6).

    version = request_version(request)                      # BadRequest(400) for a version we do not speak
    length = declared_length(request, offset=0, complete=True, known=None)
    return error_response(BadRequest(409, "…", problem="mismatching-upload-offset"), version)
"""

from __future__ import annotations

import re

from fastapi import Request
from fastapi.responses import JSONResponse, Response

INTEROP_VERSIONS = (8, 6)
LATEST_INTEROP_VERSION = 8
PARTIAL_UPLOAD = "application/partial-upload"
PROBLEM_BASE = "https://iana.org/assignments/http-problem-types#"
SF_INTEGER = re.compile(r"^[0-9]{1,15}$")


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


def error_response(exc: BadRequest, version: int | None) -> Response:
    headers = {"Upload-Draft-Interop-Version": str(version or LATEST_INTEROP_VERSION), **exc.fields}
    if exc.problem:
        body = {"type": PROBLEM_BASE + exc.problem, "title": exc.message, "message": exc.message}
        return JSONResponse(body, status_code=exc.status, headers=headers, media_type="application/problem+json")
    return JSONResponse({"message": exc.message}, status_code=exc.status, headers=headers)


def request_version(request: Request, required: bool = True) -> int | None:
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


def content_length(request: Request) -> int | None:
    raw = request.headers.get("content-length")
    if raw is None:
        return None
    if not raw.isdigit():
        raise BadRequest(400, "Content-Length must be a non-negative integer")
    return int(raw)


def declared_length(request: Request, *, offset: int, complete: bool, known: int | None) -> int | None:
    """The upload's length from ``Upload-Length`` and (when completing) ``Content-Length``; all must agree."""
    indicated: list[int] = []
    raw = request.headers.get("upload-length")
    if raw is not None:
        value = parse_sf_integer(raw)
        if value is None:
            raise BadRequest(400, "Upload-Length must be a non-negative integer")
        indicated.append(value)
    length = content_length(request)
    if complete and length is not None:
        indicated.append(offset + length)
    if known is not None:
        indicated.append(known)
    if len(set(indicated)) > 1:
        raise BadRequest(
            400, "inconsistent length values for upload", problem="inconsistent-upload-length",
            **{"Upload-Complete": "?0"},
        )
    return indicated[0] if indicated else None


def limit_field(version: int, max_size: int, max_append: int, age: int) -> str:
    age_key = "max-age" if version >= 7 else "expires"
    return f"max-size={max_size}, max-append-size={max_append}, {age_key}={max(0, age)}"

"""The API's errors: every one is JSON ``{"message": "…"}`` with the right status (``/upload-model``'s also carry
``"success": false``); FastAPI's 422 validation errors become 400; a client that hangs up is one log line.

    raise APIError(400, "missing 'file' field")
    install_error_handlers(app)
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

log = logging.getLogger("backend")


class APIError(Exception):
    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def error_response(request: Request, status: int, message: str, **extra: Any) -> JSONResponse:
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
    return error_response(request, exc.status, exc.message, **exc.extra)


async def _http_error_handler(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    message = exc.detail if isinstance(exc.detail, str) else "request failed"
    return error_response(request, exc.status_code, message)


async def _validation_error_handler(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = exc.errors()
    if errors:
        first = errors[0]
        msg = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
        message = f"{_loc_to_str(tuple(first.get('loc', ())))}: {msg}"
    else:
        message = "invalid request"
    return error_response(request, 400, message)


async def _client_disconnect_handler(request: Request, exc: ClientDisconnect) -> Response:
    # Nobody is left to answer; the handler's own cleanup (e.g. aborting a partial S3 upload) has run.
    log.warning("client disconnected during %s %s before its request was complete", request.method, request.url.path)
    return Response(status_code=499)


async def _unhandled_error_handler(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return error_response(request, 500, "internal server error")


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(APIError, _api_error_handler)
    app.add_exception_handler(StarletteHTTPException, _http_error_handler)
    app.add_exception_handler(RequestValidationError, _validation_error_handler)
    app.add_exception_handler(ClientDisconnect, _client_disconnect_handler)
    app.add_exception_handler(Exception, _unhandled_error_handler)

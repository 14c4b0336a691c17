#!/usr/bin/env python3
"""A local stand-in for two image generation APIs, for tests and demos on 127.0.0.1 only.

Python standard library only. Serves, on one free port:

  POST {base}/v2/inference/karlo/t2i     Kakao Karlo (Authorization: KakaoAK <key>)
  POST {base}/v1/images/generations      OpenAI-compatible (Authorization: Bearer <key>)
  GET  {base}/images/<id>.png            images handed out as URLs (no Authorization needed)
  GET  /_mock/health                     readiness probe
  GET  /_mock/requests?run=ID            what the mock received for one run (JSON list)

Each follows the documented request and response shapes, checks the auth header and validates the JSON body
(unknown fields, types, ranges), answering errors in the service's own error shape.

Scenarios are chosen by the base URL's path prefix, so parallel tests never share state: a prefix is a series of
`name=value` segments before the API path, e.g.

  http://127.0.0.1:PORT/run=abc/fault=rate-limit/retry-after=7/v2/inference/karlo/t2i

  run=ID            tag the requests of one test (see /_mock/requests)
  fault=NAME        bad-request (400, message=TEXT), unauthorized (401), forbidden (403), echo-key (401 whose
                    message quotes the key received), redirect-foreign (307 to http://localhost:PORT/run=ID/foreign,
                    another origin, which records what reaches it as api "foreign"), rate-limit (429, Retry-After
                    from retry-after=N),
                    server-error (status=5xx, default 500), malformed-json, wrong-shape, bad-base64,
                    not-an-image, image-url-404, image-url-html
  delay-ms=N        wait N ms (at most 30000) before answering; a client that disconnects meanwhile is logged
                    as event "client-disconnected"
  b64-lines=1       break base64 lines every 76 characters (as Python's base64.encodebytes does)

Prints exactly one JSON line on stdout when it is listening: {"base": "http://127.0.0.1:PORT"}; then serves
until stdin reaches EOF (or SIGTERM/SIGINT) and exits 0.

Environment: MOCK_KARLO_API_KEY and MOCK_OPENAI_API_KEY, the keys the mock accepts (random when unset; they are
never printed or logged).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import secrets
import select
import signal
import socket
import struct
import sys
import threading
import time
import urllib.parse
import uuid
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOST = "127.0.0.1"
KARLO_PATH = "/v2/inference/karlo/t2i"
OPENAI_PATH = "/v1/images/generations"
MAX_DELAY_MS = 30_000
MAX_STORED_IMAGES = 256

KARLO_FIELDS = {
    "version", "prompt", "negative_prompt", "width", "height", "upscale", "scale", "image_format",
    "image_quality", "samples", "return_type", "prior_num_inference_steps", "prior_guidance_scale",
    "num_inference_steps", "guidance_scale", "scheduler", "seed", "nsfw_checker",
}
OPENAI_FIELDS = {
    "model", "prompt", "n", "size", "response_format", "quality", "style", "user", "background",
    "moderation", "output_compression", "output_format",
}


def png(width: int, height: int, seed: int) -> bytes:
    """A real RGB PNG: a vertical gradient whose colours come from seed."""
    top = ((seed >> 0) & 0xFF, (seed >> 8) & 0xFF, (seed >> 16) & 0xFF)
    bottom = tuple(255 - c for c in top)
    rows = []
    span = max(1, height - 1)
    for y in range(height):
        colour = bytes(top[i] + (bottom[i] - top[i]) * y // span for i in range(3))
        rows.append(b"\x00" + colour * width)
    raw = b"".join(rows)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b"")


class State:
    """What the mock remembers: the request log and the images handed out as URLs."""

    def __init__(self, karlo_key: str, openai_key: str) -> None:
        self.karlo_key = karlo_key
        self.openai_key = openai_key
        self.lock = threading.Lock()
        self.log: list[dict] = []
        self.images: dict[str, bytes] = {}

    def record(self, entry: dict) -> None:
        with self.lock:
            self.log.append(entry)
            del self.log[:-2000]

    def store_image(self, data: bytes) -> str:
        image_id = uuid.uuid4().hex
        with self.lock:
            self.images[image_id] = data
            while len(self.images) > MAX_STORED_IMAGES:
                self.images.pop(next(iter(self.images)))
        return image_id


class Handler(BaseHTTPRequestHandler):
    server_version = "ImageAPIMock/1.0"
    state: State  # set on the class by main()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - keep stderr quiet
        pass

    # MARK: routing

    def do_GET(self) -> None:  # noqa: N802
        parsed = urllib.parse.urlsplit(self.path)
        if parsed.path == "/_mock/health":
            return self.send_json(200, {"ok": True})
        if parsed.path == "/_mock/requests":
            run = urllib.parse.parse_qs(parsed.query).get("run", [""])[0]
            with self.state.lock:
                entries = [e for e in self.state.log if e.get("run") == run]
            return self.send_json(200, entries)
        options, rest = self.split_prefix(parsed.path)
        match = re.fullmatch(r"/images/([0-9a-f]{32})\.png", rest)
        if match:
            self.state.record({
                "run": options.get("run", ""), "api": "image", "method": "GET",
                "hasAuthorization": self.headers.get("Authorization") is not None,
                "userAgent": self.headers.get("User-Agent"),
            })
            with self.state.lock:
                data = self.state.images.get(match.group(1))
            if data is None:
                return self.send_json(404, {"msg": "no such image"})
            return self.send_bytes(200, data, "image/png")
        if rest == "/images/page.html":
            return self.send_bytes(200, b"<html><body>not an image</body></html>", "text/html")
        self.send_json(404, {"msg": f"no route for GET {parsed.path}"})

    def do_POST(self) -> None:  # noqa: N802
        parsed = urllib.parse.urlsplit(self.path)
        options, rest = self.split_prefix(parsed.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if 0 < length <= 1_000_000 else b""
        if rest == KARLO_PATH:
            return self.karlo(options, raw)
        if rest == OPENAI_PATH:
            return self.openai(options, raw)
        if rest == "/foreign":
            return self.foreign(options, len(raw))
        self.send_json(404, {"msg": f"no route for POST {parsed.path}"})

    def foreign(self, options: dict[str, str], received: int) -> None:
        """Stands for another host (reached as `localhost`, another origin than 127.0.0.1): records what came."""
        self.state.record({
            "run": options.get("run", ""), "api": "foreign", "method": self.command,
            "hasAuthorization": self.headers.get("Authorization") is not None, "bytesReceived": received,
        })
        self.send_json(200, {"msg": "foreign host"})

    @staticmethod
    def split_prefix(path: str) -> tuple[dict[str, str], str]:
        """Splits `/a=1/b=2/v1/...` into ({"a": "1", "b": "2"}, "/v1/...")."""
        options: dict[str, str] = {}
        segments = path.split("/")[1:]
        while segments and "=" in segments[0]:
            name, _, value = segments.pop(0).partition("=")
            options[name] = urllib.parse.unquote(value)
        return options, "/" + "/".join(segments)

    # MARK: Karlo

    def karlo(self, options: dict[str, str], raw: bytes) -> None:
        def error(status: int, message: str, code: int = -1, headers: dict[str, str] | None = None) -> None:
            self.send_json(status, {"code": code, "msg": message}, headers)

        self.handle_api("karlo", options, raw, self.state.karlo_key, "KakaoAK", error, self.karlo_success)

    def karlo_success(self, options: dict[str, str], body: object) -> None:
        problem = self.karlo_problem(body)
        if problem:
            return self.send_json(400, {"code": -2, "msg": problem})
        assert isinstance(body, dict)
        samples = body.get("samples", 1)
        width, height = body.get("width", 1024), body.get("height", 1024)
        seeds = body.get("seed") or [secrets.randbelow(2**32) for _ in range(samples)]
        as_url = body.get("return_type", "url") == "url"
        images = []
        for index in range(samples):
            image_id = str(uuid.uuid4())
            images.append({
                "id": image_id,
                "seed": seeds[index],
                "image": self.image_field(options, width, height, seeds[index], as_url),
                "nsfw_content_detected": False if body.get("nsfw_checker") else None,
                "nsfw_score": 0.01 if body.get("nsfw_checker") else None,
            })
        self.send_json(200, {"id": str(uuid.uuid4()), "model_version": body.get("version", "v2.1"), "images": images})

    @staticmethod
    def karlo_problem(body: object) -> str | None:
        if not isinstance(body, dict):
            return "the body must be a JSON object"
        unknown = sorted(set(body) - KARLO_FIELDS)
        if unknown:
            return f"unknown field(s): {', '.join(unknown)}"
        prompt = body.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            return "prompt is required"
        if len(prompt) > 256:
            return "prompt is longer than 256 characters"
        negative = body.get("negative_prompt", "")
        if not isinstance(negative, str) or len(negative) > 256:
            return "negative_prompt must be a string of at most 256 characters"
        if body.get("version", "v2.1") not in ("v2.0", "v2.1"):
            return "version must be v2.0 or v2.1"
        largest = 640 if body.get("version") == "v2.0" else 1280
        for name in ("width", "height"):
            value = body.get(name, 1024)
            if type(value) is not int or not 384 <= value <= largest or value % 8:
                return f"{name} must be a multiple of 8 from 384 to {largest}"
        samples = body.get("samples", 1)
        if type(samples) is not int or not 1 <= samples <= 8:
            return "samples must be from 1 to 8"
        if body.get("image_format", "webp") not in ("webp", "jpeg", "png"):
            return "image_format must be webp, jpeg or png"
        if body.get("image_format", "webp") != "png":
            return "this mock only generates png (image_format: png)"
        if body.get("return_type", "url") not in ("base64_string", "url"):
            return "return_type must be base64_string or url"
        seed = body.get("seed")
        if seed is not None:
            if not isinstance(seed, list) or len(seed) != samples:
                return "seed must be a list with one value per sample"
            if any(type(s) is not int or not 0 <= s <= 4294967295 for s in seed):
                return "each seed must be from 0 to 4294967295"
        return None

    # MARK: OpenAI-compatible

    def openai(self, options: dict[str, str], raw: bytes) -> None:
        def error(status: int, message: str, code: int = -1, headers: dict[str, str] | None = None) -> None:
            kind = "invalid_request_error" if status < 500 else "server_error"
            self.send_json(status, {"error": {"message": message, "type": kind, "param": None, "code": None}}, headers)

        self.handle_api("openai", options, raw, self.state.openai_key, "Bearer", error, self.openai_success)

    def openai_success(self, options: dict[str, str], body: object) -> None:
        problem = self.openai_problem(body)
        if problem:
            return self.send_json(400, {"error": {"message": problem, "type": "invalid_request_error"}})
        assert isinstance(body, dict)
        width, _, height = body.get("size", "1024x1024").partition("x")
        as_url = body.get("response_format", "url") == "url"
        data = []
        for _ in range(body.get("n", 1)):
            field = self.image_field(options, int(width), int(height), secrets.randbelow(2**32), as_url)
            data.append({"url": field} if as_url else {"b64_json": field})
        self.send_json(200, {"created": int(time.time()), "data": data})

    @staticmethod
    def openai_problem(body: object) -> str | None:
        if not isinstance(body, dict):
            return "the body must be a JSON object"
        unknown = sorted(set(body) - OPENAI_FIELDS)
        if unknown:
            return f"Unrecognized request argument supplied: {', '.join(unknown)}"
        prompt = body.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            return "prompt is required"
        if len(prompt) > 4000:
            return "prompt is longer than 4000 characters"
        if not isinstance(body.get("model", "dall-e-2"), str):
            return "model must be a string"
        n = body.get("n", 1)
        if type(n) is not int or not 1 <= n <= 10:
            return "n must be from 1 to 10"
        size = body.get("size", "1024x1024")
        if not isinstance(size, str) or not re.fullmatch(r"[1-9][0-9]{1,3}x[1-9][0-9]{1,3}", size):
            return "size must look like 1024x1024"
        width, _, height = size.partition("x")
        if int(width) > 2048 or int(height) > 2048:
            return "this mock draws at most 2048 pixels a side"
        if body.get("response_format", "url") not in ("url", "b64_json"):
            return "response_format must be url or b64_json"
        return None

    # MARK: shared

    def handle_api(self, api, options, raw, key, scheme, error, success) -> None:
        authorization = self.headers.get("Authorization") or ""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        self.state.record({
            "run": options.get("run", ""), "api": api, "method": "POST",
            "authorized": authorization == f"{scheme} {key}",
            "contentType": self.headers.get("Content-Type"),
            "userAgent": self.headers.get("User-Agent"),
            "body": body,
        })
        if not self.wait(options):
            self.state.record({"run": options.get("run", ""), "api": api, "event": "client-disconnected"})
            return
        fault = options.get("fault", "")
        if fault == "redirect-foreign":
            port = self.server.server_address[1]
            location = f"http://localhost:{port}/run={options.get('run', '')}/foreign"
            return self.send_bytes(307, b"", "text/plain", {"Location": location})
        if fault == "echo-key":
            received = authorization.partition(" ")[2]
            return error(401, f"Incorrect API key provided: {received}")
        if authorization != f"{scheme} {key}":
            return error(401, "invalid or missing API key", -401)
        if fault == "unauthorized":
            return error(401, "invalid API key", -401)
        if fault == "forbidden":
            return error(403, "this key may not use the API", -403)
        if fault == "bad-request":
            return error(400, options.get("message", "the request was rejected"), -2)
        if fault == "rate-limit":
            headers = {"Retry-After": options["retry-after"]} if "retry-after" in options else None
            return error(429, "too many requests", -10, headers)
        if fault == "server-error":
            status = int(options.get("status", "500"))
            return error(status if 500 <= status <= 599 else 500, "internal error", -500)
        if fault == "malformed-json":
            return self.send_bytes(200, b'{"id": "x", "images": [{"image": ', "application/json")
        if fault == "wrong-shape":
            return self.send_json(200, {"id": "x", "model_version": "v2.1", "result": []})
        if (self.headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
            return error(400, "Content-Type must be application/json", -2)
        if body is None:
            return error(400, "the body must be JSON", -2)
        success(options, body)

    def image_field(self, options: dict[str, str], width: int, height: int, seed: int, as_url: bool) -> str:
        fault = options.get("fault", "")
        if fault == "bad-base64":
            return "%%% this is not base64 %%%"
        if fault == "not-an-image":
            return base64.b64encode(b"GIF89a is not one of the formats").decode()
        if fault == "image-url-404":
            return f"{self.base()}{self.prefix(options)}/images/{'0' * 32}.png"
        if fault == "image-url-html":
            return f"{self.base()}{self.prefix(options)}/images/page.html"
        data = png(width, height, seed)
        if as_url:
            return f"{self.base()}{self.prefix(options)}/images/{self.state.store_image(data)}.png"
        if options.get("b64-lines") == "1":
            return base64.encodebytes(data).decode()
        return base64.b64encode(data).decode()

    def base(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    @staticmethod
    def prefix(options: dict[str, str]) -> str:
        return f"/run={urllib.parse.quote(options['run'])}" if "run" in options else ""

    def wait(self, options: dict[str, str]) -> bool:
        """Waits delay-ms; False when the client hung up meanwhile."""
        try:
            delay = min(max(int(options.get("delay-ms", "0")), 0), MAX_DELAY_MS) / 1000
        except ValueError:
            delay = 0
        deadline = time.monotonic() + delay
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.connection], [], [], min(0.02, max(0, deadline - time.monotonic())))
            if readable:
                try:
                    if self.connection.recv(1, socket.MSG_PEEK) == b"":
                        return False
                except OSError:
                    return False
        return True

    def send_json(self, status: int, payload: object, headers: dict[str, str] | None = None) -> None:
        self.send_bytes(status, json.dumps(payload).encode(), "application/json", headers)

    def send_bytes(self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    parser.add_argument("--no-stdin-watch", action="store_true", help="ignore stdin; stop on SIGTERM/SIGINT only")
    args = parser.parse_args()

    Handler.state = State(
        os.environ.get("MOCK_KARLO_API_KEY") or secrets.token_hex(16),
        os.environ.get("MOCK_OPENAI_API_KEY") or secrets.token_hex(16),
    )
    server = ThreadingHTTPServer((HOST, args.port), Handler)
    server.daemon_threads = True
    stop = threading.Event()

    def request_stop(*_: object) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
    if not args.no_stdin_watch:
        def watch_stdin() -> None:
            try:
                while sys.stdin.buffer.read(4096):
                    pass
            except (OSError, ValueError):
                pass
            stop.set()

        threading.Thread(target=watch_stdin, daemon=True).start()

    serving = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    serving.start()
    host, port = server.server_address[:2]
    print(json.dumps({"base": f"http://{host}:{port}"}), flush=True)
    while not stop.wait(0.2):
        pass
    server.shutdown()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

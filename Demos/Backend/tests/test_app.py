"""End-to-end tests: run_stack.py (moto + uvicorn) spoken to over 127.0.0.1."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
import requests

from conftest import BACKEND_DIR, RUN_STACK, start_stack

TIMEOUT = 10  # seconds, every HTTP call


def presign(http, stack, items, headers=None):
    h = dict(stack.auth)
    h.update(headers or {})
    return http.post(f"{stack.api}/presigned-urls", json={"items": items}, headers=h, timeout=TIMEOUT)


def item(filename=None, content_type="image/jpeg", media_type="profile"):
    return {"filename": filename or f"{uuid.uuid4()}.jpg", "contentType": content_type, "mediaType": media_type}


def multipart_body(filename_header: str, data: bytes = b"payload", name: str = "file",
                   content_type: str = "model/vnd.usdz+zip") -> tuple[bytes, str]:
    """Hand-built multipart body so the filename goes on the wire byte-for-byte."""
    boundary = "----testboundary" + uuid.uuid4().hex
    head = (
        f"--{boundary}\r\n"
        f"Content-Disposition: form-data; name=\"{name}\"; {filename_header}\r\n"
        f"Content-Type: {content_type}\r\n\r\n"
    ).encode("utf-8")
    body = head + data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def snapshot(stack) -> tuple[frozenset[str], tuple[str, ...]]:
    """What S3 holds under uploads/: the objects, and the multipart uploads that still have parts."""
    return frozenset(stack.keys("uploads/")), tuple(sorted(k for k in stack.multipart_uploads() if k.startswith("uploads/")))


def snapshot_dir(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under root (the instances' working directory) with (size, mtime), Python's caches aside."""
    return {
        str(p.relative_to(root)): (p.lstat().st_size, p.lstat().st_mtime_ns)
        for p in root.rglob("*")
        if "__pycache__" not in p.parts and ".pytest_cache" not in p.parts
    }


def settled_snapshot(stack, before, timeout: float = 10.0):
    """The snapshot once it equals `before`, or the last one after `timeout` (an abort runs after the answer)."""
    deadline = time.monotonic() + timeout
    now = snapshot(stack)
    while now != before and time.monotonic() < deadline:
        time.sleep(0.1)
        now = snapshot(stack)
    return now


def events_by_id(http, stack) -> dict[int, dict]:
    r = http.get(f"{stack.api}/test-hooks/events", timeout=TIMEOUT)
    assert r.status_code == 200
    return {e["id"]: e for e in r.json()}


def hook_id(url: str) -> int:
    return int(parse_qs(urlparse(url).query)["id"][0])


# ---------------------------------------------------------------- auth


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic abc"}, {"Authorization": "Bearer"}],
)
def test_bearer_token_required(http, stack, headers):
    r = http.post(f"{stack.api}/presigned-urls", json={"items": [item()]}, headers=headers, timeout=TIMEOUT)
    assert r.status_code == 401
    assert r.json() == {"message": "invalid or missing bearer token"}

    body, ctype = multipart_body('filename="m.usdz"')
    r = http.post(f"{stack.api}/upload-model", data=body, headers={**headers, "Content-Type": ctype},
                  timeout=TIMEOUT)
    assert r.status_code == 401
    assert r.json()["message"] == "invalid or missing bearer token"
    assert r.json()["success"] is False


def test_wrong_token_with_right_prefix(http, stack):
    r = http.post(f"{stack.api}/presigned-urls", json={"items": [item()]},
                  headers={"Authorization": f"Bearer {stack.token}x"}, timeout=TIMEOUT)
    assert r.status_code == 401


# ---------------------------------------------------------------- presign + PUT


def test_presign_then_put_three_objects(http, stack):
    items = [
        item(f"{uuid.uuid4()}.jpg", "image/jpeg", "profile"),
        item(f"{uuid.uuid4()}.zip", "application/zip", "archive"),
        item(f"{uuid.uuid4()}.usdz", "model/vnd.usdz+zip", "model"),
    ]
    r = presign(http, stack, items)
    assert r.status_code == 200, r.text
    out = r.json()["items"]
    assert len(out) == 3
    ids = set()
    for req, resp in zip(items, out):
        assert set(resp) == {"mediaID", "uploadURL", "contentType", "key"}
        assert resp["key"] == f"{req['mediaType']}/{req['filename']}"
        assert resp["contentType"] == req["contentType"]
        uuid.UUID(resp["mediaID"])
        ids.add(resp["mediaID"])
        url = urlparse(resp["uploadURL"])
        assert f"{url.scheme}://{url.netloc}" == stack.s3
        assert url.path == f"/media/{resp['key']}"  # path-style addressing
        q = parse_qs(url.query)
        assert q["X-Amz-Algorithm"] == ["AWS4-HMAC-SHA256"]  # SigV4
        assert "content-type" in q["X-Amz-SignedHeaders"][0].split(";")
        assert "X-Amz-Signature" in q
    assert len(ids) == 3

    payloads = [os.urandom(n) for n in (1, 70_000, 300_000)]
    for resp, data in zip(out, payloads):
        put = requests.put(resp["uploadURL"], data=data, headers={"Content-Type": resp["contentType"]},
                           timeout=TIMEOUT)
        assert put.status_code == 200, put.text
        assert "Authorization" not in put.request.headers
    for resp, data in zip(out, payloads):
        r = http.get(f"{stack.api}/test-hooks/object", params={"key": resp["key"]}, timeout=TIMEOUT)
        assert r.status_code == 200, r.text
        info = r.json()
        assert info["sha256"] == hashlib.sha256(data).hexdigest()
        assert info["size"] == len(data)
        assert info["contentType"] == resp["contentType"]


def test_object_hook_404_for_missing_key(http, stack):
    r = http.get(f"{stack.api}/test-hooks/object", params={"key": "profile/nope.jpg"}, timeout=TIMEOUT)
    assert r.status_code == 404
    assert "message" in r.json()


@pytest.mark.parametrize(
    "body, needle",
    [
        ({"items": [item() for _ in range(11)]}, "between 1 and 10"),
        ({"items": []}, "between 1 and 10"),
        ({"items": [item(), item(media_type="video")]}, "items[1].mediaType"),
        ({"items": [item("../x")]}, "items[0].filename"),
        ({"items": [item("a/b.jpg")]}, "items[0].filename"),
        ({"items": [item("a\\b.jpg")]}, "items[0].filename"),
        ({"items": [{**item(), "filename": ""}]}, "items[0].filename"),
        ({"items": [item("x" * 201)]}, "items[0].filename"),
        ({"items": [item(content_type="jpeg")]}, "items[0].contentType"),
        ({"items": [{"filename": "a.jpg", "mediaType": "profile"}]}, "items[0].contentType"),
        ({"items": "nope"}, "'items'"),
        ({}, "'items'"),
    ],
)
def test_presign_validation(http, stack, body, needle):
    r = http.post(f"{stack.api}/presigned-urls", json=body, headers=stack.auth, timeout=TIMEOUT)
    assert r.status_code == 400, r.text
    msg = r.json()["message"]
    assert needle in msg
    assert set(r.json()) == {"message"}


def test_presign_rejects_non_json(http, stack):
    r = http.post(f"{stack.api}/presigned-urls", data=b"{not json",
                  headers={**stack.auth, "Content-Type": "application/json"}, timeout=TIMEOUT)
    assert r.status_code == 400
    assert "JSON" in r.json()["message"]


def _raw_request(stack, head: str, body: bytes = b"", timeout: float = 5.0) -> bytes:
    """Send ``head`` (request line and headers, no blank line) and ``body`` over a plain socket; return what the
    server answers before it closes or ``timeout`` seconds pass without a byte."""
    parsed = urlparse(stack.api)
    with socket.create_connection((parsed.hostname, parsed.port), timeout=timeout) as sock:
        sock.sendall(f"{head}\r\nHost: {parsed.netloc}\r\nConnection: close\r\n\r\n".encode() + body)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except socket.timeout:
            pass
    return answer


def test_presign_refuses_a_large_declared_body_before_reading_it(stack):
    # 20 MB promised, nothing sent: the answer can only come from the Content-Length alone.
    started = time.monotonic()
    answer = _raw_request(
        stack,
        f"POST /presigned-urls HTTP/1.1\r\nAuthorization: Bearer {stack.token}\r\n"
        "Content-Type: application/json\r\nContent-Length: 20000000",
    )
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert answer.endswith(b'{"message":"request body too large (limit 65536 bytes)"}'), answer[-200:]
    assert time.monotonic() - started < 4, "answered without waiting for the body"


def test_presign_refuses_a_large_chunked_body(http, stack):
    def chunks():
        yield b'{"items": ['
        for _ in range(2000):
            yield b'{"filename": "' + b"a" * 60 + b'.jpg", "contentType": "image/jpeg", "mediaType": "profile"},'
        yield b"{}]}"

    r = http.post(f"{stack.api}/presigned-urls", data=chunks(),
                  headers={**stack.auth, "Content-Type": "application/json"}, timeout=TIMEOUT)
    assert r.status_code == 413, r.text
    assert r.json() == {"message": "request body too large (limit 65536 bytes)"}


def test_presign_refuses_a_chunked_body_past_the_drain_bound_without_waiting_for_its_end(stack):
    # Over 1 MiB of chunks and no last chunk: a refusal that waited for the body's end would never come (the read
    # times out after 5 s of silence with nothing). The rest of the body is not read, so a reset may replace the 413.
    head = (
        f"POST /presigned-urls HTTP/1.1\r\nAuthorization: Bearer {stack.token}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked"
    )
    chunk = b"a" * 65536
    started = time.monotonic()
    try:
        answer = _raw_request(stack, head, (b"10000\r\n" + chunk + b"\r\n") * 17)
    except ConnectionError:
        answer = b"(reset)"
    assert answer.startswith(b"HTTP/1.1 413 ") or answer == b"(reset)", answer[:200]
    assert time.monotonic() - started < 4, "refused without waiting for the body's end"


def test_a_client_hanging_up_mid_upload_is_one_log_line_not_a_traceback(stack):
    before = snapshot(stack)
    log_start = stack.log_path.stat().st_size
    head = (
        f"POST /upload-model HTTP/1.1\r\nAuthorization: Bearer {stack.token}\r\n"
        "Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000"
    )
    # 12 MB of 20 MB: more than a part (8 MiB), so S3 already holds a part of a multipart upload when it hangs up.
    head = head.replace("Content-Length: 100000", "Content-Length: 20000000")
    part = b'--b\r\nContent-Disposition: form-data; name="file"; filename="m.usdz"\r\n\r\n' + os.urandom(12_000_000)
    _raw_request(stack, head, part, timeout=0.5)  # sends 12 MB of 20 MB, then hangs up

    def new_log() -> str:
        with open(stack.log_path, "rb") as f:
            f.seek(log_start)
            return f.read().decode(errors="replace")

    deadline = time.monotonic() + 5
    while "client disconnected" not in new_log() and time.monotonic() < deadline:
        time.sleep(0.05)
    log = new_log()
    assert "client disconnected during POST /upload-model before its request was complete" in log, log
    assert "Traceback" not in log and "unhandled error" not in log, log
    assert settled_snapshot(stack, before) == before, "the partial upload left nothing behind: no object, no parts"


def test_framework_errors_use_message_shape(http, stack):
    r = http.get(f"{stack.api}/test-hooks/object", timeout=TIMEOUT)  # missing query param (FastAPI 422)
    assert r.status_code == 400
    assert r.json() == {"message": "key: Field required"}
    r = http.get(f"{stack.api}/no-such-route", timeout=TIMEOUT)
    assert r.status_code == 404 and r.json() == {"message": "Not Found"}
    r = http.get(f"{stack.api}/presigned-urls", timeout=TIMEOUT)
    assert r.status_code == 405 and "message" in r.json()


# ---------------------------------------------------------------- upload-model


def test_upload_model_happy_path(http, stack):
    data = os.urandom(3 * 1024 * 1024 + 17)
    r = http.post(
        f"{stack.api}/upload-model",
        files={"file": ("Robot.USDZ", data, "model/vnd.usdz+zip")},
        headers=stack.auth,
        timeout=TIMEOUT,
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["success"] is True
    assert body["message"] == "File uploaded successfully"
    assert body["size"] == len(data)
    assert body["sha256"] == hashlib.sha256(data).hexdigest()
    assert stack.stored(f"uploads/{body['fileId']}.usdz") == data, "S3 holds the file under the server's name"
    assert f"uploads/{body['fileId']}.usdz" not in stack.multipart_uploads(), "no multipart upload left open"


def test_upload_model_unusual_extension_dropped(http, stack):
    body, ctype = multipart_body('filename="weird.ex t"', b"abc")
    r = http.post(f"{stack.api}/upload-model", data=body, headers={**stack.auth, "Content-Type": ctype},
                  timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    assert stack.stored(f"uploads/{r.json()['fileId']}") == b"abc"


TRAVERSAL_NAMES = ["../../etc/x", "/etc/passwd", "..\\x", "a/../../b", "..", "C:\\evil\\x", "\\\\srv\\x"]


@pytest.mark.parametrize("name", TRAVERSAL_NAMES)
def test_upload_model_refuses_path_traversal(http, stack, name):
    before, files_before = snapshot(stack), snapshot_dir(BACKEND_DIR)
    passwd_before = Path("/etc/passwd").stat().st_mtime_ns
    # 1) the way a normal client library encodes it
    r = http.post(f"{stack.api}/upload-model", files={"file": (name, b"evil", "text/plain")},
                  headers=stack.auth, timeout=TIMEOUT)
    assert r.status_code == 400, r.text
    assert r.json()["success"] is False
    assert r.json()["message"].startswith("invalid filename")
    # 2) byte-for-byte on the wire, no client-side escaping
    body, ctype = multipart_body(f'filename="{name}"', b"evil")
    r = http.post(f"{stack.api}/upload-model", data=body, headers={**stack.auth, "Content-Type": ctype},
                  timeout=TIMEOUT)
    assert r.status_code == 400, r.text
    assert r.json()["success"] is False
    assert r.json()["message"].startswith("invalid filename")

    assert settled_snapshot(stack, before) == before, "nothing was stored"
    assert snapshot_dir(BACKEND_DIR) == files_before, "nothing was written next to the instances either"
    assert Path("/etc/passwd").stat().st_mtime_ns == passwd_before
    for p in (Path("/etc/x"), BACKEND_DIR.parent.parent / "etc", BACKEND_DIR / "etc", BACKEND_DIR.parent / "etc"):
        assert not p.exists(), p


@pytest.mark.parametrize(
    "header",
    ['filename=""', 'filename="a\x01b"', "filename*=UTF-8''..%2F..%2Fetc%2Fx", 'filename="ok.usdz"; '
     "filename*=UTF-8''%2Fetc%2Fpasswd"],
)
def test_upload_model_refuses_other_bad_names(http, stack, header):
    before = snapshot(stack)
    body, ctype = multipart_body(header)
    r = http.post(f"{stack.api}/upload-model", data=body, headers={**stack.auth, "Content-Type": ctype},
                  timeout=TIMEOUT)
    assert r.status_code == 400, r.text
    assert r.json()["success"] is False
    assert settled_snapshot(stack, before) == before


def test_upload_model_missing_file_field(http, stack):
    before = snapshot(stack)
    r = http.post(f"{stack.api}/upload-model", files={"other": ("m.usdz", b"abc", "model/vnd.usdz+zip")},
                  headers=stack.auth, timeout=TIMEOUT)
    assert r.status_code == 400
    assert r.json() == {"success": False, "message": "missing 'file' field"}
    r = http.post(f"{stack.api}/upload-model", data={"file": "not a file"}, headers=stack.auth, timeout=TIMEOUT)
    assert r.status_code == 400 and r.json()["success"] is False
    r = http.post(f"{stack.api}/upload-model", json={"file": "x"}, headers=stack.auth, timeout=TIMEOUT)
    assert r.status_code == 400 and r.json()["success"] is False
    assert settled_snapshot(stack, before) == before


def test_upload_model_truncated_body(http, stack):
    before = snapshot(stack)
    body, ctype = multipart_body('filename="m.usdz"', b"x" * 1000)
    r = http.post(f"{stack.api}/upload-model", data=body[:-20], headers={**stack.auth, "Content-Type": ctype},
                  timeout=TIMEOUT)
    assert r.status_code == 400 and r.json()["success"] is False
    assert settled_snapshot(stack, before) == before


# ---------------------------------------------------------------- test hooks


def test_fault_count_mismatch(http, stack):
    r = presign(http, stack, [item(), item(), item()], {"X-Test-Fault": "count-mismatch"})
    assert r.status_code == 200
    assert len(r.json()["items"]) == 2


def test_fault_put_fail_returns_s3_xml(http, stack):
    items = [item(), item(), item()]
    r = presign(http, stack, items, {"X-Test-Fault": "put-fail:1"})
    assert r.status_code == 200
    out = r.json()["items"]
    assert len(out) == 3
    assert out[0]["uploadURL"].startswith(stack.s3) and out[2]["uploadURL"].startswith(stack.s3)
    url = out[1]["uploadURL"]
    assert url.startswith(f"{stack.api}/test-hooks/s3-error/SignatureDoesNotMatch?id=")
    assert out[1]["key"] == f"profile/{items[1]['filename']}"

    data = os.urandom(12345)
    put = requests.put(url, data=data, headers={"Content-Type": "image/jpeg"}, timeout=TIMEOUT)
    assert put.status_code == 403
    assert put.headers["content-type"].startswith("application/xml")
    assert put.text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    root = ET.fromstring(put.content)
    assert root.tag == "Error"
    assert root.findtext("Code") == "SignatureDoesNotMatch"
    assert "signature we calculated does not match" in root.findtext("Message")

    ev = events_by_id(http, stack)[hook_id(url)]
    assert ev["path"] == "/test-hooks/s3-error/SignatureDoesNotMatch"
    assert ev["contentType"] == "image/jpeg"
    assert ev["hasAuthorization"] is False
    assert ev["bytesReceived"] == len(data)
    assert ev["disconnectedEarly"] is False


def test_fault_put_fail_custom_code(http, stack):
    r = presign(http, stack, [item()], {"X-Test-Fault": "put-fail:0:AccessDenied"})
    url = r.json()["items"][0]["uploadURL"]
    put = requests.put(url, data=b"x", headers={"Content-Type": "image/jpeg", "Authorization": "Bearer leak"},
                       timeout=TIMEOUT)
    assert put.status_code == 403
    root = ET.fromstring(put.content)
    assert root.findtext("Code") == "AccessDenied"
    assert root.findtext("Message") == "Request has expired"
    assert events_by_id(http, stack)[hook_id(url)]["hasAuthorization"] is True


def test_fault_put_fail_answers_once_the_hanging_puts_of_its_batch_started(http, stack):
    r = presign(http, stack, [item(), item()], {"X-Test-Fault": "put-hang:0,put-fail:1"})
    hang_url, fail_url = (i["uploadURL"] for i in r.json()["items"])
    headers = {"Content-Type": "image/jpeg"}
    with pytest.raises(requests.exceptions.ReadTimeout):  # no hanging PUT has arrived: no answer yet
        requests.put(fail_url, data=b"x", headers=headers, timeout=(2, 0.5))
    with pytest.raises(requests.exceptions.ReadTimeout):  # the hanging PUT arrives (and hangs)
        requests.put(hang_url, data=b"y" * 10, headers=headers, timeout=(2, 0.5))
    put = requests.put(fail_url, data=b"x", headers=headers, timeout=TIMEOUT)
    assert put.status_code == 403


def test_fault_put_hang_records_early_disconnect(http, stack):
    r = presign(http, stack, [item(), item()], {"X-Test-Fault": "put-fail:0,put-hang:1"})
    assert r.status_code == 200
    out = r.json()["items"]
    assert "/test-hooks/s3-error/" in out[0]["uploadURL"]
    url = out[1]["uploadURL"]
    assert url.startswith(f"{stack.api}/test-hooks/hang?id=")

    started = time.monotonic()
    with pytest.raises(requests.exceptions.ReadTimeout):
        requests.put(url, data=b"y" * 5000, headers={"Content-Type": "image/jpeg"}, timeout=(2, 0.5))
    assert time.monotonic() - started < 5

    hid = hook_id(url)
    deadline = time.monotonic() + 5
    ev = None
    while time.monotonic() < deadline:
        ev = events_by_id(http, stack).get(hid)
        if ev and ev["completed"]:
            break
        time.sleep(0.05)
    assert ev is not None, "hang endpoint saw no request"
    assert ev["completed"] and ev["disconnectedEarly"] is True, ev
    assert ev["bytesReceived"] == 5000
    assert ev["hasAuthorization"] is False


def test_fault_put_hang_records_a_disconnect_during_the_body(http, stack):
    r = presign(http, stack, [item()], {"X-Test-Fault": "put-hang:0"})
    assert r.status_code == 200
    url = r.json()["items"][0]["uploadURL"]
    parsed = urlparse(url)
    # Promise 100000 bytes, send 5000, hang up: the client gave up mid-body.
    with socket.create_connection((parsed.hostname, parsed.port), timeout=TIMEOUT) as sock:
        sock.sendall(
            (
                f"PUT {parsed.path}?{parsed.query} HTTP/1.1\r\nHost: {parsed.netloc}\r\n"
                "Content-Type: image/jpeg\r\nContent-Length: 100000\r\n\r\n"
            ).encode()
            + b"z" * 5000
        )
        hid = hook_id(url)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            ev = events_by_id(http, stack).get(hid)
            if ev and ev["bytesReceived"] == 5000:
                break
            time.sleep(0.05)
    deadline = time.monotonic() + 5
    ev = None
    while time.monotonic() < deadline:
        ev = events_by_id(http, stack).get(hid)
        if ev and ev["completed"]:
            break
        time.sleep(0.05)
    assert ev is not None, "hang endpoint saw no request"
    assert ev["completed"] and ev["disconnectedEarly"] is True, ev
    assert ev["bytesReceived"] == 5000


@pytest.mark.parametrize("fault", ["explode", "put-fail:9", "put-hang:x"])
def test_fault_header_rejects_nonsense(http, stack, fault):
    r = presign(http, stack, [item()], {"X-Test-Fault": fault})
    assert r.status_code == 400 and "X-Test-Fault" in r.json()["message"]


# ---------------------------------------------------------------- launcher / config


def test_stack_without_hooks_env_token_and_sigterm(tmp_path, http):
    s = start_stack(tmp_path / "log", env={"BACKEND_API_TOKEN": "fixed-token-123"})
    try:
        assert s.token == "fixed-token-123"
        assert s.instances == [s.api]
        r = http.get(f"{s.api}/test-hooks/events", timeout=TIMEOUT)
        assert r.status_code == 404 and "message" in r.json()
        r = presign(http, s, [item(), item()], {"X-Test-Fault": "count-mismatch,put-fail:0"})
        assert r.status_code == 200
        out = r.json()["items"]
        assert len(out) == 2 and all(o["uploadURL"].startswith(s.s3) for o in out)
        s.proc.send_signal(signal.SIGTERM)
        assert s.proc.wait(timeout=10) == 0
        assert "fixed-token-123" not in s.log()
    finally:
        if s.proc.poll() is None:
            s.proc.kill()
            s.proc.wait(timeout=5)
        s.proc.stdout.close()
        s.proc.stdin.close()


def test_run_stack_readiness_failure_exits_1():
    p = subprocess.run([sys.executable, str(RUN_STACK), "--timeout", "0"], stdin=subprocess.PIPE,
                       capture_output=True, timeout=20)
    assert p.returncode == 1
    assert p.stdout == b""
    assert b"not ready" in p.stderr


def test_run_stack_starts_again_on_other_ports_when_a_chosen_port_is_taken_before_it_binds():
    # The port it picks for moto is already taken by the time moto binds it, as when another process's connection
    # gets it in between: the first attempt's moto exits early, and run_stack starts both again on fresh ports.
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        taken_port = taken.getsockname()[1]
        launcher = (
            "import sys, run_stack\n"
            "real, picks = run_stack.free_port, iter([None, int(sys.argv[1])])\n"
            "run_stack.free_port = lambda: next(picks, None) or real()\n"
            "sys.exit(run_stack.main(['--timeout', '20']))\n"
        )
        p = subprocess.Popen(
            [sys.executable, "-c", launcher, str(taken_port)], cwd=BACKEND_DIR,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        try:
            line = p.stdout.readline()
            assert line, p.stderr.read().decode(errors="replace") if p.poll() is not None else "no ready line"
            ready = json.loads(line)
            assert urlparse(ready["s3"]).port != taken_port
            assert requests.get(f"{ready['api']}/healthz", timeout=5).status_code == 200
        finally:
            p.stdin.close()
            p.wait(timeout=20)
            log = p.stderr.read().decode(errors="replace")
            p.stdout.close()
            p.stderr.close()
    assert p.returncode == 0, log
    assert "moto_server (code 1) exited early (attempt 1 of 3); starting again on other ports" in log, log


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_token_not_configured_is_500(tmp_path, http, stack):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("BACKEND_API_TOKEN", "BACKEND_TEST_HOOKS")}
    env.update(S3_ENDPOINT_URL=stack.s3, NO_PROXY="127.0.0.1")
    with open(tmp_path / "uvicorn.log", "wb") as log:
        p = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app:app", "--app-dir", str(BACKEND_DIR), "--host", "127.0.0.1",
             "--port", str(port), "--log-level", "warning"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 15
        while True:
            try:
                if http.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "uvicorn.log").read_text()
            assert p.poll() is None, (tmp_path / "uvicorn.log").read_text()
            time.sleep(0.1)
        for path in ("/presigned-urls", "/upload-model"):
            r = http.post(f"{base}{path}", json={"items": [item()]}, headers={"Authorization": "Bearer x"},
                          timeout=TIMEOUT)
            assert r.status_code == 500
            assert r.json()["message"] == "server token not configured"
    finally:
        p.terminate()
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=5)

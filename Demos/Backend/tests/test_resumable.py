"""Resumable uploads (resumable.py) against the running stack, over raw sockets where the draft needs what
`requests` cannot show (104 responses, a body cut short)."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import time
from urllib.parse import urlparse

import pytest
import requests

from conftest import start_stack

TIMEOUT = 10
V8 = {"Upload-Draft-Interop-Version": "8"}
V6 = {"Upload-Draft-Interop-Version": "6"}


def raw_request(stack, method: str, path: str, headers: dict[str, str], body: bytes = b"",
                send_body_bytes: int | None = None) -> tuple[list[tuple[int, dict[str, str]]], bytes]:
    """Send one HTTP/1.1 request on a fresh socket; return every response head (1xx included) and the final body.

    `send_body_bytes`: read the interim 104 first, send only that much of `body` (the declared length stays),
    then close the socket; returns the 104 alone.
    """
    url = urlparse(stack.api)
    sock = socket.create_connection((url.hostname, url.port), timeout=TIMEOUT)
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {url.hostname}:{url.port}", "Connection: close"]
        lines += [f"{k}: {v}" for k, v in {**stack.auth, **headers}.items()]
        if body or method in ("POST", "PATCH", "PUT"):
            lines.append(f"Content-Length: {len(body)}")
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        if send_body_bytes is not None:
            interim = b""
            while b"\r\n\r\n" not in interim:
                interim += sock.recv(4096)
            sock.sendall(body[:send_body_bytes])
            time.sleep(0.3)
            return parse_heads(interim)[0], b""
        data = b""
        try:
            sock.sendall(body)
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except (BrokenPipeError, ConnectionResetError):
            # A server may answer from the head alone (413 for a declared length over a limit) and close without
            # reading the body; the kernel then resets the connection. The answer read before the reset stands.
            if b"\r\n\r\n" not in data:
                data += drain(sock)
            if b"\r\n\r\n" not in data:
                raise
    finally:
        sock.close()
    return parse_heads(data)


def drain(sock: socket.socket) -> bytes:
    """Whatever the socket still holds after a failed send (a response that arrived before the reset)."""
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except OSError:
        pass
    return data


def parse_heads(data: bytes) -> tuple[list[tuple[int, dict[str, str]]], bytes]:
    """Response heads up to and including the first final one, and what follows it."""
    heads = []
    rest = data
    while True:
        head, _, rest = rest.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        fields = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        heads.append((status, fields))
        if status >= 200 or not rest:
            return heads, rest


class RawResponse:
    """The final response of `raw_request`, shaped like a `requests` response."""

    def __init__(self, status: int, fields: dict[str, str], body: bytes) -> None:
        self.status_code = status
        self.headers = requests.structures.CaseInsensitiveDict(fields)
        self.content = body

    def json(self):
        return json.loads(self.content)


def create(http, stack, body: bytes, complete: bool = True, headers=None, version=V8) -> RawResponse:
    """A creation request. Not through `requests`: Python's http.client takes the 104 for the final response."""
    h = {**version, "Upload-Complete": "?1" if complete else "?0",
         "Content-Disposition": 'inline; filename="file.bin"', **(headers or {})}
    heads, final = raw_request(stack, "POST", "/resumable-uploads", h, body)
    status, fields = heads[-1]
    return RawResponse(status, fields, final)


def head(http, stack, location, version=V8):
    return http.head(location, headers={**stack.auth, **version}, timeout=TIMEOUT)


def patch(http, stack, location, body: bytes, offset: int, complete: bool, version=V8, headers=None):
    h = {**stack.auth, **version, "Upload-Offset": str(offset), "Upload-Complete": "?1" if complete else "?0",
         "Content-Type": "application/partial-upload", **(headers or {})}
    return http.patch(location, data=body, headers=h, timeout=TIMEOUT)


def stored(stack, answer) -> bytes:
    """The completed upload's file, as S3 holds it."""
    return stack.stored(f"uploads/{answer['fileId']}.bin")


def eventually(condition, timeout: float = 10.0) -> bool:
    """Whether `condition()` holds within `timeout` seconds (for work the server does after answering)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.1)
    return True


def record(stack, location: str) -> dict:
    """The upload's record in S3 (resumable_store.py)."""
    return json.loads(stack.stored(f"resumable/{location.rsplit('/', 1)[1]}/record.json"))


# ---------------------------------------------------------------- discovery


def test_options_announces_limits_for_each_version(http, stack):
    r8 = http.options(f"{stack.api}/resumable-uploads", headers=V8, timeout=TIMEOUT)
    assert r8.status_code == 204
    assert r8.headers["Upload-Draft-Interop-Version"] == "8"
    assert "max-age=" in r8.headers["Upload-Limit"] and "max-size=" in r8.headers["Upload-Limit"]
    r6 = http.options(f"{stack.api}/resumable-uploads", headers=V6, timeout=TIMEOUT)
    assert "expires=" in r6.headers["Upload-Limit"], "interop 6 names the lifetime `expires`"


def test_an_unknown_interop_version_is_refused_naming_8(http, stack):
    r = http.options(f"{stack.api}/resumable-uploads", headers={"Upload-Draft-Interop-Version": "7"}, timeout=TIMEOUT)
    assert r.status_code == 400
    assert r.headers["Upload-Draft-Interop-Version"] == "8"


def test_the_plain_endpoint_does_not_speak_the_draft(http, stack):
    assert http.options(f"{stack.api}/plain-uploads", headers=V8, timeout=TIMEOUT).status_code == 405
    body = os.urandom(1000)
    r = http.post(f"{stack.api}/plain-uploads", data=body,
                  headers={**stack.auth, **V8, "Upload-Complete": "?1",
                           "Content-Disposition": 'inline; filename="file.bin"'}, timeout=TIMEOUT)
    assert r.status_code == 201
    assert "Upload-Complete" not in r.headers and "Location" not in r.headers
    assert stored(stack, r.json()) == body


# ---------------------------------------------------------------- creation


def test_creation_sends_104_with_location_then_the_final_answer(stack):
    body = os.urandom(100_000)
    heads, final = raw_request(stack, "POST", "/resumable-uploads",
                               {**V8, "Upload-Complete": "?1", "Content-Disposition": 'inline; filename="a.bin"'},
                               body)
    (interim_status, interim), (status, fields) = heads
    assert interim_status == 104
    assert interim["upload-draft-interop-version"] == "8"
    assert interim["location"].startswith(f"{stack.api}/resumable-uploads/")
    assert "max-size=" in interim["upload-limit"]
    assert status == 201 and fields["upload-complete"] == "?1"
    answer = json.loads(final)
    assert answer["size"] == len(body) and answer["sha256"] == hashlib.sha256(body).hexdigest()
    assert stored(stack, answer) == body


def test_no_104_for_a_request_without_the_draft(stack):
    heads, _ = raw_request(stack, "POST", "/resumable-uploads", {}, b"plain")
    assert [status for status, _ in heads] == [201]


def test_incomplete_creation_then_appends_complete_the_upload(http, stack):
    body = os.urandom(300_000)
    r = create(http, stack, body[:100_000], complete=False)
    assert r.status_code == 201
    assert r.headers["Upload-Complete"] == "?0" and r.headers["Upload-Offset"] == "100000"
    location = r.headers["Location"]
    r = patch(http, stack, location, body[100_000:200_000], 100_000, complete=False)
    assert r.status_code == 204 and r.headers["Upload-Offset"] == "200000"
    h = head(http, stack, location)
    assert h.status_code == 204
    assert (h.headers["Upload-Offset"], h.headers["Upload-Complete"]) == ("200000", "?0")
    assert h.headers["Cache-Control"] == "no-store"
    r = patch(http, stack, location, body[200_000:], 200_000, complete=True)
    assert r.status_code == 201 and r.headers["Upload-Complete"] == "?1"
    assert stored(stack, r.json()) == body
    assert head(http, stack, location).headers["Upload-Complete"] == "?1"


# ---------------------------------------------------------------- appends


def test_a_wrong_offset_gets_409_with_the_servers_offset_and_the_upload_survives(http, stack):
    body = os.urandom(200_000)
    location = create(http, stack, body[:100_000], complete=False).headers["Location"]
    r = patch(http, stack, location, body[50_000:], 50_000, complete=True)
    assert r.status_code == 409
    assert r.headers["Upload-Offset"] == "100000" and r.headers["Upload-Complete"] == "?0"
    assert r.json()["type"].endswith("#mismatching-upload-offset")
    r = patch(http, stack, location, body[100_000:], 100_000, complete=True)
    assert r.status_code == 201
    assert stored(stack, r.json()) == body
    counters = http.get(f"{stack.api}/test-hooks/resumable-uploads", params={"fileId": r.json()["fileId"]},
                        timeout=TIMEOUT).json()
    assert counters["conflicts"] == 1


def test_an_append_needs_the_partial_upload_media_type(http, stack):
    location = create(http, stack, b"x" * 10, complete=False).headers["Location"]
    r = patch(http, stack, location, b"y", 10, complete=True, headers={"Content-Type": "application/octet-stream"})
    assert r.status_code == 415


def test_inconsistent_lengths_are_refused(http, stack):
    r = create(http, stack, b"x" * 10, complete=True, headers={"Upload-Length": "11"})
    assert r.status_code == 400
    assert r.json()["type"].endswith("#inconsistent-upload-length")


def test_an_interrupted_creation_keeps_what_arrived_and_resumes_from_the_104s_location(http, stack):
    body = os.urandom(1_000_000)
    heads, _ = raw_request(stack, "POST", "/resumable-uploads",
                           {**V8, "Upload-Complete": "?1", "Content-Disposition": 'inline; filename="a.bin"'},
                           body, send_body_bytes=400_000)
    [(status, interim)] = heads
    assert status == 104
    location = interim["location"]
    offset = int(head(http, stack, location).headers["Upload-Offset"])
    assert offset == 400_000, "every byte that arrived was kept"
    r = patch(http, stack, location, body[offset:], offset, complete=True)
    assert r.status_code == 201
    assert stored(stack, r.json()) == body


def test_dropped_append_keeps_the_bytes_up_to_the_drop(http, stack):
    body = os.urandom(600_000)
    heads, _ = raw_request(stack, "POST", "/resumable-uploads",
                           {**V8, "Upload-Complete": "?0", "X-Test-Drop-After": "250000,450000",
                            "Content-Disposition": 'inline; filename="a.bin"'}, b"")
    location = heads[-1][1]["location"]
    with pytest.raises(Exception):
        patch(http, stack, location, body, 0, complete=True)
    assert head(http, stack, location).headers["Upload-Offset"] == "250000"
    with pytest.raises(Exception):
        patch(http, stack, location, body[250_000:], 250_000, complete=True)
    assert head(http, stack, location).headers["Upload-Offset"] == "450000"
    r = patch(http, stack, location, body[450_000:], 450_000, complete=True)
    assert r.status_code == 201
    assert stored(stack, r.json()) == body
    counters = http.get(f"{stack.api}/test-hooks/resumable-uploads", params={"fileId": r.json()["fileId"]},
                        timeout=TIMEOUT).json()
    assert counters["drops"] == 2
    # What arrived past each drop point depends on how much the client had in flight when the server closed: the
    # server received at least the file, and at most what the three requests sent.
    sent = len(body) + len(body[250_000:]) + len(body[450_000:])
    assert len(body) <= counters["bytesReceived"] <= sent


def test_an_append_to_a_completed_upload_replays_its_answer(http, stack):
    body = os.urandom(1000)
    location = create(http, stack, body[:500], complete=False).headers["Location"]
    first = patch(http, stack, location, body[500:], 500, complete=True)
    replay = patch(http, stack, location, b"", 1000, complete=True)
    assert replay.status_code == first.status_code == 201
    assert replay.json() == first.json()
    again = patch(http, stack, location, b"z", 1000, complete=True)
    assert again.status_code == 400


def test_delete_aborts_the_multipart_upload_and_removes_its_objects(http, stack):
    location = create(http, stack, os.urandom(9_000_000), complete=False).headers["Location"]
    upload_id, key = location.rsplit("/", 1)[1], record(stack, location)["key"]
    assert stack.keys(f"resumable/{upload_id}/") == {f"resumable/{upload_id}/record.json",
                                                     f"resumable/{upload_id}/tail"}, "a part, then the tail"
    assert key in stack.multipart_uploads()
    r = http.delete(location, headers={**stack.auth, **V8}, timeout=TIMEOUT)
    assert r.status_code == 204
    assert head(http, stack, location).status_code == 404
    assert stack.keys(f"resumable/{upload_id}/") == set()
    assert key not in stack.multipart_uploads(), "the part went with the aborted multipart upload"


def test_every_endpoint_but_options_needs_the_token(http, stack):
    location = create(http, stack, b"x", complete=False).headers["Location"]
    assert http.post(f"{stack.api}/resumable-uploads", data=b"x", headers={**V8, "Upload-Complete": "?1"},
                     timeout=TIMEOUT).status_code == 401
    assert http.head(location, headers=V8, timeout=TIMEOUT).status_code == 401
    assert http.delete(location, headers=V8, timeout=TIMEOUT).status_code == 401


def test_the_drop_hook_needs_test_hooks(tmp_path, http):
    s = start_stack(tmp_path / "log")
    try:
        r = http.post(f"{s.api}/resumable-uploads", data=b"x",
                      headers={**s.auth, **V8, "Upload-Complete": "?1", "X-Test-Drop-After": "1"}, timeout=TIMEOUT)
        assert r.status_code == 400
    finally:
        s.close_stdin_and_wait()


def test_limits_and_expiry(tmp_path, http):
    env = {"RESUMABLE_MAX_APPEND_BYTES": "1000", "RESUMABLE_MAX_AGE_SECONDS": "1", "MAX_UPLOAD_BYTES": "5000",
           "RESUMABLE_SWEEP_SECONDS": "1"}
    s = start_stack(tmp_path / "log", "--test-hooks", env=env)
    try:
        limit = http.options(f"{s.api}/resumable-uploads", headers=V8, timeout=TIMEOUT).headers["Upload-Limit"]
        assert limit == "max-size=5000, max-append-size=1000, max-age=1"
        assert create(http, s, b"x" * 1001).status_code == 413, "more than max-append-size in one request"
        assert create(http, s, b"", complete=False, headers={"Upload-Length": "5001"}).status_code == 413
        location = create(http, s, b"x" * 1000, complete=False).headers["Location"]
        upload_id, key = location.rsplit("/", 1)[1], record(s, location)["key"]
        time.sleep(1.5)
        assert head(http, s, location).status_code == 404, "expired after max-age without an append"
        gone = eventually(lambda: not s.keys(f"resumable/{upload_id}/") and key not in s.multipart_uploads())
        assert gone, "its record and tail are removed and its multipart upload aborted (right after the 404)"

        forgotten = create(http, s, b"x" * 1000, complete=False).headers["Location"]
        upload_id, key = forgotten.rsplit("/", 1)[1], record(s, forgotten)["key"]
        time.sleep(1.5)
        create(http, s, b"y", complete=False)  # a creation sweeps (at most once per RESUMABLE_SWEEP_SECONDS)
        swept = eventually(lambda: not s.keys(f"resumable/{upload_id}/") and key not in s.multipart_uploads())
        assert swept, "an expired upload nobody asked for again was swept"
    finally:
        s.close_stdin_and_wait()


def test_a_new_request_ends_an_append_still_in_flight(http, stack):
    """The draft's concurrency rule: the client gave up on the old request, so the server ends it first."""
    body = os.urandom(400_000)
    location = create(http, stack, b"", complete=False).headers["Location"]
    url = urlparse(stack.api)
    stale = socket.create_connection((url.hostname, url.port), timeout=TIMEOUT)
    try:
        head_lines = [f"PATCH {urlparse(location).path} HTTP/1.1", f"Host: {url.hostname}:{url.port}",
                      f"Authorization: Bearer {stack.token}", "Upload-Draft-Interop-Version: 8",
                      "Upload-Offset: 0", "Upload-Complete: ?1", "Content-Type: application/partial-upload",
                      f"Content-Length: {len(body)}"]
        stale.sendall(("\r\n".join(head_lines) + "\r\n\r\n").encode() + body[:150_000])
        time.sleep(0.5)  # the old request is now waiting for the rest of its body
        started = time.monotonic()
        r = head(http, stack, location)
        assert r.status_code == 204 and time.monotonic() - started < 5
        offset = int(r.headers["Upload-Offset"])
        assert offset == 150_000
        try:
            closed = stale.recv(1024) == b""
        except ConnectionResetError:
            closed = True
        assert closed, "the server closed the stale request's connection"
    finally:
        stale.close()
    r = patch(http, stack, location, body[offset:], offset, complete=True)
    assert r.status_code == 201


# ---------------------------------------------------------------- crash consistency (S3 written by hand)


def _multipart(stack, location: str) -> tuple[dict, str, dict]:
    """The record, the upload id and the S3 call arguments of an upload's multipart upload."""
    rec = record(stack, location)
    return rec, location.rsplit("/", 1)[1], {"Bucket": stack.bucket, "Key": rec["key"], "UploadId": rec["s3UploadId"]}


def test_an_upload_s3_completed_whose_record_never_said_so_is_answered_as_complete(http, stack):
    """The instance completing it died between CompleteMultipartUpload and writing the record."""
    body = os.urandom(9_000_000)
    location = create(http, stack, body, complete=False).headers["Location"]
    _, upload_id, call = _multipart(stack, location)
    [first] = stack.s3_client.list_parts(**call)["Parts"]
    last = stack.s3_client.upload_part(**call, PartNumber=2, Body=stack.stored(f"resumable/{upload_id}/tail"))
    stack.s3_client.complete_multipart_upload(**call, MultipartUpload={"Parts": [
        {"PartNumber": 1, "ETag": first["ETag"]}, {"PartNumber": 2, "ETag": last["ETag"]}]})
    h = head(http, stack, location)
    assert (h.headers["Upload-Complete"], h.headers["Upload-Offset"]) == ("?1", "9000000")
    r = patch(http, stack, location, b"", 9_000_000, complete=True)
    assert r.status_code == 201, r.text
    assert r.json()["sha256"] == hashlib.sha256(body).hexdigest() and stored(stack, r.json()) == body


def test_a_short_last_part_whose_completion_failed_is_not_counted_and_the_upload_completes(http, stack):
    """A completing append uploaded its short last part, then CompleteMultipartUpload failed (or it died)."""
    body = os.urandom(12_000_000)
    location = create(http, stack, body[:9_000_000], complete=False).headers["Location"]
    _, upload_id, call = _multipart(stack, location)
    tail = stack.stored(f"resumable/{upload_id}/tail")
    stack.s3_client.upload_part(**call, PartNumber=2, Body=tail + body[9_000_000:])
    assert head(http, stack, location).headers["Upload-Offset"] == "9000000", "the part and the tail; not the stray"
    r = patch(http, stack, location, body[9_000_000:], 9_000_000, complete=True)
    assert r.status_code == 201, r.text
    assert stored(stack, r.json()) == body

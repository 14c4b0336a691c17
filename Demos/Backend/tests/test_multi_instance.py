"""Three instances on one S3 (moto) behind run_stack.py's round-robin proxy: an upload continues on whichever
instance a request reaches, survives the instance receiving it being killed and a restart of every instance, and
appends racing on different instances cannot corrupt it. Each request opens its own connection, so consecutive
requests reach different instances."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from types import SimpleNamespace
from urllib.parse import urlparse

import pytest
import requests

from conftest import start_stack
from test_resumable import V8, create, eventually, head, patch, record, stored

PART = 8 * 1024 * 1024  # the app's default S3_PART_BYTES
LEASE = 5  # seconds: RESUMABLE_LEASE_SECONDS of these stacks (how long a killed instance's lease outlives it)
SLOW = 30  # seconds: a request that may wait for a dead instance's lease to run out


@pytest.fixture(scope="module")
def multi(tmp_path_factory):
    s = start_stack(tmp_path_factory.mktemp("multi") / "run_stack.log", "--test-hooks", "--instances", "3",
                    env={"RESUMABLE_LEASE_SECONDS": str(LEASE)})
    try:
        yield s
    finally:
        assert s.close_stdin_and_wait() == 0, s.log()


def counters(http, stack, **query) -> dict:
    r = http.get(f"{stack.api}/test-hooks/resumable-uploads", params=query, timeout=SLOW)
    assert r.status_code == 200, r.text
    return r.json()


def parts_in_s3(stack, location: str) -> int:
    rec = record(stack, location)
    answer = stack.s3_client.list_parts(Bucket=stack.bucket, Key=rec["key"], UploadId=rec["s3UploadId"])
    return len(answer.get("Parts", []))


def wait_for(condition, what: str) -> None:
    assert eventually(condition, SLOW), f"timed out waiting for {what}"


def open_append(stack, base: str, location: str, offset: int, length: int, complete: bool) -> socket.socket:
    """A PATCH to `base` (an instance, or the proxy) whose head is sent; the caller sends the body."""
    url = urlparse(base)
    sock = socket.create_connection((url.hostname, url.port), timeout=SLOW)
    lines = [f"PATCH {urlparse(location).path} HTTP/1.1", f"Host: {url.netloc}", "Connection: close",
             f"Authorization: Bearer {stack.token}", "Upload-Draft-Interop-Version: 8", f"Upload-Offset: {offset}",
             f"Upload-Complete: {'?1' if complete else '?0'}", "Content-Type: application/partial-upload",
             f"Content-Length: {length}"]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    try:
        while sock.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def create_until_dropped(stack, body: bytes, drop_after: str) -> str:
    """A complete creation that the drop hook cuts: returns the 104's Location."""
    url = urlparse(stack.api)
    with socket.create_connection((url.hostname, url.port), timeout=SLOW) as sock:
        lines = ["POST /resumable-uploads HTTP/1.1", f"Host: {url.netloc}", "Connection: close",
                 f"Authorization: Bearer {stack.token}", "Upload-Draft-Interop-Version: 8", "Upload-Complete: ?1",
                 f"X-Test-Drop-After: {drop_after}", 'Content-Disposition: inline; filename="file.bin"',
                 f"Content-Length: {len(body)}"]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        interim = b""
        while b"\r\n\r\n" not in interim:
            interim += sock.recv(4096)
        location = next(line.split(b":", 1)[1].strip().decode() for line in interim.split(b"\r\n")
                        if line.lower().startswith(b"location:"))
        try:
            sock.sendall(body)
            closed_by_server(sock)
        except (BrokenPipeError, ConnectionResetError):
            pass
    return location


def resume_until_complete(http, stack, location: str, body: bytes, attempts: int = 5) -> tuple[requests.Response, int]:
    """What a client does after losing its connection: ask for the offset, send the rest; returns the final
    answer and how many appends it took."""
    for attempt in range(1, attempts + 1):
        offset = int(head(http, stack, location).headers["Upload-Offset"])
        try:
            r = patch(http, stack, location, body[offset:], offset, complete=True)
        except requests.ConnectionError:
            continue  # dropped again: ask again
        if r.status_code == 201:
            return r, attempt
        assert r.status_code == 409, r.text
    raise AssertionError(f"not complete after {attempts} appends")


def test_a_50mb_upload_whose_connection_drops_resumes_on_another_instance_byte_identical(http, multi):
    body = os.urandom(50_000_000)
    location = create_until_dropped(multi, body, "15000000,35000000")
    assert int(head(http, multi, location).headers["Upload-Offset"]) == 15_000_000
    final, appends = resume_until_complete(http, multi, location, body)
    assert appends == 2, "dropped once more at 35 MB, then done"
    assert stored(multi, final.json()) == body
    seen = counters(http, multi, fileId=final.json()["fileId"])
    assert seen["drops"] == 2
    assert len(seen["instances"]) >= 2, f"one instance took it all: {seen['instances']}"


def test_killing_the_instance_receiving_mid_append_and_resuming_through_another_completes(http, multi):
    body = os.urandom(40_000_000)
    location = create(http, multi, b"", complete=False).headers["Location"]
    victim = 1
    sock = open_append(multi, multi.instances[victim], location, 0, len(body), complete=True)
    try:
        sock.sendall(body[:24_000_000])
        wait_for(lambda: parts_in_s3(multi, location) >= 2, "two parts in S3")
        assert multi.command(f"kill {victim}") == {"ok": f"kill {victim}"}
    finally:
        sock.close()
    started = time.monotonic()
    answer = http.head(location, headers={**multi.auth, **V8}, timeout=SLOW)
    offset = int(answer.headers["Upload-Offset"])
    # Only whole parts reached S3; the bytes the killed instance still held are gone. Its lease ran out first.
    assert offset >= 2 * PART and offset % PART == 0, offset
    assert time.monotonic() - started < LEASE + 5, "the dead instance's lease ran out and no later"
    r = patch(http, multi, location, body[offset:], offset, complete=True)
    assert r.status_code == 201, r.text
    assert stored(multi, r.json()) == body
    assert multi.command(f"restart {victim}")["ok"] == "restart"


def test_a_restart_of_every_instance_loses_nothing_that_reached_s3(http, multi):
    body = os.urandom(20_000_000)
    location = create(http, multi, body[:12_000_000], complete=False).headers["Location"]
    finished = create(http, multi, body[:1000], complete=True)
    assert finished.status_code == 201
    done = finished.headers["Location"]

    answer = multi.command("restart")
    assert answer == {"ok": "restart", "instances": multi.instances}

    h = head(http, multi, location)
    assert (h.status_code, h.headers["Upload-Offset"]) == (204, "12000000"), "a part and the tail, both kept"
    r = patch(http, multi, location, body[12_000_000:], 12_000_000, complete=True)
    assert r.status_code == 201 and stored(multi, r.json()) == body
    replay = patch(http, multi, done, b"", 1000, complete=True)
    assert replay.status_code == 201 and replay.json() == finished.json(), "a completed upload's answer survives"


@pytest.fixture
def short_lease(tmp_path):
    """Two instances whose leases last 2 s."""
    s = start_stack(tmp_path / "run_stack.log", "--test-hooks", "--instances", "2",
                    env={"RESUMABLE_LEASE_SECONDS": "2"})
    try:
        yield s
    finally:
        assert s.close_stdin_and_wait() == 0, s.log()


def test_an_instance_frozen_past_its_lease_goes_on_when_nobody_took_the_upload(http, short_lease):
    s = short_lease
    body = os.urandom(12_000_000)
    location = create(http, s, b"", complete=False).headers["Location"]
    sock = open_append(s, s.instances[0], location, 0, len(body), complete=True)
    try:
        sock.sendall(body[:1_000_000])
        time.sleep(0.5)
        assert s.command("freeze 0") == {"ok": "freeze 0"}
        time.sleep(4)  # twice its lease: as far as its clock says, it has lost the upload
        assert s.command("thaw 0") == {"ok": "thaw 0"}
        sock.sendall(body[1_000_000:])
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    finally:
        sock.close()
    assert answer.startswith(b"HTTP/1.1 201 "), answer[:300]
    assert stored(s, json.loads(answer.partition(b"\r\n\r\n")[2])) == body, "nobody took it: it renewed and went on"


def test_an_instance_frozen_while_another_took_the_upload_writes_nothing_more(http, short_lease):
    s = short_lease
    body = os.urandom(12_000_000)
    location = create(http, s, b"", complete=False).headers["Location"]
    frozen = open_append(s, s.instances[0], location, 0, len(body), complete=True)
    try:
        frozen.sendall(body[:9_000_000])  # a part (8 MiB) reaches S3, the rest waits in the frozen instance
        wait_for(lambda: parts_in_s3(s, location) == 1, "the first part in S3")
        assert s.command("freeze 0") == {"ok": "freeze 0"}
        other = f"{s.instances[1]}{urlparse(location).path}"
        offset = int(http.head(other, headers={**s.auth, **V8}, timeout=SLOW).headers["Upload-Offset"])
        assert offset == PART, "the frozen instance's lease ran out; S3 has its part, not the bytes it holds"
        r = http.patch(other, data=body[offset:], timeout=SLOW, headers={
            **s.auth, **V8, "Upload-Offset": str(offset), "Upload-Complete": "?1",
            "Content-Type": "application/partial-upload"})
        assert r.status_code == 201, r.text
        assert s.command("thaw 0") == {"ok": "thaw 0"}
        frozen.settimeout(10)
        assert closed_by_server(frozen), "the thawed instance saw it lost the upload and ended its request"
    finally:
        frozen.close()
    assert stored(s, r.json()) == body, "the thawed instance wrote nothing over it"
    assert head(http, s, location).headers["Upload-Complete"] == "?1"


def test_an_append_arriving_while_another_runs_on_another_instance_ends_it_and_gets_409(http, multi):
    body = os.urandom(30_000_000)
    location = create(http, multi, b"", complete=False).headers["Location"]
    first = open_append(multi, multi.instances[0], location, 0, len(body), complete=True)
    try:
        first.sendall(body[:10_000_000])
        wait_for(lambda: parts_in_s3(multi, location) >= 1, "the first append's part in S3")
        # Another writer, on another instance, with other bytes for the same offset.
        garbage = os.urandom(len(body))
        second = requests.patch(
            f"{multi.instances[2]}{urlparse(location).path}", data=garbage, timeout=SLOW,
            headers={**multi.auth, **V8, "Upload-Offset": "0", "Upload-Complete": "?1",
                     "Content-Type": "application/partial-upload"})
        assert second.status_code == 409, second.text
        kept = int(second.headers["Upload-Offset"])
        assert PART <= kept <= 10_000_000, "the first append ended, keeping what it had received"
        first.settimeout(10)
        assert closed_by_server(first), "the server ended the first append"
    finally:
        first.close()
    assert int(head(http, multi, location).headers["Upload-Offset"]) == kept
    r = patch(http, multi, location, body[kept:], kept, complete=True)
    assert r.status_code == 201
    assert stored(multi, r.json()) == body, "none of the other writer's bytes landed"
    assert counters(http, multi, fileId=r.json()["fileId"])["conflicts"] == 1


def test_simultaneous_appends_on_every_instance_leave_one_consistent_upload(http, multi):
    body = os.urandom(12_000_000)
    location = create(http, multi, body[:1_000_000], complete=False).headers["Location"]
    statuses: list[object] = []

    def append() -> None:
        session = requests.Session()
        session.trust_env = False
        try:
            r = patch(session, multi, location, body[1_000_000:], 1_000_000, complete=True,
                      headers={"Connection": "close"})
            statuses.append(r.status_code)
        except requests.ConnectionError:
            statuses.append("ended")  # a newer append ended this one
        finally:
            session.close()

    writers = [threading.Thread(target=append) for _ in range(6)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=2 * SLOW)
    # One completes; the others were ended, or found the upload moved on (409) or complete (400).
    assert len(statuses) == 6 and all(s in (201, 400, 409, "ended") for s in statuses), statuses
    assert statuses.count(201) <= 1, statuses
    final, _ = resume_until_complete(http, multi, location, body) if 201 not in statuses else (None, 0)
    h = head(http, multi, location)
    assert (h.headers["Upload-Complete"], h.headers["Upload-Offset"]) == ("?1", str(len(body)))
    file_id = counters(http, multi, id=location.rsplit("/", 1)[1])["fileId"]
    assert stored(multi, {"fileId": file_id}) == body


def test_an_instance_holds_at_most_two_parts_in_memory(http, multi):
    """60 MB uploads through one instance raise its peak RSS by about two parts, not by the file's size."""
    base = multi.instances[0]
    instance = SimpleNamespace(api=base, auth=multi.auth, token=multi.token)
    body = os.urandom(60_000_000)
    for kind in ("resumable", "plain"):
        http.post(f"{base}/test-hooks/memory/reset-peak", timeout=SLOW).raise_for_status()
        before = http.get(f"{base}/test-hooks/memory", timeout=SLOW).json()
        if kind == "resumable":
            r = create(http, instance, body, complete=True)
        else:
            r = http.post(f"{base}/plain-uploads", data=body, timeout=SLOW,
                          headers={**multi.auth, "Content-Disposition": 'inline; filename="big.bin"'})
        assert r.status_code == 201 and r.json()["size"] == len(body)
        after = http.get(f"{base}/test-hooks/memory", timeout=SLOW).json()
        growth = after["peak"] - before["rss"]
        print(f"{kind}: peak RSS growth for 60 MB: {growth / 2**20:.1f} MiB ({before['rss'] / 2**20:.0f} MiB before)")
        assert growth < 3 * PART, f"{kind}: peak grew by {growth / 2**20:.1f} MiB"

"""The transfer test hooks (redirects, echoed credentials, flaky storage on a second origin), over 127.0.0.1."""

from __future__ import annotations

import hashlib
import os
import socket
import uuid
from urllib.parse import quote, urlparse

import requests

from test_app import TIMEOUT, events_by_id, hook_id, item, multipart_body, presign


def witness(http, stack) -> str:
    r = http.get(f"{stack.api}/test-hooks/witness", timeout=TIMEOUT)
    assert r.status_code == 200
    base = r.json()["base"]
    parsed = urlparse(base)
    assert parsed.hostname == "127.0.0.1" and parsed.port not in (urlparse(stack.api).port, urlparse(stack.s3).port)
    return base


def witness_events(http, base: str, prefix: str) -> list[dict]:
    r = http.get(f"{base}/events", timeout=TIMEOUT)
    assert r.status_code == 200
    return [e for e in r.json() if e["path"].startswith(prefix)]


def stored(http, stack, key: str) -> dict:
    r = http.get(f"{stack.api}/test-hooks/object", params={"key": key}, timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    return r.json()


# ---------------------------------------------------------------- redirects


def test_x_test_redirect_answers_the_redirect_without_reading_the_body(http, stack):
    r = http.post(
        f"{stack.api}/upload-model", data=b"x" * 1000, allow_redirects=False, timeout=TIMEOUT,
        headers={**stack.auth, "X-Test-Redirect": "307 http://127.0.0.1:9/elsewhere", "User-Agent": "probe/1"},
    )
    assert r.status_code == 307
    assert r.headers["location"] == "http://127.0.0.1:9/elsewhere"
    event = [e for e in http.get(f"{stack.api}/test-hooks/events", timeout=TIMEOUT).json() if e["kind"] == "redirect"][-1]
    assert event["path"] == "/upload-model" and event["hasAuthorization"] is True
    assert event["userAgent"] == "probe/1"
    assert event["bytesReceived"] == 0


def test_x_test_redirect_can_read_the_body_first_and_a_redirected_request_goes_through(http, stack):
    r = http.post(
        f"{stack.api}/presigned-urls", json={"items": [item()]}, allow_redirects=False, timeout=TIMEOUT,
        headers={**stack.auth, "X-Test-Redirect": "308 /presigned-urls?redirected=1", "X-Test-Redirect-Read": "1"},
    )
    assert r.status_code == 308 and r.headers["location"] == "/presigned-urls?redirected=1"
    event = [e for e in http.get(f"{stack.api}/test-hooks/events", timeout=TIMEOUT).json() if e["kind"] == "redirect"][-1]
    assert event["bytesReceived"] > 0
    # Following it by hand: the same origin, the same body and token.
    again = http.post(
        f"{stack.api}/presigned-urls?redirected=1", json={"items": [item()]}, timeout=TIMEOUT,
        headers={**stack.auth, "X-Test-Redirect": "308 /presigned-urls?redirected=1"},
    )
    assert again.status_code == 200 and len(again.json()["items"]) == 1
    # Both answers are on record (each by the instance that answered), with when it arrived and was answered.
    answers = [a for base in stack.instances for a in http.get(f"{base}/test-hooks/answers", timeout=TIMEOUT).json()]
    answers = sorted(answers, key=lambda a: a["arrived"])[-2:]
    assert [(a["path"], a["redirected"], a["status"]) for a in answers] == [
        ("/presigned-urls", False, 308), ("/presigned-urls", True, 200)
    ]
    assert all(a["arrived"] <= a["answered"] for a in answers)


def test_a_storage_url_that_redirects(http, stack):
    items = [item(media_type="archive")]
    r = presign(http, stack, items, {"X-Test-Put-Via": f"0 {stack.api}/test-hooks/redirect?status=307&read=1"})
    url = r.json()["items"][0]["uploadURL"]
    assert url.startswith(f"{stack.api}/test-hooks/redirect?status=307&read=1&target=")
    put = requests.put(url, data=b"y" * 5000, headers={"Content-Type": "image/jpeg"}, allow_redirects=False,
                       timeout=TIMEOUT)
    assert put.status_code == 307
    assert put.headers["location"].startswith(stack.s3)
    event = events_by_id(http, stack)[hook_id(url)]
    assert event["kind"] == "redirect" and event["bytesReceived"] == 5000
    # The target is the real presigned URL: a PUT there stores the object.
    data = os.urandom(4321)
    assert requests.put(put.headers["location"], data=data, headers={"Content-Type": "image/jpeg"},
                        timeout=TIMEOUT).status_code == 200
    assert stored(http, stack, r.json()["items"][0]["key"])["sha256"] == hashlib.sha256(data).hexdigest()


def test_the_redirect_hook_wants_a_3xx(http, stack):
    r = http.put(f"{stack.api}/test-hooks/redirect?status=200&target=x", data=b"", timeout=TIMEOUT)
    assert r.status_code == 400


def test_put_via_rejects_nonsense(http, stack):
    for header in ["x http://a", "5 http://a", "0 ftp://a"]:
        assert presign(http, stack, [item()], {"X-Test-Put-Via": header}).status_code == 400


# ---------------------------------------------------------------- echoed credentials


def test_the_echo_hook_quotes_the_authorization_header_after_its_padding(http, stack):
    r = http.post(f"{stack.api}/test-hooks/echo-authorization/json/3/upload-model", data=b"abc",
                  headers={"Authorization": "Bearer s3cr3t"}, timeout=TIMEOUT)
    assert r.status_code == 400
    assert r.json() == {"success": False, "message": "xxx rejected the credentials you sent: Bearer s3cr3t (try again)"}
    r = http.put(f"{stack.api}/test-hooks/echo-authorization/text/0/presigned-urls",
                 headers={"Authorization": "Bearer s3cr3t"}, timeout=TIMEOUT)
    assert r.headers["content-type"].startswith("text/plain")
    assert r.text == " rejected the credentials you sent: Bearer s3cr3t (try again)"


# ---------------------------------------------------------------- the witness (a second origin)


def test_the_witness_records_what_reaches_it_without_the_secret(http, stack):
    base = witness(http, stack)
    path = f"/anything-{uuid.uuid4()}"
    r = http.post(f"{base}{path}", data=b"z" * 777, headers={"Authorization": "Bearer never-stored"},
                  timeout=TIMEOUT)
    assert r.status_code == 200 and r.json() == {"witness": True}
    [event] = witness_events(http, base, path)
    assert event["hasAuthorization"] is True and event["bytesReceived"] == 777 and event["method"] == "POST"
    assert "never-stored" not in str(http.get(f"{base}/events", timeout=TIMEOUT).text)


def test_flaky_storage_fails_first_then_forwards_to_s3(http, stack):
    base = witness(http, stack)
    key = f"k-{uuid.uuid4()}"
    items = [item(media_type="archive")]
    r = presign(http, stack, items, {"X-Test-Put-Via": f"0 {base}/flaky/{key}?fail=2&kind=slowdown"})
    url = r.json()["items"][0]["uploadURL"]
    data = os.urandom(100_000)
    answers = [requests.put(url, data=data, headers={"Content-Type": "image/jpeg"}, timeout=TIMEOUT) for _ in range(3)]
    assert [a.status_code for a in answers] == [503, 503, 200]
    assert "<Code>SlowDown</Code>" in answers[0].text
    assert answers[2].headers["ETag"] == f'"{hashlib.md5(data).hexdigest()}"'
    events = witness_events(http, base, f"/flaky/{key}")
    assert [e["outcome"] for e in events] == ["slowdown", "slowdown", "forwarded:200"]
    assert [e["attempt"] for e in events] == [1, 2, 3]
    assert stored(http, stack, r.json()["items"][0]["key"])["sha256"] == hashlib.sha256(data).hexdigest()


def test_flaky_storage_can_answer_500_or_reset_the_connection(http, stack):
    base = witness(http, stack)
    key = f"e-{uuid.uuid4()}"
    r = requests.put(f"{base}/flaky/{key}?fail=1&kind=error&target={quote('http://127.0.0.1:9/x', safe='')}",
                     data=b"a", timeout=TIMEOUT)
    assert r.status_code == 500 and "<Code>InternalError</Code>" in r.text

    key = f"r-{uuid.uuid4()}"
    parsed = urlparse(base)
    body = b"b" * 500_000
    with socket.create_connection((parsed.hostname, parsed.port), timeout=TIMEOUT) as connection:
        connection.sendall(
            f"PUT /flaky/{key}?fail=1&kind=reset HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n".encode())
        try:
            connection.sendall(body)
            answer = connection.recv(1024)
        except (ConnectionResetError, BrokenPipeError):
            answer = b""
        assert answer == b"", "no response, only a reset"
    [event] = witness_events(http, base, f"/flaky/{key}")
    assert event["outcome"] == "reset" and event["bytesReceived"] <= 64 * 1024


def test_multipart_through_a_same_origin_redirect_still_uploads(http, stack):
    body, content_type = multipart_body('filename="m.usdz"', data=b"model-bytes")
    r = http.post(f"{stack.api}/upload-model?redirected=1", data=body, timeout=TIMEOUT,
                  headers={**stack.auth, "Content-Type": content_type, "X-Test-Redirect": "307 /upload-model?redirected=1"})
    assert r.status_code == 200 and r.json()["size"] == len(b"model-bytes")

"""Fixtures: spawn run_stack.py as a subprocess and talk to it over 127.0.0.1.

The shared `stack` runs every test that uses it twice: against one instance, and against three instances behind
run_stack.py's round-robin proxy, where each request of the `http` session opens a new connection and so reaches
the next instance."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

import boto3
import pytest
import requests
from botocore.config import Config

BACKEND_DIR = Path(__file__).resolve().parent.parent
RUN_STACK = BACKEND_DIR / "run_stack.py"
READY_TIMEOUT = 25.0  # run_stack itself gives up after 15 s


class Stack:
    def __init__(self, proc: subprocess.Popen, info: dict, log_path: Path) -> None:
        self.proc = proc
        self.info = info
        self.log_path = log_path
        self.api: str = info["api"]
        self.s3: str = info["s3"]
        self.token: str = info["token"]
        self.bucket: str = info["bucket"]
        self.instances: list[str] = info["instances"]
        self.s3_client = boto3.client(
            "s3", endpoint_url=self.s3, region_name="us-east-1", aws_access_key_id="testing",
            aws_secret_access_key="testing",
            config=Config(s3={"addressing_style": "path"}, request_checksum_calculation="when_required",
                          response_checksum_validation="when_required"),
        )

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def stored(self, key: str) -> bytes:
        """The object's bytes, straight from S3."""
        return self.s3_client.get_object(Bucket=self.bucket, Key=key)["Body"].read()

    def keys(self, prefix: str = "") -> set[str]:
        pages = self.s3_client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix)
        return {item["Key"] for page in pages for item in page.get("Contents", [])}

    def multipart_uploads(self) -> list[str]:
        """Keys of the multipart uploads S3 still holds parts for."""
        return [u["Key"] for u in self.s3_client.list_multipart_uploads(Bucket=self.bucket).get("Uploads", [])]

    def command(self, line: str, timeout: float = 30.0) -> dict:
        """Sends run_stack.py a command on its stdin and returns its one-line JSON answer."""
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        answer = _read_line(self.proc, timeout)
        assert answer.endswith(b"\n"), f"no answer to {line!r}: {answer!r}\n{self.log()}"
        return json.loads(answer)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def close_stdin_and_wait(self, timeout: float = 10.0) -> int:
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)
            raise AssertionError(f"run_stack did not exit within {timeout}s after stdin EOF\n{self.log()}")


def _read_line(proc: subprocess.Popen, timeout: float) -> bytes:
    """Read one line from proc.stdout without ever blocking past `timeout`."""
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    buf = b""
    deadline = time.monotonic() + timeout
    try:
        while b"\n" not in buf:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            if not sel.select(timeout=remaining):
                continue
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            buf += chunk
    finally:
        sel.close()
    return buf


def start_stack(log_path: Path, *args: str, env: dict[str, str] | None = None) -> Stack:
    full_env = dict(os.environ)
    full_env.pop("BACKEND_API_TOKEN", None)
    full_env.pop("BACKEND_TEST_HOOKS", None)
    if env:
        full_env.update(env)
    log = open(log_path, "wb")
    proc = subprocess.Popen(
        [sys.executable, str(RUN_STACK), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=log,
        env=full_env,
    )
    log.close()
    line = _read_line(proc, READY_TIMEOUT)
    if not line.endswith(b"\n"):
        proc.kill()
        proc.wait(timeout=5)
        raise AssertionError(f"run_stack printed no JSON line: {line!r}\n{log_path.read_text(errors='replace')}")
    info = json.loads(line)
    assert set(info) == {"api", "s3", "bucket", "token", "instances"}
    return Stack(proc, info, log_path)


@pytest.fixture(scope="session", params=[1, 3], ids=["1-instance", "3-instances"])
def stack(request, tmp_path_factory):
    log_path = tmp_path_factory.mktemp("logs") / "run_stack.log"
    s = start_stack(log_path, "--test-hooks", "--instances", str(request.param))
    try:
        yield s
    finally:
        rc = s.close_stdin_and_wait()
        rest = s.proc.stdout.read()
        s.proc.stdout.close()
        assert rc == 0, s.log()
        assert rest == b"", f"run_stack printed more than one line on stdout: {rest!r}"
        assert s.token not in s.log(), "token leaked into run_stack's stderr"


@pytest.fixture(scope="session")
def http():
    session = requests.Session()
    session.trust_env = False  # never route 127.0.0.1 through a proxy
    # A new connection per request: behind the round-robin proxy, consecutive requests reach different instances.
    session.headers["Connection"] = "close"
    yield session
    session.close()

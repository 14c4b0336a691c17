"""Fixtures: spawn run_stack.py as a subprocess and talk to it over 127.0.0.1."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

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
        self.upload_dir = Path(info["uploadDir"])

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

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
    assert set(info) == {"api", "s3", "bucket", "token", "uploadDir"}
    return Stack(proc, info, log_path)


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory) -> Path:
    """A folder whose nested uploads dir lets us see escapes into parents."""
    return tmp_path_factory.mktemp("sandbox")


@pytest.fixture(scope="session")
def stack(sandbox, tmp_path_factory):
    upload_dir = sandbox / "a" / "b" / "uploads"
    log_path = tmp_path_factory.mktemp("logs") / "run_stack.log"
    s = start_stack(log_path, "--test-hooks", "--upload-dir", str(upload_dir))
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
    yield session
    session.close()

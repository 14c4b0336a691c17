"""The child processes of run_stack.py: started in their own session (they die with it, even on SIGKILL), polled
until they answer, stopped with SIGTERM then SIGKILL.

    child = Child("moto_server", spawn(command, env), "http://127.0.0.1:P/moto-api/")
    child.wait_ready(deadline)          # StackError if it exits or does not answer in time
    stop_children([child])
"""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
HOST = "127.0.0.1"


class Stop(Exception):
    """Raised from signal handlers to unwind into cleanup."""


class StackError(Exception):
    """A child died or did not come up; the message says which."""


def eprint(*args: object) -> None:
    print("[run_stack]", *args, file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _pdeathsig() -> None:  # runs in the child between fork and exec (Linux only)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: die with us even on SIGKILL
    except Exception:
        pass


def spawn(cmd: list[str], env: dict[str, str]) -> subprocess.Popen:
    kwargs: dict = dict(
        stdin=subprocess.DEVNULL,
        stdout=sys.stderr.fileno(),  # never pollute our stdout (the JSON lines)
        stderr=sys.stderr.fileno(),
        env=env,
        cwd=str(HERE),
        start_new_session=True,  # we alone decide when they stop (no tty SIGINT)
    )
    if sys.platform.startswith("linux"):
        kwargs["preexec_fn"] = _pdeathsig
    return subprocess.Popen(cmd, **kwargs)


_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http_ok(url: str) -> bool:
    try:
        with _opener.open(url, timeout=1.0) as resp:
            return 200 <= resp.status < 300
    except (urllib.error.URLError, OSError, ValueError):
        return False


class Child:
    def __init__(self, name: str, process: subprocess.Popen, ready_url: str) -> None:
        self.name = name
        self.process = process
        self.ready_url = ready_url
        self.ready = False
        # Stopped on purpose (the `kill` command): its exit is not a failure.
        self.down = False

    def check_ready(self) -> bool:
        self.ready = self.ready or http_ok(self.ready_url)
        return self.ready

    def wait_ready(self, deadline: float) -> None:
        while not self.check_ready():
            if self.process.poll() is not None:
                raise StackError(f"{self.name} exited with code {self.process.returncode} while starting")
            if time.monotonic() >= deadline:
                raise StackError(f"{self.name} did not answer in time")
            time.sleep(0.1)


def stop_children(children: list[Child]) -> None:
    for child in children:
        if child.process.poll() is None:
            try:
                child.process.terminate()
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + 5.0
    for child in children:
        try:
            child.process.wait(timeout=max(0.05, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.process.kill()
            try:
                child.process.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                eprint(f"child {child.process.pid} did not exit after SIGKILL")


def watch_stdin(fd: int | None, children: Callable[[], list[Child]], on_line: Callable[[str], None]) -> None:
    """Runs until stdin reaches EOF (returns) or a child dies on its own (StackError); each line read is a
    command for `on_line`. With `fd` None, only watches the children."""
    pending = b""
    while True:
        for child in children():
            if not child.down and child.process.poll() is not None:
                raise StackError(f"{child.name} exited unexpectedly with code {child.process.returncode}")
        if fd is None:
            time.sleep(0.5)
            continue
        readable, _, _ = select.select([fd], [], [], 0.5)
        if not readable:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b""
        if not data:
            eprint("stdin closed, shutting down")
            return
        pending += data
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            if line.strip():
                on_line(line.decode("utf-8", "replace").strip())

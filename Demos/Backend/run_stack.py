#!/usr/bin/env python3
"""Start the local backend stack: moto (S3) + uvicorn app:app, on free ports.

Prints exactly one JSON line to stdout once both are ready:

    {"api": "http://127.0.0.1:P1", "s3": "http://127.0.0.1:P2",
     "bucket": "media", "token": "...", "uploadDir": "..."}

then stays alive until stdin reaches EOF (parent closed it or died) or it
receives SIGTERM/SIGINT; then it stops both children and exits 0.
Children's output goes to stderr. A child that exits while starting (e.g. its
port was taken after it was chosen) -> both start again on other ports, at
most 3 attempts in all. Readiness failure -> message on stderr, exit 1. A
child dying on its own afterwards -> exit 1.

Options:
  --test-hooks        set BACKEND_TEST_HOOKS=1 for the app
  --upload-dir DIR    use DIR for model uploads (default: a fresh temp dir,
                      removed again on exit)
  --no-stdin-watch    ignore stdin (stop only on SIGTERM/SIGINT); handy when
                      running in the background with stdin at /dev/null
  --timeout SECONDS   readiness budget (default 15)
  --api-port PORT     serve the API on this 127.0.0.1 port (default: a free one), e.g. to
                      restart it where its clients expect it

Environment: BACKEND_API_TOKEN (else a random token is generated), S3_BUCKET,
S3_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, PRESIGN_EXPIRES_SECONDS,
MAX_UPLOAD_BYTES, RESUMABLE_MAX_APPEND_BYTES, RESUMABLE_MAX_AGE_SECONDS
are passed through to the app.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
HOST = "127.0.0.1"


class Stop(Exception):
    """Raised from signal handlers to unwind into cleanup."""


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
        stdout=sys.stderr.fileno(),  # never pollute our stdout (the JSON line)
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


def stop_children(children: list[subprocess.Popen]) -> None:
    for p in children:
        if p.poll() is None:
            try:
                p.terminate()
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + 5.0
    for p in children:
        try:
            p.wait(timeout=max(0.05, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            try:
                p.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                eprint(f"child {p.pid} did not exit after SIGKILL")


START_ATTEMPTS = 3


def wait_until_ready(
    moto: subprocess.Popen, api: subprocess.Popen, s3_url: str, api_url: str, deadline: float, budget: float
) -> str | None:
    """Polls both children until they answer; returns the name of one that exited first, or None once both are up.

    Not ready by `deadline`: a message and SystemExit(1).
    """
    moto_ready = api_ready = False
    while True:
        for p, name in ((moto, "moto_server"), (api, "uvicorn")):
            if p.poll() is not None:
                return f"{name} (code {p.returncode})"
        moto_ready = moto_ready or http_ok(f"{s3_url}/moto-api/")
        api_ready = moto_ready and (api_ready or http_ok(f"{api_url}/healthz"))
        if moto_ready and api_ready:
            return None
        if time.monotonic() >= deadline:
            eprint(f"stack not ready within {budget:.0f}s (moto ready: {moto_ready}, api ready: {api_ready})")
            raise SystemExit(1)
        time.sleep(0.1)


def moto_command(port: int) -> list[str]:
    # The interpreter running this script (the project's .venv), never a moto_server that happens to be on PATH.
    return [sys.executable, "-m", "moto.server", "-H", HOST, "-p", str(port)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--test-hooks", action="store_true")
    ap.add_argument("--upload-dir")
    ap.add_argument("--no-stdin-watch", action="store_true")
    ap.add_argument("--timeout", type=float, default=15.0)
    ap.add_argument("--api-port", type=int, default=0)
    args = ap.parse_args(argv)

    def on_signal(signum, _frame):
        raise Stop(signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    token = os.environ.get("BACKEND_API_TOKEN") or secrets.token_urlsafe(32)
    bucket = os.environ.get("S3_BUCKET") or "media"
    created_upload_dir = None
    if args.upload_dir:
        upload_dir = Path(args.upload_dir).expanduser().resolve()
        upload_dir.mkdir(parents=True, exist_ok=True)
    else:
        upload_dir = Path(tempfile.mkdtemp(prefix="backend-uploads-")).resolve()
        created_upload_dir = upload_dir

    base_env = dict(os.environ)
    no_proxy = ",".join(x for x in (base_env.get("NO_PROXY", ""), "127.0.0.1,localhost") if x)
    base_env.update(NO_PROXY=no_proxy, no_proxy=no_proxy, PYTHONUNBUFFERED="1")
    base_env.setdefault("AWS_ACCESS_KEY_ID", "testing")
    base_env.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
    moto_env = dict(base_env)
    moto_env.pop("BACKEND_API_TOKEN", None)  # moto has no business with it

    children: list[subprocess.Popen] = []
    code = 0
    try:
        deadline = time.monotonic() + args.timeout
        for attempt in range(1, START_ATTEMPTS + 1):
            api_port, s3_port = args.api_port or free_port(), free_port()
            while s3_port == api_port:
                s3_port = free_port()
            api_url, s3_url = f"http://{HOST}:{api_port}", f"http://{HOST}:{s3_port}"
            app_env = dict(base_env)
            app_env.update(
                BACKEND_API_TOKEN=token,
                S3_ENDPOINT_URL=s3_url,
                S3_BUCKET=bucket,
                UPLOAD_DIR=str(upload_dir),
            )
            if args.test_hooks:
                app_env["BACKEND_TEST_HOOKS"] = "1"
            else:
                app_env.pop("BACKEND_TEST_HOOKS", None)

            moto = spawn(moto_command(s3_port), moto_env)
            api = spawn(
                [
                    sys.executable, "-m", "uvicorn", "app:app",
                    "--app-dir", str(HERE), "--host", HOST, "--port", str(api_port),
                    "--log-level", "warning", "--no-access-log",
                    # uvicorn's h11 protocol plus 104 responses and the drop hook (http_protocol.py).
                    "--http", "http_protocol:ExtendedH11Protocol",
                    "--timeout-graceful-shutdown", "2",
                ],
                app_env,
            )
            children = [moto, api]
            exited = wait_until_ready(moto, api, s3_url, api_url, deadline, args.timeout)
            if exited is None:
                break
            # A port chosen free can be taken before the child binds it (the kernel hands the same range to every
            # outgoing connection on the machine): start again on other ports, a bounded number of times.
            stop_children(children)
            children = []
            if attempt == START_ATTEMPTS or time.monotonic() >= deadline:
                eprint(f"{exited} exited early (attempt {attempt} of {START_ATTEMPTS})")
                raise SystemExit(1)
            eprint(f"{exited} exited early (attempt {attempt} of {START_ATTEMPTS}); starting again on other ports")

        line = json.dumps(
            {"api": api_url, "s3": s3_url, "bucket": bucket, "token": token, "uploadDir": str(upload_dir)}
        )
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
        eprint(f"ready: api {api_url}, s3 {s3_url}, uploads in {upload_dir}")

        stdin_fd = None if args.no_stdin_watch else sys.stdin.fileno()
        while True:
            for p, name in ((moto, "moto_server"), (api, "uvicorn")):
                if p.poll() is not None:
                    eprint(f"{name} exited unexpectedly with code {p.returncode}")
                    raise SystemExit(1)
            if stdin_fd is None:
                time.sleep(0.5)
                continue
            readable, _, _ = select.select([stdin_fd], [], [], 0.5)
            if readable:
                try:
                    data = os.read(stdin_fd, 4096)
                except OSError:
                    data = b""
                if not data:
                    eprint("stdin closed, shutting down")
                    break
    except Stop as stop:
        eprint(f"signal {stop.args[0]} received, shutting down")
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    except BrokenPipeError:
        code = 1
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        stop_children(children)
        if created_upload_dir is not None:
            shutil.rmtree(created_upload_dir, ignore_errors=True)
    return code


if __name__ == "__main__":
    sys.exit(main())

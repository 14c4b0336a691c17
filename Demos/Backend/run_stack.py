#!/usr/bin/env python3
"""Start the local backend stack on free 127.0.0.1 ports: moto (S3) and uvicorn app:app, or with
``--instances N`` N app instances behind a round-robin proxy (round_robin_proxy.py), all on the same S3.

Prints exactly one JSON line to stdout once everything answers:

    {"api": "http://127.0.0.1:P1", "s3": "http://127.0.0.1:P2", "bucket": "media", "token": "...",
     "instances": ["http://127.0.0.1:P1"]}

``api`` is the one instance (N=1) or the proxy (N>1); ``instances`` lists each instance's own URL.
Then it stays alive until stdin reaches EOF (parent closed it or died) or it receives SIGTERM/SIGINT; then it
stops every child and exits 0. Children's output goes to stderr. A child that exits while starting (e.g. its
port was taken after it was chosen) -> everything starts again on other ports, at most 3 attempts in all.
Readiness failure -> message on stderr, exit 1. A child dying on its own afterwards -> exit 1.

Commands on stdin, one per line, each answered by one JSON line on stdout once done:
  kill I          SIGKILL instance I (0-based), as a crash would; it stays down until a restart
                  -> {"ok": "kill I"}
  freeze I        SIGSTOP instance I: starved of CPU until `thaw I` (SIGCONT) -> {"ok": "freeze I"}
  restart [I]     stop instance I (every instance without I; SIGTERM) and start it again on its port
                  -> {"ok": "restart", "instances": [...]}

Options:
  --instances N       app instances (default 1); N > 1 puts the round-robin proxy in front
  --test-hooks        set BACKEND_TEST_HOOKS=1 for the app
  --no-stdin-watch    ignore stdin (stop only on SIGTERM/SIGINT); handy when
                      running in the background with stdin at /dev/null
  --timeout SECONDS   readiness budget (default 15)
  --api-port PORT     serve the API (the instance, or the proxy) on this 127.0.0.1 port (default: a free one),
                      e.g. to restart the stack where its clients expect it

Environment: BACKEND_API_TOKEN (else a random token is generated), S3_BUCKET, S3_REGION, AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY, S3_PART_BYTES, PRESIGN_EXPIRES_SECONDS, MAX_UPLOAD_BYTES, RESUMABLE_MAX_APPEND_BYTES,
RESUMABLE_MAX_AGE_SECONDS, RESUMABLE_LEASE_SECONDS, RESUMABLE_SWEEP_SECONDS are passed through to the app.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import sys
import time

from stack_processes import HERE, HOST, Child, StackError, Stop, eprint, free_port, spawn, stop_children, watch_stdin

START_ATTEMPTS = 3


def moto_command(port: int) -> list[str]:
    # The interpreter running this script (the project's .venv), never a moto_server that happens to be on PATH.
    return [sys.executable, "-m", "moto.server", "-H", HOST, "-p", str(port)]


def api_command(port: int) -> list[str]:
    return [
        sys.executable, "-m", "uvicorn", "app:app", "--app-dir", str(HERE), "--host", HOST, "--port", str(port),
        "--log-level", "warning", "--no-access-log",
        # uvicorn's h11 protocol plus 104 responses and the drop hook (http_protocol.py).
        "--http", "http_protocol:ExtendedH11Protocol",
        "--timeout-graceful-shutdown", "2",
    ]


class Stack:
    """The children of one attempt: moto, the instances, the proxy (N > 1)."""

    def __init__(self, args: argparse.Namespace, token: str, bucket: str, base_env: dict[str, str]) -> None:
        self.args, self.token, self.bucket, self.base_env = args, token, bucket, base_env
        count = args.instances
        taken: set[int] = set()

        def pick(fixed: int = 0) -> int:
            port = fixed or free_port()
            while port in taken:
                port = free_port()
            taken.add(port)
            return port

        self.api_port = pick(args.api_port)
        self.s3_port = pick()
        self.instance_ports = [self.api_port] if count == 1 else [pick() for _ in range(count)]
        self.s3_url = f"http://{HOST}:{self.s3_port}"
        self.api_url = f"http://{HOST}:{self.api_port}"
        self.instance_urls = [f"http://{HOST}:{p}" for p in self.instance_ports]
        self.moto: Child | None = None
        self.instances: list[Child] = []
        self.proxy: Child | None = None

    def children(self) -> list[Child]:
        return [c for c in [self.moto, *self.instances, self.proxy] if c is not None]

    def instance_env(self, index: int) -> dict[str, str]:
        env = dict(self.base_env)
        env.update(
            BACKEND_API_TOKEN=self.token, S3_ENDPOINT_URL=self.s3_url, S3_BUCKET=self.bucket,
            BACKEND_INSTANCE_NAME=f"api-{index}", BACKEND_INSTANCE_INDEX=str(index),
            BACKEND_INSTANCES=",".join(self.instance_urls),
        )
        if self.args.test_hooks:
            env["BACKEND_TEST_HOOKS"] = "1"
        else:
            env.pop("BACKEND_TEST_HOOKS", None)
        return env

    def start_instance(self, index: int) -> Child:
        name = "uvicorn" if len(self.instance_ports) == 1 else f"uvicorn api-{index}"
        port = self.instance_ports[index]
        return Child(name, spawn(api_command(port), self.instance_env(index)), f"{self.instance_urls[index]}/healthz")

    def start(self) -> None:
        moto_env = dict(self.base_env)
        moto_env.pop("BACKEND_API_TOKEN", None)  # moto has no business with it
        # moto keeps an object in memory up to 5 MB - 1 KB and spools a larger one to a temporary file. On this VM a
        # file write can wait on the disk for tens of seconds when builds flush beside the tests (/proc/pressure/io
        # "full"), and a captured 5 MB PUT waited 29.8 s for moto's answer. Objects up to 256 MB stay in memory.
        moto_env.setdefault("MOTO_S3_DEFAULT_KEY_BUFFER_SIZE", str(256 * 1024 * 1024))
        self.moto = Child("moto_server", spawn(moto_command(self.s3_port), moto_env), f"{self.s3_url}/moto-api/")
        self.instances = [self.start_instance(i) for i in range(len(self.instance_ports))]
        if len(self.instance_ports) > 1:
            command = [sys.executable, "round_robin_proxy.py", "--listen", str(self.api_port)]
            for port in self.instance_ports:
                command += ["--backend", f"{HOST}:{port}"]
            self.proxy = Child("proxy", spawn(command, self.base_env), f"{self.api_url}/healthz")

    def ready_line(self) -> str:
        return json.dumps({"api": self.api_url, "s3": self.s3_url, "bucket": self.bucket, "token": self.token,
                           "instances": self.instance_urls})

    # ------------------------------------------------------------------ commands

    def command(self, line: str, deadline_seconds: float) -> dict:
        words = line.split()
        if not words:
            return {"error": "empty command"}
        name, rest = words[0], words[1:]
        try:
            indices = [int(w) for w in rest]
        except ValueError:
            return {"error": f"{line!r}: an instance is a number"}
        if any(not 0 <= i < len(self.instances) for i in indices):
            return {"error": f"{line!r}: instances are 0..{len(self.instances) - 1}"}
        if name in ("freeze", "thaw") and len(indices) == 1:
            # SIGSTOP/SIGCONT: an instance starved of CPU for as long as it stays frozen.
            self.instances[indices[0]].process.send_signal(signal.SIGSTOP if name == "freeze" else signal.SIGCONT)
            return {"ok": line}
        if name == "kill" and len(indices) == 1:
            child = self.instances[indices[0]]
            child.down = True
            child.process.kill()
            child.process.wait(timeout=10)
            return {"ok": line}
        if name == "restart" and len(indices) <= 1:
            chosen = indices or list(range(len(self.instances)))
            stop_children([self.instances[i] for i in chosen])
            for i in chosen:
                self.instances[i] = self.start_instance(i)
            deadline = time.monotonic() + deadline_seconds
            for i in chosen:
                self.instances[i].wait_ready(deadline)
            return {"ok": "restart", "instances": [self.instance_urls[i] for i in chosen]}
        return {"error": f"unknown command {line!r} (kill I, freeze I, thaw I, restart [I])"}


def wait_until_ready(stack: Stack, deadline: float, budget: float) -> str | None:
    """Polls every child until it answers; returns the name of one that exited first, or None once all are up.
    Not ready by `deadline`: a message and SystemExit(1)."""
    while True:
        for child in stack.children():
            if child.process.poll() is not None:
                return f"{child.name} (code {child.process.returncode})"
        # moto first: the instances' health checks need the bucket.
        pending = [c for c in stack.children() if not c.check_ready()]
        if not pending:
            return None
        if time.monotonic() >= deadline:
            eprint(f"stack not ready within {budget:.0f}s (waiting for: {', '.join(c.name for c in pending)})")
            raise SystemExit(1)
        time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--instances", type=int, default=1, choices=range(1, 17), metavar="N")
    ap.add_argument("--test-hooks", action="store_true")
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
    base_env = dict(os.environ)
    no_proxy = ",".join(x for x in (base_env.get("NO_PROXY", ""), "127.0.0.1,localhost") if x)
    base_env.update(NO_PROXY=no_proxy, no_proxy=no_proxy, PYTHONUNBUFFERED="1")
    base_env.setdefault("AWS_ACCESS_KEY_ID", "testing")
    base_env.setdefault("AWS_SECRET_ACCESS_KEY", "testing")

    stack: Stack | None = None
    code = 0
    try:
        deadline = time.monotonic() + args.timeout
        for attempt in range(1, START_ATTEMPTS + 1):
            stack = Stack(args, token, bucket, base_env)
            stack.start()
            exited = wait_until_ready(stack, deadline, args.timeout)
            if exited is None:
                break
            # A port chosen free can be taken before the child binds it (the kernel hands the same range to every
            # outgoing connection on the machine): start again on other ports, a bounded number of times.
            stop_children(stack.children())
            stack = None
            if attempt == START_ATTEMPTS or time.monotonic() >= deadline:
                eprint(f"{exited} exited early (attempt {attempt} of {START_ATTEMPTS})")
                raise SystemExit(1)
            eprint(f"{exited} exited early (attempt {attempt} of {START_ATTEMPTS}); starting again on other ports")

        assert stack is not None
        sys.stdout.write(stack.ready_line() + "\n")
        sys.stdout.flush()
        eprint(f"ready: api {stack.api_url} ({len(stack.instances)} instance(s)), s3 {stack.s3_url}")

        def answer(line: str) -> None:
            reply = stack.command(line, args.timeout)
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()

        watch_stdin(None if args.no_stdin_watch else sys.stdin.fileno(), stack.children, answer)
    except Stop as stop:
        eprint(f"signal {stop.args[0]} received, shutting down")
        code = 0
    except StackError as exc:
        eprint(str(exc))
        code = 1
    except SystemExit as exc:
        code = int(exc.code or 0)
    except BrokenPipeError:
        code = 1
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if stack is not None:
            stop_children(stack.children())
    return code


if __name__ == "__main__":
    sys.exit(main())

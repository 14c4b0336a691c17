#!/usr/bin/env python3
"""A small TCP load balancer on 127.0.0.1 for local use and tests: each new connection goes to the next backend in
turn (round robin); a backend that refuses the connection (stopped, restarting) is skipped for the next one. Bytes
pass through untouched (HTTP/1.1 keep-alive, 1xx responses, chunked bodies), and a connection reset on one side
is a reset on the other, as a load balancer in front of a dying instance shows it.

    python3 round_robin_proxy.py --listen 8000 --backend 127.0.0.1:8001 --backend 127.0.0.1:8002

Runs until SIGTERM/SIGINT. Logs one line per connection no backend would take.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import signal
import socket
import sys

HOST = "127.0.0.1"
CHUNK = 256 * 1024
CONNECT_TIMEOUT = 2.0


class RoundRobinProxy:
    def __init__(self, backends: list[tuple[str, int]]) -> None:
        self.backends = backends
        self._turn = itertools.cycle(range(len(backends)))

    async def handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        backend = await self._connect()
        if backend is None:
            print(f"[proxy] no backend took a connection ({len(self.backends)} tried)", file=sys.stderr, flush=True)
            client_writer.transport.abort()
            return
        backend_reader, backend_writer = backend
        for writer in (client_writer, backend_writer):
            sock = writer.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            await asyncio.gather(
                self._pipe(client_reader, backend_writer, client_writer),
                self._pipe(backend_reader, client_writer, backend_writer),
            )
        finally:
            for writer in (client_writer, backend_writer):
                writer.close()

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        for _ in range(len(self.backends)):
            host, port = self.backends[next(self._turn)]
            try:
                return await asyncio.wait_for(asyncio.open_connection(host, port, limit=CHUNK), CONNECT_TIMEOUT)
            except (OSError, asyncio.TimeoutError):
                continue
        return None

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, source: asyncio.StreamWriter) -> None:
        """Copies until end of stream (then half-closes), or until either side breaks (then resets both)."""
        try:
            while data := await reader.read(CHUNK):
                writer.write(data)
                await writer.drain()
            if writer.can_write_eof() and not writer.transport.is_closing():
                writer.write_eof()
        except (ConnectionError, OSError):
            writer.transport.abort()
            source.transport.abort()


async def serve(port: int, backends: list[tuple[str, int]]) -> None:
    proxy = RoundRobinProxy(backends)
    server = await asyncio.start_server(proxy.handle, HOST, port, limit=CHUNK, reuse_address=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    async with server:
        await stop.wait()


def parse_backend(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if host != HOST or not port.isdigit():
        raise argparse.ArgumentTypeError(f"a backend is {HOST}:PORT, not {text!r}")
    return host, int(port)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listen", type=int, required=True, help="port on 127.0.0.1")
    parser.add_argument("--backend", type=parse_backend, action="append", required=True, help="127.0.0.1:PORT")
    args = parser.parse_args(argv)
    asyncio.run(serve(args.listen, args.backend))
    return 0


if __name__ == "__main__":
    sys.exit(main())

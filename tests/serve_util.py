"""pedro serve in a background thread for tests: a free port, uvicorn started and stopped with the test."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import uvicorn

from pedro.serve.app import UpstreamSpec, create_app


def stop_listening(sock: socket.socket, accepting: threading.Thread) -> None:
    """Stop a raw test server: its accepting thread ends before the socket's descriptor is freed. A thread still
    between one accept and the next would otherwise take the connections of the next socket to get that number (the
    next test's server in the same worker)."""
    with suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)  # wakes a blocked accept
    accepting.join(5)
    sock.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving() -> Iterator[Any]:
    """A `start(upstream, model="m", **create_app options) -> port` that serves until the block ends."""
    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(upstream: str, model: str = "m", **options: Any) -> int:
        port = free_port()
        spec = UpstreamSpec(upstream, key=options.pop("upstream_key", None), breaker=options.pop("breaker", None))
        config = uvicorn.Config(create_app(spec, model=model, **options), host="127.0.0.1", port=port,
                                log_level="warning", lifespan="on")  # fmt: skip
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        servers.append((server, thread))
        return port

    try:
        yield start
    finally:
        for server, thread in servers:
            server.should_exit = True
            thread.join(timeout=5)

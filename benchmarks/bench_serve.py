"""pedro serve's cost: added latency per event against the upstream stream alone, and 50 concurrent streaming
clients (every event delivered, in order; memory after a second batch no higher than after the first)."""

from __future__ import annotations

import asyncio
import json
import resource
import socket
import statistics
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.routing import Route

from pedro.serve.app import create_app

CHUNKS = 400
CLIENTS = 50
RUNS = 7


def _fake_upstream() -> Starlette:
    """A chat server that streams CHUNKS text deltas as fast as it can."""

    async def chat(_request: Request) -> StreamingResponse:
        async def body() -> AsyncIterator[bytes]:
            for n in range(CHUNKS):
                chunk = {"choices": [{"index": 0, "delta": {"content": f"word{n} "}}]}
                yield b"data: " + json.dumps(chunk).encode() + b"\n\n"
            yield b"data: [DONE]\n\n"

        return StreamingResponse(body(), media_type="text/event-stream")

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(app: Starlette) -> tuple[uvicorn.Server, int]:
    port = _port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", access_log=False))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    return server, port


async def _read(client: httpx.AsyncClient, url: str, body: dict[str, Any]) -> list[str]:
    lines = []
    async with client.stream("POST", url, json=body) as reply:
        async for line in reply.aiter_lines():
            if line.startswith("data:"):
                lines.append(line[5:].strip())
    return lines


async def _timed(url: str, body: dict[str, Any]) -> tuple[float, int]:
    async with httpx.AsyncClient(timeout=60) as client:
        start = time.perf_counter()
        lines = await _read(client, url, body)
        return time.perf_counter() - start, len(lines)


async def _many(url: str) -> list[bool]:
    """CLIENTS streams at once; for each, whether every event came, numbered in order, ending with response.done."""
    async with httpx.AsyncClient(timeout=120, limits=httpx.Limits(max_connections=CLIENTS + 5)) as client:
        results = await asyncio.gather(
            *(_read(client, url, {"model": "m", "input": "x", "stream": True}) for _ in range(CLIENTS))
        )
    checks = []
    for lines in results:
        events = [json.loads(line) for line in lines]
        numbers = [event["sequence_number"] for event in events]
        deltas = sum(event["type"] == "response.output_text.delta" for event in events)
        checks.append(numbers == sorted(set(numbers)) and events[-1]["type"] == "response.done" and deltas > 0)
    return checks


def _rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run() -> dict[str, Any]:
    upstream, up_port = _start(_fake_upstream())
    proxy, proxy_port = _start(create_app(f"http://127.0.0.1:{up_port}/v1", model="m"))
    try:
        direct_url = f"http://127.0.0.1:{up_port}/v1/chat/completions"
        proxy_url = f"http://127.0.0.1:{proxy_port}/v1/responses"
        direct, proxied, events = [], [], 0
        for _ in range(RUNS):  # alternate, so a burst of load hits both alike
            seconds, _ = asyncio.run(_timed(direct_url, {"model": "m", "messages": [], "stream": True}))
            direct.append(seconds)
            seconds, events = asyncio.run(_timed(proxy_url, {"model": "m", "input": "x", "stream": True}))
            proxied.append(seconds)
        added_ms = (statistics.median(proxied) - statistics.median(direct)) * 1000 / CHUNKS
        first = asyncio.run(_many(proxy_url))
        rss_after_first = _rss_mib()
        second = asyncio.run(_many(proxy_url))
        rss_after_second = _rss_mib()
        return {
            "chunks": CHUNKS,
            "events_per_response": events,
            "direct_ms": round(statistics.median(direct) * 1000, 1),
            "proxied_ms": round(statistics.median(proxied) * 1000, 1),
            "added_ms_per_event": round(added_ms, 3),
            "concurrent_clients": CLIENTS,
            "concurrent_all_in_order": all(first) and all(second),
            "rss_growth_second_batch_mib": round(rss_after_second - rss_after_first, 1),
        }
    finally:
        proxy.should_exit = upstream.should_exit = True


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))

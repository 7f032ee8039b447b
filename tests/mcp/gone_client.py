"""A client of `pedro mcp --http` that starts a build and goes away without cancelling it: it prints "gone" once the
job's first round is reported and then waits to be killed; with `delete`, it first ends its session (HTTP DELETE), as
a client that closes cleanly does. `legacy` speaks the protocol's handshake era (initialize, a session), `auto` the
newest the server offers (no session: each call a request of its own).

Usage: python gone_client.py URL TOKEN auto|legacy keep|delete"""

from __future__ import annotations

import sys
from typing import Any

import anyio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def main(url: str, token: str, mode: Any, delete: bool) -> None:
    sent: dict[str, str] = {}

    async def remember(request: Any) -> None:  # the session's headers, as the SDK sends them
        sent.update(
            {k: v for k, v in request.headers.items() if k.lower() in ("mcp-session-id", "mcp-protocol-version")}
        )

    started = anyio.Event()

    async def progressed(_done: float, _total: float | None, message: str | None) -> None:
        if "round 1" in (message or ""):
            started.set()

    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
        Client(streamable_http_client(url, http_client=http, terminate_on_close=False), mode=mode) as client,
    ):
        http.event_hooks["request"].append(remember)

        async def build() -> None:
            try:
                await client.call_tool("build", {"description": "Loop"}, None, progressed)
            except Exception:  # noqa: BLE001 - a deleted session ends the call; this client is gone by then
                return

        async with anyio.create_task_group() as group:
            group.start_soon(build)
            await started.wait()
            if delete:
                deleted = await http.delete(url, headers=sent)
                assert deleted.status_code == 200, (deleted.status_code, sent)
            print("gone", flush=True)
            await anyio.sleep_forever()


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "delete")

"""A client of `pedro mcp` over stdio that starts a build and goes away without cancelling it: it prints "gone" once
the job's first round is reported and then waits to be killed, which closes pedro's stdin and stdout as a client that
dies does. pedro's stderr goes to ERRLOG.

Usage: python gone_stdio_client.py REPO BASE_URL ERRLOG"""

from __future__ import annotations

import os
import sys

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(repo: str, base_url: str, errlog: str) -> None:
    command = ["-m", "pedro", "mcp", "--repo", repo, "--backend", "openai", "--base-url", base_url, "--model", "m"]
    server = StdioServerParameters(command=sys.executable, args=command, env=dict(os.environ), cwd=repo)
    started = anyio.Event()

    async def progressed(_done: float, _total: float | None, message: str | None) -> None:
        if "round 1" in (message or ""):
            started.set()

    with open(errlog, "w", encoding="utf-8") as err:
        async with Client(stdio_client(server, errlog=err)) as client:

            async def build() -> None:
                await client.call_tool("build", {"description": "Loop"}, None, progressed)

            async with anyio.create_task_group() as group:
                group.start_soon(build)
                await started.wait()
                print("gone", flush=True)
                await anyio.sleep_forever()


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2], sys.argv[3])

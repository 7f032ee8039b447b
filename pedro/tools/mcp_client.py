"""pedro as an MCP client: the servers of [mcp.servers] started for one job, their tools offered as NAME__tool and
run through the same dispatcher (size checks, the policy, redaction) as pedro's own."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import fnmatch
import json
import os
import re
import threading
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, ClassVar, TextIO, cast

from pydantic import ConfigDict

from pedro.config import McpConfig, McpServerConfig
from pedro.effects import NONE, Effects, external
from pedro.tools.base import ToolArgs, ToolContext, ToolFailure, ToolTimeoutError

SEPARATOR = "__"
"""Between a server's name and its tool's: docs__search."""
_NAME_CHARS = re.compile(r"[^A-Za-z0-9_-]")
_MAX_NAME = 64  # the longest function name OpenAI-style servers accept
_FULL_DESCRIPTION = 1000
_SHORT_DESCRIPTION = 160


class McpArgs(ToolArgs):
    """An MCP tool's arguments: whatever the model gives, checked by the server against its own schema."""

    model_config = ConfigDict(extra="allow")


@dataclass
class _Server:
    """One configured server while the job runs: its client once connected, and whether it is still there."""

    name: str
    config: McpServerConfig
    client: Any = None
    stop: asyncio.Event | None = None
    task: asyncio.Task[None] | None = None
    scope: Any = None
    """The anyio cancel scope that holds its connection: cancelled, it ends a server that never finished starting."""
    gone: str = ""
    """Why the server is no longer there; empty while it is."""


@dataclass
class McpTool:
    """One tool of one server, as the agent sees it: its name NAME__tool, the server's schema and description."""

    name: str
    remote: str
    server: str
    description: str
    schema: dict[str, Any]
    read_only: bool
    hub: McpHub = field(repr=False)
    Args: ClassVar[type[ToolArgs]] = McpArgs

    @property
    def available(self) -> bool:
        """False once its server has stopped: the tool is offered no more."""
        return not self.hub.gone(self.server)

    def effects(self, args: Any) -> Effects:
        """Nothing pedro can see when the user vouched for the server (read_only); else anything, decided by the
        policy as a call to another program's tool."""
        return NONE if self.read_only else external(self.name)

    def run(self, args: Any, ctx: ToolContext) -> str:
        return self.hub.call(self.server, self.remote, args.model_dump())

    def spec(self, *, short: bool = False) -> dict[str, Any]:
        """The function definition the model sees: the server's schema and its description, cut to fit."""
        limit = _SHORT_DESCRIPTION if short else _FULL_DESCRIPTION
        text = self.description.strip().splitlines()[0] if short and self.description.strip() else self.description
        text = text.strip()
        description = text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
        parameters = self.schema if self.schema.get("type") == "object" else {"type": "object", "properties": {}}
        return {
            "type": "function",
            "function": {"name": self.name, "description": description, "parameters": parameters},
        }


class McpHub:
    """The MCP servers of one job: started together on a background event loop, called from the loop's thread,
    stopped when the job ends. A server that fails or stops is a notice, and its tools go; the job goes on."""

    def __init__(
        self,
        config: McpConfig,
        *,
        root: Path,
        notice: Callable[[str], None],
        log_dir: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.config = config
        self.root = root
        self.notice = notice
        self.log_dir = log_dir
        self.env = os.environ if env is None else env
        self._servers = {name: _Server(name, server) for name, server in config.servers.items()}
        self._logs: list[IO[str]] = []
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="pedro-mcp", daemon=True)
        self._thread.start()
        self._lock = threading.Lock()
        self.tools: list[McpTool] = []
        """The tools the job got (start's answer), for the registry."""

    # -- starting ---------------------------------------------------------------------------------------------------

    def start(self, role: str) -> list[McpTool]:
        """Start every server and list its tools; the tools `role` gets ([mcp].roles) within [mcp].prompt_tokens."""
        pending = {name: self._submit(self._open(server)) for name, server in self._servers.items()}
        tools: list[McpTool] = []
        for name, future in pending.items():
            try:
                listed = future.result(timeout=self.config.startup_timeout_s)
            except concurrent.futures.TimeoutError:
                future.cancel()
                self._end_starting(self._servers[name])
                self._drop(
                    name, f"it did not start within [mcp].startup_timeout_s ({self.config.startup_timeout_s:g} s)"
                )
                continue
            except Exception as exc:  # noqa: BLE001 - a server that cannot start is a notice, never the job's end
                self._drop(name, _describe(exc))
                continue
            tools.extend(self._tools(name, listed, {tool.name for tool in tools}))
        roles = {str(role): tools for role, tools in self.config.roles.items()}
        return self._within_budget([tool for tool in tools if _wanted(tool.name, roles.get(role))])

    def _tools(self, name: str, listed: list[Any], taken: set[str]) -> list[McpTool]:
        """The server's tools under names no other tool has: two whose names are the same once cut to the length
        servers accept get a number, and a notice says which name stands for which tool."""
        server = self._servers[name]
        out: list[McpTool] = []
        taken = set(taken)
        for tool in listed:
            plain = _exposed_name(name, tool.name)
            exposed = _unique(plain, taken)
            taken.add(exposed)
            if exposed != plain or len(name + SEPARATOR + tool.name) > _MAX_NAME:
                self.notice(f"MCP server {name}'s tool {tool.name!r} is offered to the model as {exposed}")
            schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
            out.append(McpTool(exposed, tool.name, name, tool.description or "", schema, server.config.read_only, self))
        return out

    def _within_budget(self, tools: list[McpTool]) -> list[McpTool]:
        """The tools whose descriptions fit [mcp].prompt_tokens, in order; the rest named in a notice."""
        from pedro.tokens import TokenLedger

        ledger, kept, left = TokenLedger(), list[McpTool](), list[str]()
        for tool in tools:
            if ledger.count([], [t.spec() for t in [*kept, tool]]) <= self.config.prompt_tokens:
                kept.append(tool)
            else:
                left.append(tool.name)
        if left:
            self.notice(
                f"MCP tools left out, since their descriptions would pass [mcp].prompt_tokens "
                f"({self.config.prompt_tokens}): {', '.join(left)}; raise it or list fewer tools in [mcp].roles"
            )
        return kept

    async def _open(self, server: _Server) -> list[Any]:
        """Connect in a task that holds the connection until the job ends (the SDK's contexts live in one task)."""
        ready: asyncio.Future[list[Any]] = self._loop.create_future()
        server.stop = asyncio.Event()
        server.task = asyncio.ensure_future(self._hold(server, ready))
        return await ready

    async def _hold(self, server: _Server, ready: asyncio.Future[list[Any]]) -> None:
        import anyio
        from mcp import Client

        try:
            # An anyio scope, not Task.cancel(): the SDK's shielded shutdown, which ends the process, holds only
            # against anyio's cancellation.
            with anyio.CancelScope() as server.scope:
                async with Client(self._transport(server), read_timeout_seconds=server.config.timeout_s) as client:
                    listed: list[Any] = []
                    cursor = None
                    while True:
                        page = await client.list_tools(cursor=cursor)
                        listed.extend(page.tools)
                        cursor = page.next_cursor
                        if not cursor:
                            break
                    server.client = client
                    ready.set_result(listed)
                    assert server.stop is not None
                    await server.stop.wait()
            if not ready.done():
                ready.set_exception(RuntimeError("stopped while it started"))
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else RuntimeError("stopped"))
            elif not isinstance(exc, asyncio.CancelledError):
                self._drop(server.name, _describe(exc))
            if isinstance(exc, asyncio.CancelledError):
                raise

    def _transport(self, server: _Server) -> Any:
        from mcp import StdioServerParameters

        config = server.config
        if config.command:
            return _stdio(
                StdioServerParameters(command=config.command, args=config.args, env=config.env, cwd=str(self.root)),
                self._log(server.name),
            )
        headers = {}
        for header, variable in config.headers_env.items():
            value = self.env.get(variable, "").strip()
            if not value:
                raise ToolFailure(f"its header {header} comes from ${variable}, which is not set; export {variable}")
            headers[header] = value
        return _http(config.url, headers)

    def _log(self, name: str) -> IO[str]:
        """Where a stdio server's stderr goes: the job's mcp-NAME.log (never the terminal or pedro's stdout)."""
        if self.log_dir is None:
            path = Path(os.devnull)
        else:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            path = self.log_dir / f"mcp-{name}.log"
        log = path.open("a", encoding="utf-8")
        self._logs.append(log)
        return log

    # -- calling ----------------------------------------------------------------------------------------------------

    def gone(self, name: str) -> bool:
        return bool(self._servers[name].gone)

    def call(self, name: str, tool: str, arguments: dict[str, Any]) -> str:
        """Call one tool and return its text; a failure the server reports, a timeout or a server that stopped is
        a ToolFailure for the model. Ctrl-C cancels the call and goes on up."""
        from mcp import MCPError
        from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT

        server = self._servers[name]
        if server.gone or server.client is None:
            raise ToolFailure(f"the MCP server {name} has stopped ({server.gone}); its tools are gone for this job")
        timeout = server.config.timeout_s
        future = self._submit(server.client.call_tool(tool, arguments, read_timeout_seconds=timeout))
        try:
            result = future.result(timeout=timeout + 5)
        except KeyboardInterrupt:
            future.cancel()
            raise
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise ToolTimeoutError(_no_answer(name, tool, timeout)) from None
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED:
                self._drop(name, "its connection closed")
                raise ToolFailure(
                    f"the MCP server {name} stopped during the call; its tools are gone for this job"
                ) from None
            if exc.code == REQUEST_TIMEOUT:
                raise ToolTimeoutError(_no_answer(name, tool, timeout)) from None
            raise ToolFailure(f"the MCP server {name} refused the call: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - the connection broke: the server is gone, the job goes on
            self._drop(name, _describe(exc))
            raise ToolFailure(
                f"the MCP server {name} stopped during the call; its tools are gone for this job"
            ) from None
        text = _text_of(result)
        if result.is_error:
            raise ToolFailure(text or f"{name}{SEPARATOR}{tool} failed without saying why")
        return text

    def _drop(self, name: str, why: str) -> None:
        server = self._servers[name]
        with self._lock:
            if server.gone:
                return
            server.gone = why
        self.notice(f"MCP server {name} is not available ({why}); its tools are left out and the job goes on")

    def _submit(self, coroutine: Any) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop)

    # -- stopping ---------------------------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop every server (its process, or its HTTP session) and the background loop."""
        for server in self._servers.values():
            server.gone = server.gone or "the job ended"
        if self._loop.is_running():
            try:
                self._submit(self._stop_all()).result(timeout=10)
            except Exception:  # noqa: BLE001 - stopping is best effort; the processes end with pedro regardless
                pass
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
        if not self._loop.is_running():
            self._loop.close()
        for log in self._logs:
            log.close()

    def _end_starting(self, server: _Server) -> None:
        """End a server dropped while it starts: its task still holds the process, which would outlive pedro."""
        if server.scope is not None:
            self._loop.call_soon_threadsafe(server.scope.cancel)

    async def _stop_all(self) -> None:
        tasks = []
        for server in self._servers.values():
            if server.stop is not None:
                server.stop.set()
            if server.scope is not None and server.client is None:
                server.scope.cancel()  # still starting, so never waiting on `stop`: the SDK ends its process
            if server.task is not None:
                tasks.append(server.task)
        if tasks:
            await asyncio.wait(tasks, timeout=8)


@contextlib.asynccontextmanager
async def _http(url: str, headers: dict[str, str]) -> AsyncIterator[Any]:
    """Streamable HTTP with the configured headers, its HTTP client closed with it."""
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with (
        create_mcp_http_client(headers=headers) as http,
        streamable_http_client(url, http_client=http) as streams,
    ):
        yield streams


def _stdio(parameters: Any, errlog: IO[str]) -> Any:
    from mcp.client.stdio import stdio_client

    return stdio_client(parameters, errlog=cast(TextIO, errlog))


def _exposed_name(server: str, tool: str) -> str:
    """NAME__tool in the characters and length every function-calling server accepts."""
    return (server + SEPARATOR + _NAME_CHARS.sub("_", tool))[:_MAX_NAME]


def _no_answer(server: str, tool: str, timeout: float) -> str:
    """What a call that outlived its time is: pedro stopped waiting; it cannot stop the other program's work."""
    return (
        f"{server}{SEPARATOR}{tool} did not answer within {timeout:g} s ([mcp.servers.{server}].timeout_s): pedro "
        "stopped waiting, but the server may still be running it and may still change things; check its effects "
        "before calling it again"
    )


def _unique(name: str, taken: set[str]) -> str:
    """`name`, or, when another tool has it, the same cut shorter and numbered (`…_2`) within the length limit."""
    number = 1
    found = name
    while found in taken:
        number += 1
        suffix = f"_{number}"
        found = name[: _MAX_NAME - len(suffix)] + suffix
    return found


def _wanted(name: str, patterns: list[str] | None) -> bool:
    """Whether [mcp].roles gives this tool to the role; a role it does not list gets every tool."""
    return patterns is None or any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


def _text_of(result: Any) -> str:
    """What the model reads of a call's result: its text blocks; other blocks named; structured content as JSON
    when there is no text."""
    parts: list[str] = []
    for block in result.content:
        kind = getattr(block, "type", "")
        if kind == "text":
            parts.append(block.text)
        elif kind == "resource" and hasattr(block.resource, "text"):
            parts.append(block.resource.text)
        elif kind in ("image", "audio"):
            parts.append(f"[{kind} {block.mime_type}, {len(block.data) * 3 // 4} bytes, not shown]")
        elif kind == "resource_link":
            parts.append(f"[resource {block.uri}]")
        else:
            parts.append(f"[{kind or 'unknown'} content, not shown]")
    if not parts and result.structured_content is not None:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False, indent=1, default=str))
    return "\n".join(parts)


def _describe(exc: BaseException) -> str:
    """An exception in a few words; a group's first cause."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, ToolFailure):
        return str(exc)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__

"""`pedro mcp`: pedro's agents as the tools of an MCP client, over stdio or Streamable HTTP (pedro/mcp/server.py)."""

from __future__ import annotations

import secrets
import sys
import threading
from dataclasses import replace
from typing import Annotated, Any

import typer

from pedro.cli.common import load_and_find_server
from pedro.cli.flags import LIMITS, SERVER, CommonFlags, takes
from pedro.errors import UsageError


@takes(*SERVER, *LIMITS, "repo", "allow_outside_git", "read_only", "verbose")
def mcp(
    http: Annotated[
        bool, typer.Option("--http", help="Serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio.")
    ] = False,
    host: Annotated[str, typer.Option("--host", help="With --http: the address (127.0.0.1: this machine only).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option("--port", help="With --http: the port.", min=1, max=65535)] = 8788,
    api_key_env: Annotated[
        str | None,
        typer.Option(
            "--api-key-env", help="With --http: a variable holding the bearer token every request must carry."
        ),
    ] = None,
    allow_unauthenticated: Annotated[
        bool,
        typer.Option(
            "--allow-unauthenticated",
            help="With --http: listen beyond this machine without a token: anyone who reaches the port runs jobs.",
        ),
    ] = False,
    *,
    flags: CommonFlags,
) -> None:
    """Serve pedro's agents over MCP: build, debug, review and triage each run a job (as --no-input: whatever needs
    approval is refused) and answer with its status, summary, evidence, diff and id; jobs_list and job_show read
    the recorded jobs. One job at a time; a client's cancellation stops the job as Ctrl-C does."""
    from pedro.cli.serve import bearer_token, listen
    from pedro.mcp.server import JobRunner, create_server, http_app

    flags = replace(flags, no_input=True)
    root, config, found, sole = load_and_find_server(flags)
    for said in (found, sole):  # on stderr: under stdio, stdout is the protocol's
        if said is not None:
            _notice(f"pedro mcp: {said.describe()}")
    if not (config.backend.model or config.backend.model_file):
        from pedro.config import NO_MODEL_GIVEN

        raise UsageError(NO_MODEL_GIVEN)
    runner = JobRunner(root, config, verbose=flags.verbose)
    server = create_server(runner)
    if not http:
        _serve_beside(runner, lambda: _stdio(server))
        return
    token = bearer_token(host, api_key_env, allow_unauthenticated, "pedro mcp --http", _notice)
    listener = listen(host, port)  # bound first: a taken port is one line naming --port
    app = _with_token(http_app(server, host), token)
    _notice(f"pedro mcp: http://{host}:{port}/mcp (repository {root})")
    import uvicorn

    web = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False))
    try:
        _serve_beside(runner, lambda: web.run(sockets=[listener]), stop=lambda: setattr(web, "should_exit", True))
    finally:
        listener.close()


def _serve_beside(runner: Any, protocol: Any, stop: Any = None) -> None:
    """The protocol in a thread, the jobs on the main thread; when the protocol ends (the client closed stdin), the
    runner stops, and when the runner ends (Ctrl-C with no job running), so does the protocol."""

    def speak() -> None:
        try:
            protocol()
        except Exception as exc:  # noqa: BLE001 - the protocol's end is the client's going, never a traceback
            _protocol_ended(exc)
        finally:
            runner.stop()

    thread = threading.Thread(target=speak, name="pedro-mcp-protocol", daemon=True)
    thread.start()
    try:
        runner.serve()
    finally:
        if stop is not None:
            stop()
            thread.join(timeout=10)


def _protocol_ended(exc: Exception) -> None:
    """The protocol stopped on an error: a client that went away mid-answer (a broken pipe, a reset connection) is
    said in a line; anything else too, its traceback kept in pedro's log."""
    from pedro.debuglog import record_crash

    if _client_gone(exc):
        _notice("pedro mcp: the client went away; its job, if one was running, is stopped and saved")
    else:
        logged = record_crash(exc)
        where = f" (traceback in {logged})" if logged is not None else ""
        _notice(f"pedro mcp: the protocol ended: {type(exc).__name__}: {exc}{where}")


def _client_gone(exc: BaseException) -> bool:
    """Whether `exc` (or every error an exception group holds) is the client's end of the pipe closing."""
    if isinstance(exc, BaseExceptionGroup):
        return all(_client_gone(inner) for inner in exc.exceptions)
    return isinstance(exc, (BrokenPipeError, ConnectionResetError, EOFError))


def _stdio(server: Any) -> None:
    import anyio

    anyio.run(server.run_stdio_async)


def _with_token(app: Any, token: str | None) -> Any:
    """The app behind a bearer-token check, when there is a token."""
    if token is None:
        return app
    from starlette.responses import JSONResponse

    expected = f"Bearer {token}".encode()

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not secrets.compare_digest(given, expected):
                response = JSONResponse(
                    {"error": "missing or wrong bearer token (pedro mcp --api-key-env)"}, status_code=401
                )
                await response(scope, receive, send)
                return
        await app(scope, receive, send)

    return guarded


def _notice(message: str) -> None:
    sys.stderr.write(f"{message}\n")

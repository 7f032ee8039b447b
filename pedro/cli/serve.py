"""`pedro serve`: the Responses API on 127.0.0.1 in front of the configured model server."""

from __future__ import annotations

import errno
import ipaddress
import logging
import os
import socket
import sys
from collections.abc import Callable
from typing import Annotated

import typer

from pedro.cli.common import load
from pedro.cli.flags import SERVER, CommonFlags, takes
from pedro.errors import UsageError


@takes(*SERVER)
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option("--port", help="Port to listen on.", min=1, max=65535)] = 8787,
    api_key_env: Annotated[
        str | None,
        typer.Option("--api-key-env", help="A variable holding the bearer token every request must carry."),
    ] = None,
    allow_unauthenticated: Annotated[
        bool,
        typer.Option(
            "--allow-unauthenticated",
            help="Listen beyond this machine (--host) without a token: anyone who reaches the port uses the model.",
        ),
    ] = False,
    *,
    flags: CommonFlags,
) -> None:
    """Serve the OpenAI Responses API (POST /v1/responses, GET /v1/models, GET /health) for Codex CLI and the
    OpenAI SDKs, translating to the model server's chat completions and reading calls from the model's text;
    POST /v1/chat/completions goes to the model server as it is."""
    import uvicorn

    from pedro.backends.openai_compat import read_api_key
    from pedro.cli.render import make_renderer
    from pedro.jobs.service import managed_server
    from pedro.serve.app import UpstreamSpec, create_app
    from pedro.serve.limits import ServeLimits

    _, config = load(flags, need_git=False)
    renderer = make_renderer(json_mode=False, stream_json=False)
    token = bearer_token(
        host, api_key_env, allow_unauthenticated, "pedro serve, and the model server behind it,", renderer.notice
    )
    # Bound before the model server starts, and handed to uvicorn: a taken port is one line, never its traceback.
    listener = listen(host, port)
    with listener, managed_server(config, renderer) as config:
        if not config.backend.model:
            raise UsageError("no model given: pass --model NAME (the name the model server knows)")
        upstream = config.resolved_base_url()
        if config.backend.kind != "openai":
            upstream = f"{upstream}/v1"  # llama-server and Ollama serve the OpenAI chat wire under /v1
        spec = UpstreamSpec(upstream, key=read_api_key(config))
        app = create_app(spec, model=config.backend.model, api_key=token, limits=ServeLimits.of(config))
        renderer.notice(f"pedro serve: http://{host}:{port}/v1/responses → {upstream} (model {config.backend.model})")
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s", stream=sys.stderr)
        # pedro's own access log (JSON per request) replaces uvicorn's plain one, and uvicorn's other lines take the
        # format above (log_config None: uvicorn configures no handler of its own), so stderr has one format.
        served = uvicorn.Config(app, host=host, port=port, log_level="info", access_log=False, log_config=None)
        server = uvicorn.Server(served)
        server.run(sockets=[listener])


def bearer_token(
    host: str, api_key_env: str | None, allow_unauthenticated: bool, what: str, notice: Callable[[str], None]
) -> str | None:
    """The token every request must carry (from --api-key-env); None without one, which only a loopback --host or
    --allow-unauthenticated allows (pedro serve and pedro mcp --http share the rule)."""
    token = None
    if api_key_env:
        token = os.environ.get(api_key_env, "").strip()
        if not token:
            raise UsageError(f"--api-key-env names {api_key_env}, which is not set; export {api_key_env}=<token>")
    if token is None and not _loopback(host):
        if not allow_unauthenticated:
            token_flag = "--api-key-env VAR (VAR holds the token every request must carry)"
            raise UsageError(
                f"--host {host} lets other machines reach {what} with no token: pass {token_flag}, or "
                f"--allow-unauthenticated if everyone who can reach {host} may use it"
            )
        notice(f"{what.split(',')[0]}: listening on {host} without a token (--allow-unauthenticated)")
    return token


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on host:port; UsageError (exit 2) naming --port or --host when that cannot be."""
    try:
        family = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)[0][0]
        listener = socket.socket(family, socket.SOCK_STREAM)
    except (OSError, IndexError) as exc:
        raise UsageError(f"--host {host} is not an address pedro serve can listen on ({exc})") from None
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host.strip("[]"), port))
        listener.listen(2048)
    except OSError as exc:
        listener.close()
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} on {host} is already in use: pass --port with a free one") from None
        if exc.errno == errno.EACCES:
            raise UsageError(f"port {port} needs privileges to listen on: pass --port 1024 or above") from None
        raise UsageError(f"cannot listen on {host}:{port} ({exc.strerror or exc}): check --host and --port") from None
    return listener


def _loopback(host: str) -> bool:
    """Whether only this machine can reach `host` (a name other than localhost may resolve anywhere)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False

"""ScriptedProvider: a loopback HTTP server that answers as llama-server does, with replies read from a script."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Final, Literal, get_args

from pedro.eval import wire

CallFormat = Literal["native", "text", "grammar"]
"""How a request asks for calls: native `tools`, pedro's fenced blocks in the text, or text held to a grammar."""
CALL_FORMATS: tuple[CallFormat, ...] = get_args(CallFormat)
ANY_FORMAT: Final = "any"
"""The script key whose replies answer a request of any format that has no replies of its own."""
CHAT_PATHS: Final = ("/v1/chat/completions", "/chat/completions")


def request_format(body: Mapping[str, Any]) -> CallFormat:
    """The call format a chat request uses: llama-server refuses `grammar` beside `tools`, so they never meet."""
    if body.get("tools"):
        return "native"
    return "grammar" if body.get("grammar") else "text"


@dataclass
class ScriptedProvider:
    """Serves one scripted conversation: each chat request takes the next reply of its call format's queue.

    `replies` maps a call format (or "any") to assistant messages in OpenAI wire shape. A request with no reply
    left gets HTTP 400 in llama-server's error shape, naming the format, so a short script fails loudly.
    """

    replies: Mapping[str, Sequence[Mapping[str, Any]]]
    model: str = "scripted"
    context_window: int = 8192
    requests: list[dict[str, Any]] = field(default_factory=list)
    """Every chat request body, in order."""
    formats: list[CallFormat] = field(default_factory=list)
    """The call format of each chat request."""
    url: str = ""
    """The server root, e.g. http://127.0.0.1:41234 (the OpenAI wire is under /v1), once started."""
    _queues: dict[str, list[Mapping[str, Any]]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _server: ThreadingHTTPServer | None = None

    def start(self) -> ScriptedProvider:
        """Listen on a free loopback port and answer in a background thread."""
        self._queues = {key: list(replies) for key, replies in self.replies.items()}
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        server.daemon_threads = True
        self._server = server
        self.url = f"http://127.0.0.1:{server.server_address[1]}"
        # Polled every 20 ms, not the default 0.5 s: stop() waits for the next poll, once per run of a matrix.
        threading.Thread(target=server.serve_forever, args=(0.02,), name="scripted-provider", daemon=True).start()
        return self

    def stop(self) -> None:
        """Stop answering and close the socket; idempotent."""
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()

    def __enter__(self) -> ScriptedProvider:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()

    def next_reply(self, body: dict[str, Any]) -> tuple[int, dict[str, Any] | None, str]:
        """(request number, the reply, its format) for a chat request; the reply is None when the script ran out."""
        kind = request_format(body)
        with self._lock:
            self.requests.append(body)
            self.formats.append(kind)
            queue = self._queues.get(kind, self._queues.get(ANY_FORMAT, []))
            reply = dict(queue.pop(0)) if queue else None
            return next(self._ids), reply, kind

    def props(self) -> dict[str, Any]:
        """/props as llama-server reports it, with a template that takes tools (so `auto` sends them)."""
        return {
            "default_generation_settings": {"n_ctx": self.context_window},
            "total_slots": 1,
            "model_alias": self.model,
            "chat_template_caps": {"supports_tools": True, "supports_tool_calls": True},
        }

    def models(self) -> dict[str, Any]:
        """/v1/models as llama-server lists its one model (the --alias)."""
        entry = {
            "id": self.model,
            "object": "model",
            "created": int(time.time()),
            "owned_by": "llamacpp",
            "meta": {"n_ctx": self.context_window, "n_ctx_train": self.context_window},
        }
        return {"object": "list", "data": [entry]}


def usage_of(body: Mapping[str, Any], reply: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Usage and timings for one reply: about four characters a token, so totals grow with the conversation."""
    prompt = max(1, len(json.dumps(body.get("messages") or [])) // 4)
    produced = str(reply.get("content") or "") + json.dumps(reply.get("tool_calls") or "")
    completion = max(1, len(produced) // 4)
    usage = {
        "completion_tokens": completion,
        "prompt_tokens": prompt,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": 0},
    }
    timings = {
        "cache_n": 0,
        "prompt_n": prompt,
        "prompt_ms": float(prompt),
        "prompt_per_token_ms": 1.0,
        "prompt_per_second": 1000.0,
        "predicted_n": completion,
        "predicted_ms": float(completion),
        "predicted_per_token_ms": 1.0,
        "predicted_per_second": 1000.0,
    }
    return usage, timings


def _handler(provider: ScriptedProvider) -> type[BaseHTTPRequestHandler]:
    """A request handler class that answers for `provider`."""
    return type("Handler", (_Handler,), {"provider": provider})


class _Handler(BaseHTTPRequestHandler):
    """llama-server's endpoints as the scripted provider answers them: /health, /props, the model list and chat."""

    protocol_version = "HTTP/1.1"
    provider: ScriptedProvider

    def log_message(self, *_: Any) -> None:
        return

    def do_GET(self) -> None:
        if self.path == "/health":
            self._json({"status": "ok"})
        elif self.path == "/props":
            self._json(self.provider.props())
        elif self.path in ("/v1/models", "/models"):
            self._json(self.provider.models())
        else:
            self._json(wire.error_body(404, "File Not Found", "not_found_error"), status=404)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            self._json(wire.error_body(400, "invalid JSON in the request body", "invalid_request_error"), 400)
            return
        if self.path not in CHAT_PATHS or not isinstance(body, dict):
            self._json(wire.error_body(404, "File Not Found", "not_found_error"), status=404)
            return
        self._chat(body)

    def _chat(self, body: dict[str, Any]) -> None:
        """The next scripted reply to a chat request, streamed when it asks for a stream."""
        provider = self.provider
        number, reply, kind = provider.next_reply(body)
        if reply is None:
            message = (
                f"the scripted model has no reply left for request {number} ({kind} calls); "
                "give the scenario more replies"
            )
            self._json(wire.error_body(400, message, "invalid_request_error"), status=400)
            return
        usage, timings = usage_of(body, reply)
        reply_args: dict[str, Any] = {
            "model": provider.model,
            "usage": usage,
            "timings": timings,
            "reply_id": f"chatcmpl-scripted-{number}",
        }
        if body.get("stream"):
            self._sse(wire.sse_events(wire.stream_chunks(reply, **reply_args)))
        else:
            self._json(wire.completion_body(reply, **reply_args))

    def _json(self, payload: Any, status: int = 200) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, events: Any) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        for event in events:
            self.wfile.write(event)
            self.wfile.flush()
        self.close_connection = True

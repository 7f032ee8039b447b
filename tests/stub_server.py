"""A stdlib HTTP server on 127.0.0.1 that answers chat requests the way OpenAI-compatible and Ollama servers do.

The OpenAI wire (JSON and SSE) is pedro's own llama-server encoding (pedro.eval.wire), the one `pedro eval`'s
scripted provider speaks; this stub adds what tests vary: token counts, Ollama, refusals, truncation."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from pedro.eval import wire


@dataclass(frozen=True)
class Looping:
    """A reply that never ends on its own: `text` streamed again and again (OpenAI wire), at most `chunks` times or
    until the client hangs up, as a small model stuck in a loop does."""

    text: str
    chunks: int = 20000
    numbered: bool = False
    """Each chunk is `text` and its number ("word0 ", "word1 ", ...): a model that goes on without repeating."""


Reply = str | dict[str, Any] | Looping


@dataclass
class StubServer:
    """Queued replies, recorded requests; replies are plain text or an assistant message dict."""

    replies: list[Reply]
    requests: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    """The headers of each chat request, in the order of `requests`."""
    context_length: int = 8192
    models: tuple[str, ...] = ("m",)
    """What /v1/models and /api/tags list."""
    listing: list[dict[str, Any]] | None = None
    """The entries /v1/models answers with instead, when set (a recorded server's own listing)."""
    strict_models: bool = False
    """Ollama wire: /api/show and /api/chat answer 404 "model not found" for a model not in `models`."""
    reject_tools: tuple[int, str] | None = None
    """(status, message): a chat request carrying `tools` gets this error, in the wire's own error shape."""
    template_caps: dict[str, Any] | None = None
    """llama-server's /props chat_template_caps, when set."""
    props: dict[str, Any] = field(default_factory=dict)
    """More of llama-server's /props (model_path, chat_template)."""
    capabilities: tuple[str, ...] | None = None
    """Ollama's /api/show capabilities, when set."""
    owned_by: str = "stub"
    truncate_at: int | None = None
    """Ollama wire: the window the server really keeps, whatever num_ctx says (a server that ignores it)."""
    prompt_tokens: list[int] = field(default_factory=list)
    """The prompt size of each chat request as the server counted it (after any truncation)."""
    truncated: list[bool] = field(default_factory=list)
    """Ollama wire: whether the server had to cut each chat request to fit its window."""
    timings: list[dict[str, int]] = field(default_factory=list)
    """llama-server's cache_n / prompt_n for each OpenAI-wire chat request, from its prompt-cache reuse."""
    vocabulary: dict[str, int] = field(default_factory=dict)
    """Token ids handed out by /tokenize."""
    ignore_stream: bool = False
    """Answer every chat request with one whole JSON reply, as servers that ignore `stream: true` do."""
    api_key: str | None = None
    """When set, a request without `Authorization: Bearer <api_key>` gets llama-server's 401 (GET /health is open)."""
    on_request: Callable[[int], None] | None = None
    """Called with the chat request's number (1, 2, ...) before it is answered: what happens while the model thinks."""
    looped: list[int] = field(default_factory=list)
    """For each Looping reply, how many chunks were written before the client hung up (or the chunks ran out)."""
    _cached: list[str] = field(default_factory=list)
    url: str = ""
    _server: ThreadingHTTPServer | None = None

    def start(self) -> StubServer:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_: Any) -> None:
                return

            def handle(self) -> None:
                try:
                    super().handle()
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client hung up before the answer (a cancelled job): no traceback on the test's output

            def do_GET(self) -> None:
                stub.paths.append(self.path)
                if self.path != "/health" and self._refused():
                    return
                if self.path.endswith("/models"):
                    data = [{"id": name, "object": "model", "owned_by": stub.owned_by} for name in stub.models]
                    data = stub.listing if stub.listing is not None else data
                    self._json({"object": "list", "data": data})
                elif self.path == "/api/tags":
                    self._json({"models": [{"name": name, "model": name} for name in stub.models]})
                elif self.path == "/api/version":
                    self._json({"version": "0.0.0-stub"})
                elif self.path == "/health":
                    self._json({"status": "ok"})
                elif self.path == "/props":
                    props: dict[str, Any] = {"default_generation_settings": {"n_ctx": stub.context_length}}
                    if stub.template_caps is not None:
                        props["chat_template_caps"] = stub.template_caps
                    self._json({**props, **stub.props})
                else:
                    self._json({"error": "not found"}, status=404)

            def do_POST(self) -> None:
                stub.paths.append(self.path)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                if self._refused():
                    return
                if self.path in ("/api/show", "/api/chat") and self._unknown_model(body):
                    self._json({"error": f"model '{body.get('model')}' not found"}, status=404)
                    return
                if self.path == "/api/show":
                    show: dict[str, Any] = {
                        "model_info": {"general.architecture": "llama", "llama.context_length": stub.context_length}
                    }
                    if stub.capabilities is not None:
                        show["capabilities"] = list(stub.capabilities)
                    self._json(show)
                    return
                if self.path == "/tokenize":
                    tokens = stub_tokenize(str(body.get("content", "")))
                    self._json({"tokens": [stub.vocabulary.setdefault(t, len(stub.vocabulary)) for t in tokens]})
                    return
                stub.requests.append(body)
                stub.headers.append(dict(self.headers.items()))
                if stub.on_request is not None:
                    stub.on_request(len(stub.requests))
                if stub.reject_tools is not None and body.get("tools"):
                    status, text = stub.reject_tools
                    error: Any = text if self.path == "/api/chat" else {"code": status, "message": text}
                    self._json({"error": error}, status=status)
                    return
                reply = stub.replies.pop(0) if stub.replies else "TASK COMPLETE\nout of scripted replies"
                if isinstance(reply, Looping):
                    self._loop(reply)
                    return
                message = {"role": "assistant", "content": reply} if isinstance(reply, str) else reply
                if self.path == "/api/chat":
                    stream = bool(body.get("stream", True)) and not stub.ignore_stream
                    self._ollama(message, stream, stub.ollama_prompt_count(body), bool(body.get("logprobs")))
                    return
                usage, timings = stub.openai_usage(body)
                reply_args = {"model": "m", "usage": usage, "timings": timings, "reply_id": "chatcmpl-1"}
                if body.get("stream") and not stub.ignore_stream:
                    self._sse(wire.stream_chunks(message, **reply_args))
                else:
                    self._json(wire.completion_body(message, **reply_args))

            def _refused(self) -> bool:
                """Answer 401 as llama-server --api-key does when the request lacks the key."""
                if stub.api_key is None or self.headers.get("Authorization") == f"Bearer {stub.api_key}":
                    return False
                error = {"code": 401, "message": "Invalid API Key", "type": "authentication_error"}
                self._json({"error": error}, status=401)
                return True

            def _unknown_model(self, body: dict[str, Any]) -> bool:
                return stub.strict_models and body.get("model") not in stub.models

            def _json(self, payload: Any, status: int = 200) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _sse(self, chunks: Iterator[dict[str, Any]]) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                for event in wire.sse_events(chunks):
                    self.wfile.write(event)
                    self.wfile.flush()
                self.close_connection = True

            def _loop(self, reply: Looping) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                written = 0
                try:
                    while written < reply.chunks:
                        text = f"{reply.text}{written} " if reply.numbered else reply.text
                        choice = {"index": 0, "delta": {"content": text}, "finish_reason": None}
                        chunk = {"id": "c1", "object": "chat.completion.chunk", "model": "m", "choices": [choice]}
                        self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                        self.wfile.flush()
                        written += 1
                        time.sleep(0.002)  # a model's pace, so that a client's hang-up is seen early
                except OSError:
                    pass  # the client hung up: what pedro does once it sees the loop
                stub.looped.append(written)

            def _ollama(self, message: dict[str, Any], stream: bool, prompt_count: int, asked: bool) -> None:
                """Ollama's reply; a message's `logprobs` entries are sent only where the request asked for them,
                at the top of each chunk beside `message`, one token to a chunk."""
                entries = message.pop("logprobs", None)
                if not asked:
                    entries = None
                final: dict[str, Any] = {
                    "model": "m",
                    "created_at": "2026-01-01T00:00:00Z",
                    "message": message,
                    "done": True,
                    "done_reason": "stop",
                    "total_duration": 1000,
                    "load_duration": 10,
                    "prompt_eval_count": prompt_count,
                    "prompt_eval_duration": 100,
                    "eval_count": 20,
                    "eval_duration": 100,
                }
                if not stream:
                    self._json({**final, "logprobs": entries} if entries else final)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.send_header("Connection", "close")
                self.end_headers()
                text = message.get("content") or ""
                pieces = (
                    [(entry["token"], [entry]) for entry in entries] if entries else [(p, []) for p in _pieces(text)]
                )
                for piece, tokens in pieces:
                    line: dict[str, Any] = {
                        "model": "m",
                        "created_at": "2026-01-01T00:00:00Z",
                        "message": {"role": "assistant", "content": piece},
                        "done": False,
                    }
                    if tokens:
                        line["logprobs"] = tokens
                    self.wfile.write((json.dumps(line) + "\n").encode())
                final["message"] = {**message, "content": ""}
                self.wfile.write((json.dumps(final) + "\n").encode())
                self.close_connection = True

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        # Polled every 20 ms, not the default 0.5 s: stop() waits for the next poll, at the end of every test.
        threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True).start()
        return self

    def openai_usage(self, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
        """The usage and llama-server timings of a chat request: the prompt is counted, and the part that
        repeats the previous request's start is served from the cache, as llama-server's slot cache does."""
        tokens = stub_tokenize(render_chat(body))
        cached = _common_prefix(tokens, self._cached)
        if cached == len(tokens):
            cached -= 1  # llama-server always evaluates at least the last prompt token
        self._cached = tokens
        self.prompt_tokens.append(len(tokens))
        timings = {"cache_n": cached, "prompt_n": len(tokens) - cached, "predicted_n": 20}
        self.timings.append(timings)
        usage = {
            "prompt_tokens": len(tokens),
            "completion_tokens": 20,
            "total_tokens": len(tokens) + 20,
            "prompt_tokens_details": {"cached_tokens": cached},
        }
        return usage, timings

    def ollama_prompt_count(self, body: dict[str, Any]) -> int:
        """prompt_eval_count as Ollama reports it: over the window, the oldest messages after the system prompt
        are dropped until the rest fits, and only what was kept is counted."""
        options = body.get("options") or {}
        window = min(int(options.get("num_ctx") or 2048), self.context_length, self.truncate_at or self.context_length)
        messages = list(body.get("messages") or [])
        count = full = len(stub_tokenize(render_chat({**body, "messages": messages})))
        while count > window and len(messages) > 2:
            first = 1 if messages[0].get("role") == "system" else 0
            del messages[first]
            count = len(stub_tokenize(render_chat({**body, "messages": messages})))
        count = min(count, window)  # what still does not fit is cut token by token, as the runner does
        self.prompt_tokens.append(count)
        self.truncated.append(count < full)
        return count

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


_TOKEN = re.compile(r" ?[A-Za-z]+| ?[0-9]| ?[^\sA-Za-z0-9]{1,2}|\s+")


def stub_tokenize(text: str) -> list[str]:
    """The stub model's tokenizer: words, digits, pairs of punctuation marks and whitespace runs."""
    return _TOKEN.findall(text)


def render_chat(body: dict[str, Any]) -> str:
    """A request's prompt through a ChatML-style template, native tools first, as servers render it."""
    parts = []
    if body.get("tools"):
        parts.append(f"<|im_start|>tools\n{json.dumps(body['tools'])}<|im_end|>\n")
    for message in body.get("messages") or []:
        content = message.get("content") or ""
        calls = json.dumps(message["tool_calls"]) if message.get("tool_calls") else ""
        parts.append(f"<|im_start|>{message.get('role')}\n{content}{calls}<|im_end|>\n")
    return "".join(parts) + "<|im_start|>assistant\n"


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _pieces(text: str, size: int = 7) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]


StubFactory = Callable[..., StubServer]

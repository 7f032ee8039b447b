"""llama-server's OpenAI chat-completions replies, byte for byte in shape: one whole JSON body, or the SSE chunks of
a stream (role chunk, content deltas, tool-call deltas, finish chunk, usage chunk with empty `choices`, [DONE])."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from typing import Any, Final

FINGERPRINT: Final = "b1-pedro-eval"
"""llama-server's `system_fingerprint` is its build; the scripted model names itself."""
CONTENT_PIECE: Final = 7
"""Characters per content delta: small, so that stream assembly across chunk boundaries is exercised."""
ARGUMENTS_PIECE: Final = 11
"""Characters per tool-call arguments delta."""


def finish_reason(message: Mapping[str, Any]) -> str:
    """What llama-server reports for a reply: tool_calls when it holds native calls, else stop."""
    return "tool_calls" if message.get("tool_calls") else "stop"


def completion_body(
    message: Mapping[str, Any], *, model: str, usage: Mapping[str, Any], timings: Mapping[str, Any], reply_id: str
) -> dict[str, Any]:
    """A non-streamed reply: the whole assistant message with usage and timings (and the `logprobs` of its tokens
    when the message lists them: `[{"token", "logprob", "top_logprobs"}]`, its content their concatenation)."""
    wire_message = {"role": "assistant", "content": message.get("content"), **_wire_calls(message)}
    choice = {"finish_reason": finish_reason(message), "index": 0, "message": wire_message}
    if message.get("logprobs"):
        choice["logprobs"] = {"content": list(message["logprobs"])}
    return {
        "choices": [choice],
        "created": int(time.time()),
        "model": model,
        "system_fingerprint": FINGERPRINT,
        "object": "chat.completion",
        "usage": dict(usage),
        "id": reply_id,
        "timings": dict(timings),
    }


def stream_chunks(
    message: Mapping[str, Any], *, model: str, usage: Mapping[str, Any], timings: Mapping[str, Any], reply_id: str
) -> Iterator[dict[str, Any]]:
    """The chunks of a streamed reply, in llama-server's order and key layout.

    A call marked `args_before_name` streams its first argument bytes before its name and id, as some servers do.
    """
    created = int(time.time())

    def chunk(choices: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        return {
            "choices": choices,
            "created": created,
            "id": reply_id,
            "model": model,
            "system_fingerprint": FINGERPRINT,
            "object": "chat.completion.chunk",
            **extra,
        }

    def delta(content: dict[str, Any]) -> dict[str, Any]:
        return chunk([{"finish_reason": None, "index": 0, "delta": content}])

    yield delta({"role": "assistant", "content": None})
    if message.get("logprobs"):
        # Asked for `logprobs`, llama-server sends each token in a delta of its own, with the token's entry.
        for entry in message["logprobs"]:
            yield chunk([{"finish_reason": None, "index": 0, "delta": {"content": entry["token"]},
                          "logprobs": {"content": [entry]}}])  # fmt: skip
    else:
        for piece in _pieces(str(message.get("content") or ""), CONTENT_PIECE):
            yield delta({"content": piece})
    given = message.get("tool_calls") or []
    for index, call in enumerate(_wire_calls(message).get("tool_calls", [])):
        function, arguments = call["function"], call["function"]["arguments"]
        if given[index].get("args_before_name"):
            # As SGLang-style servers and some proxies do: an argument fragment before the call's name and id.
            yield delta({"tool_calls": [{"index": index, "function": {"arguments": arguments[:5]}}]})
            arguments = arguments[5:]
        head = {"index": index, "id": call["id"], "type": "function"}
        yield delta({"tool_calls": [{**head, "function": {"name": function["name"], "arguments": ""}}]})
        for piece in _pieces(arguments, ARGUMENTS_PIECE):
            yield delta({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk([{"finish_reason": finish_reason(message), "index": 0, "delta": {}}])
    yield chunk([], usage=dict(usage), timings=dict(timings))


def sse_events(chunks: Iterator[dict[str, Any]]) -> Iterator[bytes]:
    """Each chunk as one `data:` event, then the `data: [DONE]` that ends every llama-server stream."""
    for item in chunks:
        yield f"data: {json.dumps(item, separators=(',', ':'))}\n\n".encode()
    yield b"data: [DONE]\n\n"


def error_body(status: int, message: str, kind: str) -> dict[str, Any]:
    """An error as llama-server sends it: {"error": {"code", "message", "type"}}."""
    return {"error": {"code": status, "message": message, "type": kind}}


def _wire_calls(message: Mapping[str, Any]) -> dict[str, Any]:
    """The message's tool calls with string arguments and ids, as they travel; {} when it has none."""
    calls = message.get("tool_calls") or []
    if not calls:
        return {}
    wired = []
    for index, call in enumerate(calls):
        function = call["function"]
        arguments = function.get("arguments", "")
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        wired.append(
            {
                "type": "function",
                "function": {"name": function["name"], "arguments": text},
                "id": call.get("id") or f"call_{index}",
            }
        )
    return {"tool_calls": wired}


def _pieces(text: str, size: int) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]

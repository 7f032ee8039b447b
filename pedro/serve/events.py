"""The Responses API event stream for one response, built from upstream chat chunks: visible text through pedro's
streaming extractor, native calls streamed as they arrive, text-dialect calls as function_call items, reasoning
as a reasoning item, each event numbered."""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pedro.backends.openai_wire import parse_usage
from pedro.messages import Usage
from pedro.serve.translate import CUSTOM_INPUT, flat_name
from pedro.toolcalls import StreamExtractor

Event = dict[str, Any]
LOG = logging.getLogger("pedro.serve")


class UpstreamFault(Exception):
    """The upstream stream cannot go on; the response ends as failed with this code and message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


RATE_LIMIT_RETRY_S = 5
"""Seconds a client is told to wait on a rate limit when the model server named none (Retry-After)."""

# How servers word a prompt too long for the context: llama-server (exceed_context_size_error, "the request exceeds
# the available context size"), vLLM ("maximum context length"), OpenAI (context_length_exceeded), LM Studio and
# Ollama ("context length", "context window").
_CONTEXT_FULL = re.compile(
    r"context_length_exceeded|exceed_context_size|exceeds? the (?:available )?context|maximum context length"
    r"|context (?:length|size|window) (?:of \d+ )?(?:is )?(?:exceeded|too small)|prompt is too long|too many tokens",
    re.IGNORECASE,
)
_RATE_LIMITED = re.compile(r"rate[ _]limit|too many requests", re.IGNORECASE)


def fault_code(said: str, status: int | None = None) -> str | None:
    """The Responses error code a client acts on for what the model server said: `context_length_exceeded` (Codex
    compacts its history or says the context is full) or `rate_limit_exceeded` (Codex waits and retries); None
    for any other error."""
    if _CONTEXT_FULL.search(said):
        return "context_length_exceeded"
    if status == 429 or _RATE_LIMITED.search(said):
        return "rate_limit_exceeded"
    return None


def fault_message(code: str, said: str, retry_after: float | None = None) -> str:
    """The message of a mapped fault; a rate limit's says when to try again in the words Codex reads
    ("try again in N s")."""
    said = said.strip()[:500]
    if code == "context_length_exceeded":
        return f"the conversation does not fit the model's context window: the model server said: {said}"
    if code == "rate_limit_exceeded":
        wait = max(1, round(retry_after)) if retry_after is not None else RATE_LIMIT_RETRY_S
        return f"the model server is rate limited; please try again in {wait}s (it said: {said})"
    return f"the model server reported an error: {said}"


def stream_fault(said: str) -> UpstreamFault:
    """An error the model server reported inside its stream, with the code a client can act on when there is one."""
    code = fault_code(said) or "upstream_error"
    return UpstreamFault(code, fault_message(code, said))


def read_chunk(payload: str) -> Mapping[str, Any]:
    """One `data:` payload of the upstream stream as a chat chunk; UpstreamFault when it is an error the server
    reports (vLLM and others send {"error": …} in the stream) or a chunk of the wrong shape."""
    try:
        chunk = json.loads(payload)
    except (ValueError, RecursionError):
        raise UpstreamFault(
            "upstream_malformed", f"the model server sent a chunk that is not JSON: {payload[:200]}"
        ) from None
    if not isinstance(chunk, Mapping):
        raise UpstreamFault("upstream_malformed", f"the model server sent a chunk that is not an object: "
                            f"{payload[:200]}")  # fmt: skip
    if "error" in chunk and "choices" not in chunk:
        raise stream_fault(_error_text(chunk["error"]))
    fault = _shape_fault(chunk)
    if fault is not None:
        raise UpstreamFault("upstream_malformed", f"the model server sent a chunk of the wrong shape ({fault}): "
                            f"{payload[:200]}")  # fmt: skip
    return chunk


def _error_text(error: Any) -> str:
    if isinstance(error, Mapping) and isinstance(error.get("message"), str):
        return str(error["message"])[:500]
    return json.dumps(error)[:500]


def _shape_fault(chunk: Mapping[str, Any]) -> str | None:
    """What in a chat chunk has the wrong type (the fields the builder reads), or None."""
    choices = chunk.get("choices")
    if choices is None:
        return None
    if not isinstance(choices, list):
        return f"choices is {_shown(choices)}, not a list"
    for n, choice in enumerate(choices):
        if not isinstance(choice, Mapping):
            return f"choices[{n}] is {_shown(choice)}, not an object"
        for key in ("delta", "message"):
            fault = _delta_fault(choice.get(key), f"choices[{n}].{key}")
            if fault is not None:
                return fault
    return None


def _delta_fault(delta: Any, where: str) -> str | None:
    """What in one choice's delta (or message) at `where` has the wrong type, or None."""
    if delta is None:
        return None
    if not isinstance(delta, Mapping):
        return f"{where} is {_shown(delta)}, not an object"
    for text_key in ("content", "reasoning_content", "reasoning"):
        if delta.get(text_key) is not None and not isinstance(delta[text_key], str):
            return f"{where}.{text_key} is {_shown(delta[text_key])}, not a string"
    calls = delta.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        return f"{where}.tool_calls is {_shown(calls)}, not a list"
    for m, call in enumerate(calls or []):
        if not isinstance(call, Mapping):
            return f"{where}.tool_calls[{m}] is {_shown(call)}, not an object"
        if call.get("function") is not None and not isinstance(call["function"], Mapping):
            return f"{where}.tool_calls[{m}].function is {_shown(call['function'])}, not an object"
    return None


def _shown(value: Any) -> str:
    return json.dumps(value)[:40]


@dataclass
class _LiveCall:
    """A call being streamed: its arguments are held until its name is known, then sent as they arrive."""

    call_id: str = ""
    name: str = ""
    held: str = ""
    arguments: str = ""
    output_index: int | None = None
    item_id: str = ""
    closed: bool = False


@dataclass
class ResponseBuilder:
    """Turns one upstream stream into the exact Responses event sequence (docs/serve.md)."""

    model: str
    tools: Sequence[Mapping[str, Any]] = ()
    custom_tools: frozenset[str] = frozenset()
    request: Mapping[str, Any] = field(default_factory=dict)
    namespaced: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Flattened function name → (namespace, tool): such a call goes back as `tool` with its `namespace`."""
    id: str = field(default_factory=lambda: "resp_" + secrets.token_hex(12))
    created_at: int = field(default_factory=lambda: int(time.time()))
    _seq: int = 0
    _next_index: int = 1
    _text: list[str] = field(default_factory=list)
    _reasoning: list[str] = field(default_factory=list)
    _reasoning_index: int | None = None
    _live: dict[int, _LiveCall] = field(default_factory=dict)
    _items: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    _usage: Usage | None = None
    _reasoning_tokens: int = 0
    _out_of_tokens: bool = False
    """The upstream ended the reply for its token limit (finish_reason "length"): the response is incomplete."""

    def __post_init__(self) -> None:
        self._extractor = StreamExtractor(self.tools)
        self._key = self.id.removeprefix("resp_")

    # -- the stream ----------------------------------------------------------------------------------------------

    def start(self) -> list[Event]:
        response = self.response("in_progress")
        message = {"id": self._message_id, "type": "message", "role": "assistant", "status": "in_progress",
                   "content": []}  # fmt: skip
        return [
            self._event("response.created", response=response),
            self._event("response.in_progress", response=response),
            self._event("response.output_item.added", output_index=0, item=message),
            self._event("response.content_part.added", item_id=self._message_id, output_index=0, content_index=0,
                        part={"type": "output_text", "text": "", "annotations": []}),
        ]  # fmt: skip

    def chunk(self, chunk: Mapping[str, Any]) -> list[Event]:
        """Fold one upstream chat chunk in; the events it makes visible now."""
        usage = parse_usage(chunk)
        if usage is not None:
            self._usage = usage
            self._reasoning_tokens = _reasoning_tokens(chunk)
        events: list[Event] = []
        choices = chunk.get("choices")
        for choice in choices if isinstance(choices, list) else []:
            if not isinstance(choice, Mapping):
                continue
            if choice.get("finish_reason") == "length":
                self._out_of_tokens = True
            delta = choice.get("delta", choice.get("message"))
            if isinstance(delta, Mapping):
                events += self._delta(delta)
        return events

    def _delta(self, delta: Mapping[str, Any]) -> list[Event]:
        """One choice's delta: its reasoning, its streamed tool calls, then its text."""
        events: list[Event] = []
        for key in ("reasoning_content", "reasoning"):
            if isinstance(delta.get(key), str) and delta[key]:
                events += self._think(delta[key])
        for position, call in enumerate(delta.get("tool_calls") or []):
            if isinstance(call, Mapping):
                events += self._native(call, position)
        content = delta.get("content")
        if isinstance(content, str) and content:
            events += self._visible(self._extractor.feed(content))
        return events

    def finish(self, *, incomplete: bool = False) -> list[Event]:
        """The end of a stream: held-back text, the calls, the closing events and the whole response; an
        `incomplete` one (pedro cut the reply) ends in response.incomplete, as a reply out of output tokens does
        (the upstream said so with finish_reason "length")."""
        events = self._visible(self._extractor.flush())
        extraction = self._extractor.finish()
        if extraction.reasoning and not self._reasoning:
            events += self._think(extraction.reasoning)  # <think> in the text: never visible, a reasoning item
        events += self._close_reasoning()
        for live in self._live.values():
            if not live.closed:
                events += self._close_native(live)
        for call in extraction.calls:
            events += self._whole_call(call.name, call.arguments, call.id)
        text = "".join(self._text)
        cut = incomplete or self._out_of_tokens
        events += [
            self._event("response.output_text.done", item_id=self._message_id, output_index=0, content_index=0,
                        text=text),
            self._event("response.content_part.done", item_id=self._message_id, output_index=0, content_index=0,
                        part={"type": "output_text", "text": text, "annotations": []}),
            self._event("response.output_item.done", output_index=0,
                        item=self._message("incomplete" if cut else "completed")),
        ]  # fmt: skip
        if cut:
            response = {**self.response("incomplete"), "incomplete_details": {"reason": "max_output_tokens"}}
            events.append(self._event("response.incomplete", response=response))
        else:
            response = self.response("completed")
            events.append(self._event("response.completed", response=response))
        events.append(self._event("response.done", response=response))
        return events

    def fail(self, code: str, message: str) -> list[Event]:
        """After streaming began, an upstream fault ends the response as failed (never a hung connection)."""
        response = {**self.response("failed"), "error": {"code": code, "message": message}}
        return [self._event("response.failed", response=response)]

    # -- calls ----------------------------------------------------------------------------------------------------

    def _native(self, call: Mapping[str, Any], position: int) -> list[Event]:
        """One streamed tool-call delta: begin once the name is known, then each piece of the arguments."""
        index = call.get("index")
        live = self._live.setdefault(index if isinstance(index, int) else position, _LiveCall())
        raw_function = call.get("function")
        function: Mapping[str, Any] = raw_function if isinstance(raw_function, Mapping) else {}
        if isinstance(call.get("id"), str) and call["id"] and not live.call_id:
            live.call_id = call["id"]
        if isinstance(function.get("name"), str) and function["name"] and not live.name:
            live.name = function["name"]
        piece = function.get("arguments")
        piece = piece if isinstance(piece, str) else json.dumps(piece) if piece is not None else ""
        events: list[Event] = []
        if live.output_index is None:
            live.held += piece
            if not live.name:
                return events  # arguments before the name: held, replayed right after begin
            events += self._begin(live)
            piece, live.held = live.held, ""
        if piece:
            live.arguments += piece
            events += self._pieces(live, piece)
        return events

    def _begin(self, live: _LiveCall) -> list[Event]:
        """A streamed call's begin, once its name is known: a server streams one call after the other, so a new one
        means the open ones are whole."""
        events: list[Event] = []
        for other in self._live.values():
            if other is not live and other.output_index is not None and not other.closed:
                events += self._close_native(other)
        return events + self._open(live, custom=live.name in self.custom_tools)

    def _close_native(self, live: _LiveCall) -> list[Event]:
        if live.output_index is None:
            LOG.warning("a streamed tool call never got a name; its arguments were dropped: %.200s", live.held)
            return []
        try:
            json.loads(live.arguments or "{}")
        except ValueError:
            LOG.warning("the model's arguments for %s are not valid JSON; passed through: %.200s", live.name,
                        live.arguments)  # fmt: skip
        return self._close(live)

    def _whole_call(self, name: str, arguments: Mapping[str, Any], call_id: str | None) -> list[Event]:
        """A call read from the model's text: begin, its whole arguments, end."""
        custom = name in self.custom_tools
        value = arguments.get(CUSTOM_INPUT, "") if custom else None
        text = (value if isinstance(value, str) else json.dumps(value)) if custom else json.dumps(arguments)
        live = _LiveCall(call_id=call_id or "", name=name)
        events = self._open(live, custom=custom)
        live.arguments = text
        return events + self._pieces(live, text) + self._close(live)

    def _open(self, live: _LiveCall, *, custom: bool) -> list[Event]:
        live.output_index = self._next_index
        self._next_index += 1
        live.item_id = f"fc_{self._key[:12]}_{live.output_index}"
        live.call_id = live.call_id or f"call_{self._key[:12]}_{live.output_index}"
        item = self._call_item(live, custom=custom, status="in_progress", arguments="")
        common = {"item_id": live.item_id, "output_index": live.output_index}
        return [
            self._event("response.output_item.added", output_index=live.output_index, item=item),
            self._event("response.output_tool_call.begin", **common, call_id=live.call_id, name=item["name"]),
        ]

    def _pieces(self, live: _LiveCall, piece: str) -> list[Event]:
        common = {"item_id": live.item_id, "output_index": live.output_index}
        return [
            self._event("response.output_tool_call.delta", **common, call_id=live.call_id, delta=piece),
            self._event("response.function_call_arguments.delta", **common, delta=piece),
        ]

    def _close(self, live: _LiveCall) -> list[Event]:
        live.closed = True
        custom = live.name in self.custom_tools
        arguments = _custom_input(live.arguments) if custom else live.arguments
        item = self._call_item(live, custom=custom, status="completed", arguments=arguments)
        assert live.output_index is not None
        self._items.append((live.output_index, item))
        common = {"item_id": live.item_id, "output_index": live.output_index}
        return [
            self._event("response.output_tool_call.end", **common, call_id=live.call_id),
            self._event("response.function_call_arguments.done", **common, arguments=arguments, name=item["name"]),
            self._event("response.output_item.done", output_index=live.output_index, item=item),
        ]

    def _call_item(self, live: _LiveCall, *, custom: bool, status: str, arguments: str) -> dict[str, Any]:
        item: dict[str, Any] = {"id": live.item_id, "type": "custom_tool_call" if custom else "function_call",
                                "call_id": live.call_id, "name": live.name}  # fmt: skip
        if live.name in self.namespaced:  # a namespace's tool: its own name, and the namespace beside it
            item["namespace"], item["name"] = self.namespaced[live.name]
        item["input" if custom else "arguments"] = arguments
        item["status"] = status
        return item

    # -- text and reasoning ---------------------------------------------------------------------------------------

    def _visible(self, text: str) -> list[Event]:
        if not text:
            return []
        self._text.append(text)
        return [
            self._event(
                "response.output_text.delta", item_id=self._message_id, output_index=0, content_index=0, delta=text
            )
        ]

    def _think(self, text: str) -> list[Event]:
        """Reasoning as a reasoning item, streamed as it arrives."""
        events: list[Event] = []
        if self._reasoning_index is None:
            self._reasoning_index = self._next_index
            self._next_index += 1
            item = {"id": self._reasoning_id, "type": "reasoning", "summary": [], "status": "in_progress"}
            events.append(self._event("response.output_item.added", output_index=self._reasoning_index, item=item))
        self._reasoning.append(text)
        events.append(
            self._event("response.reasoning_text.delta", item_id=self._reasoning_id,
                        output_index=self._reasoning_index, content_index=0, delta=text)
        )  # fmt: skip
        return events

    def _close_reasoning(self) -> list[Event]:
        if self._reasoning_index is None:
            return []
        item = self._reasoning_item()
        self._items.append((self._reasoning_index, item))
        return [
            self._event("response.reasoning_text.done", item_id=self._reasoning_id,
                        output_index=self._reasoning_index, content_index=0, text="".join(self._reasoning)),
            self._event("response.output_item.done", output_index=self._reasoning_index, item=item),
        ]  # fmt: skip

    def _reasoning_item(self) -> dict[str, Any]:
        return {
            "id": self._reasoning_id,
            "type": "reasoning",
            "summary": [],
            "content": [{"type": "reasoning_text", "text": "".join(self._reasoning)}],
            "status": "completed",
        }

    # -- the response ---------------------------------------------------------------------------------------------

    @property
    def _message_id(self) -> str:
        return "msg_" + self._key

    @property
    def _reasoning_id(self) -> str:
        return "rs_" + self._key

    def assistant_message(self) -> dict[str, Any]:
        """The response as the chat message that continues a conversation (previous_response_id)."""
        message: dict[str, Any] = {"role": "assistant", "content": "".join(self._text)}
        calls = []
        for _, item in sorted(self._items, key=lambda pair: pair[0]):
            if item["type"] == "function_call":
                arguments = item["arguments"]
            elif item["type"] == "custom_tool_call":
                arguments = json.dumps({CUSTOM_INPUT: item["input"]})
            else:
                continue
            name = flat_name(item["namespace"], item["name"]) if item.get("namespace") else item["name"]
            calls.append({"id": item["call_id"], "type": "function",
                          "function": {"name": name, "arguments": arguments}})  # fmt: skip
        if calls:
            message["tool_calls"] = calls
        return message

    def _message(self, status: str) -> dict[str, Any]:
        return {
            "id": self._message_id,
            "type": "message",
            "role": "assistant",
            "status": status,
            "content": [{"type": "output_text", "text": "".join(self._text), "annotations": []}],
        }

    def response(self, status: str) -> dict[str, Any]:
        """The response object as it stands."""
        output: list[dict[str, Any]] = []
        if status != "in_progress":
            message = self._message("incomplete" if status == "incomplete" else "completed")
            output = [message, *(item for _, item in sorted(self._items, key=lambda p: p[0]))]
        usage = self._usage or Usage()
        return {
            "id": self.id,
            "object": "response",
            "created_at": self.created_at,
            "status": status,
            "model": self.model,
            "output": output,
            "parallel_tool_calls": bool(self.request.get("parallel_tool_calls", True)),
            "tool_choice": self.request.get("tool_choice", "auto"),
            "tools": list(self.request.get("tools") or []),
            "usage": {
                "input_tokens": usage.prompt_tokens,
                "output_tokens": usage.completion_tokens,
                "total_tokens": usage.prompt_tokens + usage.completion_tokens,
                "input_tokens_details": {"cached_tokens": usage.cached_tokens},
                # Codex reads both counts whenever a details object is there: they are always numbers, never null.
                "output_tokens_details": {"reasoning_tokens": self._reasoning_tokens},
            },
        }

    def _event(self, type_: str, **data: Any) -> Event:
        self._seq += 1
        return {"type": type_, "sequence_number": self._seq, **data}


def _reasoning_tokens(chunk: Mapping[str, Any]) -> int:
    """The reasoning tokens a chat usage object reports (`completion_tokens_details.reasoning_tokens`), else 0."""
    usage = chunk.get("usage")
    details = usage.get("completion_tokens_details") if isinstance(usage, Mapping) else None
    count = details.get("reasoning_tokens") if isinstance(details, Mapping) else None
    return count if isinstance(count, int) and not isinstance(count, bool) and count >= 0 else 0


def _custom_input(arguments: str) -> str:
    """A custom tool's input from the function arguments it was sent as ({"input": "…"})."""
    try:
        value = json.loads(arguments or "{}")
    except ValueError:
        return arguments
    if isinstance(value, Mapping) and isinstance(value.get(CUSTOM_INPUT), str):
        return str(value[CUSTOM_INPUT])
    return arguments

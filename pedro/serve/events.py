"""The Responses API event stream for one response, built from upstream chat chunks: visible text through pedro's
streaming extractor, native and text-dialect calls as function_call items, each event numbered."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pedro.backends.openai_wire import ToolCallAccumulator, parse_usage
from pedro.messages import ToolCall, Usage
from pedro.serve.translate import CUSTOM_INPUT
from pedro.toolcalls import StreamExtractor

Event = dict[str, Any]


@dataclass
class ResponseBuilder:
    """Turns one upstream stream into the exact Responses event sequence (docs/serve.md)."""

    model: str
    tools: Sequence[Mapping[str, Any]] = ()
    custom_tools: frozenset[str] = frozenset()
    request: Mapping[str, Any] = field(default_factory=dict)
    id: str = field(default_factory=lambda: "resp_" + secrets.token_hex(12))
    created_at: int = field(default_factory=lambda: int(time.time()))
    _seq: int = 0
    _text: list[str] = field(default_factory=list)
    _reasoning: list[str] = field(default_factory=list)
    _calls: list[dict[str, Any]] = field(default_factory=list)
    _usage: Usage | None = None

    def __post_init__(self) -> None:
        self._extractor = StreamExtractor(self.tools)
        self._native = ToolCallAccumulator()
        self._message_id = "msg_" + self.id.removeprefix("resp_")
        self._reasoning_id = "rs_" + self.id.removeprefix("resp_")

    # -- the stream ----------------------------------------------------------------------------------------------

    def start(self) -> list[Event]:
        response = self.response("in_progress")
        return [
            self._event("response.created", response=response),
            self._event("response.in_progress", response=response),
            self._event(
                "response.output_item.added",
                output_index=0,
                item={
                    "id": self._message_id,
                    "type": "message",
                    "role": "assistant",
                    "status": "in_progress",
                    "content": [],
                },
            ),  # fmt: skip
            self._event(
                "response.content_part.added",
                item_id=self._message_id,
                output_index=0,
                content_index=0,
                part={"type": "output_text", "text": "", "annotations": []},
            ),
        ]

    def chunk(self, chunk: Mapping[str, Any]) -> list[Event]:
        """Fold one upstream chat chunk in; the events it makes visible now."""
        usage = parse_usage(chunk)
        if usage is not None:
            self._usage = usage
        events: list[Event] = []
        choices = chunk.get("choices")
        for choice in choices if isinstance(choices, list) else []:
            delta = choice.get("delta", choice.get("message")) if isinstance(choice, Mapping) else None
            if not isinstance(delta, Mapping):
                continue
            for key in ("reasoning_content", "reasoning"):
                if isinstance(delta.get(key), str) and delta[key]:
                    events += self._think(delta[key])
            for call in delta.get("tool_calls") or []:
                if isinstance(call, Mapping):
                    self._native.add(call)
            content = delta.get("content")
            if isinstance(content, str) and content:
                events += self._visible(self._extractor.feed(content))
        return events

    def finish(self) -> list[Event]:
        """The end of a stream: held-back text, the calls, the closing events and the whole response."""
        events = self._visible(self._extractor.flush())
        names = [str(t.get("function", {}).get("name", "")) for t in self.tools]
        native, _ = self._native.finish(names)
        extraction = self._extractor.finish()
        if extraction.reasoning and not self._reasoning:
            events += self._think(extraction.reasoning)  # <think> in the text: never visible, a reasoning item
        events += self._close_reasoning()
        for call in [*native, *extraction.calls]:
            events += self._call(call)
        text = "".join(self._text)
        events += [
            self._event("response.output_text.done", item_id=self._message_id, output_index=0, content_index=0,
                        text=text),
            self._event("response.content_part.done", item_id=self._message_id, output_index=0, content_index=0,
                        part={"type": "output_text", "text": text, "annotations": []}),
            self._event("response.output_item.done", output_index=0, item=self._message("completed")),
        ]  # fmt: skip
        response = self.response("completed")
        events += [
            self._event("response.completed", response=response),
            self._event("response.done", response=response),
        ]
        return events

    def fail(self, code: str, message: str) -> list[Event]:
        """After streaming began, an upstream fault ends the response as failed (never a hung connection)."""
        response = {**self.response("failed"), "error": {"code": code, "message": message}}
        return [self._event("response.failed", response=response)]

    # -- pieces ---------------------------------------------------------------------------------------------------

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
        """Reasoning as a reasoning item (output 1, before any call), streamed as it arrives."""
        events: list[Event] = []
        if not self._reasoning:
            item = {"id": self._reasoning_id, "type": "reasoning", "summary": [], "status": "in_progress"}
            events.append(self._event("response.output_item.added", output_index=1, item=item))
        self._reasoning.append(text)
        events.append(
            self._event("response.reasoning_text.delta", item_id=self._reasoning_id, output_index=1,
                        content_index=0, delta=text)
        )  # fmt: skip
        return events

    def _close_reasoning(self) -> list[Event]:
        if not self._reasoning:
            return []
        text = "".join(self._reasoning)
        return [
            self._event("response.reasoning_text.done", item_id=self._reasoning_id, output_index=1, content_index=0,
                        text=text),
            self._event("response.output_item.done", output_index=1, item=self._reasoning_item()),
        ]  # fmt: skip

    def _reasoning_item(self) -> dict[str, Any]:
        return {
            "id": self._reasoning_id,
            "type": "reasoning",
            "summary": [],
            "content": [{"type": "reasoning_text", "text": "".join(self._reasoning)}],
            "status": "completed",
        }

    def _call(self, call: ToolCall) -> list[Event]:
        index = len(self._calls) + 1 + (1 if self._reasoning else 0)
        call_id = call.id or f"call_{self.id.removeprefix('resp_')[:12]}_{index}"
        item_id = f"fc_{self.id.removeprefix('resp_')[:12]}_{index}"
        custom = call.name in self.custom_tools
        arguments = json.dumps(call.arguments, ensure_ascii=False)
        if custom:
            value = call.arguments.get(CUSTOM_INPUT, "")
            item = {
                "id": item_id,
                "type": "custom_tool_call",
                "call_id": call_id,
                "name": call.name,
                "input": value if isinstance(value, str) else json.dumps(value),
                "status": "completed",
            }
        else:
            item = {"id": item_id, "type": "function_call", "call_id": call_id, "name": call.name,
                    "arguments": arguments, "status": "completed"}  # fmt: skip
        self._calls.append(item)
        pending = {**item, "status": "in_progress", **({"arguments": ""} if not custom else {"input": ""})}
        delta = item["input"] if custom else arguments
        common = {"item_id": item_id, "output_index": index}
        return [
            self._event("response.output_item.added", output_index=index, item=pending),
            self._event("response.output_tool_call.begin", **common, call_id=call_id, name=call.name),
            self._event("response.output_tool_call.delta", **common, call_id=call_id, delta=delta),
            self._event("response.function_call_arguments.delta", **common, delta=delta),
            self._event("response.output_tool_call.end", **common, call_id=call_id),
            self._event("response.function_call_arguments.done", **common, arguments=delta, name=call.name),
            self._event("response.output_item.done", output_index=index, item=item),
        ]

    def assistant_message(self) -> dict[str, Any]:
        """The response as the chat message that continues a conversation (previous_response_id)."""
        message: dict[str, Any] = {"role": "assistant", "content": "".join(self._text)}
        calls = []
        for item in self._calls:
            arguments = (
                item["arguments"] if item["type"] == "function_call" else json.dumps({CUSTOM_INPUT: item["input"]})
            )
            calls.append({"id": item["call_id"], "type": "function",
                          "function": {"name": item["name"], "arguments": arguments}})  # fmt: skip
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
            reasoning = [self._reasoning_item()] if self._reasoning else []
            output = [self._message("completed"), *reasoning, *self._calls]
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
                "output_tokens_details": {"reasoning_tokens": 0},
            },
        }

    def _event(self, type_: str, **data: Any) -> Event:
        self._seq += 1
        return {"type": type_, "sequence_number": self._seq, **data}

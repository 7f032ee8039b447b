"""Native structured replies (§7): OpenAI and Ollama messages, legacy function_call, and stream chunk lists."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pedro.toolcalls.context import issue
from pedro.toolcalls.model import Found
from pedro.toolcalls.names import Registry, make_found

_REASONING_KEYS = ("reasoning_content", "reasoning", "thinking")


@dataclass
class NativeReply:
    """One assistant reply read from a structured payload."""

    content: str = ""
    reasoning: str = ""
    found: list[Found] = field(default_factory=list)
    finish_reason: str | None = None


def _raw(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, default=str)[:400]
    except (ValueError, TypeError, RecursionError):
        return repr(value)[:400]


def content_text(content: Any) -> str:
    """`content` as text: a string, or the concatenated text parts of a content-part list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "".join(parts)
    return ""


def _reasoning(message: dict[str, Any]) -> str:
    return "".join(message[key] for key in _REASONING_KEYS if isinstance(message.get(key), str))


def _native_call(item: Any) -> Found:
    if not isinstance(item, dict):
        return issue("invalid_arguments", "native", _raw(item), error="call_not_object")
    function = item.get("function")
    spec = function if isinstance(function, dict) else item
    args = spec.get("arguments", spec.get("parameters"))
    return make_found(spec.get("name"), args, "native", _raw(item), item.get("id"))


def _unwrap(payload: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The message inside a full response, a choice, or an Ollama reply, with its finish reason."""
    choices = payload.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        choice = choices[0]
        inner = choice.get("message", choice.get("delta"))
        return (inner if isinstance(inner, dict) else {}), _str(choice.get("finish_reason"))
    message = payload.get("message")
    if isinstance(message, dict):
        return message, _str(payload.get("finish_reason", payload.get("done_reason")))
    return payload, _str(payload.get("finish_reason"))


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def read_message(payload: dict[str, Any]) -> NativeReply:
    """One assistant message (OpenAI, Ollama, a full response or a choice)."""
    message, finish = _unwrap(payload)
    calls = message.get("tool_calls")
    items = [calls] if isinstance(calls, dict) else calls if isinstance(calls, list) else []
    legacy = message.get("function_call")
    if isinstance(legacy, dict):
        items = [*items, {"function": legacy}]
    return NativeReply(
        content_text(message.get("content")), _reasoning(message), [_native_call(i) for i in items], finish
    )


@dataclass
class _Pending:
    """One call being assembled from stream deltas."""

    id: str | None = None
    name: str = ""
    fragments: list[str] = field(default_factory=list)
    whole: Any = None


class ChunkAssembler:
    """Assemble OpenAI stream chunks (and Ollama NDJSON chunks) with the drift rules of §7.4."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.content: list[str] = []
        self.reasoning: list[str] = []
        self.calls: list[_Pending] = []
        self.by_index: dict[int, _Pending] = {}
        self.finish_reason: str | None = None

    def add(self, chunk: Any) -> None:
        """Fold one chunk into the reply."""
        if not isinstance(chunk, dict):
            return
        delta: Any = None
        choices = chunk.get("choices")
        if isinstance(choices, list):  # usage-only chunks have no choices
            for choice in choices[:1]:
                if isinstance(choice, dict):
                    delta = choice.get("delta", choice.get("message"))
                    self.finish_reason = _str(choice.get("finish_reason")) or self.finish_reason
        elif isinstance(chunk.get("message"), dict):
            delta = chunk["message"]
            self.finish_reason = _str(chunk.get("done_reason")) or self.finish_reason
        if not isinstance(delta, dict):
            return
        self.content.append(content_text(delta.get("content")))
        self.reasoning.append(_reasoning(delta))
        calls = delta.get("tool_calls")
        for item in [calls] if isinstance(calls, dict) else calls if isinstance(calls, list) else []:
            if isinstance(item, dict):
                self._add_call(item)
        legacy = delta.get("function_call")
        if isinstance(legacy, dict):
            self._add_call({"index": 0, "function": legacy})

    def _target(self, item: dict[str, Any], function: dict[str, Any]) -> _Pending:
        index, call_id = item.get("index"), _str(item.get("id"))
        if isinstance(index, int) and not isinstance(index, bool):
            if index not in self.by_index:
                self.by_index[index] = self._new(call_id)
            return self.by_index[index]
        if call_id:
            for pending in self.calls:
                if pending.id == call_id:
                    return pending
            return self._new(call_id)
        last = self.calls[-1] if self.calls else None
        # no index and no id: a fresh whole call starts a new entry; fragments continue the last one
        if last is None or (isinstance(function.get("name"), str) and last.name and self._complete(last)):
            return self._new(None)
        return last

    def _new(self, call_id: str | None) -> _Pending:
        pending = _Pending(call_id)
        self.calls.append(pending)
        return pending

    @staticmethod
    def _complete(pending: _Pending) -> bool:
        if pending.whole is not None:
            return True
        try:
            json.loads("".join(pending.fragments))
        except (ValueError, RecursionError):
            return False
        return True

    def _add_call(self, item: dict[str, Any]) -> None:
        function = item.get("function")
        function = function if isinstance(function, dict) else item
        pending = self._target(item, function)
        pending.id = pending.id or _str(item.get("id"))
        name = function.get("name")
        if isinstance(name, str) and name and name != pending.name:
            joined = pending.name + name
            # gateways repeat the full name in every chunk; Gemini splits it: append unless it is a repeat
            if not pending.name or self.registry.resolve(joined)[1] is None or not self._registered(pending.name):
                pending.name = joined if pending.name else name
        args = function.get("arguments", function.get("parameters"))
        if isinstance(args, str):
            pending.fragments.append(args)
        elif args is not None and not "".join(pending.fragments):
            pending.whole = args

    def _registered(self, name: str) -> bool:
        return self.registry.resolve(name)[1] is None

    def reply(self) -> NativeReply:
        """The assembled reply."""
        found: list[Found] = []
        for pending in self.calls:
            name = self._dedupe(pending.name)
            args = pending.whole if pending.whole is not None else "".join(pending.fragments)
            raw = _raw({"id": pending.id, "name": name, "arguments": args})
            found.append(make_found(name, args, "native", raw, pending.id))
        return NativeReply("".join(self.content), "".join(self.reasoning), found, self.finish_reason)

    def _dedupe(self, name: str) -> str:
        """`read_fileread_file` from a gateway that repeated a name is `read_file` when that is registered."""
        if self._registered(name):
            return name
        for size in range(1, len(name) // 2 + 1):
            if len(name) % size == 0 and name[:size] * (len(name) // size) == name and self._registered(name[:size]):
                return name[:size]
        return name


def read_chunks(chunks: list[Any], registry: Registry) -> NativeReply:
    """A list of stream chunks (each the parsed JSON of one `data:` line or NDJSON line)."""
    assembler = ChunkAssembler(registry)
    for chunk in chunks:
        assembler.add(chunk)
    return assembler.reply()

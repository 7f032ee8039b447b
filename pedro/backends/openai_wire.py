"""The OpenAI chat wire format: message translation, the streaming tool-call accumulator, reply parsing."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pedro.messages import Completion, Message, TokenChoice, ToolCall, Usage


def to_openai_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """pedro messages in OpenAI chat shape; call arguments travel as JSON strings."""
    wire: list[dict[str, Any]] = []
    for message in messages:
        item: dict[str, Any] = {"role": message.role, "content": message.content}
        if message.role == "assistant" and message.tool_calls:
            item["tool_calls"] = [_call_to_wire(call) for call in message.tool_calls]
        if message.role == "tool":
            if message.tool_call_id is not None:
                item["tool_call_id"] = message.tool_call_id
            if message.name is not None:
                item["name"] = message.name
        wire.append(item)
    return wire


def _call_to_wire(call: ToolCall) -> dict[str, Any]:
    item: dict[str, Any] = {
        "type": "function",
        "function": {"name": call.name, "arguments": json.dumps(call.arguments, ensure_ascii=False)},
    }
    if call.id is not None:
        item["id"] = call.id
    return item


def parse_arguments(value: Any) -> dict[str, Any] | None:
    """Call arguments as a dict: an object, a JSON string, or a JSON string of a JSON string; None if unreadable."""
    if isinstance(value, dict):
        return value
    if value is None or (isinstance(value, str) and not value.strip()):
        return {}
    if not isinstance(value, str):
        return None
    try:
        decoded = json.loads(value)
    except ValueError:
        return None
    if isinstance(decoded, str):  # some servers double-encode
        return parse_arguments(decoded)
    return decoded if isinstance(decoded, dict) else None


def _is_complete_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@dataclass
class _Slot:
    order: int
    index: int | None = None
    id: str | None = None
    name: str = ""
    arguments: str = ""
    arguments_object: dict[str, Any] | None = None

    def add_name(self, fragment: str) -> None:
        # Servers differ: some send the name once, some repeat it whole in every chunk, some split it.
        if not fragment or fragment == self.name:
            return
        if self.name and fragment.startswith(self.name):
            self.name = fragment
        else:
            self.name += fragment

    def add_arguments(self, fragment: Any) -> None:
        if isinstance(fragment, dict):
            self.arguments_object = fragment
            self.arguments = ""
            return
        if not isinstance(fragment, str) or not fragment:
            return
        # A final delta may repeat the whole call after its fragments: a complete document replaces, never appends.
        if (
            self.arguments
            and _is_complete_json(self.arguments)
            and (fragment.startswith(self.arguments) or _is_complete_json(fragment))
        ):
            self.arguments = fragment
            return
        self.arguments += fragment


@dataclass
class ToolCallAccumulator:
    """Assembles streamed `tool_calls` deltas, however the server splits, repeats or omits their parts."""

    _slots: dict[str, _Slot] = field(default_factory=dict)
    _last: _Slot | None = None

    def add(self, delta_call: Mapping[str, Any]) -> None:
        """Fold one element of a delta's `tool_calls` list into the accumulated state."""
        slot = self._slot_for(delta_call)
        call_id = delta_call.get("id")
        if isinstance(call_id, str) and call_id:
            slot.id = call_id
            self._slots.setdefault(f"id:{call_id}", slot)
        function = delta_call.get("function")
        if isinstance(function, Mapping):
            name = function.get("name")
            if isinstance(name, str):
                slot.add_name(name)
            slot.add_arguments(function.get("arguments"))
        self._last = slot

    def _slot_for(self, delta_call: Mapping[str, Any]) -> _Slot:
        index = delta_call.get("index")
        call_id = delta_call.get("id")
        slot: _Slot | None = None
        if isinstance(call_id, str) and call_id:
            slot = self._slots.get(f"id:{call_id}")
        if slot is None and isinstance(index, int):
            slot = self._slots.get(f"index:{index}")
            if slot is None:
                # A call first seen without an index keeps its position: adopt it rather than open a twin.
                slot = next((s for s in self._unique_slots() if s.index is None and s.order == index), None)
        if slot is None and not isinstance(index, int):
            slot = self._unindexed_slot(call_id)
        if slot is None:
            slot = self._new_slot()
        if isinstance(index, int) and slot.index is None:
            slot.index = index
            self._slots.setdefault(f"index:{index}", slot)
        return slot

    def _unindexed_slot(self, call_id: object) -> _Slot | None:
        """The open call a delta with no index and an unseen id (or none) continues; None for a new call."""
        if isinstance(call_id, str) and call_id:
            # An unseen id and no index: a new call, unless the only open call has no id yet.
            unique = self._unique_slots()
            return unique[0] if len(unique) == 1 and unique[0].id is None else None
        # Neither index nor id: continue the call in progress (index 0 when there is none yet).
        return self._last

    def _new_slot(self) -> _Slot:
        slot = _Slot(order=len(self._unique_slots()))
        self._slots[f"order:{slot.order}"] = slot
        return slot

    def _unique_slots(self) -> list[_Slot]:
        seen: dict[int, _Slot] = {}
        for slot in self._slots.values():
            seen.setdefault(id(slot), slot)
        return sorted(seen.values(), key=lambda s: s.order)

    def finish(self, known_names: Sequence[str] = ()) -> tuple[tuple[ToolCall, ...], list[dict[str, Any]]]:
        """The parsed calls (those with a name and readable arguments) and every call in wire shape, as assembled."""
        calls: list[ToolCall] = []
        wire: list[dict[str, Any]] = []
        for slot in self._unique_slots():
            name = _repair_name(slot.name, known_names)
            raw_arguments: Any = slot.arguments_object if slot.arguments_object is not None else slot.arguments
            item: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": raw_arguments}}
            if slot.id is not None:
                item["id"] = slot.id
            wire.append(item)
            arguments = parse_arguments(raw_arguments)
            if name and arguments is not None:
                calls.append(ToolCall(name=name, arguments=arguments, id=slot.id))
        return tuple(calls), wire


def _repair_name(name: str, known_names: Sequence[str]) -> str:
    """Undo a name that a server repeated and pedro concatenated ("filefile" -> "file")."""
    if not name or name in known_names:
        return name
    for known in known_names:
        if known and len(name) % len(known) == 0 and name == known * (len(name) // len(known)):
            return known
    return name


def parse_usage(payload: Mapping[str, Any]) -> Usage | None:
    """Usage from an OpenAI `usage` object, with llama-server's `timings.cache_n` as the cached count fallback."""
    usage = payload.get("usage")
    timings = payload.get("timings")
    if not isinstance(usage, Mapping):
        return None
    details = usage.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, Mapping) else None
    if not isinstance(cached, int) and isinstance(timings, Mapping):
        cached = timings.get("cache_n")
    return Usage(
        prompt_tokens=_int(usage.get("prompt_tokens")),
        completion_tokens=_int(usage.get("completion_tokens")),
        cached_tokens=_int(cached),
    )


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass
class StreamAssembler:
    """Builds one Completion from OpenAI streaming chunks; always finalises from the accumulated state."""

    known_names: Sequence[str] = ()
    text: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    calls: ToolCallAccumulator = field(default_factory=ToolCallAccumulator)
    usage: Usage | None = None
    timings: dict[str, Any] = field(default_factory=dict)
    finish_reason: str | None = None
    last_chunk: dict[str, Any] = field(default_factory=dict)
    tokens: list[TokenChoice] = field(default_factory=list)

    def add(self, chunk: dict[str, Any]) -> str:
        """Fold one chunk in and return the visible text it added (for on_token)."""
        self.last_chunk = chunk
        usage = parse_usage(chunk)
        if usage is not None:
            self.usage = usage
        timings = chunk.get("timings")
        if isinstance(timings, dict):
            self.timings = timings
        added: list[str] = []
        choices = chunk.get("choices")
        for choice in choices if isinstance(choices, list) else []:
            if not isinstance(choice, Mapping):
                continue
            reason = choice.get("finish_reason")
            if isinstance(reason, str):
                self.finish_reason = reason
            # Some servers put the whole message in the last chunk rather than in `delta`.
            delta = choice.get("delta", choice.get("message"))
            if isinstance(delta, Mapping):
                added.append(self._add_delta(delta))
            self.tokens.extend(token_choices(choice.get("logprobs")))
        return "".join(added)

    def _add_delta(self, delta: Mapping[str, Any]) -> str:
        for key in ("reasoning_content", "reasoning"):
            value = delta.get(key)
            if isinstance(value, str):
                self.reasoning.append(value)
        tool_calls = delta.get("tool_calls")
        for call in tool_calls if isinstance(tool_calls, list) else []:
            if isinstance(call, Mapping):
                self.calls.add(call)
        content = delta.get("content")
        if isinstance(content, str) and content:
            self.text.append(content)
            return content
        return ""

    def finish(self) -> Completion:
        """The Completion of everything accumulated so far."""
        text = "".join(self.text)
        calls, wire_calls = self.calls.finish(self.known_names)
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if wire_calls:
            message["tool_calls"] = wire_calls
        if self.reasoning:
            message["reasoning_content"] = "".join(self.reasoning)
        return Completion(
            text=text,
            tool_calls=calls,
            reasoning="".join(self.reasoning),
            usage=self.usage or Usage(),
            timings=self.timings,
            finish_reason=self.finish_reason,
            raw={"message": message, "last_chunk": self.last_chunk},
            tokens=tuple(self.tokens),
        )


def token_choices(logprobs: Any) -> list[TokenChoice]:
    """The tokens of a choice's `logprobs` (`{"content": [{"token", "logprob", "top_logprobs": [...]}]}`)."""
    return token_entries(logprobs.get("content") if isinstance(logprobs, Mapping) else None)


def token_entries(entries: Any) -> list[TokenChoice]:
    """The tokens of a list of `{"token", "logprob", "top_logprobs": [{"token", "logprob"}, ...]}` entries, the shape
    OpenAI's `logprobs.content` and Ollama's `logprobs` share; entries that are not of that shape are left out."""
    choices = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("token"), str):
            continue
        likeliest = entry.get("top_logprobs")
        choices.append(
            TokenChoice(
                entry["token"],
                _float(entry.get("logprob")),
                tuple(
                    (one["token"], _float(one.get("logprob")))
                    for one in (likeliest if isinstance(likeliest, list) else [])
                    if isinstance(one, Mapping) and isinstance(one.get("token"), str)
                ),
            )
        )
    return choices


def _float(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else float("-inf")


def parse_chat_response(payload: dict[str, Any], known_names: Sequence[str] = ()) -> Completion:
    """A Completion from a non-streaming `/chat/completions` reply."""
    assembler = StreamAssembler(known_names=known_names)
    choices = payload.get("choices")
    first = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], Mapping) else {}
    message = first.get("message")
    if isinstance(message, Mapping):
        message = dict(message)
        calls = message.get("tool_calls")
        if isinstance(calls, list):
            # A whole message lists distinct calls; number them so none is mistaken for a continuation.
            message["tool_calls"] = [
                {"index": position, **call} if isinstance(call, Mapping) and "index" not in call else call
                for position, call in enumerate(calls)
            ]
        choice = {"delta": message, "finish_reason": first.get("finish_reason"), "logprobs": first.get("logprobs")}
        assembler.add({"choices": [choice]})
    usage = parse_usage(payload)
    if usage is not None:
        assembler.usage = usage
    if isinstance(payload.get("timings"), dict):
        assembler.timings = payload["timings"]
    completion = assembler.finish()
    return Completion(
        text=completion.text,
        tool_calls=completion.tool_calls,
        reasoning=completion.reasoning,
        usage=completion.usage,
        timings=completion.timings,
        finish_reason=completion.finish_reason,
        raw={"message": completion.raw["message"], "response": payload},
        tokens=completion.tokens,
    )

"""A Responses API request as a Chat Completions request: instructions and input items become messages, tools
become functions (custom tools take one string), and the sampling fields map across."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CUSTOM_INPUT = "input"
"""The one string parameter a custom (freeform) tool becomes as a function."""


@dataclass
class ChatRequest:
    """The upstream request, and what the response side needs to know about the tools."""

    body: dict[str, Any]
    custom_tools: frozenset[str] = frozenset()
    dropped_tools: tuple[str, ...] = ()
    tools: list[dict[str, Any]] = field(default_factory=list)


class RequestError(ValueError):
    """The request cannot be translated; the message is for the client (HTTP 400)."""


def to_chat(request: Mapping[str, Any], default_model: str, history: list[dict[str, Any]] | None = None) -> ChatRequest:
    """The Chat Completions request for a Responses request (fields with no chat equivalent are ignored).

    `history` is the conversation of the response named by `previous_response_id` (its instructions left out:
    those of this request apply)."""
    messages: list[dict[str, Any]] = []
    instructions = request.get("instructions")
    if isinstance(instructions, str) and instructions.strip():
        messages.append({"role": "system", "content": instructions})
    messages += [dict(message) for message in history or [] if message.get("role") != "system"]
    given = request.get("input", [])
    if isinstance(given, str):
        messages.append({"role": "user", "content": given})
    elif isinstance(given, list):
        for item in given:
            if isinstance(item, Mapping):
                _add_item(messages, item)
    else:
        raise RequestError("`input` must be a string or a list of items")
    tools, custom, dropped = _tools(request.get("tools") or [])
    body: dict[str, Any] = {
        "model": request.get("model") or default_model,
        "messages": messages,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if tools:
        body["tools"] = tools
        choice = _tool_choice(request.get("tool_choice"))
        if choice is not None:
            body["tool_choice"] = choice
        if isinstance(request.get("parallel_tool_calls"), bool):
            body["parallel_tool_calls"] = request["parallel_tool_calls"]
    for source, target in (("temperature", "temperature"), ("top_p", "top_p"), ("max_output_tokens", "max_tokens")):
        if isinstance(request.get(source), int | float) and not isinstance(request.get(source), bool):
            body[target] = request[source]
    return ChatRequest(body, frozenset(custom), tuple(dropped), tools)


def _add_item(messages: list[dict[str, Any]], item: Mapping[str, Any]) -> None:
    kind = item.get("type") or ("message" if "role" in item else "")
    if kind == "message":
        role = str(item.get("role") or "user")
        role = "system" if role == "developer" else role
        messages.append({"role": role, "content": _text(item.get("content"))})
    elif kind in ("function_call", "custom_tool_call"):
        arguments = (
            item.get("arguments") if kind == "function_call" else json.dumps({CUSTOM_INPUT: item.get("input", "")})
        )
        call = {
            "id": str(item.get("call_id") or item.get("id") or f"call_{len(messages)}"),
            "type": "function",
            "function": {"name": str(item.get("name", "")), "arguments": str(arguments or "{}")},
        }
        last = messages[-1] if messages else None
        if last is None or last.get("role") != "assistant":
            last = {"role": "assistant", "content": None}
            messages.append(last)
        last.setdefault("tool_calls", []).append(call)
    elif kind in ("function_call_output", "custom_tool_call_output"):
        messages.append(
            {"role": "tool", "tool_call_id": str(item.get("call_id", "")), "content": _text(item.get("output"))}
        )
    # reasoning items and anything else without a chat equivalent are left out


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, Mapping) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, str):
                parts.append(part)
        return "".join(parts)
    return "" if content is None else json.dumps(content)


def _tools(given: Any) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    tools: list[dict[str, Any]] = []
    custom: list[str] = []
    dropped: list[str] = []
    for tool in given if isinstance(given, list) else []:
        if not isinstance(tool, Mapping):
            continue
        kind = tool.get("type")
        if kind == "function" and tool.get("name"):
            function = {"name": tool["name"], "parameters": tool.get("parameters") or {"type": "object"}}
            if tool.get("description"):
                function["description"] = tool["description"]
            tools.append({"type": "function", "function": function})
        elif kind == "custom" and tool.get("name"):
            custom.append(str(tool["name"]))
            parameters = {
                "type": "object",
                "properties": {CUSTOM_INPUT: {"type": "string", "description": "The tool's whole input."}},
                "required": [CUSTOM_INPUT],
            }
            function = {"name": tool["name"], "parameters": parameters}
            if tool.get("description"):
                function["description"] = tool["description"]
            tools.append({"type": "function", "function": function})
        else:
            dropped.append(str(kind or "unknown"))
    return tools, custom, dropped


def _tool_choice(choice: Any) -> Any:
    if choice in ("auto", "none", "required"):
        return choice
    if isinstance(choice, Mapping) and choice.get("type") == "function" and choice.get("name"):
        return {"type": "function", "function": {"name": choice["name"]}}
    return None

"""A Responses API request as a Chat Completions request: instructions and input items become messages, tools
become functions (custom tools take one string, a namespace's tools are flattened to `namespace__tool`), and the
sampling fields map across."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CUSTOM_INPUT = "input"
"""The one string parameter a custom (freeform) tool becomes as a function."""

# Between a namespace and its tool in the flattened function name: every chat server takes `[A-Za-z0-9_-]` names
# (OpenAI refuses dots), and vLLM flattens namespace tools the same way. Calls map back through the table of the
# request (ChatRequest.namespaced), never by splitting, so a namespace or a tool may itself contain `__`.
NAMESPACE_SEPARATOR = "__"


def flat_name(namespace: str, name: str) -> str:
    """The function name a namespace's tool goes upstream as. Codex's namespaces for MCP servers end in the
    separator already (`mcp__docs__`), and their tools go up as `mcp__docs__search`, as Codex itself names them."""
    if namespace.endswith(NAMESPACE_SEPARATOR):
        return f"{namespace}{name}"
    return f"{namespace}{NAMESPACE_SEPARATOR}{name}"


@dataclass
class ChatRequest:
    """The upstream request, and what the response side needs to know about the tools."""

    body: dict[str, Any]
    custom_tools: frozenset[str] = frozenset()
    dropped_tools: tuple[str, ...] = ()
    tools: list[dict[str, Any]] = field(default_factory=list)
    namespaced: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Flattened function name → (namespace, tool), for the calls on the way back."""


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
    _add_input(messages, request.get("input", []))
    tools, custom, dropped, namespaced = _tools(request.get("tools") or [])
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
    body.update(_sampling(request))
    return ChatRequest(body, frozenset(custom), tuple(dropped), tools, namespaced)


def _add_input(messages: list[dict[str, Any]], given: Any) -> None:
    """The request's `input`, a user's text or a list of items, added as chat messages."""
    if isinstance(given, str):
        messages.append({"role": "user", "content": given})
    elif isinstance(given, list):
        for item in given:
            if isinstance(item, Mapping):
                _add_item(messages, item)
    else:
        raise RequestError("`input` must be a string or a list of items")


def _sampling(request: Mapping[str, Any]) -> dict[str, Any]:
    """The sampling settings the request gives as numbers, under their chat names."""
    options: dict[str, Any] = {}
    for source, target in (("temperature", "temperature"), ("top_p", "top_p"), ("max_output_tokens", "max_tokens")):
        if isinstance(request.get(source), int | float) and not isinstance(request.get(source), bool):
            options[target] = request[source]
    return options


def _add_item(messages: list[dict[str, Any]], item: Mapping[str, Any]) -> None:
    kind = item.get("type") or ("message" if "role" in item else "")
    if kind == "message":
        role = str(item.get("role") or "user")
        role = "system" if role == "developer" else role
        text = _text(item.get("content"))
        if role == "assistant":
            _add_assistant_text(messages, text)
            return
        messages.append({"role": role, "content": text})
    elif kind in ("function_call", "custom_tool_call"):
        _add_call(messages, item, kind)
    elif kind in ("function_call_output", "custom_tool_call_output"):
        messages.append(
            {"role": "tool", "tool_call_id": str(item.get("call_id", "")), "content": _text(item.get("output"))}
        )
    # reasoning items and anything else without a chat equivalent are left out


def _add_call(messages: list[dict[str, Any]], item: Mapping[str, Any], kind: str) -> None:
    """A function or custom tool call item, added to the assistant message it follows (or a new one)."""
    arguments = item.get("arguments") if kind == "function_call" else json.dumps({CUSTOM_INPUT: item.get("input", "")})
    name = str(item.get("name", ""))
    if isinstance(item.get("namespace"), str) and item["namespace"]:
        name = flat_name(item["namespace"], name)
    call = {
        "id": str(item.get("call_id") or item.get("id") or f"call_{len(messages)}"),
        "type": "function",
        "function": {"name": name, "arguments": str(arguments or "{}")},
    }
    last = messages[-1] if messages else None
    if last is None or last.get("role") != "assistant":
        last = {"role": "assistant", "content": None}
        messages.append(last)
    last.setdefault("tool_calls", []).append(call)


def _add_assistant_text(messages: list[dict[str, Any]], text: str) -> None:
    """An assistant message item. A client replays a response's output items in the order they completed, so the
    message (often empty) can come after the response's calls: an empty one is left out, and text right after an
    assistant message with calls and no text joins it. Otherwise assistant(tool_calls) → assistant("") → tool would
    reach the model server, which strict chat templates refuse."""
    if not text.strip():
        return
    last = messages[-1] if messages else None
    if last is not None and last.get("role") == "assistant" and last.get("tool_calls") and not last.get("content"):
        last["content"] = text
        return
    messages.append({"role": "assistant", "content": text})


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


def _tools(given: Any) -> tuple[list[dict[str, Any]], list[str], list[str], dict[str, tuple[str, str]]]:
    tools: list[dict[str, Any]] = []
    custom: list[str] = []
    dropped: list[str] = []
    namespaced: dict[str, tuple[str, str]] = {}
    taken: set[str] = set()

    def add(tool: Mapping[str, Any], name: str, namespace: str | None = None) -> None:
        function = _function(tool, name)
        if function is None:
            dropped.append(str(tool.get("type") or "unknown") + (f" {name}" if namespace else ""))
        elif name in taken:
            # a flattened name that another tool already has would make its calls ambiguous: the first one keeps it
            dropped.append(f"{tool.get('type')} {name} (a second tool of that name)")
        else:
            tools.append(function)
            taken.add(name)
            if tool.get("type") == "custom":
                custom.append(name)
            if namespace is not None:
                namespaced[name] = (namespace, str(tool["name"]))

    for tool in given if isinstance(given, list) else []:
        if not isinstance(tool, Mapping):
            continue
        namespace = tool.get("name")
        if tool.get("type") == "namespace" and isinstance(namespace, str) and namespace:
            for inner in tool.get("tools") or []:
                if isinstance(inner, Mapping) and isinstance(inner.get("name"), str) and inner["name"]:
                    add(inner, flat_name(namespace, inner["name"]), namespace)
        else:
            add(tool, str(tool.get("name") or ""))
    return tools, custom, dropped, namespaced


def _function(tool: Mapping[str, Any], name: str) -> dict[str, Any] | None:
    """A function or custom tool as a chat function named `name`; None for any other kind."""
    kind = tool.get("type")
    if not name or kind not in ("function", "custom"):
        return None
    if kind == "function":
        parameters = tool.get("parameters") or {"type": "object"}
    else:
        parameters = {
            "type": "object",
            "properties": {CUSTOM_INPUT: {"type": "string", "description": "The tool's whole input."}},
            "required": [CUSTOM_INPUT],
        }
    function: dict[str, Any] = {"name": name, "parameters": parameters}
    if tool.get("description"):
        function["description"] = tool["description"]
    return {"type": "function", "function": function}


def _tool_choice(choice: Any) -> Any:
    if choice in ("auto", "none", "required"):
        return choice
    if isinstance(choice, Mapping) and choice.get("type") == "function" and choice.get("name"):
        name = str(choice["name"])
        if isinstance(choice.get("namespace"), str) and choice["namespace"]:
            name = flat_name(choice["namespace"], name)
        return {"type": "function", "function": {"name": name}}
    return None

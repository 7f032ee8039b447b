"""A llama.cpp GBNF grammar that lets a reply be only fenced tool calls (JSON bodies) or the completion marker."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

COMPLETION_MARKER: Final = "TASK COMPLETE"
MAX_CALLS: Final = 3
"""Calls one constrained reply may hold: tiny models repeat a call until the bound, so it stays small."""
SUMMARY_MAX_CHARS: Final = 240
"""Characters of the one-line summary after the marker."""
MAX_DEPTH: Final = 3
"""Nesting of JSON objects and arrays inside a value whose schema pedro does not type."""

# Shared JSON rules. Strings may hold escapes but no raw newline or control character, so a call is one line
# and can never contain its own closing fence. Whitespace is at most one space: tiny models otherwise loop on it.
_JSON_RULES: Final = r"""ws ::= " "?
string ::= "\"" char* "\""
char ::= [^"\\\x00-\x1f] | "\\" (["\\/bfnrt] | "u" hex hex hex hex)
hex ::= [0-9a-fA-F]
integer ::= "-"? ([0-9] | [1-9] [0-9]{1,15})
number ::= integer ("." [0-9]{1,15})? ([eE] [-+]? [0-9]{1,3})?
boolean ::= "true" | "false"
string-array ::= "[" ws (string (ws "," ws string)*)? ws "]"
"""

_RULE_CHARS = re.compile(r"[^a-zA-Z0-9]+")


def build_call_grammar(tools: Sequence[Mapping[str, Any]], *, max_calls: int = MAX_CALLS) -> str | None:
    """The GBNF for replies that are 1..max_calls fenced calls to `tools`, or the marker and a summary.

    Each tool's body is a JSON object whose keys and value types follow its parameter schema, required keys
    first. The text depends only on `tools`, so every round of a job sends the same bytes. None when no tool
    has a usable name.
    """
    rules: list[str] = []
    alternatives: list[str] = []
    seen: set[str] = set()
    for spec in tools:
        name, parameters = _read_spec(spec)
        if not name or name in seen or not _is_plain_name(name):
            continue
        seen.add(name)
        # The index keeps rule names unique even when two tool names differ only in punctuation.
        rule = f"call{len(alternatives)}-{_rule_name(name)}"
        alternatives.append(rule)
        body, extra = _object_rules(rule, parameters)
        rules.append(f'{rule} ::= "```" {_literal(name)} "\\n" {body} "\\n```"')
        rules.extend(extra)
    if not alternatives:
        return None
    head = [
        "root ::= calls | done",
        "calls ::= call" + (f' ("\\n\\n" call){{0,{max_calls - 1}}}' if max_calls > 1 else ""),
        "call ::= " + " | ".join(alternatives),
        f'done ::= {_literal(COMPLETION_MARKER)} "\\n" [^\\n`]{{1,{SUMMARY_MAX_CHARS}}}',
    ]
    text = "\n".join([*head, *rules])
    if "value-1" in text or "object-1" in text:
        text += "\n" + "\n".join(_generic_value_rules())
    return text + "\n" + _JSON_RULES


def _read_spec(spec: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """Name and parameter schema of an OpenAI-style tool definition (or a bare {"name", "parameters"})."""
    function = spec.get("function")
    source = function if isinstance(function, Mapping) else spec
    name = source.get("name")
    parameters = source.get("parameters")
    return (name if isinstance(name, str) else ""), (parameters if isinstance(parameters, Mapping) else {})


def _is_plain_name(name: str) -> bool:
    # The name becomes a fence info string: it must be one word the fence reader takes back unchanged.
    return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}", name) is not None


def _rule_name(name: str) -> str:
    return _RULE_CHARS.sub("-", name).strip("-").lower() or "tool"


def _literal(text: str) -> str:
    """A GBNF string literal; JSON escaping is a subset GBNF reads the same way."""
    return json.dumps(text, ensure_ascii=True)


def _object_rules(rule: str, parameters: Mapping[str, Any]) -> tuple[str, list[str]]:
    """The body expression for one tool and the rules it needs.

    Required pairs come first, then each optional pair at most once, in schema order: a key can never repeat,
    which is how tiny models otherwise fill max_tokens (`"replace_all": true, "replace_all": true, ...`).
    """
    properties = parameters.get("properties")
    if not isinstance(properties, Mapping) or not properties:
        return "object-1", []
    required_keys = parameters.get("required")
    required = [k for k in (required_keys or []) if isinstance(k, str) and k in properties]
    optional = [k for k in properties if isinstance(k, str) and k not in required]
    pairs = {key: f"{rule}-k{index}" for index, key in enumerate([*required, *optional])}
    rules = [
        f'{pairs[key]} ::= {_literal(json.dumps(key))} ws ":" ws {_value_expression(properties[key])}' for key in pairs
    ]

    def tail(keys: Sequence[str]) -> str:
        return "".join(f' (ws "," ws {pairs[key]})?' for key in keys)

    if required:
        first = ' ws "," ws '.join(pairs[key] for key in required)
        return f'"{{" ws {first}{tail(optional)} ws "}}"', rules
    # No key is required: the first pair written has no comma before it, whichever it is.
    some = f"{rule}-some"
    starts = [f"{pairs[key]}{tail(optional[index + 1 :])}" for index, key in enumerate(optional)]
    rules.append(f"{some} ::= " + " | ".join(starts))
    return f'"{{" ws {some}? ws "}}"', rules


def _value_expression(schema: Any) -> str:
    """A GBNF expression for one property's value, typed where the schema says and generic JSON otherwise."""
    if not isinstance(schema, Mapping):
        return "value-1"
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and all(isinstance(item, str) for item in enum):
        return "(" + " | ".join(_literal(json.dumps(item)) for item in enum) + ")"
    options = schema.get("anyOf")
    if isinstance(options, list):
        # Optional arguments are `X | null` in pydantic's schema; the model has no reason to write null.
        typed = [option for option in options if not (isinstance(option, Mapping) and option.get("type") == "null")]
        if len(typed) == 1:
            return _value_expression(typed[0])
        return "value-1"
    return _typed_expression(schema)


# The rule for a value of each scalar JSON Schema type, named as the type is.
_SCALAR_RULES = {"string": "string", "integer": "integer", "number": "number", "boolean": "boolean"}


def _typed_expression(schema: Mapping[str, Any]) -> str:
    """The rule for a value the schema gives a `type`: a scalar, a list of strings, else generic JSON."""
    kind = schema.get("type")
    if isinstance(kind, str) and kind in _SCALAR_RULES:
        return _SCALAR_RULES[kind]
    if kind == "array":
        items = schema.get("items")
        if isinstance(items, Mapping) and items.get("type") == "string":
            return "string-array"
    return "value-1"


def _generic_value_rules() -> list[str]:
    """value-1 .. value-MAX_DEPTH: any JSON value, with objects and arrays only while depth is left."""
    rules = []
    for depth in range(1, MAX_DEPTH + 1):
        scalars = 'string | number | boolean | "null"'
        if depth == MAX_DEPTH:
            rules.append(f"value-{depth} ::= {scalars}")
            continue
        inner = f"value-{depth + 1}"
        rules.append(f"value-{depth} ::= {scalars} | object-{depth + 1} | array-{depth + 1}")
        rules.append(f'array-{depth + 1} ::= "[" ws ({inner} (ws "," ws {inner})*)? ws "]"')
        rules.append(
            f'object-{depth + 1} ::= "{{" ws (string ws ":" ws {inner} (ws "," ws string ws ":" ws {inner})*)? ws "}}"'
        )
    # object-1 is the body of a tool whose schema lists no properties.
    rules.append('object-1 ::= "{" ws (string ws ":" ws value-1 (ws "," ws string ws ":" ws value-1)*)? ws "}"')
    return rules

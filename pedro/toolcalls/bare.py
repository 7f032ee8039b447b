"""Bare JSON and pythonic calls (§6): Llama 3.x/4 JSON, xLAM arrays, llama.cpp Generic, pythonic lists."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from typing import Any

from pedro.toolcalls.context import Scan, issue, truncated
from pedro.toolcalls.jsonscan import read_json, scan_value
from pedro.toolcalls.jsontags import calls_from_value
from pedro.toolcalls.model import Candidate, Found, Segment
from pedro.toolcalls.names import make_found

Handler = Callable[[Scan, int, str], Segment | None]

_CALL_START = re.compile(r"[\[{]\s*(?:\{\s*)?[\"'](?:name|type|function|tool_call|tool_calls|tool_name)[\"']\s*:")
_RESPONSE_START = re.compile(r"\{\s*\"response\"\s*:")
_PYTHONIC_START = re.compile(r"\[\s*[A-Za-z_][\w.]*\(")
_TAIL_TOKENS = ("<|eot_id|>", "<|eom_id|>", "<|im_end|>", "</s>", "<|end_of_text|>", "<|endoftext|>")


def _rest_is_empty(text: str) -> bool:
    rest = text.strip()
    for token in _TAIL_TOKENS:
        rest = rest.replace(token, "")
    return not rest.strip()


def _call_shaped(value: Any) -> bool:
    if isinstance(value, list):
        return bool(value) and all(_call_shaped(item) for item in value)
    if not isinstance(value, dict):
        return False
    if isinstance(value.get("tool_call"), dict) or isinstance(value.get("tool_calls"), list):
        return True
    if isinstance(value.get("function"), dict):
        return "name" in value["function"]
    has_name = "name" in value or "tool_name" in value
    return has_name and ("arguments" in value or "parameters" in value)


def bare_json(scan: Scan, start: int, token: str) -> Segment | None:
    """A JSON call object or array at a line start; outside a whole-reply unit its name must be registered."""
    text = scan.text
    at = start + 1 if text[start] == "\n" else start
    if _PYTHONIC_START.match(text, at):
        return pythonic(scan, at, "pythonic", None)
    response = _RESPONSE_START.match(text, at) is not None
    if not _CALL_START.match(text, at) and not response:
        if not scan.final and "\n" not in text[at:] and len(text) - at < 24:
            return Segment(len(text), role="text", incomplete=True)  # too short to tell yet
        return None
    return _json_calls(scan, at, response)


def _json_calls(scan: Scan, at: int, response: bool) -> Segment | None:
    """The JSON call values that follow one another from `at`; `response` when it opens `{"response":`."""
    text = scan.text
    whole = scan.whole or scan.at_start(at)
    found: list[Found] = []
    pos = at
    while True:
        read = read_json(text, pos)
        if read.status == "truncated":
            return truncated(scan, at, "json", extra=found)
        if read.status == "invalid":
            if whole and not found:
                return Segment(read.end, [issue("invalid_json", "json", text[at : read.end], error=read.error)])
            break
        if response and not found and _is_response(read.value):
            return _response_text(scan, read.value["response"], read.end, whole)
        calls = _calls_taken(scan, read.value, text[pos : read.end], read.end, whole)
        if calls is None:
            break
        found.extend(calls)
        pos = read.end
        nxt = _next_call(scan, pos)
        if nxt is None:
            break
        pos = nxt
    return Segment(pos, found) if found else None


def _is_response(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"response"}


def _response_text(scan: Scan, response: Any, end: int, whole: bool) -> Segment | None:
    """`{"response": "…"}` is how Llama answers in words: as the whole reply it is text, anywhere else nothing."""
    if isinstance(response, str) and whole and _rest_is_empty(scan.text[end:]):
        return Segment(end, role="text", visible=response)
    return None


def _calls_taken(scan: Scan, value: Any, raw: str, end: int, whole: bool) -> list[Found] | None:
    """The calls in a call-shaped value that names registered tools or is all the reply holds; else None."""
    if not _call_shaped(value):
        return None
    calls = calls_from_value(value, _dialect(value), raw)
    known = all(scan.registry.resolve(c.name)[1] is None for c in calls if isinstance(c, Candidate))
    if not (known or (whole and _rest_is_empty(scan.text[end:]))):
        return None
    return calls


def _next_call(scan: Scan, pos: int) -> int | None:
    """Where a further call value starts after `pos`, or None when none follows."""
    nxt = scan.skip_ws(pos)
    if scan.text.startswith(";", nxt):  # Llama separates parallel calls with "; "
        nxt = scan.skip_ws(nxt + 1)
    return nxt if _CALL_START.match(scan.text, nxt) else None


def _dialect(value: Any) -> str:
    if isinstance(value, dict) and ("tool_call" in value or "tool_calls" in value):
        return "generic"
    return "json"


def _literal(node: ast.AST) -> tuple[bool, Any]:
    try:
        return True, json.loads(json.dumps(ast.literal_eval(node), allow_nan=False))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _calls_from_ast(nodes: list[ast.expr], dialect: str, raw: str) -> list[Found] | None:
    """Calls from parsed pythonic call nodes; None when the list is not made only of calls."""
    found: list[Found] = []
    for node in nodes:
        if not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Name, ast.Attribute)):
            return None
        name = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
        if node.args:
            error = "positional_arguments"
            found.append(issue("invalid_arguments", dialect, raw, name, error))
            continue
        arguments: dict[str, Any] = {}
        for keyword in node.keywords:
            ok, value = _literal(keyword.value)
            if keyword.arg is None or not ok:
                arguments = {}
                found.append(issue("invalid_arguments", dialect, raw, name, "non_literal_arguments"))
                break
            arguments[keyword.arg] = value
        else:
            found.append(make_found(name, arguments, dialect, raw))
    return found


def _parse_expression(source: str) -> ast.expr | None:
    try:
        return ast.parse(source.strip(), mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def pythonic(scan: Scan, at: int, dialect: str, closer: str | None) -> Segment | None:
    """`[name(k=v), …]` parsed with ast: keyword arguments with literal values only."""
    span = scan_value(scan.text, at, (closer,) if closer else ())
    if span.state in ("open_string", "unbalanced"):
        return truncated(scan, at, dialect) if closer or scan.at_start(at) or not scan.final else None
    if span.state != "complete":
        return None
    raw = scan.text[at : span.end]
    node = _parse_expression(raw)
    if not isinstance(node, ast.List) or not node.elts:
        return None
    found = _calls_from_ast(node.elts, dialect, raw)
    if found is None:
        return None
    if not _names_a_tool(found, scan) and not closer and not (scan.whole or scan.at_start(at)):
        return None  # a list of calls in prose that names no tool is an example, not a call
    return Segment(_past_closer(scan, span.end, closer) if closer else span.end, found)


def _names_a_tool(found: list[Found], scan: Scan) -> bool:
    """Whether any of the calls names a tool the registry knows."""
    return any(isinstance(c, Candidate) and scan.registry.resolve(c.name)[1] is None for c in found)


def _past_closer(scan: Scan, end: int, closer: str) -> int:
    """Where a wrapped list ends: past its closer when that follows the value, else at the value's end."""
    after = scan.skip_ws(end)
    return after + len(closer) if scan.text.startswith(closer, after) else end


def keyword_call(scan: Scan, start: int, body: int, name: str, paren: int, dialect: str) -> Segment:
    """A single `name.call(k=v)` (Llama 3.1 built-in tools)."""
    span = scan_value(scan.text, paren)
    if span.state != "complete":
        return truncated(scan, start, dialect, name)
    node = _parse_expression(f"{name}{scan.text[paren : span.end]}")
    found = _calls_from_ast([node], dialect, scan.text[body : span.end]) if node is not None else None
    if not found:
        return Segment(span.end, [issue("invalid_arguments", dialect, scan.text[body : span.end], name)])
    return Segment(span.end, found)


def wrapped_pythonic(closer: str, dialect: str) -> Handler:
    """LFM2 `<|tool_call_start|>[…]<|tool_call_end|>` and Llama 4 `<|python_start|>[…]<|python_end|>`."""

    def handle(scan: Scan, start: int, token: str) -> Segment | None:
        from pedro.toolcalls.jsontags import read_json_calls

        body = scan.skip_ws(start + len(token))
        if body >= len(scan.text):
            return truncated(scan, start, dialect)
        if _PYTHONIC_START.match(scan.text, body):
            segment = pythonic(scan, body, dialect, closer)
            return segment if segment is None or segment.incomplete else Segment(segment.end, segment.found)
        if scan.text[body] in "{[":
            return read_json_calls(scan, start, body, closer, dialect)
        return None

    return handle


OPENERS: dict[str, Handler] = {
    "\n{": bare_json,
    "\n[": bare_json,
    "<|tool_call_start|>": wrapped_pythonic("<|tool_call_end|>", "lfm2"),
    "<|python_start|>": wrapped_pythonic("<|python_end|>", "pythonic"),
}

"""Read one JSON value out of model text with the repair ladder of toolcall-formats §9, and never invent one."""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any, Literal

_DECODER = json.JSONDecoder(strict=False)  # small models put raw newlines inside strings; that is not truncation
# unrolled-loop string patterns, possessive so they never backtrack
_DQ_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"', re.S)
_SQ_STRING = re.compile(r"'[^'\\]*+(?:\\.[^'\\]*+)*+'", re.S)
_LITERALS = re.compile(r'("(?:[^"\\]++|\\.)*+")|\b(True|False|None)\b|,(\s*[}\]])', re.S)
_JSON_LITERAL = {"True": "true", "False": "false", "None": "null"}
_CLOSER = {"{": "}", "[": "]", "(": ")"}
_ADJACENT_QUOTES = re.compile(r"['\"]\s*['\"]")
_NOT_CODE = frozenset((tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT))

ScanState = Literal["complete", "open_string", "unbalanced", "stopped", "mismatch"]
ReadStatus = Literal["ok", "truncated", "invalid"]


@dataclass(frozen=True)
class Span:
    """How far a bracketed value reaches: `end` is after its last character, or where scanning stopped."""

    end: int
    state: ScanState
    closers: str = ""


@dataclass(frozen=True)
class JsonRead:
    """The outcome of reading one JSON value: a value, a truncated payload, or an invalid one."""

    status: ReadStatus
    value: Any = None
    end: int = 0
    error: str = ""


@lru_cache(maxsize=64)
def _pattern(stops: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join([r"[{}\[\]()\"']", *(re.escape(s) for s in stops)]))


def scan_value(text: str, start: int, stops: tuple[str, ...] = ()) -> Span:
    """Find the end of the bracketed value at `start`, string-aware; `stops` are end markers outside strings."""
    pattern = _pattern(stops)
    stack: list[str] = []
    pos = start
    while True:
        match = pattern.search(text, pos)
        if match is None:
            return Span(len(text), "unbalanced", "".join(reversed(stack)))
        token, at = match.group(), match.start()
        if token in ('"', "'"):
            string = (_DQ_STRING if token == '"' else _SQ_STRING).match(text, at)
            if string is None:
                return Span(len(text), "open_string", "".join(reversed(stack)))
            pos = string.end()
            continue
        if token in _CLOSER:
            stack.append(_CLOSER[token])
        elif token in "}])":
            if not stack or stack[-1] != token:
                return Span(at, "mismatch")
            stack.pop()
            if not stack:
                return Span(at + 1, "complete")
        else:
            return Span(at, "stopped", "".join(reversed(stack)))
        pos = match.end()


def _fix_literals(payload: str) -> str:
    """Rung 3: Python literals to JSON and no trailing commas, outside strings only."""

    def replace(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return match.group(1)
        if match.group(2) is not None:
            return _JSON_LITERAL[match.group(2)]
        return match.group(3)

    return _LITERALS.sub(replace, payload)


def _loads(payload: str) -> tuple[bool, Any]:
    try:
        return True, _DECODER.decode(payload)
    except (ValueError, RecursionError):
        return False, None


def _joins_strings(payload: str) -> bool:
    """Whether Python would glue adjacent string literals (`"ls" "x"`): no repr writes that, a broken call does."""
    if not _ADJACENT_QUOTES.search(payload):
        return False
    try:
        kinds = [t.type for t in tokenize.generate_tokens(io.StringIO(payload).readline) if t.type not in _NOT_CODE]
    except (tokenize.TokenError, SyntaxError):
        return True
    return any(a == b == tokenize.STRING for a, b in pairwise(kinds))


def python_literal(payload: str) -> tuple[bool, Any]:
    """A Python literal as `ast.literal_eval` reads it, refused when it only parses by gluing strings together."""
    try:
        value = ast.literal_eval(payload.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None
    return (False, None) if _joins_strings(payload) else (True, value)


def _literal(payload: str) -> tuple[bool, Any]:
    """Rung 4: a Python repr, accepted only if it is plain JSON data."""
    ok, value = python_literal(payload)
    if not ok:
        return False, None
    try:
        return True, json.loads(json.dumps(value, allow_nan=False))
    except (ValueError, TypeError, RecursionError):
        return False, None


def repair(payload: str, *, closers: str = "") -> tuple[bool, Any]:
    """Rungs 3-6 on a payload known to be complete; `closers` are only appended when an end marker proved it."""
    fixed = _fix_literals(payload)
    ok, value = _loads(fixed)
    if ok:
        return True, value
    ok, value = _literal(payload)
    if ok:
        return True, value
    if closers:
        closed = fixed.rstrip().rstrip(",") + closers
        ok, value = _loads(closed)
        if ok:
            return True, value
        payload, fixed = payload + closers, closed
    if '\\\\"' in payload:
        # rung 6: Qwen2.5-Coder-14B doubles the backslash of escaped quotes
        return _loads(_fix_literals(payload.replace('\\\\"', '\\"')))
    return False, None


def read_json(text: str, start: int, stops: tuple[str, ...] = ()) -> JsonRead:
    """Read the JSON value that starts at `start` (at `{` or `[`), climbing the repair ladder as needed."""
    # find the extent first: decoding errors on the whole text would cost O(position) each (line/column numbers)
    span = scan_value(text, start, stops)
    if span.state in ("open_string", "unbalanced"):
        return JsonRead("truncated", end=len(text), error="json_cut_off")
    payload = text[start : span.end]
    try:
        return JsonRead("ok", _DECODER.decode(payload), span.end)
    except (ValueError, RecursionError) as exc:
        error = str(exc)
    closers = span.closers if span.state == "stopped" else ""
    ok, value = repair(payload, closers=closers)
    if ok:
        return JsonRead("ok", value, span.end)
    end = span.end + 1 if span.state == "mismatch" else span.end
    return JsonRead("invalid", end=end, error=error)


def loads_lenient(payload: str) -> tuple[bool, Any]:
    """Decode a whole string that is known to be complete (a native `arguments` string), rungs 1-4 and 6."""
    ok, value = _loads(payload)
    if ok:
        return True, value
    stripped = payload.strip()
    if stripped[:1] in ("{", "["):
        read = read_json(stripped, 0)
        if read.status == "ok":
            return True, read.value
    return repair(stripped)


def is_truncated_json(payload: str) -> bool:
    """Whether a string starting like JSON ends before its value closes (a cut-off native argument string)."""
    stripped = payload.strip()
    if stripped[:1] not in ("{", "["):
        return False
    return scan_value(stripped, 0).state in ("open_string", "unbalanced")

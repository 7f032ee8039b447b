"""Literal arguments read from code: the values of every call of a function whose arguments are all literals, in
JavaScript or Go (the tests' calls the probes start from), as Python values."""

from __future__ import annotations

import ast
import re
from typing import Any

BRACKETS = {"(": ")", "[": "]", "{": "}"}
_WORDS = {"true": "True", "false": "False", "null": "None", "nil": "None"}
# A Go slice literal's opening (`[]int{`), read as a list's.
_GO_SLICE = re.compile(r"\[\]\s*\w+\s*\{")

Arguments = tuple[tuple[Any, ...], dict[str, Any]]


def literal_arguments(text: str, name: str) -> list[Arguments]:
    """The argument values of every call of `name` in `text` (a plain or package-qualified call) whose arguments are
    all JSON-like literals: numbers, strings, true/false/null (nil), arrays and Go slices of them."""
    found: list[Arguments] = []
    # `total(`, or `cart.total(` (a Go package's or a required module's name), never `a.b.total(` or `f().total(`.
    for match in re.finditer(rf"(?:(?<![\w$.])|(?<![\w$.])[A-Za-z_$][\w$]*\.){re.escape(name)}\s*\(", text):
        end = balanced_end(text, match.end() - 1)
        if end is None:
            continue
        inner = text[match.end() : end - 1]
        parsed = python_literal(f"({inner},)") if inner.strip() else ((),)
        if parsed and isinstance(parsed[0], tuple):
            found.append((parsed[0], {}))
    return found


def python_literal(text: str) -> tuple[Any] | tuple[()]:
    """A JavaScript or Go literal's value as Python's, in a 1-tuple (a literal may be null); () for no literal."""
    try:
        value = ast.literal_eval(_python_words(_GO_SLICE.sub("[", text)).strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return ()
    return (value,) if _json_like(value) else ()


def _python_words(text: str) -> str:
    """JavaScript's and Go's constant words as Python's, and a Go slice's closing brace as a list's, outside strings."""
    pieces = re.split(r"""("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')""", text)
    out = []
    for piece in pieces:
        if piece[:1] in "'\"":
            out.append(piece)
        else:
            out.append(re.sub(r"\b(true|false|null|nil)\b", lambda m: _WORDS[m.group(1)], piece).replace("}", "]"))
    return "".join(out)


def _json_like(value: Any) -> bool:
    if isinstance(value, (list, tuple)):
        return all(_json_like(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _json_like(item) for key, item in value.items())
    return value is None or isinstance(value, (bool, int, float, str))


def balanced_end(text: str, start: int) -> int | None:
    """The index just past the bracket that closes the one at `start`, skipping strings; None if it never closes."""
    stack: list[str] = []
    i = start
    while i < len(text):
        char = text[i]
        if char in "'\"":
            close = string_end(text, i)
            if close is None:
                return None
            i = close + 1
            continue
        if char in BRACKETS:
            stack.append(BRACKETS[char])
        elif stack and char == stack[-1]:
            stack.pop()
            if not stack:
                return i + 1
        elif char in ")]}":
            return None
        i += 1
    return None


def string_end(text: str, start: int) -> int | None:
    """The index of the quote that ends the string opened at `start`."""
    quote = text[start]
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i
        i += 1
    return None

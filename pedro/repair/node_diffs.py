"""Both values of a JavaScript assertion's diff, read back from its lines: node's `assert.deepStrictEqual` says only
`+ actual - expected` (jest's and vitest's `toEqual`, `- Expected  - 1` and `+ Received  + 1`) and then the value
once, each line marked `+ ` (the actual value's alone), `- ` (the expected's alone) or two spaces (both); a list of
numbers and strings reads as a Python literal once each side's lines are put together."""

from __future__ import annotations

import ast
import contextlib
import re
from typing import Any

_HEADER = re.compile(
    r"^(?P<indent>[ \t]*)(?:\+ actual - expected|- Expected(?: +- \d+)?\n[ \t]*\+ Received(?: +\+ \d+)?)"
    r"[ \t]*\n[ \t]*\n",
    re.M,
)
"""The diff's first line; the lines that follow are indented as it is (the copy in an error's `cause` is)."""
_SKIPPED = re.compile(r"^\s*(?:[+\- ]?\s*\.\.\.|@@ )")
_TOKEN = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|[\[\]{}]")
"""A quoted string (whose brackets are text) or a bracket."""
_JEST_ARRAY = re.compile(r"\bArray \[")
"""jest writes a list as `Array [`."""
_JS_WORDS = {"true": "True", "false": "False", "null": "None", "undefined": "None"}
_WORD = re.compile(r"\b(?:true|false|null|undefined)\b")


def node_diff_values(text: str) -> list[tuple[Any, Any]]:
    """(actual, expected) of each diff node wrote in `text` whose values read as literals; a diff with lines left out
    (node's `...`, jest's `@@` hunks) or values of another kind (objects, class instances) gives nothing."""
    pairs: list[tuple[Any, Any]] = []
    for header in _HEADER.finditer(text):
        actual, expected = _sides(text[header.end() :].splitlines(), header["indent"])
        if actual is None or expected is None:
            continue
        with contextlib.suppress(ValueError, SyntaxError, MemoryError, RecursionError):
            pairs.append((_literal(actual), _literal(expected)))
    return pairs


def _sides(lines: list[str], indent: str) -> tuple[str | None, str | None]:
    """The actual and the expected value's text from the diff's lines: each line goes to its side, or both, until
    the value's brackets close on both sides."""
    actual: list[str] = []
    expected: list[str] = []
    for line in lines:
        mark, rest = line[len(indent) : len(indent) + 2], line[len(indent) + 2 :]
        if not line.startswith(indent) or mark not in ("+ ", "- ", "  ") or _SKIPPED.match(line):
            return None, None
        if mark != "- ":
            actual.append(rest)
        if mark != "+ ":
            expected.append(rest)
        whole = _whole("\n".join(actual)), _whole("\n".join(expected))
        if whole[0] is not None and whole[1] is not None:
            return whole
    return None, None


def _whole(text: str) -> str | None:
    """The value the text starts with, up to the bracket that closes it (a wrapper's bracket may follow: `]] {`);
    None while it is still open."""
    depth = 0
    for token in _TOKEN.finditer(text):
        bracket = token.group()
        if bracket in ("[", "{"):
            depth += 1
        elif bracket in ("]", "}"):
            depth -= 1
            if depth <= 0:
                return text[: token.end()]
    return (text.strip() or None) if depth == 0 else None  # a value of no brackets: one line


def _literal(text: str) -> Any:
    """A value node printed, as Python reads it: JavaScript's words for true, false and nothing swapped for Python's."""
    return ast.literal_eval(_WORD.sub(lambda word: _JS_WORDS[word.group()], _JEST_ARRAY.sub("[", text)))

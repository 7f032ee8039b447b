"""The examples a Python function's docstring gives of itself: `>>> f(2, 3)` over its answer, or `f(2, 3) == 5`
(`->`, `➞`, `=>`, `returns`) in its prose. What the function promises on inputs no test may pin."""

from __future__ import annotations

import ast
import re
import textwrap
from typing import Any

from pedro.calls.literals import balanced_end

Example = tuple[tuple[tuple[Any, ...], dict[str, Any]], Any]
"""((args, kwargs), the value the docstring says the call gives)."""

_SAID = re.compile(r"\s*(?:==|->|➞|=>|⇒|→|\bshould\s+return\b|\breturns?\b|\bgives\b)\s*")
_MOST = 12
_MOST_CHARS = 120


def doc_examples(unit_text: str, name: str) -> list[Example]:
    """The examples of `name`'s own docstring (the function that opens `unit_text`) whose arguments and answer are
    Python literals; each call once, and none the docstring answers two ways."""
    doc = _docstring(unit_text)
    if not doc or name not in doc:
        return []
    found: dict[str, list[Example]] = {}
    for example in [*_prompted(doc, name), *_inline(doc, name)]:
        found.setdefault(repr(example[0]), []).append(example)
    return [given[0] for given in found.values() if len({repr(value) for _, value in given}) == 1][:_MOST]


def _docstring(unit_text: str) -> str:
    try:
        tree = ast.parse(textwrap.dedent(unit_text))
    except (SyntaxError, ValueError):
        return ""
    first = tree.body[0] if tree.body else None
    if isinstance(first, ast.FunctionDef | ast.AsyncFunctionDef):
        return ast.get_docstring(first) or ""
    return ""


def _prompted(doc: str, name: str) -> list[Example]:
    """`>>> name(…)` over the lines of its answer (up to a blank line or the next prompt)."""
    lines = doc.splitlines()
    found = []
    for at, line in enumerate(lines):
        text = line.strip()
        if not text.startswith(">>>"):
            continue
        answer = []
        for after in lines[at + 1 :]:
            if not after.strip() or after.strip().startswith(">>>"):
                break
            answer.append(after.strip())
        call = _call(text[3:].strip(), name)
        value = _literal(" ".join(answer)) if answer else None
        if call is not None and value is not None and call[1] == len(text[3:].strip()):
            found.append((call[0], value[0]))
    return found


def _inline(doc: str, name: str) -> list[Example]:
    """`name(…) == value` (or `->`, `➞`, `returns` …) within a line of prose."""
    found = []
    for match in re.finditer(rf"(?<![\w.]){re.escape(name)}\s*\(", doc):
        if doc[: match.start()].rstrip(" ").endswith(">>>"):
            continue  # a prompt's call: its answer is on the next line
        call = _call(doc[match.start() :], name)
        if call is None:
            continue
        rest = doc[match.start() + call[1] :].split("\n", 1)[0]
        said = _SAID.match(rest)
        value = _value_at(rest[said.end() :]) if said else None
        if value is not None:
            found.append((call[0], value[0]))
    return found


def _call(text: str, name: str) -> tuple[tuple[tuple[Any, ...], dict[str, Any]], int] | None:
    """The literal arguments of the call of `name` that opens `text`, and where it ends; None when they are not
    literals."""
    opening = text.find("(")
    end = balanced_end(text, opening) if opening >= 0 and text[:opening].strip() == name else None
    if end is None:
        return None
    try:
        node = ast.parse(text[:end], mode="eval").body
    except (SyntaxError, ValueError):
        return None
    if not isinstance(node, ast.Call) or any(isinstance(arg, ast.Starred) for arg in node.args):
        return None
    try:
        args = tuple(ast.literal_eval(arg) for arg in node.args)
        kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords if kw.arg is not None}
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if len(kwargs) != len(node.keywords):
        return None
    return (args, kwargs), end


def _value_at(text: str) -> tuple[Any] | None:
    """The literal that opens `text` (`5.`, `True,`, `[1, 2] for …`): the longest prefix that reads as one, within
    _MOST_CHARS (each prefix tried is a parse: a long line of prose costs no more than that)."""
    text = text.strip()[:_MOST_CHARS]
    for end in range(len(text), 0, -1):
        if end < len(text) and text[end].isalnum():
            continue  # `10` is no literal of `100`
        value = _literal(text[:end].rstrip(".,;:"))
        if value is not None:
            return value
    return None


def _literal(text: str) -> tuple[Any] | None:
    try:
        return (ast.literal_eval(text.strip()),)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None

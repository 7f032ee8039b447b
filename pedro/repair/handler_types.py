"""An `except` that names another exception than the one the failure raised inside its `try`: `except KeyError:`
around `int(text)`, which raised ValueError. The raised one is put in its place, then beside it."""

from __future__ import annotations

import re

from pedro.repair.fallbacks import NOT_CAUGHT
from pedro.repair.locate import RowChange, indent_of

_TRY = re.compile(r"^\s*try\s*:")
_HANDLER = re.compile(r"^(?P<head>\s*except\s+)(?P<types>\([^()]*\)|[\w.]+)(?P<tail>\s*(?:as\s+\w+\s*)?:.*)$")
_CLAUSE = re.compile(r"^\s*(?:except\b|else\s*:|finally\s*:)")


def handler_types(lines: list[str], row: int, raised: frozenset[str]) -> list[RowChange]:
    """For the line at `row` of a Python unit's `lines`, where the failure raised one of `raised` inside a `try`
    none of whose handlers catches it: each handler's exceptions replaced by the raised one, then that one added."""
    wanted = sorted(raised - NOT_CAUGHT)
    start = _enclosing_try(lines, row) if wanted and 0 <= row < len(lines) else None
    if start is None:
        return []
    handlers = list(_handlers(lines, start, row))
    named = {name.strip().rsplit(".", 1)[-1] for _, match in handlers for name in _names(match["types"])}
    if not handlers or named & ({*wanted, "Exception", "BaseException"}):
        return []
    exception = wanted[0] if len(wanted) == 1 else f"({', '.join(wanted)})"
    changes: list[RowChange] = []
    for at, match in handlers:
        written = match["types"]
        both = f"({', '.join([*_names(written), *wanted])})"
        for types, change in (
            (exception, f"`{written}` → `{exception}`"),
            (both, f"{exception} caught beside `{written}`"),
        ):
            changes.append(RowChange(at, f"{match['head']}{types}{match['tail']}", change))
    return changes


def _enclosing_try(lines: list[str], row: int) -> int | None:
    """The row of the nearest `try:` above `row` whose body holds it."""
    depth = len(indent_of(lines[row]))
    for at in range(row - 1, -1, -1):
        line = lines[at]
        if not line.strip():
            continue
        indent = len(indent_of(line))
        if indent < depth:
            if _TRY.match(line):
                return at
            depth = indent
    return None


def _handlers(lines: list[str], start: int, row: int) -> list[tuple[int, re.Match[str]]]:
    """The `except` clauses of the `try` at `start` (after its body, which holds `row`), with what they name."""
    depth = len(indent_of(lines[start]))
    found = []
    for at in range(row + 1, len(lines)):
        line = lines[at]
        if not line.strip() or len(indent_of(line)) > depth:
            continue
        if len(indent_of(line)) < depth or not _CLAUSE.match(line):
            break
        if match := _HANDLER.match(line):
            found.append((at, match))
    return found


def _names(types: str) -> list[str]:
    return [name.strip() for name in types.strip("()").split(",") if name.strip()]

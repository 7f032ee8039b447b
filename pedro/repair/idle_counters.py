"""A loop whose body never reads what it walks: a counted loop's counter (`for j := 1; j <= i; j++ { x += i }`), each
name its body reads made the counter, one at a time; an inner loop's item over a pair of sequences (`for e2 in l2:
ret.add(e1)`), the body run only where the two items are equal. Python, JavaScript and Go."""

from __future__ import annotations

import re
from typing import NamedTuple

from pedro.repair.divisor_loops import loop_body
from pedro.repair.locate import RowChange, block_header, indent_of
from pedro.repair.mutants import code_tokens, value_names
from pedro.tools.symbols import LanguageName

# A loop that only repeats names no counter (`for _ in range(n)`), and a loop over items is no counted loop.
_HEADERS = {
    "python": re.compile(r"^\s*for\s+(?P<i>[A-Za-z]\w*)\s+in\s+range\("),
    "javascript": re.compile(r"^\s*for\s*\(\s*(?:let|var)\s+(?P<i>[A-Za-z$][\w$]*)\s*=[^;]*;"),
    "go": re.compile(r"^\s*for\s+(?P<i>[A-Za-z]\w*)\s*:=[^;]*;"),
}
# A loop over the items of a sequence, and the item it names.
_ITEM_HEADERS = {
    "python": re.compile(r"^\s*for\s+(?P<i>[A-Za-z_]\w*)\s+in\s+(?!range\()[^:]+:\s*$"),
    "javascript": re.compile(
        r"^\s*for\s*\(\s*(?:const|let|var)\s+(?P<i>[A-Za-z_$][\w$]*)\s+of\s+[^)]+\)\s*(?P<brace>\{)?\s*$"
    ),
    "go": re.compile(r"^\s*for\s+\w+\s*,\s*(?P<i>[A-Za-z_]\w*)\s*:=\s*range\s+[^{]+(?P<brace>\{)\s*$"),
}
_MOST = 8
"""The most changes one loop gives: a loop that repeats on purpose (`for i in range(n): out.append(0)`) costs few."""


class IdleRead(NamedTuple):
    """A name the body reads made the counter, and whether the loop's own header names it too (`j <= i` beside
    `x += i`): the header's name is what the slip most often wrote, a loop that repeats on purpose seldom reads it."""

    change: RowChange
    bounds: bool


def idle_counters(lines: list[str], language: LanguageName) -> list[IdleRead]:
    """For each counted loop whose body never names its counter, the body's lines with one name read made it."""
    header = _HEADERS.get("javascript" if language == "typescript" else language)
    if header is None:
        return []
    found: list[IdleRead] = []
    for row, text in enumerate(lines):
        match = header.match(text)
        body = loop_body(lines, row) if match else []
        if match is None or not body or any(_names(line, match["i"], language) for line in body):
            continue
        in_header = {name for name, _start, _end in value_names(text, language)}
        reads = _counter_read(body, row + 1, match["i"], language, in_header)
        # The names the header reads first, so the cap never drops the likeliest change for the guesses.
        found += sorted(reads, key=lambda read: not read.bounds)[:_MOST]
    return found


def idle_items(lines: list[str], language: LanguageName) -> list[RowChange]:
    """For each loop over items inside another whose body reads the outer item and never its own, that body run
    only where the two are equal (`if e1 == e2:`)."""
    header = _ITEM_HEADERS.get("javascript" if language == "typescript" else language)
    if header is None:
        return []
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        inner = header.match(text)
        outer = _outer_item(lines, row, header) if inner else None
        if inner is None or outer is None or not _reads_only_outer(lines, row, outer, inner["i"], language):
            continue
        found.append(_guarded(lines, row, f"{outer} == {inner['i']}", inner.groupdict().get("brace"), language))
    return found


def _reads_only_outer(lines: list[str], row: int, outer: str, item: str, language: LanguageName) -> bool:
    """Whether the body of the loop at `row` names the outer loop's item and never its own."""
    body = [line for line in loop_body(lines, row) if line.strip()]
    reads = {text for line in body for kind, text, _at in code_tokens(line, language) if kind == "name"}
    return bool(body) and outer in reads and item not in reads


def _outer_item(lines: list[str], row: int, header: re.Pattern[str]) -> str | None:
    """The item the loop enclosing the loop at `row` walks, where that loop walks items."""
    outer = block_header(lines, row)
    match = header.match(lines[outer]) if outer is not None else None
    return match["i"] if match else None


def _guarded(lines: list[str], row: int, condition: str, brace: str | None, language: LanguageName) -> RowChange:
    """The loop at `row` with its body run only where `condition` holds."""
    body_rows = [at for at in range(row + 1, row + 1 + len(loop_body(lines, row))) if lines[at].strip()]
    inner = indent_of(lines[body_rows[0]])
    change = f"the body run only where `{condition}`: the inner loop never reads its item"
    if language == "python":
        first = body_rows[0]
        also = tuple((at, "    " + lines[at]) for at in body_rows[1:])
        return RowChange(first, f"{inner}if {condition}:\n    {lines[first]}", change, also)
    test = f"({condition})" if language != "go" else condition
    if brace:
        end = row + 1 + len(loop_body(lines, row))
        close = lines[end] if end < len(lines) else "}"
        text = f"{lines[row]}\n{inner}if {test} {{"
        return RowChange(row, text, change, ((end, f"{inner}}}\n{close}"),))
    return RowChange(body_rows[0], f"{inner}if {test}\n  {lines[body_rows[0]]}", change)


def _counter_read(
    body: list[str], first: int, counter: str, language: LanguageName, in_header: set[str]
) -> list[IdleRead]:
    """Each name the body's lines (the first at row `first`) read, made the counter."""
    changes = []
    for at, line in enumerate(body, first):
        for name, start, end in value_names(line, language):
            if name != counter:
                change = f"`{name}` → `{counter}`: the loop never reads its counter"
                new = RowChange(at, f"{line[:start]}{counter}{line[end:]}", change)
                changes.append(IdleRead(new, name in in_header))
    return changes


def _names(line: str, name: str, language: LanguageName) -> bool:
    return any(kind == "name" and text == name for kind, text, _start in code_tokens(line, language))

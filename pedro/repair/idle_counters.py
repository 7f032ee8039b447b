"""A counted loop whose body never reads its counter (`for j := 1; j <= i; j++ { x += i }`): each name its body reads
made the counter, one at a time; Python, JavaScript and Go."""

from __future__ import annotations

import re
from typing import NamedTuple

from pedro.repair.divisor_loops import loop_body
from pedro.repair.locate import RowChange
from pedro.repair.mutants import code_tokens, value_names
from pedro.tools.symbols import LanguageName

# A loop that only repeats names no counter (`for _ in range(n)`), and a loop over items is no counted loop.
_HEADERS = {
    "python": re.compile(r"^\s*for\s+(?P<i>[A-Za-z]\w*)\s+in\s+range\("),
    "javascript": re.compile(r"^\s*for\s*\(\s*(?:let|var)\s+(?P<i>[A-Za-z$][\w$]*)\s*=[^;]*;"),
    "go": re.compile(r"^\s*for\s+(?P<i>[A-Za-z]\w*)\s*:=[^;]*;"),
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

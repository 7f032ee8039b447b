"""A counted loop whose counter divides in its body (`n % j`, `total / j`) but starts at 0 or 1: made to start at 2.
Nothing is divided by 0, and everything by 1, so a search for a divisor (is `n` prime, its factors) that starts there
answers the same for every `n`; Python, JavaScript and Go."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange, indent_of

_HEADERS = {
    # `for j in range(n)` (from 0), `range(1, n)`; never a range with a step, whose start may be anything.
    "python": re.compile(
        r"^\s*for\s+(?P<i>\w+)\s+in\s+range\((?P<at>)(?:(?P<start>[01])\s*,\s*[^,]+?|[^,]+?)\)\s*:\s*(?:#.*)?$"
    ),
    "javascript": re.compile(r"^\s*for\s*\(\s*(?:let|var)\s+(?P<i>[\w$]+)\s*=\s*(?P<start>[01])\s*;"),
    "go": re.compile(r"^\s*for\s+(?P<i>\w+)\s*:=\s*(?P<start>[01])\s*;"),
}
_DIVIDED = r"(?:%|/|//)\s*{i}(?![\w$])"
"""The counter on the right of a remainder or a division."""


def divisor_loops(lines: list[str], language: str) -> list[RowChange]:
    """For each counted loop that starts at 0 or 1 and divides by its counter in its body, its header starting at 2."""
    header = _HEADERS.get("javascript" if language == "typescript" else language)
    if header is None:
        return []
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        match = header.match(text)
        if match is None or not _divides(loop_body(lines, row), match["i"]):
            continue
        if match["start"] is not None:
            new = text[: match.start("start")] + "2" + text[match.end("start") :]
        else:  # `range(n)`: from 0
            new = text[: match.start("at")] + "2, " + text[match.end("at") :]
        old = match["start"] or "0"
        found.append(RowChange(row, new, f"`{match['i']}` starts at 2, not {old}: it divides in the loop"))
    return found


def loop_body(lines: list[str], row: int) -> list[str]:
    """The lines after `row` indented deeper than it: the loop's body, braced or not."""
    indent = len(indent_of(lines[row]))
    body = []
    for line in lines[row + 1 :]:
        if line.strip() and len(indent_of(line)) <= indent:
            break
        body.append(line)
    return body


def _divides(body: list[str], counter: str) -> bool:
    pattern = re.compile(_DIVIDED.format(i=re.escape(counter)))
    return any(pattern.search(line) for line in body)

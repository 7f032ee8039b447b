"""A counted loop whose counter divides in its body (`n % j`, `total / j`) but starts at 0 or 1: made to start at 2,
in its header or where it is set just before a `while` loop that moves it. Nothing is divided by 0, and everything
by 1, so a search for a divisor (is `n` prime, its factors) that starts there answers the same for every `n`. And a
search from 2 that finds no divisor of 0 or 1 either, where nothing else in the unit looks at numbers that small,
given their answer before it; Python, JavaScript and Go."""

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
# A counter set to 0 or 1 on its own line (or among a declaration's names: `var fact = [], i = 0;`), then moved by
# a `while` loop that follows within a few lines (Go's: a `for` with a condition alone).
_SET = {
    "python": re.compile(r"^\s*(?P<i>\w+)\s*=\s*(?P<start>[01])\s*(?:#.*)?$"),
    "javascript": re.compile(r"^\s*(?:(?:let|var)\s+(?:.*,\s*)?)?(?P<i>[\w$]+)\s*=\s*(?P<start>[01])\s*;?\s*$"),
    "go": re.compile(r"^\s*(?:var\s+)?(?P<i>\w+)\s*(?:int\s*)?:?=\s*(?P<start>[01])\s*$"),
}
_WHILE = {
    "python": re.compile(r"^\s*while\b"),
    "javascript": re.compile(r"^\s*while\s*\("),
    "go": re.compile(r"^\s*for\s+[^;{]+\{\s*$"),
}
_SET_BEFORE = 3
"""Lines between a counter's setting and its loop, at most."""
_MOVED = r"(?<![\w$.]){i}\s*(?:\+\+|\+=|=\s*{i}\s*\+)"
_DIVIDED = r"(?:%|/|//)\s*{i}(?![\w$])"
"""The counter on the right of a remainder or a division."""
_FROM_TWO = {
    "python": re.compile(r"^\s*for\s+(?P<i>\w+)\s+in\s+range\(\s*2\s*,"),
    "javascript": re.compile(r"^\s*for\s*\(\s*(?:let|var)\s+(?P<i>[\w$]+)\s*=\s*2\s*;"),
    "go": re.compile(r"^\s*for\s+(?P<i>\w+)\s*:=\s*2\s*;"),
}
# `if n % i == 0:` (the number searched: a name, `len(word)`, `s.length`) and what it does on its own line, if anything.
_DIVISIBLE = (
    r"^\s*if\s*\(?\s*(?P<x>len\([\w$.]+\)|[\w$]+(?:\.length)?)\s*%\s*{i}\s*===?\s*0\s*\)?\s*[:{{]?"
    r"\s*(?P<then>.*?)\s*\}}?$"
)
# What a search for divisors does on finding one, repeated for the small numbers: a verdict returned or set as a
# flag (`return False`, `flg = 1`), never a value that reads the loop's own names.
_VERDICT = r"(?:True|False|true|false|None|null|nil|-?\d+)"
_CONSEQUENCE = re.compile(rf"^(?:return\s+{_VERDICT}|[\w$]+\s*=\s*{_VERDICT});?$")


def divisor_loops(lines: list[str], language: str, *, from_zero: bool = False) -> list[RowChange]:
    """For each counted loop that starts at 0 or 1 (`from_zero`: at 0) and divides by its counter in its body, its
    header starting at 2, or the counter's setting before it."""
    header = _HEADERS.get("javascript" if language == "typescript" else language)
    if header is None:
        return []
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        match = header.match(text)
        if match is None or not _divides(loop_body(lines, row), match["i"]) or (from_zero and match["start"] == "1"):
            continue
        if match["start"] is not None:
            new = text[: match.start("start")] + "2" + text[match.end("start") :]
        else:  # `range(n)`: from 0
            new = text[: match.start("at")] + "2, " + text[match.end("at") :]
        old = match["start"] or "0"
        found.append(RowChange(row, new, f"`{match['i']}` starts at 2, not {old}: it divides in the loop"))
    return found + _set_before_while(lines, "javascript" if language == "typescript" else language, from_zero)


def stuck_divisor_loops(lines: list[str], language: str) -> list[RowChange]:
    """The counters set to 0 or 1 before a `while` loop that divides by them, made to start at 2: what a test that
    hangs points at, as dividing by 1 leaves the number the loop waits on as it was (JavaScript's `n % 0` is NaN,
    so a counter from 0 reaches 1 before anything else)."""
    return _set_before_while(lines, "javascript" if language == "typescript" else language, from_zero=False)


def _set_before_while(lines: list[str], language: str, from_zero: bool) -> list[RowChange]:
    """For each counter set to 0 or 1 just before a `while` loop that moves it and divides by it, set to 2."""
    setting, loop = _SET[language], _WHILE[language]
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        match = setting.match(text)
        if match is None or (from_zero and match["start"] == "1"):
            continue
        counter, indent = match["i"], indent_of(text)
        after = lines[row + 1 : row + 2 + _SET_BEFORE]
        at = next((k for k, line in enumerate(after) if loop.match(line) and indent_of(line) == indent), None)
        if at is None:
            continue
        body = [after[at], *loop_body(lines, row + 1 + at)]
        moved = re.compile(_MOVED.format(i=re.escape(counter)))
        if _divides(body, counter) and any(moved.search(line) for line in body):
            new = text[: match.start("start")] + "2" + text[match.end("start") :]
            found.append(RowChange(row, new, f"`{counter}` starts at 2, not {match['start']}: it divides in the loop"))
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


def small_numbers(lines: list[str], language: str) -> list[RowChange]:
    """For each search for divisors from 2 (`for i in range(2, n): if n % i == 0: return False`) of a number nothing
    in the unit compares with 0, 1 or 2 as a bound, the same answer given for numbers below 2 before it: none of them
    has a divisor the search can find, yet neither is prime."""
    header = _FROM_TWO.get("javascript" if language == "typescript" else language)
    if header is None:
        return []
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        match = header.match(text)
        body = loop_body(lines, row) if match else []
        found_at = _divisor_found(body, match["i"]) if match and body else None
        if found_at is None:
            continue
        number, then = found_at
        if re.search(rf"(?<![\w$.]){re.escape(number)}\s*(?:<\s*[12]|<=\s*[01]|===?\s*[01]|>\s*1|>=\s*2)\b",
                     "\n".join(lines)):  # fmt: skip
            continue
        indent = indent_of(text)
        guard = _guard(indent, indent_of(body[0])[len(indent) :] or "    ", number, then, language)
        said = f"`if {number} < 2: {then}` added before the loop: it finds no divisor of 0 or 1"
        found.append(RowChange(row, f"{guard}\n{text}", said))
    return found


def _divisor_found(body: list[str], counter: str) -> tuple[str, str] | None:
    """The number a loop's body tests for the counter dividing it, and what the body does when it does (one
    statement: a return or a flag set); None where the body does something else."""
    divisible = re.compile(_DIVISIBLE.format(i=re.escape(counter)))
    for k, line in enumerate(body):
        match = divisible.match(line)
        if match is None:
            continue
        then = match["then"] or (body[k + 1].strip() if k + 1 < len(body) else "")
        return (match["x"], then) if _CONSEQUENCE.match(then) else None
    return None


def _guard(indent: str, step: str, number: str, then: str, language: str) -> str:
    """`if number < 2:` and the statement, in the language's own form, at the loop's indentation (`step` deeper
    inside)."""
    if language == "python":
        return f"{indent}if {number} < 2:\n{indent}{step}{then}"
    if language == "go":
        return f"{indent}if {number} < 2 {{\n{indent}{step}{then}\n{indent}}}"
    return f"{indent}if ({number} < 2) {{\n{indent}{step}{then}\n{indent}}}"

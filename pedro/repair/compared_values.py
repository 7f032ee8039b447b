"""A value kept after comparing another (`if (grid[m - 1][n] < min) { min = grid[m][n] }`): the comparison decides
whether the target takes a new value, and the value it takes should be the one compared with it; each such `if`
made to keep what it compared, one at a time and all of the unit's at once."""

from __future__ import annotations

import re
from collections.abc import Iterator

from pedro.repair.locate import RowChange

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_PYTHON_IF = re.compile(r"^(?P<indent>[ \t]*)(?:el)?if\s+(?P<rest>.*)$")
_JS_IF = re.compile(r"^(?P<indent>[ \t]*)(?:}\s*)?(?:else\s+)?if\s*\((?P<rest>.*)$")
_JOINS = re.compile(r"\s*(?:&&|\|\||\band\b|\bor\b)\s*")
_ORDER = re.compile(r"(?<![<>=!-])(?:<=?|>=?)(?![<>=])")
_ASSIGNED = re.compile(r"(?P<target>[A-Za-z_$][\w$.]*(?:\[[^\]\n]+\])*)\s*=(?!=)\s*(?P<value>.+)$")
_TAIL = {
    "python": re.compile(r"\s*(?:#[^'\"]*)?$"),
    "javascript": re.compile(r"\s*;?\s*}?\s*(?://[^'\"`]*)?$"),
}
"""What may follow the assigned value on its line: a comment; in JavaScript a `;` and the block's closing brace."""


def compared_values(lines: list[str], language: str) -> list[RowChange]:
    """Each `if` whose body only assigns one side of its order comparison another value, made to assign the other
    side; then, where there are several, all of them at once (a slip copied to each of four neighbours)."""
    dialect = "javascript" if language in ("javascript", "typescript") else language
    if dialect not in _TAIL:
        return []
    kept = list(_kept_values(lines, dialect))
    found = [change for _target, change in kept]
    for target in dict.fromkeys(target for target, _change in kept):
        same = [change for name, change in kept if name == target]
        if len(same) > 1:
            (first, text), *others = [(change.row, change.text) for change in same]
            rewrites = f"each of {len(same)} comparisons with `{target}` keeps the value it compared"
            found.append(RowChange(first, text, rewrites, tuple(others)))
    return found


def _kept_values(lines: list[str], dialect: str) -> Iterator[tuple[str, RowChange]]:
    for row, line in enumerate(lines):
        match = (_PYTHON_IF if dialect == "python" else _JS_IF).match(line)
        split = _condition(match["rest"], ":" if dialect == "python" else ")") if match is not None else None
        if split is None:
            continue
        condition, after = split
        body_row = row if after.strip(" \t{") else row + 1
        if body_row >= len(lines):
            continue
        body = lines[body_row]
        # The body's statement: what follows the condition on its line, else the next line (after a lone `{`).
        start = len(line) - len(after) if body_row == row else 0
        statement = body[start:].lstrip(" \t{")
        start = len(body) - len(statement)
        change = _kept(condition, statement, dialect)
        if change is not None:
            target, value_start, value_end, compared, words = change
            new = body[: start + value_start] + compared + body[start + value_end :]
            yield target, RowChange(body_row, new, words)


def _condition(rest: str, closer: str) -> tuple[str, str] | None:
    """The condition and what follows it on the line: up to the first `closer` outside brackets and strings."""
    depth, quote = 0, ""
    for at, char in enumerate(rest):
        if quote:
            quote = "" if char == quote and rest[at - 1] != "\\" else quote
        elif char in "'\"`":
            quote = char
        elif depth == 0 and char == closer:
            return rest[:at], rest[at + 1 :]
        elif char in _OPENERS:
            depth += 1
        elif char in _OPENERS.values():
            depth -= 1
    return None


def _kept(condition: str, statement: str, dialect: str) -> tuple[str, int, int, str, str] | None:
    """The target, where its assigned value stands in `statement` (start, end), the value compared, and the change
    in words, when `statement` only assigns one side of an order comparison in `condition` something else."""
    assigned = _ASSIGNED.match(statement)
    if assigned is None:
        return None
    tail = _TAIL[dialect].search(assigned["value"])
    value = assigned["value"][: tail.start()] if tail is not None else assigned["value"]
    if not value or ";" in value or (dialect == "python" and ":" in value and "[" not in value):
        return None
    target = assigned["target"]
    for part in _JOINS.split(condition.strip()):
        sides = _sides(part)
        if sides is None or target not in sides:
            continue
        compared = sides[1] if sides[0] == target else sides[0]
        if compared in (value, target):
            return None
        words = f"`{target} = {value}` → `{target} = {compared}`, the value it compared"
        return target, assigned.start("value"), assigned.start("value") + len(value), compared, words
    return None


def _sides(part: str) -> tuple[str, str] | None:
    """The two sides of one order comparison outside brackets (`grid[m - 1][n] < min`), or None."""
    depth = 0
    cuts = []
    for at, char in enumerate(part):
        if char in _OPENERS:
            depth += 1
        elif char in _OPENERS.values():
            depth -= 1
        elif depth == 0 and (match := _ORDER.match(part, at)) is not None and (at == 0 or part[at - 1] != part[at]):
            cuts.append(match)
    if len(cuts) != 1:
        return None
    left, right = part[: cuts[0].start()].strip(), part[cuts[0].end() :].strip()
    left = left.removeprefix("(").strip() if left.count("(") > left.count(")") else left
    right = right.removesuffix(")").strip() if right.count(")") > right.count("(") else right
    return (left, right) if left and right else None

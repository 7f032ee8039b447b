"""The same comparison changed wherever the file makes it: a boundary written in several places (an expiry checked
as `link.expire < now` in six methods) is wrong in all of them, and changing one place alone fixes no test."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pedro.repair.locate import Unit

_OPERATORS = frozenset(("<", "<=", ">", ">=", "==", "!="))
_OPERATOR_CHARS = "<>=!"
_MIN_LINES = 2
"""A change made on fewer lines than this is the variant itself."""


@dataclass(frozen=True)
class Everywhere:
    """The edits (each changed unit's new text) and what they do, for the candidate's label."""

    edits: list[tuple[Unit, str]]
    change: str
    lines: int


def everywhere(
    old_line: str, new_line: str, file_text: str, units_of: Callable[[], Sequence[Unit]]
) -> Everywhere | None:
    """`old_line` → `new_line` as the change of one comparison of an attribute (`.expire <` → `.expire <=`), made on
    every line of the file that compares that attribute with that operator, as edits of the functions that hold
    those lines (`units_of`: the file's outermost ones, read only when needed); None when the change is no such swap
    or no other line has it."""
    swap = _swap(old_line, new_line)
    if swap is None:
        return None
    pattern, replacement, said = swap
    lines = file_text.splitlines()
    changed = {number: pattern.sub(replacement, text) for number, text in enumerate(lines, 1)}
    changed = {number: text for number, text in changed.items() if text != lines[number - 1]}
    if len(changed) < _MIN_LINES:
        return None
    units = units_of()
    edits = []
    for unit in units:
        inside = [number for number in changed if unit.start_line <= number <= unit.end_line]
        if inside:
            body = lines[unit.start_line - 1 : unit.end_line]
            for number in inside:
                body[number - unit.start_line] = changed[number]
            edits.append((unit, "\n".join(body)))
    count = sum(1 for number in changed if any(u.start_line <= number <= u.end_line for u in units))
    if count < _MIN_LINES:
        return None
    return Everywhere(edits, said, count)


def _swap(old: str, new: str) -> tuple[re.Pattern[str], str, str] | None:
    """The pattern that finds the swapped comparison of the same attribute, its replacement, and the words for it."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    # Widen to the whole operator: `<` → `<=` differs only in the `=`.
    while start > 0 and old[start - 1] in _OPERATOR_CHARS:
        start -= 1
    while end > 0 and old[len(old) - end] in _OPERATOR_CHARS:
        end -= 1
    before, after = old[:start], old[len(old) - end :]
    old_op, new_op = old[start : len(old) - end].strip(), new[start : len(new) - end].strip()
    if old_op not in _OPERATORS or new_op not in _OPERATORS:
        return None
    op = re.escape(old_op)
    if left := re.search(r"\.(\w+)\s*$", before):
        attribute = left[1]
        pattern = re.compile(rf"(\.{attribute}\s*){op}(?![{_OPERATOR_CHARS}])")
        return pattern, rf"\g<1>{new_op}", f"`.{attribute} {old_op}` → `.{attribute} {new_op}`"
    if right := re.match(r"\s*[\w.]*\.(\w+)\b(?!\s*\()", after):
        attribute = right[1]
        pattern = re.compile(rf"(?<![{_OPERATOR_CHARS}]){op}(\s*[\w.]*\.{attribute}\b)")
        return pattern, rf"{new_op}\g<1>", f"`{old_op} ….{attribute}` → `{new_op} ….{attribute}`"
    return None

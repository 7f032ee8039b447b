"""A comparison that decides only ties: `if ia == ja { return ib < jb }` as the last thing a comparator does, with
nothing returned when the first two differ (Go refuses it: "missing return"; a JavaScript sort callback answers
`undefined`). The comparison of the first two follows it, in the tie's direction and then the other."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange, indent_of

_OPERAND = r"[\w$.]+(?:\([^()]*\)|\[[^\[\]]*\])*"
_TIE = re.compile(rf"^\s*if\s*(?P<open>\()?\s*(?P<a>{_OPERAND})\s*===?\s*(?P<b>{_OPERAND})\s*(?(open)\))\s*\{{\s*$")
_ANSWER = re.compile(rf"^\s*return\s+{_OPERAND}\s*(?P<op><=?|>=?)\s*{_OPERAND}\s*;?\s*$")
_CLOSE = re.compile(r"^\s*\}\s*$")
# The end of the comparator: a function literal's `})` or `}` at an indent outside the `if`.
_END = re.compile(r"^\s*\}\)?\s*;?\s*\)?\s*$")
_OTHER_WAY = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def tie_breaks(lines: list[str], language: str) -> list[RowChange]:
    """For each tie's comparison that ends a comparator, the comparison of the tied values added after it: the same
    way round as the tie's, then the other; `lines` are the unit's, its signature first."""
    if language not in {"go", "javascript", "typescript"}:
        return []
    found: list[RowChange] = []
    for row in range(len(lines) - 3):
        tie, answer = _TIE.match(lines[row]), _ANSWER.match(lines[row + 1])
        if tie is None or answer is None or not _CLOSE.match(lines[row + 2]) or not _END.match(lines[row + 3]):
            continue
        if len(indent_of(lines[row + 3])) >= len(indent_of(lines[row])):
            continue
        end = ";" if lines[row + 1].rstrip().endswith(";") else ""
        for op in (answer["op"], _OTHER_WAY[answer["op"]]):
            added = f"return {tie['a']} {op} {tie['b']}{end}"
            said = f"`{added}` added after the tie's comparison: the comparator answered only ties"
            found.append(RowChange(row + 2, f"{lines[row + 2]}\n{indent_of(lines[row])}{added}", said))
    return found

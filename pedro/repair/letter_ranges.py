"""A range of character codes with one end on a letter case's edge and the other off it: `c > 64 && c < 100` starts
just below `A` and stops at `d`. The end off the edge is moved to the same case's other edge (`< 91`); Python,
JavaScript and Go."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange

_NAME = r"[A-Za-z_$][\w$]*"
_AND = r"(?:&&|\band\b)"
_RANGE = re.compile(
    rf"(?<![\w$.])(?P<x>{_NAME})\s*(?P<lop>>=?)\s*(?P<lo>\d+)\s*{_AND}\s*(?P=x)\s*(?P<hop><=?)\s*(?P<hi>\d+)(?!\d)"
)
# The first and last code of each case: A-Z, a-z.
_CASES = ((65, 90), (97, 122))


def letter_ranges(lines: list[str]) -> list[RowChange]:
    """Each range of codes with one end on a case's edge and the other end off every edge, the other end moved to
    that case's other edge (the comparison kept); `lines` are the unit's, its signature first."""
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        for match in _RANGE.finditer(text):
            first = int(match["lo"]) + (match["lop"] == ">")
            last = int(match["hi"]) - (match["hop"] == "<")
            for low, high in _CASES:
                if first == low and last not in {90, 122}:
                    at, value = "hi", high + (match["hop"] == "<")
                elif last == high and first not in {65, 97}:
                    at, value = "lo", low - (match["lop"] == ">")
                else:
                    continue
                new = text[: match.start(at)] + str(value) + text[match.end(at) :]
                said = f"`{match[at]}` → `{value}`: the range's other end is on the edge of `{chr(low)}`…`{chr(high)}`"
                found.append(RowChange(row, new, said))
    return found

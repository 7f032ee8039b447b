"""A condition that cannot change: one value said to differ from each of several literals with `or` (`c != 'a' ||
c != 'e'`, always true) or to equal each of them with `and` (always false); every joining word of such a run
turned (`&&`, `||`), over as many lines as the condition takes."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange

_LITERAL = r"""(?:'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|-?\d+(?:\.\d+)?)"""
_SIDE = r"[A-Za-z_$][\w$]*(?:\.[\w$]+|\[[^\[\]\n]*\]|\([^()\n]*\))*"
_COMPARISON = re.compile(rf"(?P<side>{_SIDE})\s*(?P<op>!==?|===?)\s*(?P<literal>{_LITERAL})")
_JOINERS = {
    "python": {"or": "and", "and": "or"},
    "javascript": {"||": "&&", "&&": "||"},
}
# The joiner that makes a run fixed, by the comparison it joins: differing from each literal, or equal to each.
_FIXED_BY = {"!": {"or", "||"}, "=": {"and", "&&"}}
_CONTINUED = re.compile(r"(?:\|\||&&|\bor|\band|\(|\\)\s*$")


def fixed_conditions(lines: list[str], language: str) -> list[RowChange]:
    """Each run of two or more comparisons of one value with different literals that makes its condition always true
    or always false, with every joining word between them turned; the run may go on over several lines."""
    dialect = "javascript" if language in ("javascript", "typescript") else language
    joiners = _JOINERS.get(dialect)
    if joiners is None:
        return []
    found: list[RowChange] = []
    row = 0
    while row < len(lines):
        last = row
        while last + 1 < len(lines) and _CONTINUED.search(lines[last]):
            last += 1
        found.extend(_turned(lines, row, last, joiners))
        row = last + 1
    return found


def _turned(lines: list[str], first: int, last: int, joiners: dict[str, str]) -> list[RowChange]:
    """The runs of the logical line `first`..`last` turned, as one change (its first row, the others in `also`)."""
    comparisons = [(row, match) for row in range(first, last + 1) for match in _COMPARISON.finditer(lines[row])]
    turned: dict[int, list[tuple[int, int, str]]] = {}
    words: list[str] = []
    sides: list[str] = []
    for (row, one), (next_row, other) in zip(comparisons, comparisons[1:], strict=False):
        between = _between(lines, row, one.end(), next_row, other.start()).strip()
        if between not in joiners or one["side"] != other["side"] or one["literal"] == other["literal"]:
            continue
        if one["op"] != other["op"] or between not in _FIXED_BY[one["op"][0]]:
            continue
        # On one line the joiner follows the first comparison; over a break it ends the first line.
        at = lines[row].index(between, one.end()) if row == next_row else lines[row].rindex(between)
        turned.setdefault(row, []).append((at, at + len(between), joiners[between]))
        words.append(f"`{between}` → `{joiners[between]}`")
        sides.append(one["side"])
    if not turned:
        return []
    rewritten = []
    for row in sorted(turned):
        text = lines[row]
        for start, end, new in sorted(turned[row], reverse=True):
            text = text[:start] + new + text[end:]
        rewritten.append((row, text))
    (row, text), *others = rewritten
    change = f"{words[0]} between {len(words) + 1} comparisons of `{sides[0]}` with literals, which could never change"
    return [RowChange(row, text, change, tuple(others))]


def _between(lines: list[str], row: int, start: int, next_row: int, end: int) -> str:
    """The text between two comparisons, over a line break when the second starts the next line."""
    if row == next_row:
        return lines[row][start:end]
    return lines[row][start:] + " " + lines[next_row][:end]

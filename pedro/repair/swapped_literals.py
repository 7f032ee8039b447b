"""Two lines that set one name by the same call, apart only in one literal argument (`t = txt.split(/,/)`, later
`t = txt.split(/\\s/)`): a first try and its fallback, taken in the wrong order. The two literals are swapped
together; Python, JavaScript and Go."""

from __future__ import annotations

import re
from itertools import combinations

from pedro.repair.locate import RowChange
from pedro.repair.trailing_separators import split_arguments

_MOST_PAIRS = 3
"""Pairs offered per unit at most: many lines alike are a table, not a fallback."""
_SET = re.compile(
    r"^(?P<head>\s*(?:(?:let|const|var)\s+)?(?P<name>[A-Za-z_$][\w$]*)\s*:?=\s*)"
    r"(?P<call>[A-Za-z_$][\w$.]*)\((?P<args>.*)\)(?P<tail>\s*;?\s*)$"
)
_LITERAL = re.compile(r"""^(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|/(?:[^/\\\n]|\\.)+/[a-z]*)$""")


def swapped_literals(lines: list[str]) -> list[RowChange]:
    """Each pair of lines that set the same name by the same call with one literal argument apart, the two literals
    swapped; `lines` are the unit's, its signature first."""
    sets = [(row, match) for row, text in enumerate(lines) if (match := _SET.match(text)) is not None]
    pairs: list[tuple[int, str, int, str, str, str]] = []
    for (row, one), (other_row, other) in combinations(sets, 2):
        if (one["name"], one["call"]) != (other["name"], other["call"]):
            continue
        mine, theirs = split_arguments(one["args"]), split_arguments(other["args"])
        apart = [k for k in range(len(mine)) if len(mine) == len(theirs) and mine[k] != theirs[k]]
        if len(apart) != 1 or not (_LITERAL.match(mine[apart[0]]) and _LITERAL.match(theirs[apart[0]])):
            continue
        k = apart[0]
        new = _with_argument(one, mine, k, theirs[k])
        other_new = _with_argument(other, theirs, k, mine[k])
        pairs.append((row, new, other_row, other_new, mine[k], theirs[k]))
    if len(pairs) > _MOST_PAIRS:
        return []
    return [
        RowChange(row, new, f"`{first}` and `{second}` swapped between the two lines that set `{_name(new)}`",
                  ((other_row, other_new),))
        for row, new, other_row, other_new, first, second in pairs
    ]  # fmt: skip


def _with_argument(match: re.Match[str], arguments: list[str], k: int, value: str) -> str:
    written = ", ".join(value if at == k else argument for at, argument in enumerate(arguments))
    return f"{match['head']}{match['call']}({written}){match['tail']}"


def _name(line: str) -> str:
    found = _SET.match(line)
    return found["name"] if found is not None else ""

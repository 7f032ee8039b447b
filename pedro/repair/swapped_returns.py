"""A function that answers the other way round at two places: `return true` inside a loop and `return false` after
it, where the loop was to answer `false` early (any for all). Each line alone breaks the other answer too, so the
two are swapped together."""

from __future__ import annotations

import re
from itertools import combinations

from pedro.repair.locate import RowChange

_MOST_PAIRS = 6
"""Pairs offered per unit at most: a function with many boolean answers is a table, not a slip."""
_BOOLEAN_RETURN = re.compile(r"^(?P<head>\s*return\s+)(?P<value>True|False|true|false)(?P<tail>\s*;?\s*)$")
_OTHER = {"True": "False", "False": "True", "true": "false", "false": "true"}


def swapped_returns(lines: list[str]) -> list[RowChange]:
    """Each pair of lines that return opposite booleans as literals, both answers swapped; `lines` are the unit's,
    its signature first."""
    answers = [(row, match) for row, text in enumerate(lines) if (match := _BOOLEAN_RETURN.match(text)) is not None]
    pairs = [(one, other) for one, other in combinations(answers, 2) if one[1]["value"] != other[1]["value"]]
    if len(pairs) > _MOST_PAIRS:
        return []
    changes: list[RowChange] = []
    for (row, match), (other_row, other) in pairs:
        new, other_new = _flipped(match), _flipped(other)
        change = f"`{match['value']}` and `{other['value']}` swapped between the two lines that return them"
        changes.append(RowChange(row, new, change, ((other_row, other_new),)))
    return changes


def _flipped(match: re.Match[str]) -> str:
    return f"{match['head']}{_OTHER[match['value']]}{match['tail']}"

"""A running value taken of the whole collection inside the loop that walks it (`running_max = max(numbers)` in `for
n in numbers`): the value so far and the item were meant (`max(running_max, n)`); Python, JavaScript and Go."""

from __future__ import annotations

import re

from pedro.repair.divisor_loops import loop_body
from pedro.repair.locate import RowChange

_NAME = r"[A-Za-z_$][\w$]*"
# A loop over a collection's items: `for n in numbers:`, `for (const n of numbers)`, `for _, n := range numbers {`.
_WALKS = {
    "python": re.compile(rf"^\s*for\s+(?P<item>{_NAME})\s+in\s+(?P<items>{_NAME})\s*:"),
    "javascript": re.compile(rf"^\s*for\s*\(\s*(?:const|let|var)\s+(?P<item>{_NAME})\s+of\s+(?P<items>{_NAME})\s*\)"),
    "go": re.compile(rf"^\s*for\s+{_NAME}\s*,\s*(?P<item>{_NAME})\s*:=\s*range\s+(?P<items>{_NAME})\s*\{{"),
}
# The larger or smaller of two values, in each language's own spelling.
_PICKS = {
    "python": r"max|min",
    "javascript": r"Math\.max|Math\.min",
    "go": r"math\.Max|math\.Min",
}


def running_values(lines: list[str], language: str) -> list[RowChange]:
    """Each `value = max(items)` (or min) inside a loop over `items`, made `value = max(value, item)`."""
    walks = _WALKS.get("javascript" if language == "typescript" else language)
    if walks is None:
        return []
    picks = _PICKS["javascript" if language == "typescript" else language]
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        walk = walks.match(text)
        if walk is None:
            continue
        item, items = walk["item"], re.escape(walk["items"])
        # `value = max(items)`, `value = int(math.Max(items))`, `value = Math.max(...items)`
        head = rf"^(?P<head>\s*(?P<value>{_NAME})\s*=\s*[\w$]*\(?)"
        taken = re.compile(rf"{head}(?P<pick>{picks})\(\s*(?:\.\.\.)?{items}\s*\)")
        for offset, line in enumerate(loop_body(lines, row), start=row + 1):
            match = taken.match(line)
            if match is None or match["value"] in {item, walk["items"]}:
                continue
            value, pick = match["value"], match["pick"]
            pair = f"float64({value}), float64({item})" if language == "go" else f"{value}, {item}"
            new = f"{line[: match.end('head')]}{pick}({pair}){line[match.end() :]}"
            said = f"`{pick}({walk['items']})` → `{pick}({value}, {item})`: the value so far and the loop's item"
            found.append(RowChange(offset, new, said))
    return found

"""Two collections of distinct items compared in the order their items came: `JSON.stringify([...new Set(s0)]) ===
JSON.stringify([...new Set(s1)])` says whether both came in the same order, not whether they hold the same items.
Where one comparison holds two such collections, each is sorted first; JavaScript's `[...new Set(x)]` and
`Array.from(new Set(x))`, Python's `list(dict.fromkeys(x))`."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange

_ARGUMENT = r"[^()]*(?:\([^()]*\)[^()]*)*"
_DISTINCT = {
    "javascript": re.compile(rf"\[\.\.\.new Set\({_ARGUMENT}\)\]|Array\.from\(new Set\({_ARGUMENT}\)\)"),
    "python": re.compile(rf"list\(dict\.fromkeys\({_ARGUMENT}\)\)"),
}
_SORTED = {"javascript": "{c}.sort()", "python": "sorted({c})"}
_COMPARED = re.compile(r"===?|!==?")


def set_orders(lines: list[str], language: str) -> list[RowChange]:
    """Each line comparing two or more collections of distinct items, each of them sorted; `lines` are the unit's."""
    language = "javascript" if language == "typescript" else language
    if language not in _DISTINCT:
        return []
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        collections = list(_DISTINCT[language].finditer(line))
        if len(collections) < 2 or not _COMPARED.search(line):
            continue
        new = _DISTINCT[language].sub(lambda match: _SORTED[language].format(c=match.group()), line)
        found.append(RowChange(row, new, "each collection of distinct items sorted before they are compared: "
                                         "their order is the order the items came in"))  # fmt: skip
    return found

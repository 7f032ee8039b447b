"""A division by the wrong value where a count was meant: `total / mean` in a function that averages a sequence it
walks, where `total / len(numbers)` (JavaScript `numbers.length`) was meant. Each plain name a line divides by
becomes the length of each sequence the unit walks, sums or measures; Python, JavaScript and Go (whose division
takes one type on both sides: the length as it is, and as a float64)."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange

_MOST = 4
"""Rewritten lines per unit: a mean rarely walks more than a sequence or two."""
_WALKED = {
    "python": re.compile(r"\blen\((?P<a>\w+)\)|\bsum\((?P<b>\w+)\)|\bfor\s+[\w, ()]+?\s+in\s+(?P<c>\w+)\s*[:)\]]"),
    "javascript": re.compile(
        r"(?<![\w$.])(?P<a>[A-Za-z_$][\w$]*)\.(?:length|reduce|map|forEach|filter)\b"
        r"|\bfor\s*\(\s*(?:const|let|var)\s+[\w$]+\s+of\s+(?P<b>[A-Za-z_$][\w$]*)\s*\)"
    ),
    "go": re.compile(r"\blen\((?P<a>\w+)\)|\brange\s+(?P<b>\w+)\s*\{|\b\w+\((?P<c>\w+)\)\s*/"),
}
_DIVIDED = re.compile(r"(?<![/*])/\s*(?P<name>[A-Za-z_$][\w$]*)(?![\w$.(\[])")
"""A division by a plain name: `/ mean`, not `/ len(xs)`, `/ xs.length`, `// n` nor `/ f(x)`."""
_COUNTS = {"python": ("len({})",), "javascript": ("{}.length",), "go": ("float64(len({}))", "len({})")}


def divided_by_count(lines: list[str], language: str) -> list[RowChange]:
    """Each line that divides by a plain name, with that name made the length of a sequence the unit walks."""
    pattern = _WALKED.get(language)
    if pattern is None:
        return []
    text = "\n".join(lines)
    walked = list(dict.fromkeys(name for match in pattern.finditer(text) for name in match.groups() if name))
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        if line.lstrip().startswith(("#", "//", "*", "/*")):
            continue
        for match in _DIVIDED.finditer(line):
            for sequence in walked:
                if sequence == match["name"]:
                    continue
                for count in (form.format(sequence) for form in _COUNTS[language]):
                    new = line[: match.start("name")] + count + line[match.end("name") :]
                    change = f"`/ {match['name']}` → `/ {count}`, the count of what it walks"
                    found.append(RowChange(row, new, change))
    return found[:_MOST]

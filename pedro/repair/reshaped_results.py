"""A result with the right items in the wrong shape: `unique` returns `[0, 2, 3, 3, 5]` where `[0, 2, 3, 5]` was
wanted, a list comes back unsorted where the test wants it in order. The failure shows what the result lacks
(progress.result_shapes); each value the unit returns gets its repeats left out, or is sorted that way, or both;
Python and JavaScript."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange

_RETURN = re.compile(r"^(?P<head>\s*return\s+)(?P<value>.+?)(?P<tail>\s*;?\s*)$")
_NOTHING = frozenset({"None", "null", "undefined", "[]", "True", "False", "true", "false"})
_FORMS = {
    ("python", "repeats"): "list(dict.fromkeys({v}))",
    ("python", "ascending"): "sorted({v})",
    ("python", "descending"): "sorted({v}, reverse=True)",
    ("javascript", "repeats"): "[...new Set({v})]",
    # A copy sorted as `<` orders: a bare `.sort()` would compare numbers as text.
    ("javascript", "ascending"): "[...{v}].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))",
    ("javascript", "descending"): "[...{v}].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))",
}
_SHAPES = ("repeats", "ascending", "descending")
_WORDS = {
    "repeats": "with its repeats left out",
    "ascending": "sorted in ascending order",
    "descending": "sorted in descending order",
}


def reshaped_results(lines: list[str], language: str, shapes: frozenset[str]) -> list[RowChange]:
    """Each `return value` given each shape the failure shows the result lacks, then all of them together (repeats
    left out first, then sorted); `lines` are the unit's, its signature first."""
    language = "javascript" if language == "typescript" else language
    groups = _groups([shape for shape in _SHAPES if shape in shapes and (language, shape) in _FORMS])
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        returned = _RETURN.match(text)
        if returned is None or returned["value"] in _NOTHING:
            continue
        for group in groups:
            value = _reshaped(returned["value"], language, group)
            words = " and ".join(_WORDS[shape] for shape in group)
            found.append(RowChange(row, f"{returned['head']}{value}{returned['tail']}",
                                   f"what `return` gives {words}: the failure shows the same items so"))  # fmt: skip
    return found


def _groups(wanted: list[str]) -> list[list[str]]:
    """Each shape alone, then repeats left out together with each order."""
    pairs = [["repeats", order] for order in wanted if order != "repeats"] if "repeats" in wanted else []
    return [[shape] for shape in wanted] + pairs


def _reshaped(value: str, language: str, group: list[str]) -> str:
    """`value` given each shape of `group` in turn."""
    for shape in group:
        form = _FORMS[(language, shape)]
        if value.startswith("[...new Set(") and form.startswith("[...{v}]"):
            form = form.replace("[...{v}]", "{v}", 1)  # a new array already: sorted in place
        value = form.format(v=value)
    return value

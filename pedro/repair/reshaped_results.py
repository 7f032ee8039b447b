"""A result with the right items in the wrong shape: `unique` returns `[0, 2, 3, 3, 5]` where `[0, 2, 3, 5]` was
wanted, a list comes back unsorted where the test wants it in order. The failure shows what the result lacks
(progress.result_shapes); each value the unit returns gets its repeats left out, or is sorted that way, or both;
Python and JavaScript in the returned expression, Go in a block before `return name` (no import needed)."""

from __future__ import annotations

import re

from pedro.repair.locate import RETURN_LINE, RowChange

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
_GO_BLOCKS = {
    "repeats": "{ seen := map[interface{}]bool{}; kept := V[:0:0]; for _, item := range V { if !seen[item] "
    "{ seen[item] = true; kept = append(kept, item) } }; V = kept }",
    "ascending": "{ for i := 1; i < len(V); i++ { for j := i; j > 0 && V[j] < V[j-1]; j-- "
    "{ V[j], V[j-1] = V[j-1], V[j] } } }",
    "descending": "{ for i := 1; i < len(V); i++ { for j := i; j > 0 && V[j] > V[j-1]; j-- "
    "{ V[j], V[j-1] = V[j-1], V[j] } } }",
}
"""Go's ways, as blocks of their own (their names stay inside) on the slice `V` a `return V` gives."""
_GO_NAME = re.compile(r"[A-Za-z_]\w*")
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
    groups = _groups([shape for shape in _SHAPES if shape in shapes and shape in _known(language)])
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        returned = RETURN_LINE.match(text)
        if returned is None or not _reshapeable(returned["value"], language):
            continue
        for group in groups:
            words = " and ".join(_WORDS[shape] for shape in group)
            new = (
                _go_blocks(text, returned["value"], group) if language == "go" else _returned(returned, language, group)
            )
            found.append(RowChange(row, new, f"what `return` gives {words}: the failure shows the same items so"))
    return found


def _known(language: str) -> set[str]:
    """The shapes the language has a way to give."""
    return set(_GO_BLOCKS) if language == "go" else {shape for (dialect, shape) in _FORMS if dialect == language}


def _reshapeable(value: str, language: str) -> bool:
    """Whether a returned value can be reshaped: something, and in Go a slice by name."""
    return value not in _NOTHING and (language != "go" or _GO_NAME.fullmatch(value) is not None)


def _returned(returned: re.Match[str], language: str, group: list[str]) -> str:
    """The `return` line with its value reshaped in place."""
    return f"{returned['head']}{_reshaped(returned['value'], language, group)}{returned['tail']}"


def _go_blocks(line: str, name: str, group: list[str]) -> str:
    """Go's blocks for `group` on the slice `name`, each on a line of its own before the `return` line."""
    indent = line[: len(line) - len(line.lstrip())]
    return "\n".join([*(indent + _GO_BLOCKS[shape].replace("V", name) for shape in group), line])


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

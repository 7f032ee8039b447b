"""An item compared with its mirror (`arr[len(arr) - i - 1]`, `arr.at(-i - 1)`) against a plain name that holds no
item of it (`if ans != arr[len(arr) - i - 1]`, where `ans` counts): the name made the item the mirror pairs with."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange

_NAME = r"[A-Za-z_$][\w$]*"
# From the end, by the loop's counter: `len(a) - i - 1`, `len(a) - 1 - i`, `a.length - i - 1`, `-i - 1`, `~i`.
_BACK = rf"(?:(?P<i>{_NAME})\s*-\s*1|1\s*-\s*(?P<j>{_NAME}))"
_MIRRORS = (
    re.compile(rf"(?P<a>{_NAME})\[\s*len\(\s*(?P=a)\s*\)\s*-\s*{_BACK}\s*\]"),
    re.compile(rf"(?P<a>{_NAME})\[\s*(?P=a)\.length\s*-\s*{_BACK}\s*\]"),
    re.compile(rf"(?P<a>{_NAME})(?:\[|\.at\()\s*-\s*{_BACK}\s*[\])]"),
    re.compile(rf"(?P<a>{_NAME})\[\s*~\s*(?P<i>{_NAME})\s*\]"),
)
_EQUALITY = r"(?:===|!==|==|!=)"
# Names that are values of their own, never a slip for an item.
_CONSTANTS = frozenset({"True", "False", "None", "true", "false", "null", "undefined", "nil", "NaN"})


def mirror_pairs(lines: list[str]) -> list[RowChange]:
    """Each plain name compared for equality with an item's mirror, made the item itself (`ans` → `arr[i]`)."""
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        for pattern in _MIRRORS:
            for mirror in pattern.finditer(line):
                change = _paired(lines, row, mirror)
                if change is not None:
                    found.append(change)
    return found


def _paired(lines: list[str], row: int, mirror: re.Match[str]) -> RowChange | None:
    """The change that compares the item `i` with its mirror, where the other side of the comparison is a plain name
    holding no item of the collection; None otherwise."""
    line, items, counter = lines[row], mirror["a"], mirror["i"] or mirror["j"]
    before = re.search(rf"(?<![\w$.\]\)])(?P<name>{_NAME})\s*{_EQUALITY}\s*$", line[: mirror.start()])
    after = re.match(rf"\s*{_EQUALITY}\s*(?P<name>{_NAME})(?![\w$.\[(])", line[mirror.end() :])
    side = before or after
    if side is None or not _counts_a_loop(lines, counter):
        return None
    name = side["name"]
    if name in {items, counter} | _CONSTANTS or _holds_an_item(lines, name, items):
        return None
    start, end = (side.start("name"), side.end("name")) if before else (mirror.end() + side.start("name"),
                                                                        mirror.end() + side.end("name"))  # fmt: skip
    item = f"{items}[{counter}]"
    new = f"{line[:start]}{item}{line[end:]}"
    return RowChange(row, new, f"`{name}` → `{item}`: compared with its mirror, `{mirror.group(0)}`")


def _counts_a_loop(lines: list[str], counter: str) -> bool:
    """Whether `counter` is a loop's own counter in the unit (`for i in range`, `for (let i = 0`, `for i := 0`)."""
    header = re.compile(rf"\bfor\s*\(?\s*(?:(?:let|var|const)\s+)?{re.escape(counter)}\b(?:\s*(?::=|=|in\b|,))")
    return any(header.search(line) for line in lines)


def _holds_an_item(lines: list[str], name: str, items: str) -> bool:
    """Whether the unit ever gives `name` a value read from `items` (`x = arr[i]`): then it may be the item meant."""
    given = re.compile(rf"(?<![\w$.]){re.escape(name)}\s*(?::=|[-+*/]?=)(?!=)(?P<value>.*)")
    reads = re.compile(rf"(?<![\w$.]){re.escape(items)}\b")
    return any((match := given.search(line)) is not None and reads.search(match["value"]) for line in lines)

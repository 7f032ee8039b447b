"""An index into a text the unit writes out, wrapped by a number other than the text's length (`d[(i + 4) % 24]`
where `d` holds the 26 letters): the number made the length, so that every position wraps onto the text."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange

_NAME = r"[A-Za-z_$][\w$]*"
# A name given a text written out: `d = 'abc…'`, `d := "abc…"`, `const d = 'abc…'`.
_WRITTEN = re.compile(
    rf"""^\s*(?:(?:const|let|var)\s+)?(?P<name>{_NAME})\s*:?=\s*(?P<q>['"])(?P<text>[^'"\\]+)(?P=q)"""
)


def wrap_lengths(lines: list[str]) -> list[RowChange]:
    """Each `name[… % n]` (Go's `[]rune(name)[… % n]` too) where `name` holds a text of another length than `n`,
    with `n` made that length."""
    lengths: dict[str, set[int]] = {}
    for line in lines:
        if written := _WRITTEN.match(line):
            lengths.setdefault(written["name"], set()).add(len(written["text"]))
    found: list[RowChange] = []
    for name, sizes in lengths.items():
        if len(sizes) != 1:
            continue  # the name holds texts of several lengths
        (size,) = sizes
        indexed = rf"(?:(?<![\w$.]){re.escape(name)}|\(\s*{re.escape(name)}\s*\))"  # `d`, Go's `[]rune(d)`
        wrapped = re.compile(rf"{indexed}\[[^\[\]]*%\s*(?P<n>\d+)\s*\]")
        for row, line in enumerate(lines):
            for match in wrapped.finditer(line):
                if int(match["n"]) == size or size < 2:
                    continue
                new = f"{line[: match.start('n')]}{size}{line[match.end('n') :]}"
                said = f"`% {match['n']}` → `% {size}`: the length of `{name}`, the text it indexes"
                found.append(RowChange(row, new, said))
    return found

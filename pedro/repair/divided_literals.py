"""A number divided by a number beside a name, where the division was meant for more: `len - 1 / 2` divides only the
`1`, which nobody writes for a half. The division is given the whole (`(len - 1) / 2`) or the name alone
(`len / 2 - 1`); Python, JavaScript and Go."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange

_OPERAND = r"[A-Za-z_$][\w$.]*(?:\([^()]*\))?"
_SLIP = re.compile(
    rf"(?<![\w$.)\]])(?P<name>{_OPERAND})\s*(?P<op>[-+])\s*(?P<number>\d+)\s*(?P<div>//?)\s*(?P<by>\d+)(?![\w.(\[])"
)


def divided_literals(lines: list[str], language: str) -> list[RowChange]:
    """Each `name ± n / m` (Python's `//` too), rewritten `(name ± n) / m` and `name / m ± n`; `lines` are the
    unit's, its signature first."""
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        code = text.split("#", 1)[0] if language == "python" else text.split("//", 1)[0]
        for match in _SLIP.finditer(code):
            if match["div"] == "//" and language != "python":
                continue
            name, op, number, div, by = match["name"], match["op"], match["number"], match["div"], match["by"]
            head, tail = text[: match.start()], text[match.end() :]
            for rewritten in (f"({name} {op} {number}) {div} {by}", f"{name} {div} {by} {op} {number}"):
                said = f"`{match[0]}` → `{rewritten}`: the division meant for more than `{number}`"
                found.append(RowChange(row, head + rewritten + tail, said))
    return found

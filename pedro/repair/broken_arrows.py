"""A JavaScript callback whose arrow lost a character: `numbers.filter(x > dict[x] < 1)` compares a name nothing
defines where `x => …` was meant, and throws `x is not defined`. The arrow is put back."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange

_NAME = r"[A-Za-z_$][\w$]*"
_CALLBACK = re.compile(
    rf"\.(?:filter|map|find|findIndex|findLast|some|every|forEach|sort|reduce|flatMap)\(\s*"
    rf"(?P<params>{_NAME}|\(\s*{_NAME}(?:\s*,\s*{_NAME})*\s*\))\s*(?P<arrow>>|=(?![=>]))"
)


def broken_arrows(lines: list[str], language: str) -> list[RowChange]:
    """Each callback argument that starts with a name (or names in brackets) nothing in the unit defines, followed
    by `>` or `=`, with `=>` in their place; `lines` are the unit's, its signature first."""
    if language not in {"javascript", "typescript"}:
        return []
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        for match in _CALLBACK.finditer(line):
            names = re.findall(_NAME, match["params"])
            # the unit without the names in question, which would read as their own declaration
            rest = "\n".join(
                [*lines[:row], line[: match.start("params")] + line[match.end("params") :], *lines[row + 1 :]]
            )
            if any(_defined(rest, name) for name in names):
                continue
            new = f"{line[: match.start('arrow')]}=>{line[match.end('arrow') :]}"
            said = f"`{match['params']} {match['arrow']}` → `{match['params']} =>`: the callback's arrow"
            found.append(RowChange(row, new, said))
    return found


def _defined(text: str, name: str) -> bool:
    """Whether the unit declares `name` (a variable, a parameter, a function) or takes it as an arrow's parameter."""
    escaped = re.escape(name)
    declared = rf"(?:\b(?:let|const|var|function)\s+{escaped}\b|[(,]\s*{escaped}\s*(?:[,)=]|$)|\b{escaped}\s*=>)"
    return re.search(declared, text, re.MULTILINE) is not None


def arrow_parameters(line: str, language: str) -> set[str]:
    """The names that stand as a callback's parameters before a broken arrow on `line`: a failure that calls one of
    them undefined is read by the arrow, not by a name spelt otherwise."""
    if language not in {"javascript", "typescript"}:
        return set()
    return {name for match in _CALLBACK.finditer(line) for name in re.findall(_NAME, match["params"])}

"""Base cases that answer otherwise than the unit's own documentation (`fibfib(1) == 0` in its docstring, above `if n
== 1: return 1`): every such case made to return the documented value, all at once, then each alone."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pedro.repair.locate import RowChange

_NAME = r"[A-Za-z_$][\w$]*"
_NUMBER = r"-?\d+"
# `fibfib(1) == 0`, `fib(2) -> 1`, `f(3) ➞ 2`, `f(0) returns 1`, and a doctest's call with its answer on the next line.
_EXAMPLE = re.compile(
    rf"(?<![\w$.])(?P<name>{_NAME})\(\s*(?P<arg>{_NUMBER})\s*\)\s*(?:==|->|➞|=>|=|\bis\b|\breturns?\b|\bgives\b)\s*"
    rf"(?P<value>{_NUMBER})(?![\w.])"
)
_DOCTEST = re.compile(rf">>>\s*(?P<name>{_NAME})\(\s*(?P<arg>{_NUMBER})\s*\)\s*\n\s*(?P<value>{_NUMBER})\s*$", re.M)
# What starts a comment's line: Go's `//`, a block comment's `*`, Python's `#`.
_COMMENT_MARK = re.compile(r"^[ \t]*(?://+|/?\*+/?|#)?[ \t]?", re.M)
# A guard on the parameter's values (`if n == 1:`, `if (n == 0 || n == 1)`, `} else if n == 2 {`, Go's `case 0, 1:`),
# with what it returns on the same line, if anything.
_GUARD = re.compile(
    r"^\s*(?:\}\s*)?(?:el(?:se\s+)?if|if)\s*(?P<cond>.+?)\s*(?::|\{|(?<=\)))\s*(?P<ret>return\b[^;{}]*)?;?\s*\}?\s*$"
)
_CASE = re.compile(rf"^\s*case\s+(?P<values>{_NUMBER}(?:\s*,\s*{_NUMBER})*)\s*:\s*(?P<ret>return\b.*)?$")
_SWITCH = re.compile(rf"^\s*switch\s*\(?\s*(?P<name>{_NAME})\s*\)?\s*\{{")
_RETURN = re.compile(r"^\s*return\s+(?P<value>[^;{}]+?)\s*;?\s*\}?\s*$")
_EQUALS = re.compile(
    rf"^\(?\s*(?:(?P<name>{_NAME})\s*===?\s*(?P<k>{_NUMBER})|(?P<k2>{_NUMBER})\s*===?\s*(?P<name2>{_NAME}))\s*\)?$"
)


@dataclass(frozen=True)
class _Case:
    """A base case: the name it tests and the values it holds for, and the row of its return with the value
    returned."""

    name: str
    values: tuple[int, ...]
    row: int
    returned: str


def documented_cases(lines: list[str], name: str, doc: str) -> list[RowChange]:
    """The base cases of the unit `name` (its lines, and its documentation: a docstring's lines or the comment above
    it) that return other than the documented value: all of them made to, then each alone."""
    documented = _documented(doc, name)
    if not documented:
        return []
    changes = [change for case in _cases(lines) if (change := _corrected(lines, case, documented)) is not None]
    if not changes:
        return []
    together = RowChange(changes[0].row, changes[0].text, "; ".join(c.change for c in changes),
                         tuple((c.row, c.text) for c in changes[1:]))  # fmt: skip
    return [together, *changes] if len(changes) > 1 else changes


def _documented(doc: str, name: str) -> dict[int, int]:
    """What the documentation says the unit returns for single whole numbers, where it says so once (`fibfib(1) ==
    0`); a name matched whatever its case (Go's `Fibfib` documented as `fibfib`)."""
    text = _COMMENT_MARK.sub("", doc)
    said: dict[int, set[int]] = {}
    for match in [*_EXAMPLE.finditer(text), *_DOCTEST.finditer(text)]:
        if match["name"].lower() == name.lower():
            said.setdefault(int(match["arg"]), set()).add(int(match["value"]))
    return {arg: next(iter(values)) for arg, values in said.items() if len(values) == 1}


def _cases(lines: list[str]) -> list[_Case]:
    """Each guard of the unit that holds for a few values of one name and returns at once (on its line or the
    next): `if n == 0 or n == 1:`, Go's `case 0, 1:` under `switch n {`."""
    found: list[_Case] = []
    subject = ""
    for row, line in enumerate(lines):
        if switch := _SWITCH.match(line):
            subject = switch["name"]
        if guard := _GUARD.match(line):
            held, ret = _guarded_values(guard["cond"]), guard["ret"]
        elif (case := _CASE.match(line)) and subject:
            held, ret = (subject, _listed(case["values"])), case["ret"]
        else:
            continue
        ret_row = row if ret else row + 1
        returned = _RETURN.match(ret or lines[ret_row]) if held is not None and ret_row < len(lines) else None
        if held is not None and returned is not None:
            found.append(_Case(held[0], held[1], ret_row, returned["value"].strip()))
    return found


def _guarded_values(condition: str) -> tuple[str, tuple[int, ...]] | None:
    """The name and the values `n == 0 or n == 1` (`||` in braces languages) holds for; None for any other
    condition."""
    parts = re.split(r"\s*(?:\|\||\bor\b)\s*", condition.strip().removeprefix("(").removesuffix(")"))
    names, values = set(), []
    for part in parts:
        match = _EQUALS.match(part.strip())
        if match is None:
            return None
        names.add(match["name"] or match["name2"])
        values.append(int(match["k"] or match["k2"]))
    return (names.pop(), tuple(values)) if len(names) == 1 else None


def _listed(values: str) -> tuple[int, ...]:
    return tuple(int(value) for value in values.split(","))


def _corrected(lines: list[str], case: _Case, documented: dict[int, int]) -> RowChange | None:
    """The case's return made the documented value, where every value it holds for is documented alike and what it
    returns (a number, or the name it tests, pinned to those values) differs from that for one of them; None
    otherwise."""
    wanted = {documented.get(value) for value in case.values}
    if None in wanted or len(wanted) != 1:
        return None
    value = wanted.pop()
    if re.fullmatch(_NUMBER, case.returned):
        answers = {int(case.returned)}
    elif case.returned == case.name:
        answers = set(case.values)
    else:
        return None
    if answers == {value}:
        return None
    line = lines[case.row]
    start = line.index(case.returned, line.index("return") + len("return"))
    new = f"{line[:start]}{value}{line[start + len(case.returned) :]}"
    shown = ", ".join(str(v) for v in case.values)
    return RowChange(case.row, new, f"`return {case.returned}` → `return {value}` for {shown}, as documented")

"""A swap through a temporary that lost its middle step: `tmp = p[j]` then `p[ind] = tmp`, where `p[j] = p[ind]`
was to come between; as written, `p[j]` keeps its value and the two places end up equal. The missing step is put
back; Python, JavaScript and Go."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange, indent_of

_PLACE = r"[A-Za-z_$][\w$]*(?:\[[^\[\]]+\]|\.[A-Za-z_$][\w$]*)*"
_KEPT = re.compile(rf"^\s*(?:(?:let|const|var)\s+)?(?P<tmp>[A-Za-z_$][\w$]*)\s*:?=\s*(?P<kept>{_PLACE})\s*;?\s*$")
_LOOKAHEAD = 3
"""How many lines after the temporary's the swap's last step may stand."""


def half_swaps(lines: list[str]) -> list[RowChange]:
    """Each temporary set to one place and put into another and read nowhere else, with nothing set to the first
    place between: the step `first = second` added before the temporary is put; `lines` are the unit's, its
    signature first."""
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        kept = _KEPT.match(text)
        if kept is None:
            continue
        tmp, first = kept["tmp"], kept["kept"]
        put = re.compile(rf"^(?P<indent>\s*)(?P<second>{_PLACE})\s*=\s*{re.escape(tmp)}\s*(?P<end>;?)\s*$")
        for later in range(row + 1, min(row + 1 + _LOOKAHEAD, len(lines))):
            if indent_of(lines[later]) != indent_of(text):
                break
            done = put.match(lines[later])
            if done is None:
                if re.match(rf"^\s*{re.escape(first)}\s*=[^=]", lines[later]):
                    break  # the first place is set already: a whole swap
                continue
            second = done["second"]
            if second != first and not _read_elsewhere(lines, tmp, {row, later}):
                step = f"{done['indent']}{first} = {second}{done['end']}"
                said = f"`{first} = {second}` added: the swap through `{tmp}` lacked its middle step"
                found.append(RowChange(later, f"{step}\n{lines[later]}", said))
            break
    return found


def _read_elsewhere(lines: list[str], name: str, rows: set[int]) -> bool:
    """Whether `name` stands on a line of the unit other than `rows`: a value kept for later, not a swap's."""
    named = re.compile(rf"(?<![\w$.]){re.escape(name)}(?![\w$])")
    return any(named.search(line) for k, line in enumerate(lines) if k not in rows)

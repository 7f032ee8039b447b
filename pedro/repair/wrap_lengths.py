"""An index into a text the unit writes out, wrapped by a number other than the text's length (`d[(i + 4) % 24]`
where `d` holds the 26 letters): the number made the length, so that every position wraps onto the text. And a
letter's code gone past `z` stepped back by another number than the alphabet's 26 (`if (p > 122) { p -= 24 }`)."""

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


# A letter's code past the end of the alphabet, taken back by a step: `if (p > 122) { p -= 24 }`, `if p > ord('z'):`
# then `p -= 24`, Go's `if r > 'z' { r -= 24 }`. The step must be the alphabet's length for the letter to land on one.
_PAST_THE_END = re.compile(
    r"""^\s*(?:if\s*\(?|}\s*else\s+if\s*\(?)\s*(?P<code>[A-Za-z_$][\w$]*)\s*(?:>\s*(?:122|90|'z'|'Z'|ord\(['"][zZ]['"]\))"""
    r"""|>=\s*(?:123|91))\s*\)?\s*[:{]\s*(?P<same>.*)$"""
)
_STEP_BACK = r"(?<![\w$]){code}\s*-=\s*(?P<n>\d+)"
_ALPHABET = 26


def wrapped_codes(lines: list[str]) -> list[RowChange]:
    """Each step back by another number than 26 of a letter's code gone past `z` (or `Z`), on the line of the test
    or the next: the number made 26."""
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        past = _PAST_THE_END.match(line)
        if past is None:
            continue
        step = re.compile(_STEP_BACK.format(code=re.escape(past["code"])))
        for at in (row, row + 1):
            if at >= len(lines) or (back := step.search(lines[at])) is None or int(back["n"]) == _ALPHABET:
                continue
            text = lines[at]
            new = f"{text[: back.start('n')]}{_ALPHABET}{text[back.end('n') :]}"
            found.append(RowChange(at, new, f"`-= {back['n']}` → `-= 26`: a letter past `z` goes back by the alphabet"))
            break
    return found

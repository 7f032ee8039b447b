"""A sequence cut in two and joined back in the same order: `s[:k] + s[k:]` (`s.slice(0, k) + s.slice(k)`) is `s`
itself, which nobody writes on purpose; a rotation (`s[k:] + s[:k]`) was meant, as in a circular shift or a
cipher's wrap-around. The two halves are joined the other way round."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange
from pedro.tools.symbols import LanguageName

# One level of brackets inside a bound: `len(s) - shift`, `s.length - n`.
_BOUND = r"(?:[^\[\](),:]|\([^()]*\))+?"
_NAME = r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*"
_SLICES = re.compile(
    rf"(?P<seq>{_NAME})\[\s*(?:0\s*)?:\s*(?P<cut>{_BOUND})\s*\](?P<plus>\s*\+\s*)(?P=seq)\[\s*(?P<again>{_BOUND})\s*:\s*\]"
)
_CALLS = re.compile(
    rf"(?P<seq>{_NAME})\.(?P<how>slice|substring)\(\s*0\s*,\s*(?P<cut>{_BOUND})\s*\)(?P<plus>\s*\+\s*)"
    rf"(?P=seq)\.(?P=how)\(\s*(?P<again>{_BOUND})\s*\)"
)


def joined_halves(lines: list[str], language: LanguageName) -> list[RowChange]:
    """Each line that joins a sequence's two halves back in their own order, with the halves swapped; `lines` are
    the unit's, its signature first."""
    pattern = _CALLS if language == "javascript" else _SLICES
    changes: list[RowChange] = []
    for row, text in enumerate(lines):
        for found in pattern.finditer(text):
            cut = found["cut"].strip()
            if " ".join(cut.split()) != " ".join(found["again"].split()):
                continue
            seq, plus = found["seq"], found["plus"]
            if language == "javascript":
                how = found["how"]
                rotated = f"{seq}.{how}({cut}){plus}{seq}.{how}(0, {cut})"
            else:
                rotated = f"{seq}[{cut}:]{plus}{seq}[:{cut}]"
            new = text[: found.start()] + rotated + text[found.end() :]
            changes.append(RowChange(row, new, f"the two halves of `{seq}` cut at `{cut}` joined the other way round"))
    return changes

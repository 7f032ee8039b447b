"""A loop that takes a number's digits (`x % base`) but steps the number by subtraction (`x -= base`, or `x = x - x %
base`, which takes the digit off and never shifts the rest down): the step made the division the digits need."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange
from pedro.tools.symbols import LanguageName

# `x -= b` and `x = x - b`, alone on their line; `x = x - x % b`.
_SUBTRACTED = re.compile(
    r"^(?P<indent>\s*)(?P<x>[A-Za-z_$][\w$]*)\s*(?:-=|=\s*(?P=x)\s*-)\s*(?P<b>[A-Za-z_$][\w$]*|\d+)\s*(?P<end>;?)\s*$"
)
_DIGIT_OFF = re.compile(
    r"^(?P<indent>\s*)(?P<x>[A-Za-z_$][\w$]*)\s*=\s*\(?\s*(?P=x)\s*-\s*(?P=x)\s*%\s*(?P<b>[A-Za-z_$][\w$]*|\d+)\s*\)?"
    r"\s*(?P<end>;?)\s*$"
)


def digit_steps(lines: list[str], language: LanguageName) -> list[RowChange]:
    """Each subtraction that steps a number whose digits the unit takes, made a division by the same base."""
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        match = _DIGIT_OFF.match(line) or _SUBTRACTED.match(line)
        if match is None:
            continue
        x, base = match["x"], match["b"]
        taken = re.compile(rf"(?<![\w$.]){re.escape(x)}\s*%\s*{re.escape(base)}(?![\w$])")
        if not any(taken.search(other) for k, other in enumerate(lines) if k != row or match.re is _DIGIT_OFF):
            continue
        new = f"{match['indent']}{_divided(x, base, language)}{match['end']}"
        found.append(RowChange(row, new, f"`{line.strip()}` → `{new.strip()}`: the digits need a division"))
    return found


def _divided(x: str, base: str, language: LanguageName) -> str:
    """`x` divided by `base` as a whole number, in the language's own way."""
    if language == "python":
        return f"{x} //= {base}"
    if language == "go":
        return f"{x} /= {base}"
    return f"{x} = Math.floor({x} / {base})"

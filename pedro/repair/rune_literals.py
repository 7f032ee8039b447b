"""A Go rune literal of several characters (`'__'`), which Go refuses to build ("more than one character in rune
literal"): the character written twice or more is written once; of different characters, each alone is tried."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange

_RUNE = re.compile(r"'(?P<body>[^'\\\n]{2,})'")
_MOST_CHARACTERS = 3
"""Longer than this, a rune literal is text that wanted double quotes, not a slip of one character."""


def rune_literals(lines: list[str], language: str) -> list[RowChange]:
    """Each Go rune literal of two or three plain characters made one character: the repeated one, else each in
    turn; `lines` are the unit's, its signature first."""
    if language != "go":
        return []
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        code = text.split("//", 1)[0]
        for literal in _RUNE.finditer(code):
            body = literal["body"]
            if len(body) > _MOST_CHARACTERS or _inside_text(code, literal.start()):
                continue
            for char in dict.fromkeys(body):
                new = f"{text[: literal.start()]}'{char}'{text[literal.end() :]}"
                found.append(RowChange(row, new, f"`'{body}'` → `'{char}'`: a rune holds one character"))
    return found


def _inside_text(code: str, at: int) -> bool:
    """Whether `at` stands inside a double-quoted or raw string of the line."""
    before = code[:at].replace('\\"', "")
    return before.count('"') % 2 == 1 or before.count("`") % 2 == 1

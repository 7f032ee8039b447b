"""A short text compared with the start of a string, written back to front: `s[:2] == " I"` where a sentence that
starts with the word `I` reads `"I "`. A prefix that starts with a space cannot be how a word begins; its characters
are put in the other order; Python, JavaScript and Go."""

from __future__ import annotations

import re

from pedro.repair.locate import RowChange

_TEXT = r"""(?P<quote>["'])(?P<body>\s[^"'\\\s]{1,2})(?P=quote)"""
# The start of a string compared with a literal: `s[:2] ==`, `s[0:2] !=`, `s.slice(0, 2) ===`, or a prefix test.
_PREFIX = r"(?:\[\s*(?:0\s*)?:\s*\d+\s*\]|\.(?:slice|substring|substr)\(\s*0\s*,\s*\d+\s*\))"
_PATTERNS = (
    re.compile(rf"{_PREFIX}\s*[!=]==?\s*{_TEXT}"),
    re.compile(rf"{_TEXT}\s*[!=]==?\s*[\w$.]+{_PREFIX}"),
    re.compile(rf"(?:\.startswith|\.startsWith|strings\.HasPrefix)\((?:[\w$.]+,\s*)?{_TEXT}"),
)


def reversed_prefixes(lines: list[str]) -> list[RowChange]:
    """Each short literal with a space at one end that a string's start is compared with, its characters reversed;
    `lines` are the unit's, its signature first."""
    found: list[RowChange] = []
    for row, text in enumerate(lines):
        for match in (match for pattern in _PATTERNS for match in pattern.finditer(text)):
            body = match["body"]
            new = text[: match.start("body")] + body[::-1] + text[match.end("body") :]
            found.append(RowChange(row, new, f"`{body}` → `{body[::-1]}`: a word's start with the space after it"))
    return found

"""A text read with its byte order mark kept: where a failure's value starts with U+FEFF, each read of text in the
suspects' files made to drop it.

python-dotenv glued the mark some Windows editors write at a file's start onto the first key (`'\\ufeffa'` where
`'a'` was expected); the fix drops it where the stream is read, far from the parser the failure points at. So each
`stream.read()` and `path.read_text(…)` in the files the failure points at gets `.lstrip("\\ufeff")`, and each
`encoding="utf-8"` becomes `"utf-8-sig"`, the codec that drops the mark.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from pedro.repair.locate import Unit, file_units
from pedro.repair.variants import OWN_CLASS_SCORE, Variant

_MARK = "\ufeff"
# A read of a whole text (`stream.read()`, `path.read_text(encoding="utf-8")`), to the end of its call.
_READ = re.compile(r"\.(?:read\(\s*\)|read_text\([^()]*\))")
_UTF8 = re.compile(r"""(?P<q>['"])utf-?8(?P=q)""", re.IGNORECASE)


def marked(texts: Iterable[str]) -> bool:
    """Whether a failure shows a value with a byte order mark, as Python's repr writes it or as the character."""
    return any("\\ufeff" in text or _MARK in text for text in texts)


def dropped_marks(root: Path, paths: Iterable[str], texts: Iterable[str]) -> list[Variant]:
    """The reads of text in the Python files `paths`, each made to drop a byte order mark, where a failure shows one."""
    if not marked(texts):
        return []
    found: list[Variant] = []
    for path in dict.fromkeys(paths):
        if path.endswith(".py"):
            for unit in file_units(root, path):
                found += _unit_reads(unit)
    return found


def _unit_reads(unit: Unit) -> list[Variant]:
    """The unit's lines that read a text, each with the mark dropped."""
    found: list[Variant] = []
    for row, text in enumerate(unit.text.splitlines()):
        if text.lstrip().startswith("#"):
            continue
        for match in _READ.finditer(text):
            new = f'{text[: match.end()]}.lstrip("\\ufeff"){text[match.end() :]}'
            change = f'`{match.group(0)}` → `{match.group(0)}.lstrip("\\ufeff")`: the text read keeps its mark'
            found.append(Variant(unit, unit.start_line + row, new, change, OWN_CLASS_SCORE))
        for match in _UTF8.finditer(text):
            if "encoding" in text[: match.start()]:
                new = f"{text[: match.start()]}{match['q']}utf-8-sig{match['q']}{text[match.end() :]}"
                change = f"`{match.group(0)}` → `'utf-8-sig'`, the codec that drops a byte order mark"
                found.append(Variant(unit, unit.start_line + row, new, change, OWN_CLASS_SCORE))
    return found

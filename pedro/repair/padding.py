"""A number a line turns into text, zero-padded to the width the failure wanted it at (`'1:5'` for `'1:05'`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from pedro.repair.mutants import string_literals, without_comment
from pedro.tools.symbols import LanguageName

# A printf field with no flags or width (`%d`, Go's `%v`), not an escaped `%%d`.
_PRINTF = re.compile(r"(?<!%)%(?P<verb>[dv])")
# A field of a Python f-string or of a `str.format` string with no format spec or conversion (`{rest}`, `{}`).
_PYTHON_FIELD = re.compile(r"(?<!\{)\{(?P<expr>[^{}:!]*)\}(?!\})")
# A JavaScript template's field (`${rest}`).
_TEMPLATE_FIELD = re.compile(r"\$\{(?P<expr>[^{}]+)\}")
# A number made text by a call: Python's `str(n)`, JavaScript's `String(n)` and `n.toString()`.
_PYTHON_STR = re.compile(r"(?<![\w.])str\((?P<expr>[^()]+)\)")
_JS_STRING = re.compile(r"(?<![\w$.])String\((?P<expr>[^()]+)\)|(?P<owner>[\w$.\]\)]+)\.toString\(\)")


def zero_padded(line: str, width: int, language: LanguageName) -> Iterator[tuple[str, str]]:
    """(the new line, what changed) for each place the line turns a number into text, padded with zeros to `width`:
    a printf field (`%d` → `%02d`), an f-string's or a format string's field (`{m}` → `{m:02d}`), a template's field
    (`${m}` → `${String(m).padStart(2, "0")}`), a `str()` or `String()` call."""
    for start, literal in string_literals(line, language):
        for at, old, new in _fields(literal, width, language, line):
            yield _replaced(line, start + at, old, new), _change(old, new)
    calls = _PYTHON_STR if language == "python" else _JS_STRING if language != "go" else None
    code = without_comment(line, language)  # the same line up to its comment, where one starts
    for match in calls.finditer(code) if calls is not None else ():
        if _inside_string(line, match.start(), language):
            continue
        old = match.group(0)
        new = f"{old}.zfill({width})" if language == "python" else f'{old}.padStart({width}, "0")'
        yield _replaced(line, match.start(), old, new), _change(old, new)


def _fields(literal: str, width: int, language: LanguageName, line: str) -> Iterator[tuple[int, str, str]]:
    """(where in the literal, the field, the field padded) for each field of one string literal."""
    prefix = literal[: len(literal) - len(literal.lstrip("rRbBfFuU"))].lower()
    if language in ("python", "go"):
        for match in _PRINTF.finditer(literal):
            yield match.start(), match.group(0), f"%0{width}d"
    if language == "python" and ("f" in prefix or ".format(" in line):
        for match in _PYTHON_FIELD.finditer(literal):
            old = match.group(0)
            yield match.start(), old, f"{{{match.group('expr')}:0{width}d}}"
    if language != "python" and language != "go" and literal.startswith("`"):
        for match in _TEMPLATE_FIELD.finditer(literal):
            expr = match.group("expr").strip()
            yield match.start(), match.group(0), f'${{String({expr}).padStart({width}, "0")}}'


def _change(old: str, new: str) -> str:
    return f"`{old}` → `{new}`, the number zero-padded as the failure wants it"


def _inside_string(line: str, at: int, language: LanguageName) -> bool:
    return any(start <= at < start + len(literal) for start, literal in string_literals(line, language))


def _replaced(line: str, at: int, old: str, new: str) -> str:
    return line[:at] + new + line[at + len(old) :]

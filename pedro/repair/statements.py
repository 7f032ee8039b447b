"""The lines of one statement: where open brackets, a backslash or a trailing `&&` carry it over several lines."""

from __future__ import annotations

import io
import re
import textwrap
import tokenize

from pedro.tools.symbols import LanguageName

_SKIPPED = {tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
_OPENING = {"(": 1, "[": 1, ")": -1, "]": -1}
# A string or comment, whose brackets are text: quoted with ', " or `, or running from // to the line's end.
_TEXT = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|`(?:\\.|[^`\\])*`|//.*$")
# An expression a line leaves unfinished (`a &&`, `x +`), which Go and JavaScript carry on to the next line.
_UNFINISHED = re.compile(r"(?:&&|\|\||(?<![+])\+|(?<!-)-|[*/%,?=(\[])\s*$")


def statement_lines(text: str, line: int, language: LanguageName) -> tuple[int, int]:
    """The first and last line (1-based, of `text`) of the statement that holds line `line`; for a compound
    statement its header (`if a and\\n b:`). `(line, line)` where the line stands alone or `text` cannot be read."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return line, line
    spans = _python_spans(text) if language == "python" else _bracket_spans(lines)
    for first, last in spans:
        if first <= line <= last:
            return first, last
    return line, line


def joined_statement(text: str, line: int, language: LanguageName) -> tuple[int, int, str]:
    """The statement that holds line `line` (1-based, of `text`): its first and last line and its text as one line,
    each line stripped and joined by a space, as a model asked about it writes it."""
    first, last = statement_lines(text, line, language)
    return first, last, " ".join(row.strip() for row in text.splitlines()[first - 1 : last])


def _python_spans(text: str) -> list[tuple[int, int]]:
    """Each logical line's first and last line, as Python's tokenizer reads them; none where it cannot."""
    spans: list[tuple[int, int]] = []
    first = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(textwrap.dedent(text)).readline):
            if token.type in _SKIPPED:
                continue
            first = first or token.start[0]
            if token.type == tokenize.NEWLINE:
                spans.append((first, token.start[0]))
                first = 0
    except (tokenize.TokenError, SyntaxError):  # a unit cut from its file mid-string: each line alone
        return []
    return spans


def _bracket_spans(lines: list[str]) -> list[tuple[int, int]]:
    """Each statement's first and last line, for a language whose statements end where their brackets close and
    their last line leaves no expression unfinished."""
    spans: list[tuple[int, int]] = []
    first = depth = 0
    for number, raw in enumerate(lines, start=1):
        code = _TEXT.sub("", raw).rstrip()
        if not code and not first:
            continue
        first = first or number
        depth = max(0, depth + sum(_OPENING.get(char, 0) for char in code))
        if depth == 0 and not _UNFINISHED.search(code):
            spans.append((first, number))
            first = 0
    return spans

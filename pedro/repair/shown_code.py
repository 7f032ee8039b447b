"""Code as a repair question shows it: a test without its docstrings, and a long docstring by its first paragraph."""

from __future__ import annotations

import ast
import itertools
import re
import textwrap
from dataclasses import dataclass

from pedro.repair.locate import is_docstring
from pedro.tools.symbols import LanguageName


def code_of_test(text: str, language: LanguageName, most_lines: int) -> str:
    """A test's code, dedented, without its functions' docstrings (Python), and cut to its first `most_lines`
    lines. markdown's failing cases were shown its test helper twice, each with an eight-line docstring on how to
    call it: 300 tokens, at about 9 ms a token for a small model on the core the tests leave."""
    code = textwrap.dedent(text)
    lines = code.splitlines()
    if language == "python":
        dropped = _docstring_rows(code)
        lines = [line for row, line in enumerate(lines) if row not in dropped]
    return "\n".join(lines[:most_lines])


def _docstring_rows(code: str) -> set[int]:
    """The rows (0-based) of every function's and class's docstring in `code`; none where it does not parse."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return set()
    rows: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) or not node.body:
            continue
        first = node.body[0]
        # A body that is its docstring alone keeps it: taken out, the function would not parse.
        if is_docstring(first) and len(node.body) > 1 and first.end_lineno is not None:
            rows.update(range(first.lineno - 1, first.end_lineno))
    return rows


_QUOTES = re.compile(r"^[rRuU]?(?P<quote>\"\"\"|''')")
_MOST_PARAGRAPH_LINES = 4

# A docstring of more lines is shown by its first paragraph in a function cut from a large file: markdown's
# `convert`, asked about first, had 30 lines of it, read twice (the question and the answer's opening), 900 of a
# 2,400-token prompt read at about 9 ms a token by a small model on one core. A small file is shown whole, as written.
LONG_DOCSTRING_LINES = 12


@dataclass(frozen=True)
class Brief:
    """A function's text as a question shows it, and where its rows moved to."""

    text: str
    cut_at: int = 0
    """The row (0-based) after the shortened docstring's first line; rows from here on moved up by `removed`."""
    removed: int = 0

    def row(self, row: int) -> int:
        """Where row `row` of the function's own text stands in the shown text."""
        return row - self.removed if row >= self.cut_at + self.removed else row


def brief(text: str) -> Brief:
    """The function `text` (as it stands in its file: a method indented) with a Python docstring of more than
    LONG_DOCSTRING_LINES lines cut to its first paragraph (four lines at most), closed by its own quotes."""
    rows = _long_docstring(text)
    lines = text.splitlines()
    quote = _QUOTES.match(lines[rows[0]].strip()) if rows is not None else None
    if rows is None or quote is None:
        return Brief(text)
    first, last = rows
    opening = lines[first]
    inside = lines[first + 1 : last]
    if not opening.strip()[len(quote.group(0)) :]:  # `"""` alone: the paragraph starts on the next written line
        inside = inside[next((at for at, line in enumerate(inside) if line.strip()), len(inside)) :]
    paragraph = list(itertools.takewhile(str.strip, inside))[:_MOST_PARAGRAPH_LINES]
    indent = opening[: len(opening) - len(opening.lstrip())]
    shown = [opening, *paragraph, indent + quote.group("quote")]
    removed = last - first + 1 - len(shown)
    if removed <= 0:
        return Brief(text)
    return Brief("\n".join([*lines[:first], *shown, *lines[last + 1 :]]), first + 1, removed)


def _long_docstring(text: str) -> tuple[int, int] | None:
    """The first and last row (0-based) of the function's docstring where it has more than LONG_DOCSTRING_LINES
    lines; None otherwise, or where the function does not parse."""
    try:
        tree = ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError, RecursionError):
        return None
    function = next((node for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)), None)
    if function is None or not is_docstring(function.body[0]) or function.body[0].end_lineno is None:
        return None
    first, last = function.body[0].lineno - 1, function.body[0].end_lineno - 1
    return (first, last) if last - first + 1 > LONG_DOCSTRING_LINES else None

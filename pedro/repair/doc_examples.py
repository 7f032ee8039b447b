"""The examples a function's documentation gives of itself: `>>> f(2, 3)` over its answer, or `f(2, 3) == 5` (`->`,
`➞`, `=>`, `returns`) in its prose; a Python function's docstring, or the comment above a Go or JavaScript function,
whose literals are read as either language writes them. What the function promises on inputs no test may pin."""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable
from typing import Any

from pedro.calls.literals import balanced_end, python_literal

Example = tuple[tuple[tuple[Any, ...], dict[str, Any]], Any]
"""((args, kwargs), the value the docstring says the call gives)."""

_SAID = re.compile(r"\s*(?:===|==|->|➞|=>|⇒|→|\bshould\s+return\b|\breturns?\b|\bgives\b)\s*")
_MOST = 12
_MOST_CHARS = 120
_ARITHMETIC = re.compile(r"\s*[-+*/%]\s*[\w(]")
"""An operator and its next operand: what follows the first term of a sum worked out."""
_MOST_COMMENT_LINES = 60
_COMMENT_MARKS = re.compile(r"^\s*(?:/\*\*?|\*/|//+|\*(?!\*))?")
"""What opens a line of a comment: `//`, `/*`, `/**`, the `*` of a block's middle."""
Read = Callable[[str], tuple[Any] | tuple[()] | None]
"""A literal's value in a 1-tuple; () or None where the text is none."""


def doc_examples(unit_text: str, name: str) -> list[Example]:
    """The examples of `name`'s own docstring (the function that opens `unit_text`) whose arguments and answer are
    Python literals; each call once, and none the docstring answers two ways."""
    return _examples(_docstring(unit_text), name, _literal)


def comment_examples(file_text: str, start_line: int, name: str) -> list[Example]:
    """The examples of `name` in the comment just above the line `start_line` (1-based) of a Go or JavaScript file
    (`// >>> Median([3, 1, 2])` over `// 2`, `median([1, 2]) === 1.5`), their literals read as either writes them."""
    return _examples(_comment_above(file_text.splitlines()[: max(0, start_line - 1)]), name, python_literal)


def _examples(doc: str, name: str, read: Read) -> list[Example]:
    """The examples of `name` in `doc`, each call once, and none the text answers two ways."""
    if not doc or name not in doc:
        return []
    found: dict[str, list[Example]] = {}
    for example in [*_prompted(doc, name, read), *_inline(doc, name, read)]:
        found.setdefault(repr(example[0]), []).append(example)
    return [given[0] for given in found.values() if len({repr(value) for _, value in given}) == 1][:_MOST]


def _comment_above(lines: list[str]) -> str:
    """The text of the comment that ends on the last of `lines` (`//` lines, or a `/* … */` block), its marks
    taken off; "" where the last line is no comment's."""
    taken: list[str] = []
    block = bool(lines) and lines[-1].rstrip().endswith("*/")
    for line in reversed(lines[-_MOST_COMMENT_LINES:]):
        text = line.strip()
        if not block and not text.startswith("//"):
            break
        taken.append(_COMMENT_MARKS.sub("", line, count=1).removesuffix("*/").rstrip())
        if block and "/*" in text:
            break
    return textwrap.dedent("\n".join(reversed(taken)))


def _docstring(unit_text: str) -> str:
    try:
        tree = ast.parse(textwrap.dedent(unit_text))
    except (SyntaxError, ValueError):
        return ""
    first = tree.body[0] if tree.body else None
    if isinstance(first, ast.FunctionDef | ast.AsyncFunctionDef):
        return ast.get_docstring(first) or ""
    return ""


def _prompted(doc: str, name: str, read: Read) -> list[Example]:
    """`>>> name(…)` over the lines of its answer (up to a blank line or the next prompt)."""
    lines = doc.splitlines()
    found = []
    for at, line in enumerate(lines):
        text = line.strip()
        if not text.startswith(">>>"):
            continue
        answer = []
        for after in lines[at + 1 :]:
            if not after.strip() or after.strip().startswith(">>>"):
                break
            answer.append(after.strip())
        call = _call(text[3:].strip(), name, read)
        # The answer's lines up to a blank line, as doctest reads them; or its first line, where prose follows
        # with no blank line between (as a comment's often does).
        value = (read(" ".join(answer)) or read(answer[0])) if answer else None
        if call is not None and value and call[1] == len(text[3:].strip()):
            found.append((call[0], value[0]))
    return found


def _inline(doc: str, name: str, read: Read) -> list[Example]:
    """`name(…) == value` (or `->`, `➞`, `returns` …) within a line of prose."""
    found = []
    for match in re.finditer(rf"(?<![\w.]){re.escape(name)}\s*\(", doc):
        if doc[: match.start()].rstrip(" ").endswith(">>>"):
            continue  # a prompt's call: its answer is on the next line
        call = _call(doc[match.start() :], name, read)
        if call is None:
            continue
        rest = doc[match.start() + call[1] :].split("\n", 1)[0]
        said = _SAID.match(rest)
        value = _value_at(rest[said.end() :], read) if said else None
        if value:
            found.append((call[0], value[0]))
    return found


def _call(text: str, name: str, read: Read) -> tuple[tuple[tuple[Any, ...], dict[str, Any]], int] | None:
    """The literal arguments of the call of `name` that opens `text`, and where it ends; None when they are not
    literals. Python's may be named; Go's and JavaScript's are positional, read as `read` reads their literals."""
    opening = text.find("(")
    end = balanced_end(text, opening) if opening >= 0 and text[:opening].strip() == name else None
    if end is None:
        return None
    if read is _literal:
        arguments = _python_arguments(text[:end])
    else:
        inner = text[opening + 1 : end - 1]
        values = read(f"({inner},)") if inner.strip() else ((),)
        arguments = (values[0], {}) if values and isinstance(values[0], tuple) else None
    return (arguments, end) if arguments is not None else None


def _python_arguments(call: str) -> tuple[tuple[Any, ...], dict[str, Any]] | None:
    """The positional and named arguments of a Python call whose arguments are all literals, else None."""
    try:
        node = ast.parse(call, mode="eval").body
    except (SyntaxError, ValueError):
        return None
    if not isinstance(node, ast.Call) or any(isinstance(arg, ast.Starred) for arg in node.args):
        return None
    try:
        args = tuple(ast.literal_eval(arg) for arg in node.args)
        kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords if kw.arg is not None}
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return (args, kwargs) if len(kwargs) == len(node.keywords) else None


def _value_at(text: str, read: Read) -> tuple[Any] | tuple[()] | None:
    """The literal that opens `text` (`5.`, `True,`, `[1, 2] for …`): the longest prefix that reads as one, within
    _MOST_CHARS (each prefix tried is a parse: a long line of prose costs no more than that)."""
    text = text.strip()[:_MOST_CHARS]
    for end in range(len(text), 0, -1):
        if end < len(text) and text[end].isalnum():
            continue  # `10` is no literal of `100`
        value = read(text[:end].rstrip(".,;:"))
        if value:
            # `== 1 + 9 + 0 = 10` works the answer out: its first term is none.
            return None if _ARITHMETIC.match(text[end:]) else value
    return None


def _literal(text: str) -> tuple[Any] | None:
    try:
        return (ast.literal_eval(text.strip()),)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None

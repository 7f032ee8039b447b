"""A Python file of the project that does not compile: where the failures say so, and the one-character mends of the
line Python names (a `:` or a closing bracket added, an unmatched one taken out, the line re-indented), each kept
only where the file then compiles."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pedro.repair.frames import is_test_file
from pedro.tools.test import TestRun

_REPORTED = re.compile(r'File "(?P<file>[^"]+\.py)", line (?P<line>\d+)')
_RAISED = re.compile(r"\b(?:SyntaxError|IndentationError|TabError):")
_PYTEST_PREFIX = re.compile(r"^E {1,5}", re.MULTILINE)
_CLOSERS = {"(": ")", "[": "]", "{": "}"}
_NEVER_CLOSED = re.compile(r"'(?P<opener>[(\[{])' was never closed")
_UNMATCHED = re.compile(r"unmatched '(?P<closer>[)\]}])'")
_MISMATCHED = re.compile(
    r"closing parenthesis '(?P<closer>[)\]}])' does not match opening parenthesis '(?P<opener>[(\[{])'"
)
_INDENTED_AFTER = re.compile(r"expected an indented block after .* on line (?P<line>\d+)")
_LOOKAHEAD_LINES = 3
"""How many lines after the one Python names a bracket it says was never closed may be closed at."""


@dataclass(frozen=True)
class SyntaxSlip:
    """A file that does not compile, as Python reads it: the line, the column (1-based) and the message."""

    path: str
    line: int
    offset: int
    message: str
    text: str


def run_slip(run: TestRun, root: Path) -> SyntaxSlip | None:
    """The slip a test run reports, from its failures or else its output (pytest's collection error is a failure
    with no details)."""
    failures = run.report.failures if run.report is not None else []
    return syntax_slip([*(f"{f.message}\n{f.details}" for f in failures), run.result.output], root)


def syntax_slip(texts: Sequence[str], root: Path) -> SyntaxSlip | None:
    """The first file of the project's own code (not a test) that the texts say does not compile, and that does not
    compile here either; None when there is none."""
    for said in texts:
        text = _PYTEST_PREFIX.sub("", said)
        if not _RAISED.search(text):
            continue
        for found in _REPORTED.finditer(text):
            slip = _slip(root, found.group("file"))
            if slip is not None:
                return slip
    return None


def _slip(root: Path, reported: str) -> SyntaxSlip | None:
    path = Path(reported) if Path(reported).is_absolute() else root / reported
    try:
        rel = path.resolve().relative_to(root.resolve()).as_posix()
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None
    if is_test_file(rel):
        return None  # repair never edits a test
    error = compile_error(text)
    if error is None or error.lineno is None:
        return None
    return SyntaxSlip(rel, error.lineno, error.offset or 1, error.msg, text)


def compile_error(text: str) -> SyntaxError | None:
    """Why the text does not compile as Python, or None when it does."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an invalid escape in a string is a warning, not the slip
            compile(text, "<file>", "exec", dont_inherit=True)
    except SyntaxError as error:
        return error
    except (ValueError, MemoryError, RecursionError):
        return SyntaxError("cannot compile")
    return None


def mends(slip: SyntaxSlip) -> list[tuple[str, str]]:
    """(what changes, the file's new text) for each mend of the slip's line after which the file compiles, the
    message's own kind first; then those after which it stops compiling only further down (a second slip); each new
    text once."""
    lines = slip.text.splitlines(keepends=True)
    found: dict[str, str] = {}
    later: dict[str, str] = {}
    for what, row, new in _guided(slip, lines):
        if 0 <= row < len(lines):
            text = "".join([*lines[:row], new, *lines[row + 1 :]])
            if text in found.values() or text in later.values():
                continue
            error = compile_error(text)
            if error is None:
                found[what] = text
            elif (error.lineno or 0) > slip.line:
                later[what] = text  # this slip mended, and another further down: the next round's
    return [*found.items(), *later.items()]


def _guided(slip: SyntaxSlip, lines: list[str]) -> Iterator[tuple[str, int, str]]:
    """(what, row, the row's new line) in the order the message makes likeliest; the generic ones last."""
    row = slip.line - 1
    if not 0 <= row < len(lines):
        return
    message = slip.message
    if (opened := _NEVER_CLOSED.search(message)) is not None:
        closer = _CLOSERS[opened.group("opener")]
        for ahead in range(row, min(len(lines), row + 1 + _LOOKAHEAD_LINES)):
            yield f"`{closer}` added at the end of line {ahead + 1}", ahead, _appended(lines[ahead], closer)
    if (unmatched := _UNMATCHED.search(message)) is not None:
        yield from _removed(lines, row, slip.offset, unmatched.group("closer"))
    if (mismatched := _MISMATCHED.search(message)) is not None:
        at, closer = slip.offset - 1, _CLOSERS[mismatched.group("opener")]
        line = lines[row]
        if 0 <= at < len(line):
            yield f"`{line[at]}` → `{closer}` on line {slip.line}", row, line[:at] + closer + line[at + 1 :]
    if "unterminated string literal" in message:
        quote = lines[row][slip.offset - 1 : slip.offset] or '"'
        yield f"`{quote}` added at the end of line {slip.line}", row, _appended(lines[row], quote)
    if "forgot a comma" in message:
        yield from _commas(lines[row], row)
    if "instead of '='" in message:
        yield from _compared(lines[row], row)
    yield from _indents(slip, lines, row)
    for mark in (":", ")", "]", "}"):
        yield f"`{mark}` added at the end of line {slip.line}", row, _appended(lines[row], mark)
    if message.startswith("invalid syntax"):
        yield from _removed(lines, row, slip.offset, "")


def _appended(line: str, mark: str) -> str:
    """The line with `mark` at the end of its code, before a comment and the line's end."""
    body, ending = (line[:-1], "\n") if line.endswith("\n") else (line, "")
    at = _comment_start(body)
    code, comment = body[:at], body[at:]
    return code.rstrip() + mark + (f"  {comment}" if comment else "") + ending


def _comment_start(line: str) -> int:
    """Where the line's comment starts (its length when it has none), quotes read one line at a time."""
    quote = ""
    for at, char in enumerate(line):
        if quote:
            quote = "" if char == quote and line[at - 1] != "\\" else quote
        elif char in "'\"":
            quote = char
        elif char == "#":
            return at
    return len(line)


def _removed(lines: list[str], row: int, offset: int, expected: str) -> Iterator[tuple[str, int, str]]:
    line = lines[row]
    at = offset - 1
    if 0 <= at < len(line) and line[at].strip() and (not expected or line[at] == expected):
        yield f"`{line[at]}` taken out of line {row + 1}", row, line[:at] + line[at + 1 :]


def _commas(line: str, row: int) -> Iterator[tuple[str, int, str]]:
    """A comma between two values a space parts (`[1 2]` → `[1, 2]`)."""
    for match in re.finditer(r"(?<=[\w)\]}'\"]) (?=[\w(\[{'\"])", line):
        yield f"`,` added on line {row + 1}", row, line[: match.start()] + "," + line[match.start() :]


def _compared(line: str, row: int) -> Iterator[tuple[str, int, str]]:
    """`if a = b:` → `if a == b:`: each lone `=` in turn."""
    for match in re.finditer(r"(?<![=<>!:+\-*/%&|^@])=(?!=)", line):
        yield f"`=` → `==` on line {row + 1}", row, line[: match.start()] + "==" + line[match.end() :]


def _indents(slip: SyntaxSlip, lines: list[str], row: int) -> Iterator[tuple[str, int, str]]:
    """The line at the indentation the message asks for, else at each level the lines above it use."""
    line = lines[row]
    body = line.lstrip(" \t")
    if not body.strip():
        return
    levels: list[str] = []
    if (after := _INDENTED_AFTER.search(slip.message)) is not None and 0 < int(after.group("line")) <= len(lines):
        header = lines[int(after.group("line")) - 1]
        levels.append(header[: len(header) - len(header.lstrip(" \t"))] + "    ")
    for above in reversed(lines[:row]):
        if above.strip():
            indent = above[: len(above) - len(above.lstrip(" \t"))]
            if indent not in levels:
                levels.append(indent)
    current = line[: len(line) - len(body)]
    for indent in levels[:4]:
        if indent != current:
            yield f"line {row + 1} indented by {len(indent)}", row, indent + body

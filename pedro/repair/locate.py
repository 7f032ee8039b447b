"""Find the code a failing test points at: the function to ask the model for, found with tree-sitter."""

from __future__ import annotations

import ast
import itertools
import os
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pedro.repair.frames import HUNG_MARK, Frame, frames_of, is_test_code, is_test_file
from pedro.tools.symbols import (
    EXTENSIONS,
    LanguageName,
    Symbol,
    detect_language,
    extract_symbols,
    find_definitions,
    parse_root,
)
from pedro.tools.testreport import JS_ID_SEPARATOR, FailedTest

if TYPE_CHECKING:
    from tree_sitter import Node

_FUNCTION_KINDS = frozenset({"function", "method"})
# A top-level assignment of a literal: `UNITS = {"km": 1000}`, `const LIMIT = 10;`, `var rate = 0.2`.
_CONSTANT = re.compile(
    r"^(?:(?:export\s+)?(?:const|let|var)\s+)?(?P<name>[A-Za-z_$][\w$]*)\s*(?::[^=]*)?=\s*"
    r"(?P<value>[-\d\[{(\"'`]|True\b|False\b|true\b|false\b)"
)
_QUOTED = re.compile(r"""(?P<q>["'`])(?:\\.|(?!(?P=q)).)*(?P=q)""")
_MAX_CONSTANTS = 3
_CONSTANT_LINES = 20
_IDENTIFIER = re.compile(r"^[A-Za-z_]\w*$")
_SKIP_DIRS = frozenset({".git", ".pedro", "node_modules", ".venv", "venv", "__pycache__", "dist", "build", "vendor"})
_MAX_SCANNED_FILES = 3000
_MAX_SOURCE_BYTES = 512 * 1024
# Call nodes and the field that names what is called, per tree-sitter grammar.
_CALL_NODES = frozenset({"call", "call_expression"})
_NAME_FIELDS = ("attribute", "property", "field")
_FUNCTION_LITERALS = frozenset({"lambda", "arrow_function", "function_expression", "function", "func_literal"})
# The language family a file may call into: a JavaScript test may import TypeScript and the other way round.
_FAMILY: dict[LanguageName, frozenset[LanguageName]] = {
    "python": frozenset({"python"}),
    "go": frozenset({"go"}),
    "javascript": frozenset({"javascript", "typescript", "tsx"}),
    "typescript": frozenset({"javascript", "typescript", "tsx"}),
    "tsx": frozenset({"javascript", "typescript", "tsx"}),
}


@dataclass(frozen=True)
class Unit:
    """One function or method to replace: where it is, its exact text, and the failing tests that lead to it."""

    path: str
    """Relative to the repository root."""
    name: str
    qualified_name: str
    language: LanguageName
    start_line: int
    end_line: int
    text: str
    tests: tuple[str, ...] = ()
    doc: str = ""
    """The comment just above the unit, where a language documents its functions there (JavaScript's `/** … */`,
    Go's `//` lines): what it says the unit promises, as a Python docstring does."""
    kind: Literal["function", "value"] = "function"
    """A function or method, or a value the module level assigns (followed_values.py): what a question calls it."""

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.path, self.qualified_name, self.start_line)


@dataclass(frozen=True)
class RowChange:
    """A change of a unit's lines read from its syntax tree: the row it starts at (0 for the unit's first line), the
    new text (a line, or several where lines are added) and what changed, in words."""

    row: int
    text: str
    change: str
    also: tuple[tuple[int, str], ...] = ()
    """Other rows the same change rewrites, (row, new text): a default in the signature and the line that replaces
    it where the body starts."""


RETURN_LINE = re.compile(r"^(?P<head>\s*return\s+)(?P<value>.+?)(?P<tail>\s*;?\s*)$")
"""A `return` of one value on its line, in Python, JavaScript or Go: what comes before the value, the value, and a
`;` after it."""


def indent_of(line: str) -> str:
    """The spaces and tabs a line starts with."""
    return line[: len(line) - len(line.lstrip())]


def block_header(lines: list[str], row: int) -> int | None:
    """The row of the nearest line above `row` indented less: the header of the block it is in (None at the top)."""
    indent = len(indent_of(lines[row]))
    return next((at for at in range(row - 1, -1, -1) if lines[at].strip() and len(indent_of(lines[at])) < indent), None)


def is_docstring(node: ast.stmt | None) -> bool:
    """Whether a statement is a string on its own: a docstring where it opens a body."""
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def locate(failures: Sequence[FailedTest], root: Path, *, limit: int = 3) -> list[Unit]:
    """The units the failures point at, most pointed-at first; then the functions those units call.

    A failure points at the function around its deepest frame in non-test code; an assertion that fails in the
    test itself points at the functions the failing line calls (else any the test calls).
    """
    votes: Counter[tuple[str, str, int]] = Counter()
    units: dict[tuple[str, str, int], Unit] = {}
    tests: dict[tuple[str, str, int], list[str]] = {}
    for failure in failures:
        found = _units_for(failure, root)
        # Where a test that hung was stopped is chance: inside a helper the endless loop calls, or on the loop's own
        # line. Every function on its stack is a suspect, those stopped inside a loop first (_units_for).
        for unit in found if HUNG_MARK in failure.message else found[:1]:
            votes[unit.key] += 1
            units.setdefault(unit.key, unit)
            tests.setdefault(unit.key, []).append(failure.test_id)
    ranked = [_with_tests(units[key], tests[key]) for key, _ in votes.most_common()]
    # A wrong answer can come from a helper the pointed-at function calls: those come next, for the same tests.
    for unit in list(ranked):
        for callee in _callees(unit, root):
            if callee.key not in {u.key for u in ranked}:
                ranked.append(_with_tests(callee, list(unit.tests)))
    return ranked[:limit]


def _with_tests(unit: Unit, tests: list[str]) -> Unit:
    return replace(unit, tests=tuple(dict.fromkeys(tests)))


def _units_for(failure: FailedTest, root: Path) -> list[Unit]:
    """The candidate units of one failure, best first."""
    text = "\n".join(part for part in (failure.details, failure.message, failure.location) if part)
    frames = frames_of(text, root)
    if failure.location and (located := _location_frame(failure.location, root)) is not None:
        frames.append(located)
    if not any(is_test_code(root, frame.path) for frame in frames):
        frames.extend(_test_definition_frames(failure.test_id, root))
    found: list[tuple[Unit, int]] = []
    for frame in frames:
        if not is_test_code(root, frame.path) and (unit := enclosing_unit(root, frame.path, frame.line)) is not None:
            found.append((unit, frame.line))
    if HUNG_MARK in failure.message:
        # The loop that never ends is on the stack: a function stopped inside a loop of its own is likelier it than
        # one stopped in straight code that loop calls, however deep.
        found.sort(key=lambda held: not in_loop(held[0], held[1]))
    return [unit for unit, _ in found] or _units_behind(frames, root)


_LOOP_HEADER = re.compile(r"^\s*(?:for|while|do|loop)\b")


def in_loop(unit: Unit, line: int) -> bool:
    """Whether a file line of the unit is a loop's header or inside a loop's body, by the lines' indentation."""
    lines = unit.text.splitlines()
    row: int | None = line - unit.start_line
    while row is not None and 0 <= row < len(lines):
        if _LOOP_HEADER.match(lines[row]):
            return True
        row = block_header(lines, row)
    return False


def _units_behind(frames: list[Frame], root: Path) -> list[Unit]:
    """For frames inside no function of the code under test: what the test calls, else the functions of a file
    the failure points at outside them."""
    for frame in frames:
        if is_test_code(root, frame.path) and (called := _called_from_test(root, frame)):
            return called
    return [unit for frame in frames if not is_test_code(root, frame.path) for unit in _file_level(root, frame.path)]


def failing_test(failure: FailedTest, root: Path) -> Unit | None:
    """The test function a failure ran in: around its innermost frame in a test file, else found by its name."""
    text = "\n".join(part for part in (failure.details, failure.message, failure.location) if part)
    frames = [frame for frame in frames_of(text, root) if is_test_file(frame.path)]
    if failure.location and (located := _location_frame(failure.location, root)) is not None:
        frames.append(located)
    # The definition found by name last, and only when no frame gave it: finding it reads the project's test files.
    for frame in itertools.chain(frames, _test_definition_frames(failure.test_id, root)):
        if is_test_file(frame.path) and (unit := enclosing_unit(root, frame.path, frame.line)) is not None:
            return unit
    return None


@dataclass
class FailingTests:
    """Each failure's test function (`failing_test`), looked up once per repair for all that read it: the clues and
    every prompt the model is asked (a lookup may read the project's test files)."""

    root: Path
    _found: dict[FailedTest, Unit | None] = field(default_factory=dict)

    def of(self, failure: FailedTest) -> Unit | None:
        if failure not in self._found:
            self._found[failure] = failing_test(failure, self.root)
        return self._found[failure]


def _test_definition_frames(test_id: str, root: Path) -> Iterator[Frame]:
    """Where the test itself is defined, found by its name, for reports that give no location (plain go test, a
    node test that hung): a function of that name, or a call that declares a test of that title."""
    name = re.split(rf"::|\.|/|{JS_ID_SEPARATOR}", test_id.strip())
    leaf = next((part for part in reversed(name) if _IDENTIFIER.match(part)), "")
    title = test_id.strip().split(JS_ID_SEPARATOR)[-1]
    declared = re.compile(rf"""^\s*(?:test|it)(?:\.\w+)?\s*\(\s*(["'`]){re.escape(title)}\1""") if title else None
    if not leaf and declared is None:
        return
    for rel in _source_files(root):
        source = _read(root / rel) if is_test_file(rel) else None
        if source is not None:
            yield from _named_in(source, rel, leaf, declared)


def _named_in(source: bytes, rel: str, leaf: str, declared: re.Pattern[str] | None) -> Iterator[Frame]:
    """In one test file: the functions named `leaf`, then (JavaScript) the lines that declare the test by title."""
    if leaf:
        yield from (Frame(rel, s.start_line) for s in find_definitions(source, rel, leaf) if s.kind in _FUNCTION_KINDS)
    if declared is not None and detect_language(rel) in _FAMILY["javascript"]:
        lines = source.decode("utf-8", errors="replace").splitlines()
        yield from (Frame(rel, row + 1) for row, line in enumerate(lines) if declared.match(line))


def _location_frame(location: str, root: Path) -> Frame | None:
    path, _, line = location.rpartition(":")
    if not line.isdigit() or not path:
        return None
    target = (root / path).resolve()
    if not target.is_file() or not target.is_relative_to(root.resolve()):
        return None
    return Frame(target.relative_to(root.resolve()).as_posix(), int(line))


def enclosing_unit(root: Path, rel: str, line: int) -> Unit | None:
    """The innermost function or method of `rel` whose lines contain `line`."""
    source = _read(root / rel)
    language = detect_language(rel)
    if source is None or language is None:
        return None
    symbols = extract_symbols(source, rel)
    around = [s for s in symbols if s.kind in _FUNCTION_KINDS and s.start_line <= line <= s.end_line]
    if not around:
        return None
    return _unit(rel, language, source, max(around, key=lambda s: (s.depth, s.start_line)))


def _file_level(root: Path, rel: str) -> list[Unit]:
    """The functions of `rel` for a failure that points at a line outside all of them (Go's `imported and not used`,
    a declaration at the top of a file): where a use was dropped or a value is wrong. Those the tests beside the file
    call come first."""
    units = file_units(root, rel)
    if len(units) < 2:
        return units  # nothing to order, and a file gone since the failure has no folder to read
    folder = (root / rel).parent
    tests = b"\n".join(_read(path) or b"" for path in sorted(folder.iterdir()) if is_test_file(path.name))
    return sorted(units, key=lambda unit: re.search(rf"\b{re.escape(unit.name)}\b".encode(), tests) is None)


def file_units(root: Path, rel: str) -> list[Unit]:
    """The outermost functions and methods of `rel` (none nested in another function), in file order."""
    source = _read(root / rel)
    language = detect_language(rel)
    if source is None or language is None:
        return []
    functions = [s for s in extract_symbols(source, rel) if s.kind in _FUNCTION_KINDS]
    outermost = [
        s
        for s in functions
        if not any(o is not s and o.start_line <= s.start_line and s.end_line <= o.end_line for o in functions)
    ]
    return [_unit(rel, language, source, symbol) for symbol in sorted(outermost, key=lambda s: s.start_line)]


def constants_read(unit: Unit, file_text: str) -> list[Unit]:
    """The module's own constants the unit reads (`UNITS = {"km": 100, "m": 1}` for a function that reads
    `UNITS`), each as a unit of its own: a wrong number in a table is the function's bug as much as one in its body.
    Only assignments at the top of the file whose value is a literal (a number, a string, a table), on at most
    _CONSTANT_LINES lines."""
    lines = file_text.splitlines()
    read = set(re.findall(r"[A-Za-z_$][\w$]*", unit.text))
    found: list[Unit] = []
    row = 0
    while row < len(lines) and len(found) < _MAX_CONSTANTS:
        match = _CONSTANT.match(lines[row])
        inside = unit.start_line <= row + 1 <= unit.end_line
        end = _statement_end(lines, row) if match and match["name"] in read and not inside else None
        if match and end is not None:
            text = "\n".join(lines[row : end + 1])
            found.append(Unit(unit.path, match["name"], match["name"], unit.language, row + 1, end + 1, text))
        row = (end if end is not None else row) + 1
    return found


def _statement_end(lines: list[str], row: int) -> int | None:
    """The last line of the statement that starts at `row`: where its brackets close; None past _CONSTANT_LINES."""
    depth = 0
    for at in range(row, min(len(lines), row + _CONSTANT_LINES)):
        code = re.split(r"#|//", _QUOTED.sub('""', lines[at]), maxsplit=1)[0]  # a comment's brackets do not count
        depth += sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
        if depth <= 0:
            return at
    return None


def _unit(rel: str, language: LanguageName, source: bytes, symbol: Symbol) -> Unit:
    lines = source.decode("utf-8", errors="replace").splitlines()
    text = "\n".join(lines[symbol.start_line - 1 : symbol.end_line])
    doc = "" if language == "python" else comment_above(lines, symbol.start_line)
    return Unit(rel, symbol.name, symbol.qualified_name, language, symbol.start_line, symbol.end_line, text, doc=doc)


def comment_above(lines: list[str], start_line: int) -> str:
    """The comment that ends on the line just above `start_line` (1-based): a block `/* … */` or a run of `//`
    lines; "" where code or a blank line comes first."""
    row = start_line - 2
    if row < 0:
        return ""
    if lines[row].strip().startswith("//"):
        top = row
        while top > 0 and lines[top - 1].strip().startswith("//"):
            top -= 1
        return "\n".join(lines[top : row + 1])
    if not lines[row].rstrip().endswith("*/"):
        return ""
    top = row
    while top >= 0 and "/*" not in lines[top]:
        top -= 1
    return "\n".join(lines[top : row + 1]) if top >= 0 else ""


def _called_from_test(root: Path, frame: Frame) -> list[Unit]:
    """Definitions, outside test files, of what the test calls: on the failing line first, then in the whole test."""
    source = _read(root / frame.path)
    language = detect_language(frame.path)
    if source is None or language is None:
        return []
    test = enclosing_unit(root, frame.path, frame.line)
    # A test written as a call with a body (`test("sums", () => {…})`) is in no function: the call is the test.
    first, last = (test.start_line, test.end_line) if test is not None else _statement_lines(source, language, frame)
    names = _called_names(source, language, frame.line, frame.line) + _called_names(source, language, first, last)
    # A call the test hands code to run (`raises(LookupError, lambda: partition_all(2, s))`) is the test's instrument:
    # what that code calls is what is tested, and the instrument is no place for a fix.
    handed = _handed_code(source, language, first, last)
    units = _defined_outside_tests(root, [name for name in names if name not in handed], language)
    units = units or _defined_outside_tests(root, names, language)
    if not units:
        # What it calls is a helper of the test file's own (`const testSums = () => {…}`): what that helper calls.
        helpers = [
            symbol
            for name in dict.fromkeys(names)
            for symbol in find_definitions(source, frame.path, name)
            if symbol.kind in _FUNCTION_KINDS
        ]
        inner = [name for s in helpers for name in _called_names(source, language, s.start_line, s.end_line)]
        units = _defined_outside_tests(root, inner, language)
    return units


def _defined_outside_tests(root: Path, names: list[str], language: LanguageName) -> list[Unit]:
    """The functions, outside test files, that `names` name, in their order."""
    units: list[Unit] = []
    for name in dict.fromkeys(names):
        # A module's own function before a method of the same name: `parse.findall(…)` in a test is the module's.
        units.extend(sorted(_definitions(root, name, language), key=lambda unit: unit.qualified_name != unit.name))
    return list({unit.key: unit for unit in units}.values())


def _statement_lines(source: bytes, language: LanguageName, frame: Frame) -> tuple[int, int]:
    """The lines (1-based) of the widest piece of code that starts on the frame's line, else that line alone."""
    tree = parse_root(source, language)
    row, last = frame.line - 1, frame.line - 1
    stack = list(tree.named_children) if tree is not None else []
    while stack:
        node = stack.pop()
        if node.start_point.row == row:
            last = max(last, node.end_point.row)
        elif node.start_point.row < row <= node.end_point.row:
            stack.extend(node.named_children)
    return frame.line, last + 1


def _called_names(source: bytes, language: LanguageName, first: int, last: int) -> list[str]:
    """The names called by code on lines first..last (1-based), in source order."""
    root = parse_root(source, language)
    if root is None:
        return []
    names: list[str] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.end_point.row + 1 < first or node.start_point.row + 1 > last:
            continue
        if node.type in _CALL_NODES and node.start_point.row + 1 >= first:
            callee = node.child_by_field_name("function")
            name = _callee_name(callee) if callee is not None else ""
            if name:
                names.append(name)
        stack.extend(reversed(node.named_children))
    return names


def instruments(failures: Sequence[FailedTest], root: Path) -> set[str]:
    """The functions the failing tests hand code to run (`raises(LookupError, lambda: …)`): the tests' instruments,
    never a place for a fix while that code calls something of its own."""
    found: set[str] = set()
    for failure in failures:
        test = failing_test(failure, root)
        source = _read(root / test.path) if test is not None else None
        if test is not None and source is not None:
            found |= _handed_code(source, test.language, test.start_line, test.end_line)
    return found


def _handed_code(source: bytes, language: LanguageName, first: int, last: int) -> set[str]:
    """The names of calls on lines first..last that are handed a function literal which itself calls something."""
    root = parse_root(source, language)
    handed: set[str] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if node.end_point.row + 1 < first or node.start_point.row + 1 > last:
            continue
        arguments = node.child_by_field_name("arguments") if node.type in _CALL_NODES else None
        callee = node.child_by_field_name("function")
        if arguments is not None and callee is not None and any(_calls_something(a) for a in arguments.named_children):
            handed.add(_callee_name(callee))
        stack.extend(node.named_children)
    return handed - {""}


def _calls_something(node: Node) -> bool:
    """Whether `node` is a function literal (`lambda: f(x)`, `() => f(x)`, `func() { f(x) }`) whose body calls."""
    if node.type not in _FUNCTION_LITERALS:
        return False
    stack = list(node.named_children)
    while stack:
        inner = stack.pop()
        if inner.type in _CALL_NODES:
            return True
        stack.extend(inner.named_children)
    return False


def _callee_name(node: Node) -> str:
    """`add` for add(…), obj.add(…), pkg.Add(…)."""
    if node.type == "identifier" and node.text is not None:
        return node.text.decode("utf-8", errors="replace")
    for name_field in _NAME_FIELDS:
        child = node.child_by_field_name(name_field)
        if child is not None and child.text is not None:
            return child.text.decode("utf-8", errors="replace")
    return ""


def _definitions(root: Path, name: str, language: LanguageName) -> list[Unit]:
    """Functions named `name` in the repository's non-test files of the same language family."""
    family = _FAMILY[language]
    found: list[Unit] = []
    for rel in _source_files(root):
        file_language = detect_language(rel)
        if file_language not in family or is_test_code(root, rel):
            continue
        source = _read(root / rel)
        if source is None:
            continue
        for symbol in find_definitions(source, rel, name):
            if symbol.kind in _FUNCTION_KINDS and file_language is not None:
                found.append(_unit(rel, file_language, source, symbol))
    return found


def class_units(root: Path, name: str) -> list[Unit]:
    """The outermost functions and methods of each non-test Python file that defines a class named `name`."""
    declared = re.compile(rf"^class\s+{re.escape(name)}\b", re.MULTILINE)
    found: list[Unit] = []
    for rel in _source_files(root):
        if detect_language(rel) != "python" or is_test_code(root, rel):
            continue
        source = _read(root / rel)
        if source is not None and declared.search(source.decode("utf-8", errors="replace")):
            found.extend(file_units(root, rel))
    return found


def _callees(unit: Unit, root: Path) -> list[Unit]:
    """Functions of the repository that `unit` calls, in the order it calls them (itself excluded)."""
    source = _read(root / unit.path)
    if source is None:
        return []
    units: list[Unit] = []
    for name in dict.fromkeys(_called_names(source, unit.language, unit.start_line, unit.end_line)):
        if name != unit.name:
            units.extend(_definitions(root, name, unit.language))
    return units


def project_sources(root: Path, language: LanguageName) -> Iterator[str]:
    """The text of each of the repository's non-test files in `language`."""
    for rel in _source_files(root):
        if detect_language(rel) == language and not is_test_code(root, rel):
            source = _read(root / rel)
            if source is not None:
                yield source.decode("utf-8", errors="replace")


def _source_files(root: Path) -> Iterator[str]:
    """Source files under `root` in a stable order, skipping dependency, build and VCS folders."""
    count = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if Path(name).suffix.lower() in EXTENSIONS:
                count += 1
                if count > _MAX_SCANNED_FILES:
                    return
                yield Path(folder, name).relative_to(root).as_posix()


def _read(path: Path) -> bytes | None:
    try:
        if path.stat().st_size > _MAX_SOURCE_BYTES:
            return None
        return path.read_bytes()
    except OSError:
        return None

"""Read the stack frames of a test failure and keep those that point into the repository's own files."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

HUNG_MARK = "TestHung"
"""The exception warm_pytest.py raises inside a test that ran past its own limit, as a failure's message names it."""

# pytest's long traceback: `test_calc.py:5: ` for the test's frame, `calc.py:3: in add` for the frames it
# called, `calc.py:7: IndexError` for the innermost one.
_PYTEST_FRAME = re.compile(
    r"^(?P<file>[^\s:][^:\n]*?\.pyi?):(?P<line>\d+):(?: in (?P<func>\S+)| \w|[ \t]*$)", re.MULTILINE
)
# Python's own traceback format.
_PYTHON_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>\S+))?', re.MULTILINE)
# A JavaScript stack line: `at fn (/abs/file.js:4:35)` or `at /abs/file.js:4:35`.
_JS_FRAME = re.compile(
    r"^\s*at (?:(?P<func>[^\s(]+) )?\(?(?:file://)?(?P<file>[^\s()]+?\.(?:[cm]?[jt]sx?)):(?P<line>\d+):\d+\)?",
    re.MULTILINE,
)
# Go: `calc_test.go:12: got 1` in a test's output, `/abs/calc.go:7 +0x1d` in a panic's goroutine trace.
_GO_FRAME = re.compile(r"(?:^|\s)(?P<file>[^\s:]*\.go):(?P<line>\d+)(?=[: ]|$)", re.MULTILINE)

# A folder of tests by its name: `tests`, `__tests__`, `spec`, and a word of a longer name (`unit_tests`,
# `python_testcases`, `integration-tests`), never a word that merely holds the letters (`attest`, `pytest_plugin`).
_TEST_DIR = re.compile(r"(?:^|[_\-.])(?:__tests__|tests?|testing|testcases?|specs?)(?:$|[_\-.])")
# `tests.py` and `test.py` too: a single module of tests at a project's root (texttable, jsonpointer) or in a Django
# app; repair had asked about the failing test itself, ranked first by its own coverage.
_TEST_NAME = re.compile(
    r"^(?:tests?\.py|test_.*\.py|.*_test\.py|conftest\.py|.*_test\.go|.*\.(?:test|spec)\.[cm]?[jt]sx?|test\.[cm]?[jt]s)$"
)


@dataclass(frozen=True)
class Frame:
    """One place in the repository a failure passed through: a file relative to the root, a line, a function."""

    path: str
    line: int
    function: str = ""


def is_test_file(path: str) -> bool:
    """Whether a repository path holds tests rather than the code under test (by the usual naming rules)."""
    parts = PurePosixPath(path).parts
    return bool(parts) and (_TEST_NAME.match(parts[-1]) is not None or any(_TEST_DIR.search(p) for p in parts[:-1]))


def is_doctest(test_id: str) -> bool:
    """Whether a pytest id names a doctest of a Python module (`--doctest-modules`): `mathx.py::mathx.cube`, the
    examples in cube's docstring. Its file is the code under test, not a file of tests."""
    path, _, name = test_id.partition("::")
    name = name.partition("[")[0]
    if not path.endswith(".py") or is_test_file(path) or not name or "::" in name:
        return False
    module = PurePosixPath(path)
    return (module.parent.name if module.stem == "__init__" else module.stem) in name.split(".")


# A Go file that imports the testing package: a helper of the tests (`testutil/assert.go`) under any name.
_GO_TESTING_IMPORT = re.compile(rb'^\s*(?:import\s+)?(?:\w+\s+)?"testing"\s*$', re.MULTILINE)


def is_test_code(root: Path, path: str) -> bool:
    """Whether a repository file is part of the tests: a test file by name, or a Go helper that imports `testing`.
    Repair never edits one: an assertion helper made to agree with a wrong answer would pass every test."""
    if is_test_file(path):
        return True
    if not path.endswith(".go"):
        return False
    try:
        status = (root / path).stat()
    except OSError:
        return False
    # Asked for every coverage block and every file a name is looked up in: each file is read once while unchanged.
    return _imports_testing(str(root / path), status.st_mtime_ns, status.st_size)


@functools.lru_cache(maxsize=4096)
def _imports_testing(path: str, mtime_ns: int, size: int) -> bool:
    """Whether the Go file at `path`, as it was at (`mtime_ns`, `size`), imports the testing package."""
    try:
        with open(path, "rb") as file:
            head = file.read(_GO_HEAD_BYTES)
    except OSError:
        return False
    return _GO_TESTING_IMPORT.search(head) is not None


# Go's imports come before any declaration: the start of a file holds them.
_GO_HEAD_BYTES = 16384


def frames_of(text: str, root: Path) -> list[Frame]:
    """The frames of a failure text that lie in files inside `root`, innermost first."""
    inside = (_in_repository(frame.path, frame.line, frame.function, root) for frame in stack_frames(text))
    return list(dict.fromkeys(frame for frame in inside if frame is not None))


def stack_frames(text: str) -> list[Frame]:
    """Every frame of a failure text, its path as the runner printed it (absolute or relative), innermost
    first."""
    frames: list[Frame] = []
    # Python prints the outermost frame first; JavaScript and Go print the innermost first.
    patterns = ((_PYTEST_FRAME, True), (_PYTHON_FRAME, True), (_JS_FRAME, False), (_GO_FRAME, False))
    for pattern, innermost_last in patterns:
        found = [Frame(match.group("file"), int(match.group("line")), _func(match)) for match in pattern.finditer(text)]
        frames.extend(reversed(found) if innermost_last else found)
    return frames


def _func(match: re.Match[str]) -> str:
    func = match.groupdict().get("func") or ""
    return func.rsplit(".", 1)[-1]


def _in_repository(file: str, line: int, function: str, root: Path) -> Frame | None:
    """The frame with its path relative to `root`, or None for a file outside it (the runtime, site-packages)."""
    if line < 1 or "site-packages" in file or "node_modules" in file or file.startswith("node:"):
        return None
    base = root.resolve()
    try:
        path = Path(file) if Path(file).is_absolute() else base / file
        resolved = path.resolve()
        if not resolved.is_relative_to(base) or not resolved.is_file():
            return None
    except (OSError, ValueError):
        return None
    return Frame(resolved.relative_to(base).as_posix(), line, function)

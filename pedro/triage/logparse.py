"""Failing tests from a CI log, found by pedro before the model is asked: name, file, line, message, excerpt."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pedro.tools.testreport import (
    NODE_RUNNER,
    UNITTEST_HEADER,
    UNITTEST_RAN,
    UNITTEST_RESULT,
    FailedTest,
    RunReport,
    counted_line,
    failure_line,
    parse_go_test_json,
    parse_junit_xml,
    parse_raw,
    strip_ansi,
)
from pedro.triage.accounts import Account, account, go_file, message_of, node_failures

_EXCERPT_LINES = 30
_EXCERPT_CHARS = 3000
_PYTEST_HEADER = re.compile(r"^_{3,} (?P<name>.+?) _{3,}$", re.MULTILINE)
_PYTEST_WHERE = re.compile(r"^(?P<file>[^\s:]+\.py):(?P<line>\d+): (?P<what>.*)$", re.MULTILINE)
_GO_FAIL = re.compile(r"^\s*--- FAIL: (?P<name>\S+)")
_GO_WHERE = re.compile(r"^\s+(?P<file>[\w./-]+\.go):(?P<line>\d+): (?P<msg>.*)$")
# The line after a go test's account (which holds a panic's unindented lines): the next test's, a package's result,
# the run's verdict, or where the log reader left lines out.
_GO_AFTER = re.compile(r"^(?:--- |=== |(?:ok|FAIL|PASS)(?:\s|$)|\[\.\.\. \d+ lines left out \.\.\.\]$)")
_GO_PACKAGE = re.compile(r"^(?:ok|FAIL)[ \t]+(?P<package>\S+)[ \t]", re.MULTILINE)  # never across a line
# go test -json: one event object a line (Go 1.24 starts build events with ImportPath, test events with Time).
_GO_JSON = re.compile(r'^\{"(?:Time|ImportPath)":.*"Action":"\w[\w-]*"', re.MULTILINE)
_GO_JSON_KEPT = re.compile(r'"Action":"(?:pass|fail|skip)"|"Output":"(?:--- FAIL|panic: |\\t/|\s+[\w./-]+\.go:\d+)')
_GO_TEST_ID = re.compile(r"^(?P<package>.+?)\.(?P<name>(?:Test|Benchmark|Example|Fuzz).*)$")
_JEST_HEADER = re.compile(r"^\s*● (?P<name>.+?)\s*$")


@dataclass(frozen=True)
class LoggedFailure:
    """One failing test as the log shows it."""

    name: str
    file: str = ""
    line: int | None = None
    message: str = ""
    excerpt: str = ""


@dataclass(frozen=True)
class ParsedLog:
    """What pedro read from the log: the runner, its counts and each failing test."""

    runner: str
    passed: int
    failed: int
    failures: tuple[LoggedFailure, ...]


def parse_log(text: str, *, junit: str | None = None, root: Path | None = None) -> ParsedLog | None:
    """The failing tests of a log (or of a JUnit XML report), or None when no runner's output is recognised.

    With the repository's `root`, a go test file printed by its name alone is found in its package's folder, and
    a test's own file is told from the code it calls."""
    text = strip_ansi(text).replace("\r\n", "\n")
    if junit is not None:
        return _from_report(parse_junit_xml(junit), text, root)
    if _GO_JSON.search(text):
        return _from_report(parse_go_test_json(text.splitlines()), text, root)
    raw = parse_raw(text)
    if raw is not None and raw.runner == NODE_RUNNER:
        found = node_failures(text)
        raw.failures = [FailedTest(name, details=block) for name, block in found] or raw.failures
    return _from_report(raw, text, root) if raw is not None else None


def block_kind(line: str) -> str | None:
    """Which failure block `line` (one line of the log) opens: the pytest section, unittest block, go test lines or
    JavaScript runner's account that _block_for and parse_raw read; None for any other line."""
    if _PYTEST_HEADER.match(line):
        return "pytest"
    if UNITTEST_HEADER.match(line):
        return "unittest"
    if _GO_FAIL.match(line):
        return "go"
    return "js" if failure_line(line) else None


def block_ends(kind: str, line: str, taken: int) -> bool:
    """Whether `line` comes after the block of `kind` that holds `taken` lines so far."""
    if kind == "pytest":
        return line.startswith("=====")
    if kind == "unittest":
        return bool(UNITTEST_RAN.match(line))
    if kind == "go":
        return bool(_GO_AFTER.match(line))
    return taken > _EXCERPT_LINES


def block_marks(kind: str, line: str) -> bool:
    """Whether `line` inside a block of `kind` says where the test failed (kept even from a block's middle)."""
    return kind == "pytest" and bool(_PYTEST_WHERE.match(line)) or kind == "go" and bool(_GO_WHERE.match(line))


def kept_line(line: str) -> bool:
    """Whether a line outside any failure block is one the parsers read: a runner's counts, a failing test's name,
    a section rule of `=` (pytest's, which end its sections, and unittest's)."""
    return (
        line.startswith("=====")
        or counted_line(line)
        or bool(UNITTEST_RAN.match(line) or UNITTEST_RESULT.match(line))
        or line.startswith('{"')
        and bool(_GO_JSON_KEPT.search(line))
    )


def _from_report(report: RunReport, text: str, root: Path | None) -> ParsedLog:
    failures = []
    for failure in report.failures:
        name = failure.test_id
        block = failure.details or _block_for(name, report.runner, text)
        told = account(report.runner, block, root) if block else Account()
        file, line = _split_location(failure.location)
        file, line = (told.file, told.line) if told.file else (file, line)
        if report.runner.startswith("go"):
            file = go_file(file, _go_package(name, text), root)
        if not file and report.runner == "pytest" and "::" in name:
            file = name.split("::", 1)[0]
        message = told.message or message_of(failure.message.splitlines())
        failures.append(LoggedFailure(name, file, line, message, _excerpt(block or failure.message)))
    return ParsedLog(report.runner, report.passed, report.failed + report.errors, tuple(failures))


def _go_package(name: str, text: str) -> str:
    """The package of a go test: in its -json id (`example.com/m/pkg.TestX`), else the `FAIL pkg` line after it."""
    if (found := _GO_TEST_ID.match(name)) is not None and "/" in found.group("package"):
        return found.group("package")
    start = text.find(f"--- FAIL: {name} ")
    package = _GO_PACKAGE.search(text, start) if start >= 0 else None
    return package.group("package") if package is not None else ""


def _block_for(name: str, runner: str, text: str) -> str:
    """The part of the log about one failing test: pytest's `___ test ___` section, go's `--- FAIL` account, jest's
    `● test` account, else the lines after the first mention of its name."""
    leaf = re.split(r"::|\.|/| > ", name)[-1].strip()
    if runner == "pytest":
        return _pytest_section(leaf, text)
    lines = text.splitlines()
    if runner in ("jest", "vitest"):
        for index, line in enumerate(lines):
            if (jest := _JEST_HEADER.match(line)) is not None and jest.group("name") == name:
                return _lines_until(lines, index, _jest_after)
    for index, line in enumerate(lines):
        if runner.startswith("go") and (match := _GO_FAIL.match(line)) and match.group("name").endswith(leaf):
            return _go_block(lines, index, match.group("name"))
        if not runner.startswith("go") and leaf and leaf in line:
            return "\n".join(lines[index : index + _EXCERPT_LINES])
    return ""


def _pytest_section(leaf: str, text: str) -> str:
    """pytest's `___ test ___` section of the test whose last name part is `leaf`, up to the next header or the
    summary's `=====`; "" when there is none."""
    headers = list(_PYTEST_HEADER.finditer(text))
    for index, header in enumerate(headers):
        if header.group("name").split(".")[-1].split("[")[0] == leaf.split("[")[0]:
            end = headers[index + 1].start() if index + 1 < len(headers) else len(text)
            return text[header.end() : end].split("\n=====", 1)[0]
    return ""


def _go_block(lines: list[str], fail: int, name: str) -> str:
    """The `--- FAIL` line at `fail` and the test's lines: those after it, or, from go test -v, those before it."""
    block = _lines_until(lines, fail, lambda after: bool(_GO_AFTER.match(after)))
    return block if "\n" in block else _go_run_lines(lines, fail, name) + block


def _go_run_lines(lines: list[str], fail: int, name: str) -> str:
    """go test -v's lines of the test `name`, which it prints after `=== RUN name` and before the `--- FAIL` line at
    `fail` (each ending in a newline); "" when no `=== RUN` of it comes before."""
    for start in range(fail - 1, -1, -1):
        if lines[start].split() == ["===", "RUN", name]:
            return "".join(f"{line}\n" for line in lines[start + 1 : fail] if not _GO_AFTER.match(line))
    return ""


def _lines_until(lines: list[str], index: int, ends: Callable[[str], bool]) -> str:
    """lines[index] and the lines after it up to the first that `ends`."""
    taken = [lines[index]]
    for line in lines[index + 1 :]:
        if ends(line):
            break
        taken.append(line)
    return "\n".join(taken)


def _jest_after(line: str) -> bool:
    return bool(_JEST_HEADER.match(line)) or line.startswith(("Test Suites:", "Tests:"))


def _split_location(location: str) -> tuple[str, int | None]:
    path, _, line = location.rpartition(":")
    return (path, int(line)) if path and line.isdigit() else (location, None)


def _excerpt(text: str) -> str:
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    return "\n".join(lines[-_EXCERPT_LINES:])[-_EXCERPT_CHARS:]

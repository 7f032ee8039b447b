"""Failing tests from a CI log, found by pedro before the model is asked: name, file, line, message, excerpt."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pedro.tools.testreport import RunReport, counted_line, failure_line, parse_junit_xml, parse_raw, strip_ansi

_EXCERPT_LINES = 30
_EXCERPT_CHARS = 3000
_PYTEST_HEADER = re.compile(r"^_{3,} (?P<name>.+?) _{3,}$", re.MULTILINE)
_PYTEST_WHERE = re.compile(r"^(?P<file>[^\s:]+\.py):(?P<line>\d+): (?P<what>.*)$", re.MULTILINE)
_UNITTEST_HEADER = re.compile(r"^(?P<kind>FAIL|ERROR): (?P<test>\w+) \((?P<where>[\w.]+)\)", re.MULTILINE)
_UNITTEST_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)', re.MULTILINE)
_UNITTEST_RAN = re.compile(r"^Ran (?P<n>\d+) tests? in", re.MULTILINE)
_UNITTEST_RESULT = re.compile(r"^FAILED \((?P<body>[^)]*)\)", re.MULTILINE)
_GO_FAIL = re.compile(r"^\s*--- FAIL: (?P<name>\S+)")
_GO_WHERE = re.compile(r"^\s+(?P<file>[\w./-]+\.go):(?P<line>\d+): (?P<msg>.*)$")
_JS_WHERE = re.compile(r"(?P<file>[\w./@-]+\.(?:[cm]?[jt]sx?)):(?P<line>\d+):\d+")


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


def parse_log(text: str, *, junit: str | None = None) -> ParsedLog | None:
    """The failing tests of a log (or of a JUnit XML report), or None when no runner's output is recognised."""
    text = strip_ansi(text).replace("\r\n", "\n")
    if junit is not None:
        return _from_report(parse_junit_xml(junit), text)
    unittest = _parse_unittest(text)
    if unittest is not None and not _PYTEST_HEADER.search(text):
        return unittest
    raw = parse_raw(text)
    return _from_report(raw, text) if raw is not None else unittest


def block_kind(line: str) -> str | None:
    """Which failure block `line` (one line of the log) opens: the pytest section, unittest block, go test lines or
    JavaScript runner's account that _block_for and _parse_unittest read; None for any other line."""
    if _PYTEST_HEADER.match(line):
        return "pytest"
    if _UNITTEST_HEADER.match(line):
        return "unittest"
    if _GO_FAIL.match(line):
        return "go"
    return "js" if failure_line(line) else None


def block_ends(kind: str, line: str, taken: int) -> bool:
    """Whether `line` comes after the block of `kind` that holds `taken` lines so far."""
    if kind == "pytest":
        return line.startswith("=====")
    if kind == "unittest":
        return bool(_UNITTEST_RAN.match(line))
    if kind == "go":
        return not line.startswith((" ", "\t"))
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
        or bool(_UNITTEST_RAN.match(line) or _UNITTEST_RESULT.match(line))
    )


def _from_report(report: RunReport, text: str) -> ParsedLog:
    failures = []
    for failure in report.failures:
        name = failure.test_id
        block = _block_for(name, report.runner, text)
        file, line = _split_location(failure.location)
        message = failure.message.strip()
        where = _where_in_block(block, report.runner)
        if where is not None:
            file, line = file or where[0], line or where[1]
            message = message or where[2]
        if not file and report.runner == "pytest" and "::" in name:
            file = name.split("::", 1)[0]
        failures.append(
            LoggedFailure(name, file, line, message.splitlines()[0] if message else "", _excerpt(block or message))
        )
    return ParsedLog(report.runner, report.passed, report.failed + report.errors, tuple(failures))


def _block_for(name: str, runner: str, text: str) -> str:
    """The part of the log about one failing test: pytest's `___ test ___` section, go's `--- FAIL` lines, else
    the lines after the first mention of its name."""
    leaf = re.split(r"::|\.|/| > ", name)[-1].strip()
    if runner == "pytest":
        headers = list(_PYTEST_HEADER.finditer(text))
        for index, header in enumerate(headers):
            if header.group("name").split(".")[-1].split("[")[0] == leaf.split("[")[0]:
                end = headers[index + 1].start() if index + 1 < len(headers) else len(text)
                section = text[header.end() : end]
                return section.split("\n=====", 1)[0]
        return ""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if runner.startswith("go") and (match := _GO_FAIL.match(line)) and match.group("name").endswith(leaf):
            taken = [line]
            for following in lines[index + 1 :]:
                if not following.startswith((" ", "\t")) or _GO_FAIL.match(following):
                    break
                taken.append(following)
            return "\n".join(taken)
        if not runner.startswith("go") and leaf and leaf in line:
            return "\n".join(lines[index : index + _EXCERPT_LINES])
    return ""


def _where_in_block(block: str, runner: str) -> tuple[str, int, str] | None:
    if not block:
        return None
    if runner == "pytest":
        found = list(_PYTEST_WHERE.finditer(block))
        if found:
            last = found[-1]
            return last.group("file"), int(last.group("line")), last.group("what").strip()
        return None
    if runner.startswith("go"):
        for line in block.splitlines():
            if match := _GO_WHERE.match(line):
                return match.group("file"), int(match.group("line")), match.group("msg").strip()
        return None
    for match in _JS_WHERE.finditer(block):
        if "node_modules" not in match.group("file") and not match.group("file").startswith("node:"):
            return match.group("file"), int(match.group("line")), ""
    return None


def _parse_unittest(text: str) -> ParsedLog | None:
    headers = list(_UNITTEST_HEADER.finditer(text))
    ran = _UNITTEST_RAN.search(text)
    if not headers or ran is None:
        return None
    failures = []
    for index, header in enumerate(headers):
        end = headers[index + 1].start() if index + 1 < len(headers) else ran.start()
        block = text[header.end() : end]
        frames = list(_UNITTEST_FRAME.finditer(block))
        body = [line for line in block.splitlines() if line.strip() and not set(line.strip()) <= {"-", "="}]
        message = body[-1].strip() if body else ""
        file, line = (frames[-1].group("file"), int(frames[-1].group("line"))) if frames else ("", None)
        # Python 3.11 prints the whole id in the parentheses ("(mod.Class.test)"), older ones the class only.
        where, test = header.group("where"), header.group("test")
        name = where if where.endswith(f".{test}") else f"{where}.{test}"
        failures.append(LoggedFailure(name, file, line, message, _excerpt(block)))
    total = int(ran.group("n"))
    result = _UNITTEST_RESULT.search(text)
    counted = sum(int(n) for n in re.findall(r"=(\d+)", result.group("body"))) if result else len(failures)
    return ParsedLog("unittest", max(total - counted, 0), len(failures), tuple(failures))


def _split_location(location: str) -> tuple[str, int | None]:
    path, _, line = location.rpartition(":")
    return (path, int(line)) if path and line.isdigit() else (location, None)


def _excerpt(text: str) -> str:
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    return "\n".join(lines[-_EXCERPT_LINES:])[-_EXCERPT_CHARS:]

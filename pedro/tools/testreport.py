"""Parse test-runner reports (pytest junit XML, go test -json, jest/vitest JSON, raw text) into one summary.

JUnit XML comes from a CI job or a command the model ran, so it is read with defusedxml: a report that declares
entities is refused (the standard parser expands them, and below its 8 MiB threshold nothing stops a blow-up)."""

from __future__ import annotations

import json
import re
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import defusedxml.ElementTree as defused
from defusedxml import DefusedXmlException

MAX_MESSAGE_CHARS = 1200
MAX_MESSAGE_LINES = 15
MAX_DETAILS_CHARS = 8000
NODE_RUNNER = "node --test"


@dataclass(frozen=True)
class FailedTest:
    """One failing (or erroring) test: an id the model can rerun, where it failed, and why."""

    test_id: str
    location: str = ""
    """`file:line`, relative to the project root when the report allows; empty when unknown."""
    message: str = ""
    details: str = field(default="", compare=False)
    """The runner's full text of the failure (traceback, stack, output), capped; where the frames are read."""


@dataclass
class RunReport:
    """Counts and failures of one test run, whatever runner produced them."""

    runner: str
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    errors: int = 0
    failures: list[FailedTest] = field(default_factory=list)
    passing: list[str] = field(default_factory=list)
    """The ids of the tests that passed, in the same form as the failures' ids (empty when the runner names none)."""
    slowest_s: float = 0.0
    """The longest a passing test took, where the report says (junit's per-test time), else 0."""

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.skipped + self.errors

    @property
    def names_tests(self) -> bool:
        """Whether every passing and failing test is named by id, so that runs can be compared test by test."""
        named_failures = self.failed + self.errors == 0 or bool(self.failures)
        return self.total > 0 and len(self.passing) == self.passed and named_failures


class ReportError(ValueError):
    """A report file exists but cannot be read as the format it claims."""


# ---------------------------------------------------------------- pytest junit XML


def parse_junit_xml(text: str, *, runner: str = "pytest") -> RunReport:
    """A JUnit XML report (pytest --junitxml, xunit1 or xunit2 family)."""
    try:
        root = defused.fromstring(text)
    except ET.ParseError as exc:
        raise ReportError(f"junit XML is malformed: {exc}") from exc
    except DefusedXmlException as exc:
        raise ReportError("it declares XML entities, which pedro does not expand") from exc
    report = RunReport(runner=runner)
    for case in root.iter("testcase"):
        problem = next((child for child in case if child.tag in ("failure", "error")), None)
        if any(child.tag == "skipped" for child in case):
            report.skipped += 1
        elif problem is None:
            report.passed += 1
            report.passing.append(_junit_id(case, runner))
            report.slowest_s = max(report.slowest_s, _seconds(case.get("time", "")))
        else:
            if problem.tag == "error":
                report.errors += 1
            else:
                report.failed += 1
            report.failures.append(_junit_failure(case, problem, runner))
    return report


def _seconds(text: str) -> float:
    try:
        return max(0.0, float(text))
    except ValueError:
        return 0.0


def _junit_file(case: ET.Element, runner: str) -> str:
    # node's junit reporter writes the fixed class name "test": neither a module path nor part of the id.
    return case.get("file", "") or ("" if runner == NODE_RUNNER else _file_from_classname(case.get("classname", "")))


def _junit_id(case: ET.Element, runner: str) -> str:
    name = case.get("name", "?")
    if runner == NODE_RUNNER:
        return name
    file = _junit_file(case, runner)
    # A module pytest could not import stands as a case named for the module: the file is what failed, and the id
    # that runs it again, which its tests' ids start with once it imports.
    if file and not case.get("classname") and any(e.get("message") == _NOT_COLLECTED for e in case.iter("error")):
        return file
    return _pytest_id(file, case.get("classname", ""), name)


_NOT_COLLECTED = "collection failure"


def _junit_failure(case: ET.Element, problem: ET.Element, runner: str) -> FailedTest:
    file = _junit_file(case, runner)
    test_id = _junit_id(case, runner)
    details = problem.text or ""
    location = _last_location(details, prefer=file)
    if not location and file and (line := case.get("line", "")).isdigit():
        # pytest writes the 0-based line of the test's `def`.
        location = f"{file}:{int(line) + 1}"
    message = problem.get("message", "") or _first_line(details)
    if problem.tag == "error" and not message.startswith("failed on"):
        message = f"error: {message}"
    return FailedTest(test_id=test_id, location=location, message=_cap(message), details=_cap_details(details))


# What V8 prints as a node process dies of a value grown past its limits: an array or string a loop grows without end.
_NODE_FATAL = re.compile(r"^[#\s]*(?P<said>Fatal JavaScript [^\n]*|FATAL ERROR: [^\n]*)$", re.MULTILINE)
# node's report of a test file whose process a signal ended: `signal: 'SIGTRAP'` and no exit code.
_NODE_SIGNALLED = re.compile(r"\bsignal: '(SIG\w+)'")


def with_crash_cause(report: RunReport, output: str) -> RunReport:
    """A node report whose test file's process died of a signal, with the fatal error the process printed added to
    that file's failure: node's report says only `test failed` and the signal, the output says why."""
    said = [match.group("said").strip() for match in _NODE_FATAL.finditer(output)]
    if not said:
        return report
    cause = said[0]
    report.failures = [
        FailedTest(failure.test_id, failure.location, _cap(f"{failure.message}: {cause}"),
                   _cap_details(f"{failure.details}\n{cause}"))
        if _NODE_SIGNALLED.search(failure.details) and cause not in failure.details
        else failure
        for failure in report.failures
    ]  # fmt: skip
    return report


def _file_from_classname(classname: str) -> str:
    parts = [part for part in classname.split(".") if part]
    while parts and parts[-1][:1].isupper():
        parts.pop()
    return "/".join(parts) + ".py" if parts else ""


def _pytest_id(file: str, classname: str, name: str) -> str:
    if not file:
        return f"{classname}::{name}" if classname else name
    module = file[:-3].replace("/", ".") if file.endswith(".py") else file
    rest = classname[len(module) + 1 :] if classname.startswith(module + ".") else ""
    return "::".join(part for part in (file, *rest.split("."), name) if part)


_LOCATION_LINE = re.compile(r"^(?P<file>[^\s:][^:\n]*\.\w+):(?P<line>\d+)(?::\d+)?:", re.MULTILINE)


def _last_location(text: str, *, prefer: str = "") -> str:
    """The last `file:line:` in a traceback, preferring lines in the test's own file."""
    found = [(m.group("file"), m.group("line")) for m in _LOCATION_LINE.finditer(text)]
    if prefer:
        own = [item for item in found if item[0] == prefer or item[0].endswith("/" + prefer)]
        if own:
            found = own
    if not found:
        return ""
    file, line = found[-1]
    return f"{file}:{line}"


# ---------------------------------------------------------------- go test -json


@dataclass
class _GoTest:
    outcome: str = ""
    output: list[str] = field(default_factory=list)


def parse_go_test_json(lines: Iterable[str], *, module: str = "") -> RunReport:
    """`go test -json` events, one JSON object a line; other lines (build errors on stderr) are tolerated.

    Subtests count as tests and a parent whose failure is only its subtests' is not counted twice.
    `module` (go.mod's module path) turns package import paths into directories for locations.
    """
    tests: dict[tuple[str, str], _GoTest] = {}
    package_outcome: dict[str, str] = {}
    package_output: dict[str, list[str]] = {}
    build_output: dict[str, list[str]] = {}
    failed_builds: dict[str, str] = {}
    loose: list[str] = []
    for raw in lines:
        event = _json_object(raw)
        if event is None:
            if raw.strip():
                loose.append(raw.rstrip("\n"))
            continue
        action = str(event.get("Action", ""))
        package = str(event.get("Package", ""))
        test = str(event.get("Test", "") or "")
        output = str(event.get("Output", "") or "")
        if action == "build-output":
            build_output.setdefault(_strip_test_variant(str(event.get("ImportPath", ""))), []).append(output)
        elif test:
            entry = tests.setdefault((package, test), _GoTest())
            if action == "output":
                _append_capped(entry.output, output)
            elif action in ("pass", "fail", "skip"):
                entry.outcome = action
        elif action == "output":
            _append_capped(package_output.setdefault(package, []), output)
        elif action in ("pass", "fail", "skip"):
            package_outcome[package] = action
            if event.get("FailedBuild"):
                failed_builds[package] = _strip_test_variant(str(event["FailedBuild"]))
    report = RunReport(runner="go test")
    _fail_crashed_tests(tests, package_outcome)
    _count_go_tests(report, tests, module)
    _add_go_package_failures(report, tests, package_outcome, package_output, build_output, failed_builds)
    _add_loose_build_failures(report, loose, module)
    return report


def _fail_crashed_tests(tests: dict[tuple[str, str], _GoTest], package_outcome: dict[str, str]) -> None:
    """A test that started and never ended in a package that failed took the test binary down with it (`fatal error:
    stack overflow` prints no `--- FAIL`): it is that package's failing test, its output the crash."""
    for (package, _name), entry in tests.items():
        # One paused or waiting (`=== PAUSE`, `=== CONT` alone) printed nothing of its own: it did not crash.
        said = any(line.strip() and not line.startswith("=== ") for line in entry.output)
        if not entry.outcome and said and package_outcome.get(package) == "fail":
            entry.outcome = "fail"


def _json_object(raw: str) -> dict[str, Any] | None:
    text = raw.strip()
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _strip_test_variant(import_path: str) -> str:
    # "pkg [pkg.test]" names the test variant of pkg's build.
    return import_path.split(" ", 1)[0]


def _append_capped(buffer: list[str], line: str) -> None:
    if len(buffer) < 200:
        buffer.append(line)


def _count_go_tests(report: RunReport, tests: dict[tuple[str, str], _GoTest], module: str) -> None:
    names = {(package, name) for package, name in tests}
    for (package, name), entry in tests.items():
        has_children = any(p == package and other.startswith(name + "/") for p, other in names)
        if entry.outcome == "pass" and not has_children:
            report.passed += 1
            report.passing.append(f"{package}.{name}" if package else name)
        elif entry.outcome == "skip" and not has_children:
            report.skipped += 1
        elif entry.outcome == "fail":
            failing_child = any(
                p == package and other.startswith(name + "/") and tests[(p, other)].outcome == "fail"
                for p, other in names
            )
            if failing_child:
                continue
            report.failed += 1
            report.failures.append(_go_failure(package, name, entry.output, module))


_GO_TEST_LINE = re.compile(r"^\s+(?P<file>[\w.\-/]+\.go):(?P<line>\d+): ?(?P<text>.*)$")


def _go_failure(package: str, name: str, output: list[str], module: str) -> FailedTest:
    location = ""
    message_lines: list[str] = []
    for line in "".join(output).splitlines():
        stripped = line.strip()
        if stripped.startswith(("=== RUN", "=== PAUSE", "=== CONT", "--- FAIL", "--- PASS", "--- SKIP")):
            continue
        match = _GO_TEST_LINE.match(line)
        if match and not location:
            location = f"{_package_dir(package, module)}{match.group('file')}:{match.group('line')}"
        message_lines.append(match.group("text") if match else stripped)
    test_id = f"{package}.{name}" if package else name
    message = "\n".join(m for m in message_lines if m)
    return FailedTest(test_id=test_id, location=location, message=_cap(message), details=_cap_details("".join(output)))


def _package_dir(package: str, module: str) -> str:
    if module and (package == module or package.startswith(module + "/")):
        rel = package[len(module) + 1 :]
        return f"{rel}/" if rel else ""
    return ""


def _add_go_package_failures(
    report: RunReport,
    tests: dict[tuple[str, str], _GoTest],
    package_outcome: dict[str, str],
    package_output: dict[str, list[str]],
    build_output: dict[str, list[str]],
    failed_builds: dict[str, str],
) -> None:
    """A package that failed with no failing test: a build error, a panic in init/TestMain, a timeout."""
    for package, outcome in package_outcome.items():
        if outcome != "fail" or any(p == package and t.outcome == "fail" for (p, _), t in tests.items()):
            continue
        build = build_output.get(failed_builds.get(package, package), [])
        text = "".join(build) if build else "".join(package_output.get(package, []))
        lines = [line for line in text.splitlines() if line.strip() and not line.startswith(("FAIL", "# "))]
        location = _last_location("\n".join(lines))
        kind = "build failed" if build or failed_builds.get(package) else "package failed"
        report.errors += 1
        message = f"{kind}: " + "\n".join(lines) if lines else f"{kind} (its output is below)"
        report.failures.append(FailedTest(test_id=package, location=location, message=_cap(message)))


_GO_BUILD_FAILED = re.compile(r"^FAIL\s+(?P<package>\S+) \[(?:build|setup) failed\]")
_GO_BUILD_FAILED_TEXT = re.compile(_GO_BUILD_FAILED.pattern, re.MULTILINE)


def _add_loose_build_failures(report: RunReport, loose: list[str], module: str) -> None:
    """Before Go 1.24, build errors reach the stream as plain text (`# pkg` blocks, then `FAIL pkg [build failed]`)."""
    known = {failure.test_id for failure in report.failures}
    blocks: dict[str, list[str]] = {}
    current = ""
    for line in loose:
        if line.startswith("# "):
            current = _strip_test_variant(line[2:].strip())
            blocks.setdefault(current, [])
        elif (match := _GO_BUILD_FAILED.match(line)) is not None:
            package = match.group("package")
            if package in known:
                continue
            known.add(package)
            lines = list(dict.fromkeys(blocks.get(package, [])))
            report.errors += 1
            report.failures.append(
                FailedTest(
                    test_id=package,
                    location=_last_location("\n".join(lines)),
                    message=_cap("build failed: " + "\n".join(lines)),
                )
            )
        elif current:
            blocks[current].append(line)


# ---------------------------------------------------------------- jest / vitest JSON


def parse_jest_json(text: str, *, root: Path | None = None, runner: str = "jest") -> RunReport:
    """A jest `--json` report; vitest's json reporter writes the same shape."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ReportError(f"{runner} JSON report is malformed: {exc}") from exc
    if not isinstance(data, dict):
        raise ReportError(f"{runner} JSON report is not an object")
    report = RunReport(runner=runner)
    for suite in _dicts(data.get("testResults")):
        file = _relative(str(suite.get("name", "")), root)
        assertions = _dicts(suite.get("assertionResults"))
        for case in assertions:
            status = str(case.get("status", ""))
            if status == "passed":
                report.passed += 1
                report.passing.append(_jest_id(case, file))
            elif status in ("pending", "skipped", "todo", "disabled"):
                report.skipped += 1
            elif status == "failed":
                report.failed += 1
                report.failures.append(_jest_failure(case, file, str(suite.get("name", "")), root))
        message = str(suite.get("message", "") or "")
        if suite.get("status") == "failed" and not any(c.get("status") == "failed" for c in assertions):
            # The file itself failed to run (syntax error, import error): no test inside could.
            report.errors += 1
            clean = strip_ansi(message)
            report.failures.append(
                FailedTest(test_id=file, location=_js_location(clean, suite, root), message=_cap(_suite_message(clean)))
            )
    return report


def parse_vitest_json(text: str, *, root: Path | None = None) -> RunReport:
    """A vitest `--reporter=json` report (jest-compatible shape)."""
    return parse_jest_json(text, root=root, runner="vitest")


def _suite_message(text: str) -> str:
    """A suite-level error without jest's banner and stack frames, dedented."""
    kept = [line for line in text.splitlines() if not line.lstrip().startswith(("at ", "● Test suite failed to run"))]
    return textwrap.dedent("\n".join(kept)).strip()


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


JS_ID_SEPARATOR = " > "
"""Between a jest or vitest test id's file and each of its titles (the describe blocks', then the test's)."""


def _jest_id(case: dict[str, Any], file: str) -> str:
    titles = [str(t) for t in case.get("ancestorTitles") or [] if t] + [str(case.get("title", "?"))]
    return JS_ID_SEPARATOR.join([file, *titles] if file else titles)


def _jest_failure(case: dict[str, Any], file: str, abs_file: str, root: Path | None) -> FailedTest:
    test_id = _jest_id(case, file)
    messages = [strip_ansi(str(m)) for m in case.get("failureMessages") or []]
    text = "\n".join(messages)
    location = ""
    loc = case.get("location")
    if isinstance(loc, dict) and isinstance(loc.get("line"), int):
        location = f"{file}:{loc['line']}"
    stack_location = _stack_location(text, abs_file, root)
    location = stack_location or location
    summary = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("at "))
    return FailedTest(test_id=test_id, location=location, message=_cap(summary.strip()), details=_cap_details(text))


_STACK_FRAME = re.compile(r"\(?(?:file://)?(?P<file>/[^\s():]+):(?P<line>\d+):\d+\)?")


def _stack_location(text: str, abs_file: str, root: Path | None) -> str:
    """The first stack frame in the test file itself, where the assertion failed."""
    for match in _STACK_FRAME.finditer(text):
        if abs_file and match.group("file") == abs_file:
            return f"{_relative(abs_file, root)}:{match.group('line')}"
    return ""


def _js_location(message: str, suite: dict[str, Any], root: Path | None) -> str:
    abs_file = str(suite.get("name", ""))
    if found := _stack_location(message, abs_file, root):
        return found
    match = re.search(r"\((\d+):\d+\)|:(\d+):\d+\s*$", message, re.MULTILINE)
    if match:
        return f"{_relative(abs_file, root)}:{match.group(1) or match.group(2)}"
    return _relative(abs_file, root)


def _relative(path: str, root: Path | None) -> str:
    if not path or root is None:
        return path
    try:
        return PurePosixPath(path).relative_to(PurePosixPath(root.as_posix())).as_posix()
    except ValueError:
        return path


_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


def strip_ansi(text: str) -> str:
    """`text` without terminal colour and cursor sequences (runners colour their output)."""
    return _ANSI.sub("", text)


# ---------------------------------------------------------------- raw text


_COUNT = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed|deselected)\b")
_PYTEST_SUMMARY = re.compile(r"^=*\s*(?P<body>(?:\d+ \w+,? ?)+)(?:in [\d.]+s.*)?=*\s*$", re.MULTILINE)
_PYTEST_FAILED = re.compile(r"^(?P<kind>FAILED|ERROR) (?P<id>\S+)(?: - (?P<msg>.*))?$", re.MULTILINE)
_JEST_TESTS = re.compile(r"^\s*Tests:\s+(?P<body>.*\d+ total)\s*$", re.MULTILINE)
_VITEST_TESTS = re.compile(r"^\s*Tests\s+(?P<body>.*)\(\d+\)\s*$", re.MULTILINE)
_MOCHA = re.compile(r"^\s+(?P<n>\d+) (?P<kind>passing|failing|pending)\b", re.MULTILINE)
_GO_RESULT = re.compile(r"^\s*--- (?P<kind>PASS|FAIL|SKIP): (?P<name>\S+)", re.MULTILINE)
_GO_PACKAGE = re.compile(r"^(?P<kind>ok|FAIL)[ \t]+(?P<pkg>\S+)", re.MULTILINE)
_CARGO = re.compile(r"^test result: \w+\. (?P<p>\d+) passed; (?P<f>\d+) failed; (?P<i>\d+) ignored", re.MULTILINE)
_JEST_FAILED = re.compile(r"^\s*● (?!Test suite failed)(.+)$", re.MULTILINE)
_VITEST_FAILED = re.compile(r"^\s*FAIL\s+(.+ > .+)$", re.MULTILINE)


def parse_raw(text: str) -> RunReport | None:
    """Counts (and failing test names where printed) from a runner's human output; None if nothing is recognised."""
    text = strip_ansi(text)
    for parse in (_raw_pytest, _raw_unittest, _raw_jest, _raw_vitest, _raw_node, _raw_mocha, _raw_cargo, _raw_go):
        report = parse(text)
        if report is not None:
            return report
    return None


def counted_line(line: str) -> bool:
    """Whether parse_raw reads `line` (one line, no newline): a summary it counts from or a failing test it names."""
    return any(pattern.match(line) for pattern in _COUNTED_LINES)


def failure_line(line: str) -> bool:
    """Whether `line` opens a JavaScript runner's account of one failing test (jest, vitest, node --test)."""
    return any(pattern.match(line) for pattern in (_JEST_FAILED, _VITEST_FAILED, _NODE_FAILED))


def _raw_pytest(text: str) -> RunReport | None:
    summaries = [m.group("body") for m in _PYTEST_SUMMARY.finditer(text) if _COUNT.search(m.group("body"))]
    if not summaries:
        return None
    counts = {kind: int(n) for n, kind in _COUNT.findall(summaries[-1])}
    report = RunReport(
        runner="pytest",
        passed=counts.get("passed", 0) + counts.get("xpassed", 0),
        failed=counts.get("failed", 0),
        skipped=counts.get("skipped", 0) + counts.get("xfailed", 0),
        errors=counts.get("error", 0) + counts.get("errors", 0),
    )
    for match in _PYTEST_FAILED.finditer(text):
        message = match.group("msg") or ""
        if match.group("kind") == "ERROR":
            message = f"error: {message}" if message else "error"
        report.failures.append(FailedTest(test_id=match.group("id"), message=_cap(message)))
    return report


def _counts_from(body: str) -> dict[str, int]:
    return {kind: int(n) for n, kind in re.findall(r"(\d+) (\w+)", body)}


def _raw_jest(text: str) -> RunReport | None:
    matches = list(_JEST_TESTS.finditer(text))
    if not matches:
        return None
    counts = _counts_from(matches[-1].group("body"))
    report = RunReport(
        runner="jest",
        passed=counts.get("passed", 0),
        failed=counts.get("failed", 0),
        skipped=counts.get("skipped", 0) + counts.get("todo", 0) + counts.get("pending", 0),
    )
    for name in _JEST_FAILED.findall(text):
        report.failures.append(FailedTest(test_id=name.strip()))
    return report


def _raw_vitest(text: str) -> RunReport | None:
    matches = list(_VITEST_TESTS.finditer(text))
    if not matches:
        return None
    counts = _counts_from(matches[-1].group("body"))
    report = RunReport(
        runner="vitest",
        passed=counts.get("passed", 0),
        failed=counts.get("failed", 0),
        skipped=counts.get("skipped", 0) + counts.get("todo", 0),
    )
    for name in _VITEST_FAILED.findall(text):
        report.failures.append(FailedTest(test_id=name.strip()))
    return report


_NODE_COUNT = re.compile(r"^[#ℹ] (?P<kind>tests|pass|fail|skipped|todo|cancelled) (?P<n>\d+)\s*$", re.MULTILINE)
_NODE_FAILED = re.compile(r"^(?:not ok \d+ - (?P<tap>.+?)|✖ (?P<spec>.+?) \([\d.]+ms\))\s*$", re.MULTILINE)


def _raw_node(text: str) -> RunReport | None:
    """node --test's summary, from its TAP (`# pass 1`) or spec (`ℹ pass 1`) reporter."""
    counts = {m.group("kind"): int(m.group("n")) for m in _NODE_COUNT.finditer(text)}
    if "tests" not in counts or "pass" not in counts:
        return None
    report = RunReport(
        runner=NODE_RUNNER,
        passed=counts["pass"],
        failed=counts.get("fail", 0) + counts.get("cancelled", 0),
        skipped=counts.get("skipped", 0) + counts.get("todo", 0),
    )
    names = [m.group("tap") or m.group("spec") for m in _NODE_FAILED.finditer(text)]
    report.failures.extend(FailedTest(test_id=name.strip()) for name in dict.fromkeys(names))
    return report


def _raw_mocha(text: str) -> RunReport | None:
    counts = {m.group("kind"): int(m.group("n")) for m in _MOCHA.finditer(text)}
    if "passing" not in counts and "failing" not in counts:
        return None
    return RunReport(
        runner="mocha",
        passed=counts.get("passing", 0),
        failed=counts.get("failing", 0),
        skipped=counts.get("pending", 0),
    )


def _raw_cargo(text: str) -> RunReport | None:
    matches = list(_CARGO.finditer(text))
    if not matches:
        return None
    report = RunReport(runner="cargo test")
    for match in matches:
        report.passed += int(match.group("p"))
        report.failed += int(match.group("f"))
        report.skipped += int(match.group("i"))
    return report


def _raw_go(text: str) -> RunReport | None:
    results = _GO_RESULT.findall(text)
    packages = _GO_PACKAGE.findall(text)
    if not results and not packages:
        return None
    report = RunReport(runner="go test")
    names = [name for _, name in results]
    for kind, name in results:
        is_parent = any(other.startswith(name + "/") for other in names)
        if kind == "PASS" and not is_parent:
            report.passed += 1
        elif kind == "SKIP" and not is_parent:
            report.skipped += 1
        elif kind == "FAIL" and not any(k == "FAIL" and n.startswith(name + "/") for k, n in results):
            report.failed += 1
            report.failures.append(FailedTest(test_id=name))
    for match in _GO_BUILD_FAILED_TEXT.finditer(text):
        report.errors += 1
        report.failures.append(FailedTest(test_id=match.group("package"), message="build failed"))
    return report


UNITTEST_RUNNER = "unittest"
# A module that fails to import is a test of its own, named by its dotted name: `ERROR: tests.test_stock
# (unittest.loader._FailedTest.tests.test_stock)`.
UNITTEST_HEADER = re.compile(r"^(?P<kind>FAIL|ERROR): (?P<test>[\w.]+) \((?P<where>[\w.]+)\)", re.MULTILINE)
_UNITTEST_LOADER = "unittest.loader."
UNITTEST_RAN = re.compile(r"^Ran (?P<n>\d+) tests? in", re.MULTILINE)
UNITTEST_RESULT = re.compile(r"^(?:FAILED|OK) ?(?:\((?P<body>[^)]*)\))?\s*$", re.MULTILINE)
# `-v`: one line a test, `test_add (test_calc.T.test_add) ... ok` (3.11+), `test_add (test_calc.T) ... ok` before;
# a test with a docstring (a doctest too: `Doctest: pkg.mod.func`) puts its first line on a line of its own. What a
# test writes to stderr (a warning) lands after its ` ... `, and its outcome then stands alone a few lines down.
_UNITTEST_VERBOSE = re.compile(
    r"^(?P<test>\w+) \((?P<where>[\w.]+)\)(?:\n.*?)? \.\.\. "
    r"(?:(?P<outcome>ok|FAIL|ERROR|skipped)"
    r"|[^\n]*\n(?:(?!\w+ \([\w.]+\))[^\n]*\n){0,8}?(?P<late>ok|FAIL|ERROR)$)",
    re.MULTILINE,
)
_UNITTEST_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)', re.MULTILINE)


def unittest_id(test: str, where: str) -> str:
    """A unittest test's id as `python -m unittest` takes it: Python 3.11 prints it whole in the parentheses,
    older versions the class only. A module that failed to import is its dotted name."""
    if where.startswith(_UNITTEST_LOADER):
        return test
    return where if where.endswith(f".{test}") else f"{where}.{test}"


def _raw_unittest(text: str) -> RunReport | None:
    """Python's own runner: its counts, each failing test's id, traceback and message, and with `-v` the passing
    tests' ids too."""
    ran = list(UNITTEST_RAN.finditer(text))
    if not ran:
        return None
    end = ran[-1]
    headers = [header for header in UNITTEST_HEADER.finditer(text) if header.start() < end.start()]
    report = RunReport(runner=UNITTEST_RUNNER)
    failed: set[str] = set()
    for index, header in enumerate(headers):
        stop = headers[index + 1].start() if index + 1 < len(headers) else end.start()
        failure = _unittest_failure(header, text[header.end() : stop])
        # A test whose subtests fail is one failing test (each subtest's failure has a header of its own, and the
        # count unittest prints counts the test once): the first failure speaks for it.
        if failure.test_id in failed:
            continue
        failed.add(failure.test_id)
        if header.group("kind") == "ERROR":
            report.errors += 1
        else:
            report.failed += 1
        report.failures.append(failure)
    result = UNITTEST_RESULT.search(text, end.end())
    counts = dict(re.findall(r"(\w+)=(\d+)", result.group("body") or "")) if result else {}
    report.skipped = int(counts.get("skipped", 0))
    report.passed = max(int(end.group("n")) - report.failed - report.errors - report.skipped, 0)
    report.passing.extend(_unittest_passing(text, {failure.test_id for failure in report.failures}))
    return report


_UNRAISED = re.compile(r"^[A-Za-z_][\w.]*(?::[^\n]*)?$", re.M)
"""The first line of a traceback's exception, at the start of its line: `AssertionError: 'a' != 'b'`."""


def _unittest_failure(header: re.Match[str], block: str) -> FailedTest:
    """One failing test of unittest's output: its id, its last frame, the exception's line after that frame as the
    message (else the last line), the traceback."""
    block = block.strip("\n").rstrip("-\n ")
    body = [line for line in block.splitlines() if line.strip() and not set(line.strip()) <= {"-", "="}]
    frames = list(_UNITTEST_FRAME.finditer(block))
    location = f"{frames[-1].group('file')}:{frames[-1].group('line')}" if frames else ""
    # The exception's own line, not what follows it: assertEqual on two strings ends with its diff's `? ^` markers.
    raised = _UNRAISED.search(block, frames[-1].end()) if frames else None
    message = raised.group().strip() if raised is not None else body[-1].strip() if body else ""
    if header.group("kind") == "ERROR":
        message = f"error: {message}"
    test_id = unittest_id(header.group("test"), header.group("where"))
    return FailedTest(test_id, location, _cap(message), _cap_details(block))


def _unittest_passing(text: str, failing: set[str]) -> list[str]:
    """The tests `-v` reports as ok, in the order it ran them, leaving out any that also failed."""
    passing = []
    for line in _UNITTEST_VERBOSE.finditer(text):
        test_id = unittest_id(line.group("test"), line.group("where"))
        if (line.group("outcome") or line.group("late")) == "ok" and test_id not in failing:
            passing.append(test_id)
    return passing


_COUNTED_LINES = (
    UNITTEST_RAN,
    _PYTEST_SUMMARY,
    _PYTEST_FAILED,
    _JEST_TESTS,
    _VITEST_TESTS,
    _NODE_COUNT,
    _MOCHA,
    _CARGO,
    _GO_RESULT,
    _GO_PACKAGE,
)


# ---------------------------------------------------------------- shared


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def _cap_details(text: str) -> str:
    """The end of a long failure text, where the innermost frames are."""
    text = text.strip()
    return text if len(text) <= MAX_DETAILS_CHARS else text[-MAX_DETAILS_CHARS:]


def _cap(text: str) -> str:
    lines = text.strip().splitlines()
    if len(lines) > MAX_MESSAGE_LINES:
        lines = [*lines[:MAX_MESSAGE_LINES], f"[... {len(lines) - MAX_MESSAGE_LINES} more lines]"]
    capped = "\n".join(lines)
    if len(capped) > MAX_MESSAGE_CHARS:
        capped = capped[:MAX_MESSAGE_CHARS] + f" [... {len(capped) - MAX_MESSAGE_CHARS} more characters]"
    return capped

"""Spectrum-based fault localisation: the lines the failing tests execute and the passing ones do not, ranked."""

# Ochiai (Abreu et al. 2007): suspiciousness(line) = ef / sqrt(F * (ef + ep)), where ef and ep count the failing and
# passing tests that execute the line and F is the number of failing tests. The tests run once, with line coverage,
# through the test tool's own runner and sandbox (an instrument changes the planned run): coverage.py inside pytest
# records each test's lines; `go test -coverprofile` and node's NODE_V8_COVERAGE record a run's, so Go and
# `node --test` run the failing tests and the passing ones as two groups.

from __future__ import annotations

import json
import math
import os
import re
import shlex
import shutil
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from pedro.evidence import ProjectTests
from pedro.repair.evaluate import CandidateRuns, named_containers
from pedro.repair.frames import is_test_code, is_test_file
from pedro.repair.locate import Unit, enclosing_unit
from pedro.repair.origins import returns_nothing
from pedro.tools.test import RunPlan, TestRun, name_pattern
from pedro.tools.testreport import NODE_RUNNER, UNITTEST_RUNNER

_PLUGIN = "pedro_spectrum_plugin"
_PLUGIN_SOURCE = Path(__file__).with_name("pytest_spectrum.py")
_UNITTEST_RUNNER_SOURCE = Path(__file__).with_name("unittest_spectrum.py")
_GO_PROFILE = re.compile(
    r"^(?P<file>.+\.go):(?P<start>\d+)\.(?P<scol>\d+),(?P<end>\d+)\.(?P<ecol>\d+) \d+ (?P<count>\d+)$"
)
_MAX_GO_NAMES = 200
# A Go test id is `import/path.TestName` or `import/path.TestName/subtest`.
_GO_TEST_NAME = re.compile(r"(?:^|\.)((?:Test|Example|Fuzz)\w*)(?:/|$)")
_MAX_RANKED_LINES = 60
_LINES_PER_UNIT = 2
# The traceback's say, on Ochiai's scale: enough to order units coverage ties, not to outrank a clearly worse line.
_FIRST_FRAME_BONUS = 0.1
_FRAME_BONUS = 0.05
_EVIDENCE_FIRST = 10.0
"""Above any Ochiai score (at most 1): the located units' order decides when coverage cannot."""
# A line that returns the nothing a failing test got, among the unit's best: where the wrong value was made, which
# says more than a frame the value only passed through.
_ORIGIN_BONUS = 0.15

Line = tuple[str, int]
"""A repository path (relative to the root) and a 1-based line."""


@dataclass(frozen=True)
class Spectrum:
    """Each executed line's suspiciousness, and what measuring it cost."""

    scores: dict[Line, float]
    failing: int
    """Failing tests (or groups of them) whose lines were recorded."""
    passing: int
    seconds: float
    runs: int
    """Test runs it took: one for pytest, two for go test."""
    covered: Mapping[str, frozenset[Line]] = field(default_factory=dict)
    """The lines each test executed, where they were recorded per test (pytest): what lets the ranking follow the
    tests as they come to pass."""
    failing_ids: frozenset[str] = frozenset()

    def ranked(self) -> list[tuple[str, int, float]]:
        """Lines a failing test executes, most suspicious first (ties in file order)."""
        lines = [(path, line, score) for (path, line), score in self.scores.items() if score > 0]
        return sorted(lines, key=lambda item: (-item[2], item[0], item[1]))

    def score(self, path: str, line: int) -> float:
        return self.scores.get((path, line), 0.0)

    def narrowed(self, still_failing: Iterable[str]) -> Spectrum:
        """The spectrum once only `still_failing` of its failing tests fail: the others count as passing, so the
        lines only they ran (a bug already fixed) no longer rank. Unchanged where tests were not recorded singly."""
        still = frozenset(still_failing) & self.failing_ids
        if not self.covered or not still or still == self.failing_ids:
            return self
        passing = [test for test in self.covered if test not in still]
        scores = ochiai(self.covered, still, passing)
        return replace(self, scores=scores, failing=len(still), passing=len(passing), failing_ids=still)

    def shifted(self, path: str, start: int, end: int, count: int) -> Spectrum:
        """The spectrum after lines start..end of `path` became `count` lines: later lines move, the replaced ones
        keep their scores while they still exist."""
        delta = count - (end - start + 1)
        if not delta:
            return self

        def moved(line: Line) -> Line | None:
            file, number = line
            if file != path or number < start:
                return line
            if number > end:
                return (file, number + delta)
            return line if number < start + count else None

        scores = {new: score for old, score in self.scores.items() if (new := moved(old)) is not None}
        covered = {
            test: frozenset(new for old in lines if (new := moved(old)) is not None)
            for test, lines in self.covered.items()
        }
        return replace(self, scores=scores, covered=covered)


def ochiai(covered: Mapping[str, Iterable[Line]], failing: Iterable[str], passing: Iterable[str]) -> dict[Line, float]:
    """Every covered line's Ochiai score, from the lines each test (or group) executed."""
    failed, passed = set(failing) & set(covered), set(passing) & set(covered)
    ef: dict[Line, int] = {}
    ep: dict[Line, int] = {}
    for test, lines in covered.items():
        counts = ef if test in failed else ep if test in passed else None
        if counts is not None:
            for line in set(lines):
                counts[line] = counts.get(line, 0) + 1
    total = len(failed)
    scores: dict[Line, float] = {}
    for line in set(ef) | set(ep):
        hits = ef.get(line, 0)
        scores[line] = hits / math.sqrt(total * (hits + ep.get(line, 0))) if total and hits else 0.0
    return scores


@dataclass
class PytestRecorder:
    """An instrument for a pytest run: coverage.py, per test, through a plugin on the run's PYTHONPATH."""

    root: Path
    covered: dict[str, set[Line]] = field(default_factory=dict)

    def prepare(self, plan: RunPlan, workdir: Path) -> RunPlan:
        folder = self._with_coverage(workdir)
        shutil.copyfile(_PLUGIN_SOURCE, folder / f"{_PLUGIN}.py")
        env = self._env(plan, workdir)
        path = env.get("PYTHONPATH", "")
        env["PYTHONPATH"] = f"{folder}{os.pathsep}{path}" if path else str(folder)
        # Plain asserts: pytest's message of a failed assertion shows the values it read, running the project's
        # __repr__ in the failing tests alone, where it would score as high as the line that is wrong. Which lines
        # each test runs is all this run is for.
        env["PYTEST_ADDOPTS"] = f"{env.get('PYTEST_ADDOPTS', '')} -p {_PLUGIN} --assert=plain".strip()
        return replace(plan, command=replace(plan.command, env=env))

    @staticmethod
    def _with_coverage(workdir: Path) -> Path:
        """The run's own folder with a copy of coverage.py in it."""
        import coverage

        folder = workdir / "spectrum"
        # A copy, not a link: the project's interpreter may not see where pedro is installed (a hidden home).
        shutil.copytree(
            Path(coverage.__file__).parent,
            folder / "coverage",
            ignore=shutil.ignore_patterns("__pycache__", "htmlfiles"),
        )
        return folder

    def _env(self, plan: RunPlan, workdir: Path) -> dict[str, str]:
        env = dict(plan.command.env)
        env["PEDRO_SPECTRUM_DATA"] = str(workdir / "spectrum.data")
        env["PEDRO_SPECTRUM_ROOT"] = str(self.root.resolve())
        return env

    def collect(self, plan: RunPlan, workdir: Path) -> None:
        from coverage import CoverageData

        data_file = workdir / "spectrum.data"
        if not data_file.is_file():
            return
        data = CoverageData(basename=str(data_file))
        data.read()
        root = self.root.resolve()
        for measured in data.measured_files():
            rel = _relative(measured, root)
            if rel is None or is_test_file(rel):
                continue
            for line, contexts in data.contexts_by_lineno(measured).items():
                for context in contexts:
                    if context:
                        self.covered.setdefault(context, set()).add((rel, line))


@dataclass
class UnittestRecorder(PytestRecorder):
    """An instrument for a `python -m unittest` run: coverage.py, per test, with a runner of pedro's in unittest's
    place (unittest_spectrum.py) that passes it the same arguments."""

    def prepare(self, plan: RunPlan, workdir: Path) -> RunPlan:
        argv = list(plan.command.argv)
        explicit = argv[:2] == ["bash", "-c"]
        tokens = shlex.split(argv[2]) if explicit else argv
        at = next((i for i in range(1, len(tokens) - 1) if tokens[i : i + 2] == ["-m", "unittest"]), None)
        if at is None:
            return plan  # no `-m unittest` to stand in for: nothing is recorded
        folder = self._with_coverage(workdir)
        runner = folder / _UNITTEST_RUNNER_SOURCE.name
        shutil.copyfile(_UNITTEST_RUNNER_SOURCE, runner)
        tokens = [*tokens[:at], str(runner), *tokens[at + 2 :]]
        new_argv = (*argv[:2], shlex.join(tokens)) if explicit else tuple(tokens)
        return replace(plan, command=replace(plan.command, argv=new_argv, env=self._env(plan, workdir)))


@dataclass
class GoRecorder:
    """An instrument for a go test run: one coverage profile for the tests `names` selects (top-level names)."""

    root: Path
    names: list[str]
    lines: set[Line] = field(default_factory=set)

    def prepare(self, plan: RunPlan, workdir: Path) -> RunPlan:
        argv = list(plan.command.argv)
        explicit = argv[:2] == ["bash", "-c"]
        tokens = shlex.split(argv[2]) if explicit else argv
        pattern = name_pattern(self.names)
        flags = [f"-coverprofile={workdir / 'cover.out'}", "-coverpkg=./...", "-run", pattern]
        at = tokens.index("test") + 1
        tokens = [*tokens[:at], *flags, *tokens[at:]]
        new_argv = (*argv[:2], shlex.join(tokens)) if explicit else tuple(tokens)
        return replace(plan, command=replace(plan.command, argv=new_argv))

    def collect(self, plan: RunPlan, workdir: Path) -> None:
        profile = workdir / "cover.out"
        if not profile.is_file():
            return
        project = plan.command.cwd.resolve()
        root = self.root.resolve()
        sources: dict[str, list[str]] = {}
        for raw in profile.read_text(encoding="utf-8", errors="replace").splitlines():
            match = _GO_PROFILE.match(raw)
            if match is None or match.group("count") == "0":
                continue
            file = match.group("file")
            local = file[len(plan.module) + 1 :] if plan.module and file.startswith(plan.module + "/") else file
            rel = _relative(str(project / local), root)
            if rel is None or is_test_code(root, rel):
                continue
            if rel not in sources:
                sources[rel] = (root / rel).read_text(encoding="utf-8", errors="replace").splitlines()
            self.lines.update((rel, line) for line in _block_lines(sources[rel], match))


def _block_lines(source: list[str], block: re.Match[str]) -> list[int]:
    """The lines a profile block executes: its first line only when code follows the block's start there (not a
    lone `{`), its last only when code precedes its end (not a lone `}`)."""
    start, end = int(block.group("start")), int(block.group("end"))
    lines = list(range(start, end + 1))

    def text(line: int) -> str:
        return source[line - 1] if 0 < line <= len(source) else ""

    if start < end and not text(start)[int(block.group("scol")) - 1 :].strip(" \t{"):
        lines.remove(start)
    if start < end and not text(end)[: int(block.group("ecol")) - 1].strip(" \t}"):
        lines.remove(end)
    return lines


@dataclass
class NodeRecorder:
    """An instrument for a `node --test` run: V8's block coverage (NODE_V8_COVERAGE) of the tests `names` selects."""

    root: Path
    names: list[str]
    lines: set[Line] = field(default_factory=set)

    def prepare(self, plan: RunPlan, workdir: Path) -> RunPlan:
        argv = list(plan.command.argv)
        tokens = shlex.split(argv[2]) if argv[:2] == ["bash", "-c"] else argv
        pattern = name_pattern(self.names)
        tokens = [tokens[0], f"--test-name-pattern={pattern}", *tokens[1:]]
        new_argv = (*argv[:2], shlex.join(tokens)) if argv[:2] == ["bash", "-c"] else tuple(tokens)
        env = {**plan.command.env, "NODE_V8_COVERAGE": str(workdir / "v8")}
        return replace(plan, command=replace(plan.command, argv=new_argv, env=env))

    def collect(self, plan: RunPlan, workdir: Path) -> None:
        root = self.root.resolve()
        for report in sorted((workdir / "v8").glob("*.json")):
            try:
                scripts = json.loads(report.read_text(encoding="utf-8")).get("result", [])
            except (OSError, ValueError, AttributeError):
                continue
            for script in scripts if isinstance(scripts, list) else []:
                url = str(script.get("url", ""))
                rel = _relative(url.removeprefix("file://"), root) if url.startswith("file://") else None
                if rel is None or is_test_file(rel) or "node_modules/" in rel:
                    continue
                source = (root / rel).read_text(encoding="utf-8", errors="replace")
                ranges = [r for f in script.get("functions", []) for r in f.get("ranges", [])]
                self.lines.update((rel, line) for line in _executed_lines(source, ranges))


def _executed_lines(source: str, ranges: list[dict[str, int]]) -> list[int]:
    """The lines whose first code character lies in a range V8 counted as run (the innermost range decides)."""
    executed: list[int] = []
    offset = 0
    for number, line in enumerate(source.splitlines(keepends=True), start=1):
        code = line.strip()
        if code and code.strip("{}();"):
            at = offset + len(line) - len(line.lstrip())
            inside = [r for r in ranges if r.get("startOffset", 0) <= at < r.get("endOffset", 0)]
            if inside and min(inside, key=lambda r: r["endOffset"] - r["startOffset"]).get("count", 0) > 0:
                executed.append(number)
        offset += len(line)
    return executed


def _relative(file: str, root: Path) -> str | None:
    try:
        path = Path(file).resolve()
    except (OSError, ValueError):
        return None
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else None


def _neighbourhood(failing: Iterable[str], passing: Iterable[str]) -> list[str]:
    """The failing test ids, and the passing ones in the same files."""
    files = {test.split("::")[0] for test in failing}
    return sorted({*failing, *(test for test in passing if test.split("::")[0] in files)})


def go_names(test_ids: Iterable[str]) -> list[str]:
    """The top-level Go test names of report ids (`pkg.TestName/sub` → `TestName`)."""
    names = (_GO_TEST_NAME.search(test_id) for test_id in test_ids)
    return sorted({name.group(1) for name in names if name is not None})[:_MAX_GO_NAMES]


def matches(context: str, test_id: str) -> bool:
    """Whether a recorded context (pytest's node id) is the report's test id, allowing for a different rootdir."""
    return context == test_id or context.endswith("/" + test_id) or test_id.endswith("/" + context)


def measure(
    tests: ProjectTests,
    start: TestRun,
    failing: frozenset[str],
    candidates: CandidateRuns | None = None,
    *,
    limit_s: float | None = None,
) -> Spectrum | None:
    """The spectrum of the tests `start` ran, with `failing` as the failing ones; None when the runner is one pedro
    cannot record coverage for, or nothing was recorded (within `limit_s`, for pytest). Through `candidates` a
    pytest run is recorded in the warm pytest the candidates use, where it serves."""
    report = start.report
    if report is None or not failing or not report.names_tests:
        return None
    began = time.monotonic()
    passing: Sequence[str]
    per_test = report.runner in ("pytest", UNITTEST_RUNNER)
    if per_test:
        covered, passing = _per_test_coverage(tests, start, failing, candidates, limit_s)
        runs = 1
    elif report.runner in ("go test", NODE_RUNNER):
        covered, runs = _grouped_coverage(tests, report.runner, failing, frozenset(report.passing))
        failing, passing = frozenset({"failing"}), ["passing"]
    else:
        return None
    scores = ochiai(covered, failing, passing)
    if not any(scores.values()):
        return None
    failed = frozenset(failing) & set(covered)
    singly = {test: frozenset(lines) for test, lines in covered.items()} if per_test else {}
    return Spectrum(
        scores, len(failed), len(covered) - len(failed), time.monotonic() - began, runs, singly, frozenset(failed)
    )


def _per_test_coverage(
    tests: ProjectTests, start: TestRun, failing: frozenset[str], candidates: CandidateRuns | None,
    limit_s: float | None,
) -> tuple[dict[str, set[Line]], Sequence[str]]:  # fmt: skip
    """The lines each test ran, recorded by pytest or unittest, and the passing tests they are contrasted with."""
    report = start.report
    assert report is not None
    python = PytestRecorder(tests.ctx.root) if report.runner == "pytest" else UnittestRecorder(tests.ctx.root)
    passing: Sequence[str] = report.passing
    # The failing tests and those beside them in their files: enough passing tests to contrast with, never the
    # whole suite of a large project. When the command names single tests, their files run whole, so that the
    # tests it leaves out still tell the lines every test runs from the lines only the failing ones run.
    containers = named_containers(start, tests.command)
    only = containers or _neighbourhood(failing, report.passing)
    recorded = (
        candidates.recorded(only, python, limit_s=limit_s)
        if candidates is not None
        else tests.run(instrument=python, only=only, timeout=limit_s)
    )
    if recorded.result.outcome == "timeout":
        return {}, passing
    if containers and recorded.report is not None:
        passing = [test for test in recorded.report.passing if test not in failing]
    covered: dict[str, set[Line]] = {}
    for context, lines in python.covered.items():
        test = next((t for t in (*failing, *passing) if matches(context, t)), None)
        if test is not None:
            covered.setdefault(test, set()).update(lines)
    return covered, passing


def _grouped_coverage(
    tests: ProjectTests, runner: str, failing: frozenset[str], passing: frozenset[str]
) -> tuple[dict[str, set[Line]], int]:
    """The lines the failing tests ran together and the passing ones together (Go, node: no per-test record), and
    how many runs it took."""
    covered: dict[str, set[Line]] = {}
    runs = 0
    for group, ids in (("failing", failing), ("passing", passing)):
        recorder = (
            GoRecorder(tests.ctx.root, go_names(ids))
            if runner == "go test"
            else NodeRecorder(tests.ctx.root, sorted(ids))
        )
        if recorder.names:
            tests.run(instrument=recorder)
            covered[group] = recorder.lines
            runs += 1
    return covered, runs


def _with_lines(suspect: Suspect, lines: list[tuple[float, int]], got_nothing: bool) -> Suspect:
    """The suspect with its best lines (score, line) first, and raised where one returns the nothing the tests got."""
    # Coverage scores a straight run of lines alike. Of tied lines the later come first: a wrong value is most often
    # made where the result is put together, at the end of the run, while a slip in a guard at its start is the kind
    # of one-token change the variants try on every line anyway.
    best = sorted(lines, key=lambda item: (-item[0], -item[1]))[:_LINES_PER_UNIT]
    origin = _origin(suspect.unit, lines) if got_nothing else None
    if origin is None:
        return replace(suspect, lines=tuple(line for _, line in best))
    best = [origin, *(item for item in best if item != origin)][:_LINES_PER_UNIT]
    bonus = _ORIGIN_BONUS if origin[0] == suspect.score else 0.0
    return replace(suspect, lines=tuple(line for _, line in best), score=suspect.score + bonus)


def _origin(unit: Unit, lines: list[tuple[float, int]]) -> tuple[float, int] | None:
    """Of a unit's ranked lines, the best-scored one that returns nothing (the later of ties), or None."""
    rows = unit.text.splitlines()
    found = [
        (score, line)
        for score, line in lines
        if 0 <= line - unit.start_line < len(rows) and returns_nothing(rows[line - unit.start_line])
    ]
    return max(found, default=None)


@dataclass(frozen=True)
class Suspect:
    """A unit to ask about, its most suspicious lines (file lines, best first) and its rank score."""

    unit: Unit
    lines: tuple[int, ...]
    score: float


def suspects(
    spectrum: Spectrum | None, located: list[Unit], root: Path, tests: Iterable[str], limit: int,
    *, got_nothing: bool = False,
) -> list[Suspect]:  # fmt: skip
    """The units to ask about, best first: the functions around the top-ranked lines, across files, with the units
    the traceback points at raised a little (the deepest frame most), then the traceback's units coverage missed.
    Where the failing tests `got_nothing` (None, undefined), a line that returns nothing is where it came from."""
    found: dict[tuple[str, str, int], Suspect] = {}
    scored: dict[tuple[str, str, int], list[tuple[float, int]]] = {}
    wanted = tuple(tests)
    for path, line, score in (spectrum.ranked() if spectrum is not None else [])[:_MAX_RANKED_LINES]:
        unit = enclosing_unit(root, path, line)
        if unit is None:
            continue  # a module-level line: nothing to ask for
        if unit.key not in found:
            found[unit.key] = Suspect(replace(unit, tests=wanted), (), score)
        scored.setdefault(unit.key, []).append((score, line))
    for key, lines in scored.items():
        found[key] = _with_lines(found[key], lines, got_nothing)
    # With no passing test to contrast with, every line the failing tests run scores alike (every test's setup, a
    # background thread's __init__): then the failure's own evidence ranks the units, coverage only their lines.
    evidence = _EVIDENCE_FIRST if spectrum is None or not spectrum.passing else 0.0
    for rank, unit in enumerate(located):
        bonus = (_FIRST_FRAME_BONUS if rank == 0 else _FRAME_BONUS) + evidence * (len(located) - rank)
        held = found.get(unit.key)
        found[unit.key] = replace(held, score=held.score + bonus) if held else Suspect(unit, (), bonus - 1)
    ranked = sorted(found.values(), key=lambda suspect: -suspect.score)
    return ranked[:limit]

"""What `pedro review` finds before any model is asked: the tests at the base and now (in a throwaway worktree of
the base), the linters the repository configures on the lines the change touches; and the model's findings held to
the same change."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from pedro import gitlayer
from pedro.changedlines import ChangedLines, changed_lines
from pedro.config import PedroConfig
from pedro.evidence import ProjectTests, TestStates, compare, count
from pedro.findings import Finding
from pedro.linters import configured_linters, run_linter
from pedro.safety.paths import resolve_inside
from pedro.tools.base import ToolContext
from pedro.tools.test import TEST_DEPENDENCIES, TestRun

Notice = Callable[[str], None]
_MESSAGE_CHARS = 300


@dataclass
class ReviewChecks:
    """The change's lines and what the checks found on them, numbered; merges the model's findings in."""

    root: Path
    changed: ChangedLines
    findings: list[Finding] = field(default_factory=list)
    test_command: str | None = None
    """The command the tests ran with ([agent].test_command), None for the detected runner."""

    def merge(self, model: list[Finding]) -> list[Finding]:
        """The checks' findings, then the model's, each held to the change; one finding per location (a check's
        wins), numbered from 1."""
        merged = list(self.findings)
        taken = {finding.location for finding in merged if finding.line is not None}
        for finding in model:
            held = self.anchor(finding)
            if held.line is not None:
                if held.location in taken:
                    continue
                taken.add(held.location)
            merged.append(held)
        return [replace(finding, number=number) for number, finding in enumerate(merged, 1)]

    def anchor(self, finding: Finding) -> Finding:
        """A model's finding, marked anchored when its file is part of the change and its line is one the change
        adds or rewrites; else it says why not (no such line, outside the change, no file named)."""
        model = replace(finding, origin="model", anchored=False, note="")
        if not finding.path:
            return replace(model, note="it names no file")
        path = self._path_of(finding.path)
        if path is None:
            return replace(model, note=f"{finding.path} is not a file of the repository")
        model = replace(model, path=path)
        if path not in self.changed.lines:
            return replace(model, note=f"the change does not touch {path}")
        if finding.line is None:
            return replace(model, anchored=True)
        lines = _line_count(self.root / path)
        if not 1 <= finding.line <= lines:
            return replace(model, note=f"{path} has no line {finding.line}; it has {lines}")
        if not self.changed.touches(path, finding.line):
            return replace(model, note=f"the change does not touch {path}:{finding.line}")
        return replace(model, anchored=True)

    def _path_of(self, given: str) -> str | None:
        """The repository path the model meant: as written, without `./` or the root's absolute prefix, or the one
        changed file it is the tail of (small models drop folders); None when no such file is in the repository."""
        root = self.root.resolve()
        name = given.strip().replace("\\", "/")
        full = Path(name) if Path(name).is_absolute() else root / name.removeprefix("./")
        inside = resolve_inside(root, Path(os.path.normpath(full)))
        if inside is not None and inside.is_file():
            return inside.relative_to(root).as_posix()
        tails = [path for path in self.changed.files if path.endswith("/" + name.removeprefix("./"))]
        return tails[0] if len(tails) == 1 else None


MayRun = Callable[[str], str]
"""A command the checks would run (the repository's tests, its linters) -> "" when it may run, else why not."""


def run_checks(root: Path, base: str, config: PedroConfig, notice: Notice, may_run: MayRun) -> ReviewChecks:
    """The tests at `base` and now, then each configured and installed linter on the changed files; findings only
    for tests the change broke and messages on changed lines. Each step says what it ran in a notice, and what
    `may_run` refused (they run the repository's own code: without a sandbox, only as the person allows)."""
    changed = changed_lines(root, base)
    ctx = ToolContext(root=root, config=config.tools)
    found = _test_findings(root, base, config, ctx, notice, may_run)
    found += _lint_findings(root, changed, ctx, notice, may_run)
    numbered = [replace(finding, number=number) for number, finding in enumerate(found, 1)]
    return ReviewChecks(root, changed, numbered, config.agent.test_command.strip() or None)


def _test_findings(
    root: Path, base: str, config: PedroConfig, ctx: ToolContext, notice: Notice, may_run: MayRun
) -> list[Finding]:
    from pedro.evidence import find_test_command

    args = find_test_command(root, None, config.agent.test_command)
    if args is None:
        notice("checks: no test command is known ([agent].test_command or a detected runner): no tests run")
        return []
    now = ProjectTests(args, ctx)
    refused = may_run(now.command.removesuffix(", detected"))
    if refused:
        notice(f"checks: {now.named} was not run: {refused}")
        return []
    notice(f"checks: running {now.named} at the base ({base[:7]}, in a throwaway worktree) and on the change")
    try:
        with gitlayer.scratch_worktree(root, base, borrow=TEST_DEPENDENCIES) as tree:
            before = ProjectTests(args, ToolContext(root=tree, config=config.tools)).run()
    except gitlayer.GitError as exc:
        notice(f"checks: the tests were not compared with the base: {exc}")
        return []
    after = now.run()
    was, is_ = TestStates.of(before), TestStates.of(after)
    if was is None or is_ is None:
        if before.passed and not after.passed:
            notice(f"checks: {now.named} passes at the base and fails on the change")
            return [_command_finding(now.command, after)]
        state = "passes" if after.passed else "fails"
        notice(f"checks: {now.named} {state} on the change; it names no tests, so none is compared with the base")
        return []
    verdict = compare(was, is_)
    broken, added = verdict.named("broken"), verdict.named("added_failing")
    still = verdict.named("still_failing")
    said = (
        f"checks: {now.named}: {count(len(broken), 'test')} the change broke, {count(len(added), 'new test')} failing"
    )
    notice(said + (f"; {len(still)} failing at the base too, not counted" if still else ""))
    return _failing_test_findings(broken, added, after)


def _failing_test_findings(broken: list[str], added: list[str], after: TestRun) -> list[Finding]:
    """A finding for each test the change broke or added failing, with where it failed and its message."""
    failures = {failure.test_id: failure for failure in (after.report.failures if after.report else [])}
    found = []
    for test in [*broken, *added]:
        failure = failures.get(test)
        path, line = _location(failure.location if failure else "")
        why = "passes at the base and fails on the change" if test in broken else "is new and fails"
        message = _first_line(failure.message if failure else "")
        text = f"{test} {why}" + (f": {message}" if message else "")
        found.append(Finding(0, "major", text, path, line, "tool", test, True, test=test))
    return found


def _command_finding(command: str, run: TestRun) -> Finding:
    failing = sorted(run.failing)
    text = f"`{command}` passes at the base and fails on the change" + (f": {failing[0]}" if failing else "")
    return Finding(0, "major", text, origin="tool", source=command, anchored=True)


def _lint_findings(
    root: Path, changed: ChangedLines, ctx: ToolContext, notice: Notice, may_run: MayRun
) -> list[Finding]:
    ready, missing = configured_linters(root, ctx.env)
    for name in missing:
        notice(f"checks: the repository configures {name}, which is not installed: skipped")
    files = [path for path, lines in changed.lines.items() if lines]
    found: list[Finding] = []
    for linter, program in ready:
        refused = may_run(shlex.join(linter.argv(program, [])))
        if refused:
            notice(f"checks: {linter.name} ({program}) was not run: {refused}")
            continue
        run = run_linter(linter, program, root, files, ctx.env, ctx.config.test_timeout)
        if run.problem:
            notice(f"checks: {linter.name} could not check the change: {run.problem}")
            continue
        kept = [message for message in run.messages if changed.touches(message.path, message.line)]
        left = len(run.messages) - len(kept)
        notice(
            f"checks: {linter.name}: {count(len(kept), 'message')} on changed lines"
            + (f" ({left} on lines the change does not touch, left out)" if left else "")
        )
        for message in kept:
            text = _first_line(message.message)
            found.append(Finding(0, message.severity, text, message.path, message.line, "tool", message.source, True))
    return found


def _location(location: str) -> tuple[str, int | None]:
    path, _, line = location.rpartition(":")
    if path and line.isdigit():
        return path, int(line)
    return location, None


def _first_line(text: str) -> str:
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first[:_MESSAGE_CHARS]


def _line_count(path: Path) -> int:
    try:
        data = path.read_bytes()
    except OSError:
        return 0
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)

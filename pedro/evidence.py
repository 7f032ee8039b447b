"""The job's test command, run by pedro itself: the evidence a builder or debugger needs to complete."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pedro.process import ChildResult
from pedro.tools.base import ToolContext, ToolFailure
from pedro.tools.test import RunTestsArgs, TestRun, detect_framework, run_tests


@dataclass(frozen=True)
class ProjectTests:
    """Runs one test command (or the detected runner) the same way every time it is asked."""

    args: RunTestsArgs
    ctx: ToolContext

    @property
    def command(self) -> str:
        return self.args.command or "the detected test runner"

    def run(self) -> TestRun:
        """One run in the sandbox, without the network; a command that cannot start is a failed run, never a crash."""
        try:
            return run_tests(self.args, self.ctx)
        except ToolFailure as exc:
            result = ChildResult(
                outcome="exited", exit_code=None, output="", total_bytes=0, cut_bytes=0, duration_s=0.0
            )
            return TestRun(f"{self.command}: {exc}", None, result, self.command)


def find_test_command(root: Path, given: str | None, configured: str) -> RunTestsArgs | None:
    """The job's test command: the one given (--test), else [agent].test_command, else the detected runner."""
    for command in (given, configured):
        if command and command.strip():
            return RunTestsArgs(command=command.strip())
    return RunTestsArgs() if detect_framework(root, root) is not None else None


def describe_test_run(run: TestRun, phase: str, command: str) -> dict[str, Any]:
    """A test run as the data of a `tests.run` event."""
    report = run.report
    return {
        "phase": phase,
        "command": command,
        "passed": run.passed,
        "exit_code": run.result.exit_code,
        "counts": {
            "passed": report.passed if report else 0,
            "failed": report.failed if report else 0,
            "errors": report.errors if report else 0,
        },
        "failing": sorted(run.failing),
        "output": run.summary,
    }

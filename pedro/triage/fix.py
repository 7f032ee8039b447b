"""A verified fix for the triage report: test-driven repair in a throwaway git worktree of the checkout, kept only
when the tests there confirm it (the failing tests pass, none that passed fails)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pedro import gitlayer
from pedro.config import PedroConfig
from pedro.deadline import NO_DEADLINE, Deadline
from pedro.errors import PedroError
from pedro.tools.test import TEST_DEPENDENCIES, Framework

Notice = Callable[[str], None]


@dataclass(frozen=True)
class VerifiedFix:
    """A patch the model wrote and the tests confirmed, as a unified diff that `git apply` takes in the checkout."""

    diff: str
    test_command: str
    failing_before: int
    failing_after: int
    test_named: str = ""
    """The command as a sentence names it: `make test` in backticks, or "pytest, detected"."""

    @property
    def verdict(self) -> str:
        return (
            f"verified: {self.test_named or self.test_command} passes with this patch; "
            f"{self.failing_before} failing → {self.failing_after}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "diff": self.diff,
            "test_command": self.test_command,
            "failing_before": self.failing_before,
            "failing_after": self.failing_after,
            "verified": True,
            "source": "model",
        }


# The runner a log came from → the framework pedro runs it with (pedro.tools.test.Framework).
_FRAMEWORKS: dict[str, Framework] = {
    "pytest": "pytest", "unittest": "pytest", "go test": "go", "jest": "npm", "vitest": "npm", "mocha": "npm",
    "node --test": "npm",
}  # fmt: skip
# A command line a CI log echoes (`$ pytest -q`, `+ go test ./...`, `Run npm test`): the runner and plain words
# only, never a shell construct, since the log is untrusted text.
_ECHOED = re.compile(
    r"^(?:\$|\+|>|Run)\s+(?P<command>(?:python3? -m (?:pytest|unittest)|pytest|go test|npm test|npx (?:jest|vitest)|"
    r"node --test)(?: [\w./:=@,+-]+)*)\s*$",
    re.MULTILINE,
)


def log_test_command(log: str, runner: str) -> str | None:
    """The test command the log shows it ran, when it shows one for the runner whose output it holds."""
    wanted = _FRAMEWORKS.get(runner)
    for found in _ECHOED.finditer(log):
        command = found.group("command")
        head = "npm" if command.startswith(("npm", "npx", "node")) else "go" if command.startswith("go") else "pytest"
        if head == wanted:
            return command
    return None


@dataclass(frozen=True)
class FixModel:
    """What a fix is asked with: pedro's configuration, the job's model and its options, and where notices go."""

    config: PedroConfig
    backend: Any
    options: Any
    notice: Notice
    deadline: Deadline = NO_DEADLINE
    """The triage job's: repair's search, and a hung test command's first run, end in time before it."""


def propose_fix(root: Path, snapshot: str, model: FixModel, *, runner: str = "", log: str = "") -> VerifiedFix | None:
    """Repair in a worktree of the `snapshot` commit (the checkout as the job found it), then remove the worktree;
    the fix when the tests confirm it, else None (and a notice says why). The checkout is never written. The tests
    are those of the `runner` whose output the `log` holds: the command the log shows, else that runner's, unless
    [agent].test_command names one."""
    from pedro.evidence import ProjectTests, find_test_command
    from pedro.tools.test import RunTestsArgs

    config, notice = model.config, model.notice
    args = find_test_command(root, log_test_command(log, runner) if runner else None, config.agent.test_command)
    framework = _FRAMEWORKS.get(runner)
    if framework is not None and (args is None or not args.command):
        args = RunTestsArgs(framework=framework)
    if args is None:
        notice("no fix proposed: no test command is known ([agent].test_command or a detected runner)")
        return None
    try:
        with gitlayer.scratch_worktree(root, snapshot, borrow=TEST_DEPENDENCIES) as tree:
            return _repair(tree, ProjectTests(args, _context(tree, config)), model)
    except KeyboardInterrupt:  # the job's time limit (TimeLimitReached) or Ctrl-C: no fix, the report is written
        notice("no fix proposed: stopped before a candidate was verified")
        return None
    except PedroError as exc:  # the server went away, git refused: the diagnosis stands without a fix
        notice(f"no fix proposed: {exc}")
        return None


def _context(tree: Path, config: PedroConfig) -> Any:
    from pedro.tools.base import ToolContext

    return ToolContext(root=tree, config=config.tools)


def _repair(tree: Path, tests: Any, model: FixModel) -> VerifiedFix | None:
    from pedro.dispatch import Dispatcher
    from pedro.gate import Gate
    from pedro.repair import Repairer
    from pedro.safety.policy import Policy
    from pedro.safety.sandbox import active_sandbox
    from pedro.safety.secrets import Redactor
    from pedro.tools import ToolRegistry

    notice = model.notice
    gate = Gate(Policy(mode="workspace-write", approval="never"), sandboxed=active_sandbox().kind != "none")
    redactor = Redactor.for_job(os.environ, tree)
    dispatcher = Dispatcher(ToolRegistry.default(("code_edit",)), tests.ctx, redactor=redactor, gate=gate)
    repairer = Repairer(
        backend=model.backend, dispatcher=dispatcher, tests=tests, config=model.config.repair, options=model.options
    )
    with repairer.warming():  # the warm pytest's imports cost as much as the baseline's run: beside it, not after
        start = repairer.baseline(_quiet, model.deadline)
        if start.passed or not start.failing:
            notice(f"no fix proposed: {tests.named} does not fail by test name in a clean worktree of this checkout")
            return None
        notice(f"trying a fix in a throwaway worktree: {len(start.failing)} failing under {tests.named}")
        outcome = repairer.run(_quiet, start=start, deadline=model.deadline)
    after = outcome.last_run
    diff = _diff(tree) if outcome.fixed and after is not None else ""
    if not diff or after is None:
        notice(f"no fix proposed: {outcome.summary or 'repair found nothing to change'}")
        return None
    fix = VerifiedFix(diff, tests.command, len(start.failing), len(after.failing), tests.named)
    notice(fix.verdict)
    return fix


def _quiet(_type: str, *, persist: bool = True, **_data: Any) -> None:
    """Repair's events: the notices above say what matters; the trace of the triage job ended with its loop."""


def _diff(tree: Path) -> str:
    result = gitlayer.run(
        tree, "diff", "--no-ext-diff", "--no-textconv", "--no-color", "--src-prefix=a/", "--dst-prefix=b/", "HEAD"
    )
    return result.out if result.ok else ""

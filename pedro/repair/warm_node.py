"""A warm node for repair's candidates under `node --test`: one node process, each run's test files in worker
threads of its own (warm_node.js), in place of two node processes and a sandbox per candidate."""

from __future__ import annotations

import json
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pedro.evidence import ProjectTests
from pedro.process import ChildCommand
from pedro.repair.warm_server import WarmServer, warm_test_run
from pedro.tools.test import RunInstrument, RunPlan, TestRun, name_pattern, plan_test_run

_SERVER_SOURCE = Path(__file__).with_name("warm_node.js")


@dataclass(frozen=True)
class NodeLaunch:
    """What the warm node starts from: node itself, what the command gives it, the planned run."""

    node: str
    args: tuple[str, ...]
    plan: RunPlan


def node_launch(tests: ProjectTests, workdir: Path) -> NodeLaunch | str:
    """node and the arguments of the project's `node --test` command, or why a warm node cannot run it (another
    runner, an option whose value is a word of its own, which cannot be told from a path to run)."""
    plan = plan_test_run(tests.args, tests.ctx, workdir)
    if plan.report_kind != "node-junit":
        return "the test runner is not node --test"
    argv = list(plan.command.argv)
    tokens = shlex.split(argv[2]) if argv[:2] == ["bash", "-c"] else argv
    # The test tool's own reporters (the command had none, or it would not be node-junit): the server sets its own.
    args = [arg for arg in tokens[1:] if not arg.startswith("--test-reporter")]
    odd = [arg for arg in args if arg.startswith("-") and arg != "--test" and "=" not in arg]
    if odd:
        return f"the test command gives node {odd[0]}, which a warm node does not take apart"
    node = shutil.which(tokens[0], path=plan.command.env.get("PATH"))
    if node is None:
        return f"{tokens[0]} cannot be found"
    return NodeLaunch(node, tuple(args), plan)


class WarmNode(WarmServer):
    """One node process for the whole repair, inside the sandbox, that runs each request's test files in workers."""

    name = "warm node"
    differs = "a test may need a process of its own"
    per_test_s: float | None = None
    """Set once the command hung: each test then runs alone, stopped at this limit (a failing test, TestHung)."""

    def __init__(self, launch: NodeLaunch, root: Path, workdir: Path) -> None:
        """Start it, and wait until it knows which files the command runs."""
        self.launch = launch
        script = workdir / "pedro_warm_node.js"
        shutil.copyfile(_SERVER_SOURCE, script)
        config = {"args": list(launch.args), "hook": str(workdir / "pedro_list_hook.js")}
        argv = (launch.node, str(script), json.dumps(config))
        super().__init__(ChildCommand(argv, launch.plan.command.cwd, launch.plan.command.env), root, workdir)
        self.cpu_limit_s: float | None = None
        """The CPU time a repeated run may use, once the original code's run of it was measured."""
        self.wait_ready()
        listed = (self.ready or {}).get("names")
        self.names: tuple[str, ...] = tuple(str(name) for name in listed) if isinstance(listed, list) else ()
        """The command's top-level tests, as node's runner names them (none where it did not list them)."""

    def serves(self, instrument: RunInstrument | None) -> bool:
        """Whether it can run with `instrument`: none (coverage and probes run the command itself)."""
        return instrument is None

    def run(
        self, ids: Sequence[str], *, timeout: float, instrument: RunInstrument | None = None, repeated: bool = False
    ) -> TestRun:
        """The tests `ids` (by name) on the code as it is on disk now, each file in a fresh worker."""
        if instrument is not None:
            raise OSError("the warm node runs no instrument")
        folder = self.new_folder()
        pattern = name_pattern(ids)
        request = {
            "pattern": pattern,
            "timeout": timeout,
            "workdir": str(folder),
            "cpu_limit_s": self.cpu_limit_s if repeated else None,
            "per_test_s": self.per_test_s,
            "names": list(ids),
        }
        answer = self.ask(request, timeout)
        plan = replace(self.launch.plan, label="node --test")
        command = shlex.join(["node", "--test", f"--test-name-pattern={pattern}"])
        return warm_test_run(plan, folder, answer, timeout, command)

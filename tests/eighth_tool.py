"""A tool pedro does not ship, for the tests: it runs a command line in the sandbox, as its Effects say. It joins
pedro as a new tool would: this module, its prompt files (eighth_tool_prompts/) and one line in pedro.tooltable
(which the tests set with monkeypatch.setitem)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from pedro.effects import Effects
from pedro.process import ChildCommand, child_env, run_child
from pedro.safety.sandbox import wrap
from pedro.tools.base import ToolArgs, ToolContext


class ShellArgs(ToolArgs):
    line: str


class ShellTool:
    name: ClassVar[str] = "shell"
    Args: ClassVar[type[ToolArgs]] = ShellArgs
    prompts: ClassVar[Path] = Path(__file__).resolve().parent / "eighth_tool_prompts"

    def effects(self, args: Any) -> Effects:
        return Effects(command=args.line, runs_commands=True)

    def run(self, args: Any, ctx: ToolContext) -> str:
        command = ChildCommand(("sh", "-c", args.line), ctx.root, child_env(ctx.env, {}))
        result = run_child(wrap(command, root=ctx.root, kind="bash"), timeout=30)
        return f"exit code {result.exit_code}\n{result.output}".rstrip()

"""A tool pedro does not ship, for the tests: it runs a command line, as its Effects say."""

from __future__ import annotations

from typing import Any, ClassVar

from pedro.effects import Effects
from pedro.tools.base import ToolArgs, ToolContext


class ShellArgs(ToolArgs):
    line: str


class ShellTool:
    name: ClassVar[str] = "shell"
    Args: ClassVar[type[ToolArgs]] = ShellArgs

    def effects(self, args: Any) -> Effects:
        return Effects(command=args.line, runs_commands=True)

    def run(self, args: Any, ctx: ToolContext) -> str:
        return "exit code 0"

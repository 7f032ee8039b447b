"""The policy in front of the tools: turns a validated call into a policy action, then allows, asks or refuses."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pedro.safety.policy import Action, BashCommand, FileDelete, FileWrite, Policy
from pedro.tools.base import ToolContext, ToolDeniedError, ToolFailure


@dataclass
class Gate:
    """Decides each call before it runs; `sandboxed` says whether bash and test children are confined."""

    policy: Policy
    sandboxed: bool

    def check(self, name: str, args: Any, ctx: ToolContext) -> None:
        """Return when the call may run; raise ToolDeniedError with the reason (for the model) when it may not."""
        action = self._action(name, args, ctx)
        if action is None:
            return
        decision = self.policy.decide(action)
        if decision.verdict == "allow":
            return
        if decision.verdict == "ask" and ctx.approve(f"{decision.reason}\n    {_subject(action)}"):
            return
        refused = "the user declined" if decision.verdict == "ask" else "refused by pedro's safety policy"
        raise ToolDeniedError(f"{refused}: {decision.reason}")

    def _action(self, name: str, args: Any, ctx: ToolContext) -> Action | None:
        if name == "bash":
            return BashCommand(str(args.command), sandboxed=self.sandboxed)
        if name == "test" and getattr(args, "command", None):
            return BashCommand(str(args.command), sandboxed=self.sandboxed)
        if name in ("file", "code_edit"):
            action = getattr(args, "action", None)
            path = _confined(ctx, getattr(args, "path", None))
            if path is None:
                return None  # the tool reports the bad path itself
            if name == "file" and action == "delete":
                return FileDelete(ctx.rel(path), recoverable=_committed_unchanged(ctx.root, path))
            if name == "code_edit" or action == "write":
                return FileWrite(ctx.rel(path))
        return None


def _subject(action: Action) -> str:
    if isinstance(action, BashCommand):
        return action.command
    return getattr(action, "path", "")


def _confined(ctx: ToolContext, raw: object) -> Path | None:
    if not isinstance(raw, str):
        return None
    try:
        return ctx.resolve(raw)
    except ToolFailure:
        return None


def _committed_unchanged(root: Path, path: Path) -> bool:
    """Whether the file is tracked and identical to HEAD, so git alone can bring it back."""
    rel = str(path.relative_to(root))
    try:
        tracked = subprocess.run(
            ["git", "-C", str(root), "ls-files", "--error-unmatch", "--", rel],
            capture_output=True,
            timeout=30,
            check=False,
        )
        if tracked.returncode != 0:
            return False
        diff = subprocess.run(
            ["git", "-C", str(root), "diff", "--quiet", "HEAD", "--", rel], capture_output=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return diff.returncode == 0

"""The policy in front of the tools: turns a validated call into a policy action, then allows, asks or refuses."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pedro import gitlayer
from pedro.effects import Effects
from pedro.safety.credreads import credential_read
from pedro.safety.policy import (
    Action,
    BashCommand,
    Decision,
    ExternalTool,
    FileDelete,
    FileRead,
    FileWrite,
    NetworkAccess,
    Policy,
)
from pedro.tools.base import (
    NO_GRANTS,
    ApprovalRequest,
    Grants,
    NetworkAnswer,
    ToolContext,
    ToolDeniedError,
    ToolFailure,
)


@dataclass
class Gate:
    """Decides each call before it runs; `sandboxed` says whether bash and test children are confined."""

    policy: Policy
    sandboxed: bool

    def check(self, effects: Effects, ctx: ToolContext) -> Grants:
        """What a call with these effects is granted when it may run; ToolDeniedError with the reason (for the model)
        when it may not."""
        action = self._action(effects, ctx)
        if action is None:
            return NO_GRANTS
        decision = self.policy.decide(action)
        if decision.verdict == "allow" or (decision.verdict == "ask" and self.ask(action, decision, ctx)):
            return self._grant(action)
        if isinstance(action, FileRead):
            return NO_GRANTS  # not granted: the tool refuses the outside path itself, in its own words
        refused = "the user declined" if decision.verdict == "ask" else "refused by pedro's safety policy"
        raise ToolDeniedError(f"{refused}: {decision.reason}")

    def ask(self, action: Action, decision: Decision, ctx: ToolContext) -> bool:
        """Put one ask-class action to the person; "always" is remembered for the session where the class allows."""
        rememberable = decision.key is not None
        question = ApprovalRequest(
            kind="action",
            subject=_subject(action),
            risk=decision.reason,
            rememberable=rememberable,
            never_always="" if rememberable else "actions of this kind are asked every time, never remembered",
        )
        answer = ctx.request(question)
        if answer == "always":
            self.policy.remember(action)
        return answer in ("yes", "always")

    def approve_network(self, command: str, ctx: ToolContext) -> NetworkAnswer:
        """Whether `command`, which failed for want of network, may run once more with the network on."""
        action = NetworkAccess(command)
        decision = self.policy.decide(action)
        if decision.verdict == "allow":
            return "approved"
        if decision.verdict == "deny":
            return "unavailable"
        question = ApprovalRequest(
            kind="network",
            subject=command,
            risk=decision.reason,
            rememberable=decision.key is not None,
        )
        answer = ctx.request(question)
        if answer == "always":
            self.policy.remember(action)
        return "approved" if answer in ("yes", "always") else "declined"

    def attach(self, ctx: ToolContext) -> None:
        """Let the tools in `ctx` ask this gate for the network after a failure."""
        ctx.approve_network = lambda command: self.approve_network(command, ctx)

    def _grant(self, action: Action) -> Grants:
        """What an allowed action brings with it: a granted outside read, or the network for a command."""
        if isinstance(action, FileRead) and action.outside:
            return Grants(reads=frozenset({Path(action.path)}))
        if isinstance(action, BashCommand) and self.policy.mode != "read-only":
            network = self.policy.decide(NetworkAccess(action.command))
            # Approving a command that plainly needs the network (pip install, git fetch) approves its network.
            return Grants(network=network.verdict == "allow" or _needs_network(action.command))
        return NO_GRANTS

    def _action(self, effects: Effects, ctx: ToolContext) -> Action | None:
        """The policy's view of a call: the command it runs, else the file it deletes or writes, else an outside
        read."""
        if effects.external:
            return ExternalTool(effects.external)
        if effects.command is not None:
            credentials = "" if self.sandboxed else credential_read(effects.command, root=ctx.root, env=ctx.env)
            return BashCommand(effects.command, sandboxed=self.sandboxed, reads_credentials=credentials or "")
        if effects.deletes or effects.writes:
            path = _confined(ctx, (*effects.deletes, *effects.writes)[0])
            if path is None:
                return None  # the tool reports the bad path itself
            if effects.deletes:
                return FileDelete(ctx.rel(path), recoverable=_committed_unchanged(ctx.root, path))
            return FileWrite(ctx.rel(path), outside=not path.is_relative_to(ctx.root))
        if effects.reads:
            return _outside_read(ctx, effects.reads[0])
        return None


def _needs_network(command: str) -> bool:
    from pedro.safety.commands import classify_command

    return classify_command(command).kind == "network"


def _subject(action: Action) -> str:
    if isinstance(action, BashCommand):
        return action.command
    if isinstance(action, NetworkAccess):
        return action.what
    if isinstance(action, ExternalTool):
        return action.name
    return getattr(action, "path", "")


def _outside_read(ctx: ToolContext, raw: object) -> FileRead | None:
    """A read of an absolute path outside the repository, for the policy's extra read roots; None otherwise."""
    if not isinstance(raw, str) or "\x00" in raw or not Path(raw.strip()).is_absolute():
        return None
    path = Path(raw.strip()).resolve()
    if path == ctx.root or path.is_relative_to(ctx.root):
        return None
    return FileRead(str(path), outside=True)


def _confined(ctx: ToolContext, raw: object) -> Path | None:
    if not isinstance(raw, str):
        return None
    try:
        return ctx.resolve(raw)
    except ToolFailure:
        return None


def _committed_unchanged(root: Path, path: Path) -> bool:
    """Whether the file is tracked and identical to HEAD, so git alone can bring it back."""
    if not path.is_relative_to(root):
        return False
    rel = str(path.relative_to(root))
    try:
        if not gitlayer.run(root, "ls-files", "--error-unmatch", "--", rel, timeout=30).ok:
            return False
        return gitlayer.run(root, "diff", "--quiet", "--no-ext-diff", "--no-textconv", "HEAD", "--", rel, timeout=30).ok
    except gitlayer.GitError:
        return False

"""The allow / ask / deny table of safety.md §1: one decision per action, tightened never loosened by a repository."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from typing import Literal

from pedro.config import SafetyConfig, SafetyMode, config_default
from pedro.safety.commands import CommandVerdict, classify_command
from pedro.safety.gitcommands import GitVerdict, classify_git_args
from pedro.safety.secretfiles import is_secret_path

ApprovalMode = Literal["ask", "never"]
Verdict = Literal["allow", "ask", "deny"]
RuleKind = Literal["read", "write", "delete", "bash", "git", "network", "tool"]

_MODE_ORDER: dict[str, int] = {"read-only": 0, "workspace-write": 1, "full-access": 2}
_VERDICT_ORDER: dict[str, int] = {"allow": 0, "ask": 1, "deny": 2}


@dataclass(frozen=True)
class FileRead:
    """Read, search or list a path; `path` is relative to the root, or absolute when `outside` is true."""

    path: str
    outside: bool = False


@dataclass(frozen=True)
class FileWrite:
    """Create or change a file; `outside` also covers symlinks that lead out of the repository."""

    path: str
    outside: bool = False


@dataclass(frozen=True)
class FileDelete:
    """Delete a file; `recoverable` when it is tracked and committed or held in a snapshot."""

    path: str
    recoverable: bool = False
    outside: bool = False


@dataclass(frozen=True)
class BashCommand:
    """Run a shell command; `sandboxed` when bubblewrap or Landlock confines it."""

    command: str
    sandboxed: bool = True
    reads_credentials: str = ""
    """Why the command may read a credential store or a process's environment (credreads.py), when it may."""


@dataclass(frozen=True)
class GitAction:
    """Run pedro's git tool with a fixed argv (without `git`); `on_job_branch` when HEAD is pedro/<job>."""

    args: tuple[str, ...]
    on_job_branch: bool = True


@dataclass(frozen=True)
class NetworkAccess:
    """Let one command reach the network (dependency install, fetch)."""

    what: str


@dataclass(frozen=True)
class ExternalTool:
    """Call a tool of another program (an MCP server's, NAME__tool), which cannot say what it does."""

    name: str


Action = FileRead | FileWrite | FileDelete | BashCommand | GitAction | NetworkAccess | ExternalTool


@dataclass(frozen=True)
class Decision:
    """What to do with an action and why, in words fit for the approval prompt and for the model.

    `rule` names the row of the table that decided (stable, for logs and tests); `key` identifies the action
    for "always allow" and is None when the action may never be remembered (destructive or denied classes).
    """

    verdict: Verdict
    reason: str
    rule: str
    key: str | None = None


@dataclass(frozen=True)
class Rule:
    """An extra rule from configuration: actions of `kind` whose subject matches the glob `pattern` get `verdict`."""

    kind: RuleKind
    pattern: str
    verdict: Verdict


@dataclass(frozen=True)
class RepoPolicy:
    """What a repository's own config asks for; `tighten` keeps only the parts that make the policy stricter."""

    mode: SafetyMode | None = None
    approval: ApprovalMode | None = None
    rules: tuple[Rule, ...] = ()


# Project dotfiles that run nothing and that models edit routinely; every other dotfile asks.
_ORDINARY_DOTFILES = frozenset(
    {".gitignore", ".dockerignore", ".editorconfig", ".gitkeep", ".gitattributes", ".prettierrc", ".prettierignore"}
    | {".eslintignore", ".flake8", ".pylintrc", ".python-version", ".nvmrc", ".node-version", ".clang-format"}
    | {".clang-tidy", ".markdownlint.json", ".yamllint", ".golangci.yml", ".golangci.yaml", ".rustfmt.toml"}
)
HOOK_DIRS = (".husky", ".githooks")
"""Folders that hold git hooks by convention (core.hooksPath points there): code that runs on every commit."""
_PROTECTED_DIRS = (".git", ".pedro", *HOOK_DIRS)


def protected_reason(path: str) -> str | None:
    """Why writing `path` needs approval (git internals, pedro state, CI workflows, hooks, dotfiles), or None."""
    parts = _parts(path)
    if not parts:
        return None
    if parts[0] in _PROTECTED_DIRS or ".git" in parts:
        return f"{path} is inside {parts[0] if parts[0] in _PROTECTED_DIRS else '.git'}/ (repository or pedro state)"
    if parts[0] == ".github" and len(parts) > 1 and parts[1] in ("workflows", "actions"):
        return f"{path} is a CI workflow, which runs with the repository's credentials"
    if is_secret_path(path):
        return f"{path} holds secrets"
    if parts[-1] == ".pre-commit-config.yaml":
        return f"{path} configures hooks that run on every commit"
    if _is_dotted(parts):
        return f"{path} is a dotfile or inside a dot-directory, where tools and shells read configuration"
    return None


def _is_dotted(parts: list[str]) -> bool:
    """Whether the path is a dotfile (other than the ordinary ones) or lies in a dot-directory other than .github."""
    dotted = [p for p in parts[:-1] if p.startswith(".") and p != ".github"]
    return bool(dotted) or (parts[-1].startswith(".") and parts[-1] not in _ORDINARY_DOTFILES)


def _parts(path: str) -> list[str]:
    return [p for p in posixpath.normpath(path.replace("\\", "/")).split("/") if p not in ("", ".")]


@dataclass
class Policy:
    """Decides allow / ask / deny for every action the model proposes.

    Evaluation is deny-first: forbidden classes, then configured deny and ask rules, then the table for the
    mode, then configured allow rules (which may turn an ask into an allow but never touch a destructive
    or denied class), then the session's "always allow" memory, and last the approval mode, which turns
    every remaining ask into a deny when nobody can answer.
    """

    mode: SafetyMode = config_default(SafetyConfig, "mode")
    approval: ApprovalMode = config_default(SafetyConfig, "approval")
    rules: tuple[Rule, ...] = ()
    read_roots: tuple[str, ...] = ()
    remembered: set[str] = field(default_factory=set)

    def decide(self, action: Action) -> Decision:
        """The decision for one action."""
        base, subject, hard = self._table(action)
        decision = self._apply_rules(base, action, subject, hard)
        if decision.verdict == "ask" and decision.key is not None and decision.key in self.remembered:
            return Decision("allow", f"approved earlier in this session: {decision.reason}", "remembered", decision.key)
        if decision.verdict == "ask" and self.approval == "never":
            return replace(
                decision,
                verdict="deny",
                reason=f"{decision.reason}; this needs approval and nobody can approve in this run (approval: never), "
                "so do it another way or leave it for the user and say so",
                key=None,
            )
        return decision

    def remember(self, action: Action) -> bool:
        """Remember an approved action for the session ("always allow"); False when its class can never be."""
        base, subject, hard = self._table(action)
        decision = self._apply_rules(base, action, subject, hard)
        if decision.verdict != "ask" or decision.key is None:
            return False
        self.remembered.add(decision.key)
        return True

    # -- the table ------------------------------------------------------------------------------------------------

    def _table(self, action: Action) -> tuple[Decision, str, bool]:
        """The built-in decision, the subject that rules match against, and whether rules may not loosen it."""
        if isinstance(action, FileRead):
            return self._read(action), action.path, False
        if isinstance(action, FileWrite):
            return self._write(action), action.path, False
        if isinstance(action, FileDelete):
            return self._delete(action), action.path, False
        if isinstance(action, BashCommand):
            decision, hard = self._bash(action)
            return decision, action.command, hard
        if isinstance(action, GitAction):
            decision, hard = self._git(action)
            return decision, " ".join(action.args), hard
        if isinstance(action, ExternalTool):
            return self._external(action), action.name, False
        return self._network(action), action.what, False

    def _read(self, action: FileRead) -> Decision:
        key = f"read:{action.path}"
        if action.outside:
            if any(_under(action.path, root) for root in self.read_roots) or self.mode == "full-access":
                return Decision("allow", f"{action.path} is in an extra read root", "read.extra_root", key)
            return Decision(
                "deny", f"{action.path} is outside the repository; tools only read inside it", "read.outside"
            )
        if is_secret_path(action.path) and self.mode != "full-access":
            return Decision("ask", f"{action.path} may hold secrets (keys, tokens, passwords)", "read.sensitive", key)
        return Decision("allow", "reading inside the repository", "read.inside", key)

    def _write(self, action: FileWrite) -> Decision:
        key = f"write:{action.path}"
        if self.mode == "read-only":
            return Decision(
                "deny", "read-only mode: files cannot be changed; report what should change instead", "mode.read_only"
            )
        if action.outside:
            return Decision(
                "deny", f"{action.path} is outside the repository; tools only write inside it", "write.outside"
            )
        reason = protected_reason(action.path)
        internal = _parts(action.path)[:1] in ([".git"], [".pedro"])
        if reason is not None and (self.mode != "full-access" or internal):
            return Decision("ask", f"writing {reason}", "write.protected", key)
        return Decision("allow", "writing inside the repository (a snapshot is taken first)", "write.inside", key)

    def _delete(self, action: FileDelete) -> Decision:
        key = f"delete:{action.path}"
        if self.mode == "read-only":
            return Decision("deny", "read-only mode: files cannot be deleted", "mode.read_only")
        if action.outside:
            return Decision(
                "deny", f"{action.path} is outside the repository; tools only delete inside it", "delete.outside"
            )
        reason = protected_reason(action.path)
        if reason is not None:
            return Decision("ask", f"deleting {reason}", "delete.protected", key)
        if not action.recoverable and self.mode != "full-access":
            return Decision(
                "ask",
                f"{action.path} is not committed or snapshotted, so deleting it cannot be undone",
                "delete.unrecoverable",
                key,
            )
        return Decision("allow", "deleting a file that can be restored", "delete.recoverable", key)

    def _bash(self, action: BashCommand) -> tuple[Decision, bool]:
        verdict = classify_command(action.command)
        key = f"bash:{action.command.strip()}"
        where = f" ({verdict.offending})" if verdict.offending and verdict.offending != action.command.strip() else ""
        what = f"{verdict.reason}{where}"
        if verdict.kind == "forbidden":
            return Decision("deny", f"{what}; pedro never runs this for the model", "bash.forbidden"), True
        if not action.sandboxed and action.reads_credentials and self.mode != "full-access":
            # The sandboxes hide these; without one, a plain read would hand keys to the model. Never remembered.
            reason = f"{action.reads_credentials}; no sandbox hides them on this machine"
            return Decision("ask", reason, "bash.credentials"), True
        if self.mode == "read-only":
            if verdict.kind == "safe_read":
                return Decision("allow", "a read-only command", "bash.safe_read", key), False
            return Decision("deny", f"read-only mode runs only read-only commands; {what}", "mode.read_only"), True
        if verdict.kind == "destructive":
            return Decision("ask", f"{what}; a snapshot is taken first if you approve", "bash.destructive"), True
        if verdict.kind == "safe_read":
            return Decision("allow", "a read-only command", "bash.safe_read", key), False
        if self.mode == "full-access":
            return Decision("allow", f"full-access mode: {verdict.kind} command", f"bash.{verdict.kind}", key), False
        if not action.sandboxed:
            return Decision(
                "ask",
                f"no sandbox is available, so every command but plain reads needs approval; {what}",
                "bash.unsandboxed",
                key,
            ), False
        return _sandboxed_bash(verdict, key), False

    def _git(self, action: GitAction) -> tuple[Decision, bool]:
        verdict: GitVerdict = classify_git_args(action.args)
        key = "git:" + " ".join(action.args)
        if verdict.op in ("forbidden", "unknown"):
            return Decision(
                "deny",
                f"{verdict.reason}; pedro's git tool refuses it (the user can run it with !cmd)",
                f"git.{verdict.op}",
            ), True
        if verdict.op == "read":
            return Decision("allow", verdict.reason, "git.read", key), False
        if self.mode == "read-only":
            return Decision("deny", f"read-only mode: {verdict.reason}", "mode.read_only"), True
        if verdict.op == "stage_commit":
            if action.on_job_branch or action.args[:1] == ("add",):
                return Decision("allow", verdict.reason, "git.stage_commit", key), False
            return Decision(
                "ask", f"{verdict.reason} on a branch that is not pedro's job branch", "git.commit_off_branch", key
            ), False
        if verdict.op == "publish":
            return Decision("ask", verdict.reason, "git.publish"), True
        if self.mode == "full-access":
            return Decision("allow", f"full-access mode: {verdict.reason}", f"git.{verdict.op}", key), False
        return Decision("ask", verdict.reason, f"git.{verdict.op}", key), False

    def _network(self, action: NetworkAccess) -> Decision:
        key = f"network:{action.what}"
        if self.mode == "read-only":
            return Decision("deny", "read-only mode: no network access", "mode.read_only")
        if self.mode == "full-access":
            return Decision("allow", "full-access mode allows the network", "network.full_access", key)
        return Decision("ask", f"{action.what} needs the network, which is off by default", "network.ask", key)

    def _external(self, action: ExternalTool) -> Decision:
        key = f"tool:{action.name}"
        unknown = f"{action.name} is a tool of an MCP server, and pedro cannot know what it changes"
        if self.mode == "read-only":
            return Decision("deny", f"read-only mode: {unknown}", "mode.read_only")
        if self.mode == "full-access":
            return Decision("allow", f"full-access mode: {unknown}", "tool.full_access", key)
        return Decision(
            "ask", f"{unknown} (mark the server read_only = true if it changes nothing)", "tool.in_doubt", key
        )

    # -- configured rules -----------------------------------------------------------------------------------------

    def _apply_rules(self, base: Decision, action: Action, subject: str, hard: bool) -> Decision:
        kind = _rule_kind(action)
        matching = [r for r in self.rules if r.kind == kind and fnmatchcase(subject, r.pattern)]
        for verdict in ("deny", "ask"):
            rule = next((r for r in matching if r.verdict == verdict), None)
            if rule is not None and _VERDICT_ORDER[verdict] > _VERDICT_ORDER[base.verdict]:
                key = base.key if verdict == "ask" else None
                return Decision(verdict, f"configured rule {rule.kind} {rule.pattern!r}: {verdict}", "config.rule", key)
        allow = next((r for r in matching if r.verdict == "allow"), None)
        if allow is not None and base.verdict == "ask" and not hard:
            return Decision("allow", f"configured rule {allow.kind} {allow.pattern!r}: allow", "config.rule", base.key)
        return base


def _sandboxed_bash(verdict: CommandVerdict, key: str) -> Decision:
    if verdict.kind == "normal":
        return Decision("allow", "runs inside the sandbox", "bash.sandboxed", key)
    if verdict.kind == "network":
        return Decision("ask", f"{verdict.reason}; the sandbox has no network unless you approve", "bash.network", key)
    return Decision("ask", verdict.reason, "bash.complex", key)


def _rule_kind(action: Action) -> RuleKind:
    kinds: dict[type, RuleKind] = {
        FileRead: "read",
        FileWrite: "write",
        FileDelete: "delete",
        BashCommand: "bash",
        GitAction: "git",
        NetworkAccess: "network",
        ExternalTool: "tool",
    }
    return kinds[type(action)]


def _under(path: str, root: str) -> bool:
    norm, base = posixpath.normpath(path), posixpath.normpath(root)
    return norm == base or norm.startswith(base.rstrip("/") + "/")


def tighten(base: Policy, repo_policy: RepoPolicy) -> Policy:
    """Apply a repository's policy on top of the user's: stricter mode and approval, and only deny/ask rules.

    A repository may never loosen: a looser mode or approval is ignored, allow rules are dropped, and the
    user's extra read roots and "always allow" memory are kept as they are.
    """
    mode = base.mode
    if repo_policy.mode is not None and _MODE_ORDER[repo_policy.mode] < _MODE_ORDER[base.mode]:
        mode = repo_policy.mode
    approval: ApprovalMode = "never" if "never" in (base.approval, repo_policy.approval) else "ask"
    extra = tuple(r for r in repo_policy.rules if r.verdict != "allow")
    return Policy(
        mode=mode, approval=approval, rules=base.rules + extra, read_roots=base.read_roots, remembered=base.remembered
    )

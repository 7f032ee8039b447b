"""The git tool: a fixed set of git actions run with fixed argv (no shell), validated refs and confined paths."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from pedro import gitlayer
from pedro.effects import Effects
from pedro.process import ChildCommand, ChildResult, OutputLimits, describe_exit, run_child
from pedro.safety.jobbranch import JOB_BRANCH_PREFIX
from pedro.safety.sandbox import wrap
from pedro.tools.base import ToolArgs, ToolContext, ToolDeniedError, ToolFailure, ToolTimeoutError

GitAction = Literal["status", "diff", "log", "show", "add", "commit", "branch", "checkout", "push"]
_READING_ACTIONS = frozenset({"status", "diff", "log", "show"})
"""The actions that change nothing (and `branch` without a name, which lists)."""
GIT_ACTIONS: tuple[GitAction, ...] = ("status", "diff", "log", "show", "add", "commit", "branch", "checkout", "push")

DEFAULT_LOG_COUNT = 10
MAX_LOG_COUNT = 200
GIT_TIMEOUT_S = 60.0
PUSH_TIMEOUT_S = 120.0
MAX_REF_CHARS = 256

_ACTION_ALIASES: dict[str, GitAction] = {
    "switch": "checkout",
    "stage": "add",
    "branches": "branch",
    "history": "log",
    "st": "status",
    "ci": "commit",
    "co": "checkout",
}
_FORCE_WORDS = frozenset({"-f", "--force", "--force-with-lease", "--force-if-includes", "--mirror", "--delete", "-d"})
_FORCE_KEYS = ("force", "force_with_lease", "force_push", "mirror", "delete")
_FREE_FORM_KEYS = ("args", "arguments", "argv", "options", "flags", "extra_args", "extra")
# Diffs as git computes them: no external diff or textconv program (one the repository names could be a file the
# model rewrote, like a hook; gitlayer switches those off).
_PLAIN_DIFF = ("--no-ext-diff", "--no-textconv")


class GitArgs(ToolArgs):
    """One git action; which keys it uses depends on the action."""

    short_keys: ClassVar[tuple[str, ...]] = ("action", "ref")

    action: GitAction
    paths: list[str] | None = None
    staged: bool = False
    ref: str | None = None
    max_count: int | None = Field(default=None, ge=1, le=MAX_LOG_COUNT)
    message: str | None = None
    name: str | None = None
    create: bool = False
    remote: SkipJsonSchema[str | None] = None  # push goes to the upstream; a model has no reason to pick
    force: SkipJsonSchema[bool] = False
    free_form: SkipJsonSchema[list[str] | None] = None

    @model_validator(mode="before")
    @classmethod
    def _normalise(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        _rename(data, "paths", ("path", "files", "file", "file_path", "filename", "pathspec"))
        _rename(data, "message", ("msg", "m", "commit_message"))
        _rename(data, "max_count", ("n", "count", "limit", "number", "max"))
        _rename(data, "ref", ("commit", "revision", "rev", "sha", "target", "tag"))
        if isinstance(data.get("paths"), str):
            data["paths"] = [data["paths"]]
        if any(data.get(key) for key in _FORCE_KEYS):
            data["force"] = True
        _take_free_form(data)
        action = data.get("action")
        if data.get("free_form") and not action:
            raise ValueError(_free_form_refusal(data["free_form"]))
        if isinstance(action, str):
            data["action"] = _split_action(action, data)
        elif action is None:
            inferred = _infer_action(data)
            if inferred:
                data["action"] = inferred
        if "branch" in data:
            branch = data.pop("branch")
            data.setdefault("name" if data.get("action") == "branch" else "ref", branch)
        return data

    @field_validator("ref", "name", "remote")
    @classmethod
    def _check_refname(cls, value: str | None) -> str | None:
        if value is not None:
            check_ref(value)
        return value

    @model_validator(mode="after")
    def _check_needs(self) -> GitArgs:
        if self.action == "add" and not self.paths:
            raise ValueError('add needs `paths`, e.g. {"action": "add", "paths": ["src/app.py"]}')
        if self.action == "commit" and not (self.message or "").strip():
            raise ValueError('commit needs a `message`, e.g. {"action": "commit", "message": "Fix the parser"}')
        if self.message is not None and "\x00" in self.message:
            raise ValueError("the commit message contains a NUL character; send plain text")
        if self.action == "checkout" and not self.ref:
            raise ValueError(
                'checkout needs `ref`, the branch to switch to, e.g. {"action": "checkout", "ref": "main"}'
            )
        for raw in self.paths or []:
            if not raw.strip():
                raise ValueError("`paths` holds an empty string; list file paths relative to the repository root")
        return self


def _rename(data: dict[str, Any], key: str, aliases: tuple[str, ...]) -> None:
    for alias in aliases:
        if alias in data and key not in data:
            data[key] = data.pop(alias)


def _take_free_form(data: dict[str, Any]) -> None:
    """Move the extra arguments the model passed under any of _FREE_FORM_KEYS to `free_form`, as strings."""
    for key in _FREE_FORM_KEYS:
        value = data.pop(key, None)
        if value:
            data["free_form"] = [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _split_action(raw: str, data: dict[str, Any]) -> str:
    """`"git diff --staged"` and `"push --force"` arrive as actions too; keep the verb, judge the rest."""
    words = raw.strip().split()
    if words and words[0] == "git":
        words = words[1:]
    if not words:
        return raw
    verb = words[0].lower()
    for word in words[1:]:
        if word in _FORCE_WORDS or word.startswith("+"):
            data["force"] = True
        elif word in ("--staged", "--cached"):
            data["staged"] = True
        else:
            data.setdefault("free_form", []).append(word)
    return _ACTION_ALIASES.get(verb, verb)


def _free_form_refusal(words: list[str]) -> str:
    return (
        f"the git tool takes no free-form arguments (got {' '.join(words)!r}); "
        "use `action` with its keys: " + ", ".join(GIT_ACTIONS)
    )


def _infer_action(data: Mapping[str, Any]) -> GitAction | None:
    if data.get("message"):
        return "commit"
    if data.get("max_count"):
        return "log"
    if data.get("staged"):
        return "diff"
    if data.get("name") and not data.get("ref"):
        return "branch"
    return None


def check_ref(value: str) -> None:
    """Refuse what git could read as an option or that no ref name can contain."""
    if not value.strip():
        raise ValueError("empty ref; name a branch, tag or commit such as main or HEAD~1")
    if value.startswith("-"):
        raise ValueError(f"{value!r} starts with '-', so git would read it as an option; name a branch or commit")
    if any(ch in value for ch in "\x00\n\r\t ") or len(value) > MAX_REF_CHARS:
        raise ValueError(f"{value[:80]!r} is not a ref name: no spaces, tabs, newlines or NUL; at most 256 characters")


class GitTool:
    """Runs one git action in the repository and returns git's output, capped."""

    name: ClassVar[str] = "git"
    Args: ClassVar[type[ToolArgs]] = GitArgs

    def effects(self, args: GitArgs) -> Effects:
        if args.action in _READING_ACTIONS or (args.action == "branch" and not args.name):
            return Effects()
        return Effects(changes_git=True, network=args.action == "push")

    def run(self, args: GitArgs, ctx: ToolContext) -> str:
        if args.free_form:
            raise ToolDeniedError(_free_form_refusal(args.free_form))
        if args.force:
            raise ToolDeniedError(
                "force pushes, branch deletion and mirror pushes are never allowed from the model; "
                "if the remote rejected a normal push, fetch and integrate its changes, or ask the user"
            )
        if (
            ctx.read_only
            and args.action in ("add", "commit", "checkout", "push")
            or (ctx.read_only and args.action == "branch" and args.name)
        ):
            raise ToolDeniedError(f"this role is read-only: git {args.action} would change the repository")
        handler = getattr(self, f"_{args.action}")
        result: str = handler(args, ctx)
        return result

    def _status(self, args: GitArgs, ctx: ToolContext) -> str:
        out = _run_git(ctx, "status", "--short", "--branch")
        lines = out.splitlines()
        if len(lines) <= 1:
            lines.append("nothing to commit, working tree clean")
        return "\n".join(lines)

    def _diff(self, args: GitArgs, ctx: ToolContext) -> str:
        cmd = ["diff", *_PLAIN_DIFF, "--stat", "--patch"]
        if args.staged:
            cmd.append("--cached")
        if args.ref:
            cmd.append(args.ref)
        out = _run_git(ctx, *cmd, "--", *_paths(args, ctx), head_share=0.75)
        if out.strip():
            return out
        if args.ref:
            return f"no differences against {args.ref}"
        if args.staged:
            return "no staged changes (stage files with the add action)"
        staged = _run_git(ctx, "diff", "--cached", "--name-only", "--", *_paths(args, ctx))
        if staged.strip():
            return 'no unstaged changes; staged changes exist, see them with {"action": "diff", "staged": true}'
        return "no changes in the working tree"

    def _log(self, args: GitArgs, ctx: ToolContext) -> str:
        if not _has_commits(ctx):
            return "no commits yet"
        count = args.max_count or DEFAULT_LOG_COUNT
        cmd = ["log", f"--max-count={count}", "--date=short", "--format=%h %ad %an: %s"]
        if args.ref:
            cmd.append(args.ref)
        out = _run_git(ctx, *cmd, "--", *_paths(args, ctx))
        return out.strip() or "no commits match"

    def _show(self, args: GitArgs, ctx: ToolContext) -> str:
        ref = args.ref or "HEAD"
        return _run_git(ctx, "show", *_PLAIN_DIFF, "--stat", "--patch", ref, "--", head_share=0.75)

    def _add(self, args: GitArgs, ctx: ToolContext) -> str:
        paths = _paths(args, ctx)
        _run_git(ctx, "add", "--", *paths)
        status = _run_git(ctx, "status", "--short", "--", *paths)
        return f"staged {', '.join(paths)}\n{status}".rstrip()

    def _commit(self, args: GitArgs, ctx: ToolContext) -> str:
        if args.paths:
            _run_git(ctx, "add", "--", *_paths(args, ctx))
        if _query(ctx, "diff", "--cached", "--quiet")[0] == 0:
            status = _run_git(ctx, "status", "--short")
            raise ToolFailure(
                "nothing is staged, so there is nothing to commit; stage files first with "
                '{"action": "add", "paths": ["file"]} (or pass `paths` with the commit).\n'
                f"status:\n{status.strip() or '(working tree clean)'}"
            )
        assert args.message is not None
        return _run_git(ctx, "commit", f"--message={args.message}").strip()

    def _branch(self, args: GitArgs, ctx: ToolContext) -> str:
        if not args.name:
            out = _run_git(ctx, "branch", "--list", "--verbose")
            return out.strip() or "no branches yet (the repository has no commits)"
        if _query(ctx, "check-ref-format", "--branch", args.name)[0] != 0:
            raise ToolFailure(f"{args.name!r} is not a valid branch name; use letters, digits, '-', '_' and '/'")
        _run_git(ctx, "branch", args.name, *([args.ref] if args.ref else []))
        sha = _query(ctx, "rev-parse", "--short", f"refs/heads/{args.name}")[1].strip()
        return f'created branch {args.name} at {sha}; switch to it with {{"action": "checkout", "ref": "{args.name}"}}'

    def _checkout(self, args: GitArgs, ctx: ToolContext) -> str:
        ref = args.ref or ""
        if ref in (".", "--") or ref.startswith(":"):
            raise ToolDeniedError("checkout switches branches only; it never restores or overwrites files")
        if args.create:
            return _run_git(ctx, "switch", "--create", ref).strip()
        is_branch = _query(ctx, "rev-parse", "--verify", "--quiet", f"refs/heads/{ref}")[0] == 0
        if not is_branch and (ctx.root / ref).exists():
            raise ToolDeniedError(
                f"{ref!r} is a path, and checkout switches branches only; it never restores or overwrites files. "
                f'To see the committed version use {{"action": "show", "ref": "HEAD:{ref}"}}'
            )
        # Commits land on whatever branch is checked out: switching to one of the user's branches would let the
        # next commit move it, so that needs the user; pedro's own branches (and new ones) are the job's to use.
        if (
            is_branch
            and not ref.startswith(JOB_BRANCH_PREFIX)
            and not ctx.approve(f"git switch {ref}: later commits would go onto {ref}")
        ):
            raise ToolDeniedError(
                f"switching to {ref} needs the user's approval and was not approved; commits stay on the current "
                'branch. To read another branch use {"action": "show"} or {"action": "diff"} with `ref`'
            )
        return _run_git(ctx, "switch", ref).strip()

    def _push(self, args: GitArgs, ctx: ToolContext) -> str:
        branch = args.ref or _current_branch(ctx)
        if branch.startswith("+") or ":" in branch:
            raise ToolDeniedError("refspecs with '+' or ':' (force or delete) are never pushed; name a branch")
        remote = args.remote or _upstream_remote(ctx, branch)
        remotes = _query(ctx, "remote")[1].split()
        if remote not in remotes:
            known = ", ".join(remotes) or "none"
            raise ToolFailure(f"there is no remote named {remote!r} (remotes: {known}); the user must add one")
        if not ctx.approve(f"git push {remote} {branch}: publishes commits to a remote"):
            raise ToolDeniedError(
                f"git push {remote} {branch} needs the user's approval and was not approved; "
                "leave the commits local and say in your summary that they are ready to push"
            )
        # The one git that keeps the user's credential helpers: they approved this push. It still runs no hook.
        return _run_git(ctx, "push", remote, branch, timeout=PUSH_TIMEOUT_S, publish=True).strip()


def _paths(args: GitArgs, ctx: ToolContext) -> list[str]:
    """Model paths, confined to the repository, as git should see them (relative, after `--`)."""
    return [ctx.rel(ctx.resolve(raw)) for raw in args.paths or []]


def git_command(ctx: ToolContext, *args: str, publish: bool = False) -> ChildCommand:
    """Fixed argv through the git layer (no hooks, pager or prompts), with literal pathspecs and unquoted paths."""
    return gitlayer.command(ctx.root, "--literal-pathspecs", *args, env=ctx.env, publish=publish)


def _run_git(
    ctx: ToolContext, *args: str, timeout: float = GIT_TIMEOUT_S, head_share: float = 0.5, publish: bool = False
) -> str:
    """Run a git command whose output the model reads; a failure becomes a ToolFailure with git's words."""
    budget = max(ctx.output_limit - 512, 1024)
    head = int(budget * head_share)
    command = git_command(ctx, *args, publish=publish)
    if not publish:
        # The model's git runs in the sandbox bash runs in: .git is writable there, its hooks and config are not,
        # and whatever git might start (a filter the user configured) sees no home secrets and no network. A push
        # the user approved needs the network and their credentials, so it runs outside, hooks still off.
        command = wrap(_with_identity(ctx, command, args[0]), root=ctx.root, kind="git")
    try:
        result = run_child(
            command,
            timeout=timeout,
            limits=OutputLimits(head_bytes=head, tail_bytes=budget - head),
        )
    except OSError as exc:
        raise ToolFailure(f"git could not be started ({exc}); git must be installed") from exc
    if result.outcome == "timeout":
        raise ToolTimeoutError(f"git {args[0]} did not finish within {timeout:g} s and was stopped")
    if result.exit_code != 0:
        raise ToolFailure(_explain_failure(ctx, args[0], result))
    if result.truncated:
        ctx.check_output_size("git", result.total_bytes)
    return result.output


_IDENTITY = (
    ("user.name", ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME")),
    ("user.email", ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL")),
)


def _with_identity(ctx: ToolContext, command: ChildCommand, verb: str) -> ChildCommand:
    """A commit in the sandbox cannot read the user's git config (the home is private there): the identity it
    names is read here and passed in the environment, unless the environment already sets one."""
    if verb != "commit":
        return command
    env = dict(command.env)
    for key, names in _IDENTITY:
        if any(env.get(name) for name in names):
            continue
        value = _query(ctx, "config", "--get", key)[1].strip()
        if value:
            env.update(dict.fromkeys(names, value))
    return replace(command, env=env)


def _explain_failure(ctx: ToolContext, verb: str, result: ChildResult) -> str:
    output = result.output.strip()
    if "not a git repository" in output:
        return (
            f"{ctx.root} is not a git repository; create one with the bash tool "
            '({"command": "git init"}) if the user wants version control here'
        )
    hint = ""
    if "would be overwritten" in output:
        hint = "\ncommit your changes first (add, then commit); the tool never discards local changes"
    elif "Please tell me who you are" in output or "empty ident" in output:
        hint = "\nthe user has not configured a git identity (user.name, user.email); ask them to set it"
    elif "did not match any file" in output:
        hint = "\ncheck the path with navigate list_dir or git status"
    elif "invalid reference" in output or "unknown revision" in output or "bad revision" in output:
        hint = '\nlist branches with {"action": "branch"} and commits with {"action": "log"}'
    return f"git {verb} failed ({describe_exit(result.exit_code)}):\n{output}{hint}"


def _query(ctx: ToolContext, *args: str) -> tuple[int, str]:
    """A small internal git question (exit code, stdout); never shown to the model as is."""
    try:
        done = gitlayer.run(ctx.root, "--literal-pathspecs", *args, timeout=GIT_TIMEOUT_S)
    except gitlayer.GitError as exc:
        raise ToolFailure(f"git {args[0]} could not be run ({exc})") from exc
    if "not a git repository" in done.err:
        raise ToolFailure(
            f"{ctx.root} is not a git repository; create one with the bash tool "
            '({"command": "git init"}) if the user wants version control here'
        )
    return done.code, done.out


def _has_commits(ctx: ToolContext) -> bool:
    return _query(ctx, "rev-parse", "--verify", "--quiet", "HEAD")[0] == 0


def _current_branch(ctx: ToolContext) -> str:
    code, out = _query(ctx, "symbolic-ref", "--quiet", "--short", "HEAD")
    if code != 0 or not out.strip():
        raise ToolFailure("HEAD is detached, so there is no branch to push; switch to a branch or pass `ref`")
    return out.strip()


def _upstream_remote(ctx: ToolContext, branch: str) -> str:
    code, out = _query(ctx, "config", "--get", f"branch.{branch}.remote")
    remote = out.strip()
    if code == 0 and remote and re.fullmatch(r"[\w.\-/]+", remote):
        return remote
    return "origin"

"""The commit a completed job leaves on its branch pedro/<job>: the files it changed and nothing else, as the user."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pedro.gitlayer import GitError, GitResult, run
from pedro.safety.jobbranch import JOB_TRAILER, job_branch
from pedro.safety.snapshots import SnapshotError, current_branch

TITLE_LIMIT = 71
"""Characters of a commit's first line: under the 72 that `git log --oneline` and most tools show."""
_COMMIT_CONFIG = ("commit.gpgsign=false", "user.useConfigOnly=true")
"""No signing prompt, and never an identity git guessed from the host name: the user's configured one or none."""
IDENTITY_FIX = 'git config --global user.email "you@example.com" and git config --global user.name "Your Name"'


@dataclass(frozen=True)
class JobCommit:
    """The commit a job made: its id, first line and the changed files it had to leave out."""

    commit: str
    title: str
    ignored: tuple[str, ...] = ()
    """Files the job changed that the ignore rules match: never committed, left as they are."""


class NoIdentityError(SnapshotError):
    """git has no user.name / user.email to author the commit with."""


def commit_title(text: str) -> str:
    """The first line of `text`, on one line and under TITLE_LIMIT characters (cut at a word)."""
    line = next((" ".join(part.split()) for part in text.splitlines() if part.strip()), "") or "pedro job"
    if len(line) <= TITLE_LIMIT:
        return line
    cut = line[: TITLE_LIMIT - 1].rsplit(" ", 1)[0].rstrip(" ,.;:")
    return (cut or line[: TITLE_LIMIT - 1]) + "…"


def describe_job(summary: str, evidence: Mapping[str, Any] | None, tests: Mapping[str, Any] | None) -> str:
    """The job in words for a commit body or a pull request: its summary, its evidence and its last test run."""
    parts = [summary.strip() or "(the job gave no summary)"]
    if evidence:
        parts.append("Evidence:\n" + "\n".join(_lines(evidence, 0)))
    if tests:
        counts = tests.get("counts") or {}
        tally = ", ".join(f"{counts[key]} {key}" for key in ("passed", "failed", "errors") if counts.get(key))
        verdict = "pass" if tests.get("passed") else "FAIL"
        parts.append(
            f"Tests: `{tests.get('command', '?')}`: {verdict}"
            + (f" ({tally})" if tally else "")
            + "".join(f"\n- failing: {test}" for test in tests.get("failing") or ())
        )
    return "\n\n".join(parts)


def commit_message(job_id: str, title: str, body: str) -> str:
    """First line, body, and the trailer that names the job (what undo recognises as the job's own commit)."""
    return f"{commit_title(title)}\n\n{body.strip()}\n\n{JOB_TRAILER}: {job_id}\n"


def has_identity(root: Path) -> bool:
    """Whether git can author a commit as the user: a configured (or exported) name and email."""
    return all(_git(root, *_config(), "var", ident).ok for ident in ("GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"))


def commit_job(root: Path, job_id: str, paths: Sequence[str], message: str) -> JobCommit | None:
    """Commit exactly `paths` (their content now) on pedro/<job_id>; the user's other edits, staged or not, stay as
    they are. None when none of them can be committed (all ignored). The user's branch never moves: this refuses
    to commit anywhere but the job's branch."""
    branch = job_branch(job_id)
    if current_branch(root) != branch:
        raise SnapshotError(f"not on {branch}, so the job's change was not committed")
    if not has_identity(root):
        raise NoIdentityError(f"git has no name and email to commit with; set them ({IDENTITY_FIX})")
    ignored = set(_ignored(root, paths))
    pending = _uncommitted(root, paths)
    chosen = [path for path in paths if path not in ignored and path in pending]
    if not chosen:
        return None
    listed = "\0".join(chosen) + "\0"
    pathspec = ("--pathspec-from-file=-", "--pathspec-file-nul")
    _check(_git(root, "--literal-pathspecs", "add", "-A", *pathspec, stdin=listed), "add")
    committed = _git(
        root,
        *_config(),
        "--literal-pathspecs",
        "commit",
        "--no-verify",
        "--quiet",
        "--only",
        "--cleanup=verbatim",
        "-m",
        message,
        *pathspec,
        stdin=listed,
    )
    _check(committed, "commit")
    head = _check(_git(root, "rev-parse", "HEAD"), "rev-parse").out.strip()
    return JobCommit(commit=head, title=message.splitlines()[0], ignored=tuple(sorted(ignored)))


def _lines(value: Any, depth: int) -> list[str]:
    pad = "  " * depth
    if isinstance(value, Mapping):
        lines: list[str] = []
        for key, item in value.items():
            if isinstance(item, Mapping | list | tuple) and item:
                lines += [f"{pad}- {key}:", *_lines(item, depth + 1)]
            else:
                lines.append(f"{pad}- {key}: {_scalar(item)}")
        return lines
    if isinstance(value, list | tuple):
        return [line for item in value for line in _lines(item, depth)] if value else [f"{pad}- (none)"]
    return [f"{pad}- {_scalar(value)}"]


def _scalar(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _ignored(root: Path, paths: Sequence[str]) -> list[str]:
    """Those of `paths` the ignore rules match and git does not track (git add would refuse them)."""
    if not paths:
        return []
    proc = _git(root, "check-ignore", "-z", "--stdin", stdin="\0".join(paths) + "\0")
    return [path for path in proc.out.split("\0") if path]


def _uncommitted(root: Path, paths: Sequence[str]) -> set[str]:
    """Those of `paths` whose content differs from HEAD's (an earlier turn of the same job may have committed it)."""
    out = _check(
        _git(root, "--literal-pathspecs", "status", "--porcelain", "-z", "--untracked-files=all", "--", *paths),
        "status",
    ).out
    entries = iter(out.split("\0"))
    pending: set[str] = set()
    for entry in entries:
        if len(entry) > 3:
            pending.add(entry[3:])
            if entry[0] in "RC":
                next(entries, None)  # a rename's second field is its old path
    return pending


def _config() -> tuple[str, ...]:
    return tuple(word for item in _COMMIT_CONFIG for word in ("-c", item))


def _git(root: Path, *args: str, stdin: str | None = None) -> GitResult:
    try:
        return run(root, *args, stdin=stdin)
    except GitError as exc:
        raise SnapshotError(str(exc)) from exc


def _check(result: GitResult, what: str) -> GitResult:
    if not result.ok:
        said = result.err.strip() or result.out.strip() or f"exit status {result.code}"
        raise SnapshotError(f"git {what} failed while committing the job's change: {said}")
    return result

"""The commit a completed job leaves on its branch pedro/<job>: the job's own change and nothing else, as the user."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pedro.gitlayer import GitError, GitResult, run
from pedro.safety.jobbranch import JOB_TRAILER, job_branch
from pedro.safety.jobchange import (
    Entry,
    JobDelta,
    index_entries,
    index_info,
    job_versions,
    merge_entries,
    tree_entries,
)
from pedro.safety.snapshots import SnapshotError, current_branch, git_path, head_commit
from pedro.safety.tempindex import temporary_index

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
    beside: tuple[str, ...] = ()
    """Committed files that also hold the user's own uncommitted edits, still in the working tree beside it."""


class NoIdentityError(SnapshotError):
    """git has no user.name / user.email to author the commit with."""


class EditsClashError(SnapshotError):
    """The user's uncommitted edits and the job's change touch the same lines: nothing was committed."""


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
        parts.append("Evidence: " + " ".join(_evidence_sentences(evidence)))
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


def commit_job(root: Path, job_id: str, delta: JobDelta, message: str) -> JobCommit | None:
    """Commit the job's own change on pedro/<job_id>: each of `delta.paths` as the job left it, without the user's
    uncommitted edits of the job's start (pedro.safety.jobchange). Those stay uncommitted in the working tree, staged
    or not, in those files too. None when nothing is left to commit (all ignored, or committed already).

    Raises EditsClashError, committing nothing, where a user's edit and the job's change touch the same lines. The
    user's branch never moves: this refuses to commit anywhere but the job's branch."""
    branch = job_branch(job_id)
    if current_branch(root) != branch:
        raise SnapshotError(f"not on {branch}, so the job's change was not committed")
    if not has_identity(root):
        raise NoIdentityError(f"git has no name and email to commit with; set them ({IDENTITY_FIX})")
    ignored = set(_ignored(root, delta.paths))
    own = replace(delta, paths=tuple(path for path in delta.paths if path not in ignored))
    try:
        versions = job_versions(root, own)
    except GitError as exc:
        raise SnapshotError(str(exc)) from exc
    if versions.clashes:
        raise EditsClashError(
            "; ".join(f"in {path}, {why}" for path, why in sorted(versions.clashes.items()))
            + ", so nothing was committed: a commit of the job's change would take your edits with it. Commit or "
            f"stash your version first; `git diff {delta.start_tree[:12]} {delta.end_tree[:12]}` shows the job's "
            "change"
        )
    head = head_commit(root)
    committed = tree_entries(root, head, list(versions.entries))
    changes = {path: entry for path, entry in versions.entries.items() if committed.get(path) != entry}
    if not changes:
        return None
    commit = _commit_tree(root, _tree_with(root, head, changes), head, message)
    moved = _git(root, "update-ref", "-m", f"pedro: {commit_title(message)}", f"refs/heads/{branch}", commit,
                 head or "")  # fmt: skip
    _check(moved, "update-ref")
    _stage(root, head, changes)
    end = tree_entries(root, delta.end_tree, list(changes))
    beside = tuple(sorted(path for path, entry in changes.items() if end.get(path) != entry))
    return JobCommit(commit=commit, title=message.splitlines()[0], ignored=tuple(sorted(ignored)), beside=beside)


def _tree_with(root: Path, head: str | None, entries: Mapping[str, Entry | None]) -> str:
    """HEAD's tree (empty without one) with `entries` set, written through a temporary index."""
    with temporary_index(git_path(root, "index").parent, "index") as index:
        env = {"GIT_INDEX_FILE": str(index)}
        _check(_git(root, "read-tree", *([head] if head else ["--empty"]), env=env), "read-tree")
        _check(_git(root, "update-index", "-z", "--index-info", env=env, stdin=index_info(entries)), "update-index")
        return _check(_git(root, "write-tree", env=env), "write-tree").out.strip()


def _commit_tree(root: Path, tree: str, head: str | None, message: str) -> str:
    """The commit of `tree` on `head`, as the user (their configured identity), unsigned."""
    parents = ("-p", head) if head else ()
    made = _git(root, *_config(), "commit-tree", tree, *parents, stdin=message)
    if not made.ok and "ident" in made.err.lower():
        raise NoIdentityError(f"git has no name and email to commit with; set them ({IDENTITY_FIX})")
    return _check(made, "commit-tree").out.strip()


def _stage(root: Path, head: str | None, entries: Mapping[str, Entry | None]) -> None:
    """The real index after the commit: what the job committed is no longer a change, while what the user had
    staged in those files stays staged where it merges with the job's change (else it is in the working tree)."""
    paths = list(entries)
    before = tree_entries(root, head, paths)
    staged = index_entries(root, paths)
    update: dict[str, Entry | None] = {}
    for path, new in entries.items():
        mine = staged.get(path)
        if mine == before.get(path) or mine == new:
            update[path] = new
            continue
        merged = merge_entries(root, before.get(path), mine, new)
        update[path] = merged if merged is not None else new
    _check(_git(root, "update-index", "-z", "--index-info", stdin=index_info(update)), "update-index")
    _git(root, "update-index", "-q", "--refresh")


# Each verdict a test can have against the job's start, as the commit body says it (pedro.evidence.TestState).
_VERDICT_WORDS = (
    ("fixed", "Fixed by the job"),
    ("broken", "Broken by the job"),
    ("added_passing", "Added by the job, passing"),
    ("added_failing", "Added by the job, failing"),
    ("still_failing", "Failing before the job and still failing"),
    ("gone", "No longer run"),
)


def _evidence_sentences(evidence: Mapping[str, Any]) -> list[str]:
    """The job's test evidence (pedro.loop.agent's report) as sentences: the runs before and after, each test's verdict,
    whether the tests back the change, and the notes."""
    command = str(evidence.get("command") or "the tests")
    sentences: list[str] = []
    for when, key in (("Before the job", "baseline"), ("After it", "final")):
        states = evidence.get(key)
        if isinstance(states, Mapping):
            passed, failed = len(states.get("passed") or ()), len(states.get("failed") or ())
            sentences.append(f"{when}, `{command}`: {passed} passed, {failed} failed.")
    verdict = evidence.get("verdict")
    if isinstance(verdict, Mapping):
        sentences += _verdict_sentences(verdict)
    if "holds" in evidence:
        sentences.append("The tests back the change." if evidence["holds"] else "The tests do not back the change.")
    sentences += [f"{str(note).rstrip('.')}." for note in evidence.get("notes") or ()]
    return sentences or [json.dumps(dict(evidence), ensure_ascii=False)]


def _verdict_sentences(verdict: Mapping[str, Any]) -> list[str]:
    """One sentence per verdict the tests were given (fixed, broken, …), naming the tests, in _VERDICT_WORDS' order."""
    sentences: list[str] = []
    for state, words in _VERDICT_WORDS:
        tests = sorted(str(test) for test, found in verdict.items() if found == state)
        if tests:
            sentences.append(f"{words}: {', '.join(tests)}.")
    return sentences


def _ignored(root: Path, paths: Sequence[str]) -> list[str]:
    """Those of `paths` the ignore rules match and git does not track (git add would refuse them)."""
    if not paths:
        return []
    proc = _git(root, "check-ignore", "-z", "--stdin", stdin="\0".join(paths) + "\0")
    return [path for path in proc.out.split("\0") if path]


def _config() -> tuple[str, ...]:
    return tuple(word for item in _COMMIT_CONFIG for word in ("-c", item))


def _git(root: Path, *args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> GitResult:
    try:
        return run(root, *args, stdin=stdin, env=env)
    except GitError as exc:
        raise SnapshotError(str(exc)) from exc


def _check(result: GitResult, what: str) -> GitResult:
    if not result.ok:
        said = result.err.strip() or result.out.strip() or f"exit status {result.code}"
        raise SnapshotError(f"git {what} failed while committing the job's change: {said}")
    return result

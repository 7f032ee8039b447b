"""The job's own branch, pedro/<job>: builder and debugger commit there, and the user's branch never moves."""

from __future__ import annotations

from pathlib import Path

from pedro.gitlayer import run as run_git
from pedro.safety.snapshots import SnapshotError, check_job_id, current_branch, git_path, head_commit

JOB_BRANCH_PREFIX = "pedro/"
JOB_TRAILER = "Pedro-Job"
"""The trailer naming the job in the message of each commit a job makes on its branch."""


def job_branch(job_id: str) -> str:
    check_job_id(job_id)
    return JOB_BRANCH_PREFIX + job_id


def ensure_job_branch(root: Path, job_id: str) -> str:
    """Switch to `pedro/<job_id>` (created from HEAD, carrying uncommitted edits along); return the previous branch.

    The user's branch ref is never moved or reset. A detached HEAD is returned as its commit id.
    """
    check_job_id(job_id)
    target = JOB_BRANCH_PREFIX + job_id
    previous = current_branch(root) or head_commit(root) or ""
    if previous == target:
        return previous
    exists = current_branch_exists(root, target)
    argv = ("switch", target) if exists else ("switch", "-c", target)
    proc = run_git(root, *argv)
    if proc.code != 0:
        said = proc.err.strip() or f"exit status {proc.code}"
        pending = _operation_in_progress(root)
        if pending is None:
            raise SnapshotError(
                f"could not switch to branch {target} ({said}); your files are unchanged and in the snapshot just "
                "taken. `git status` shows what stands in the way"
            )
        what, fix = pending
        raise SnapshotError(
            f"{what} is in progress in {root} ({said}), and builder and debugger work on a branch of their own: "
            f"{fix}, then run pedro again. `pedro review` and `pedro triage` stay on your branch and work now"
        )
    return previous


def leave_unused_job_branch(root: Path, job_id: str, previous: str, start_commit: str) -> bool:
    """Back to `previous` and no `pedro/<job_id>` branch, when the job made no commit there; True if so.

    Called only when the job changed no file, so the switch carries the user's own uncommitted edits back
    unchanged (the commit is the same). Anything unexpected (another branch checked out, a commit on the job
    branch, a failed switch) leaves everything as it is.
    """
    check_job_id(job_id)
    target = JOB_BRANCH_PREFIX + job_id
    if not previous or previous == target or current_branch(root) != target or head_commit(root) != start_commit:
        return False
    back = ("switch", previous) if current_branch_exists(root, previous) else ("switch", "--detach", previous)
    if run_git(root, *back).code != 0:
        return False
    return run_git(root, "branch", "-D", target).code == 0


def current_branch_exists(root: Path, name: str) -> bool:
    return run_git(root, "rev-parse", "--verify", "-q", f"refs/heads/{name}").code == 0


def branch_tip(root: Path, name: str) -> str | None:
    """The commit branch `name` points at, or None when there is no such branch."""
    proc = run_git(root, "rev-parse", "--verify", "-q", f"refs/heads/{name}^{{commit}}")
    return proc.out.strip() if proc.code == 0 and proc.out.strip() else None


def foreign_commits(root: Path, job_id: str, base: str, tip: str) -> list[str] | None:
    """Commits between `base` and `tip` that are not the job's own and that no other branch or tag holds (`short hash
    subject`, newest first): what moving the job's branch back would lose. None when `base` is not below `tip`, so
    the branch went elsewhere."""
    if run_git(root, "merge-base", "--is-ancestor", base, tip).code != 0:
        return None
    fmt = f"%h %s%x00%(trailers:key={JOB_TRAILER},valueonly,separator=%x20)%x00"
    # --exclude before --branches names the branch without refs/heads/, as git asks
    others = ("--not", f"--exclude={job_branch(job_id)}", "--branches", "--tags")
    proc = run_git(root, "log", f"--format={fmt}", f"{base}..{tip}", *others, "--")
    if proc.code != 0:
        return None
    fields = proc.out.split("\0")
    pairs = zip(fields[0::2], fields[1::2], strict=False)
    return [line.strip() for line, owner in pairs if line.strip() and owner.strip() != job_id]


def free_branch_name(root: Path, wanted: str) -> str:
    """`wanted`, or `wanted-2`, `wanted-3`, ... : the first name no branch has yet."""
    name, n = wanted, 1
    while current_branch_exists(root, name):
        n += 1
        name = f"{wanted}-{n}"
    return name


def adopt_commits(root: Path, job_id: str, since: str | None) -> list[str]:
    """Make the commits on pedro/<job_id> after `since` (made by a round of the job: its git tool, a command it ran)
    the job's own: each without the job's trailer is rewritten with it, its tree, author, committer and dates kept,
    and the branch moved to the new tip. Returns `short-hash subject` of every commit made since, oldest first;
    nothing when HEAD is not the job's branch or `since` is not below it. Files and index never change."""
    if since is None or current_branch(root) != job_branch(job_id):
        return []
    tip = head_commit(root)
    if tip is None or tip == since or run_git(root, "merge-base", "--is-ancestor", since, tip).code != 0:
        return []
    fmt = f"%H%x00%P%x00%(trailers:key={JOB_TRAILER},valueonly,separator=%x20)%x00"
    listed = run_git(root, "log", "--reverse", "--topo-order", f"--format={fmt}", f"{since}..{tip}", "--")
    if not listed.ok:
        return []
    renamed = _rewritten(root, job_id, [field.strip() for field in listed.out.split("\0")])
    new_tip = renamed.get(tip, tip)
    ref = f"refs/heads/{job_branch(job_id)}"
    if new_tip != tip and run_git(root, "update-ref", "-m", f"pedro: job {job_id}'s commits", ref, new_tip, tip).code:
        return []
    shown = run_git(root, "log", "--reverse", "--topo-order", "--format=%h %s", f"{since}..{new_tip}", "--")
    return [line for line in shown.out.splitlines() if line.strip()]


def _rewritten(root: Path, job_id: str, fields: list[str]) -> dict[str, str]:
    """Each listed commit (hash, parents, job trailer; oldest first) and what it became: written again with the
    job's trailer when it lacks it or a parent was written again, else itself."""
    renamed: dict[str, str] = {}
    for commit, parents, owner in zip(fields[0::3], fields[1::3], fields[2::3], strict=False):
        moved = any(renamed.get(parent, parent) != parent for parent in parents.split())
        renamed[commit] = _with_trailer(root, commit, job_id, renamed) if owner != job_id or moved else commit
    return renamed


def _with_trailer(root: Path, commit: str, job_id: str, renamed: dict[str, str]) -> str:
    """`commit` written again with the job's trailer and its parents as already rewritten; signatures are dropped,
    since they would no longer match. The commit itself when git cannot write it."""
    raw = run_git(root, "cat-file", "commit", commit)
    if not raw.ok:
        return commit
    header, _, message = raw.out.partition("\n\n")
    kept: list[str] = []
    dropping = False
    for line in header.split("\n"):
        if dropping and line.startswith(" "):
            continue  # a continuation line of the signature
        name, _, value = line.partition(" ")
        dropping = name in ("gpgsig", "gpgsig-sha256")
        if not dropping:
            kept.append(f"parent {renamed.get(value, value)}" if name == "parent" else line)
    trailer = run_git(root, "interpret-trailers", "--if-exists", "addIfDifferent", "--trailer",
                      f"{JOB_TRAILER}: {job_id}", stdin=message)  # fmt: skip
    if not trailer.ok:
        return commit
    body = "\n".join(kept) + "\n\n" + trailer.out
    written = run_git(root, "hash-object", "-t", "commit", "-w", "--stdin", stdin=body)
    return written.out.strip() if written.ok and written.out.strip() else commit


def rewind_job_branch(root: Path, job_id: str, tip: str, to: str) -> None:
    """Move `pedro/<job_id>` from `tip` back to `to`; only the ref moves (files and index are the caller's)."""
    ref = f"refs/heads/{job_branch(job_id)}"
    proc = run_git(root, "update-ref", "-m", f"pedro undo {job_id}", ref, to, tip)
    if proc.code != 0:
        raise SnapshotError(
            f"the files are back, but {ref} could not be moved back to {to[:12]} ({proc.err.strip()}); "
            f"`git switch {job_branch(job_id)} && git reset --soft {to[:12]}` does it"
        )


# What git leaves in its directory while an operation waits for the user, and how the user ends it.
_IN_PROGRESS = (
    ("MERGE_HEAD", "a merge", "finish it (resolve, `git add`, `git commit`) or abort it (`git merge --abort`)"),
    ("rebase-merge", "a rebase", "finish it (`git rebase --continue`) or abort it (`git rebase --abort`)"),
    ("rebase-apply", "a rebase or `git am`", "finish it (`git rebase --continue` / `git am --continue`) or abort it"),
    ("CHERRY_PICK_HEAD", "a cherry-pick", "finish it (`git cherry-pick --continue`) or abort it (`--abort`)"),
    ("REVERT_HEAD", "a revert", "finish it (`git revert --continue`) or abort it (`git revert --abort`)"),
    ("BISECT_LOG", "a bisect", "end it with `git bisect reset`"),
)


def _operation_in_progress(root: Path) -> tuple[str, str] | None:
    """(what, how to end it) for a merge, rebase, cherry-pick, revert or bisect the user has not finished."""
    for name, what, fix in _IN_PROGRESS:
        if git_path(root, name).exists():
            return what, fix
    return None

"""Snapshots, restore and the job branch on real temporary git repositories."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from repo_util import git

from pedro.errors import PedroError
from pedro.safety.jobbranch import ensure_job_branch
from pedro.safety.snapshots import (
    EMPTY_TREE,
    UNTRACKED_FILE_LIMIT,
    SnapshotConflictError,
    SnapshotError,
    fingerprint_tree,
    latest_snapshot,
    list_backups,
    list_snapshots,
    restore_snapshot,
    snapshot_if_changed,
    take_snapshot,
)

JOB = "20250101-120000-ab12"


def file_hashes(root: Path) -> dict[str, str]:
    """sha256 (or link target) of every file under root outside .git."""
    hashes: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in filenames:
            path = Path(dirpath, name)
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                hashes[rel] = "link:" + str(path.readlink())
            else:
                hashes[rel] = hashlib.sha256(path.read_bytes()).hexdigest() + oct(path.stat().st_mode)
    return hashes


def user_state(root: Path) -> dict[str, object]:
    """Everything the user could see change: HEAD, branch, index bytes, status, staged diff, files, branch refs."""
    index = root / ".git" / "index"
    return {
        "head": git(root, "rev-parse", "-q", "--verify", "HEAD^{commit}") if _has_head(root) else None,
        "branch": git(root, "symbolic-ref", "-q", "HEAD"),
        "index": hashlib.sha256(index.read_bytes()).hexdigest() if index.exists() else None,
        "files": file_hashes(root),
        "heads": git(root, "for-each-ref", "refs/heads"),
    }


def porcelain(root: Path) -> tuple[str, str]:
    """`git status --porcelain` and `git diff --cached` (run after the index hash, since status may refresh it)."""
    return git(root, "status", "--porcelain", "-uall"), git(root, "diff", "--cached")


def _has_head(root: Path) -> bool:
    return subprocess.run(["git", "rev-parse", "-q", "--verify", "HEAD"], cwd=root, capture_output=True).returncode == 0


def tree_files(root: Path, treeish: str) -> set[str]:
    return set(git(root, "ls-tree", "-r", "-z", "--name-only", treeish).split("\0")) - {""}


@pytest.fixture
def dirty(repo: Path) -> Path:
    """The sample repository with staged, unstaged, untracked, ignored-small and ignored-large changes."""
    (repo / ".gitignore").write_text(".env\nnode_modules/\n*.log\nbuild/\n")
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("print('v1')\n")
    (repo / "src" / "util.py").write_text("X = 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "app")
    (repo / "README.md").write_text("# sample\nstaged line\n")
    git(repo, "add", "README.md")
    (repo / "README.md").write_text("# sample\nstaged line\nunstaged line\n")
    (repo / "src" / "app.py").write_text("print('v2, unstaged')\n")
    (repo / "notes.txt").write_text("untracked notes\n")
    (repo / ".env").write_text("API_TOKEN=secret-value\n")
    (repo / "node_modules" / "pkg").mkdir(parents=True)
    (repo / "node_modules" / "pkg" / "index.js").write_text("module.exports = 1\n")
    (repo / "build").mkdir()
    (repo / "build" / "out.o").write_bytes(b"\x00" * 10)
    (repo / "big.log").write_bytes(b"x" * (2 * 1024 * 1024))
    (repo / "small.log").write_text("a small ignored log\n")
    return repo


def test_snapshot_holds_worktree_index_and_small_ignored_files(dirty: Path) -> None:
    before = user_state(dirty)
    status_before = porcelain(dirty)
    snap = take_snapshot(dirty, JOB, "start of job")
    assert user_state(dirty) == before
    assert porcelain(dirty) == status_before

    files = tree_files(dirty, snap.commit)
    assert {"README.md", "src/app.py", "src/util.py", "notes.txt", ".env", "small.log", ".gitignore"} <= files
    assert not any(f.startswith(("node_modules/", "build/")) for f in files)
    assert "big.log" not in files
    assert git(dirty, "show", f"{snap.commit}:README.md") == "# sample\nstaged line\nunstaged line\n"
    assert git(dirty, "show", f"{snap.commit}:.env") == "API_TOKEN=secret-value\n"
    # the real index: the staged README, the committed app.py, no untracked files
    assert snap.index_tree is not None
    assert git(dirty, "show", f"{snap.index_tree}:README.md") == "# sample\nstaged line\n"
    assert git(dirty, "show", f"{snap.index_tree}:src/app.py") == "print('v1')\n"
    assert "notes.txt" not in tree_files(dirty, snap.index_tree)

    head = git(dirty, "rev-parse", "HEAD").strip()
    parents = git(dirty, "rev-list", "--parents", "-n", "1", snap.commit).split()[1:]
    assert parents[0] == head and len(parents) == 2
    assert git(dirty, "rev-parse", f"{parents[1]}^{{tree}}").strip() == snap.index_tree
    assert (snap.n, snap.ref, snap.head, snap.branch, snap.label) == (
        1,
        f"refs/pedro/snapshots/{JOB}/1",
        head,
        "main",
        "start of job",
    )
    assert snap.tree == fingerprint_tree(dirty)
    assert abs(snap.time - time.time()) < 60
    assert not list((dirty / ".git").glob("pedro-*")), "temporary index files are cleaned up"


def test_list_snapshots_numbers_in_order_per_job(dirty: Path) -> None:
    first = take_snapshot(dirty, JOB, "turn 1")
    (dirty / "notes.txt").write_text("changed\n")
    second = take_snapshot(dirty, JOB, "turn 2\nwith a newline\x1b[31m")
    other = take_snapshot(dirty, JOB + "-2", "other job")
    listed = list_snapshots(dirty, JOB)
    assert [s.n for s in listed] == [1, 2]
    assert listed == [first, second]
    assert second.label == "turn 2 with a newline [31m"
    assert first.tree != second.tree
    assert list_snapshots(dirty, JOB + "-2") == [other]
    assert latest_snapshot(dirty, JOB) == second
    assert latest_snapshot(dirty, "no-such-job") is None


def test_restore_undoes_edits_deletions_and_new_files(dirty: Path) -> None:
    snap = take_snapshot(dirty, JOB, "before turn 1")
    expected_files = file_hashes(dirty)
    status = porcelain(dirty)
    head = git(dirty, "rev-parse", "HEAD")

    # what a model might do in one turn
    (dirty / "src" / "app.py").write_text("print('broken by the model')\n")
    (dirty / "src" / "util.py").unlink()
    (dirty / "notes.txt").unlink()
    (dirty / ".env").write_text("API_TOKEN=overwritten\n")
    (dirty / "pkg" / "deep").mkdir(parents=True)
    (dirty / "pkg" / "deep" / "new.py").write_text("new\n")
    (dirty / "scratch.txt").write_text("scratch\n")
    (dirty / "debug.log").write_text("an ignored file created since\n")
    git(dirty, "add", "scratch.txt")

    report = restore_snapshot(dirty, snap, expected=None)

    after = file_hashes(dirty)
    assert after.pop("debug.log")  # ignored files created since stay
    assert after == expected_files
    assert not (dirty / "pkg").exists(), "directories left empty are removed"
    assert porcelain(dirty) == status
    assert git(dirty, "rev-parse", "HEAD") == head
    assert git(dirty, "symbolic-ref", "HEAD").strip() == "refs/heads/main"
    assert set(report.removed) == {"pkg/deep/new.py", "scratch.txt"}
    assert report.kept_ignored == ("debug.log",)
    assert set(report.written) == {"src/app.py", "src/util.py", "notes.txt", ".env"}
    assert report.index_restored
    assert fingerprint_tree(dirty) != snap.tree, "the kept ignored file is part of the state"
    (dirty / "debug.log").unlink()
    assert fingerprint_tree(dirty) == snap.tree
    # the replaced state is kept apart from the numbered snapshots, and can itself be restored
    assert list_snapshots(dirty, JOB) == [snap]
    assert list_backups(dirty, JOB) == [report.backup]
    assert git(dirty, "show", f"{report.backup.commit}:src/app.py") == "print('broken by the model')\n"
    restore_snapshot(dirty, report.backup, expected=None)
    assert (dirty / "pkg" / "deep" / "new.py").read_text() == "new\n"
    assert git(dirty, "diff", "--cached", "--name-only").split() == ["README.md", "scratch.txt"]


def test_restore_refuses_when_the_user_edited_after_the_latest_snapshot(dirty: Path) -> None:
    before = take_snapshot(dirty, JOB, "before turn 1")
    (dirty / "src" / "app.py").write_text("print('pedro edit')\n")
    after = take_snapshot(dirty, JOB, "after turn 1")
    (dirty / "notes.txt").write_text("the user typed this in their editor\n")

    with pytest.raises(SnapshotConflictError) as caught:
        restore_snapshot(dirty, before, expected=after)
    assert isinstance(caught.value, PedroError)
    assert caught.value.changed == ("notes.txt",)
    assert "notes.txt" in str(caught.value) and "--force" in str(caught.value)
    assert (dirty / "notes.txt").read_text() == "the user typed this in their editor\n"
    assert (dirty / "src" / "app.py").read_text() == "print('pedro edit')\n"
    assert list_backups(dirty, JOB) == []

    (dirty / "notes.txt").write_text("untracked notes\n")  # the user's edit undone: undo may go ahead
    restore_snapshot(dirty, before, expected=after)
    assert (dirty / "src" / "app.py").read_text() == "print('v2, unstaged')\n"


def test_repository_without_commits(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q", "-b", "trunk")
    (root / "a.txt").write_text("a\n")
    (root / "staged.txt").write_text("staged\n")
    git(root, "add", "staged.txt")
    before = user_state(root)
    snap = take_snapshot(root, JOB, "start")
    assert user_state(root) == before
    assert snap.head is None and snap.branch == "trunk"
    assert tree_files(root, snap.commit) == {"a.txt", "staged.txt"}
    assert snap.index_tree is not None and tree_files(root, snap.index_tree) == {"staged.txt"}

    (root / "a.txt").write_text("changed\n")
    (root / "b.txt").write_text("new\n")
    restore_snapshot(root, snap, expected=None)
    assert file_hashes(root) == before["files"]
    assert not _has_head(root)


def test_empty_repository_without_index(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    git(root, "init", "-q")
    snap = take_snapshot(root, JOB, "nothing yet")
    assert snap.tree == "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
    (root / "x.txt").write_text("x\n")
    report = restore_snapshot(root, snap, expected=None)
    assert report.removed == ("x.txt",)
    assert not (root / ".git" / "index").exists() or git(root, "ls-files") == ""


def test_paths_with_spaces_unicode_and_odd_characters(repo: Path) -> None:
    names = ["dir with space/naïve café.txt", "日本語/ファイル.md", "-rf", "semi;colon $(x).txt", "new\nline.txt"]
    for name in names:
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(f"content of {name}\n")
    snap = take_snapshot(repo, JOB, "odd names")
    assert set(names) <= tree_files(repo, snap.commit)
    expected = file_hashes(repo)
    for name in names:
        (repo / name).write_text("clobbered\n")
    (repo / "dir with space" / "späť.txt").write_text("new\n")
    report = restore_snapshot(repo, snap, expected=None)
    assert file_hashes(repo) == expected
    assert report.removed == ("dir with space/späť.txt",)


def test_modes_symlinks_and_file_directory_swaps(repo: Path) -> None:
    (repo / "run.sh").write_text("#!/bin/sh\n")
    (repo / "run.sh").chmod(0o755)
    (repo / "link").symlink_to("README.md")
    (repo / "thing").write_text("a file\n")
    snap = take_snapshot(repo, JOB, "modes")
    expected = file_hashes(repo)
    (repo / "run.sh").chmod(0o644)
    (repo / "link").unlink()
    (repo / "link").symlink_to("/etc/passwd")
    (repo / "thing").unlink()
    (repo / "thing").mkdir()
    (repo / "thing" / "inner.txt").write_text("now a directory\n")
    restore_snapshot(repo, snap, expected=None)
    assert file_hashes(repo) == expected
    assert (repo / "link").readlink() == Path("README.md")
    assert os.access(repo / "run.sh", os.X_OK)


def test_huge_untracked_files_are_left_out_and_left_alone(repo: Path) -> None:
    huge = repo / "disk image.img"
    with huge.open("wb") as handle:
        handle.truncate(UNTRACKED_FILE_LIMIT)  # sparse: large on paper, cheap to create
    (repo / "small.txt").write_text("small\n")
    snap = take_snapshot(repo, JOB, "with a huge file")
    assert tree_files(repo, snap.commit) == {"README.md", "small.txt"}
    (repo / "small.txt").write_text("changed\n")
    report = restore_snapshot(repo, snap, expected=None)
    assert report.written == ("small.txt",) and report.removed == ()
    assert huge.stat().st_size == UNTRACKED_FILE_LIMIT


def test_snapshot_refs_survive_gc_prune(dirty: Path) -> None:
    snap = take_snapshot(dirty, JOB, "before gc")
    expected = file_hashes(dirty)
    (dirty / "notes.txt").write_text("overwritten\n")
    (dirty / "README.md").write_text("gone\n")
    git(dirty, "add", "README.md")
    git(dirty, "reflog", "expire", "--expire=now", "--all")
    git(dirty, "gc", "-q", "--prune=now")
    assert snap.index_tree is not None
    for obj in (snap.commit, snap.tree, snap.index_tree, f"{snap.commit}:notes.txt", f"{snap.index_tree}:README.md"):
        git(dirty, "cat-file", "-e", obj)
    assert list_snapshots(dirty, JOB) == [snap]
    restore_snapshot(dirty, snap, expected=None)
    assert file_hashes(dirty) == expected
    assert git(dirty, "show", ":README.md") == "# sample\nstaged line\n"


def test_a_thousand_files_snapshot_and_restore_exactly(repo: Path) -> None:
    """How fast this is lives in `make bench` (benchmarks/bench_snapshot.py); here, that it is exact."""
    for i in range(1000):
        sub = repo / f"pkg{i % 20}"
        sub.mkdir(exist_ok=True)
        (sub / f"mod{i}.py").write_text(f"VALUE = {i}\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "many")
    for i in range(0, 1000, 10):
        (repo / f"pkg{i % 20}" / f"mod{i}.py").write_text("edited\n")
    snap = take_snapshot(repo, JOB, "many files")
    for i in range(0, 1000, 3):
        (repo / f"pkg{i % 20}" / f"mod{i}.py").write_text("model edit\n")
    report = restore_snapshot(repo, snap, expected=None)
    assert len(report.written) == 334
    assert fingerprint_tree(repo) == snap.tree


def test_job_branch_carries_uncommitted_edits_and_leaves_main_alone(dirty: Path) -> None:
    main_ref = git(dirty, "rev-parse", "refs/heads/main")
    files = file_hashes(dirty)
    staged = git(dirty, "diff", "--cached")
    assert ensure_job_branch(dirty, JOB) == "main"
    assert git(dirty, "symbolic-ref", "--short", "HEAD").strip() == f"pedro/{JOB}"
    assert git(dirty, "rev-parse", "refs/heads/main") == main_ref
    assert git(dirty, "rev-parse", "HEAD") == main_ref
    assert file_hashes(dirty) == files
    assert git(dirty, "diff", "--cached") == staged
    assert ensure_job_branch(dirty, JOB) == f"pedro/{JOB}"  # already there: nothing to do
    assert git(dirty, "stash", "list") == ""

    git(dirty, "switch", "-q", "main")
    assert ensure_job_branch(dirty, JOB) == "main"  # an existing job branch is switched to, not recreated
    assert git(dirty, "symbolic-ref", "--short", "HEAD").strip() == f"pedro/{JOB}"


def test_job_branch_in_a_repository_without_commits(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "a.txt").write_text("a\n")
    assert ensure_job_branch(root, JOB) == "main"
    assert git(root, "symbolic-ref", "--short", "HEAD").strip() == f"pedro/{JOB}"
    assert (root / "a.txt").read_text() == "a\n"


def test_repository_hooks_never_run(repo: Path) -> None:
    marker = repo.parent / "hook-ran"
    hooks = repo / ".git" / "hooks"
    for name in ("reference-transaction", "post-checkout"):
        (hooks / name).write_text(f"#!/bin/sh\ntouch '{marker}'\n")
        (hooks / name).chmod(0o755)
    take_snapshot(repo, JOB, "hooks")
    ensure_job_branch(repo, JOB)
    assert not marker.exists()


@pytest.mark.parametrize("job_id", ["", "../main", "a b", "x.lock", "-rf", "a/../b", "a..b", "refs/heads/main"])
def test_job_ids_that_cannot_name_a_ref_are_refused(repo: Path, job_id: str) -> None:
    with pytest.raises(SnapshotError, match="job id"):
        take_snapshot(repo, job_id, "x")
    assert git(repo, "for-each-ref", "refs/pedro") == ""


def test_outside_a_repository_is_an_operator_error(tmp_path: Path) -> None:
    with pytest.raises(SnapshotError, match="failed"):
        take_snapshot(tmp_path, JOB, "x")


def test_huge_untracked_files_made_after_the_snapshot_are_removed_by_restore(repo: Path) -> None:
    kept = repo / "disk image.img"
    with kept.open("wb") as handle:
        handle.truncate(UNTRACKED_FILE_LIMIT)
    snap = take_snapshot(repo, JOB, "a huge file was already there")
    assert snap.left_out == ("disk image.img",)
    runaway = repo / "out" / "big\nfile"
    runaway.parent.mkdir()
    with runaway.open("wb") as handle:
        handle.truncate(UNTRACKED_FILE_LIMIT + 1)  # what a runaway `dd` leaves behind
    report = restore_snapshot(repo, snap, expected=None)
    assert report.removed == ("out/big\nfile",)
    assert not runaway.exists() and not runaway.parent.exists()
    assert kept.stat().st_size == UNTRACKED_FILE_LIMIT


def test_a_huge_file_made_after_the_last_snapshot_is_a_conflict(repo: Path) -> None:
    snap = take_snapshot(repo, JOB, "start")
    with (repo / "download.iso").open("wb") as handle:
        handle.truncate(UNTRACKED_FILE_LIMIT)
    with pytest.raises(SnapshotConflictError) as caught:
        restore_snapshot(repo, snap, expected=snap)
    assert caught.value.changed == ("download.iso",)
    assert (repo / "download.iso").exists()


def test_a_same_size_edit_in_the_same_second_as_the_index_is_captured(repo: Path) -> None:
    """git trusts stat data only for entries older than the index; the snapshot must not lose that check."""
    git(repo, "config", "core.trustctime", "false")  # leave mtime and size as the only stat evidence
    target = repo / "same.txt"
    target.write_text("aaaa\n")
    git(repo, "add", "same.txt")
    git(repo, "commit", "-qm", "same")
    before = target.stat()
    target.write_text("bbbb\n")  # same size
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    index = repo / ".git" / "index"
    os.utime(index, ns=(before.st_atime_ns, before.st_mtime_ns))  # the index was written in that same instant
    snap = take_snapshot(repo, JOB, "racy edit")
    assert git(repo, "show", f"{snap.commit}:same.txt").strip() == "bbbb"


def test_temporary_indexes_a_killed_pedro_left_behind_are_swept(repo: Path) -> None:
    git_dir = repo / ".git"
    gone = subprocess.Popen(["true"])
    gone.wait()
    running = subprocess.Popen(["sleep", "60"])
    try:
        # what a second Ctrl-C (or kill -9) in the middle of a snapshot or a restore leaves in .git/
        stale = [f"pedro-index-{gone.pid}-k2j4h1x0", f"pedro-index-{gone.pid}-k2j4h1x0.lock"]
        stale += [f"pedro-restore-{gone.pid}-a1b2c3d4", "pedro-index-q8w7e6r5"]
        live = f"pedro-index-{running.pid}-z9y8x7w6"  # another pedro's snapshot, under way
        for name in [*stale, live]:
            (git_dir / name).write_bytes(b"DIRC")
        hours_ago = time.time() - 2 * 3600
        os.utime(git_dir / "pedro-index-q8w7e6r5", (hours_ago, hours_ago))  # no pid in the name: an older pedro
        take_snapshot(repo, JOB, "the next start")
        assert sorted(p.name for p in git_dir.glob("pedro-*")) == [live]
    finally:
        running.kill()
        running.wait()


def test_a_snapshot_killed_half_way_leaves_nothing_after_the_next_one(repo: Path) -> None:
    script = (
        "import sys, time\nfrom pathlib import Path\nfrom pedro.safety.tempindex import temporary_index\n"
        "with temporary_index(Path(sys.argv[1]), 'index', copy_of=Path(sys.argv[1]) / 'index') as path:\n"
        "    print(path.name, flush=True)\n    time.sleep(60)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script, str(repo / ".git")], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    name = child.stdout.readline().strip()
    child.kill()
    child.wait()
    child.stdout.close()
    assert (repo / ".git" / name).is_file()
    take_snapshot(repo, JOB, "the next start")
    assert list((repo / ".git").glob("pedro-*")) == []


def merge_in_progress(repo: Path) -> None:
    git(repo, "switch", "-q", "-c", "other")
    (repo / "README.md").write_text("theirs\n")
    git(repo, "commit", "-q", "-am", "theirs")
    git(repo, "switch", "-q", "main")
    (repo / "README.md").write_text("ours\n")
    git(repo, "commit", "-q", "-am", "ours")


def test_mid_merge_the_job_branch_refusal_names_the_real_fixes(repo: Path) -> None:
    merge_in_progress(repo)
    assert subprocess.run(["git", "merge", "other"], cwd=repo, capture_output=True, check=False).returncode != 0
    with pytest.raises(SnapshotError) as caught:
        ensure_job_branch(repo, JOB)
    message = str(caught.value)
    assert "a merge is in progress" in message and "cannot switch branch while merging" in message
    assert "git merge --abort" in message and "pedro review" in message
    assert "--isolate" not in message


def test_mid_rebase_the_job_branch_refusal_names_the_real_fixes(repo: Path) -> None:
    merge_in_progress(repo)
    assert subprocess.run(["git", "rebase", "other"], cwd=repo, capture_output=True, check=False).returncode != 0
    with pytest.raises(SnapshotError) as caught:
        ensure_job_branch(repo, JOB)
    message = str(caught.value)
    assert "a rebase is in progress" in message and "git rebase --abort" in message
    assert "--isolate" not in message


def test_a_snapshot_after_a_known_one_reads_back_as_written_and_yields_a_number_another_took(dirty: Path) -> None:
    """The next number is tried from the snapshot the caller knows, and the snapshot is built from what was written
    rather than listed again; a number another pedro took meanwhile sends it to the next free one."""
    first = take_snapshot(dirty, JOB, "turn 1")
    (dirty / "notes.txt").write_text("changed by the round\n")
    taken_meanwhile = take_snapshot(dirty, JOB, "another pedro's snapshot")
    (dirty / "notes.txt").write_text("changed again\n")
    after = snapshot_if_changed(dirty, JOB, "after round 1", since=first, changes_by="pedro")
    assert after is not None and (taken_meanwhile.n, after.n) == (2, 3)
    assert list_snapshots(dirty, JOB) == [first, taken_meanwhile, after]
    assert after.changes_by == "pedro" and after.index_tree == first.index_tree
    assert snapshot_if_changed(dirty, JOB, "unchanged", since=after) is None


def test_the_index_tree_follows_every_change_to_the_index(
    dirty: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index whose stamp has not moved is not written out again; one git rewrote (staged, reset, a new
    repository in the same folder) is."""
    monkeypatch.setattr("pedro.safety.treestate.SETTLE_NS", 0)  # every stamp is trusted at once
    staged_readme = git(dirty, "rev-parse", ":README.md").strip()
    first = take_snapshot(dirty, JOB, "start")
    assert first.index_tree is not None and git(dirty, "rev-parse", f"{first.index_tree}:README.md").strip() == (
        staged_readme
    )
    assert take_snapshot(dirty, JOB, "again").index_tree == first.index_tree
    git(dirty, "add", "src/app.py")
    staged = take_snapshot(dirty, JOB, "app staged")
    assert staged.index_tree is not None
    assert git(dirty, "show", f"{staged.index_tree}:src/app.py") == "print('v2, unstaged')\n"
    git(dirty, "reset", "-q")
    reset = take_snapshot(dirty, JOB, "reset")
    assert reset.index_tree is not None and git(dirty, "show", f"{reset.index_tree}:README.md") == "# sample\n"
    shutil.rmtree(dirty / ".git")
    git(dirty, "init", "-q", "-b", "main", f"--separate-git-dir={tmp_path / 'elsewhere.git'}")
    fresh = take_snapshot(dirty, JOB, "a new repository here, kept elsewhere")
    assert (fresh.n, fresh.head, fresh.index_tree) == (1, None, EMPTY_TREE)
    assert git(dirty, "rev-parse", fresh.ref).strip() == fresh.commit

"""Where pedro agrees to run, and how it notices that the repository changed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from repo_util import git

from pedro.errors import UsageError
from pedro.workspace import find_repo_root, fingerprint, is_git_repo


def test_finds_the_top_of_the_repository(repo: Path) -> None:
    (repo / "src").mkdir()
    assert find_repo_root(repo / "src") == repo.resolve()


def test_refuses_a_directory_outside_git(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="git init"):
        find_repo_root(tmp_path)
    assert find_repo_root(tmp_path, allow_outside_git=True) == tmp_path.resolve()


def test_refuses_root_and_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UsageError, match="refusing to run in /"):
        find_repo_root(Path("/"), allow_outside_git=True)
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(UsageError, match="refusing"):
        find_repo_root(tmp_path, allow_outside_git=True)


def test_refuses_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not a directory"):
        find_repo_root(tmp_path / "missing")


def test_fingerprint_sees_edits_new_files_and_reverts(repo: Path) -> None:
    clean = fingerprint(repo)
    (repo / "README.md").write_text("changed\n")
    edited = fingerprint(repo)
    assert edited != clean
    (repo / "new.txt").write_text("a")
    with_new = fingerprint(repo)
    assert with_new != edited
    (repo / "new.txt").write_text("b")
    assert fingerprint(repo) != with_new  # content of untracked files counts
    git(repo, "checkout", "--", "README.md")
    (repo / "new.txt").unlink()
    assert fingerprint(repo) == clean


def test_fingerprint_sees_a_changed_file_change_again_a_rename_and_a_commit(repo: Path) -> None:
    (repo / "README.md").write_text("one\n")
    once = fingerprint(repo)
    (repo / "README.md").write_text("two\n")  # status still says " M": the content tells
    assert fingerprint(repo) != once
    git(repo, "checkout", "--", "README.md")
    clean = fingerprint(repo)
    git(repo, "mv", "README.md", "READ ME.md")
    moved = fingerprint(repo)
    assert moved != clean
    (repo / "READ ME.md").write_text("moved and changed\n")
    assert fingerprint(repo) != moved
    git(repo, "commit", "-qam", "rename")
    assert fingerprint(repo) not in (clean, moved)


def test_fingerprint_outside_git_sees_the_files_but_not_pedros_own(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("a\n")
    assert not is_git_repo(tmp_path)
    clean = fingerprint(tmp_path)
    (tmp_path / ".pedro" / "jobs").mkdir(parents=True)
    (tmp_path / ".pedro" / "jobs" / "job.json").write_text("{}")
    assert fingerprint(tmp_path) == clean
    (tmp_path / "notes.txt").write_text("b\n")
    edited = fingerprint(tmp_path)
    assert edited != clean
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "new.py").write_text("")
    assert fingerprint(tmp_path) != edited
    (tmp_path / "src" / "new.py").unlink()
    (tmp_path / "notes.txt").write_text("a\n")
    assert fingerprint(tmp_path) == clean
    (tmp_path / "zeros").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "pipe")
    assert fingerprint(tmp_path) != clean  # links are not followed, pipes not read: both would never end

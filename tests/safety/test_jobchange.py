"""The job's own change to each file, told apart from the user's uncommitted edits, on real git repositories."""

from __future__ import annotations

from pathlib import Path

from repo_util import git

from pedro.safety.jobchange import JobDelta, job_versions
from pedro.safety.snapshots import head_commit, take_snapshot

JOB = "20250101-120000-cd34"
LINES = "".join(f"line {n}\n" for n in range(1, 21))


def _delta(repo: Path, user: dict[str, str | None], job: dict[str, str | None]) -> JobDelta:
    """The user's uncommitted edits (`user`; None deletes), a snapshot, the job's edits (`job`), a snapshot."""
    _write(repo, user)
    start = take_snapshot(repo, JOB, "job start")
    _write(repo, job)
    end = take_snapshot(repo, JOB, "job end")
    return JobDelta(start.tree, head_commit(repo), end.tree, tuple(sorted(job)))


def _write(repo: Path, files: dict[str, str | None]) -> None:
    for name, text in files.items():
        if text is None:
            (repo / name).unlink()
        else:
            (repo / name).write_text(text)


def _text(repo: Path, blob: str) -> str:
    return git(repo, "cat-file", "blob", blob)


def _committed(repo: Path) -> Path:
    (repo / "notes.txt").write_text(LINES)
    git(repo, "add", "notes.txt")
    git(repo, "commit", "-qm", "notes")
    return repo


def test_without_user_edits_the_job_s_version_is_taken_whole(repo: Path) -> None:
    delta = _delta(_committed(repo), {}, {"notes.txt": LINES + "line 21\n", "new.txt": "made by the job\n"})
    versions = job_versions(repo, delta)
    assert not versions.clashes
    assert {path: _text(repo, entry.blob) for path, entry in versions.entries.items() if entry} == {
        "new.txt": "made by the job\n",
        "notes.txt": LINES + "line 21\n",
    }


def test_a_user_edit_away_from_the_job_s_lines_is_taken_out(repo: Path) -> None:
    mine = LINES.replace("line 2\n", "line 2, as I had it\n")
    delta = _delta(_committed(repo), {"notes.txt": mine}, {"notes.txt": mine.replace("line 19\n", "line nineteen\n")})
    versions = job_versions(repo, delta)
    entry = versions.entries["notes.txt"]
    assert entry is not None and not versions.clashes
    assert _text(repo, entry.blob) == LINES.replace("line 19\n", "line nineteen\n")


def test_a_user_edit_on_the_job_s_lines_clashes(repo: Path) -> None:
    mine = LINES.replace("line 5\n", "line 5, mine\n")
    delta = _delta(_committed(repo), {"notes.txt": mine}, {"notes.txt": mine.replace("line 5, mine\n", "five\n")})
    versions = job_versions(repo, delta)
    assert versions.clashes == {"notes.txt": "your uncommitted edits and the job's change touch the same lines"}
    assert "notes.txt" not in versions.entries


def test_a_file_git_does_not_hold_is_the_user_s_and_clashes(repo: Path) -> None:
    delta = _delta(repo, {"draft.txt": "my draft\n"}, {"draft.txt": "my draft\nand the job's line\n"})
    versions = job_versions(repo, delta)
    assert set(versions.clashes) == {"draft.txt"} and not versions.entries


def test_a_file_the_job_deleted_is_removed_unless_the_user_had_edited_it(repo: Path) -> None:
    _committed(repo)
    (repo / "other.txt").write_text("other\n")
    git(repo, "add", "other.txt")
    git(repo, "commit", "-qm", "other")
    delta = _delta(repo, {"other.txt": "other, edited\n"}, {"notes.txt": None, "other.txt": None})
    versions = job_versions(repo, delta)
    assert versions.entries == {"notes.txt": None}
    assert set(versions.clashes) == {"other.txt"}

"""Where a failing test leads in the repository's own code, found without a model: the deepest frame in non-test
code, the function around it as repair locates it (tree-sitter), and the last commit that changed those lines."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pedro import gitlayer
from pedro.repair.frames import Frame, frames_of, is_test_file
from pedro.repair.locate import Unit, locate
from pedro.tools.testreport import FailedTest
from pedro.triage.accounts import frames_text
from pedro.triage.logparse import LoggedFailure

MAX_CULPRITS = 10
"""Failing tests followed into the code; locating reads the repository's sources, so a run of hundreds stops here."""
_SEPARATOR = "\x1f"


@dataclass(frozen=True)
class LastChange:
    """The last commit that changed a range of lines (`git log -L`)."""

    commit: str
    date: str
    """The author date, ISO 8601."""
    subject: str
    path: str
    start_line: int
    end_line: int

    def to_dict(self) -> dict[str, object]:
        return {
            "commit": self.commit,
            "date": self.date,
            "subject": self.subject,
            "file": self.path,
            "start_line": self.start_line,
            "end_line": self.end_line,
        }


@dataclass(frozen=True)
class Culprit:
    """What pedro found behind one failing test; each part is None where it found none."""

    frame: Frame | None
    """The deepest frame in the repository's own non-test code."""
    function: Unit | None
    """The function repair would ask a model to rewrite: around that frame, else the one the failing line calls."""
    change: LastChange | None


def find_culprit(failure: LoggedFailure, root: Path) -> Culprit | None:
    """The culprit of one failing test, or None when the log leads to no code of the repository."""
    frames = [frame for frame in frames_of(frames_text(failure.excerpt), root) if not is_test_file(frame.path)]
    frame = frames[0] if frames else None
    location = f"{failure.file}:{failure.line}" if failure.file and failure.line else ""
    failed = FailedTest(failure.name, location, failure.message, details=failure.excerpt)
    units = locate([failed], root, limit=1)
    function = units[0] if units else None
    if frame is not None and (function is None or frame.path != function.path):
        path, first, last = frame.path, frame.line, frame.line
    elif function is not None:
        path, first, last = function.path, function.start_line, function.end_line
    else:
        return None
    return Culprit(frame, function, last_change(root, path, first, last))


def last_change(root: Path, path: str, first: int, last: int) -> LastChange | None:
    """The last commit that changed lines first..last of `path`, or None without history (a fresh checkout of
    files never committed, not a git repository)."""
    try:
        result = gitlayer.run(
            root, "log", "-L", f"{first},{last}:{path}", "-n", "1", "-s", "--format=%H%x1f%aI%x1f%s", timeout=30
        )
    except gitlayer.GitError:
        return None
    fields = result.out.strip().splitlines()[0].split(_SEPARATOR) if result.ok and result.out.strip() else []
    if len(fields) != 3:
        return None
    return LastChange(fields[0], fields[1], fields[2], path, first, last)

"""A test against None where the value's truth was meant, or the other way round."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_among_the_first

from pedro.repair.none_checks import none_checks

DIFF = '''\
"""Files of a diff and their hunks."""


class Hunks(list):
    """The hunks of one file."""

    def add_blank(self):
        if not self:
            raise ValueError("a blank line before any hunk")
        self[-1].append("")


def parse(lines):
    """Each file's hunks; a blank line joins the file's last hunk, and one after a file with none is skipped."""
    files = []
    current = None
    for line in lines:
        if line.startswith("+++ "):
            current = Hunks()
            files.append(current)
        elif line.startswith("@@"):
            current.append([line])
        elif line == "" and current is not None:
            current.add_blank()
    return files
'''

DIFF_TESTS = """\
from diff import parse


def test_a_blank_joins_the_last_hunk():
    assert parse(["+++ a", "@@", ""]) == [[["@@", ""]]]


def test_a_blank_after_a_file_without_hunks_is_skipped():
    assert parse(["+++ a", "", "+++ b", "@@", ""]) == [[], [["@@", ""]]]
"""


def test_each_term_of_a_condition_is_turned_between_none_and_truth() -> None:
    lines = [
        "def f(line, current, found, x):",
        "    if line == '' and current is not None:",
        "        pass",
        "    elif not found or x.y is None:",
        "        pass",
        "    while current:  # walk",
        "        current = current.next",
    ]
    to_truth = [(c.row, c.text) for c in none_checks(lines, to_none=False)]
    assert to_truth == [(1, "    if line == '' and current:"), (3, "    elif not found or not x.y:")]
    to_none = [(c.row, c.text) for c in none_checks(lines, to_none=True)]
    assert to_none == [(3, "    elif found is None or x.y is None:"), (5, "    while current is not None:  # walk")]


def test_a_blank_after_a_file_without_hunks_is_skipped_once_its_check_is_of_truth(repo: Path) -> None:
    fixed_among_the_first(
        repo, {"diff.py": DIFF, "test_diff.py": DIFF_TESTS}, "`current is not None` → `current`", first=8
    )

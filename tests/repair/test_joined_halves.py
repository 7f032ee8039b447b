"""A sequence cut in two and joined back in its own order (`s[:k] + s[k:]`, which is `s`): the halves joined the
other way round, in every language, and a circular shift fixed by it through the real repair."""

from __future__ import annotations

from pathlib import Path

from repo_util import commit_files
from test_mutants import tried_changes
from test_repairer import repair

from pedro.repair.joined_halves import joined_halves

SHIFT = (
    "def circular_shift(x, shift):\n"
    '    """The digits of x shifted right by shift, wrapping around, as text."""\n'
    "    s = str(x)\n"
    "    if shift > len(s):\n"
    "        return s[::-1]\n"
    "    return s[:len(s) - shift] + s[len(s) - shift:]\n"
)


def test_halves_joined_back_unchanged_are_joined_the_other_way_round() -> None:
    (change,) = joined_halves(SHIFT.splitlines(), "python")
    assert (change.row, change.text) == (5, "    return s[len(s) - shift:] + s[:len(s) - shift]")
    assert change.change == "the two halves of `s` cut at `len(s) - shift` joined the other way round"
    js = ["const rotate = (s, n) => {", "  return s.slice(0, -n) + s.slice(-n);", "};"]
    assert [c.text for c in joined_halves(js, "javascript")] == ["  return s.slice(-n) + s.slice(0, -n);"]
    go = ["func Rotate(word string, k int) string {", "\treturn word[0:k] + word[k:]", "}"]
    assert [c.text for c in joined_halves(go, "go")] == ["\treturn word[k:] + word[:k]"]


def test_a_rotation_two_cuts_or_two_sequences_are_left_alone() -> None:
    lines = [
        "def f(s, t, k, j):",
        "    a = s[k:] + s[:k]",  # a rotation already
        "    b = s[:k] + s[j:]",  # cut at two places: a piece left out
        "    c = s[:k] + t[k:]",  # two sequences spliced
        "    return a + b + c",
    ]
    assert joined_halves(lines, "python") == []
    js = ["function f(s, k) {", "  return s.slice(0, k) + s.substring(k);", "}"]
    assert joined_halves(js, "javascript") == []


def test_a_circular_shift_that_gives_its_number_back_is_fixed_by_the_halves_swapped(repo: Path) -> None:
    commit_files(
        repo,
        {
            "shift.py": SHIFT,
            "test_shift.py": (
                "from shift import circular_shift\n\n\ndef test_circular_shift():\n"
                '    assert circular_shift(12, 1) == "21"\n    assert circular_shift(1234, 1) == "4123"\n'
                '    assert circular_shift(12, 2) == "12"\n    assert circular_shift(97, 8) == "79"\n'
            ),
        },
    )
    outcome, backend, events = repair(repo, [], coverage=True, mutants=60, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    tried = tried_changes(events)
    assert tried[0][1:] == ("the two halves of `s` cut at `len(s) - shift` joined the other way round", "fixed"), tried
    assert "    return s[len(s) - shift:] + s[:len(s) - shift]\n" in (repo / "shift.py").read_text()

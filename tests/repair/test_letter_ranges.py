"""A range of character codes with one end on a letter case's edge and the other off it: the other end moved to the
case's other edge, ranges on both edges (or neither) left alone, and a sum of capitals' codes fixed through the real
repair."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_by_a_variant, tried_changes

from pedro.repair.letter_ranges import letter_ranges

UPPER_SUM = (
    "def upper_sum(text):\n"
    '    """The sum of the codes of the capital letters in text."""\n'
    "    total = 0\n"
    "    for ch in text:\n"
    "        code = ord(ch)\n"
    "        if code > 64 and code < 100:\n"
    "            total += code\n"
    "    return total\n"
)


def test_the_end_of_a_letter_range_off_its_cases_edge_is_moved_onto_it() -> None:
    (change,) = letter_ranges(UPPER_SUM.splitlines())
    assert (change.row, change.text) == (5, "        if code > 64 and code < 91:")
    assert change.change == "`100` → `91`: the range's other end is on the edge of `A`…`Z`"
    js = ["    if (m >= 10 && m <= 122) { n++ }"]
    assert [c.text for c in letter_ranges(js)] == ["    if (m >= 97 && m <= 122) { n++ }"]


def test_ranges_on_both_edges_or_on_none_are_left_alone() -> None:
    lines = [
        "  a = c >= 65 && c <= 90",
        "  b = c > 64 and c < 123",
        "  d = c >= 48 && c <= 57",
        "  e = c >= 0 && c < 5",
    ]
    assert letter_ranges(lines) == []


def test_a_sum_of_capitals_codes_that_takes_in_three_small_letters_is_fixed(repo: Path) -> None:
    test = (
        "from codes import upper_sum\n\n\ndef test_upper_sum():\n"
        '    assert upper_sum("abAB") == 131\n    assert upper_sum("helloE") == 69\n'
    )
    events = fixed_by_a_variant(repo, {"codes.py": UPPER_SUM, "test_codes.py": test}, mutants=20)
    tried = tried_changes(events)
    assert tried[0][1:] == ("`100` → `91`: the range's other end is on the edge of `A`…`Z`", "fixed"), tried
    assert "        if code > 64 and code < 91:\n" in (repo / "codes.py").read_text()

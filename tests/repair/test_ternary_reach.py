"""A conditional expression that takes in more than was meant, narrowed by parentheses to the operand beside it."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_among_the_first

from pedro.repair.ternary_reach import ternary_reach

WIDTH = '''\
"""Cells a text takes in a terminal."""

import unicodedata


def cell_width(text):
    """Two cells for a wide character, none for a combining one, one for any other."""
    east = unicodedata.east_asian_width
    return sum([east(c) in "WF" and 2 or 0 if unicodedata.combining(c) else 1 for c in text])
'''

WIDTH_TESTS = """\
from width import cell_width


def test_plain():
    assert cell_width("abc") == 3


def test_combining():
    assert cell_width("a\\u0301") == 1


def test_wide():
    assert cell_width("\\u4e2d\\u6587") == 4
"""


def test_each_one_line_conditional_is_narrowed_on_either_side_where_it_chooses_an_operation() -> None:
    lines = [
        "def f(a, b, c, d, s):",
        "    x = a if c else b + d",
        "    y = 'é' + s if s else ''",
        "    z = a if c else b",
        "    return g(a) if c else g(b)",
    ]
    changes = [(change.row, change.text) for change in ternary_reach(lines)]
    assert changes == [(1, "    x = (a if c else b) + d"), (2, "    y = 'é' + (s if s else '')")]


def test_a_width_whose_condition_took_in_the_wide_characters_rule_is_fixed_among_the_first(repo: Path) -> None:
    fixed_among_the_first(repo, {"width.py": WIDTH, "test_width.py": WIDTH_TESTS}, "narrowed to `0` on its left")

"""Repair of values overwritten before anything reads them: the overwriting lines taken out, alone and together."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from repo_util import commit_files
from test_repairer import repair

from pedro.repair.overwritten_stores import overwritten_stores


def _changes(text: str) -> list[tuple[int, tuple[int, ...], str]]:
    source = textwrap.dedent(text)
    found = overwritten_stores(ast.parse(source), source.splitlines())
    return [(change.row, tuple(row for row, _ in change.also), change.change) for change in found]


def test_lines_that_overwrite_unread_values_are_taken_out_together_then_alone() -> None:
    changes = _changes(
        """\
        def ratio(x, y):
            a, b = x.split("/")
            c, d = y.split("/")
            a = int(b) * int(c)
            d = int(c) * int(b)
            return int(a) * int(c) / (int(b) * int(d))
        """
    )
    assert [(row, also) for row, also, _ in changes] == [(3, (4,)), (3, ()), (4, ())]
    assert (
        changes[0][2] == "`a = int(b) * int(c)` and `d = int(c) * int(b)` taken out: each overwrites a value never read"
    )


def test_a_parameter_overwritten_before_it_is_read_is_one_too_but_values_read_or_changed_first_are_not() -> None:
    changes = _changes(
        """\
        def f(xs, k):
            total = 0
            for x in xs:
                total = total + x
            k = 3
            n = len(xs)
            n = n + 1
            items = []
            items.append(n)
            items = [2]
            seen = {}
            seen[0] = 1
            seen = {}
            y = 1
            later = lambda: y
            y = 2
            return total, k, n, items, seen, later
        """
    )
    assert [(row, also) for row, also, _ in changes] == [(4, ())]


def test_a_fraction_whose_parts_are_overwritten_by_two_added_lines_is_fixed_by_taking_both_out(repo: Path) -> None:
    commit_files(
        repo,
        {
            "fractions_util.py": (
                "def whole_product(x, n):\n"
                '    """Whether the product of the fractions `x` and `n` ("1/5", "5/1") is a whole number."""\n'
                '    a, b = x.split("/")\n    c, d = n.split("/")\n    a = int(b) * int(c)\n'
                "    d = int(c) * int(b)\n    numerator = int(a) * int(c)\n    denom = int(b) * int(d)\n"
                "    return numerator % denom == 0\n"
            ),
            "test_fractions_util.py": (
                "from fractions_util import whole_product\n\n\ndef test_whole_product():\n"
                '    assert whole_product("1/5", "5/1")\n    assert not whole_product("1/6", "2/1")\n'
                '    assert whole_product("7/2", "4/7")\n    assert not whole_product("1/2", "2/3")\n'
            ),
        },
    )
    text = fixed_by_taking_out_together(repo, "fractions_util.py", mutants=40)
    assert "a = int(b) * int(c)" not in text and "d = int(c) * int(b)" not in text


def fixed_by_taking_out_together(repo: Path, path: str, *, mutants: int) -> str:
    """Repair without the model, fixed first by a group of overwriting lines taken out; the fixed file's text."""
    outcome, backend, events = repair(repo, [], coverage=True, mutants=mutants, candidates=0, rivals=3)
    assert outcome.fixed and backend.requests == [], outcome.summary
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    assert fixed[0]["change"].endswith("taken out: each overwrites a value never read"), fixed
    return (repo / path).read_text()


def test_a_line_that_overwrites_an_unread_value_only_once_the_line_above_is_out_joins_the_group() -> None:
    changes = _changes(
        """\
        def signs(xs):
            below = [x for x in xs if x < 0]
            above = [x for x in xs if x > 0]
            above = [x for x in below if x > 0]
            below = [x for x in above if x > 0]
            return below, above
        """
    )
    assert [(row, also) for row, also, _ in changes] == [(3, (4,)), (3, ())]
    assert changes[0][2].startswith("`above = [x for x in below if x > 0]` and `below = [x for x in above if x > 0]`")


def test_two_added_lines_that_read_each_other_are_taken_out_together_through_the_loop(repo: Path) -> None:
    commit_files(
        repo,
        {
            "extremes.py": (
                "def extremes(values):\n"
                '    """The largest negative value and the smallest positive one, None where there is none."""\n'
                "    negatives = [v for v in values if v < 0]\n    positives = [v for v in values if v > 0]\n"
                "    positives = [v for v in negatives if v > 0]\n    negatives = [v for v in positives if v > 0]\n"
                "    return (max(negatives) if negatives else None, min(positives) if positives else None)\n"
            ),
            "test_extremes.py": (
                "from extremes import extremes\n\n\ndef test_extremes():\n"
                "    assert extremes([2, 4, 1, 3, 5, 7]) == (None, 1)\n    assert extremes([-3, -1, 2, 5]) == (-1, 2)\n"
                "    assert extremes([]) == (None, None)\n"
            ),
        },
    )
    text = fixed_by_taking_out_together(repo, "extremes.py", mutants=80)
    assert "positives = [v for v in negatives" not in text and "negatives = [v for v in positives" not in text

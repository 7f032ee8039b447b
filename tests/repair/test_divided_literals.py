"""A number divided by a number beside a name (`len - 1 / 2`): the division given the whole and the name alone, left
alone where it already is, and a median that reads the wrong middle fixed through the real repair."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_by_a_variant, tried_changes

from pedro.repair.divided_literals import divided_literals

MEDIAN = (
    "def median(xs):\n"
    '    """The middle value of xs; of an even count, the mean of the two in the middle."""\n'
    "    xs = sorted(xs)\n"
    "    n = len(xs)\n"
    "    if n % 2 == 1:\n"
    "        return xs[n // 2]\n"
    "    return (xs[n - 1 // 2] + xs[n // 2]) / 2\n"
)


def test_the_division_is_given_the_whole_and_the_name_alone() -> None:
    assert [c.text.strip() for c in divided_literals(MEDIAN.splitlines(), "python")] == [
        "return (xs[(n - 1) // 2] + xs[n // 2]) / 2",
        "return (xs[n // 2 - 1] + xs[n // 2]) / 2",
    ]
    js = ["  return (l[len - 1 / 2] + l[len / 2]) / 2.0;"]
    assert [c.change for c in divided_literals(js, "javascript")] == [
        "`len - 1 / 2` → `(len - 1) / 2`: the division meant for more than `1`",
        "`len - 1 / 2` → `len / 2 - 1`: the division meant for more than `1`",
    ]


def test_divisions_of_a_name_numbers_alone_and_comments_are_left_alone() -> None:
    python = ["  a = n / 2 - 1", "  b = 3 - 1 / 2", "  c = n // 2  # n - 1 // 2 here"]
    assert divided_literals(python, "python") == divided_literals(["  x = n - 1 // 2;"], "javascript") == []


def test_a_median_that_reads_the_wrong_middle_of_an_even_count_is_fixed(repo: Path) -> None:
    test = (
        "from stats import median\n\n\ndef test_median():\n    assert median([3, 1, 2, 4, 5]) == 3\n"
        "    assert median([10, 4, 6, 1000, 20, 8]) == 9\n    assert median([8, 1, 3, 9, 9, 2, 7]) == 7\n"
    )
    events = fixed_by_a_variant(repo, {"stats.py": MEDIAN, "test_stats.py": test}, mutants=20)
    tried = tried_changes(events)
    # floored, (n - 1) // 2 is n // 2 - 1 for an even n: the first rewriting is right
    assert tried[0][1:] == ("`n - 1 // 2` → `(n - 1) // 2`: the division meant for more than `1`", "fixed"), tried
    assert "    return (xs[(n - 1) // 2] + xs[n // 2]) / 2\n" in (repo / "stats.py").read_text()

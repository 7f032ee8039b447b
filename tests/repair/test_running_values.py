"""A running value taken of the whole collection inside the loop that walks it: made the value so far and the item,
in Python, JavaScript and Go, left alone elsewhere, and a rolling maximum fixed through the real repair."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_mutants import fixed_among_the_first

from pedro.repair.running_values import running_values

ROLLING = (
    "def rolling_max(numbers):\n    running_max = None\n    result = []\n    for n in numbers:\n"
    "        if running_max is None:\n            running_max = n\n        else:\n"
    "            running_max = max(numbers)\n        result.append(running_max)\n    return result\n"
)


def test_a_running_value_of_the_whole_collection_is_made_of_the_value_so_far_and_the_item_in_each_language() -> None:
    assert [(change.row, change.text) for change in running_values(ROLLING.splitlines(), "python")] == [
        (7, "            running_max = max(running_max, n)")
    ]
    js = ["  for (const n of numbers) {", "    if (best == undefined)", "      best = n;", "    else",
          "      best = Math.min(...numbers);", "    out.push(best);", "  }"]  # fmt: skip
    assert [(change.row, change.text) for change in running_values(js, "javascript")] == [
        (4, "      best = Math.min(best, n);")
    ]
    go = ["\tfor _, n := range numbers {", "\t\tif first {", "\t\t\tm = n", "\t\t} else {",
          "\t\t\tm = int(math.Max(numbers))", "\t\t}", "\t}"]  # fmt: skip
    assert [(change.row, change.text) for change in running_values(go, "go")] == [
        (4, "\t\t\tm = int(math.Max(float64(m), float64(n)))")
    ]


@pytest.mark.parametrize(
    ("lines", "language"),
    [
        # the largest of the whole list, taken once before the loop
        (["    best = max(numbers)", "    for n in numbers:", "        out.append(n / best)"], "python"),
        # the largest of another list than the one walked
        (["    for n in numbers:", "        best = max(limits)", "        out.append(best)"], "python"),
        # inside the loop but not assigned to a name: a comparison
        (["  for (const n of numbers) {", "    if (n === Math.max(...numbers)) count++;", "  }"], "javascript"),
    ],
)  # fmt: skip
def test_a_value_of_the_whole_collection_outside_its_loop_or_of_another_is_left_alone(
    lines: list[str], language: str
) -> None:
    assert running_values(lines, language) == []


def test_a_rolling_maximum_that_takes_the_largest_of_the_whole_list_is_fixed(repo: Path) -> None:
    test = (
        "from rolling import rolling_max\n\n\ndef test_rolling_max():\n"
        "    assert rolling_max([1, 2, 3, 2, 3, 4, 2]) == [1, 2, 3, 3, 3, 4, 4]\n"
    )
    fixed_among_the_first(repo, {"rolling.py": ROLLING, "test_rolling.py": test}, "`max(numbers)` →")
    assert "running_max = max(running_max, n)" in (repo / "rolling.py").read_text()

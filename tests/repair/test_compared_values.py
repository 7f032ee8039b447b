"""An `if` that compares a value with its target and assigns the target something else: made to keep the value it
compared, one `if` at a time and every such `if` of the target at once, in Python and JavaScript."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from repo_util import commit_files, node_test
from test_repairer import repair

from pedro.repair.compared_values import compared_values

NEIGHBOURS = [
    "  if (m > 0 && grid[m - 1][n] < low) { low = grid[m][n] }",
    "  if (n > 0 && grid[m][n - 1] < low) { low = grid[m][n]; }",
    "  if (x > best)",
    "    best = y;",
]


def test_each_comparison_keeps_the_value_it_compared_and_a_targets_slips_are_mended_together() -> None:
    found = [(change.row, change.text, change.also) for change in compared_values(NEIGHBOURS, "javascript")]
    assert found == [
        (0, "  if (m > 0 && grid[m - 1][n] < low) { low = grid[m - 1][n] }", ()),
        (1, "  if (n > 0 && grid[m][n - 1] < low) { low = grid[m][n - 1]; }", ()),
        (3, "    best = x;", ()),
        (
            0,
            "  if (m > 0 && grid[m - 1][n] < low) { low = grid[m - 1][n] }",
            ((1, "  if (n > 0 && grid[m][n - 1] < low) { low = grid[m][n - 1]; }"),),
        ),
    ]
    python = [
        "    for v in values:",
        "        if v > best: best = other",
        "        elif best < v:",
        "            best = w",
    ]
    assert [change.text for change in compared_values(python, "python")][:2] == [
        "        if v > best: best = v",
        "            best = v",
    ]


@pytest.mark.parametrize(
    ("lines", "language"),
    [
        (["    if v > best:", "        best = v"], "python"),  # keeps what it compared
        (["    if v > best:", "        top = 0"], "python"),  # another name
        (["    if a[i] < a[low]:", "        low = i"], "python"),  # an index kept, its item compared
        (["    if v > best and v < top:", "        best = v"], "python"),
        (["  if (count > limit) count = 0; else x = 1"], "javascript"),  # more than one statement
        (["  if (a == b) { a = c }"], "javascript"),  # no order
        (["  if (lo < x < hi) { lo = 0 }"], "javascript"),
        (["    if v > best:", "        best = v", "        return 1"], "go"),
    ],
)
def test_code_that_keeps_what_it_compared_or_compares_nothing_with_its_target_is_left_alone(
    lines: list[str], language: str
) -> None:
    assert compared_values(lines, language) == []


def test_a_running_maximum_that_keeps_the_wrong_value_is_fixed(repo: Path) -> None:
    code = (
        'def tallest(heights):\n    """The greatest height, or 0 for none."""\n    top = 0\n'
        "    for h in heights:\n        if h > top:\n            top = heights[0]\n    return top\n"
    )
    test = "from heights import tallest\n\n\ndef test_tallest():\n    assert tallest([2, 9, 4]) == 9\n"
    commit_files(repo, {"heights.py": code, "test_heights.py": test})
    outcome, backend, events = repair(repo, [], coverage=True, mutants=200, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    assert "the value it compared" in str(fixed[0]["change"]), fixed
    assert "            top = h\n" in (repo / "heights.py").read_text()


def test_a_slip_copied_to_every_neighbour_is_fixed_in_one_candidate(repo: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    code = (
        "function lowestNear(row, i) {\n  let low = row[i];\n"
        "  if (i > 0 && row[i - 1] < low) { low = row[i]; }\n"
        "  if (i < row.length - 1 && row[i + 1] < low) { low = row[i]; }\n"
        "  return low;\n}\n\nmodule.exports = { lowestNear };\n"
    )
    test = node_test(
        "near", "lowestNear", "assert.equal(lowestNear([5, 3, 4], 2), 3);", "assert.equal(lowestNear([4, 5, 1], 1), 1);"
    )
    commit_files(repo, {"near.js": code, "near.test.js": test})
    outcome, backend, events = repair(repo, [], command="node --test", mutants=200, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    assert fixed[0]["change"] == "each of 2 comparisons with `low` keeps the value it compared", fixed
    text = (repo / "near.js").read_text()
    assert "{ low = row[i - 1]; }" in text and "{ low = row[i + 1]; }" in text

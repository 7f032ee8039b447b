"""Two boolean answers swapped together: offered for each pair of opposite literal returns, and a check written as
"any" where "all" was meant fixed through the real repair."""

from __future__ import annotations

from pathlib import Path

from repo_util import commit_files
from test_mutants import tried_changes
from test_repairer import repair

from pedro.repair.swapped_returns import swapped_returns

ALL_EVEN = (
    "def all_even(xs):\n"
    '    """Whether every number of xs is even."""\n'
    "    for x in xs:\n"
    "        if x % 2 == 1:\n"
    "            return True\n"
    "    return False\n"
)


def test_each_pair_of_opposite_answers_is_swapped_on_both_lines() -> None:
    changes = swapped_returns(ALL_EVEN.splitlines())
    assert [(c.row, c.text, c.also) for c in changes] == [(4, "            return False", ((5, "    return True"),))]
    go = ["func Sorted(l []int) bool {", "\tif len(l) < 2 {", "\t\treturn true;", "\t}", "\treturn false", "}"]
    assert [(c.text, c.also) for c in swapped_returns(go)] == [("\t\treturn false;", ((4, "\treturn true"),))]
    # Answers alike, a computed answer, and none at all: no pair.
    same = ["def f(x):", "    if x:", "        return True", "    return True"]
    computed = ["def f(x):", "    if x:", "        return x > 1", "    return False"]
    assert swapped_returns(same) == [] and swapped_returns(computed) == [] and swapped_returns(["def f():"]) == []


def test_a_check_written_as_any_where_all_was_meant_is_offered_both_answers_swapped_and_fixed(repo: Path) -> None:
    commit_files(
        repo,
        {
            "checks.py": ALL_EVEN,
            "test_checks.py": (
                "from checks import all_even\n\n\ndef test_all_even():\n"
                "    assert all_even([2, 4]) is True\n    assert all_even([2, 3]) is False\n"
            ),
        },
    )
    outcome, backend, events = repair(repo, [], coverage=True, mutants=60, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    tried = tried_changes(events)
    # Two single flips that each fail may be paired too; the swap itself is offered among the first variants.
    assert any("swapped between the two lines" in str(change) for _n, change, _s in tried[:6]), tried
    assert "            return False\n    return True\n" in (repo / "checks.py").read_text()

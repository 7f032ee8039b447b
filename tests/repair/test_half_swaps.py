"""A swap through a temporary that lost its middle step (`tmp = p[j]`, then `p[ind] = tmp`): the step put back, left
alone where the swap is whole or the temporary is read again, and a selection sort fixed through the real repair."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_by_a_variant, tried_changes

from pedro.repair.half_swaps import half_swaps

SORT = (
    "def sort_descending(xs):\n"
    '    """xs sorted largest first, in place."""\n'
    "    for j in range(len(xs)):\n"
    "        best = j\n"
    "        for k in range(j + 1, len(xs)):\n"
    "            if xs[k] > xs[best]:\n"
    "                best = k\n"
    "        tmp = xs[j]\n"
    "        xs[best] = tmp\n"
    "    return xs\n"
)


def test_the_middle_step_of_a_swap_through_a_temporary_is_put_back() -> None:
    (change,) = half_swaps(SORT.splitlines())
    assert (change.row, change.text) == (8, "        xs[j] = xs[best]\n        xs[best] = tmp")
    assert change.change == "`xs[j] = xs[best]` added: the swap through `tmp` lacked its middle step"
    js = ["    if (ind > j) {", "      let tmp = p[j]", "      p[ind] = tmp;", "    }"]
    assert [c.text for c in half_swaps(js)] == ["      p[j] = p[ind];\n      p[ind] = tmp;"]


def test_a_whole_swap_and_a_value_kept_for_later_are_left_alone() -> None:
    whole = ["    tmp = a[i]", "    a[i] = a[j]", "    a[j] = tmp"]
    kept = ["    first = xs[0]", "    out[0] = first", "    return first"]
    assert half_swaps(whole) == half_swaps(kept) == []


def test_a_selection_sort_whose_swap_lost_a_step_is_fixed(repo: Path) -> None:
    test = (
        "from order import sort_descending\n\n\ndef test_sort_descending():\n"
        "    assert sort_descending([2, 1, 1, 4, 5, 8, 2, 3]) == [8, 5, 4, 3, 2, 2, 1, 1]\n"
    )
    events = fixed_by_a_variant(repo, {"order.py": SORT, "test_order.py": test}, mutants=20)
    tried = tried_changes(events)
    assert tried[0][1:] == ("`xs[j] = xs[best]` added: the swap through `tmp` lacked its middle step", "fixed"), tried
    assert "        xs[j] = xs[best]\n        xs[best] = tmp\n" in (repo / "order.py").read_text()

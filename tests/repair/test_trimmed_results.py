"""A result the failure shows with one item too many at one end: which end, read from node's JSON texts and pytest's
lists; the value each `return` gives with that item dropped; and a derivative that keeps the constant term's zero
fixed through the real repair."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_by_a_variant, tried_changes

from pedro.repair.progress import extra_ends
from pedro.repair.trimmed_results import trimmed_results

DERIVATIVE = (
    "def derivative(xs):\n"
    '    """The coefficients of the derivative of the polynomial xs[0] + xs[1] * x + xs[2] * x^2 + ..."""\n'
    "    return [i * x for i, x in enumerate(xs)]\n"
)


def test_the_end_that_holds_one_item_too_many_is_read_from_the_compared_lists() -> None:
    assert extra_ends("    '[0,1,4,12,20]' !== '[1,4,12,20]'\n") == {"first"}
    assert extra_ends("E       assert ['a', 'b', ''] == ['a', 'b']\n") == {"last"}
    assert extra_ends("E       assert [0, 0] == [0]\n") == {"first", "last"}
    # one item fewer, another item, or a real item too many (dropping it would only fit the test): nothing to drop
    assert extra_ends("E       assert [1, 2] == [1, 2, 0]\nE       assert [0, 2, 3] == [2, 4]\n") == set()
    assert extra_ends("E       assert [1, 3, 4] == [1, 3]\nE       assert [False, True] == [True]\n") == set()


def test_the_value_each_return_gives_has_that_end_dropped() -> None:
    (change,) = trimmed_results(DERIVATIVE.splitlines(), "python", frozenset({"first"}))
    assert (change.row, change.text) == (2, "    return [i * x for i, x in enumerate(xs)][1:]")
    js = ["const derivative = (xs) => {", "  return xs.map((x, i) => x * i);", "}"]
    assert [c.text for c in trimmed_results(js, "javascript", frozenset({"first"}))] == [
        "  return xs.map((x, i) => x * i).slice(1);"
    ]
    go = ["func Evens(xs []int) []int {", "\treturn append(out, 0)", "\treturn out", "}"]
    assert [c.text for c in trimmed_results(go, "go", frozenset({"last"}))] == ["\treturn out[:len(out)-1]"]
    assert trimmed_results(["def f(a, b):", "    return a + b"], "python", frozenset({"last"}))[0].text == (
        "    return (a + b)[:-1]"
    )


def test_a_derivative_that_keeps_the_constant_terms_zero_is_fixed(repo: Path) -> None:
    test = (
        "from poly import derivative\n\n\ndef test_derivative():\n"
        "    assert derivative([3, 1, 2, 4, 5]) == [1, 4, 12, 20]\n    assert derivative([1, 2, 3]) == [2, 6]\n"
    )
    events = fixed_by_a_variant(repo, {"poly.py": DERIVATIVE, "test_poly.py": test}, mutants=20)
    tried = tried_changes(events)
    change = "the first item of what `return` gives dropped: the failure has one more"
    assert tried[0][1:] == (change, "fixed"), tried
    assert "    return [i * x for i, x in enumerate(xs)][1:]\n" in (repo / "poly.py").read_text()

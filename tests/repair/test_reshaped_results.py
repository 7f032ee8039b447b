"""A result with the right items in the wrong shape (repeats kept, or out of order), as the failure shows it: read
from the compared lists, offered on each `return`, and fixed through the real repair in Python and JavaScript."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from repo_util import node_test
from test_mutants import fixed_by_a_variant, tried_by_node

from pedro.messages import Event
from pedro.repair.node_diffs import node_diff_values
from pedro.repair.progress import result_shapes
from pedro.repair.reshaped_results import reshaped_results


def first_fix(events: list[Event]) -> Mapping[str, Any]:
    """The first candidate a repair found fixing the failing tests."""
    return next(e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed")


def test_the_failure_says_what_a_list_lacks_only_where_its_items_are_right() -> None:
    assert result_shapes("'[0,2,3,3,5]' !== '[0,2,3,5]'") == {"repeats"}
    assert result_shapes("'[5,3,5,2]' !== '[2,3,5]'") == {"repeats", "ascending"}
    assert result_shapes("E       assert [3, 1, 2] == [1, 2, 3]") == {"ascending"}
    assert result_shapes("E       AssertionError: assert ['a', 'b', 'b'] == ['a', 'b']") == {"repeats"}
    assert result_shapes("E       assert ['a', 'c', 'b'] == ['c', 'b', 'a']") == {"descending"}
    # Other items, other counts, no order to give, or items of no one kind: nothing to say.
    unlike = (
        "'[1,1,4]' !== '[1,2]'",
        "E       assert [3, 1, 4] == [1, 2, 3]",
        "E       assert [2, 1] == [2, 1, 1]",
        "'[3,1,2]' !== '[2,3,1]'",
        "'[1,\"a\"]' !== '[\"a\",1]'",
        '\'[{"b":1},{"a":1}]\' !== \'[{"a":1},{"b":1}]\'',
    )
    for text in unlike:
        assert result_shapes(text) == set(), text


def test_each_return_gets_each_shape_then_repeats_left_out_and_sorted_together() -> None:
    lines = ["const unique = (l) => {", "  if (!l.length) return [];", "  return l.sort((a, b) => a - b);", "};"]
    changes = reshaped_results(lines, "javascript", frozenset({"repeats", "ascending"}))
    assert [(change.row, change.text) for change in changes] == [
        (2, "  return [...new Set(l.sort((a, b) => a - b))];"),
        (2, "  return [...l.sort((a, b) => a - b)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));"),
        (2, "  return [...new Set(l.sort((a, b) => a - b))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));"),
    ]
    python = reshaped_results(["def f(xs):", "    return [x for x in xs if x]"], "python", frozenset({"descending"}))
    assert [change.text for change in python] == ["    return sorted([x for x in xs if x], reverse=True)"]
    # Go reshapes a slice it can name, in a block of its own before the return.
    go = ["func F(xs []int) []int {", "\treturn xs", "}"]
    (block,) = reshaped_results(go, "go", frozenset({"ascending"}))
    assert block.text.splitlines()[1] == "\treturn xs" and "xs[j] < xs[j-1]" in block.text.splitlines()[0]
    assert (
        reshaped_results(["func F(xs []int) []int {", "\treturn append(xs, 1)", "}"], "go", frozenset({"repeats"}))
        == []
    )


def test_a_python_result_that_keeps_repeats_is_fixed_by_leaving_them_out(repo: Path) -> None:
    files = {
        "tags.py": "def tags(items):\n    return sorted(items)\n",
        "test_tags.py": "from tags import tags\n\n\ndef test_tags():\n    assert tags(['b', 'a', 'b']) == ['a', 'b']\n",
    }
    events = fixed_by_a_variant(repo, files)
    kept = first_fix(events)
    assert "repeats left out" in str(kept.get("change"))
    assert "return list(dict.fromkeys(sorted(items)))" in (repo / "tags.py").read_text()


@pytest.mark.parametrize(
    "check",
    [
        "assert.ok(JSON.stringify(ranks([3, -1, 2, 10])) === JSON.stringify([2, 3, 10]));",
        "assert.deepStrictEqual(ranks([3, -1, 2, 10]), [2, 3, 10]);",
    ],
    ids=["json-texts", "deep-equal"],
)
def test_a_javascript_result_out_of_order_is_fixed_by_sorting_it(repo: Path, check: str) -> None:
    files = {
        "ranks.js": "function ranks(xs) {\n  return xs.filter((x) => x > 0);\n}\n\nmodule.exports = { ranks };\n",
        "ranks.test.js": node_test("ranks", "ranks", check, strict=False),
    }
    tried = tried_by_node(repo, files)
    assert "ascending" in str(tried[-1].get("change")), [c.get("change") for c in tried]
    assert ".sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))" in (repo / "ranks.js").read_text()


@pytest.mark.parametrize("recording", ["node_deep_equal.txt", "jest_deep_equal.txt"])
def test_a_deep_equal_diff_gives_both_lists_back(recording: str) -> None:
    # Recorded: `assert.deepStrictEqual(["b", "a", "b"], ["a", "b"])` under node --test, and jest's
    # `expect(["b", "a", "b"]).toStrictEqual(["a", "b"])`, as the test tool reads each failure.
    recorded = (Path(__file__).parents[1] / "fixtures" / "testreports" / recording).read_text()
    assert set(map(repr, node_diff_values(recorded))) == {repr((["b", "a", "b"], ["a", "b"]))}
    assert result_shapes(recorded) == {"repeats", "ascending"}
    # A jest diff cut to a hunk (`@@ -1,6 +1,7 @@`) leaves a side unknown.
    hunk = "- Expected  - 0\n+ Received  + 1\n\n@@ -1,6 +1,7 @@\n  Array [\n+   0,\n    1,\n  ]"
    assert node_diff_values(hunk) == []


def test_chai_s_one_line_comparison_gives_both_lists_as_vitest_reports_it() -> None:
    # vitest 1's failure for `expect(["b", "a", "b"]).toStrictEqual(["a", "b"])`: its report keeps only this line.
    assert result_shapes("expected [ 'b', 'a', 'b' ] to strictly equal [ 'a', 'b' ]") == {"repeats", "ascending"}
    assert result_shapes("expected [ 3, 2, 10 ] to deeply equal [ 2, 3, 10 ]") == {"ascending"}
    # vitest's own diff, where a reporter keeps it, has no counts after `- Expected`.
    diff = "- Expected\n+ Received\n\n  Array [\n-   2,\n    3,\n+   2,\n    10,\n  ]\n"
    assert node_diff_values(diff) == [([3, 2, 10], [2, 3, 10])]
    assert result_shapes("expected [ 1, 2, 3, … 96 more items ] to deeply equal [ 1 ]") == set()


def test_a_diff_s_sides_are_read_as_literals_or_not_at_all() -> None:
    scalars = "+ actual - expected\n\n+ 'ab'\n- 'abc'\n"
    assert node_diff_values(scalars) == [("ab", "abc")]
    words = "+ actual - expected\n\n  [\n+   true,\n-   null,\n    'x]',\n    1\n  ]\n    at f (a.js:1:1)"
    assert node_diff_values(words) == [([True, "x]", 1], [None, "x]", 1])]
    # Lines node left out, or values no literal holds: nothing.
    assert node_diff_values("+ actual - expected\n\n  [\n+   1,\n...\n  ]") == []
    assert node_diff_values("+ actual - expected\n\n  {\n+   a: 1\n-   a: 2\n  }") == []


def test_a_javascript_result_compared_deeply_that_keeps_a_zero_too_many_is_trimmed(repo: Path) -> None:
    files = {
        "steps.js": "function steps(xs) {\n  return xs.map((x, i) => x * i);\n}\n\nmodule.exports = { steps };\n",
        "steps.test.js": node_test("steps", "steps", "assert.deepStrictEqual(steps([3, 1, 2]), [1, 4]);"),
    }
    tried = tried_by_node(repo, files)
    assert "first item" in str(tried[-1].get("change")), [c.get("change") for c in tried]
    assert ".slice(1)" in (repo / "steps.js").read_text()


def test_go_slices_are_read_from_testify_and_from_a_test_s_own_message() -> None:
    testify = (
        "    solution_test.go:9: Not equal: \n        expected: []int{0, 2, 3, 5}\n        actual  : []int{0, 2, 3, 3}"
    )
    assert result_shapes(testify.replace("3, 3}", "3, 3, 5}")) == {"repeats"}
    assert result_shapes('expected: []string{"a", "b"}\n actual: []string{"b", "a"}') == {"ascending"}
    assert result_shapes("    tags_test.go:12: Tags() got [3 1 2], want [3 2 1]") == {"descending"}
    # A map, or a slice of structs, is no list of items to compare.
    assert result_shapes("expected: map[int]int{1:2}\n actual: map[int]int{2:1}") == set()


def test_a_go_result_that_keeps_repeats_is_fixed_in_a_block_before_its_return(repo: Path) -> None:
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    unique = 'package tags\n\nimport "sort"\n\nfunc Unique(l []int) []int {\n\tsort.Ints(l)\n\treturn l\n}\n'
    test = (
        'package tags\n\nimport (\n\t"reflect"\n\t"testing"\n)\n\nfunc TestUnique(t *testing.T) {\n'
        "\tif got, want := Unique([]int{5, 3, 5, 2, 3}), []int{2, 3, 5}; !reflect.DeepEqual(got, want) {\n"
        '\t\tt.Errorf("got %v, want %v", got, want)\n\t}\n}\n'
    )
    files = {"go.mod": "module example.com/tags\n\ngo 1.19\n", "tags.go": unique, "tags_test.go": test}
    events = fixed_by_a_variant(repo, files, command="go test ./...")
    kept = first_fix(events)
    assert "repeats left out" in str(kept.get("change"))
    assert "seen := map[interface{}]bool{}" in (repo / "tags.go").read_text()


def test_unittest_s_lists_are_read_and_a_result_out_of_order_is_sorted(repo: Path) -> None:
    assert result_shapes("AssertionError: Lists differ: [3, 1, 2, 2] != [1, 2, 3]") == {"repeats", "ascending"}
    assert result_shapes("AssertionError: Tuples differ: ('b', 'a') != ('a', 'b')") == {"ascending"}
    assert (
        result_shapes("AssertionError: Lists differ: [0, 1, 2,[103 chars], 39] != [0, 1, 2,[103 chars], 40]") == set()
    )
    files = {
        "ranks.py": "def ranks(xs):\n    return [x for x in xs if x > 0]\n",
        "test_ranks.py": (
            "import unittest\n\nfrom ranks import ranks\n\n\nclass RanksTest(unittest.TestCase):\n"
            "    def test_ranks(self):\n        self.assertEqual(ranks([3, -1, 2, 10]), [2, 3, 10])\n"
        ),
    }
    events = fixed_by_a_variant(repo, files, command=f"{sys.executable} -m unittest")
    kept = first_fix(events)
    assert "ascending" in str(kept.get("change"))
    assert "return sorted([x for x in xs if x > 0])" in (repo / "ranks.py").read_text()

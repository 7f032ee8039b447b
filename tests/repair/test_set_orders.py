"""Two collections of distinct items compared in the order their items came: each sorted first, through the real
repair in JavaScript, and offered in Python."""

from __future__ import annotations

from pathlib import Path

from repo_util import node_test
from test_mutants import tried_by_node

from pedro.repair.set_orders import set_orders


def test_two_sets_compared_in_the_order_their_items_came_are_each_sorted_first(repo: Path) -> None:
    same = (
        "const sameChars = (s0, s1) => {\n"
        "  return JSON.stringify([...new Set(s0)]) === JSON.stringify([...new Set(s1)]);\n}\n"
    )
    files = {
        "chars.js": f"{same}\nmodule.exports = {{ sameChars }};\n",
        "chars.test.js": node_test(
            "chars", "sameChars", "assert.equal(sameChars('abcd', 'dddcba'), true);",
            "assert.equal(sameChars('abcd', 'dddcbe'), false);",
        ),
    }  # fmt: skip
    tried = tried_by_node(repo, files)
    assert "distinct items sorted" in str(tried[-1].get("change")), [c.get("change") for c in tried]
    assert "[...new Set(s0)].sort()" in (repo / "chars.js").read_text()
    # Python's way to distinct items in order, the same; one such collection alone, or no comparison, is left.
    python = ["def same(a, b):", "    return list(dict.fromkeys(a)) == list(dict.fromkeys(b))"]
    (python_sorted,) = set_orders(python, "python")
    assert python_sorted.text == "    return sorted(list(dict.fromkeys(a))) == sorted(list(dict.fromkeys(b)))"
    assert set_orders(["  return [...new Set(a)].length === n;"], "javascript") == []
    assert set_orders(["  const both = [[...new Set(a)], [...new Set(b)]];"], "javascript") == []

"""An item compared with its mirror against a plain name that holds no item: the name made the item, in each language,
and a palindrome's count of changes fixed for real."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_among_the_first

from pedro.repair.mirror_pairs import mirror_pairs


def test_a_count_compared_with_an_items_mirror_is_made_the_item() -> None:
    python = ["def f(arr):", "    for i in range(len(arr) // 2):", "        if ans != arr[len(arr) - i - 1]:"]
    assert [(c.row, c.text) for c in mirror_pairs(python)] == [(2, "        if arr[i] != arr[len(arr) - i - 1]:")]
    js = ["  for (let k = 0; k < n; k++) {", "    if (arr.at(-k - 1) !== seen) {"]
    assert [c.text for c in mirror_pairs(js)] == ["    if (arr.at(-k - 1) !== arr[k]) {"]
    go = ["\tfor i := 0; i < len(s)/2; i++ {", "\t\tif count == s[len(s)-1-i] {"]
    assert [c.text for c in mirror_pairs(go)] == ["\t\tif s[i] == s[len(s)-1-i] {"]


def test_a_name_that_holds_an_item_a_literal_or_another_collection_is_left_alone() -> None:
    holds = ["    for i in range(n):", "        x = arr[i]", "        if x != arr[len(arr) - i - 1]:"]
    assert mirror_pairs(holds) == []
    assert mirror_pairs(["    for i in range(n):", "        if arr[-i - 1] == None:"]) == []
    assert mirror_pairs(["    for i in range(n):", "        if b[i] != arr[len(arr) - i - 1]:"]) == []
    # The counter of no loop: a mirror by some other number.
    assert mirror_pairs(["    if ans != arr[len(arr) - k - 1]:"]) == []


def test_a_palindromes_count_of_changes_compared_with_the_count_is_fixed_by_a_variant(repo: Path) -> None:
    code = (
        "def smallest_change(arr):\n    ans = 0\n    for i in range(len(arr) // 2):\n"
        "        if ans != arr[len(arr) - i - 1]:\n            ans += 1\n    return ans\n"
    )
    test = (
        "from palindrome import smallest_change\n\n\ndef test_smallest_change():\n"
        "    assert smallest_change([1, 2, 3, 5, 4, 7, 9, 6]) == 4\n    assert smallest_change([1, 2, 3, 2, 1]) == 0\n"
    )
    fixed_among_the_first(repo, {"palindrome.py": code, "test_palindrome.py": test}, "`ans` → `arr[i]`")
    assert "        if arr[i] != arr[len(arr) - i - 1]:\n" in (repo / "palindrome.py").read_text()

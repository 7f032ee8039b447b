"""A comparator that answers only ties (`if ia == ja { return ib < jb }` and nothing after it): the comparison of the
tied values added after it, each way round, and a Go sort that does not build fixed by it through the real repair."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_mutants import fixed_by_a_variant, tried_changes

from pedro.repair.tie_breaks import tie_breaks

FIND_MAX = (
    "package words\n\n"
    'import "sort"\n\n'
    "// FindMax is the word with the most distinct letters; of several, the first in order.\n"
    "func FindMax(words []string) string {\n"
    "\tkey := func(word string) (int, string) {\n"
    "\t\tset := make(map[rune]struct{})\n"
    "\t\tfor _, r := range word {\n"
    "\t\t\tset[r] = struct{}{}\n"
    "\t\t}\n"
    "\t\treturn -len(set), word\n"
    "\t}\n"
    "\tsort.SliceStable(words, func(i, j int) bool {\n"
    "\t\tia, ib := key(words[i])\n"
    "\t\tja, jb := key(words[j])\n"
    "\t\tif ia == ja {\n"
    "\t\t\treturn ib < jb\n"
    "\t\t}\n"
    "\t})\n"
    "\treturn words[0]\n"
    "}\n"
)


def test_the_comparison_of_the_tied_values_follows_a_tie_that_ends_the_comparator() -> None:
    lines = FIND_MAX.splitlines()[5:]
    assert [(c.row, c.text) for c in tie_breaks(lines, "go")] == [
        (13, "\t\t}\n\t\treturn ia < ja"),
        (13, "\t\t}\n\t\treturn ia > ja"),
    ]
    js = [
        "const order = (xs) => {",
        "  return xs.sort((a, b) => {",
        "    if (a.n === b.n) {",
        "      return a.s - b.s;",
    ]
    assert tie_breaks([*js, "    }", "  });", "};"], "javascript") == []  # a difference, not a comparison
    answered = ["function f(a, b) {", "  if (a.n === b.n) {", "    return a.s < b.s;", "  }", "  return a.n < b.n;"]
    assert tie_breaks([*answered, "}"], "javascript") == []
    assert tie_breaks(lines, "python") == []


def test_a_go_sort_that_does_not_build_for_its_missing_return_is_fixed(repo: Path) -> None:
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    test = (
        'package words\n\nimport "testing"\n\nfunc TestFindMax(t *testing.T) {\n'
        '\tif got := FindMax([]string{"name", "enam", "game"}); got != "enam" {\n\t\tt.Error(got)\n\t}\n'
        '\tif got := FindMax([]string{"name", "of", "string"}); got != "string" {\n\t\tt.Error(got)\n\t}\n}\n'
    )
    files = {"go.mod": "module example.com/words\n\ngo 1.19\n", "words.go": FIND_MAX, "words_test.go": test}
    events = fixed_by_a_variant(repo, files, mutants=20, command="go test ./...")
    tried = tried_changes(events)
    assert tried[0][1:] == (
        "`return ia < ja` added after the tie's comparison: the comparator answered only ties",
        "fixed",
    )
    assert "\t\t}\n\t\treturn ia < ja\n\t})\n" in (repo / "words.go").read_text()

"""A JavaScript callback whose arrow lost a character (`xs.filter(x > x % 2 == 0)`): the arrow put back where the
name is defined nowhere in the unit, left alone where it is, and an even-number filter fixed through the real
repair."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from repo_util import commit_files, node_test
from test_mutants import tried_changes
from test_repairer import repair

from pedro.repair.broken_arrows import broken_arrows

EVENS = "function evens(xs) {\n  return xs.filter(x > x % 2 === 0);\n}\n\nmodule.exports = { evens };\n"


def test_the_arrow_of_a_callback_whose_name_nothing_defines_is_put_back() -> None:
    (change,) = broken_arrows(EVENS.splitlines(), "javascript")
    assert (change.row, change.text) == (1, "  return xs.filter(x => x % 2 === 0);")
    assert change.change == "`x >` → `x =>`: the callback's arrow"
    sort = ["const f = (xs) => {", "  return xs.sort((a, b) = a - b)", "}"]
    assert [c.text for c in broken_arrows(sort, "javascript")] == ["  return xs.sort((a, b) => a - b)"]


def test_a_comparison_of_a_defined_name_and_other_languages_are_left_alone() -> None:
    defined = ["const f = (xs, y) => {", "  const k = 2", "  return xs.filter(y > 2).map(k = 3)", "}"]
    assert broken_arrows(defined, "javascript") == broken_arrows(EVENS.splitlines(), "python") == []


def test_an_even_number_filter_that_throws_for_its_lost_arrow_is_fixed(repo: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    test = node_test("evens", "evens", "assert.deepEqual(evens([1, 2, 3, 4]), [2, 4]);")
    commit_files(repo, {"evens.js": EVENS, "evens.test.js": test})
    outcome, backend, events = repair(repo, [], command="node --test", mutants=20, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    tried = tried_changes(events)
    assert tried[0][1:] == ("`x >` → `x =>`: the callback's arrow", "fixed"), tried

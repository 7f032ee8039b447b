"""A condition that could never change (one value said to differ from each of several literals with `or`, or to
equal each with `and`): its joining words turned, over as many lines as it takes, in Python, JavaScript and Go; and
where the two comparisons stand apart, the outermost operator joining them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from repo_util import commit_files, node_test
from test_repairer import repair

from pedro.repair.fixed_conditions import conditions_fixed_apart, fixed_conditions


def test_a_run_that_is_always_true_or_always_false_has_its_joiners_turned_over_its_lines() -> None:
    js = [
        "    if (w[i] != 'a' || w[i] != 'e' ||",
        "      w[i] != 'o') {",
        "      n++;",
        "    }",
    ]
    assert [(c.row, c.text, c.also) for c in fixed_conditions(js, "javascript")] == [
        (0, "    if (w[i] != 'a' && w[i] != 'e' &&", ()),
    ]
    python = ['    if c != "a" or c != "b":', "        n += 1", "    while x == 1 and x == 2 or y:"]
    assert [c.text for c in fixed_conditions(python, "python")] == [
        '    if c != "a" and c != "b":',
        "    while x == 1 or x == 2 or y:",
    ]
    split = ["    if (s[0] !== 'x' ||", "        s[0] !== 'y') {"]
    assert fixed_conditions(split, "javascript")[0].text == "    if (s[0] !== 'x' &&"
    assert [c.text for c in fixed_conditions(["\tif c != 'a' || c != 'b' {"], "go")] == ["\tif c != 'a' && c != 'b' {"]


@pytest.mark.parametrize(
    ("line", "language"),
    [
        ('    if c == "a" or c == "b":', "python"),  # can change
        ('    if c != "a" and c != "b":', "python"),
        ("    if a != 1 or b != 2:", "python"),  # two values
        ('    if c != "a" or c != "a":', "python"),  # the same literal
        ("    if c != 1 or c == 2:", "python"),
        ("  if (x !== 1 && x !== 2) {", "javascript"),
        ("\tif c == 'a' || c == 'b' {", "go"),
    ],
)
def test_a_condition_that_can_change_is_left_alone(line: str, language: str) -> None:
    assert fixed_conditions([line], language) == []


def test_a_count_of_letters_that_counted_every_letter_is_fixed_by_its_first_candidate(repo: Path) -> None:
    code = (
        'def consonants(word):\n    """How many letters of word are not vowels."""\n    n = 0\n'
        "    for c in word:\n        if c != 'a' or c != 'e' or c != 'i' or c != 'o' or c != 'u':\n"
        "            n += 1\n    return n\n"
    )
    test = "from letters import consonants\n\n\ndef test_consonants():\n    assert consonants('house') == 2\n"
    commit_files(repo, {"letters.py": code, "test_letters.py": test})
    outcome, backend, events = repair(repo, [], coverage=True, mutants=40, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    tried = [event.data for event in events if event.type == "repair.candidate"]
    assert tried[-1]["n"] == 1 and "could never change" in str(tried[-1]["change"]), tried
    assert "c != 'a' and c != 'e' and c != 'i' and c != 'o' and c != 'u':" in (repo / "letters.py").read_text()


def test_a_javascript_condition_over_two_lines_is_turned_on_both(repo: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    code = (
        "function consonants(word) {\n  let n = 0;\n  for (const c of word) {\n"
        "    if (c !== 'a' || c !== 'e' || c !== 'i' ||\n      c !== 'o' || c !== 'u') {\n      n++;\n    }\n  }\n"
        "  return n;\n}\n\nmodule.exports = { consonants };\n"
    )
    test = node_test("letters", "consonants", "assert.equal(consonants('house'), 2);")
    commit_files(repo, {"letters.js": code, "letters.test.js": test})
    outcome, backend, _events = repair(repo, [], command="node --test", mutants=40, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    text = (repo / "letters.js").read_text()
    assert "if (c !== 'a' && c !== 'e' && c !== 'i' &&\n      c !== 'o' && c !== 'u') {" in text


def test_the_outermost_operator_joining_two_comparisons_that_cannot_both_hold_is_flipped() -> None:
    lines = [
        '    } else if ((state === "upper" && key !== up) && (state === "lower" && key !== down)) {',
        "    if (x != 1 || y || x != 2) {",
        "    ok = n == 0 && m == 1 && n == 2",
        '    if x == "a" && x == "b" {',  # side by side: fixed_conditions' run
    ]
    changes = conditions_fixed_apart(lines, "javascript")
    assert [(change.row, change.text.strip()) for change in changes] == [
        (0, '} else if ((state === "upper" && key !== up) || (state === "lower" && key !== down)) {'),
        (1, "if (x != 1 && y || x != 2) {"),
        (1, "if (x != 1 || y && x != 2) {"),
        (2, "ok = n == 0 || m == 1 && n == 2"),
        (2, "ok = n == 0 && m == 1 || n == 2"),
    ]
    python = ['    if kind == "a" and ready and kind == "b":']
    assert [c.text for c in conditions_fixed_apart(python, "python")] == [
        '    if kind == "a" or ready and kind == "b":',
        '    if kind == "a" and ready or kind == "b":',
    ]


def test_comparisons_that_can_both_hold_are_left_alone() -> None:
    lines = [
        "    if x == 1 or y or x == 2:",  # either may hold
        "    if x == 1 and f(x == 2):",  # the second is an argument
        "    if x == 1 and y and not x == 2:",  # negated
        "    if a.x == 1 and y and b.x == 2:",  # not a plain name
        "    if x == 1 and (y or x == 2):",  # another operator between
        "    if x != 1 and y and x != 2:",  # both may hold
        "    if x == 1 and y and x == 1:",  # the same literal
    ]
    assert conditions_fixed_apart(lines, "python") == []


def test_a_case_check_whose_two_states_are_asked_at_once_is_fixed_first_by_the_operator_joining_them(
    repo: Path,
) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    cases = (
        "function oneCase(keys) {\n  let state = 'start';\n  for (const key of keys) {\n"
        "    if (state === 'start') {\n      state = key === key.toUpperCase() ? 'upper' : 'lower';\n"
        "    } else if ((state === 'upper' && key !== key.toUpperCase()) && (state === 'lower' && key !== "
        "key.toLowerCase())) {\n      return false;\n    }\n  }\n  return true;\n}\nmodule.exports = { oneCase };\n"
    )
    test = node_test(
        "cases",
        "oneCase",
        "assert.equal(oneCase(['A', 'B']), true);",
        "assert.equal(oneCase(['A', 'b']), false);",
        "assert.equal(oneCase(['a', 'B']), false);",
    )
    commit_files(repo, {"cases.js": cases, "cases.test.js": test})
    outcome, backend, events = repair(
        repo, [], coverage=True, mutants=40, candidates=0, rivals=3, command="node --test"
    )
    assert outcome.fixed and backend.requests == [], outcome.summary
    tried = [event.data for event in events if event.type == "repair.candidate"]
    assert tried[0]["status"] == "fixed" and "could never change" in tried[0]["change"], tried
    assert ") || (state === 'lower'" in (repo / "cases.js").read_text()

"""Coverage-guided repair on real repositories: the ranking, line questions, progress kept, pairs, overfitting."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from repo_util import PYTEST, commit_files, git

from pedro.backends.base import GenerationOptions
from pedro.backends.scripted import ScriptedBackend
from pedro.config import RepairConfig
from pedro.dispatch import Dispatcher
from pedro.evidence import ProjectTests
from pedro.messages import Event, Message
from pedro.repair import Repairer
from pedro.repair.candidate import special_cases
from pedro.repair.evaluate import CandidateRuns
from pedro.repair.locate import Unit, locate
from pedro.repair.spectrum import measure, ochiai, suspects
from pedro.roles import get_role
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext
from pedro.tools.test import RunTestsArgs

# Three modules: the test imports app, app imports pricing, pricing imports rates, where the bug is.
SHOP = {
    "rates.py": (
        'def tax_rate(region):\n    if region == "eu":\n        return 0.2\n'
        '    if region == "uk":\n        return 0.02\n    return 0.0\n'
    ),
    "pricing.py": (
        "from rates import tax_rate\n\n\ndef with_tax(amount, region):\n    return amount * (1 + tax_rate(region))\n"
    ),
    "app.py": (
        "from pricing import with_tax\n\n\n"
        "def total(items, region):\n    return round(sum(with_tax(price, region) for price in items), 2)\n"
    ),
    "test_app.py": (
        "from app import total\n\n\n"
        'def test_total_eu():\n    assert total([10, 20], "eu") == 36.0\n\n\n'
        'def test_total_us():\n    assert total([10], "us") == 10.0\n\n\n'
        'def test_total_uk():\n    assert total([10, 20], "uk") == 36.0\n'
    ),
}


def asks_for_line(prompt: str, line: str) -> bool:
    """Whether the prompt is a line question about `line` (as the file has it, indented or not)."""
    return f"most likely to be wrong is this one:\n\n```python\n{line.strip()}\n```" in prompt


def repair(
    repo: Path, replies: Any, *, candidates: int = 1, mutants: int = 0
) -> tuple[Any, ScriptedBackend, list[Event]]:
    backend = ScriptedBackend(replies)
    ctx = ToolContext(root=repo)
    events: list[Event] = []

    def emit(type_: str, **data: Any) -> None:
        events.append(Event(type=type_, job_id="j", seq=len(events) + 1, data=data))  # type: ignore[arg-type]

    repairer = Repairer(
        backend=backend,
        dispatcher=Dispatcher(ToolRegistry.default(get_role("debugger").tools), ctx),
        tests=ProjectTests(RunTestsArgs(command=PYTEST), ctx),
        config=RepairConfig(candidates=candidates, rivals=0, mutants=mutants),
        options=GenerationOptions(),
    )
    return repairer.run(emit), backend, events


def answering(fixes: dict[str, str]) -> Any:
    """A model that answers a line question about a line it knows with that line's fix, and nothing else usefully."""

    def answer(messages: list[Message], _tools: list[dict[str, Any]]) -> str:
        prompt = messages[-1].content
        for marked, fix in fixes.items():
            if asks_for_line(prompt, marked):
                return f"```python\n{fix}\n```"
        return "I am not sure."

    return answer


def candidates(events: list[Event]) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.type == "repair.candidate"]


def test_coverage_ranks_the_helper_the_test_never_names_first(repo: Path) -> None:
    commit_files(repo, SHOP)
    tests = ProjectTests(RunTestsArgs(command=PYTEST), ToolContext(root=repo))
    run = tests.run()
    assert run.failing == {"test_app.py::test_total_uk"}
    spectrum = measure(tests, run, run.failing)
    assert spectrum is not None and spectrum.runs == 1 and (spectrum.failing, spectrum.passing) == (1, 2)
    # Only the failing test returns 0.02; every test runs app.py and pricing.py.
    assert spectrum.ranked()[0] == ("rates.py", 5, 1.0)
    assert spectrum.score("app.py", 5) < spectrum.score("rates.py", 4) < 1.0
    located = locate(run.report.failures if run.report else [], repo, limit=4)
    assert "tax_rate" not in [unit.name for unit in located]  # the traceback alone never reaches it
    ranked = suspects(spectrum, located, repo, sorted(run.failing), 4)
    assert (ranked[0].unit.path, ranked[0].unit.name, ranked[0].lines[0]) == ("rates.py", "tax_rate", 5)


def test_when_the_command_names_one_test_the_tests_beside_it_still_rank_the_lines(repo: Path) -> None:
    # The user names the failing test alone: the other tests of its file run under coverage all the same, so the
    # line only the failing test runs still ranks above those every test runs.
    commit_files(repo, SHOP)
    tests = ProjectTests(RunTestsArgs(command=f"{PYTEST} test_app.py::test_total_uk"), ToolContext(root=repo))
    run = tests.run()
    assert run.failing == {"test_app.py::test_total_uk"} and run.report is not None and not run.report.passing
    spectrum = measure(tests, run, run.failing)
    assert spectrum is not None and (spectrum.failing, spectrum.passing) == (1, 2)
    assert spectrum.ranked()[0] == ("rates.py", 5, 1.0)
    assert spectrum.score("app.py", 5) < 1.0


def test_the_warm_pytest_records_the_same_spectrum_as_the_test_command(repo: Path, tmp_path: Path) -> None:
    commit_files(repo, SHOP)
    tests = ProjectTests(RunTestsArgs(command=PYTEST), ToolContext(root=repo))
    run = tests.run()
    plain = measure(tests, run, run.failing)
    folder = tmp_path / "repair"
    folder.mkdir()
    notices: list[str] = []
    runs = CandidateRuns(tests, run, notices.append, folder)
    runs.start(sorted(run.failing))
    try:
        assert runs.warm is not None, notices
        warm = measure(tests, run, run.failing, runs)
    finally:
        runs.close()
    assert plain is not None and warm is not None
    assert warm.scores == plain.scores and (warm.failing, warm.passing) == (1, 2)


# A job whose failing test's assertion reads a value of it: pytest's own message of that assertion shows the job.
JOBS = {
    "jobs.py": (
        "class Job:\n"
        "    def __init__(self, minutes):\n        self.minutes = minutes\n\n"
        "    def __repr__(self):\n        return f'Job({self.minutes})'\n\n"
        "    def hours(self):\n        return self.minutes // 60\n\n"
        "    def seconds(self):\n        return self.minutes * 6\n"
    ),
    "test_jobs.py": (
        "from jobs import Job\n\n\n"
        "def test_hours():\n    assert Job(120).hours() == 2\n\n\n"
        "def test_seconds():\n    assert Job(2).seconds() == 120\n"
    ),
}


@pytest.mark.parametrize("warm", [False, True], ids=["plain", "warm"])
def test_a_repr_that_only_the_failure_s_message_runs_is_no_suspect(repo: Path, tmp_path: Path, warm: bool) -> None:
    # pytest's message of a failed assertion shows each value it read (`where 12 = <Job(2)>.seconds()`), running the
    # project's __repr__ in the failing test alone: recorded, it would rank with the line that is wrong.
    commit_files(repo, JOBS)
    tests = ProjectTests(RunTestsArgs(command=PYTEST), ToolContext(root=repo))
    run = tests.run()
    assert run.failing == {"test_jobs.py::test_seconds"}
    runs = CandidateRuns(tests, run, lambda _notice: None, tmp_path) if warm else None
    if runs is not None:
        runs.start(sorted(run.failing))
    try:
        spectrum = measure(tests, run, run.failing, runs)
    finally:
        if runs is not None:
            runs.close()
    assert spectrum is not None
    assert spectrum.ranked()[0] == ("jobs.py", 12, 1.0)
    assert spectrum.score("jobs.py", 6) == 0.0


# Every line the failing test runs it alone runs (the others run no comparison): coverage ties them all, and the
# test got None, which only the guard of `compare` returns.
QUERY = {
    "query/lexer.py": (
        "def tokens(text):\n"
        "    found = []\n"
        "    for word in text.split():\n"
        "        if word in '<>':\n"
        "            found.append(('op', word))\n"
        "        else:\n"
        "            found.append(('name', word))\n"
        "    return found\n"
    ),
    "query/search.py": (
        "from query.lexer import tokens\n\n\n"
        "def number(value):\n    return isinstance(value, (int, float)) and not isinstance(value, bool)\n\n\n"
        "def compare(op, left, right):\n"
        "    if not (number(left) and number(right)):\n"
        "        return None\n"
        "    return left < right if op == '<' else left > right\n\n\n"
        "def search(text, data):\n"
        "    found = tokens(text)\n"
        "    if len(found) == 1:\n"
        "        return data.get(found[0][1])\n"
        "    left, op, right = found\n"
        "    return compare(op[1], data[left[1]], data[right[1]])\n"
    ),
    "query/__init__.py": "",
    "tests/__init__.py": "",
    "tests/test_search.py": (
        "import unittest\n\nfrom query.search import search\n\n\n"
        "class SearchTests(unittest.TestCase):\n"
        "    def test_field(self):\n        self.assertEqual(search('a', {'a': 1}), 1)\n\n"
        "    def test_missing(self):\n        self.assertIsNone(search('b', {'a': 1}))\n\n"
        "    def test_compare_strings(self):\n        self.assertTrue(search('a < b', {'a': '2016', 'b': '2017'}))\n"
    ),
}


def test_a_test_that_got_none_asks_first_about_the_line_that_returns_it(repo: Path) -> None:
    commit_files(repo, QUERY)
    command = f"{PYTEST} tests/test_search.py::SearchTests::test_compare_strings"
    tests = ProjectTests(RunTestsArgs(command=command), ToolContext(root=repo))
    run = tests.run()
    assert run.report is not None and "None is not true" in run.report.failures[0].message
    spectrum = measure(tests, run, run.failing)
    assert spectrum is not None and spectrum.score("query/lexer.py", 5) == spectrum.score("query/search.py", 10) == 1.0
    located = locate(run.report.failures, repo, limit=2)
    ranked = suspects(spectrum, located, repo, sorted(run.failing), 2, got_nothing=True)
    assert (ranked[0].unit.name, ranked[0].lines[0]) == ("compare", 10)
    # Told nothing of what the test got, the lexer's lines, as suspicious, come first.
    assert suspects(spectrum, located, repo, sorted(run.failing), 2)[0].unit.name != "compare"


# Two bugs, each with its own test: once one is fixed, the lines only its test ran are no longer suspects.
TWO_BUGS = {
    "stock.py": "def add_stock(stock, item, qty):\n    stock[item] = qty\n    return stock\n",
    "alerts.py": (
        "def low_stock(stock, threshold):\n    return sorted(item for item, qty in stock.items() if qty > threshold)\n"
    ),
    "test_shop.py": (
        "from alerts import low_stock\nfrom stock import add_stock\n\n\n"
        "def test_add_stock():\n    assert add_stock({'pen': 2}, 'pen', 3) == {'pen': 5}\n\n\n"
        "def test_low_stock():\n    assert low_stock({'pen': 1, 'ink': 5}, 3) == ['pen']\n\n\n"
        "def test_empty():\n    assert low_stock({}, 3) == [] and add_stock({}, 'ink', 1) == {'ink': 1}\n"
    ),
}


def test_a_spectrum_narrowed_to_the_tests_still_failing_drops_the_fixed_bugs_lines(repo: Path) -> None:
    commit_files(repo, TWO_BUGS)
    tests = ProjectTests(RunTestsArgs(command=PYTEST), ToolContext(root=repo))
    run = tests.run()
    assert run.failing == {"test_shop.py::test_add_stock", "test_shop.py::test_low_stock"}
    spectrum = measure(tests, run, run.failing)
    assert spectrum is not None and spectrum.score("alerts.py", 2) > 0 and spectrum.score("stock.py", 2) > 0
    narrowed = spectrum.narrowed({"test_shop.py::test_add_stock"})
    assert narrowed.score("alerts.py", 2) == 0.0 and narrowed.score("stock.py", 2) > 0
    assert (narrowed.failing, narrowed.passing) == (1, 2)
    assert spectrum.narrowed(run.failing) is spectrum  # nothing came to pass: nothing changes


def test_after_one_bug_is_fixed_repair_moves_on_to_the_function_the_other_test_points_at(repo: Path) -> None:
    commit_files(repo, TWO_BUGS)
    # The model knows only low_stock's fix; add_stock's is a variant (`=` → `+=` needs the key there first).
    fixes = {"    return sorted(item for item, qty in stock.items() if qty > threshold)": (
        "return sorted(item for item, qty in stock.items() if qty < threshold)"
    )}  # fmt: skip
    _, _, events = repair(repo, answering(fixes), candidates=8, mutants=40)
    tried = candidates(events)
    kept = [e.data for e in events if e.type == "repair.kept"]
    assert kept and kept[0]["unit"] == "alerts.py:1 low_stock", tried
    after = [c for c in tried if c["n"] > kept[0]["n"]]
    # Every candidate after the kept one is about the bug that is left, none a pair made of stale edits.
    assert after and all(c["unit"] == "stock.py:1 add_stock" for c in after), after
    assert not any(c["status"] == "rejected" for c in after), after


def test_lines_coverage_ties_are_asked_about_from_the_end_of_the_run(repo: Path) -> None:
    # Every line of the body runs in the one failing test alone: coverage ties them all. The mean is made on the
    # function's last lines, and those are the two asked about.
    stats = (
        "def summarize(scores):\n"
        "    lowest = min(scores)\n"
        "    highest = max(scores)\n"
        "    mean = sum(scores)\n"
        '    return {"min": lowest, "max": highest, "mean": mean}\n'
    )
    test = "from stats import summarize\n\n\ndef test_mean():\n    assert summarize([1, 5])['mean'] == 3\n"
    commit_files(repo, {"stats.py": stats, "test_stats.py": test})
    tests = ProjectTests(RunTestsArgs(command=PYTEST), ToolContext(root=repo))
    run = tests.run()
    spectrum = measure(tests, run, run.failing)
    assert spectrum is not None and {spectrum.score("stats.py", line) for line in (2, 3, 4, 5)} == {1.0}
    ranked = suspects(spectrum, [], repo, sorted(run.failing), 4)
    assert [(suspect.unit.name, suspect.lines) for suspect in ranked] == [("summarize", (5, 4))]


def test_ochiai_scores_lines_only_failing_tests_run_highest() -> None:
    covered = {"f": [("a.py", 1), ("a.py", 2)], "p": [("a.py", 1)], "q": [("a.py", 3)]}
    scores = ochiai(covered, ["f"], ["p", "q"])
    assert scores[("a.py", 2)] == 1.0 and 0 < scores[("a.py", 1)] < 1.0 and scores[("a.py", 3)] == 0.0


def test_a_one_line_answer_fixes_the_helper_in_place(repo: Path) -> None:
    commit_files(repo, SHOP)
    outcome, backend, events = repair(repo, answering({"        return 0.02": "return 0.2"}))
    # While coverage is measured, the model is asked about the function the traceback names (app.py's total);
    # once coverage points at the helper, its whole function is asked (this model has no answer to it), then its
    # most suspicious line.
    assert outcome.fixed and outcome.candidates <= 3, outcome.summary
    assert "        return 0.2\n" in (repo / "rates.py").read_text()
    asked = [(c["unit"], c["question"], c.get("line")) for c in candidates(events)]
    assert asked[-2:] == [("rates.py:1 tax_rate", "function", None), ("rates.py:1 tax_rate", "line", 5)], asked
    assert all(unit == "app.py:4 total" for unit, _, _ in asked[:-2]), asked
    prompts = [request[0][-1].content for request in backend.requests]
    at = next(k for k, text in enumerate(prompts) if "def tax_rate" in text and "Write the corrected" in text)
    prompt = prompts[at + 1]  # the helper's line, asked next
    assert asks_for_line(prompt, "return 0.02") and "Write only the corrected line" in prompt
    spectrum = next(e for e in events if e.type == "repair.spectrum")
    assert spectrum.data["runs"] == 1 and spectrum.data["lines"][0].startswith("rates.py:5 ")
    # A line's answer is a line: it gets room for about one, the function's for a few functions.
    assert backend.options[at + 1].max_tokens < backend.options[at].max_tokens
    assert backend.options[at + 1].max_tokens <= 2 * len("return 0.02") + 96
    # Both questions show the failure and the function alike and differ only after them, so llama-server's prompt
    # cache keeps all of it from one question to the next.
    function_prompt = backend.requests[at][0][-1].content
    shared = len(os.path.commonprefix([function_prompt, prompt]))
    code_block_end = function_prompt.index("```\n", function_prompt.index("```python\n")) + 4
    assert shared >= code_block_end, function_prompt[shared:]


def test_a_one_token_bug_is_fixed_by_an_expression_for_its_line(repo: Path) -> None:
    commit_files(
        repo,
        {
            "temps.py": "def to_fahrenheit(celsius):\n    return celsius * 5 / 9 + 32\n",
            "test_temps.py": (
                "from temps import to_fahrenheit\n\n\ndef test_freezing():\n    assert to_fahrenheit(0) == 32\n\n\n"
                "def test_boiling():\n    assert to_fahrenheit(100) == 212\n"
            ),
        },
    )
    # The answer is only the expression: pedro puts it back in its `return`, and the file still parses.
    outcome, _, _ = repair(repo, answering({"    return celsius * 5 / 9 + 32": "celsius * 9 / 5 + 32"}))
    assert outcome.fixed and outcome.candidates == 2, outcome.summary  # the function question, then the line
    assert (repo / "temps.py").read_text() == "def to_fahrenheit(celsius):\n    return celsius * 9 / 5 + 32\n"


def test_answers_that_repeat_the_line_or_do_not_parse_cost_no_test_run(repo: Path) -> None:
    commit_files(repo, SHOP)
    replies = iter(["```python\nreturn 0.02\n```", "```python\nreturn 0.2 +\n```", "```python\nreturn 0.2\n```"])

    def answer(messages: list[Message], _tools: list[dict[str, Any]]) -> str:
        return next(replies) if asks_for_line(messages[-1].content, "return 0.02") else "I am not sure."

    outcome, _, events = repair(repo, answer, candidates=8)
    assert outcome.fixed
    line_five = [c for c in candidates(events) if (c["unit"], c.get("line")) == ("rates.py:1 tax_rate", 5)]
    assert [c["status"] for c in line_five] == ["unusable", "unusable", "fixed"], line_five
    assert "repeats the original line" in line_five[0]["reason"] and "not valid python" in line_five[1]["reason"]
    # Only the fix ran the tests: its failing test, then all of them, then the whole command.
    assert [e.data.get("candidate") for e in events if e.type == "tests.run" and e.data.get("scope") == "failing"] == [
        line_five[-1]["n"]
    ]


GEO = {
    "geo.py": (
        "def area(w, h):\n    return w - h\n\n\ndef scale(n):\n    return n + 10\n\n\n"
        "def total(w, h):\n    return scale(area(w, h))\n"
    ),
    "test_geo.py": "from geo import total\n\n\ndef test_total():\n    assert total(2, 3) == 12\n",
}


def test_a_bug_that_needs_two_edits_is_fixed_by_a_pair(repo: Path) -> None:
    commit_files(repo, GEO)
    # Either fix alone moves the value away from 12 (16, -2): neither is progress, both are kept for pairing.
    fixes = {"    return w - h": "return w * h", "    return n + 10": "return n * 2"}
    outcome, _, events = repair(repo, answering(fixes))
    assert outcome.fixed, outcome.summary
    assert (repo / "geo.py").read_text() == GEO["geo.py"].replace("w - h", "w * h").replace("n + 10", "n * 2")
    tried = candidates(events)
    singles = {c["n"]: c for c in tried if c["status"] == "fails"}
    pair = tried[-1]
    assert pair["question"] == "pair" and pair["status"] == "fixed" and set(pair["combines"]) <= set(singles)
    chosen = [e.data for e in events if e.type == "repair.chosen"]
    assert [c["n"] for c in chosen] == [pair["n"]]


def test_two_answers_that_each_bring_the_value_nearer_are_tried_together(repo: Path) -> None:
    commit_files(
        repo,
        {
            "geo.py": (
                "def area(w, h):\n    return w + h\n\n\ndef double(n):\n    return n + 2\n\n\n"
                "def total(w, h):\n    return double(area(w, h))\n"
            ),
            "test_geo.py": "from geo import total\n\n\ndef test_total():\n    assert total(2, 3) == 12\n",
        },
    )
    fixes = {"    return w + h": "return w * h", "    return n + 2": "return n * 2"}
    # Room for each function's question before its lines' (this model answers only the lines).
    outcome, _, events = repair(repo, answering(fixes), candidates=4)
    assert outcome.fixed, outcome.summary
    tried = [c for c in candidates(events) if c["status"] != "unusable"]
    # Each alone moves total(2, 3) nearer 12 (7 → 8, or 7 → 10) and is not kept; the two together fix it.
    assert [c["status"] for c in tried] == ["fails", "fails", "fixed"]
    assert tried[-1]["question"] == "pair" and tried[-1]["combines"] == [tried[0]["n"], tried[1]["n"]]
    assert not [e for e in events if e.type == "repair.kept"]
    assert (repo / "geo.py").read_text().count("*") == 2


def test_a_candidate_that_special_cases_the_tests_values_is_rejected_untested(repo: Path) -> None:
    commit_files(
        repo,
        {
            "calc.py": "def add(a, b):\n    return a - b\n",
            "test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
        },
    )
    special = "```python\ndef add(a, b):\n    if a == 2:\n        return 5\n    return a - b\n```"
    constant = "```python\ndef add(a, b):\n    return 5\n```"
    # A small model's answer to a line question: arithmetic on the failing assertion's own numbers.
    arithmetic = "```python\ndef add(a, b):\n    return 2 + 3\n```"
    fix = "```python\ndef add(a, b):\n    return a + b\n```"
    # And a line answer that stores the expected number, which made one test of a task pass as "progress".
    stored = "```python\ndef add(a, b):\n    total = 5\n    return total\n```"
    # The same number written another way (6.5 where the test expects "6.50") is the same special case.
    written = "```python\ndef add(a, b):\n    total = 5.00\n    return total\n```"
    # Prose in a comment is no code: SmolLM2 kept the expected mean this way, `mean = 3.0  # Replace with 9.0, ...`.
    commented = "```python\ndef add(a, b):\n    total = 5.0  # Replace with 9.0, float('nan')\n    return total\n```"
    replies = [special, constant, arithmetic, stored, written, commented, fix]
    outcome, _, events = repair(repo, replies, candidates=7)
    assert outcome.fixed
    tried = candidates(events)
    assert [c["status"] for c in tried] == ["overfits"] * 6 + ["fixed"]
    assert "a value from the failing test" in tried[0]["reason"] and "expects" in tried[1]["reason"]
    assert "returns a constant made of 2, 3" in tried[2]["reason"]
    assert "sets total to a constant made of 5" in tried[3]["reason"]
    assert "sets total to a constant made of 5.00" in tried[4]["reason"]
    assert "sets total to a constant made of 5.0," in tried[5]["reason"]
    assert [e.data.get("candidate") for e in events if e.type == "tests.run" and e.data.get("scope") == "failing"] == [
        tried[-1]["n"]
    ]  # the overfits cost no test run


@pytest.mark.parametrize("name", ["go"])
def test_go_coverage_ranks_the_buggy_branch(tmp_path: Path, name: str) -> None:
    import shutil

    if shutil.which(name) is None:
        pytest.skip("go is not installed")
    repo = tmp_path / "rates"
    repo.mkdir()
    files = {
        "go.mod": "module example.com/rates\n\ngo 1.19\n",
        "rates.go": (
            'package rates\n\nfunc Rate(region string) float64 {\n\tif region == "eu" {\n\t\treturn 0.2\n\t}\n'
            '\tif region == "uk" {\n\t\treturn 0.02\n\t}\n\treturn 0\n}\n'
        ),
        "rates_test.go": (
            'package rates\n\nimport "testing"\n\n'
            'func TestEU(t *testing.T) {\n\tif got := Rate("eu"); got != 0.2 {\n'
            '\t\tt.Errorf("got %v, want 0.2", got)\n\t}\n}\n\n'
            'func TestUK(t *testing.T) {\n\tif got := Rate("uk"); got != 0.2 {\n'
            '\t\tt.Errorf("got %v, want 0.2", got)\n\t}\n}\n'
        ),
    }
    for file, text in files.items():
        (repo / file).write_text(text)
    tests = ProjectTests(RunTestsArgs(command="go test ./..."), ToolContext(root=repo))
    run = tests.run()
    assert run.failing and all(test.endswith("TestUK") for test in run.failing)
    spectrum = measure(tests, run, run.failing)
    assert spectrum is not None and spectrum.runs == 2
    # Only the failing test reaches the "uk" branch; both take the function's first lines.
    assert {line for path, line, score in spectrum.ranked() if score == 1.0} == {7, 8}
    assert 0 < spectrum.score("rates.go", 4) < 1.0


def test_an_answer_that_only_fails_closer_is_not_kept(repo: Path) -> None:
    calc = "def add(a, b):\n    return a - b\n"
    commit_files(
        repo,
        {"calc.py": calc, "test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"},
    )
    # 6 is nearer 5 than -1 was, but the test still fails: nothing is kept to build on, the file stays as it was.
    outcome, _, events = repair(repo, answering({"    return a - b": "return a * b"}))
    assert not outcome.fixed and not outcome.changed
    assert [c["status"] for c in candidates(events) if c["status"] != "unusable"] == ["fails"]
    assert not [e for e in events if e.type == "repair.kept"]
    assert (repo / "calc.py").read_text() == calc and git(repo, "status", "--porcelain").strip() == ""
    assert outcome.last_run is not None and outcome.last_run.failing == {"test_calc.py::test_add"}


def test_node_coverage_ranks_the_buggy_branch(tmp_path: Path) -> None:
    import shutil

    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    repo = tmp_path / "rates"
    repo.mkdir()
    (repo / "rates.js").write_text(
        'function rate(region) {\n  if (region === "eu") {\n    return 0.2;\n  }\n  if (region === "uk") {\n'
        "    return 0.02;\n  }\n  return 0;\n}\nmodule.exports = { rate };\n"
    )
    (repo / "rates.test.js").write_text(
        'const test = require("node:test");\nconst assert = require("node:assert");\n'
        'const { rate } = require("./rates.js");\n'
        'test("eu", () => { assert.strictEqual(rate("eu"), 0.2); });\n'
        'test("uk", () => { assert.strictEqual(rate("uk"), 0.2); });\n'
    )
    tests = ProjectTests(RunTestsArgs(command="node --test"), ToolContext(root=repo))
    run = tests.run()
    assert run.failing == {"uk"}
    spectrum = measure(tests, run, run.failing)
    assert spectrum is not None and spectrum.runs == 2
    # The failing group alone runs the "uk" branch; both run the function's first lines; no test file is ranked.
    assert {line for path, line, score in spectrum.ranked() if score == 1.0} == {5, 6}
    assert 0 < spectrum.score("rates.js", 2) < 1.0
    assert all(path == "rates.js" for path, _, _ in spectrum.ranked())


def test_after_the_greedy_round_a_function_is_asked_as_often_as_its_lines_together(repo: Path) -> None:
    # summarize's two lines each get a question (tests above): the greedy round asks all three once, and each round
    # after it asks the whole function twice, once for each of its lines' questions.
    stats = (
        "def summarize(scores):\n    lowest = min(scores)\n    highest = max(scores)\n    mean = sum(scores)\n"
        '    return {"min": lowest, "max": highest, "mean": mean}\n'
    )
    test = "from stats import summarize\n\n\ndef test_mean():\n    assert summarize([1, 5])['mean'] == 3\n"
    commit_files(repo, {"stats.py": stats, "test_stats.py": test})
    count = iter(range(10, 100))  # never 3, the mean the test wants

    def wrong(messages: list[Message], _tools: list[dict[str, Any]]) -> str:
        # Every answer new and wrong, so that no question retires and the order shows.
        n = next(count)
        if "Write only the corrected line" in messages[-1].content:
            return f"```python\nmean = {n}\n```"
        return f"```python\ndef summarize(scores):\n    return {{'mean': {n}}}\n```"

    _, backend, _ = repair(repo, wrong, candidates=8)
    kinds = ["line" if "Write only the corrected line" in m[-1].content else "function" for m, _ in backend.requests]
    assert kinds[:7] == ["function", "line", "line", "function", "function", "line", "line"], kinds


def test_the_model_is_asked_while_coverage_is_measured_and_a_slow_fix_is_not_taken_for_a_hang(repo: Path) -> None:
    # The failing test takes a second under coverage: the model's first answer is not kept waiting for it.
    commit_files(
        repo,
        {
            "slow.py": "import time\n\n\ndef half(n):\n    time.sleep(1)\n    return n * 2\n",
            "test_slow.py": "from slow import half\n\n\ndef test_half():\n    assert half(4) == 2\n",
        },
    )
    events: list[Event] = []
    seen_when_asked: list[list[str]] = []

    def answer(_messages: list[Message], _tools: list[dict[str, Any]]) -> str:
        seen_when_asked.append([event.type for event in events])
        return "```python\ndef half(n):\n    time.sleep(1)\n    return n // 2\n```"

    def emit(type_: str, **data: Any) -> None:
        events.append(Event(type=type_, job_id="j", seq=len(events) + 1, data=data))  # type: ignore[arg-type]

    ctx = ToolContext(root=repo)
    repairer = Repairer(
        backend=ScriptedBackend(answer),
        dispatcher=Dispatcher(ToolRegistry.default(get_role("debugger").tools), ctx),
        tests=ProjectTests(RunTestsArgs(command=PYTEST), ctx),
        config=RepairConfig(candidates=1, rivals=0, mutants=0),
        options=GenerationOptions(),
    )
    outcome = repairer.run(emit)
    # The fix takes a second a call too: its probes (one call per input, after the tests) add to its run's limit
    # rather than make the right fix look like a run that hung.
    assert outcome.fixed, [e.data for e in events if e.type == "repair.candidate"]
    assert any(event.type == "repair.spectrum" for event in events)
    assert seen_when_asked and "repair.spectrum" not in seen_when_asked[0], seen_when_asked[0]


def test_coverage_that_runs_past_its_limit_is_given_up(repo: Path) -> None:
    # Within its limit, the slow test's coverage ranks its function; past it, nothing is ranked by coverage.
    commit_files(
        repo,
        {
            "slow.py": "import time\n\n\ndef half(n):\n    time.sleep(1)\n    return n * 2\n",
            "test_slow.py": "from slow import half\n\n\ndef test_half():\n    assert half(4) == 2\n",
        },
    )
    tests = ProjectTests(RunTestsArgs(command=PYTEST), ToolContext(root=repo))
    run = tests.run()
    assert measure(tests, run, run.failing, limit_s=20.0) is not None
    assert measure(tests, run, run.failing, limit_s=0.5) is None


def test_a_prefixed_string_of_the_tests_value_is_the_same_special_case() -> None:
    unit = Unit("names.py", "display_name", "display_name", "python", 1, 2, "def display_name(name):\n    return name")
    failure = "AssertionError: assert '  ada lovelace ' == 'Ada Lovelace'"
    for literal in ('f"Ada Lovelace"', "r'Ada Lovelace'", '"Ada Lovelace"'):
        why = special_cases(f"def display_name(name):\n    return {literal}", unit, failure)
        assert why.startswith("it returns") and "Ada Lovelace" in why, literal
    # An f-string that formats something is code, not the constant.
    assert special_cases('def display_name(name):\n    return f"{name.strip().title()}"', unit, failure) == ""


UNITTEST_SHOP = {
    **{name: text for name, text in SHOP.items() if name != "test_app.py"},
    "test_app.py": (
        "import unittest\n\nfrom app import total\n\n\nclass TotalTests(unittest.TestCase):\n"
        '    def test_total_eu(self):\n        self.assertEqual(total([10, 20], "eu"), 36.0)\n\n'
        '    def test_total_us(self):\n        self.assertEqual(total([10], "us"), 10.0)\n\n'
        '    def test_total_uk(self):\n        self.assertEqual(total([10, 20], "uk"), 36.0)\n'
    ),
}
UNITTEST_UK = f"{sys.executable} -m unittest -v test_app.TotalTests.test_total_uk"


def test_python_s_own_runner_records_coverage_per_test_as_pytest_does(repo: Path) -> None:
    # `python -m unittest` naming the failing test alone: its module's other tests run beside it under coverage, each
    # recorded under its unittest id, so the line only the failing test runs ranks first, as it does under pytest.
    commit_files(repo, UNITTEST_SHOP)
    tests = ProjectTests(RunTestsArgs(command=UNITTEST_UK), ToolContext(root=repo))
    run = tests.run()
    assert run.failing == {"test_app.TotalTests.test_total_uk"}, run.summary
    spectrum = measure(tests, run, run.failing)
    assert spectrum is not None and spectrum.runs == 1 and (spectrum.failing, spectrum.passing) == (1, 2)
    assert spectrum.ranked()[0] == ("rates.py", 5, 1.0)
    assert spectrum.score("app.py", 5) < 1.0
    # Nothing of the run's own stays behind in the repository.
    assert git(repo, "status", "--porcelain") == ""

"""The search of a repair (search.py): proposals tested as they come, each failing test first; what fails or
breaks a passing test taken back, progress kept while the rest is looked for, repeats tested once."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from repo_util import PYTEST, git
from test_repairer import CALC, FIX, WRONG, repair, statuses

from pedro.messages import Message
from pedro.repair.answers import Answer, Question
from pedro.repair.clues import Clues
from pedro.repair.judge import sampled
from pedro.repair.locate import Unit
from pedro.repair.search import Search
from pedro.repair.spectrum import Suspect
from pedro.safety.guard import SnapshotGuard
from pedro.safety.snapshots import list_snapshots
from pedro.tools.testreport import FailedTest

BREAKS = "```python\ndef add(a, b):\n    return a + b + (a == 0)\n```"  # passes test_add, breaks test_add_zero
BROKEN = "```python\ndef add(a, b):\n    return a +\n```"


SHOP = (
    "def subtotal(prices):\n"
    '    """The sum of the prices."""\n'
    "    return sum(prices[1:])\n"
    "\n\n"
    "def with_tax(amount, rate):\n"
    '    """The amount with the tax at `rate` (0.2 is 20 %) added."""\n'
    "    return amount * rate\n"
    "\n\n"
    "def total(prices, rate):\n"
    "    return with_tax(subtotal(prices), rate)\n"
)
SHOP_TESTS = (
    "from shop import total\n\n\n"
    "def test_total():\n"
    "    assert total([10, 20], 0.5) == 45\n\n\n"
    "def test_no_tax():\n"
    "    assert total([4, 6], 0) == 10\n"
)
WHOLE_FILE_FIX = (
    "Both helpers are wrong:\n\n```python\n"
    + SHOP.replace("prices[1:]", "prices").replace("amount * rate", "amount * (1 + rate)")
    + "```"
)


def test_a_candidate_that_does_not_parse_is_no_edit(calc: Path) -> None:
    outcome, _, events = repair(calc, [BROKEN, FIX])
    assert outcome.fixed and statuses(events) == ["unusable", "fixed"]
    # The unparseable answer never reached the file: the only edits are the fix's (tried, taken back while others
    # could be looked for, and put back once chosen), and every test run is the fix's.
    assert {str(e.data["arguments"]["new"]) for e in events if e.type == "tool_call.started"} == {FIX[10:-4]}
    assert {e.data.get("candidate") for e in events if e.type == "tests.run" and e.data["phase"] == "candidate"} <= {
        2,
        None,
    }


def test_a_candidate_that_breaks_a_passing_test_is_undone(calc: Path) -> None:
    outcome, backend, events = repair(calc, [BREAKS, FIX])
    assert outcome.fixed
    assert statuses(events) == ["breaks", "fixed"]
    breaks = next(e for e in events if e.type == "repair.candidate")
    assert "test_calc.py::test_add_zero" in str(breaks.data["reason"])
    # The second request is the same question, sampled: the server's prompt cache holds all of it.
    assert backend.requests[1][0] == backend.requests[0][0]
    assert backend.options[0].temperature == 0.0 and backend.options[1].temperature > 0
    assert backend.options[1].seed is not None


@pytest.mark.parametrize(
    "command",
    [f"{PYTEST} test_calc.py::AddTests::test_add", f"{sys.executable} -m unittest -v test_calc.AddTests.test_add"],
    ids=["pytest", "unittest"],
)
def test_a_candidate_that_breaks_a_test_beside_the_one_named_is_undone(repo: Path, command: str) -> None:
    # The user names one test; the others in its file are not in the command, yet a fix must keep them passing.
    (repo / "calc.py").write_text(CALC)
    tests = "import unittest\n\nfrom calc import add\n\n\nclass AddTests(unittest.TestCase):\n"
    tests += "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\n"
    tests += "    def test_add_zero(self):\n        self.assertEqual(add(0, 0), 0)\n"
    (repo / "test_calc.py").write_text(tests)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    outcome, _, events = repair(repo, [BREAKS, FIX], command=command)
    assert outcome.fixed and statuses(events) == ["breaks", "fixed"]
    assert "test_add_zero" in str(next(e for e in events if e.type == "repair.candidate").data["reason"])
    started = next(e for e in events if e.type == "repair.started")
    assert "1 passing test beside them in their files guard each fix" in str(started.data["runs"])
    assert "return a + b" in (repo / "calc.py").read_text()


def test_the_code_is_restored_between_candidates(calc: Path) -> None:
    guard = SnapshotGuard(calc, "job1")
    guard.start()
    asked: list[str] = []

    def answer(messages: list[Message], _tools: list[dict[str, Any]]) -> str:
        asked.append(messages[-1].content)
        return [WRONG, BREAKS][len(asked) - 1] if len(asked) <= 2 else WRONG.replace("- 1", "- 2")

    outcome, _, events = repair(calc, answer, candidates=3, guard=guard)
    assert not outcome.fixed and outcome.candidates == 3
    # Every question showed the original code, whichever candidate the file held while the model wrote.
    assert len(asked) == 3 and all("    return a - b\n" in prompt and "a - b - " not in prompt for prompt in asked)
    assert (calc / "calc.py").read_text() == CALC  # and it is back as it was
    assert git(calc, "status", "--porcelain").strip() == ""
    # Rejected candidates are never undo steps: repair is one step, and one that changed nothing leaves none.
    labels = [s.label for s in list_snapshots(calc, "job1")]
    assert labels == ["job start"]
    assert outcome.handover and "calc.py:1 add" in outcome.handover


def test_a_file_changed_by_the_user_between_tries_is_left_alone(calc: Path) -> None:
    calls = 0

    def answer(_messages: list[Message], _tools: list[dict[str, Any]]) -> str:
        nonlocal calls
        calls += 1
        if calls == 1:  # the user edits calc.py while the model writes its first answer
            (calc / "calc.py").write_text(CALC + "\n\ndef user_added():\n    return 1\n")
        return FIX

    outcome, _, events = repair(calc, answer)
    assert not outcome.fixed and outcome.stopped
    assert "changed while pedro was repairing it" in outcome.stopped
    text = (calc / "calc.py").read_text()
    assert "def user_added" in text and "return a - b" in text  # the user's version, untouched
    assert statuses(events)[-1] == "stopped"


def test_duplicate_answers_are_not_tested_twice_nor_counted_as_answers(calc: Path) -> None:
    # Three answers at most, yet the repeated one is no answer: the third new one is the fix.
    outcome, backend, events = repair(calc, [WRONG, WRONG, WRONG.replace("- 1", "- 2"), FIX], candidates=3)
    assert outcome.fixed and statuses(events) == ["fails", "fails", "fixed"] and len(backend.requests) == 4
    # The baseline; the failing test for each wrong answer; for the fix the failing test, then all, then the command.
    assert len([e for e in events if e.type == "tests.run"]) == 6


def test_a_question_that_only_repeats_itself_is_asked_no_more(calc: Path) -> None:
    outcome, backend, events = repair(calc, lambda _messages, _tools: WRONG, candidates=32)
    assert not outcome.fixed and statuses(events) == ["fails"]
    # One new answer, then four repeats of it: the question is spent long before its 32 answers.
    assert len(backend.requests) == 5


def test_a_callee_is_tried_when_the_caller_cannot_be_fixed(calc: Path) -> None:
    (calc / "test_calc.py").write_text("from calc import double\n\n\ndef test_double():\n    assert double(4) == 8\n")
    answers = iter(["```python\ndef double(n):\n    return add(n, n) + 0\n```", FIX])
    outcome, backend, events = repair(calc, lambda _m, _t: next(answers), candidates=1)
    assert outcome.fixed
    units = [e.data["unit"] for e in events if e.type == "repair.candidate"]
    assert units == ["calc.py:5 double", "calc.py:1 add"]


def test_after_progress_the_other_failing_function_is_still_asked_for(calc: Path) -> None:
    (calc / "calc.py").write_text(CALC.replace("n * n", "n + n"))
    square = "```python\ndef square(n):\n    return n * n\n```"
    answers = iter([FIX, square])
    outcome, _, events = repair(calc, lambda _m, _t: next(answers))
    assert outcome.fixed, outcome.summary
    assert statuses(events) == ["progress", "fixed"]
    units = [e.data["unit"] for e in events if e.type == "repair.candidate"]
    assert units == ["calc.py:1 add", "calc.py:9 square"]


def test_every_located_function_gets_its_greedy_answer_before_any_is_sampled(calc: Path) -> None:
    (calc / "test_calc.py").write_text("from calc import double\n\n\ndef test_double():\n    assert double(4) == 8\n")
    caller = "```python\ndef double(n):\n    return add(n, n) - {}\n```"
    answers = iter([caller.format(1), "```python\ndef add(a, b):\n    return a * b\n```", caller.format(2), FIX])
    outcome, backend, events = repair(calc, lambda _m, _t: next(answers), candidates=3)
    assert outcome.fixed
    # The answers in the order they were asked; while the search waited for one, it may have tried two earlier
    # candidates together (a pair), as many times as the model kept it waiting.
    answered = [e.data for e in events if e.type == "repair.candidate" and e.data["question"] != "pair"]
    assert [data["unit"] for data in answered] == [
        "calc.py:5 double",
        "calc.py:1 add",
        "calc.py:5 double",
        "calc.py:1 add",
    ]
    # Greedy for each function's first answer, sampled after.
    temperatures = [e.data["temperature"] for e in events if e.type == "model.completed"]
    assert temperatures[:2] == [0.0, 0.0] and all(t > 0 for t in temperatures[2:])


def test_a_function_that_made_progress_is_asked_for_again(calc: Path) -> None:
    (calc / "calc.py").write_text(CALC.replace("return a - b", "return a - b + 1"))
    partial = "```python\ndef add(a, b):\n    return a - b\n```"  # fixes test_add_zero only
    outcome, backend, events = repair(calc, [partial, FIX], candidates=1)
    assert outcome.fixed and statuses(events) == ["progress", "fixed"]
    # The second request shows the function as the first answer left it.
    assert "return a - b\n" in backend.requests[1][0][-1].content and "+ 1" not in backend.requests[1][0][-1].content


def test_an_answer_that_rewrites_the_whole_file_is_tried_as_one_candidate(repo: Path) -> None:
    # Two functions are wrong, and every failing test goes through both: no one-function candidate passes a test.
    # Shown the whole (small) file, the model rewrites it; its answer is read as the file it gives.
    (repo / "shop.py").write_text(SHOP)
    (repo / "test_shop.py").write_text(SHOP_TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "shop")
    outcome, _, events = repair(repo, [WHOLE_FILE_FIX] * 8)
    assert outcome.fixed, outcome.summary
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert fixed and fixed[0]["question"] == "file" and fixed[0]["functions"] == ["subtotal", "with_tax"]
    text = (repo / "shop.py").read_text()
    assert "return sum(prices)\n" in text and "amount * (1 + rate)" in text and "def total" in text


def test_with_variants_off_no_variant_is_tried_after_a_kept_answer(calc: Path) -> None:
    # [repair].mutants = 0: the kept answer's line has variants, but none may be tried in its place either.
    (calc / "calc.py").write_text(CALC.replace("return a - b", "return a - b + 1"))
    partial = "```python\ndef add(a, b):\n    return a - b\n```"  # fixes test_add_zero only
    _, _, events = repair(calc, [partial, *["no idea"] * 7], candidates=8)
    tried = [e.data for e in events if e.type == "repair.candidate"]
    assert tried and tried[0]["status"] == "progress"
    assert [data for data in tried if data["question"] == "mutation"] == []


def test_a_line_answer_about_a_function_that_moved_is_read_at_the_line_where_it_now_is(tmp_path: Path) -> None:
    # The question was asked about `scale` at lines 1-3; a kept candidate above it since added two lines.
    scale = "def scale(xs, k):\n    out = [x + k for x in xs]\n    return out\n"
    (tmp_path / "m.py").write_text(f"import math\n\n{scale}")
    asked = Unit("m.py", "scale", "scale", "python", 1, 3, scale.rstrip("\n"))
    search = Search(tmp_path, None, None, lambda *_a, **_k: None, frozenset(), None, Clues(), [], None,  # type: ignore[arg-type]
                    lambda _unit: None)  # fmt: skip
    proposal = search._from_answer(Answer(Question(asked, "line", 2), 0, "```python\nout = [x * k for x in xs]"))
    assert proposal is not None and proposal.edits, proposal
    moved, text = proposal.edits[0]
    assert moved.start_line == 3 and text == scale.rstrip("\n").replace("x + k", "x * k")


def test_a_line_answer_about_code_changed_since_is_read_against_the_code_it_was_shown(tmp_path: Path) -> None:
    # The question showed `scale` with a kept candidate's `sorted(out)` in place; the search has since taken that
    # candidate back. The answer still means the code it was shown: its line on top of it, in place of the function
    # as the file holds it now (before, the answer was dropped).
    scale = "def scale(xs, k):\n    out = [x + k for x in xs]\n    return out\n"
    (tmp_path / "m.py").write_text(f"import math\n\n{scale}")
    now = Unit("m.py", "scale", "scale", "python", 3, 5, scale.rstrip("\n"))
    asked = replace(now, text=now.text.replace("return out", "return sorted(out)"))
    search = Search(tmp_path, None, None, lambda *_a, **_k: None, frozenset(), None, Clues(), [], None,  # type: ignore[arg-type]
                    lambda _unit: None, suspects=[Suspect(now, (4,), 1.0)])  # fmt: skip
    proposal = search._from_answer(Answer(Question(asked, "line", 4), 0, "```python\nout = [x * k for x in xs]"))
    assert proposal is not None and proposal.edits, proposal
    replaced, text = proposal.edits[0]
    assert replaced.text == now.text
    assert text == "def scale(xs, k):\n    out = [x * k for x in xs]\n    return sorted(out)"
    # An answer that gives back the function as the file now holds it is no candidate: nothing would change.
    back = Answer(Question(asked, "function"), 1, f"```python\n{now.text}\n```")
    same = search._from_answer(back)
    assert (
        same is not None
        and not same.edits
        and same.label["problem"] == "the answer gives the function as it now stands"
    )


def test_a_sample_of_many_failing_tests_holds_one_of_each_kind_of_failure_first() -> None:
    failures = [FailedTest(f"tests/test_a.py::test_{n}", message="AssertionError: assert 1 == 2") for n in range(9)]
    failures.append(FailedTest("tests/test_b.py::test_z", message="ValueError: bad"))
    failures.append(FailedTest("tests/test_a.py::test_y", message="ValueError: bad"))
    ids = sorted(failure.test_id for failure in failures)
    sample = sampled(failures, ids, most=4)
    assert len(sample) == 4 and {"tests/test_b.py::test_z", "tests/test_a.py::test_y"} <= set(sample)
    assert sampled(failures, ids[:3], most=4) == ids[:3]

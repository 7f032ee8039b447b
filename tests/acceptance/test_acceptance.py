"""Independent acceptance of tool-call extraction: fresh cases in every format, calls and visible text exact."""

from __future__ import annotations

from collections import Counter

import pytest
from acceptance_corpus import Case, collapse, load_cases, load_tools, report, run_all, run_case, summarize

CASES = load_cases()


def test_corpus_covers_every_family_three_times() -> None:
    counts = Counter(case.family for case in CASES)
    assert len(CASES) >= 120
    assert len({case.id for case in CASES}) == len(CASES), "case ids must be unique"
    assert all(case.source for case in CASES), "every case names where its format was learned"
    thin = {family: n for family, n in counts.items() if n < 3}
    assert not thin, f"families with fewer than 3 cases: {thin}"


def test_every_case_passes() -> None:
    """One test over the whole corpus, so a failure lists every mismatch at once."""
    outcomes = run_all()
    failures = report(outcomes)
    assert not failures, f"{sum(1 for o in outcomes if o.mismatches)} of {len(outcomes)} cases fail:\n{failures}"


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_case(case: Case) -> None:
    outcome = run_case(case, load_tools())
    assert not outcome.mismatches, "\n".join(outcome.mismatches)


def test_accuracy_figures() -> None:
    figures = summarize(run_all())
    assert figures["recovered_call_rate"] >= 0.99
    assert figures["false_positives_on_no_call_cases"] == 0
    assert figures["false_positive_calls"] == 0


def test_scoring_can_fail() -> None:
    """The scorer itself must notice a wrong type, a wrong order and a wrong text, or the corpus proves nothing."""
    tools = load_tools()
    text = '<tool_call>{"name": "navigate", "arguments": {"path": "a", "depth": 1}}</tool_call> ok'
    good = Case("x", "hermes", "self", text, [{"name": "navigate", "arguments": {"path": "a", "depth": 1}}], "ok")
    assert not run_case(good, tools).mismatches
    typed = Case("x", "hermes", "self", text, [{"name": "navigate", "arguments": {"path": "a", "depth": 1.0}}], "ok")
    assert run_case(typed, tools).mismatches
    boolean = Case("x", "hermes", "self", text, [{"name": "navigate", "arguments": {"path": "a", "depth": True}}], None)
    assert run_case(boolean, tools).mismatches
    wrong_text = Case("x", "hermes", "self", text, good.calls, "not ok")
    assert run_case(wrong_text, tools).mismatches
    none_expected = Case("x", "prose", "self", text, [], None)
    outcome = run_case(none_expected, tools)
    assert outcome.false_positives == 1 and outcome.mismatches
    assert collapse("  a \n\n b\t") == "a b"

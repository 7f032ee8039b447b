"""The acceptance corpus for tool-call extraction: load the cases, run extract() on each, and score the results."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pedro.toolcalls import extract

HERE = Path(__file__).resolve().parent
CASES_FILE = HERE / "cases.jsonl"
TOOLS_FILE = HERE / "tools.json"
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Case:
    """One fresh acceptance case: a payload, what must come out of it, and where its format was learned."""

    id: str
    family: str
    source: str
    input: str | dict[str, Any] | list[Any]
    calls: list[dict[str, Any]]
    text: str | None
    finish_reason: str | None = None


@dataclass
class Outcome:
    """How one case came out: the calls it recovered, the calls it made up, and every mismatch in words."""

    case: Case
    got_calls: list[dict[str, Any]]
    got_text: str
    recovered: int = 0
    false_positives: int = 0
    mismatches: list[str] = field(default_factory=list)


def load_tools() -> list[dict[str, Any]]:
    """The registry of the corpus: pedro's tools and the test tools the sources' examples use."""
    tools: list[dict[str, Any]] = json.loads(TOOLS_FILE.read_text(encoding="utf-8"))
    return tools


def load_cases() -> list[Case]:
    """Every case in cases.jsonl, in file order."""
    cases = []
    for line in CASES_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip():
            raw = json.loads(line)
            cases.append(
                Case(
                    raw["id"],
                    raw["family"],
                    raw["source"],
                    raw["input"],
                    raw["calls"],
                    raw["text"],
                    raw.get("finish_reason"),
                )
            )
    return cases


def _typed(value: Any) -> str:
    # JSON text keeps 1, 1.0 and true apart, which == on Python values does not
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def collapse(text: str) -> str:
    """Whitespace runs collapsed to one space and trimmed, as §10 compares visible text."""
    return _SPACE.sub(" ", text).strip()


def run_case(case: Case, tools: list[dict[str, Any]]) -> Outcome:
    """Extract one case and compare calls (names, typed arguments, order) and visible text."""
    result = extract(case.input, tools, finish_reason=case.finish_reason)
    got = [{"name": call.name, "arguments": call.arguments} for call in result.calls]
    outcome = Outcome(case, got, result.text)
    expected_keys = [_typed(call) for call in case.calls]
    got_keys = [_typed(call) for call in got]
    outcome.recovered = sum(1 for i, key in enumerate(expected_keys) if i < len(got_keys) and got_keys[i] == key)
    outcome.false_positives = sum(1 for key in got_keys if key not in expected_keys)
    if got_keys != expected_keys:
        outcome.mismatches.append(f"calls: expected {expected_keys}, got {got_keys}")
    if case.text is not None and collapse(result.text) != collapse(case.text):
        outcome.mismatches.append(f"text: expected {collapse(case.text)!r}, got {collapse(result.text)!r}")
    return outcome


def run_all() -> list[Outcome]:
    """Every case of the corpus, extracted and scored."""
    tools = load_tools()
    return [run_case(case, tools) for case in load_cases()]


def summarize(outcomes: list[Outcome]) -> dict[str, float]:
    """Pass rate, recovered-call rate, false positives overall and on cases that expect no call."""
    expected = sum(len(o.case.calls) for o in outcomes)
    recovered = sum(o.recovered for o in outcomes)
    return {
        "cases": float(len(outcomes)),
        "pass_rate": sum(1 for o in outcomes if not o.mismatches) / max(1, len(outcomes)),
        "expected_calls": float(expected),
        "recovered_call_rate": recovered / max(1, expected),
        "false_positive_calls": float(sum(o.false_positives for o in outcomes)),
        "false_positives_on_no_call_cases": float(sum(len(o.got_calls) for o in outcomes if not o.case.calls)),
    }


def report(outcomes: list[Outcome]) -> str:
    """Every failing case with its mismatches, one block per case."""
    lines = []
    for outcome in outcomes:
        if outcome.mismatches:
            lines.append(f"[{outcome.case.family}] {outcome.case.id} ({outcome.case.source})")
            lines.extend(f"    {m}" for m in outcome.mismatches)
    return "\n".join(lines)

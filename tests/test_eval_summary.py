"""The evaluation's summaries are pure functions of run records; failure reasons come from one mapping."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pedro.eval.outcome import FAILURE_REASONS, Outcome, failure_reason, read_events, read_outcome
from pedro.eval.records import RunRecord
from pedro.eval.results import EvalStore
from pedro.eval.summary import SCHEMA_VERSION, percentile, summarize, summarize_by_scenario

META = {"suite": "tasks", "started": "20260101T000000Z", "runs_planned": 6}


def record(scenario: str, ok: bool, **kw: Any) -> RunRecord:
    values: dict[str, Any] = {
        "run_id": "0001",
        "suite": "tasks",
        "scenario": scenario,
        "group": "one-function",
        "model": "smollm2",
        "profile": "default",
        "mode": "repair",
        "trial": 1,
        "ok": ok,
        "failure": None if ok else "no_tool_call",
        "status": "completed" if ok else "failed",
        "reason": "repaired" if ok else "no_progress",
        "exit_code": 0 if ok else 4,
        "wall_s": 1.0,
        "prompt_tokens": 100,
        "completion_tokens": 10,
    }
    return RunRecord(**{**values, **kw})


RECORDS = [
    record("py-add-sign", True, wall_s=2.0),
    record("py-add-sign", False, profile="precise", wall_s=4.0, failure="tests_failed"),
    record("py-greet", False, wall_s=10.0),
    record("py-greet", False, profile="precise", wall_s=1.0),
    record("py-greet", True, profile="precise", trial=2, wall_s=3.0),
    record("py-greet", False, failure="interrupted", wall_s=0.5),
]


def test_summary_has_rates_per_model_profile_and_mode() -> None:
    summary = summarize(RECORDS, META)
    assert summary["schema_version"] == SCHEMA_VERSION == 1
    assert (summary["runs_done"], summary["runs_interrupted"], summary["runs"], summary["ok"]) == (6, 1, 5, 2)
    assert summary["rate"] == 0.4
    assert summary["suite"] == "tasks" and summary["runs_planned"] == 6
    rows = {(g["model"], g["profile"], g["mode"]): g for g in summary["groups"]}
    assert set(rows) == {("smollm2", "default", "repair"), ("smollm2", "precise", "repair")}
    assert (rows["smollm2", "default", "repair"]["ok"], rows["smollm2", "default", "repair"]["runs"]) == (1, 2)
    assert rows["smollm2", "precise", "repair"]["rate"] == round(1 / 3, 4)
    # The interrupted run measured nothing: it is neither in the rates nor in the wall times.
    assert summary["wall_s"] == {"p50": 3.0, "p95": 10.0, "total": 20.0}
    assert summary["tokens"] == {"prompt": 500, "completion": 50, "per_run": 110.0}
    assert summary["failures"] == [{"reason": "no_tool_call", "count": 2}, {"reason": "tests_failed", "count": 1}]


def test_summary_by_scenario_splits_each_scenario_by_group() -> None:
    by = summarize_by_scenario(RECORDS, META)
    assert by["schema_version"] == 1 and by["suite"] == "tasks"
    greet = by["scenarios"]["py-greet"]
    assert (greet["runs"], greet["ok"], greet["group"]) == (3, 1, "one-function")
    assert greet["by_group"] == [
        {"model": "smollm2", "profile": "default", "mode": "repair", "runs": 1, "ok": 0, "rate": 0.0},
        {"model": "smollm2", "profile": "precise", "mode": "repair", "runs": 2, "ok": 1, "rate": 0.5},
    ]
    assert "mismatches" not in greet
    assert by["scenarios"]["py-add-sign"]["failures"] == [{"reason": "tests_failed", "count": 1}]


def test_offline_scenarios_list_how_they_differed() -> None:
    runs = [
        record("happy[stream]", True, suite="offline"),
        record(
            "happy[plain]", False, suite="offline", failure="mismatch", mismatches=("reason: expected 'a', got 'b'",)
        ),
    ]
    by = summarize_by_scenario(runs, {"suite": "offline"})
    assert by["scenarios"]["happy[stream]"]["mismatches"] == []
    assert by["scenarios"]["happy[plain]"]["mismatches"] == ["reason: expected 'a', got 'b'"]


def test_percentiles_use_the_nearest_rank() -> None:
    assert percentile([], 0.5) == 0.0
    assert percentile([5.0], 0.95) == 5.0
    assert percentile([4.0, 1.0, 3.0, 2.0], 0.5) == 2.0
    assert percentile([float(n) for n in range(1, 21)], 0.95) == 19.0


def test_a_summary_is_the_same_whatever_order_the_runs_ended_in(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    store = EvalStore(tmp_path, started=0.0, meta=META)
    for n, item in enumerate(reversed(RECORDS)):
        store.add(replace(item, run_id=f"{len(RECORDS) - n:04d}"))
    assert store.folder == tmp_path / ".pedro" / "evals" / "19700101T000000Z"
    in_order = [replace(item, run_id=f"{n:04d}") for n, item in enumerate(RECORDS, start=1)]
    assert json.loads(store.summary_path.read_text()) == summarize(in_order, META)
    assert json.loads(store.by_scenario_path.read_text()) == summarize_by_scenario(in_order, META)
    lines = (store.folder / "runs.jsonl").read_text().splitlines()
    assert [RunRecord.from_dict(json.loads(line)).scenario for line in lines] == [r.scenario for r in reversed(RECORDS)]
    assert ".pedro/" in (tmp_path / ".git" / "info" / "exclude").read_text()


def events(*items: dict[str, Any]) -> str:
    return "\n".join(json.dumps(item) for item in items) + "\nnot json\n"


def finished(reason: str, status: str = "failed") -> dict[str, Any]:
    totals = {"rounds": 3, "tool_calls": 2, "prompt_tokens": 90, "completion_tokens": 9}
    return {"type": "job.finished", "exit_status": status, "reason": reason, "totals": totals}


def call(name: str, ok: bool, kind: str | None = None) -> dict[str, Any]:
    return {"type": "tool_call.finished", "name": name, "ok": ok, "error_kind": kind}


def test_the_outcome_is_read_from_the_event_stream() -> None:
    stdout = events(
        call("file", False, "invalid_args"),
        {"type": "format.problem", "kind": "unknown_tool"},
        {**call("file", False, "too_large"), "error_code": "ARGUMENTS_TOO_LARGE"},
        call("code_edit", True),
        finished("completed", "completed"),
    )
    outcome = read_outcome(read_events(stdout), exit_code=0)
    assert outcome.calls == ("file invalid_args", "file too_large", "code_edit ok")
    assert outcome.problems == ("unknown_tool",)
    assert outcome.codes == ("ARGUMENTS_TOO_LARGE",)
    assert (outcome.status, outcome.reason, outcome.rounds, outcome.prompt_tokens) == ("completed", "completed", 3, 90)


@pytest.mark.parametrize(
    ("outcome", "solved", "expected"),
    [
        (Outcome(True, "completed", "repaired", 0), True, None),
        (Outcome(True, "completed", "completed", 0), False, "check_failed"),
        (Outcome(True, "completed", "built", 0), False, "check_failed"),
        (Outcome(True, "completed", "unverified", 0), False, "unverified"),
        (Outcome(True, "completed", "unverified", 0), True, None),
        (Outcome(False, "none", "none", None, timed_out=True), False, "timeout"),
        (Outcome(False, "none", "none", 130, interrupted=True), False, "interrupted"),
        (Outcome(False, "none", "none", 2), False, "usage_error"),
        (Outcome(False, "none", "none", 1), False, "crashed"),
        (Outcome(True, "backend_error", "backend_error", 3), False, "server_error"),
        (Outcome(True, "failed", "tests_failed", 1), False, "tests_failed"),
        (Outcome(True, "failed", "no_evidence", 1), False, "no_change"),
        (Outcome(True, "failed", "no_tool_call", 1), False, "no_tool_call"),
        (Outcome(True, "failed", "empty_reply", 1), False, "empty_reply"),
        (Outcome(True, "limit_reached", "no_progress", 4), False, "no_tool_call"),
        (Outcome(True, "limit_reached", "no_progress", 4, problems=("invalid_json",)), False, "bad_format"),
        (Outcome(True, "limit_reached", "round_limit", 4, calls=("file invalid_args",)), False, "bad_arguments"),
        (Outcome(True, "failed", "tool_failed", 1, calls=("file too_large",)), False, "bad_arguments"),
        (Outcome(True, "failed", "tool_failed", 1, calls=("file ok", "bash failed")), False, "tool_failed"),
        (Outcome(True, "limit_reached", "round_limit", 4, calls=("file ok",)), False, "round_limit"),
        (Outcome(True, "limit_reached", "loop", 4, calls=("file ok",)), False, "loop"),
        (Outcome(True, "limit_reached", "context_full", 4, calls=("file ok",)), False, "context_full"),
        (Outcome(True, "failed", "some_new_reason", 1, calls=("file ok",)), False, "other"),
    ],
)
def test_each_failure_is_named_by_one_mapping(outcome: Outcome, solved: bool, expected: str | None) -> None:
    reason = failure_reason(outcome, solved=solved)
    assert reason == expected
    assert reason is None or reason in FAILURE_REASONS

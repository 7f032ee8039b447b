"""The end of a repair (settle.py): the chosen fix in place, confirmed by the whole command once, as pedro's own
step of the job; stopped in time for that check, and handed over to the loop when nothing is fixed."""

from __future__ import annotations

from pathlib import Path

from cli_util import pedro
from test_repairer import FIX, WRONG, Writing, repair, run_job, statuses

from pedro.deadline import Deadline
from pedro.jobs.facts import changed_files, job_diff
from pedro.jobstore import JobStore
from pedro.safety.guard import SnapshotGuard
from pedro.safety.snapshots import list_snapshots


def test_a_kept_fix_is_pedros_step_and_counts_as_the_jobs_change(calc: Path) -> None:
    guard = SnapshotGuard(calc, "job1")
    guard.start()
    outcome, _, _ = repair(calc, [FIX], guard=guard)
    guard.finish()
    assert outcome.fixed
    # The fix is repair's own step, never a change the user made before the job ended.
    shots = list_snapshots(calc, "job1")
    assert [(s.label, s.changes_by) for s in shots] == [("job start", None), ("after repair", "pedro")]
    assert changed_files(calc, shots) == ["calc.py"] and "+    return a + b" in job_diff(calc, shots, ["calc.py"])


def test_a_repaired_job_completes_with_the_passing_run_on_record(calc: Path, cli_env: dict[str, str]) -> None:
    store = JobStore(calc)
    try:
        result, _, _ = run_job(calc, [FIX], with_repair=True, store=store)
    finally:
        store.close()
    assert (result.exit_status, result.reason, result.rounds) == ("completed", "repaired", 0)
    recorded = [event["type"] for event in store.events(result.job_id)]
    assert recorded.count("tests.run") == 4 and "repair.candidate" in recorded and "model.completed" in recorded
    assert recorded[-1] == "job.finished"
    finished = store.events(result.job_id)[-1]
    assert finished["totals"]["repair_candidates"] == 1 and finished["totals"]["tool_calls"] == 1
    # `pedro jobs show` tells the story: the failing run, the candidate with its diff, the passing run.
    shown = pedro("jobs", "show", result.job_id, env=cli_env, cwd=calc).stdout
    order = [
        "tests (baseline): FAIL",
        "failing: test_calc.py::test_add",
        "-    return a - b",
        "+    return a + b",
        "tests (candidate 1, failing tests): pass",
        "candidate 1 for calc.py:1 add: fixed",
    ]
    positions = [shown.find(text) for text in order]
    assert -1 not in positions and positions == sorted(positions), shown


def test_an_unfinished_repair_hands_over_to_the_loop(calc: Path) -> None:
    fenced_fix = '```code_edit\n{"path": "calc.py", "old": "return a - b", "new": "return a + b"}\n```'
    result, backend, _ = run_job(calc, [WRONG, fenced_fix, "TASK COMPLETE fixed add"], with_repair=True)
    assert result.exit_status == "completed" and result.rounds == 2
    first_loop_request = backend.requests[1][0]
    assert first_loop_request[0].role == "system"
    assert "Before asking you, pedro ran the tests" in first_loop_request[1].content


def test_repair_stops_in_time_for_its_final_check_before_the_jobs_time_limit(calc: Path) -> None:
    # The job's time limit is nearer than repair's own budget and leaves no room for a candidate and the final
    # check: repair stops at once and says which limit stopped it, so the job can end on its own terms.
    outcome, _, events = repair(calc, [WRONG, WRONG, FIX], time_budget_s=3600, deadline=Deadline.after(1.0))
    assert not outcome.fixed and outcome.out_of_time == "the job's time limit of 1 s"
    assert statuses(events) == []
    assert "in the job's time limit of 1 s" in outcome.summary and "--time-limit" in outcome.handover


def test_the_answer_being_written_is_abandoned_before_the_final_check_not_after_it(calc: Path) -> None:
    # A variant fixes add() while the model is still writing; the final check runs the whole command (a second or
    # so) and the model, asked nothing more, must not share the cores with it.
    writing = Writing()
    seen = lambda kind: writing.after.set() if kind == "repair.chosen" else None  # noqa: E731
    outcome, _, events = repair(calc, [], candidates=1, mutants=8, backend=writing, on_event=seen)
    assert outcome.fixed and writing.requests
    assert [e.data["phase"] for e in events if e.type == "tests.run"][-1:] == ["candidate"]
    assert writing.written_after <= 2, writing.written_after

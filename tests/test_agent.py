"""The loop on a ScriptedBackend: completion, limits, no progress, format recovery, tool failure, evidence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_util import fenced
from repo_util import git

from pedro.backends.base import GenerationOptions
from pedro.backends.scripted import ScriptedBackend
from pedro.dispatch import Dispatcher
from pedro.errors import BackendError
from pedro.jobstore import JobStore
from pedro.loop.agent import Agent, AgentParts, Limits, RunResult
from pedro.messages import Completion, Event, Message, ToolCall
from pedro.roles import get_role
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext


def run(
    repo: Path,
    replies: Any,
    *,
    role: str = "builder",
    max_rounds: int = 10,
    store: JobStore | None = None,
    events: list[Event] | None = None,
    backend_type: type[ScriptedBackend] = ScriptedBackend,
) -> tuple[RunResult, ScriptedBackend]:
    backend = backend_type(replies)
    chosen = get_role(role)
    dispatcher = Dispatcher(ToolRegistry.default(chosen.tools), ToolContext(root=repo, read_only=chosen.read_only))
    job = store.create(role=role, task="t", backend="scripted", model="m") if store else None
    result = Agent(
        AgentParts(
            role=chosen,
            backend=backend,
            dispatcher=dispatcher,
            limits=Limits(max_rounds=max_rounds, max_idle_replies=3),
            options=GenerationOptions(),
            store=store,
            job=job,
        ),
        on_event=events.append if events is not None else lambda _e: None,
    ).run("Fix add() in calc.py")
    return result, backend


@pytest.fixture
def calc(repo: Path) -> Path:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(repo, "add", "calc.py")
    git(repo, "commit", "-qm", "calc")
    return repo


def last_user_text(messages: list[Message]) -> str:
    return messages[-1].content


def test_completes_after_edit_and_records_job(calc: Path) -> None:
    store = JobStore(calc)
    events: list[Event] = []
    result, backend = run(
        calc,
        [
            fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"}),
            "All done.\nTASK COMPLETE\nFixed the operator.",
        ],
        store=store,
        events=events,
    )
    store.close()
    assert (result.exit_status, result.exit_code, result.rounds, result.tool_calls) == ("completed", 0, 2, 1)
    assert result.summary == "Fixed the operator."
    assert "a + b" in (calc / "calc.py").read_text()
    assert "a + b" in last_user_text(backend.requests[1][0])  # the diff reached the model
    job = store.load(result.job_id)
    assert job.status == "completed" and job.totals["tool_calls"] == 1
    types = [e["type"] for e in store.events(result.job_id)]
    assert types[0] == "job.started" and types[-1] == "job.finished"
    assert "tool_call.finished" in types and "model.delta" not in types
    assert any(e.type == "model.delta" for e in events)


def test_system_prompt_is_identical_every_round(calc: Path) -> None:
    read = fenced("file", {"action": "read", "path": "calc.py"})
    _, backend = run(calc, [read, read, read], max_rounds=3)
    systems = {request[0][0].content for request in backend.requests}
    assert len(systems) == 1
    prefixes = [request[0] for request in backend.requests]
    for earlier, later in zip(prefixes, prefixes[1:], strict=False):
        assert later[: len(earlier)] == earlier  # history is append-only


class NativeBackend(ScriptedBackend):
    """A server that takes the tool list natively."""

    def sends_tools(self, options: GenerationOptions) -> bool:
        return True


class RefusesToolsBackend(ScriptedBackend):
    """A server that refuses native tools on the first request, after which the backend is in text mode."""

    def sends_tools(self, options: GenerationOptions) -> bool:
        return not self.requests


def test_native_tools_are_not_described_in_the_system_prompt(calc: Path) -> None:
    read = fenced("file", {"action": "read", "path": "calc.py"})
    _, backend = run(calc, [read, read, read], max_rounds=3, backend_type=NativeBackend)
    systems = {request[0][0].content for request in backend.requests}
    assert len(systems) == 1
    system = systems.pop()
    assert "TASK COMPLETE" in system and "## file" not in system and "```" not in system
    assert all(request[1] for request in backend.requests)  # the tools travel in every request instead


def test_tools_refused_mid_job_are_described_from_the_next_round_on(calc: Path) -> None:
    read = fenced("file", {"action": "read", "path": "calc.py"})
    _, backend = run(calc, [read, read, read], max_rounds=3, backend_type=RefusesToolsBackend)
    first, second, third = (request[0][0].content for request in backend.requests)
    assert "## file" not in first
    assert "## file\n" in second and "```file\n" in second
    assert third == second  # changed once, with the mode; stable again after


def test_round_limit(calc: Path) -> None:
    read = fenced("file", {"action": "read", "path": "calc.py"})
    result, backend = run(calc, [read] * 5, max_rounds=3)
    assert (result.exit_status, result.exit_code, result.reason) == ("limit_reached", 4, "round_limit")
    assert len(backend.requests) == 3
    assert result.summary.startswith("stopped after 3 rounds without completion")


def test_one_round_is_one_round(calc: Path) -> None:
    result, _ = run(calc, [fenced("file", {"action": "read", "path": "calc.py"})], max_rounds=1)
    assert result.summary.startswith("stopped after 1 round without completion"), result.summary


def test_no_progress_after_nudges(calc: Path) -> None:
    result, backend = run(calc, ["I will look at the code.", "Thinking about it.", "Still thinking."])
    assert (result.exit_status, result.reason) == ("limit_reached", "no_progress")
    assert "TASK COMPLETE" in last_user_text(backend.requests[1][0])  # the nudge explains the marker


def test_format_error_is_fed_back_then_recovered(calc: Path) -> None:
    result, backend = run(
        calc,
        [
            fenced("file", '{"action": "read", "path": "calc.py"'),  # unclosed JSON
            fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"}),
            "TASK COMPLETE\nfixed",
        ],
    )
    assert result.exit_status == "completed"
    feedback = last_user_text(backend.requests[1][0])
    assert "could not run" in feedback


def test_tool_failure_is_reported_to_the_model(calc: Path) -> None:
    result, backend = run(
        calc,
        [
            fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "no such text", "new": "x"}),
            fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"}),
            "TASK COMPLETE\nfixed",
        ],
    )
    assert result.exit_status == "completed"
    assert "ERROR" in last_user_text(backend.requests[1][0])


def test_completion_without_changes_is_refused_then_failed(calc: Path) -> None:
    result, backend = run(calc, ["TASK COMPLETE\nnothing to do", "TASK COMPLETE\nreally"])
    assert (result.exit_status, result.exit_code, result.reason) == ("failed", 1, "no_evidence")
    assert "nothing in the repository has changed" in last_user_text(backend.requests[1][0])


def test_reviewer_completes_without_changes_and_cannot_write(calc: Path) -> None:
    result, backend = run(
        calc,
        [
            fenced("file", {"action": "write", "path": "calc.py", "content": "x = 1\n"}),
            "TASK COMPLETE\n- [minor] calc.py:2 — subtracts",
        ],
        role="reviewer",
    )
    assert result.exit_status == "completed"
    assert "a - b" in (calc / "calc.py").read_text()
    assert "read-only" in last_user_text(backend.requests[1][0])
    assert {t["function"]["name"] for t in backend.requests[0][1]} == {"file", "search", "navigate", "git"}


def test_marker_in_a_reply_with_calls_is_ignored(calc: Path) -> None:
    result, _ = run(
        calc,
        [
            fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"})
            + "\nTASK COMPLETE",
            "TASK COMPLETE\nnow really",
        ],
    )
    assert result.rounds == 2 and result.summary == "now really"


def test_native_calls_get_tool_messages(calc: Path) -> None:
    call = ToolCall("file", {"action": "read", "path": "calc.py"}, id="call_abc")
    result, backend = run(
        calc,
        [
            Completion(text="", tool_calls=(call,), finish_reason="tool_calls"),
            fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"}),
            "TASK COMPLETE\nok",
        ],
    )
    assert result.exit_status == "completed"
    second = backend.requests[1][0]
    assert second[-2].role == "assistant" and second[-2].tool_calls[0].id == "call_abc"
    assert second[-1].role == "tool" and second[-1].tool_call_id == "call_abc"
    assert "return a - b" in second[-1].content


def test_backend_failure_ends_with_exit_3(calc: Path) -> None:
    def failing(_messages: list[Message], _tools: list[dict[str, Any]]) -> str:
        raise BackendError("cannot reach http://127.0.0.1:9/v1")

    result, _ = run(calc, failing)
    assert (result.exit_status, result.exit_code) == ("backend_error", 3)
    assert "127.0.0.1:9" in result.summary


def test_garbage_replies_never_crash_the_loop(calc: Path) -> None:
    replies = ["<tool_call>{{{", "```code_edit\nnot json\n```", "\x00\ud800", "```bash\nrm -rf b", "{}" * 1000]
    result, _ = run(calc, replies, max_rounds=5)
    assert result.exit_status == "limit_reached"


def test_loop_guard_warns_then_stops_identical_calls(calc: Path) -> None:
    read = fenced("file", {"action": "read", "path": "calc.py"})
    result, backend = run(calc, [read] * 6, max_rounds=10)
    assert (result.exit_status, result.exit_code, result.reason) == ("limit_reached", 4, "loop")
    assert len(backend.requests) == 4
    assert result.tool_calls == 3  # the fourth identical reply is not run
    assert "same tool calls 3 times" in last_user_text(backend.requests[3][0])


def test_loop_guard_resets_when_the_calls_change(calc: Path) -> None:
    read = fenced("file", {"action": "read", "path": "calc.py"})
    other = fenced("search", {"action": "grep", "pattern": "add"})
    result, _ = run(calc, [read, read, read, other, read, read, read], max_rounds=7)
    assert result.reason == "round_limit"


def test_three_timeouts_in_a_row_end_the_run_headless(calc: Path) -> None:
    from pedro.config import ToolsConfig

    hangs = [fenced("bash", {"command": f"sleep {30 + n}", "timeout": 0.3}) for n in range(5)]
    backend = ScriptedBackend(hangs)
    role = get_role("builder")
    dispatcher = Dispatcher(ToolRegistry.default(role.tools), ToolContext(root=calc, config=ToolsConfig()))
    result = Agent(
        AgentParts(
            role=role, backend=backend, dispatcher=dispatcher, limits=Limits(max_rounds=10), options=GenerationOptions()
        )
    ).run("Fix add() in calc.py")
    assert (result.exit_status, result.exit_code, result.reason) == ("limit_reached", 4, "timeouts")
    assert len(backend.requests) == 3
    assert result.tool_calls == 3


def test_a_fault_in_pedro_still_finishes_the_job_with_its_last_snapshot(calc: Path) -> None:
    from pedro.safety.guard import SnapshotGuard
    from pedro.safety.snapshots import list_snapshots

    store = JobStore(calc)
    job = store.create(role="builder", task="t", backend="scripted", model="m")
    guard = SnapshotGuard(calc, job.id)
    guard.start()

    def answer(_messages: list[Message], _tools: list[dict[str, Any]]) -> str:
        (calc / "calc.py").write_text("def add(a, b):\n    return a + b\n")  # a change the job must keep on record
        raise RuntimeError("a bug in pedro")

    chosen = get_role("builder")
    with pytest.raises(RuntimeError, match="a bug in pedro"):
        Agent(
            AgentParts(
                role=chosen,
                backend=ScriptedBackend(answer),
                dispatcher=Dispatcher(ToolRegistry.default(chosen.tools), ToolContext(root=calc), guard=guard),
                limits=Limits(max_rounds=3),
                options=GenerationOptions(),
                store=store,
                job=job,
            )
        ).run("Fix add() in calc.py")
    finished = [e for e in store.events(job.id) if e["type"] == "job.finished"]
    assert len(finished) == 1 and finished[0]["reason"] == "internal_error"
    assert "RuntimeError: a bug in pedro" in finished[0]["summary"]
    saved = store.load(job.id)
    assert (saved.status, saved.exit_code) == ("failed", 1)
    assert list_snapshots(calc, job.id)[-1].label == "job end"
    store.close()


def test_the_same_failing_call_twice_in_a_row_ends_the_run(calc: Path) -> None:
    # SmolLM2 sent a code_edit without its action six times, each refused: the second identical refusal ends it.
    bad = fenced("code_edit", {"path": "calc.py"})
    result, backend = run(calc, [bad] * 6, max_rounds=10)
    assert (result.exit_status, result.reason) == ("limit_reached", "loop"), result.summary
    assert len(backend.requests) == 2
    assert result.summary.startswith("the model sent the same failing call twice in a row")


def test_a_failing_call_then_another_is_not_a_repeat(calc: Path) -> None:
    first = fenced("file", {"action": "read", "path": "missing.py"})
    second = fenced("file", {"action": "read", "path": "absent.py"})
    result, backend = run(calc, [first, second, first], max_rounds=3)
    assert result.reason == "round_limit" and len(backend.requests) == 3

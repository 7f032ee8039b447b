"""[tool_calling] in the loop, on a ScriptedBackend: tool use modes, failure policy, calls per turn, the
finalisation request, tool masks, and the settings job.started records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_util import fenced
from repo_util import git

from pedro.backends.base import GenerationOptions
from pedro.backends.scripted import ScriptedBackend
from pedro.config import ToolCallingConfig, load_config
from pedro.dispatch import Dispatcher
from pedro.jobstore import JobStore
from pedro.loop.agent import Agent, AgentParts, Limits, RunResult
from pedro.messages import Completion, Event, ToolCall
from pedro.prompts import load_prompt
from pedro.roles import get_role
from pedro.settings import RunSettings
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext

READ = fenced("file", {"action": "read", "path": "calc.py"})
READ_MISSING = fenced("file", {"action": "read", "path": "nope.py"})
DONE = "TASK COMPLETE\nThe code looks right."


class NativeBackend(ScriptedBackend):
    """A server that takes the tool list natively, so each request shows the tools it carried."""

    def sends_tools(self, options: GenerationOptions) -> bool:
        return True


@pytest.fixture
def calc(repo: Path) -> Path:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(repo, "add", "calc.py")
    git(repo, "commit", "-qm", "calc")
    return repo


def run(
    repo: Path,
    replies: Any,
    settings: RunSettings,
    *,
    role: str = "reviewer",
    events: list[Event] | None = None,
    backend_type: type[ScriptedBackend] = ScriptedBackend,
    store: JobStore | None = None,
) -> tuple[RunResult, ScriptedBackend]:
    backend = backend_type(replies)
    chosen = get_role(role)
    ctx = ToolContext(root=repo, read_only=chosen.read_only, calling=settings.calling)
    dispatcher = Dispatcher(ToolRegistry.default(chosen.tools), ctx)
    job = store.create(role=role, task="t", backend="scripted", model="m") if store else None
    result = Agent(
        AgentParts(
            role=chosen,
            backend=backend,
            dispatcher=dispatcher,
            limits=Limits(max_rounds=6, max_idle_replies=3),
            options=GenerationOptions(),
            store=store,
            job=job,
            settings=settings,
        ),
        on_event=events.append if events is not None else lambda _e: None,
    ).run("Review calc.py")
    return result, backend


def calling(**keys: Any) -> RunSettings:
    return RunSettings(calling=ToolCallingConfig(**keys))


def test_enforced_fails_a_run_that_never_called_a_tool(calc: Path) -> None:
    relaxed, _ = run(calc, [DONE], calling())
    assert (relaxed.exit_status, relaxed.reason) == ("completed", "completed")
    enforced, _ = run(calc, [DONE], calling(tool_use_mode="enforced"))
    assert (enforced.exit_status, enforced.reason, enforced.exit_code) == ("failed", "no_tool_call", 1)
    with_call, _ = run(calc, [READ, DONE], calling(tool_use_mode="enforced"))
    assert (with_call.exit_status, with_call.reason) == ("completed", "completed")


def test_tolerated_needs_one_successful_call_and_fatal_stops_at_the_first_failure(calc: Path) -> None:
    tolerated, _ = run(calc, [READ_MISSING, READ, DONE], calling(tool_use_mode="enforced"))
    assert (tolerated.exit_status, tolerated.reason) == ("completed", "completed")
    only_failed, _ = run(calc, [READ_MISSING, DONE], calling(tool_use_mode="enforced"))
    assert (only_failed.exit_status, only_failed.reason) == ("failed", "no_tool_call")
    assert "1 failed" in only_failed.summary
    fatal, backend = run(
        calc, [READ_MISSING, READ, DONE], calling(tool_use_mode="enforced", tool_failure_policy="fatal")
    )
    assert (fatal.exit_status, fatal.reason, fatal.rounds) == ("failed", "tool_failed", 1)
    assert "file call failed" in fatal.summary and len(backend.requests) == 1
    # The policy is for enforced runs: a relaxed run goes on after a failed call.
    relaxed, _ = run(calc, [READ_MISSING, DONE], calling(tool_failure_policy="fatal"))
    assert (relaxed.exit_status, relaxed.reason) == ("completed", "completed")


def test_disabled_sends_and_describes_no_tools_and_runs_no_calls(calc: Path) -> None:
    edit = fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"})
    reply = f"Change the operator:\n\n{edit}\n"
    result, backend = run(calc, [reply], calling(tool_use_mode="disabled"), role="builder", backend_type=NativeBackend)
    assert (result.exit_status, result.reason, result.rounds, result.tool_calls) == ("completed", "completed", 1, 0)
    assert result.summary == reply.strip()
    assert "a - b" in (calc / "calc.py").read_text()  # the call in the text did not run
    messages, tools = backend.requests[0]
    assert tools == []
    system = messages[0].content
    assert "code_edit" not in system and "```" not in system and "tool calls" not in system
    relaxed, backend = run(calc, ["x", DONE], calling(), backend_type=NativeBackend)
    assert backend.requests[0][1] and "TASK COMPLETE" in backend.requests[0][0][0].content


def test_disabled_with_an_empty_reply_fails(calc: Path) -> None:
    result, _ = run(calc, [""], calling(tool_use_mode="disabled"))
    assert (result.exit_status, result.reason) == ("failed", "empty_reply")


def test_calls_past_the_turn_limit_are_recorded_and_explained_not_run(calc: Path) -> None:
    missing = fenced("file", {"action": "read", "path": "other.py"})
    events: list[Event] = []
    result, backend = run(
        calc, [f"{READ}\n{missing}\n{missing}", DONE], calling(max_tool_calls_per_turn=1), events=events
    )
    assert result.tool_calls == 1
    started = [e.data["arguments"]["path"] for e in events if e.type == "tool_call.started"]
    assert started == ["calc.py"]
    ignored = next(e for e in events if e.type == "tool_calls.ignored")
    assert ignored.data["limit"] == 1
    assert [call["arguments"]["path"] for call in ignored.data["ignored_tool_calls"]] == ["other.py", "other.py"]
    told = backend.requests[1][0][-1].content
    assert "Not run: only the first 1 tool call(s)" in told and "file, file" in told
    everything, _ = run(calc, [f"{READ}\n{missing}", DONE], calling())
    assert everything.tool_calls == 2


def test_each_ignored_native_call_gets_its_own_answer(calc: Path) -> None:
    calls = (
        ToolCall("file", {"action": "read", "path": "calc.py"}, id="a"),
        ToolCall("search", {"action": "grep", "pattern": "add"}, id="b"),
    )
    result, backend = run(calc, [Completion("", tool_calls=calls), DONE], calling(max_tool_calls_per_turn=1))
    assert result.tool_calls == 1
    answers = [m for m in backend.requests[1][0] if m.role == "tool"]
    assert [m.tool_call_id for m in answers] == ["a", "b"]
    assert "Result of file" in answers[0].content and "Not run" in answers[1].content


def test_a_server_told_not_to_call_in_parallel_runs_one_call_per_reply(calc: Path) -> None:
    two = f"{READ}\n{READ_MISSING}"
    result, _ = run(calc, [two, DONE], RunSettings(parallel_tool_calls=False))
    assert result.tool_calls == 1
    explicit, _ = run(calc, [two, DONE], RunSettings(ToolCallingConfig(max_tool_calls_per_turn=2), False))
    assert explicit.tool_calls == 2


def test_an_empty_reply_after_tool_calls_gets_one_finalisation_request_without_tools(calc: Path) -> None:
    events: list[Event] = []
    result, backend = run(calc, [READ, "", DONE], calling(), events=events, backend_type=NativeBackend)
    assert (result.exit_status, result.rounds) == ("completed", 3)
    final_messages, final_tools = backend.requests[2]
    assert final_tools == [] and final_messages[-1].content.strip() == load_prompt("feedback/finalise.md").strip()
    assert backend.requests[1][1], "only the finalisation request goes without tools"
    assert any(e.type == "notice" and "final answer" in e.data["message"] for e in events)
    # A second empty reply is not asked again: it is an idle reply like any other.
    _, again = run(calc, [READ, "", "", DONE], calling(), backend_type=NativeBackend)
    assert "no tool call and no TASK COMPLETE" in again.requests[3][0][-1].content


def test_the_finalisation_request_follows_its_switches(calc: Path) -> None:
    _, off = run(calc, [READ, "", DONE], calling(fix_empty_final=False), backend_type=NativeBackend)
    assert off.requests[2][1] and "no tool call and no TASK COMPLETE" in off.requests[2][0][-1].content
    _, tools = run(calc, [READ, "", DONE], calling(fix_empty_final_with_tools=True), backend_type=NativeBackend)
    assert tools.requests[2][1] and "Your last reply was empty" in tools.requests[2][0][-1].content


def test_masked_tools_are_not_offered_to_the_model(calc: Path) -> None:
    _, backend = run(calc, [DONE], calling(deny_tools=["git", "search"]), backend_type=NativeBackend)
    assert [tool["function"]["name"] for tool in backend.requests[0][1]] == ["file", "navigate"]
    _, text = run(calc, [DONE], calling(allow_tools=["file"]))
    system = text.requests[0][0][0].content
    assert "## file" in system
    assert "## navigate" not in system and "## search" not in system and "## git" not in system


def test_job_started_records_the_composed_settings(calc: Path, tmp_path: Path) -> None:
    user = tmp_path / "user.toml"
    user.write_text(
        '[backend]\nmodel = "qwen2.5-coder:7b"\nparallel_tool_calls = "false"\n'
        '[models."qwen2.5-coder*"]\nsampling_profile = "qwen_recommended"\ntool_mode = "native"\n'
        "[tool_calling]\ntool_use_mode = 'enforced'\ndeny_tools = ['bash']\nrequest_overrides = { seed = 3 }\n"
    )
    settings = RunSettings.from_config(load_config(None, env={}, user_file=user))
    store = JobStore(calc)
    result, _ = run(calc, [READ, DONE], settings, store=store)
    store.close()
    started = next(e for e in store.events(result.job_id) if e["type"] == "job.started")
    recorded = started["settings"]
    assert recorded["preset"] == "qwen2.5-coder*" and recorded["tool_mode"] == "native"
    assert recorded["sampling"] == {
        "profile": "qwen_recommended",
        "values": {"temperature": 0.7, "top_p": 0.8, "top_k": 20, "min_p": 0.0, "repeat_penalty": 1.05},
    }
    calling_ = recorded["tool_calling"]
    assert calling_["tool_use_mode"] == "enforced" and calling_["deny_tools"] == ["bash"]
    assert calling_["request_overrides"] == {"seed": 3} and calling_["max_tool_calls_per_turn"] == 1
    assert calling_["max_tool_args_bytes"] == 1_048_576 and calling_["tool_output_overflow"] == "truncate"


def test_a_masked_tool_called_anyway_is_refused_with_its_code(calc: Path) -> None:
    edit = fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"})
    events: list[Event] = []
    result, backend = run(calc, [edit, DONE], calling(deny_tools=["code_edit"]), role="builder", events=events)
    assert "a - b" in (calc / "calc.py").read_text()
    finished = next(e for e in events if e.type == "tool_call.finished")
    assert (finished.data["name"], finished.data["error_code"]) == ("code_edit", "TOOL_NOT_ALLOWED")
    assert "Result of code_edit: ERROR (TOOL_NOT_ALLOWED)" in backend.requests[1][0][-1].content

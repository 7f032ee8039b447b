"""Each layer of the dispatcher's stack alone, on real temporary git repositories with the real tools."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pedro.config import ToolCallingConfig
from pedro.dispatch import Dispatcher, PreparedCall, Refusal, SnapshotLayer, compose
from pedro.dispatch.layers import Journalled, Mask, PolicyGate, run_tool, size_limit, validate
from pedro.dispatch.results import Results, reported
from pedro.dispatch.timeouts import MAX_CONSECUTIVE_TIMEOUTS, TimeoutLimit
from pedro.effects import Effects
from pedro.gate import Gate
from pedro.messages import ToolCall, ToolResult
from pedro.safety.guard import SnapshotGuard
from pedro.safety.journal import JOURNAL_NAME, Journal
from pedro.safety.policy import Policy
from pedro.safety.secrets import Redactor
from pedro.safety.snapshots import list_snapshots
from pedro.tools import ToolRegistry
from pedro.tools.base import NO_GRANTS, ToolContext, ToolDeniedError, ToolFailure, ToolTimeoutError

SECRET = "hunter2-but-longer-than-eight"


class Recorder:
    """The layer below the one under test: it records what reached it and answers `answer`."""

    def __init__(self, answer: str = "ran") -> None:
        self.answer = answer
        self.seen: list[PreparedCall] = []

    def __call__(self, call: PreparedCall) -> str:
        self.seen.append(call)
        return self.answer


def prepared(ctx: ToolContext, name: str, arguments: dict[str, Any], **known: Any) -> PreparedCall:
    return PreparedCall(ToolCall(name, arguments, id="c1"), ctx, **known)


def checked(ctx: ToolContext, name: str, arguments: dict[str, Any]) -> PreparedCall:
    """The call as the layers above the gate leave it: its tool found, its arguments validated."""
    found = Recorder()
    tool = ToolRegistry.default([name]).get(name)
    validate(prepared(ctx, name, arguments, tool=tool), found)
    return found.seen[0]


def test_mask_finds_the_tool_and_refuses_unknown_or_masked_names(ctx: ToolContext) -> None:
    mask, below = Mask(ToolRegistry.default(["file", "bash"])), Recorder()
    assert mask(prepared(ctx, "file", {"path": "README.md"}), below) == "ran"
    assert below.seen[0].found().name == "file"
    with pytest.raises(Refusal) as unknown:
        mask(prepared(ctx, "edit_file", {}), below)
    assert unknown.value.kind == "unknown_tool" and "file, bash" in str(unknown.value)
    ctx.calling = ToolCallingConfig(deny_tools=("bash",))
    with pytest.raises(Refusal) as masked:
        mask(prepared(ctx, "bash", {"command": "ls"}), below)
    assert (masked.value.kind, masked.value.code) == ("denied", "TOOL_NOT_ALLOWED")
    assert mask.allowed(ctx.calling) == ("file",) and len(below.seen) == 1


def test_size_limit_refuses_arguments_over_the_limit_before_any_layer_below(ctx: ToolContext) -> None:
    ctx.calling = ToolCallingConfig(max_tool_args_bytes=1024)
    below = Recorder()
    assert size_limit(prepared(ctx, "file", {"path": "a.py", "content": "x" * 900}), below) == "ran"
    with pytest.raises(Refusal) as refused:
        size_limit(prepared(ctx, "file", {"path": "a.py", "content": "x" * 2000}), below)
    assert (refused.value.kind, refused.value.code) == ("too_large", "ARGUMENTS_TOO_LARGE")
    assert len(below.seen) == 1


def test_validate_passes_on_the_checked_arguments_and_their_declared_effects(ctx: ToolContext) -> None:
    call = checked(ctx, "file", {"action": "write", "path": "a.py", "content": "a = 1\n"})
    assert call.args is not None and call.effects.changed_paths == ("a.py",)
    tool = ToolRegistry.default(["file"]).get("file")
    with pytest.raises(Refusal) as invalid:
        validate(prepared(ctx, "file", {"action": "chmod"}, tool=tool), Recorder())
    assert invalid.value.kind == "invalid_args" and "It takes: action (" in str(invalid.value)


def test_policy_gate_refuses_what_the_policy_refuses_and_nothing_runs(repo: Path) -> None:
    ctx = ToolContext(root=repo)
    gate, below = PolicyGate(Gate(Policy(mode="read-only", approval="never"), sandboxed=True)), Recorder()
    with pytest.raises(ToolDeniedError, match="read-only mode"):
        gate(checked(ctx, "file", {"action": "write", "path": "a.py", "content": "x\n"}), below)
    assert not below.seen and not (repo / "a.py").exists()
    assert gate(checked(ctx, "file", {"action": "read", "path": "README.md"}), below) == "ran"


def test_what_the_gate_grants_goes_with_the_call_and_never_stays_on_the_shared_context(
    repo: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "docs"
    outside.mkdir()
    (outside / "spec.txt").write_text("the outside spec\n")
    ctx = ToolContext(root=repo)
    call = checked(ctx, "file", {"action": "read", "path": str(outside / "spec.txt")})
    with pytest.raises(ToolDeniedError):
        run_tool(call)  # without the gate's grant, the path outside the repository is refused
    gate = PolicyGate(Gate(Policy(approval="never", read_roots=(str(outside),)), sandboxed=True))
    assert "the outside spec" in gate(call, run_tool)
    assert ctx.grants == NO_GRANTS and call.ctx.grants == NO_GRANTS


def test_journal_records_a_change_around_its_tool_and_whether_it_changed(repo: Path) -> None:
    ctx = ToolContext(root=repo)
    journal = Journal(repo / ".pedro" / "jobs" / "j1" / JOURNAL_NAME)
    journal.open_round(1)
    journalled = Journalled(journal)
    journalled(checked(ctx, "file", {"action": "write", "path": "a.py", "content": "a = 1\n"}), run_tool)
    journalled(checked(ctx, "file", {"action": "read", "path": "a.py"}), run_tool)
    with pytest.raises(ToolFailure):
        journalled(checked(ctx, "code_edit", {"path": "a.py", "old": "nothing like this", "new": "x"}), run_tool)
    records = [json.loads(line) for line in journal.path.read_text().splitlines()]
    assert [(r["op"], r.get("path"), r.get("changed")) for r in records] == [
        ("round", None, None),
        ("begin", "a.py", None),
        ("done", "a.py", True),
        ("begin", "a.py", None),
        ("done", "a.py", False),
    ]


def timed_out(call: PreparedCall) -> str:
    raise ToolTimeoutError(f"{call.call.arguments['command']} timed out")


def test_timeout_limit_halts_the_run_at_the_limit_when_nobody_can_answer(ctx: ToolContext) -> None:
    commands = Dispatcher(ToolRegistry.default(["bash", "file"]), ctx)
    limit = TimeoutLimit(commands.effects, can_ask=False)
    sleep = prepared(ctx, "bash", {"command": "sleep 30"})
    for _ in range(MAX_CONSECUTIVE_TIMEOUTS - 1):
        with pytest.raises(ToolTimeoutError):
            limit(sleep, timed_out)

    def refused(_call: PreparedCall) -> str:
        raise Refusal("invalid_args", "no")

    with pytest.raises(Refusal):
        limit(sleep, refused)  # a call that never ran neither adds nor resets
    assert limit(prepared(ctx, "file", {"path": "README.md"}), Recorder()) == "ran"  # runs no command
    assert limit.in_a_row == MAX_CONSECUTIVE_TIMEOUTS - 1
    with pytest.raises(ToolFailure, match="The run is stopped") as third:
        limit(sleep, timed_out)
    assert third.value.kind == "timeout" and limit.halted == "3 bash/test commands in a row timed out"
    with pytest.raises(Refusal) as after:
        limit(prepared(ctx, "bash", {"command": "echo hi"}), Recorder())
    assert after.value.kind == "denied"


def test_timeout_limit_goes_on_when_the_person_says_so_and_a_finished_command_resets(repo: Path) -> None:
    ctx = ToolContext(root=repo, approve=lambda _question: True)
    limit = TimeoutLimit(Dispatcher(ToolRegistry.default(["bash"]), ctx).effects, can_ask=True)
    sleep = prepared(ctx, "bash", {"command": "sleep 30"})
    for _ in range(MAX_CONSECUTIVE_TIMEOUTS):
        with pytest.raises(ToolTimeoutError):
            limit(sleep, timed_out)
    assert limit.halted is None and limit.in_a_row == 0
    with pytest.raises(ToolTimeoutError):
        limit(sleep, timed_out)
    limit(prepared(ctx, "bash", {"command": "true"}), Recorder())
    assert limit.in_a_row == 0


def test_results_redacts_cuts_and_turns_every_failure_into_a_result(ctx: ToolContext) -> None:
    ctx.calling = ToolCallingConfig(max_tool_output_bytes=2048)
    results, call = Results(Redactor([SECRET])), prepared(ctx, "bash", {"command": "env"})
    ok = results(call, Recorder(f"TOKEN={SECRET}"))
    assert ok.ok and SECRET not in ok.output and ok.call_id == "c1"
    long = results(call, Recorder("x" * 10_000))
    assert long.truncated and len(long.output.encode()) <= 2048

    def crash(_call: PreparedCall) -> str:
        raise RuntimeError(f"boom {SECRET}")

    crashed = results(call, crash)
    assert (crashed.ok, crashed.error_kind) == (False, "failed") and "failed unexpectedly" in crashed.output
    assert SECRET not in crashed.output
    ctx.calling = ToolCallingConfig(max_tool_output_bytes=2048, tool_output_overflow="error")
    over = results(call, Recorder("x" * 10_000))
    assert (over.ok, over.error_code) == (False, "TOOL_OUTPUT_TOO_LARGE")


def events() -> tuple[list[tuple[str, dict[str, Any]]], Callable[..., None]]:
    seen: list[tuple[str, dict[str, Any]]] = []

    def emit(type_: str, **data: Any) -> None:
        seen.append((type_, data))

    return seen, emit


def answered(call: PreparedCall) -> ToolResult:
    return ToolResult(name=call.call.name, ok=True, output="done", call_id=call.call.id)


def test_reported_tells_a_reported_run_as_two_events_and_a_plain_run_as_none(ctx: ToolContext) -> None:
    seen, emit = events()
    reported(prepared(ctx, "file", {"path": "README.md"}), answered)
    assert seen == []
    reported(prepared(ctx, "file", {"path": "README.md"}, emit=emit), answered)
    assert [(kind, data["id"]) for kind, data in seen] == [("tool_call.started", "c1"), ("tool_call.finished", "c1")]


def test_snapshot_layer_closes_a_round_after_its_last_reported_call(repo: Path) -> None:
    guard = SnapshotGuard(repo, "job-1")
    guard.start()
    layer, (seen, emit), ctx = SnapshotLayer(guard), events(), ToolContext(root=repo)
    writes = [Effects(writes=("a.py",)), Effects(writes=("b.py",))]
    layer.before(emit, 1, writes)
    (repo / "a.py").write_text("pedro's first edit\n")
    layer(prepared(ctx, "file", {}, emit=emit), answered)
    assert seen == []  # the round has one more call
    (repo / "b.py").write_text("pedro's second edit\n")
    layer(prepared(ctx, "file", {}), answered)
    assert seen == []  # a plain run is not reported, so the guard does not hear of it
    layer(prepared(ctx, "file", {}, emit=emit), answered)
    assert [(kind, data["label"]) for kind, data in seen] == [("snapshot.taken", "after round 1")]
    assert [s.label for s in list_snapshots(repo, "job-1")] == ["job start", "after round 1"]


def test_snapshot_layer_reports_a_snapshot_that_fails_as_a_notice(repo: Path, tmp_path: Path) -> None:
    not_a_repository = tmp_path / "plain"
    not_a_repository.mkdir()
    layer, (seen, emit) = SnapshotLayer(SnapshotGuard(not_a_repository, "job-2")), events()
    layer.open_step(emit, "repair", [Effects(writes=("a.py",))])
    layer.finish(emit)
    assert [kind for kind, _ in seen] == ["notice", "notice"]
    assert "could not snapshot the working tree" in seen[0][1]["message"]
    unguarded, (quiet, emit) = SnapshotLayer(None), events()
    unguarded.before(emit, 1, [Effects(writes=("a.py",))])
    assert unguarded(prepared(ToolContext(root=repo), "file", {}, emit=emit), answered).ok and quiet == []


def test_compose_puts_the_first_layer_outermost(ctx: ToolContext) -> None:
    order: list[str] = []

    def named(name: str) -> Callable[[PreparedCall, Callable[[PreparedCall], str]], str]:
        def layer(call: PreparedCall, inner: Callable[[PreparedCall], str]) -> str:
            order.append(f"{name} in")
            answer = inner(call)
            order.append(f"{name} out")
            return answer

        return layer

    assert compose([named("outer"), named("inner")], Recorder())(prepared(ctx, "file", {})) == "ran"
    assert order == ["outer in", "inner in", "inner out", "outer out"]


def test_the_dispatcher_masks_before_it_measures_and_validates(ctx: ToolContext) -> None:
    ctx.calling = ToolCallingConfig(deny_tools=("bash",), max_tool_args_bytes=1024)
    dispatcher = Dispatcher(ToolRegistry.default(["file", "bash"]), ctx)
    masked = dispatcher.run(ToolCall("bash", {"command": "x" * 5000, "bogus": 1}))
    assert masked.error_code == "TOOL_NOT_ALLOWED"
    too_large = dispatcher.run(ToolCall("file", {"action": "chmod", "path": "x" * 5000}))
    assert too_large.error_code == "ARGUMENTS_TOO_LARGE"

"""What the terminal shows for events: a command that failed is shown as failed, never with a tick."""

from __future__ import annotations

import io
from typing import Any

import pytest

from pedro.cli.render import PlainRenderer, call_effects, command_failed
from pedro.messages import Event


def finished(name: str, output: str, ok: bool = True) -> Event:
    data: dict[str, Any] = {"name": name, "ok": ok, "output": output, "duration_ms": 5, "error_kind": None}
    return Event(type="tool_call.finished", job_id="j", seq=1, data=data)


def call(renderer: PlainRenderer, name: str, arguments: dict[str, Any], output: str) -> None:
    """A call as the dispatcher reports it: started with its arguments, then finished with its output."""
    started = {"name": name, "arguments": arguments, "id": "c1"}
    renderer.handle(Event(type="tool_call.started", job_id="j", seq=1, data=started))
    renderer.handle(finished(name, output))


def results(out: io.StringIO) -> list[str]:
    return [line for line in out.getvalue().splitlines() if line.startswith("←")]


def test_a_command_that_exits_non_zero_is_shown_as_failed() -> None:
    out = io.StringIO()
    renderer = PlainRenderer(out)
    call(renderer, "bash", {"command": "false"}, "exit code 1\nboom")
    call(renderer, "bash", {"command": "true"}, "exit code 0\nfine")
    call(renderer, "test", {}, "pytest FAILED: passed 1, failed 1, skipped 0 (exit code 1)\n- t")
    call(renderer, "test", {}, "pytest passed: 3 passed")
    call(renderer, "file", {"action": "read", "path": "log.txt"}, "exit code 1")
    assert results(out) == [
        "← bash: exit code 1 in 5 ms",
        "← bash: ok in 5 ms",
        "← test: tests failed in 5 ms",
        "← test: ok in 5 ms",
        "← file: ok in 5 ms",
    ]


def test_only_calls_that_run_commands_have_commands_to_fail() -> None:
    assert command_failed(finished("file", "exit code 1").data, ran_commands=False) == ""
    failed = finished("test", "go test: exit code 1; no test report could be read").data
    assert command_failed(failed, ran_commands=True) == "tests failed"


def test_the_tool_declares_that_it_runs_commands_not_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new tool that runs commands (eighth_tool, registered by its one registry line) shows a failed command as
    failed; the renderer asks its Effects, never its name."""
    from pedro.tools import TOOL_CLASSES

    monkeypatch.setitem(TOOL_CLASSES, "shell", "eighth_tool:ShellTool")
    assert (
        call_effects("shell", {"line": "make"}).runs_commands and call_effects("bash", {"command": "ls"}).runs_commands
    )
    assert not call_effects("file", {"action": "read", "path": "a"}).runs_commands
    assert not call_effects("srv__run", {}).runs_commands
    out = io.StringIO()
    call(PlainRenderer(out), "shell", {"line": "make"}, "exit code 2\nmake: *** [all] Error 2")
    assert results(out) == ["← shell: exit code 2 in 5 ms"]


def test_a_long_edit_preview_keeps_every_added_line() -> None:
    from pedro.cli.render import edit_preview

    removed = "\n".join(f"-old {n}" for n in range(40))
    output = f"edited a.py: replaced\n--- a/a.py\n+++ b/a.py\n@@ -1,40 +1,2 @@\n{removed}\n+new one\n+new two"
    shown = edit_preview(output)
    assert shown == ["@@ -1,40 +1,2 @@", "- … 40 lines removed", "+new one", "+new two"]
    short = "edited a.py: replaced\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-a\n+b"
    assert edit_preview(short) == ["@@ -1 +1 @@", "-a", "+b"]


def test_the_final_summary_is_not_printed_twice() -> None:
    out = io.StringIO()
    renderer = PlainRenderer(out)
    renderer.handle(Event(type="round.started", job_id="j", seq=1, data={"round": 1}))
    renderer.handle(Event(type="model.delta", job_id="j", seq=2, data={"text": "TASK COMPLETE\nadd() now adds."}))
    finished = {"exit_status": "completed", "exit_code": 0, "summary": "add() now adds.", "totals": {}}
    renderer.handle(Event(type="job.finished", job_id="j", seq=3, data=finished))
    assert out.getvalue().count("add() now adds.") == 1
    other = io.StringIO()
    renderer = PlainRenderer(other)
    renderer.handle(Event(type="job.finished", job_id="j", seq=1, data=finished))
    assert other.getvalue().count("add() now adds.") == 1


def test_a_stopped_job_names_the_command_that_resumes_it() -> None:
    for status, expected in (
        ("interrupted", "`pedro jobs resume j7` continues it"),
        ("limit_reached", "`pedro jobs resume j7 --max-rounds N` continues it with more rounds"),
    ):
        out = io.StringIO()
        data = {"exit_status": status, "exit_code": 4, "summary": "stopped", "totals": {}}
        PlainRenderer(out).handle(Event(type="job.finished", job_id="j7", seq=1, data=data))
        assert expected in out.getvalue()
    out = io.StringIO()
    done = {"exit_status": "completed", "exit_code": 0, "summary": "done", "totals": {}}
    PlainRenderer(out).handle(Event(type="job.finished", job_id="j7", seq=1, data=done))
    assert "jobs resume" not in out.getvalue()


def test_shell_completion_is_typers_own() -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "_PEDRO_COMPLETE": "complete_bash", "COMP_WORDS": "pedro jo", "COMP_CWORD": "1"}
    done = subprocess.run([sys.executable, "-m", "pedro"], env=env, capture_output=True, text=True, check=False)
    assert done.stdout.split() == ["jobs"], done.stderr


def test_a_guardrail_code_and_ignored_calls_are_shown() -> None:
    out = io.StringIO()
    renderer = PlainRenderer(out)
    event = finished("file", "ARGUMENTS_TOO_LARGE: …", ok=False)
    event.data.update(error_kind="invalid_arguments", error_code="ARGUMENTS_TOO_LARGE")
    renderer.handle(event)
    ignored = {"limit": 1, "ignored_tool_calls": [{"id": None, "name": "bash", "arguments": {}}]}
    renderer.handle(Event(type="tool_calls.ignored", job_id="j", seq=2, data=ignored))
    text = out.getvalue()
    assert "← file: error (ARGUMENTS_TOO_LARGE)" in text
    assert "1 call past the limit of 1 per reply not run: bash" in text


def test_a_repaired_jobs_summary_is_not_repeated_after_the_repair_line() -> None:
    out = io.StringIO()
    renderer = PlainRenderer(out)
    said = "fixed 1 failing test in 1 candidate; `pytest -q` passes"
    renderer.handle(Event(type="repair.finished", job_id="j", seq=1, data={"summary": said}))
    finished = {"exit_status": "completed", "exit_code": 0, "summary": said, "totals": {}}
    renderer.handle(Event(type="job.finished", job_id="j", seq=2, data=finished))
    assert out.getvalue().count(said) == 1


def test_an_edit_is_previewed_because_it_wrote_a_file_not_because_of_its_name() -> None:
    diff = "edited a.py: replaced\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-old\n+new"
    out = io.StringIO()
    renderer = PlainRenderer(out)
    call(renderer, "code_edit", {"path": "a.py", "old": "old", "new": "new"}, diff)
    call(renderer, "file", {"action": "read", "path": "patch.txt"}, diff)
    assert out.getvalue().splitlines()[1:5] == ["← code_edit: ok in 5 ms", "  @@ -1 +1 @@", "  -old", "  +new"]
    assert out.getvalue().splitlines()[5:] == ["→ file read patch.txt", "← file: ok in 5 ms"]


def test_off_a_terminal_a_silent_round_still_says_what_pedro_is_doing() -> None:
    import time

    out = io.StringIO()
    renderer = PlainRenderer(out, heartbeat_s=0.3)
    renderer.handle(Event(type="round.started", job_id="j", seq=1, data={"round": 2}))
    time.sleep(1.2)  # the model says nothing for a while
    renderer.handle(Event(type="job.finished", job_id="j", seq=2, data={"exit_status": "completed", "exit_code": 0}))
    time.sleep(0.8)  # after the end, nothing more
    finished = len(out.getvalue().splitlines())
    renderer.handle(Event(type="round.started", job_id="k", seq=1, data={"round": 1}))  # a session's next turn
    time.sleep(1.0)
    renderer.close()
    lines = out.getvalue().splitlines()
    beats = [line for line in lines if line.startswith("… still waiting for the model (round 2)")]
    assert beats, lines
    assert lines.index(beats[-1]) < next(i for i, line in enumerate(lines) if line.startswith("==="))
    assert not [line for line in lines[:finished] if line.startswith("… still") and "round 2" not in line], lines
    assert [line for line in lines[finished:] if line.startswith("… still waiting for the model (round 1)")], lines

"""What the terminal shows for events: a command that failed is shown as failed, never with a tick."""

from __future__ import annotations

import io
from typing import Any

from pedro.cli.render import PlainRenderer, command_failed
from pedro.messages import Event


def finished(name: str, output: str, ok: bool = True) -> Event:
    data: dict[str, Any] = {"name": name, "ok": ok, "output": output, "duration_ms": 5, "error_kind": None}
    return Event(type="tool_call.finished", job_id="j", seq=1, data=data)


def test_a_command_that_exits_non_zero_is_shown_as_failed() -> None:
    out = io.StringIO()
    renderer = PlainRenderer(out)
    renderer.handle(finished("bash", "exit code 1\nboom"))
    renderer.handle(finished("bash", "exit code 0\nfine"))
    renderer.handle(finished("test", "pytest FAILED: passed 1, failed 1, skipped 0 (exit code 1)\n- t"))
    renderer.handle(finished("test", "pytest passed: 3 passed"))
    lines = out.getvalue().splitlines()
    assert lines == [
        "← bash: exit code 1 in 5 ms",
        "← bash: ok in 5 ms",
        "← test: tests failed in 5 ms",
        "← test: ok in 5 ms",
    ]


def test_only_bash_and_test_have_commands_to_fail() -> None:
    assert command_failed(finished("file", "exit code 1").data) == ""
    assert command_failed(finished("test", "go test: exit code 1; no test report could be read").data) == (
        "tests failed"
    )

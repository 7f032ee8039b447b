"""pedro's own log keeps the tracebacks that its catch-alls turn into data; users still never see one."""

from __future__ import annotations

import logging
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from pedro.debuglog import job_log, record_crash
from pedro.dispatch import Dispatcher
from pedro.messages import ToolCall
from pedro.toolcalls import extract
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolArgs, ToolContext


class BrokenArgs(ToolArgs):
    pass


class BrokenTool:
    """A tool with a bug in it: it raises something no tool should."""

    name: ClassVar[str] = "broken"
    Args: ClassVar[type[ToolArgs]] = BrokenArgs

    def run(self, args: ToolArgs, ctx: ToolContext) -> str:
        raise ZeroDivisionError("a bug deep in a tool")


def test_a_tool_bug_becomes_data_for_the_model_and_a_traceback_in_the_job_log(tmp_path: Path, repo: Path) -> None:
    log = tmp_path / "debug.log"
    dispatcher = Dispatcher(ToolRegistry([BrokenTool()]), ToolContext(root=repo))
    with job_log(log):
        result = dispatcher.run(ToolCall("broken", {}))
    assert not result.ok and "failed unexpectedly" in result.output and "Traceback" not in result.output
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and "ZeroDivisionError: a bug deep in a tool" in text
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


class ExplodingTools(list[dict[str, Any]]):
    """A tool list that cannot be read: stands in for any bug inside the extractor."""

    def __iter__(self) -> Iterator[dict[str, Any]]:
        raise RuntimeError("the extractor tripped")


def test_an_extractor_bug_is_logged_not_mistaken_for_a_reply_without_calls(tmp_path: Path) -> None:
    log = tmp_path / "debug.log"
    with job_log(log):
        extraction = extract('```bash\n{"command": "ls"}\n```', ExplodingTools())
    assert extraction.calls == ()
    assert "extract() failed" in log.read_text() and "RuntimeError: the extractor tripped" in log.read_text()


def test_verbose_shows_the_log_on_stderr_and_nothing_is_left_attached(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with job_log(tmp_path / "debug.log", verbose=True):
        logging.getLogger("pedro").warning("visible with --verbose")
    logging.getLogger("pedro").warning("after the job: nowhere")
    err = capsys.readouterr().err
    assert "visible with --verbose" in err and "after the job" not in err
    assert logging.getLogger("pedro").handlers == []


def test_an_error_that_reaches_the_top_leaves_its_traceback_in_the_users_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    try:
        raise ValueError("escaped everything")
    except ValueError as exc:
        path = record_crash(exc)
    assert path is not None and path.is_relative_to(tmp_path / "state")
    assert "ValueError: escaped everything" in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

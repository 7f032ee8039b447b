"""A reply the backend cut (finish_reason repetition or time_limit) is a failed reply in the loop: no call in it
runs, it claims nothing, the model reads one line about it, and it counts toward the idle-reply limit."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_util import fenced
from repo_util import git
from test_agent import run

from pedro.messages import Completion
from pedro.prompts import load_prompt

EDIT = fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"})


@pytest.fixture
def calc(repo: Path) -> Path:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(repo, "add", "calc.py")
    git(repo, "commit", "-qm", "calc")
    return repo


@pytest.mark.parametrize(
    ("reason", "template"), [("repetition", "reply_repeated.md"), ("time_limit", "reply_too_long.md")]
)
def test_a_cut_reply_runs_nothing_claims_nothing_and_gets_one_line(calc: Path, reason: str, template: str) -> None:
    cut = Completion(text=f"{EDIT}\nTASK COMPLETE\nFixed it.", finish_reason=reason)
    result, backend = run(calc, [cut, EDIT, "TASK COMPLETE\nFixed the operator."])
    assert (result.exit_status, result.rounds, result.tool_calls) == ("completed", 3, 1)
    second_request = backend.requests[1][0]
    assert second_request[-2].role == "assistant" and second_request[-2].content == cut.text
    assert second_request[-1].content == load_prompt(f"feedback/{template}").strip()
    assert "\n" not in second_request[-1].content, "one line of feedback"


def test_cut_replies_count_toward_the_idle_limit(calc: Path) -> None:
    looping = Completion(text="I will look at the file. " * 5, finish_reason="repetition")
    result, backend = run(calc, [looping, "Let me think.", looping])
    assert (result.exit_status, result.reason) == ("limit_reached", "no_progress")
    assert len(backend.requests) == 3
    assert "the last was cut because the model repeated itself" in result.summary
    assert (calc / "calc.py").read_text() == "def add(a, b):\n    return a - b\n"

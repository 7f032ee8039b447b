"""Through the real `pedro` process: a model that repeats itself without end has each reply cut, and the job still
ends (the idle-reply limit), with the notice shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli_util import build
from stub_server import Looping

SENTENCE = "I will look at the file to see what is wrong with it. "


def test_an_endlessly_repeating_model_is_cut_each_reply_and_the_job_ends(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server([Looping(SENTENCE)] * 3)
    proc = build(server, repo, cli_env, "--json", description="Add a function sub(a, b) to calc.py")
    assert proc.returncode == 4, proc.stderr
    assert len(server.requests) == 3
    # Each stream would have gone on for 20,000 chunks; pedro hung up a few copies in.
    assert all(written < 2000 for written in server.looped), server.looped
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    replies = [event for event in events if event["type"] == "model.completed"]
    assert [event["finish_reason"] for event in replies] == ["repetition"] * 3
    assert all(event["text"] == SENTENCE for event in replies), "one copy of the loop is kept"
    notices = [event["message"] for event in events if event["type"] == "notice"]
    assert sum("the model repeated itself" in notice for notice in notices) == 3, notices
    finished = events[-1]
    assert (finished["type"], finished["reason"]) == ("job.finished", "no_progress")
    assert "the last was cut because the model repeated itself" in finished["summary"]
    # The model was told in one line, and no completion was claimed for it.
    told = server.requests[1]["messages"][-1]["content"]
    assert told.startswith("Your last reply repeated the same text over and over") and "\n" not in told


def test_the_notice_is_shown_to_a_person(repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    server = stub_server([Looping(SENTENCE)] * 3)
    proc = build(server, repo, cli_env, description="Add a function sub(a, b) to calc.py")
    assert proc.returncode == 4, proc.stderr
    shown = proc.stdout + proc.stderr
    assert "the model repeated itself" in shown and "pedro cut the reply there" in shown, shown
    assert "the last was cut because the model repeated itself" in shown

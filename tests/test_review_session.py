"""pedro review as a conversation, driven in tmux as a person would: findings, a follow-up, /fix, /diff, /undo."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_util import fenced
from repo_util import git, review_change

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux drives the terminal session")

REVIEW = (
    "TASK COMPLETE\n- [major] calc.py:2 — add() subtracts; return a + b\n- [nit] calc.py:5 — mul() has no docstring"
)
FOLLOW_UP = "TASK COMPLETE\nadd(2, 3) gives -1 because it returns a - b."
FIX = fenced("code_edit", {"action": "replace", "path": "calc.py", "old": "return a - b", "new": "return a + b"})


def at_prompt(screen: str) -> bool:
    """The session waits at its prompt (tmux drops the space after it)."""
    lines = [line for line in screen.splitlines() if line.strip()]
    return bool(lines) and lines[-1].rstrip() == "pedro>"


class Terminal:
    """One tmux session on a private server: keys in, the screen out."""

    def __init__(self, socket: str, env: dict[str, str]) -> None:
        self.socket, self.env = socket, env

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], env=self.env, capture_output=True, text=True, check=True, timeout=30
        )
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", "s")

    def send(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "s", *keys)

    def wait_for(self, wanted: str | Callable[[str], bool], limit_s: float = 60.0) -> str:
        """The screen once it shows `wanted` (polling; the limit only keeps a broken run from hanging)."""
        check = wanted if callable(wanted) else (lambda screen: wanted in screen)
        deadline = time.monotonic() + limit_s
        while True:
            screen = self.screen()
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"the terminal never showed {wanted!r}; it shows:\n{screen}")
            time.sleep(0.2)


@pytest.fixture
def terminal(cli_env: dict[str, str], tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    socket = f"pedro-test-{tmp_path.name}"
    env = {key: value for key, value in cli_env.items() if key not in ("CI", "TMUX")}
    env["TERM"] = "xterm-256color"
    started: list[Terminal] = []

    def start(command: list[str], cwd: Path) -> Terminal:
        term = Terminal(socket, env)
        shell = " ".join(subprocess.list2cmdline([part]) for part in command)
        term.tmux(
            "new-session",
            "-d",
            "-s",
            "s",
            "-x",
            "120",
            "-y",
            "50",
            "-c",
            str(cwd),
            f"{shell}; echo EXITED $?; sleep 600",
        )
        started.append(term)
        return term

    yield start
    for term in started:
        subprocess.run(["tmux", "-L", term.socket, "kill-server"], env=env, capture_output=True, check=False)


def _review(server: Any) -> list[str]:
    return [sys.executable, "-m", "pedro", "review", "--base", "main", "--backend", "openai", "--base-url",
            f"{server.url}/v1", "--model", "m"]  # fmt: skip


def test_a_review_session_answers_a_follow_up_fixes_a_finding_and_shows_the_diff(
    branch_repo: Path, stub_server: Any, terminal: Callable[..., Terminal], tmp_path: Path
) -> None:
    server = stub_server([REVIEW, FOLLOW_UP, FIX, "TASK COMPLETE\nadd() now adds."])
    term = terminal(_review(server), branch_repo)
    screen = term.wait_for(at_prompt)
    assert "2 findings" in screen and "calc.py:2" in screen and "calc.py:5" in screen

    term.send("why is finding 1 a problem?", "Enter")
    screen = term.wait_for("gives -1 because")
    # A follow-up does not repeat the setup notes the review already showed.
    follow_up = screen.split("why is finding 1 a problem?", 1)[1]
    assert "sandbox for bash" not in follow_up and "snapshot of your work" not in follow_up
    assert "sandbox for bash" in screen
    # The follow-up continued the review's conversation: the model saw its own findings and the new question.
    asked = server.requests[1]["messages"]
    assert any("[major] calc.py:2" in str(message.get("content")) for message in asked)
    assert asked[-1]["content"] == "why is finding 1 a problem?"

    term.send("/fix 1", "Enter")
    term.wait_for("finding 1: job")
    fix_task = server.requests[2]["messages"][-1]["content"]
    assert "[major] calc.py:2" in fix_task and "add() subtracts" in fix_task
    assert "return a + b" in (branch_repo / "calc.py").read_text()
    assert git(branch_repo, "branch", "--show-current").strip().startswith("pedro/")

    term.send("/diff", "Enter")
    term.wait_for(lambda screen: "+    return a + b" in screen and "-    return a - b" in screen)

    saved = tmp_path / "review.md"
    term.send(f"/save {saved}", "Enter")
    term.wait_for("[y/N]")
    term.send("y", "Enter")
    term.wait_for("saved the session")
    text = saved.read_text()
    assert "1. **major** `calc.py:2`" in text and "why is finding 1 a problem?" in text and "gives -1" in text

    term.send("/undo", "Enter")
    term.wait_for("restored snapshot 1")
    assert "return a - b" in (branch_repo / "calc.py").read_text()

    term.send("C-d")
    screen = term.wait_for("EXITED")
    assert "EXITED 0" in screen and "Traceback" not in screen


def test_ctrl_c_cancels_the_turn_and_the_session_goes_on(
    branch_repo: Path, stub_server: Any, terminal: Callable[..., Terminal]
) -> None:
    thinking, release = threading.Event(), threading.Event()

    def slow_second_request(number: int) -> None:
        if number == 2:
            thinking.set()
            release.wait(60)

    server = stub_server([REVIEW, "TASK COMPLETE\nnever shown", FOLLOW_UP], on_request=slow_second_request)
    term = terminal(_review(server), branch_repo)
    term.wait_for(at_prompt)
    term.send("explain finding 2", "Enter")
    assert thinking.wait(60)
    term.send("C-c")
    screen = term.wait_for("turn cancelled")
    assert "jobs resume" not in screen  # the session goes on: nothing to resume from the shell
    release.set()
    term.send("and finding 1?", "Enter")
    screen = term.wait_for("gives -1 because")
    assert "never shown" not in screen
    term.send("/exit", "Enter")
    assert "EXITED 0" in term.wait_for("EXITED")


def test_chat_continues_one_builder_job_across_messages(
    branch_repo: Path, stub_server: Any, terminal: Callable[..., Terminal]
) -> None:
    server = stub_server([FIX, "TASK COMPLETE\nadd() now adds.", "TASK COMPLETE\nIt returns a + b now."])
    chat = [sys.executable, "-m", "pedro", "chat", "Fix add()", "--backend", "openai", "--base-url",
            f"{server.url}/v1", "--model", "m"]  # fmt: skip
    term = terminal(chat, branch_repo)
    term.wait_for(at_prompt)
    assert "return a + b" in (branch_repo / "calc.py").read_text()
    term.send("what does add return now?", "Enter")
    term.wait_for("It returns a + b now.")
    follow_up = server.requests[2]["messages"]
    assert follow_up[-1]["content"] == "what does add return now?"
    assert any("Fix add()" in str(message.get("content")) for message in follow_up)
    term.send("/diff", "Enter")
    term.wait_for("+    return a + b")
    term.send("/fix 1", "Enter")
    term.wait_for("unknown command /fix")
    term.send("C-d")
    assert "EXITED 0" in term.wait_for("EXITED")


def test_a_review_session_shows_each_answer_once_without_the_jobs_machinery(
    branch_repo: Path, stub_server: Any, terminal: Callable[..., Terminal], tmp_path: Path
) -> None:
    server = stub_server([REVIEW, "add(2, 3) gives -1 because it returns a - b.\nTASK COMPLETE"])
    term = terminal(_review(server), branch_repo)
    screen = term.wait_for(at_prompt)
    # The findings once, numbered as /fix takes them; no job header, round line, marker or closing line.
    assert screen.count("add() subtracts") == 1 and "1 major calc.py:2" in screen
    for noise in ("pedro reviewer · job", "round 1", "TASK COMPLETE", "completed (exit 0)"):
        assert noise not in screen
    term.send("why is finding 1 a problem?", "Enter")
    screen = term.wait_for(lambda shown: "gives -1 because" in shown and at_prompt(shown))
    answer = screen.split("why is finding 1 a problem?", 1)[1]
    for noise in ("pedro reviewer · job", "round 1", "TASK COMPLETE", "completed (exit 0)"):
        assert noise not in answer
    saved = tmp_path / "review.md"
    term.send(f"/save {saved}", "Enter")
    term.wait_for("[y/N]")  # tmp_path/review.md is outside the repository
    term.send("y", "Enter")
    term.wait_for("saved the session")
    text = saved.read_text()
    assert "**You:** reviewing" not in text and "*reviewing HEAD against main" in text  # pedro's note, not yours
    assert "**You:** why is finding 1 a problem?" in text and "TASK COMPLETE" not in text
    term.send("C-d")
    assert "EXITED 0" in term.wait_for("EXITED")


def test_fix_on_a_finding_a_failing_test_backs_starts_with_repair_on_that_test(
    tmp_path: Path, stub_server: Any, terminal: Callable[..., Terminal], cli_env: dict[str, str]
) -> None:
    repo = review_change(tmp_path)
    # The review's model adds nothing; its findings are the checks': 1 is the test the change broke.
    repaired = "```python\ndef add(a, b):\n    return a + b\n```"
    server = stub_server(["TASK COMPLETE\nNothing beyond what the checks found.", repaired])
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"  # pytest on PATH
    # One answer for the fix: repair keeps it unchecked (no rivals asked), so the stub's two replies suffice.
    settings = ["PEDRO_REPAIR__RIVALS=0", "PEDRO_REPAIR__MUTANTS=0"]  # and the answer, not a variant, fixes it
    term = terminal(["env", f"PATH={path}", *settings, *_review(server)], repo)
    screen = term.wait_for(at_prompt, limit_s=120)
    assert "3 findings" in screen

    term.send("/fix 1", "Enter")
    screen = term.wait_for("finding 1: job", limit_s=120)
    # The model was asked for one function by test-driven repair, on the failing test, not for a builder's turn.
    asked = server.requests[1]["messages"][-1]["content"]
    assert "A test fails:" in asked and "test_add" in asked and "This is calc.py, with the function add" in asked
    assert "tools" not in server.requests[1]
    assert "return a + b" in (repo / "calc.py").read_text()
    assert git(repo, "branch", "--show-current").strip().startswith("pedro/")
    assert len(server.requests) in (2, 3)  # the review and the fix; the model may write one more answer ahead

    term.send("C-d")
    screen = term.wait_for("EXITED")
    assert "EXITED 0" in screen and "Traceback" not in screen

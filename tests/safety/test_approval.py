"""The interactive half of the policy: the approval prompt, "always", network re-runs, timeouts and read roots."""

from __future__ import annotations

import io
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from pedro.cli.approval import TerminalApprover, render_question
from pedro.config import ToolsConfig
from pedro.dispatch import MAX_CONSECUTIVE_TIMEOUTS, Dispatcher
from pedro.gate import Gate
from pedro.messages import ToolCall, ToolResult
from pedro.safety.policy import Policy
from pedro.safety.sandbox import active_sandbox
from pedro.tools import ToolRegistry
from pedro.tools.base import ApprovalRequest, ToolContext


class Terminal:
    """A person at a fake terminal: answers read from a StringIO, everything pedro printed kept."""

    def __init__(self, answers: str) -> None:
        self.out = io.StringIO()
        self.approver = TerminalApprover(io.StringIO(answers), self.out)

    @property
    def shown(self) -> str:
        return self.out.getvalue()


def dispatcher(
    repo: Path, terminal: Terminal | None, *, approval: str = "ask", mode: str = "workspace-write", **policy: object
) -> Dispatcher:
    ctx = ToolContext(
        root=repo,
        config=ToolsConfig(bash_timeout=5),
        ask=terminal.approver if terminal is not None else None,
        approve=terminal.approver.approve if terminal is not None else (lambda _q: False),
    )
    sandboxed = active_sandbox().kind != "none"
    gate = Gate(Policy(mode=mode, approval=approval, **policy), sandboxed=sandboxed)  # type: ignore[arg-type]
    return Dispatcher(ToolRegistry.default(), ctx, gate=gate)


def bash(d: Dispatcher, command: str, **extra: object) -> ToolResult:
    return d.run(ToolCall("bash", {"command": command, **extra}))


# -- the prompt itself ------------------------------------------------------------------------------------------------


def test_prompt_names_the_command_and_the_risk_and_offers_always_when_it_may() -> None:
    terminal = Terminal("a\n")
    question = ApprovalRequest("action", "echo $(date)", "uses command substitution", rememberable=True)
    assert terminal.approver(question) == "always"
    assert "    echo $(date)" in terminal.shown
    assert "why it asks: uses command substitution" in terminal.shown
    assert "a = always" in terminal.shown and "[y/N/a]" in terminal.shown


def test_always_is_not_offered_for_destructive_actions_and_is_not_accepted() -> None:
    question = ApprovalRequest(
        "action", "rm -rf src", "deletes files recursively", never_always="actions of this kind are asked every time"
    )
    text = render_question(question)
    assert "a = always" not in text and "[y/N]" in text
    assert 'no "always": actions of this kind are asked every time' in text
    terminal = Terminal("a\n")
    assert terminal.approver(question) == "no"  # "a" is not a choice here; the end of input is a no
    assert "please answer [y/N]" in terminal.shown


@pytest.mark.parametrize(("typed", "answer"), [("y\n", "yes"), ("YES\n", "yes"), ("n\n", "no"), ("\n", "no")])
def test_answers(typed: str, answer: str) -> None:
    assert Terminal(typed).approver(ApprovalRequest("action", "x", "y", rememberable=True)) == answer


def test_unclear_answers_are_asked_again_then_refused() -> None:
    terminal = Terminal("maybe\nperhaps\nwhat\ny\n")
    assert terminal.approver(ApprovalRequest("action", "x", "y")) == "no"
    assert terminal.shown.count("please answer") == 3


# -- the gate asking through the prompt --------------------------------------------------------------------------------


def test_always_covers_the_same_command_for_the_rest_of_the_session(repo: Path) -> None:
    terminal = Terminal("a\n")  # one answer only: a second question would read the end of input and refuse
    d = dispatcher(repo, terminal)
    first = bash(d, "echo $(echo remembered)")
    second = bash(d, "echo $(echo remembered)")
    assert first.ok and second.ok and "remembered" in second.output
    assert terminal.shown.count("Allow it?") == 1
    other = bash(d, "echo $(echo other)")
    assert other.error_kind == "denied" and "declined" in other.output


def test_destructive_command_is_asked_every_time_and_always_cannot_cover_it(repo: Path) -> None:
    # In a folder below the top one, which the Landlock fallback lets commands change too (sandbox.landlock_rules).
    (repo / "app" / "src").mkdir(parents=True)
    (repo / "app" / "src" / "keep.txt").write_text("keep\n")
    terminal = Terminal("a\n\n")
    d = dispatcher(repo, terminal)
    refused = bash(d, "rm -rf app/src")
    assert refused.error_kind == "denied"
    assert "rm -rf app/src" in terminal.shown and 'no "always"' in terminal.shown
    assert (repo / "app" / "src" / "keep.txt").is_file()
    approved = dispatcher(repo, Terminal("y\n"))
    assert bash(approved, "rm -rf app/src").ok
    assert not (repo / "app" / "src").exists()


def test_never_mode_refuses_without_asking(repo: Path) -> None:
    terminal = Terminal("y\n")
    d = dispatcher(repo, terminal, approval="never")
    result = bash(d, "echo $(echo x)")
    assert result.error_kind == "denied" and "approval: never" in result.output
    assert terminal.shown == ""


# -- network: a failure for want of network is offered a re-run with the network on ------------------------------------


@pytest.fixture
def listener() -> Iterator[tuple[int, list[bytes]]]:
    """A TCP server on the host's 127.0.0.1: a sandboxed child without network cannot reach it."""
    server = socket.create_server(("127.0.0.1", 0))
    received: list[bytes] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                received.append(conn.recv(100))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], received
    # Wake the blocked accept() before closing: a thread still in accept() when the descriptor is closed and reused
    # by the next test's listener would take that test's connections.
    server.shutdown(socket.SHUT_RDWR)
    thread.join(timeout=5)
    server.close()


needs_bwrap = pytest.mark.skipif(active_sandbox().kind != "bubblewrap", reason="needs the bubblewrap sandbox")


def connect_script(repo: Path, port: int) -> str:
    """A script the classifier cannot see into: it fails only because the sandbox has no network."""
    (repo / "send.sh").write_text(f"echo hello > /dev/tcp/127.0.0.1/{port}\n")
    return "bash send.sh"


@needs_bwrap
def test_network_failure_is_approved_and_run_once_more_with_network(
    repo: Path, listener: tuple[int, list[bytes]]
) -> None:
    port, received = listener
    terminal = Terminal("y\n")
    result = bash(dispatcher(repo, terminal), connect_script(repo, port))
    assert result.ok, result.output
    assert "network disabled — approve?" in terminal.shown and "    bash send.sh" in terminal.shown
    assert "Run it once more with the network on?" in terminal.shown
    assert "approved network access" in result.output and "exit code 0" in result.output
    assert received == [b"hello\n"]


@needs_bwrap
def test_network_failure_in_never_mode_tells_the_model_not_to_retry(
    repo: Path, listener: tuple[int, list[bytes]]
) -> None:
    port, received = listener
    terminal = Terminal("y\n")
    result = bash(dispatcher(repo, terminal, approval="never"), connect_script(repo, port))
    assert "exit code 1" in result.output
    assert "no network" in result.output and "Do not retry" in result.output
    assert terminal.shown == "" and received == []


@needs_bwrap
def test_declined_network_is_not_retried(repo: Path, listener: tuple[int, list[bytes]]) -> None:
    port, received = listener
    terminal = Terminal("n\n")
    result = bash(dispatcher(repo, terminal), connect_script(repo, port))
    assert "exit code 1" in result.output and "declined network access" in result.output
    assert terminal.shown.count("network disabled — approve?") == 1 and received == []


@needs_bwrap
def test_always_for_the_network_covers_the_same_command(repo: Path, listener: tuple[int, list[bytes]]) -> None:
    port, received = listener
    terminal = Terminal("a\n")
    d = dispatcher(repo, terminal)
    command = connect_script(repo, port)
    assert bash(d, command).ok and bash(d, command).ok
    assert terminal.shown.count("network disabled — approve?") == 1 and received == [b"hello\n", b"hello\n"]


@needs_bwrap
def test_a_command_that_plainly_needs_network_gets_it_once_approved(
    repo: Path, listener: tuple[int, list[bytes]]
) -> None:
    port, received = listener
    terminal = Terminal("y\n")
    result = bash(dispatcher(repo, terminal), f"echo hello > /dev/tcp/127.0.0.1/{port}")
    assert result.ok, result.output
    assert "Allow it?" in terminal.shown and "network" in terminal.shown
    assert received == [b"hello\n"]


@needs_bwrap
def test_full_access_runs_with_the_network_from_the_start(repo: Path, listener: tuple[int, list[bytes]]) -> None:
    port, received = listener
    result = bash(dispatcher(repo, None, mode="full-access"), connect_script(repo, port))
    assert result.ok and "approved network" not in result.output
    assert received == [b"hello\n"]


def test_an_ordinary_failure_is_not_mistaken_for_missing_network(repo: Path) -> None:
    terminal = Terminal("y\n")
    result = bash(dispatcher(repo, terminal), "ls no-such-file")
    assert "exit code 2" in result.output and "network" not in result.output and terminal.shown == ""


# -- three timeouts in a row -------------------------------------------------------------------------------------------


def test_third_timeout_in_a_row_ends_the_run_when_nobody_can_answer(repo: Path) -> None:
    d = dispatcher(repo, None, approval="never")
    results = [bash(d, "sleep 30", timeout=0.3) for _ in range(MAX_CONSECUTIVE_TIMEOUTS)]
    assert [r.error_kind for r in results] == ["timeout"] * 3
    assert d.halted is not None and "3 bash/test commands in a row timed out" in d.halted
    assert "The run is stopped" in results[-1].output
    after = bash(d, "echo still-running")
    assert after.error_kind == "denied" and "still-running" not in after.output


def test_a_command_that_finishes_resets_the_count(repo: Path) -> None:
    d = dispatcher(repo, None, approval="never")
    for command in ("sleep 30", "sleep 30", "true", "sleep 30", "sleep 30"):
        bash(d, command, timeout=0.3)
    assert d.halted is None and d.timeouts == 2


def test_the_person_may_let_it_go_on_after_three_timeouts(repo: Path) -> None:
    terminal = Terminal("y\n")
    d = dispatcher(repo, terminal)
    for _ in range(MAX_CONSECUTIVE_TIMEOUTS):
        bash(d, "sleep 30", timeout=0.3)
    assert "pedro paused" in terminal.shown and "Keep going?" in terminal.shown
    assert d.halted is None and d.timeouts == 0
    assert bash(d, "echo on").ok


def test_declining_after_three_timeouts_stops(repo: Path) -> None:
    terminal = Terminal("n\n")
    d = dispatcher(repo, terminal)
    for _ in range(MAX_CONSECUTIVE_TIMEOUTS):
        bash(d, "sleep 30", timeout=0.3)
    assert d.halted is not None


# -- extra read roots --------------------------------------------------------------------------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    docs = tmp_path / "shared-docs"
    docs.mkdir()
    (docs / "api.md").write_text("the shared api\n")
    (tmp_path / "secret.txt").write_text("not for the model\n")
    (docs / "escape").symlink_to(tmp_path / "secret.txt")
    return docs


def read(d: Dispatcher, path: str) -> ToolResult:
    return d.run(ToolCall("file", {"action": "read", "path": path}))


def test_read_roots_allow_reading_outside_the_repository(repo: Path, outside: Path) -> None:
    d = dispatcher(repo, None, approval="never", read_roots=(str(outside.resolve()),))
    result = read(d, str(outside / "api.md"))
    assert result.ok and "the shared api" in result.output
    listed = d.run(ToolCall("navigate", {"action": "list_dir", "path": str(outside)}))
    assert listed.ok and "api.md" in listed.output


def test_read_roots_never_allow_writes_or_escapes(repo: Path, outside: Path) -> None:
    d = dispatcher(repo, None, approval="never", read_roots=(str(outside.resolve()),))
    write = d.run(ToolCall("file", {"action": "write", "path": str(outside / "api.md"), "content": "x\n"}))
    assert write.error_kind == "denied"
    assert (outside / "api.md").read_text() == "the shared api\n"
    edit = d.run(ToolCall("code_edit", {"path": str(outside / "api.md"), "old": "shared", "new": "owned"}))
    assert not edit.ok and (outside / "api.md").read_text() == "the shared api\n"
    escaped = read(d, str(outside / "escape"))
    assert escaped.error_kind == "denied" and "not for the model" not in escaped.output
    sibling = read(d, str(outside.parent / "secret.txt"))
    assert sibling.error_kind == "denied"


def test_without_read_roots_outside_reads_are_refused(repo: Path, outside: Path) -> None:
    result = read(dispatcher(repo, None, approval="never"), str(outside / "api.md"))
    assert result.error_kind == "denied" and "the shared api" not in result.output


def test_a_granted_read_does_not_carry_over_to_the_next_call(repo: Path, outside: Path) -> None:
    d = dispatcher(repo, None, approval="never", read_roots=(str(outside.resolve()),))
    assert read(d, str(outside / "api.md")).ok
    assert not d.ctx.grants.reads  # the grant went with that call, never onto the shared context
    assert read(d, str(outside.parent / "secret.txt")).error_kind == "denied"
    git = subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True, text=True, check=True)
    assert git.stdout == ""

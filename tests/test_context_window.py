"""Every request stays inside the window: the loop compacts, reuses the server's cache and catches truncation."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_util import build, fenced
from stub_server import render_chat, stub_tokenize

from pedro.backends.base import GenerationOptions
from pedro.backends.scripted import ScriptedBackend
from pedro.dispatch import Dispatcher
from pedro.jobstore import JobStore
from pedro.loop.agent import Agent, AgentParts, Limits
from pedro.messages import Completion, Event, Message, Usage
from pedro.roles import get_role
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext

ROUNDS = 12


def wire(messages: list[Message]) -> dict[str, Any]:
    return {"messages": [{"role": m.role, "content": m.content} for m in messages]}


def served_tokens(messages: list[Message]) -> int:
    """What a server with the stub's tokenizer and template counts for a request."""
    return len(stub_tokenize(render_chat(wire(messages))))


def growing_reads(repo: Path, rounds: int) -> None:
    for n in range(1, rounds + 1):
        (repo / f"part{n}.txt").write_text("".join(f"row {i} of part {n}\n" for i in range(40 * n)))


def test_a_long_job_is_compacted_and_never_sent_over_the_window(repo: Path) -> None:
    growing_reads(repo, ROUNDS)
    window = 4096
    sizes: list[int] = []

    def model(messages: list[Message], _tools: list[dict[str, Any]]) -> Completion:
        sizes.append(served_tokens(messages))
        round_no = len(sizes)
        text = (
            fenced("file", {"action": "read", "path": f"part{round_no}.txt"}) if round_no <= ROUNDS else "TASK COMPLETE"
        )
        return Completion(text=text, usage=Usage(prompt_tokens=sizes[-1], completion_tokens=20))

    events: list[Event] = []
    store = JobStore(repo)
    job = store.create(role="reviewer", task="Read every part.", backend="scripted", model="m")
    result = Agent(
        AgentParts(
            role=get_role("reviewer"),
            backend=ScriptedBackend(model, context_window=window),
            dispatcher=Dispatcher(ToolRegistry.default(("file",)), ToolContext(root=repo)),
            limits=Limits(max_rounds=ROUNDS + 1),
            options=GenerationOptions(max_tokens=256),
            store=store,
            job=job,
            short_tools=True,
        ),
        on_event=events.append,
    ).run("Read every part.")
    store.close()
    assert result.exit_status == "completed", result.summary
    assert max(sizes) <= window - 128
    compactions = [e for e in events if e.type == "context.compacted"]
    assert compactions, "the job outgrew the window, so it must have been compacted"
    assert all(e.data["after_tokens"] < e.data["before_tokens"] for e in compactions)
    # the full text of what was masked stays in the job directory, where the model was told to look
    saved = sorted((store.job_dir(job.id) / "outputs").iterdir())
    assert saved and any("row 0 of part 1" in path.read_text() for path in saved)
    assert not [e for e in events if e.type == "context.truncated"]


def test_between_compactions_every_request_extends_the_last(repo: Path) -> None:
    growing_reads(repo, ROUNDS)
    requests: list[list[Message]] = []

    def model(messages: list[Message], _tools: list[dict[str, Any]]) -> Completion:
        requests.append(messages)
        n = len(requests)
        text = fenced("file", {"action": "read", "path": f"part{n}.txt"}) if n <= ROUNDS else "TASK COMPLETE"
        return Completion(text=text, usage=Usage(prompt_tokens=served_tokens(messages)))

    events: list[Event] = []
    Agent(
        AgentParts(
            role=get_role("reviewer"),
            backend=ScriptedBackend(model, context_window=4096),
            dispatcher=Dispatcher(ToolRegistry.default(("file",)), ToolContext(root=repo)),
            limits=Limits(max_rounds=ROUNDS + 1),
            options=GenerationOptions(max_tokens=256),
            short_tools=True,
        ),
        on_event=events.append,
    ).run("Read every part.")
    compacted_before = {e.seq for e in events if e.type == "context.compacted"}
    starts = [e.seq for e in events if e.type == "round.started"]
    compacted_rounds = {i for i, seq in enumerate(starts) if any(seq < c < seq + 3 for c in compacted_before)}
    for i in range(1, len(requests)):
        previous, current = requests[i - 1], requests[i]
        if i not in compacted_rounds:
            assert current[: len(previous)] == previous, f"round {i + 1} rewrote history without compacting"
        assert current[0] == requests[0][0]  # the system prompt never changes
        assert current[1] == requests[0][1]  # nor the task


def test_llama_server_re_evaluates_only_what_was_appended(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    """Acceptance: a stub llama-server that serves each request's common prefix with the last from its cache."""
    growing_reads(repo, ROUNDS)
    reads = [fenced("file", {"action": "read", "path": f"part{n}.txt"}) for n in range(1, ROUNDS)]
    server = stub_server([*reads, "TASK COMPLETE\nread them all"], context_length=65536)
    proc = build(server, repo, cli_env, description="Read every part.", backend="llamacpp")
    assert "Traceback" not in proc.stderr
    assert len(server.requests) >= ROUNDS
    assert not any("id_slot" in r for r in server.requests)  # the server gives the job an idle slot, its own cache
    assert all(r.get("cache_prompt") is True for r in server.requests)
    appended = sum(b - a for a, b in zip(server.prompt_tokens, server.prompt_tokens[1:], strict=False))
    re_evaluated = sum(t["prompt_n"] for t in server.timings[1:])
    ratio = re_evaluated / appended
    assert ratio <= 1.05, f"re-evaluated {re_evaluated} tokens for {appended} appended ({ratio:.3f}x)"


def test_ollama_with_a_1024_window_gets_no_request_over_it(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    """Acceptance: the window cannot even hold pedro's instructions, so nothing is sent and the user is told."""
    server = stub_server([fenced("file", {"action": "read", "path": "README.md"})] * 5, context_length=1024)
    proc = build(server, repo, cli_env, description="Summarise the README.", backend="ollama")
    assert "Traceback" not in proc.stderr
    assert not any(server.truncated)
    assert proc.returncode == 4
    assert "window is 1024" in proc.stdout + proc.stderr
    assert "longer context" in proc.stdout + proc.stderr


def test_ollama_that_truncates_silently_is_caught_and_the_job_compacts(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    """The server claims 8192 tokens but keeps 6000: the first cut request is reported, later ones fit."""
    growing_reads(repo, ROUNDS)
    server = stub_server([*reads_then_write(), "TASK COMPLETE\ndone"], context_length=8192, truncate_at=6000)
    env = {**cli_env, "PEDRO_TOOL_MODE": "text"}
    proc = build(server, repo, env, description="Read every part.", backend="ollama")
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output
    assert re.search(r"evaluated only \d+ of about \d+ prompt tokens", output)
    events = [json.loads(line) for line in _events_file(repo).read_text().splitlines()]
    reported = [e["round"] for e in events if e["type"] == "context.truncated"]
    assert len(reported) == 1, output
    first_cut = server.truncated.index(True) + 1
    # A cut smaller than pedro's margin of error cannot be seen; it grows with the conversation and is caught
    # within a round, and from then on every request fits what the server really keeps.
    assert reported[0] in (first_cut, first_cut + 1), (server.prompt_tokens, server.truncated)
    assert not any(server.truncated[reported[0] :]), (server.prompt_tokens, server.truncated)
    assert "context compacted" in output
    assert proc.returncode == 0, output


@pytest.mark.parametrize("window", [4096])
def test_ollama_with_a_small_window_compacts_before_it_would_truncate(
    repo: Path, stub_server: Any, cli_env: dict[str, str], window: int
) -> None:
    growing_reads(repo, ROUNDS)
    server = stub_server([*reads_then_write(), "TASK COMPLETE\ndone"], context_length=window)
    env = {**cli_env, "PEDRO_TOOL_MODE": "text"}
    proc = build(server, repo, env, description="Read every part.", backend="ollama")
    output = proc.stdout + proc.stderr
    assert not any(server.truncated), server.prompt_tokens
    assert "context compacted" in output
    assert proc.returncode == 0, output


def reads_then_write() -> list[str]:
    reads = [fenced("file", {"action": "read", "path": f"part{n}.txt"}) for n in range(1, ROUNDS)]
    return [*reads, fenced("file", {"action": "write", "path": "summary.txt", "content": "read\n"})]


def _events_file(repo: Path) -> Path:
    return next((repo / ".pedro" / "jobs").glob("*/events.jsonl"))

"""The real product on a real tiny model: `pedro build` with constrained calls drives SmolLM2-135M through the loop."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from cli_util import pedro_crashed

from pedro.backends.base import GenerationOptions
from pedro.backends.connection import Connection
from pedro.backends.grammar import build_call_grammar
from pedro.backends.llamacpp import CONSTRAINED_NOTICE, LlamaCppBackend
from pedro.backends.managed import ManagedLlamaServer, find_llama_server
from pedro.loop.context import build_system_prompt
from pedro.messages import Message
from pedro.roles import ROLES, get_role
from pedro.toolcalls import extract, find_completion
from pedro.tools import ToolRegistry

pytestmark = pytest.mark.e2e

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "calc"
TASK = "The add() function in calc.py returns the wrong result. Fix it so test_calc.py passes."
MAX_ROUNDS = 4
MAX_TOKENS = 160
# Four rounds of a 135M model on a small shared CPU; the first round alone reads a ~2.9k-token prompt.
BUILD_TIMEOUT_S = 900


def read_jsonl(text: str) -> list[dict[str, Any]]:
    """Every non-empty line parsed as one JSON object (a line that is not one fails the test)."""
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        event = json.loads(line)
        assert isinstance(event, dict), f"line {number} is not a JSON object: {line!r}"
        events.append(event)
    return events


@pytest.fixture
def calc_repo(tmp_path: Path) -> Path:
    """examples/calc copied into a fresh git repository with one commit."""
    repo = tmp_path / "calc"
    shutil.copytree(EXAMPLE, repo)
    git = ["git", "-c", "user.email=e2e@example.com", "-c", "user.name=e2e"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "sample project"], cwd=repo, check=True)
    return repo


@pytest.mark.parametrize("role_name", sorted(ROLES))
def test_every_role_grammar_is_valid_gbnf_for_the_real_server(llama_server: ManagedLlamaServer, role_name: str) -> None:
    grammar = build_call_grammar(ToolRegistry.default(get_role(role_name).tools).specs())
    assert grammar is not None
    body = {"messages": [{"role": "user", "content": TASK}], "max_tokens": 12, "temperature": 0, "grammar": grammar}
    reply = httpx.post(llama_server.base_url + "/v1/chat/completions", json=body, timeout=120, trust_env=False)
    assert reply.status_code == 200, reply.text  # a grammar llama-server cannot parse is a 400
    text = reply.json()["choices"][0]["message"]["content"]
    assert text.startswith(("```", "TASK COMPLETE")), text


def test_builder_grammar_is_accepted_and_replies_parse_into_calls(llama_server: ManagedLlamaServer) -> None:
    role = get_role("builder")
    tools = ToolRegistry.default(role.tools).specs()
    system = build_system_prompt(role, tools, repo_name="calc", native=False)  # constrained calls are text mode
    backend = LlamaCppBackend(
        Connection(llama_server.base_url, read_timeout=300), llama_server.model_alias, constrain_calls=True
    )
    try:
        completion = backend.complete(
            [Message("system", system), Message("user", TASK)],
            tools=tools,
            options=GenerationOptions(temperature=0.0, max_tokens=MAX_TOKENS, stream=True),
        )
    finally:
        backend.close()
    assert CONSTRAINED_NOTICE in completion.notices
    assert completion.text.startswith(("```", "TASK COMPLETE"))
    extraction = extract(completion.text, tools, finish_reason=completion.finish_reason)
    if completion.finish_reason == "stop":
        # The grammar closed: every call is complete and parses, or the reply is the marker with a summary.
        assert extraction.calls or find_completion(completion.text)
        assert {call.name for call in extraction.calls} <= {tool["function"]["name"] for tool in tools}
        assert not extraction.problems
    else:
        assert completion.finish_reason == "length"  # a body that ran to max_tokens is a truncated call
        assert completion.usage.completion_tokens == MAX_TOKENS


def test_pedro_build_drives_the_real_model_through_tool_calls(smollm2_gguf: Path, calc_repo: Path) -> None:
    binary = find_llama_server()
    if binary is None:
        pytest.skip("llama-server is not installed; run scripts/install-llama-server")
    env = {
        **os.environ,
        "PATH": f"{binary.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PEDRO_BACKEND__CONSTRAIN_CALLS": "true",
        # This test is about the loop; repair (tests/e2e/test_repair_real_model.py) would fix the bug before it.
        "PEDRO_REPAIR__ENABLED": "false",
        # ... and the direct way (tests/e2e/test_build_direct_real_model.py) would write the code without the tools.
        "PEDRO_BUILD__STRATEGY": "loop",
        "PEDRO_BACKEND__MAX_TOKENS": str(MAX_TOKENS),
        # Greedy decoding: the same binary, model and prompt give the same replies, so the run is reproducible.
        "PEDRO_BACKEND__TEMPERATURE": "0",
        # The checkout under test, whatever else the caller's PYTHONPATH holds.
        "PYTHONPATH": os.pathsep.join(filter(None, [str(EXAMPLE.parents[1]), os.environ.get("PYTHONPATH")])),
    }
    command = [sys.executable, "-m", "pedro", "build", "--model-file", str(smollm2_gguf)]
    command += ["--max-rounds", str(MAX_ROUNDS), "--no-input", "--json", "--description", TASK]
    run = subprocess.run(command, cwd=calc_repo, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)

    assert not pedro_crashed(run.stderr + run.stdout), run.stderr[-3000:]
    assert run.returncode in (0, 1, 4), run.stderr[-3000:]
    printed = read_jsonl(run.stdout)
    assert printed[-1]["type"] == "job.finished"
    assert printed[-1]["exit_code"] == run.returncode

    jobs = sorted((calc_repo / ".pedro" / "jobs").iterdir())
    assert len(jobs) == 1
    events = read_jsonl((jobs[0] / "events.jsonl").read_text(encoding="utf-8"))
    assert [event["seq"] for event in events] == sorted(event["seq"] for event in events)
    rounds = [event for event in events if event["type"] == "round.started"]
    completed = [event for event in events if event["type"] == "model.completed"]
    assert 1 <= len(rounds) <= MAX_ROUNDS
    assert len(completed) == len(rounds), "every round has its model.completed event"
    for event in completed:
        assert event["usage"]["prompt_tokens"] > 0
        assert event["usage"]["completion_tokens"] > 0
        assert event["timings"]["prompt_n"] >= 0  # llama-server's own timings came through
        assert event["timings"]["predicted_n"] == event["usage"]["completion_tokens"]
        assert event["timings"]["predicted_per_second"] > 0
    # From round 2 on the shared prefix (system prompt, task, earlier rounds) comes from the prompt cache.
    assert all(event["usage"]["cached_tokens"] > 0 for event in completed[1:])
    # pedro counted every request itself before sending it: exactly (llama-server's /tokenize) up to the chat
    # template's few tokens per message, which it learns from the first reply.
    finished = [event for event in events if event["type"] == "round.finished"]
    for event in finished[1:]:
        served = event["usage"]["prompt_tokens"]
        assert abs(event["prompt_estimate"] - served) <= 0.02 * served + 8, (event["prompt_estimate"], served)
    finished_calls = [event for event in events if event["type"] == "tool_call.finished"]
    assert finished_calls, "the grammar made the model write at least one call that was extracted and run"
    assert {event["name"] for event in finished_calls} <= set(ToolRegistry.default(get_role("builder").tools).names())
    assert events[-1]["type"] == "job.finished"
    job = json.loads((jobs[0] / "job.json").read_text(encoding="utf-8"))
    assert job["exit_code"] == run.returncode

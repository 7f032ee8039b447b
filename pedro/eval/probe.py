"""The simplest use of a small model, the yardstick repair must beat: the whole file and the failing assertion go to
the model, its answer goes into the file, and the tests run; greedy first, then samples, until one passes or the
time is up. No agent, no variants (`make eval ARGS="--modes probe"`)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pedro.backends import get_backend
from pedro.backends.base import GenerationOptions
from pedro.config import PedroConfig
from pedro.errors import PedroError
from pedro.eval.outcome import Outcome, failure_reason
from pedro.eval.taskrun import TaskResult, TaskRun, prepare_repository, score
from pedro.eval.tasks import Task
from pedro.evidence import ProjectTests
from pedro.messages import Message
from pedro.prompts import render_prompt
from pedro.repair.answers import FENCE_NAMES
from pedro.repair.candidate import parses, read_candidate
from pedro.repair.judge import describe_failure
from pedro.repair.locate import Unit, locate
from pedro.tools.base import ToolContext
from pedro.tools.test import RunTestsArgs

ANSWERS = 8
"""The greedy answer and seven samples."""
_TEMPERATURE = 0.8
_MAX_TOKENS = 768
_FENCE_OPEN = "```"


@dataclass(frozen=True)
class _Asked:
    solved_by: int | None
    answers: int
    prompt_tokens: int
    completion_tokens: int
    server_error: str | None = None
    """What the server did instead of answering, when the probe stopped on it."""


def run_probe(
    task: Task, workdir: Path, *, backend_args: Sequence[str], env: Mapping[str, str], time_limit_s: float
) -> TaskRun:
    """One probe run on `task` in a fresh copy under `workdir`, scored by the task's check like every run."""
    began = time.monotonic()
    repo = prepare_repository(task, workdir / task.id)
    asked = _probe(task, repo, backend_args, began + time_limit_s)
    solved = asked.solved_by is not None and score(task, repo, env)
    stopped = asked.server_error is not None  # a server that failed is not a model that could not fix the bug
    outcome = Outcome(
        finished=True,
        status="completed" if asked.solved_by is not None else "failed",
        reason="backend_error" if stopped else "probe_fixed" if asked.solved_by is not None else "probe_unfixed",
        exit_code=0 if asked.solved_by is not None else 1,
        timed_out=time.monotonic() - began > time_limit_s,
        prompt_tokens=asked.prompt_tokens,
        completion_tokens=asked.completion_tokens,
        repair_candidates=asked.answers,
    )
    result = TaskResult(
        task=task.id,
        tier=task.tier,
        language=task.language,
        solved=solved,
        exit_code=outcome.exit_code,
        reason=outcome.reason,
        wall_s=round(time.monotonic() - began, 2),
        prompt_tokens=asked.prompt_tokens,
        completion_tokens=asked.completion_tokens,
        rounds=asked.answers,
        repair_candidates=asked.answers,
        failure=failure_reason(outcome, solved=solved) if stopped or solved else "tests_failed",
    )
    return TaskRun(result, outcome, "", asked.server_error or "")


def _probe(task: Task, repo: Path, backend_args: Sequence[str], deadline: float) -> _Asked:
    tests = ProjectTests(RunTestsArgs(command=task.test), ToolContext(root=repo))
    start = tests.run()
    failures = start.report.failures if start.report is not None else []
    units = locate(failures, repo, limit=1) if failures else []
    if not units:
        return _Asked(None, 0, 0, 0)
    unit = units[0]
    path = repo / unit.path
    original = path.read_text(encoding="utf-8")
    fence = FENCE_NAMES[unit.language]
    prompt = render_prompt(
        "eval/probe.md", failure=describe_failure(failures[0]), path=unit.path, fence=fence, code=original.rstrip()
    )
    try:
        backend = get_backend(_config(backend_args))
    except PedroError as exc:
        return _Asked(None, 0, 0, 0, server_error=str(exc))
    prompt_tokens = completion_tokens = 0
    seen: set[str] = set()
    try:
        for number in range(ANSWERS):
            if time.monotonic() > deadline:
                return _Asked(None, number, prompt_tokens, completion_tokens)
            options = GenerationOptions(
                temperature=0.0 if number == 0 else _TEMPERATURE, seed=number or None, max_tokens=_MAX_TOKENS
            )
            try:
                completion = backend.complete([Message("user", prompt)], tools=[], options=options)
            except PedroError as exc:
                return _Asked(None, number, prompt_tokens, completion_tokens, server_error=str(exc))
            prompt_tokens += completion.usage.prompt_tokens
            completion_tokens += completion.usage.completion_tokens
            new = _answer_file(completion.text, unit, original)
            if new is None or new in seen:
                continue
            seen.add(new)
            path.write_text(new, encoding="utf-8")
            if tests.run().passed:
                return _Asked(number, number + 1, prompt_tokens, completion_tokens)
            path.write_text(original, encoding="utf-8")
    finally:
        backend.close()
    return _Asked(None, ANSWERS, prompt_tokens, completion_tokens)


def _answer_file(reply: str, unit: Unit, original: str) -> str | None:
    """The file with the answer in it: a whole file as it stands, else the function it gives in place of the
    unit's; None when the answer holds neither."""
    block = _first_block(reply)
    whole = bool(block) and len(block.splitlines()) >= len(original.splitlines()) // 2
    if whole and parses(block, unit.language) and block.strip() != original.strip():
        return block.rstrip("\n") + "\n"
    candidate = read_candidate(reply, unit, original)
    if candidate.text is None:
        return None
    lines = original.splitlines()
    return "\n".join([*lines[: unit.start_line - 1], candidate.text, *lines[unit.end_line :]]) + "\n"


def _first_block(reply: str) -> str:
    start = reply.find(_FENCE_OPEN)
    if start < 0:
        return ""
    body = reply[reply.find("\n", start) + 1 :]
    end = body.find(_FENCE_OPEN)
    return body[:end] if end >= 0 else body


def _config(backend_args: Sequence[str]) -> PedroConfig:
    """The backend the run's flags name (`--backend`, `--base-url`, `--model`), as a pedro run would use it."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--backend", default="openai")
    parser.add_argument("--base-url", default="")
    parser.add_argument("--model", default="")
    known, _ = parser.parse_known_args(list(backend_args))
    config = PedroConfig()
    config.backend.kind = known.backend
    config.backend.base_url = known.base_url
    config.backend.model = known.model
    return config

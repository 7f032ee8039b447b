"""Prompt-cache reuse across one repair's questions on a real llama-server: Σ prompt_n ÷ Σ prompt tokens.

`pedro debug` runs as a user runs it, against a fresh llama-server serving SmolLM2-135M, on a task of the suite that
the model does not fix at once (a bug that needs two edits), so repair asks many questions. Each candidate's prompt
shares its prefix with the one before (the failure and the function come first, the question last), so the server
evaluates only what changed: the job's own `model.completed` events carry the server's `timings.prompt_n` (tokens
evaluated) and `usage.prompt_tokens` (tokens sent).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_cache import missing, serve

from pedro.eval.taskrun import prepare_repository
from pedro.eval.tasks import load_task

HERE = Path(__file__).resolve().parent
TASK = HERE.parent / "evals" / "tasks" / "py-trip-distance"
CANDIDATES = 8
TIME_LIMIT_S = 240
GOAL = 0.3


def run() -> dict[str, Any]:
    """One repair's requests: how many prompt tokens the server evaluated of those pedro sent."""
    reason = missing()
    if reason is not None:
        return {"skipped": reason}
    task = load_task(TASK)
    with tempfile.TemporaryDirectory() as tmp, serve() as server:
        repo = prepare_repository(task, Path(tmp) / task.id)
        env = {
            **os.environ,
            "PEDRO_REPAIR__CANDIDATES": str(CANDIDATES),
            # The variants alone fix this task now (a pair of them): without them, repair asks the model its questions.
            "PEDRO_REPAIR__MUTANTS": "0",
            "PEDRO_BACKEND__CONTEXT_WINDOW": "8192",
        }
        argv = [sys.executable, "-m", "pedro", "debug", "--test", task.test, "--description", task.description]
        argv += ["--no-input", "--json", "--max-rounds", "1", "--time-limit", str(TIME_LIMIT_S)]
        argv += ["--backend", "llamacpp", "--base-url", server.base_url, "--model", server.model_alias]
        subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True, timeout=TIME_LIMIT_S + 60)
        jobs = sorted((repo / ".pedro" / "jobs").glob("*/events.jsonl"))
        if not jobs:
            raise RuntimeError("pedro debug left no job record")
        events = [json.loads(line) for line in jobs[-1].read_text(encoding="utf-8").splitlines() if line]
    return summarize(events)


def summarize(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The repair requests' prompt tokens sent and evaluated, and their ratio."""
    requests = [
        (int(event["usage"]["prompt_tokens"]), int((event.get("timings") or {}).get("prompt_n", 0)))
        for event in events
        if event["type"] == "model.completed" and event.get("purpose") == "repair"
    ]
    if len(requests) < 2:
        raise RuntimeError(f"repair asked {len(requests)} question(s); the measurement needs several")
    sent = sum(tokens for tokens, _ in requests)
    evaluated = sum(n for _, n in requests)
    return {
        "requests": len(requests),
        "prompt_tokens": sent,
        "prompt_n": evaluated,
        "ratio": evaluated / sent,
        "first_prompt_tokens": requests[0][0],
        "per_request": [{"prompt_tokens": tokens, "prompt_n": n} for tokens, n in requests],
    }


if __name__ == "__main__":
    print(json.dumps({k: v for k, v in run().items() if k != "per_request"}, indent=2))

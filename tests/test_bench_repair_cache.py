"""benchmarks/bench_repair_cache.py: the prompt-cache ratio of a repair, read from a job's own events."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_repair_cache import summarize  # noqa: E402


def completed(purpose: str, prompt_tokens: int, prompt_n: int | None) -> dict[str, Any]:
    """A model.completed event as pedro records it after a llama-server reply."""
    timings = {} if prompt_n is None else {"prompt_n": prompt_n, "cache_n": prompt_tokens - prompt_n}
    usage = {"prompt_tokens": prompt_tokens, "completion_tokens": 20, "cached_tokens": prompt_tokens - (prompt_n or 0)}
    return {"type": "model.completed", "purpose": purpose, "usage": usage, "timings": timings}


def test_only_the_repairs_requests_count_and_their_ratio_is_evaluated_over_sent() -> None:
    events = [
        {"type": "tests.run", "phase": "baseline"},
        completed("repair", 300, 300),
        completed("repair", 320, 40),
        completed("repair", 310, 60),
        completed("loop", 900, 900),
    ]
    result = summarize(events)
    assert (result["requests"], result["prompt_tokens"], result["prompt_n"]) == (3, 930, 400)
    assert result["ratio"] == pytest.approx(400 / 930)


def test_a_repair_that_asked_once_measures_nothing() -> None:
    with pytest.raises(RuntimeError, match="asked 1 question"):
        summarize([completed("repair", 300, 300), completed("loop", 900, 100)])

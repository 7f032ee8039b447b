"""Prompt-cache reuse on a real llama-server: pedro's append-only rounds against rebuilding the prompt every round."""

from __future__ import annotations

import json
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pedro.backends.base import GenerationOptions
from pedro.backends.connection import Connection
from pedro.backends.llamacpp import LlamaCppBackend
from pedro.backends.managed import ManagedLlamaServer, ServerSettings, find_llama_server, find_smollm2_gguf
from pedro.dispatch import Dispatcher
from pedro.loop.agent import Agent, AgentParts, Limits
from pedro.loop.assembly import SMALL_WINDOW_TOKENS
from pedro.messages import Completion, Event, Message
from pedro.roles import get_role
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext

# The session length of the re-evaluation requirement (a 12-round session).
ROUNDS = 12
MAX_TOKENS = 48
# An 8k window gets pedro's full tool descriptions: a system prompt of the size a real job re-sends every round.
CTX_SIZE = 8192
# Part k of the files the scripted model reads has k * LINES_PER_PART lines, so every round appends more than the
# last, about as much as a tool result of a real round; the last request stays under the point where pedro would
# compact (85% of CTX_SIZE).
LINES_PER_PART = 1
TASK = f"Read part01.txt to part{ROUNDS:02d}.txt one by one and summarize them."
MODES = ("append", "rebuild")


def missing() -> str | None:
    """Why the real-model benchmarks cannot run here, or None when llama-server and the GGUF are installed."""
    if find_llama_server() is None:
        return "llama-server not found (run scripts/install-llama-server)"
    if find_smollm2_gguf() is None:
        return "SmolLM2-135M GGUF not installed (run scripts/install-model)"
    return None


@contextmanager
def serve() -> Iterator[ManagedLlamaServer]:
    """A fresh llama-server serving SmolLM2-135M on a free loopback port, with an empty prompt cache."""
    model, binary = find_smollm2_gguf(), find_llama_server()
    assert model is not None and binary is not None, missing()
    with ManagedLlamaServer(model, ServerSettings(ctx_size=CTX_SIZE), binary=binary) as server:
        yield server


class _FixedLengthBackend(LlamaCppBackend):
    """pedro's llama-server backend, with every reply running to max_tokens.

    Greedy decoding still stops at different points once the prompts differ; ignoring end-of-sequence makes both
    modes generate exactly the same number of tokens, so they differ only in prompt work.
    """

    def build_body(
        self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]], options: GenerationOptions
    ) -> dict[str, Any]:
        body = super().build_body(messages, tools, options)
        body["ignore_eos"] = True
        return body


@dataclass
class _Round:
    prompt_tokens: int
    cache_n: int
    prompt_n: int
    prompt_ms: float
    predicted_n: int
    predicted_ms: float
    request_s: float


@dataclass
class _ScriptedCalls:
    """A Backend whose requests reach the real server but whose replies are this round's scripted call.

    The server's completion keeps its usage and timings; only the text the loop reads is replaced, so both modes
    run the same calls and append the same history. With `rebuild`, each request starts its system message with
    a line that changes every round (the round number and the time), so no cached prefix survives.
    """

    inner: LlamaCppBackend
    replies: list[str]
    rebuild: bool
    name: str = "llamacpp"
    rounds: list[_Round] = field(default_factory=list)

    def complete(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[Mapping[str, Any]],
        options: GenerationOptions,
        on_token: Callable[[str], None] | None = None,
        on_notice: Callable[[str], None] | None = None,
    ) -> Completion:
        number = len(self.rounds) + 1
        sent = list(messages)
        if self.rebuild:
            volatile = f"Round {number}, {time.strftime('%Y-%m-%d %H:%M:%S')}.\n"
            sent[0] = replace(sent[0], content=volatile + sent[0].content)
        start = time.perf_counter()
        real = self.inner.complete(sent, tools=tools, options=options, on_token=on_token, on_notice=on_notice)
        timings = real.timings
        self.rounds.append(
            _Round(
                prompt_tokens=real.usage.prompt_tokens,
                cache_n=int(timings.get("cache_n", 0)),
                prompt_n=int(timings.get("prompt_n", 0)),
                prompt_ms=float(timings.get("prompt_ms", 0.0)),
                predicted_n=int(timings.get("predicted_n", 0)),
                predicted_ms=float(timings.get("predicted_ms", 0.0)),
                request_s=time.perf_counter() - start,
            )
        )
        return replace(real, text=self.replies[number - 1], tool_calls=(), reasoning="", raw={})

    def context_window(self) -> int | None:
        return self.inner.context_window()

    def count_tokens(self, text: str) -> int | None:
        return self.inner.count_tokens(text)

    def sends_tools(self, options: GenerationOptions) -> bool:
        return self.inner.sends_tools(options)

    def close(self) -> None:
        self.inner.close()


def _make_repo(root: Path) -> list[str]:
    """A git repository with part01.txt, part02.txt, ... of growing length; the scripted reply of each round."""
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    replies = []
    for part in range(1, ROUNDS + 1):
        name = f"part{part:02d}.txt"
        count = part * LINES_PER_PART
        lines = (f"step {part}.{n}: total = total * {n} + {part}  # carry {part * n % 7}\n" for n in range(count))
        (root / name).write_text("".join(lines))
        replies.append(f"```file\n{json.dumps({'action': 'read', 'path': name})}\n```")
    return replies


def _run_mode(server: ManagedLlamaServer, rebuild: bool) -> dict[str, Any]:
    """One job of ROUNDS scripted rounds through pedro's own loop, timed; the per-round server numbers."""
    statuses: list[str] = []

    def on_event(event: Event) -> None:
        if event.type in ("context.compacted", "context.truncated"):
            statuses.append(event.type)

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        replies = _make_repo(root)
        role = get_role("reviewer")
        backend = _ScriptedCalls(
            _FixedLengthBackend(Connection(server.base_url, read_timeout=600), server.model_alias), replies, rebuild
        )
        dispatcher = Dispatcher(ToolRegistry.default(role.tools), ToolContext(root=root, read_only=True))
        start = time.perf_counter()
        result = Agent(
            AgentParts(
                role=role,
                backend=backend,
                dispatcher=dispatcher,
                limits=Limits(max_rounds=ROUNDS, max_idle_replies=3),
                options=GenerationOptions(temperature=0.0, max_tokens=MAX_TOKENS),
                short_tools=CTX_SIZE < SMALL_WINDOW_TOKENS,
            ),
            on_event=on_event,
        ).run(TASK)
        wall = time.perf_counter() - start
        backend.close()
    if statuses or result.tool_calls != ROUNDS:
        counts = [r.prompt_tokens for r in backend.rounds]
        raise RuntimeError(f"the job did not run as scripted: {result.summary}; {statuses}; prompt tokens {counts}")
    # Outside the model requests: pedro's loop, the tool calls and its /tokenize counts.
    outside = wall - sum(r.request_s for r in backend.rounds)
    per_round = [vars(r) for r in backend.rounds]
    return {"wall_s": wall, "outside_requests_s": outside, **_summarize(backend.rounds), "rounds": per_round}


def _summarize(rounds: list[_Round]) -> dict[str, float]:
    """The cache numbers from round 2 on: what was re-evaluated against what was appended."""
    later = rounds[1:]
    appended = sum(b.prompt_tokens - a.prompt_tokens for a, b in zip(rounds, later, strict=False))
    later_prompt = sum(r.prompt_tokens for r in later)
    # The most any client can take from the cache: everything but the tokens this round appended.
    reusable = sum(a.prompt_tokens for a in rounds[:-1])
    return {
        "first_prompt_tokens": rounds[0].prompt_tokens,
        "last_prompt_tokens": rounds[-1].prompt_tokens,
        "appended_tokens": appended,
        "prompt_n_after_round_1": sum(r.prompt_n for r in later),
        "reevaluation_ratio": sum(r.prompt_n for r in later) / appended,
        "cache_hit_share": sum(r.cache_n for r in later) / later_prompt,
        "cache_hit_ceiling": reusable / later_prompt,
        # Share of the previous request found in the cache, worst round (capped: the cache also holds the tokens
        # the server generated, and a scripted reply that starts like them reuses those too).
        "prefix_reuse": min(min(1.0, r.cache_n / a.prompt_tokens) for a, r in zip(rounds, later, strict=False)),
        "prompt_n_total": sum(r.prompt_n for r in rounds),
        "prompt_ms_total": sum(r.prompt_ms for r in rounds),
        "predicted_n_total": sum(r.predicted_n for r in rounds),
        "predicted_ms_total": sum(r.predicted_ms for r in rounds),
        "request_s_median": statistics.median(r.request_s for r in rounds),
    }


def run() -> dict[str, Any]:
    """Both modes, each on a fresh server so neither inherits the other's cache; their ratios."""
    reason = missing()
    if reason is not None:
        return {"skipped": reason}
    model = find_smollm2_gguf()
    assert model is not None
    results: dict[str, Any] = {"model": model.name, "rounds": ROUNDS, "max_tokens": MAX_TOKENS, "ctx_size": CTX_SIZE}
    for mode in MODES:
        with serve() as server:
            results[mode] = _run_mode(server, rebuild=mode == "rebuild")
    append, rebuild = results["append"], results["rebuild"]
    results["wall_ratio"] = rebuild["wall_s"] / append["wall_s"]
    results["prompt_ms_ratio"] = rebuild["prompt_ms_total"] / append["prompt_ms_total"]
    results["prompt_tokens_ratio"] = rebuild["prompt_n_total"] / append["prompt_n_total"]
    return results


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))

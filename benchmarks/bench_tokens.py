"""Token-estimate error against the model's own tokenizer (llama-server /tokenize) on pedro's own source files."""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx

from pedro.backends.base import GenerationOptions
from pedro.backends.connection import Connection
from pedro.backends.llamacpp import LlamaCppBackend
from pedro.backends.managed import ManagedLlamaServer
from pedro.loop.context import build_system_prompt
from pedro.messages import Message
from pedro.roles import get_role
from pedro.tokens import MESSAGE_OVERHEAD, TokenLedger, estimate_tokens
from pedro.tools import ToolRegistry

ROOT = Path(__file__).resolve().parent.parent
CORPUS_GLOBS = ("pedro/**/*.py", "tests/**/*.py", "prompts/**/*.md", "docs/*.md")
MIN_BYTES = 2048


def corpus(root: Path = ROOT) -> list[Path]:
    """The fixed file set: pedro's sources, tests, prompts and docs of at least MIN_BYTES, sorted by path."""
    found = {path for pattern in CORPUS_GLOBS for path in root.glob(pattern) if path.is_file()}
    return sorted(path for path in found if path.stat().st_size >= MIN_BYTES)


class _Truth:
    """What the server itself says: tokens of a text, and prompt tokens of a whole chat request."""

    def __init__(self, base_url: str) -> None:
        self._base_url = base_url
        self._client = httpx.Client(trust_env=False, timeout=120)

    def text_tokens(self, text: str) -> int:
        return len(self._post("/tokenize", {"content": text, "add_special": False})["tokens"])

    def prompt_tokens(self, messages: Sequence[Message]) -> int:
        """Tokens of the request as the server renders it with the model's chat template (what it reports)."""
        wire = [{"role": m.role, "content": m.content} for m in messages]
        prompt = self._post("/apply-template", {"messages": wire})["prompt"]
        body = {"content": prompt, "add_special": True, "parse_special": True}
        return len(self._post("/tokenize", body)["tokens"])

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self._client.post(self._base_url + path, json=body)
        response.raise_for_status()
        reply: dict[str, Any] = response.json()
        return reply

    def close(self) -> None:
        self._client.close()


def _replay(
    ledger: TokenLedger,
    system: Message,
    files: list[tuple[Message, int]],
    reported_system: int,
    tools: Sequence[Mapping[str, Any]],
) -> tuple[float, list[float], int]:
    """Each file appended to the growing request as a job appends a tool result: the ledger measures the request,
    then observes the server's count of it. Returns the first request's relative error (counted before any reply),
    each file's, and the false truncation alarms."""
    messages = [system]
    measured = ledger.measure(messages, tools)
    first = (measured.tokens - reported_system) / reported_system
    ledger.observe(messages, tools, measured, reported_system)
    total, errors, alarms = reported_system, [], 0
    for message, true_delta in files:
        messages.append(message)
        measured = ledger.measure(messages, tools)
        errors.append((measured.tokens - total - true_delta) / true_delta)
        total += true_delta
        seen = ledger.observe(messages, tools, measured, total)
        alarms += seen is not None and seen.truncated
    return first, errors, alarms


def _stats(errors: list[float], prefix: str) -> dict[str, float]:
    """Median and p95 of |error|, the worst under-estimate and the median signed error, all as fractions."""
    sizes = sorted(abs(e) for e in errors)
    p95 = sizes[min(len(sizes) - 1, math.ceil(0.95 * len(sizes)) - 1)]
    return {
        f"{prefix}_median_abs": statistics.median(sizes),
        f"{prefix}_p95_abs": p95,
        f"{prefix}_worst_under": min(0.0, min(errors)),
        f"{prefix}_median_signed": statistics.median(errors),
    }


def _baseline(files: list[tuple[Message, int]], estimate: Callable[[str], float]) -> list[float]:
    """A per-message estimator's errors on the same deltas; the template's tokens count in both, as in pedro."""
    return [(estimate(m.content) + MESSAGE_OVERHEAD - true) / true for m, true in files]


def run(server: ManagedLlamaServer) -> dict[str, Any]:
    """Estimate and exact modes of TokenLedger, chars/4 and the uncalibrated estimate, against the server's counts."""
    role = get_role("reviewer")
    # The system prompt of the job bench_cache runs: SmolLM2 in a small window gets the short tool descriptions.
    tools = ToolRegistry.default(role.tools).specs(short=True)
    paths = corpus()
    truth = _Truth(server.base_url)
    backend = LlamaCppBackend(Connection(server.base_url), server.model_alias)
    try:
        # As in a job: the tool list counts only when the request carries it natively (not in text mode), and the
        # system prompt describes the tools only in text mode.
        native = backend.sends_tools(GenerationOptions())
        in_prompt = tools if native else []
        system = Message("system", build_system_prompt(role, tools, repo_name="pedro", native=native))
        reported_system = truth.prompt_tokens([system])
        files: list[tuple[Message, int]] = []
        overheads: list[int] = []
        for path in paths:
            message = Message("user", path.read_text(encoding="utf-8", errors="replace"))
            # The true delta is what appending this message adds to the request the server evaluates, taken from
            # two whole chat-template renderings: the file's own tokens plus its role markers, which pedro counts
            # as MESSAGE_OVERHEAD, and any merge at the message's edges. Measured, not assumed: the difference
            # from /tokenize of the bare text is kept as template_tokens_per_message (ChatML: always 5, equal to
            # MESSAGE_OVERHEAD). ChatML closes every message with a special token, so the delta is the same
            # wherever in the conversation the message is appended.
            delta = truth.prompt_tokens([system, message]) - reported_system
            files.append((message, delta))
            overheads.append(delta - truth.text_tokens(message.content))
        first, estimated, alarms = _replay(TokenLedger(), system, files, reported_system, in_prompt)
        exact_first, exact, exact_alarms = _replay(
            TokenLedger(backend.count_tokens), system, files, reported_system, in_prompt
        )
    finally:
        backend.close()
        truth.close()
    return {
        "files": len(files),
        "true_tokens": sum(true for _, true in files),
        "bytes": sum(len(m.content.encode()) for m, _ in files),
        "template_tokens_per_message": [min(overheads), max(overheads)],
        "message_overhead": MESSAGE_OVERHEAD,
        **_stats(estimated, "ledger"),
        "ledger_worst_under_file": paths[estimated.index(min(estimated))].relative_to(ROOT).as_posix(),
        "ledger_false_truncation_alarms": alarms,
        "ledger_first_request_error": first,
        **_stats(exact, "exact"),
        "exact_false_truncation_alarms": exact_alarms,
        "exact_first_request_error": exact_first,
        **_stats(_baseline(files, lambda text: len(text) / 4), "chars4"),
        **_stats(_baseline(files, estimate_tokens), "uncalibrated"),
    }


if __name__ == "__main__":
    import bench_cache

    reason = bench_cache.missing()
    if reason is not None:
        print(json.dumps({"skipped": reason}))
    else:
        with bench_cache.serve() as running:
            print(json.dumps(run(running), indent=2))

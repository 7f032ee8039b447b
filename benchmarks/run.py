"""make bench: every performance measurement in one run, as ratios against baselines measured in the same run."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_extract  # noqa: E402
import bench_search  # noqa: E402


def _median_seconds(argv: list[str], runs: int = 15) -> float:
    # As installed, Python caches bytecode; a PYTHONDONTWRITEBYTECODE environment would time the compiler instead.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(argv, capture_output=True, check=True, env=env)  # warm the bytecode cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=True, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_startup() -> dict[str, float]:
    """`pedro --version` and `--help` against a bare interpreter start, interleaved in one run."""
    bare = _median_seconds([sys.executable, "-c", "pass"])
    version = _median_seconds([sys.executable, "-m", "pedro", "--version"])
    helptext = _median_seconds([sys.executable, "-m", "pedro", "--help"])
    return {
        "python_pass_s": bare,
        "version_s": version,
        "help_s": helptext,
        "version_ratio": version / bare,
        "help_ratio": helptext / bare,
    }


def bench_round_overhead(rounds: int = 40) -> dict[str, float]:
    """Harness time per round with a scripted model: wall time minus tool time, and the history size it carried."""
    from pedro.agent import Limits, run_agent
    from pedro.backends.base import GenerationOptions
    from pedro.backends.scripted import ScriptedBackend
    from pedro.dispatch import Dispatcher
    from pedro.messages import Event, Message
    from pedro.roles import get_role
    from pedro.tools import ToolRegistry
    from pedro.tools.base import ToolContext

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        (root / "data.txt").write_text("".join(f"line {n} of some sample text\n" for n in range(300)))
        reply = '```file\n{"action": "read", "path": "data.txt"}\n```'
        tool_ms: list[int] = []
        history_bytes: list[int] = []

        def model(messages: list[Message], _tools: list[dict[str, Any]]) -> str:
            history_bytes.append(sum(len(m.content) for m in messages))
            return reply

        def on_event(event: Event) -> None:
            if event.type == "tool_call.finished":
                tool_ms.append(int(event.data["duration_ms"]))

        role = get_role("reviewer")
        dispatcher = Dispatcher(ToolRegistry.default(role.tools), ToolContext(root=root, read_only=True))
        start = time.perf_counter()
        run_agent(
            "read the data",
            role=role,
            backend=ScriptedBackend(model),
            dispatcher=dispatcher,
            limits=Limits(max_rounds=rounds, max_idle_replies=3),
            options=GenerationOptions(),
            on_event=on_event,
        )
        wall_ms = (time.perf_counter() - start) * 1000
    overhead = (wall_ms - sum(tool_ms)) / rounds
    mean_kb = statistics.mean(history_bytes) / 1000
    budget = 10 + mean_kb / 10
    return {
        "rounds": rounds,
        "overhead_ms_per_round": overhead,
        "mean_history_kb": mean_kb,
        "budget_ms_per_round": budget,
        "overhead_vs_budget": overhead / budget,
    }


def main() -> None:
    results: dict[str, Any] = {
        "startup": bench_startup(),
        "round": bench_round_overhead(),
        "extraction": bench_extract.run(),
        "search": bench_search.run(),
    }
    rows = [
        ("pedro --version ÷ python -c pass", results["startup"]["version_ratio"], "≤ 2.5"),
        ("pedro --help ÷ python -c pass", results["startup"]["help_ratio"], "≤ 4"),
        ("harness overhead ÷ (10 ms + 1 ms/10 kB)", results["round"]["overhead_vs_budget"], "≤ 1"),
    ]
    extraction = results["extraction"]
    for label, target in (("4kb", "< 1 ms"), ("1mb", "< 50 ms")):
        ms = extraction[f"extract_{label}_ms"]
        ratio = ms / extraction[f"json_loads_{label}_ms"]
        rows.append((f"extract {label} ÷ json.loads ({ms:.2f} ms)", ratio, target))
    search = results["search"]
    for label in ("selective", "common"):
        rows.append((f"search grep ({label}) ÷ raw rg -n, same files", search[f"grep_{label}_ratio"], "≤ 1.2"))
    rows.append(("find_files ÷ raw rg --files, same files", search["find_files_ratio"], "≤ 1.2"))
    width = max(len(r[0]) for r in rows)
    print(f"{'measurement':<{width}}  {'ratio':>8}  target")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:8.2f}  {target}")
    out = HERE / "results" / time.strftime("bench-%Y%m%d-%H%M%S.json")
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"saved {out.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()

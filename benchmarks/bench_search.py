"""Time the search and navigate tools on a copy of the Python standard library, against raw ripgrep in the same run."""

from __future__ import annotations

import json
import resource
import shutil
import statistics
import subprocess
import sysconfig
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from pedro.tools.base import ToolContext
from pedro.tools.census import forget_censuses
from pedro.tools.navigate import outline
from pedro.tools.ripgrep import base_argv, find_rg
from pedro.tools.search import GrepQuery, find_definition, find_files, grep
from pedro.tools.symbols import clear_symbol_cache

# Rounds per comparison: each round runs the tool and its baselines back to back, and the best round counts,
# so a burst of load on the machine hits both sides alike instead of one.
ROUNDS = 31
OUTLINE_FILES = 300
GREP_PATTERNS = (("selective", r"def __init_subclass__"), ("init", r"def __init__"), ("common", r"self"))
FIND_FILES_GLOB = "**/*.py"
# Longer than a tree must have been still for search to remember what it found in it.
SETTLE_SECONDS = 2.5


def _best_interleaved(candidates: dict[str, Callable[[], object]], rounds: int = ROUNDS) -> dict[str, float]:
    """The fastest of `rounds` runs of each candidate, in seconds, the candidates taking turns every round."""
    return _interleaved(candidates, rounds)[0]


def _interleaved(
    candidates: dict[str, Callable[[], object]], rounds: int = ROUNDS
) -> tuple[dict[str, float], dict[str, float]]:
    """Per candidate, the fastest wall time and the median CPU time (pedro's and its children's) of `rounds` runs.

    CPU time barely moves with the machine's load, where the fastest wall time of a shared machine can swing by
    a third between runs, so the two together say what a change did.
    """
    best = dict.fromkeys(candidates, float("inf"))
    cpu: dict[str, list[float]] = {name: [] for name in candidates}
    for _ in range(rounds):
        for name, fn in candidates.items():
            before = _cpu_seconds()
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
            cpu[name].append(_cpu_seconds() - before)
    return best, {name: statistics.median(samples) for name, samples in cpu.items()}


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _make_tree(base: Path) -> Path:
    root = base / "stdlib"
    source = Path(sysconfig.get_paths()["stdlib"])
    shutil.copytree(source, root, ignore=shutil.ignore_patterns("site-packages", "__pycache__", "*.pyc"))
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".gitignore").write_text("test/\n")
    # A tree fresh from the copy is one a search cannot remember (census._SETTLE_NS); searches run between edits.
    time.sleep(SETTLE_SECONDS)
    return root


def _raw(root: Path, argv: list[str]) -> Callable[[], object]:
    return lambda: subprocess.run(argv, cwd=root, capture_output=True, check=False)


def _compare_grep(ctx: ToolContext, root: Path) -> dict[str, float]:
    results: dict[str, float] = {}
    rg = find_rg()
    # Two baselines: plain `rg -n PATTERN`, what a person would type, and the fair one, which prints the same
    # rows from the same files: pedro's file selection (hidden files, no .git) with ripgrep's plain
    # `path:line:text` output. `rg --json` is kept for comparison with earlier runs.
    selection = base_argv(ctx)
    for label, pattern in GREP_PATTERNS:
        best, cpu = _interleaved(
            {
                "tool": partial(grep, ctx, GrepQuery(pattern, limit=100), root),
                "rg_fair": _raw(root, [*selection, "-n", "-e", pattern, "--", "."]),
                "rg_plain": _raw(root, [rg, "--no-config", "-n", "-e", pattern, "--", "."]),
                "rg_json": _raw(root, [rg, "--no-config", "--hidden", "--json", "-e", pattern, "--", "."]),
            }
        )
        for name, seconds in best.items():
            results[f"grep_{label}_{name}_s"] = seconds
        results[f"grep_{label}_ratio"] = best["tool"] / best["rg_fair"]
        results[f"grep_{label}_plain_ratio"] = best["tool"] / best["rg_plain"]
        results[f"grep_{label}_plain_cpu_ratio"] = cpu["tool"] / cpu["rg_plain"]
        # With nothing remembered of the tree: a grep with no filters counts the secret files it leaves out from
        # its own walk (pedro.tools.census reads ripgrep's log), so its first search costs what the others do.
        first = _best_interleaved(
            {
                "tool_first": partial(_first_grep, ctx, pattern, root),
                "rg_plain": _raw(root, [rg, "--no-config", "-n", "-e", pattern, "--", "."]),
            }
        )
        results[f"grep_{label}_first_s"] = first["tool_first"]
        results[f"grep_{label}_first_plain_ratio"] = first["tool_first"] / first["rg_plain"]
    return results


def _first_grep(ctx: ToolContext, pattern: str, root: Path) -> object:
    forget_censuses()
    return grep(ctx, GrepQuery(pattern, limit=100), root)


def _compare_find_files(ctx: ToolContext, root: Path) -> dict[str, float]:
    rg = find_rg()
    best = _best_interleaved(
        {
            "tool": partial(find_files, ctx, FIND_FILES_GLOB, root, limit=100),
            "rg_fair": _raw(root, [*base_argv(ctx, globs=[FIND_FILES_GLOB]), "--files", "--", "."]),
            "rg_plain": _raw(root, [rg, "--no-config", "--files", f"--glob={FIND_FILES_GLOB}", "--", "."]),
        }
    )
    return {
        "find_files_tool_s": best["tool"],
        "find_files_rg_s": best["rg_fair"],
        "find_files_rg_plain_s": best["rg_plain"],
        "find_files_ratio": best["tool"] / best["rg_fair"],
    }


def _time_definitions(ctx: ToolContext, root: Path) -> dict[str, float]:
    results: dict[str, float] = {}
    for name in ("OrderedDict", "TestCase", "Path.resolve"):
        # First call: every candidate file parsed; again: symbols remembered by the text's digest.
        clear_symbol_cache()
        start = time.perf_counter()
        find_definition(ctx, name, root, limit=100)
        results[f"find_definition_{name}_first_s"] = time.perf_counter() - start
        best = _best_interleaved({"again": partial(find_definition, ctx, name, root, limit=100)}, rounds=3)
        results[f"find_definition_{name}_s"] = best["again"]
    return results


def _time_outline(ctx: ToolContext, root: Path) -> dict[str, float]:
    sample = sorted(root.rglob("*.py"), key=lambda p: p.stat().st_size, reverse=True)[:OUTLINE_FILES]
    lines = sum(p.read_bytes().count(b"\n") for p in sample)
    clear_symbol_cache()
    start = time.perf_counter()
    for path in sample:
        outline(ctx, path)
    elapsed = time.perf_counter() - start
    return {"outline_files_per_s": len(sample) / elapsed, "outline_lines_per_s": lines / elapsed}


def run() -> dict[str, float]:
    """Seconds per operation (lower is better), ratios against raw ripgrep (≤ 1.2 is the target) and throughputs."""
    with tempfile.TemporaryDirectory() as tmp:
        root = _make_tree(Path(tmp))
        ctx = ToolContext(root=root)
        results: dict[str, float] = {"searched_files": float(len(find_files(ctx, "*", root, limit=10**6).splitlines()))}
        results |= _compare_grep(ctx, root)
        results |= _compare_find_files(ctx, root)
        results |= _time_definitions(ctx, root)
        results |= _time_outline(ctx, root)
        return results


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))

"""Time the search and navigate tools on a copy of the Python standard library, against raw ripgrep in the same run."""

from __future__ import annotations

import json
import shutil
import subprocess
import sysconfig
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from pedro.tools.base import ToolContext
from pedro.tools.navigate import outline
from pedro.tools.ripgrep import find_rg
from pedro.tools.search import find_definition, find_files, grep

REPEATS = 3
OUTLINE_FILES = 300


def _best(fn: Callable[[], object], repeats: int = REPEATS) -> float:
    """The fastest of several runs, in seconds: the least disturbed by the rest of the machine."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def _make_tree(base: Path) -> Path:
    root = base / "stdlib"
    source = Path(sysconfig.get_paths()["stdlib"])
    shutil.copytree(source, root, ignore=shutil.ignore_patterns("site-packages", "__pycache__", "*.pyc"))
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".gitignore").write_text("test/\n")
    return root


def _raw_rg(root: Path, *args: str) -> Callable[[], object]:
    argv = [find_rg(), "--no-config", *args]
    return lambda: subprocess.run(argv, cwd=root, capture_output=True, check=False)


def run() -> dict[str, float]:
    """Seconds per operation (lower is better) and throughputs (higher is better) on the copied stdlib."""
    with tempfile.TemporaryDirectory() as tmp:
        root = _make_tree(Path(tmp))
        ctx = ToolContext(root=root)
        py_files = sorted(root.rglob("*.py"), key=lambda p: p.stat().st_size, reverse=True)
        results: dict[str, float] = {"searched_files": float(len(find_files(ctx, "*", root, limit=10**6).splitlines()))}

        for label, pattern in (("selective", r"def __init_subclass__"), ("common", r"self")):
            results[f"grep_{label}_tool_s"] = _best(partial(grep, ctx, pattern, root, limit=100))
            results[f"grep_{label}_rg_json_s"] = _best(_raw_rg(root, "--hidden", "--json", "-e", pattern, "--", "."))
            results[f"grep_{label}_rg_plain_s"] = _best(_raw_rg(root, "-n", "-e", pattern, "--", "."))
            results[f"grep_{label}_rg_sorted_s"] = _best(_raw_rg(root, "-n", "--sort=path", "-e", pattern, "--", "."))

        results["find_files_tool_s"] = _best(lambda: find_files(ctx, "**/*.py", root, limit=100))
        results["find_files_rg_s"] = _best(_raw_rg(root, "--files", "--glob=**/*.py", "--", "."))

        for name in ("OrderedDict", "TestCase", "Path.resolve"):
            results[f"find_definition_{name}_s"] = _best(partial(find_definition, ctx, name, root, limit=100))

        sample = py_files[:OUTLINE_FILES]
        lines = sum(p.read_bytes().count(b"\n") for p in sample)
        elapsed = _best(lambda: [outline(ctx, p) for p in sample], repeats=1)
        results["outline_files_per_s"] = len(sample) / elapsed
        results["outline_lines_per_s"] = lines / elapsed
        return results


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))

"""A job's fixed cost on a 100,000-file tree against the same on a 10-file one, as ratios to ripgrep's own listing
and grep of the big tree, measured in the same run."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pedro.safety.secretlisting import forget_secret_listings, repo_secret_files
from pedro.tools.ripgrep import find_rg

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from stub_server import StubServer  # noqa: E402

FILES = 100_000
PACKAGES, MODULES = 50, 20
"""The big tree: PACKAGES × MODULES folders of FILES / (PACKAGES × MODULES) small Python files, with secret files at
several depths (an ignored .env among them)."""
RUNS = 5
FIXED_COST_GOAL = 1.5
"""A job's (or a one-shot tool's) extra time on the big tree, at most this many times `rg --files` of it."""
SEARCH_GOAL = 1.2
SECRETS_AGAIN_GOAL = 0.1
"""The secret-file list asked again on a still tree (every sandboxed command after a job's second), at most this
many times `rg --files` of it."""
READ = {"action": "read", "path": "pkg0/mod0/f0.py"}
SEARCH = {"pattern": "return x \\+ 99$"}


def build_tree(root: Path, files: int) -> Path:
    """A committed git repository of `files` small Python files (10 files: one folder)."""
    per_folder = max(files // (PACKAGES * MODULES), 1)
    folders = [root / f"pkg{a}" / f"mod{b}" for a in range(PACKAGES) for b in range(MODULES)] if files > 10 else []
    folders = folders or [root / "pkg0" / "mod0"]
    count = files if files <= 10 else per_folder
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        for c in range(count):
            (folder / f"f{c}.py").write_text(f"def f{c}(x):\n    return x + {c}\n")
    (root / "pkg0" / ".env").write_text("API_TOKEN=abcdefghijklmnopqrstuvwxyz\n")
    (root / "pkg0" / "mod0" / "deploy.pem").write_text("-----BEGIN KEY-----\n")
    (root / ".gitignore").write_text(".env\n")
    # Committed, as a real repository is: git then reads its index rather than hashing every file as new.
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com"]
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "tree"]):
        subprocess.run([*git, *args], cwd=root, check=True)
    return root


def _median(fn: Callable[[], object], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _pedro(root: Path, *args: str) -> Callable[[], object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PEDRO_")}
    return lambda: subprocess.run(
        [sys.executable, "-m", "pedro", *args], cwd=root, env=env, capture_output=True, check=True
    )


def _first_request_s(root: Path, env: dict[str, str]) -> float:
    """Seconds from starting `pedro build` to its first chat request reaching the server."""
    arrived: list[float] = []
    server = StubServer(["Nothing to do here."], on_request=lambda _n: arrived.append(time.perf_counter())).start()
    try:
        command = [sys.executable, "-m", "pedro", "build", "-d", "Say hello", "--backend", "openai"]
        command += ["--base-url", f"{server.url}/v1", "--model", "m", "--no-input", "--max-rounds", "1"]
        start = time.perf_counter()
        subprocess.run(command, cwd=root, env=env, capture_output=True, timeout=300, check=False)
        if not arrived:
            raise RuntimeError("pedro build sent no chat request")
        return arrived[0] - start
    finally:
        server.stop()


def _mcp_first_request_s(root: Path, env: dict[str, str]) -> float:
    """Seconds from an MCP client's `tools/call` of build (to a `pedro mcp` already initialised over stdio) to the
    job's first chat request reaching the server: what an MCP call costs before the model is asked."""
    arrived: list[float] = []
    server = StubServer(["Nothing to do here."], on_request=lambda _n: arrived.append(time.perf_counter())).start()
    command = [sys.executable, "-m", "pedro", "mcp", "--backend", "openai", "--base-url", f"{server.url}/v1"]
    proc = subprocess.Popen(  # noqa: S603 (the benchmark's own command)
        [*command, "--model", "m", "--max-rounds", "1"], cwd=root, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
        _rpc(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}, answer=1)
        _rpc(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"}, answer=None)
        start = time.perf_counter()
        call = {"name": "build", "arguments": {"description": "Say hello"}}
        _rpc(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}, answer=2)
        if not arrived:
            raise RuntimeError("pedro mcp's build sent no chat request")
        return arrived[0] - start
    finally:
        proc.kill()
        proc.wait()
        server.stop()


def _rpc(proc: subprocess.Popen[str], message: dict[str, Any], *, answer: int | None) -> None:
    """Send one JSON-RPC message over stdio; with `answer`, read until the reply of that id."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()
    while answer is not None:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("pedro mcp ended before it answered")
        if json.loads(line).get("id") == answer:
            return


def _secret_listings(root: Path) -> dict[str, float]:
    """The secret-file list of a tree asked for the first time (ripgrep's listing), the second (its folder index
    built) and after (a stat per folder), as the sandbox asks before each command."""
    timed = {}
    for _ in range(RUNS):
        forget_secret_listings()
        for asked in ("first", "second"):
            start = time.perf_counter()
            repo_secret_files(root)
            timed.setdefault(asked, []).append(time.perf_counter() - start)
    later = _median(lambda: repo_secret_files(root), runs=3 * RUNS)
    return {f"secrets_{asked}": statistics.median(values) for asked, values in timed.items()} | {"secrets_later": later}


def run() -> dict[str, Any]:
    rg = find_rg()
    with tempfile.TemporaryDirectory(prefix="pedro-scale-") as folder:
        big = build_tree(Path(folder) / "big", FILES)
        small = build_tree(Path(folder) / "small", 10)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PEDRO_")}
        env["XDG_CONFIG_HOME"] = str(Path(folder) / "config")
        env["XDG_DATA_HOME"] = str(Path(folder) / "data")
        listed = subprocess.run([rg, "--files"], cwd=big, capture_output=True, check=True)
        times = {
            "rg_files": _median(lambda: subprocess.run([rg, "--files"], cwd=big, capture_output=True, check=True)),
            "rg_grep": _median(
                lambda: subprocess.run([rg, "-n", SEARCH["pattern"]], cwd=big, capture_output=True, check=False)
            ),
            "version": _median(_pedro(small, "--version")),
        }
        for name, tree in (("big", big), ("small", small)):
            times[f"read_{name}"] = _median(_pedro(tree, "tools", "run", "file", json.dumps(READ)))
            times[f"search_{name}"] = _median(_pedro(tree, "tools", "run", "search", json.dumps(SEARCH)))
            times[f"first_request_{name}"] = statistics.median(_first_request_s(tree, env) for _ in range(3))
            times[f"mcp_request_{name}"] = statistics.median(_mcp_first_request_s(tree, env) for _ in range(3))
            shutil.rmtree(tree / ".pedro", ignore_errors=True)
        times.update(_secret_listings(big))
    return {"files": len(listed.stdout.splitlines()), **{k: round(v, 4) for k, v in times.items()}}


def rows(timed: dict[str, Any]) -> list[tuple[str, float, str, bool | None]]:
    """(label, value, goal, met) for make bench: each extra cost of the big tree against ripgrep's own pass."""
    files, rg_files, rg_grep = timed["files"], timed["rg_files"], timed["rg_grep"]
    read = (timed["read_big"] - timed["read_small"]) / rg_files
    job = (timed["first_request_big"] - timed["first_request_small"]) / rg_files
    mcp = (timed["mcp_request_big"] - timed["mcp_request_small"]) / rg_files
    search = (timed["search_big"] - timed["search_small"]) / rg_grep
    goal = f"≤ {FIXED_COST_GOAL:g}"
    again = timed["secrets_later"] / rg_files
    again_met = again <= SECRETS_AGAIN_GOAL
    return [
        (f"{files} files: tools run file read, extra s ÷ rg --files", read, goal, read <= FIXED_COST_GOAL),
        (f"{files} files: job's first request, extra s ÷ rg --files", job, goal, job <= FIXED_COST_GOAL),
        (f"{files} files: MCP build's first request, extra s ÷ rg --files", mcp, goal, mcp <= FIXED_COST_GOAL),
        (f"{files} files: tools run search, extra s ÷ rg -n", search, f"≤ {SEARCH_GOAL:g}", search <= SEARCH_GOAL),
        (f"{files} files: secret files asked again, s ÷ rg --files", again, f"≤ {SECRETS_AGAIN_GOAL:g}", again_met),
        (f"{files} files: secret files asked first, s ÷ rg --files", timed["secrets_first"] / rg_files, "", None),
        (f"{files} files: secret files asked second, s ÷ rg --files", timed["secrets_second"] / rg_files, "", None),
        (f"{files} files: rg --files, s", rg_files, "(for comparison)", None),
        (
            f"{files} files: job's first request, s (10 files: {timed['first_request_small']:.2f})",
            timed["first_request_big"],
            "(for comparison)",
            None,
        ),  # fmt: skip
    ]


if __name__ == "__main__":
    result = run()
    print(json.dumps(result, indent=2))
    for label, value, goal, met in rows(result):
        print(f"{label:<60} {value:8.2f}  {goal}  {'' if met is None else ('ok' if met else 'MISSED')}")

"""The product on a real tiny model: SmolLM2-135M fixes the demo's bug through test-driven repair."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro_crashed
from repo_util import PYTEST

from pedro.backends.managed import find_llama_server

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
TESTS = PYTEST


def read_events(job_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (job_dir / "events.jsonl").read_text(encoding="utf-8").splitlines() if line]


def kept_fix(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The candidate that fixed the tests and stayed: the one repair chose among the plausible ones."""
    candidates = {e["n"]: e for e in events if e["type"] == "repair.candidate"}
    chosen = [e for e in events if e["type"] == "repair.chosen"]
    if chosen:
        return candidates[chosen[-1]["n"]]
    return next(c for c in candidates.values() if c["status"] == "fixed")


def answer_of(events: list[dict[str, Any]], candidate: dict[str, Any]) -> str:
    """The model's answer the candidate was read from (the model writes in a thread of its own, so its answers and
    the candidates interleave; each carries the answer's number)."""
    return next(e["text"] for e in events if e["type"] == "model.completed" and e.get("answer") == candidate["answer"])


def git_repo(source: Path, dest: Path) -> Path:
    shutil.copytree(source, dest)
    git = ["git", "-c", "user.email=e2e@example.com", "-c", "user.name=e2e"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=dest, check=True)
    subprocess.run([*git, "add", "-A"], cwd=dest, check=True)
    subprocess.run([*git, "commit", "-qm", "sample project"], cwd=dest, check=True)
    return dest


def debug(repo: Path, model: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    binary = find_llama_server()
    if binary is None:
        pytest.skip("llama-server is not installed; run scripts/install-llama-server")
    # pytest writes fuller assertion diffs when CI or BUILD_NUMBER is set; the repair prompts would then differ from
    # a local run's, and with them a small model's answers. Without them every run asks the same questions.
    env = {
        **{key: value for key, value in os.environ.items() if key not in ("CI", "BUILD_NUMBER")},
        "PATH": f"{binary.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "PEDRO_BACKEND__CONTEXT_WINDOW": "4096",
    }
    command = [sys.executable, "-m", "pedro", "debug", "--test", TESTS, "--model-file", str(model)]
    command += ["--no-input", "--json", "--max-rounds", "1", *extra]
    return subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=600)


def repaired(repo: Path, model: Path, description: str) -> list[dict[str, Any]]:
    """Run `pedro debug` on the repository; it must end cleanly with the tests passing when run again from outside.
    The job's events."""
    run = debug(repo, model, "--description", description)
    assert not pedro_crashed(run.stderr), run.stderr[-3000:]
    assert run.returncode == 0, run.stderr[-3000:]
    check = subprocess.run(TESTS.split(), cwd=repo, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout
    return read_events(next((repo / ".pedro" / "jobs").iterdir()))


def test_smollm2_fixes_the_demo_bug_and_the_record_shows_how(smollm2_gguf: Path, tmp_path: Path) -> None:
    repo = git_repo(ROOT / "examples" / "calc", tmp_path / "calc")
    events = repaired(repo, smollm2_gguf, "add() returns the wrong result")
    assert "return a + b" in (repo / "calc.py").read_text()
    runs = [e for e in events if e["type"] == "tests.run"]
    assert runs[0]["phase"] == "baseline" and not runs[0]["passed"]
    assert runs[0]["failing"] == ["test_calc.py::test_add"]
    fix = kept_fix(events)
    assert fix["status"] == "fixed" and fix["unit"] == "calc.py:4 add"
    # No variant fixes `return a` (pedro tries them while the model writes): the model's answer does.
    tried = [e for e in events if e["type"] == "repair.candidate"]
    assert any(c["question"] == "mutation" and c["status"] == "fails" for c in tried)
    assert fix["question"] in ("function", "line") and "return a + b" in answer_of(events, fix)
    # Its failing test first, then every test, then the whole command once as the final check.
    assert [(run.get("scope"), run["passed"]) for run in runs if run.get("candidate") == fix["n"]] == [
        ("failing", True),
        ("all", True),
    ]
    assert runs[-1].get("final") and runs[-1]["passed"]
    answers = [e for e in events if e["type"] == "model.completed"]
    assert answers and all(e["purpose"] == "repair" and e["usage"]["completion_tokens"] > 0 for e in answers)
    finished = events[-1]
    assert (finished["type"], finished["exit_status"], finished["reason"]) == ("job.finished", "completed", "repaired")


SCORES = {
    "stats.py": (
        "def summarize(scores):\n"
        '    """The lowest, highest and mean score of a non-empty list."""\n'
        "    if not scores:\n"
        '        raise ValueError("no scores")\n'
        "    lowest = min(scores)\n"
        "    highest = max(scores)\n"
        "    mean = sum(scores)\n"
        '    return {"min": lowest, "max": highest, "mean": mean}\n'
    ),
    "test_stats.py": (
        "import pytest\n\nfrom stats import summarize\n\n\n"
        "def test_summary_of_three_scores():\n"
        '    assert summarize([1, 2, 6]) == {"min": 1, "max": 6, "mean": 3}\n\n\n'
        "def test_no_scores():\n"
        "    with pytest.raises(ValueError):\n"
        "        summarize([])\n"
    ),
}


def test_smollm2_fixes_a_wrong_mean_with_a_one_line_answer(smollm2_gguf: Path, tmp_path: Path) -> None:
    # The mean forgets to divide: no variant fixes that; one of SmolLM2's answers (the function, or the single line
    # that builds the result) divides by len(scores).
    source = tmp_path / "scores-source"
    source.mkdir()
    for name, text in SCORES.items():
        (source / name).write_text(text)
    repo = git_repo(source, tmp_path / "scores")
    events = repaired(repo, smollm2_gguf, "summarize() reports the wrong mean")
    fix = kept_fix(events)
    assert fix["status"] == "fixed" and fix["unit"] == "stats.py:1 summarize", fix
    assert fix["question"] in ("line", "function")
    assert "answer" in fix, fix  # a model answer: no variant divides by the length
    # The fix is the mean, not the test's numbers: it holds for lists the test never tried.
    held_out = "from stats import summarize; assert summarize([2, 4])['mean'] == 3 and summarize([5])['mean'] == 5"
    assert subprocess.run([sys.executable, "-c", held_out], cwd=repo, timeout=60).returncode == 0


def test_gemma_fixes_the_demo_bug_once_pedro_opens_its_answer(gemma3_gguf: Path, tmp_path: Path) -> None:
    # Asked the bare question, Gemma-3-270M echoes it back; given the opening `def add` it writes the fix.
    repo = git_repo(ROOT / "examples" / "calc", tmp_path / "calc")
    events = repaired(repo, gemma3_gguf, "add() returns the wrong result")
    fix = kept_fix(events)
    assert fix["status"] == "fixed" and fix["question"] in ("function", "line"), fix
    assert answer_of(events, fix).startswith("```python\ndef add(")

"""pedro review runs the project's own checks before any model: the tests at the base and on the change, the linters
the repository configures on changed lines; the model's findings are held to the change. Real process, real repos."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro
from repo_util import git, review_change

NO_MODEL_SAID = "no model was asked"


@pytest.fixture
def change(tmp_path: Path) -> Path:
    return review_change(tmp_path)


@pytest.fixture
def env(cli_env: dict[str, str]) -> dict[str, str]:
    """pytest on PATH, as on a developer's machine (it is installed beside the Python running these tests)."""
    return {**cli_env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{cli_env.get('PATH', '')}"}


def _untouched(repo: Path) -> None:
    """The checkout is where it was: the branch, no tracked change, no worktree left behind."""
    assert git(repo, "branch", "--show-current").strip() == "feature"
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""
    assert len(git(repo, "worktree", "list").splitlines()) == 1


def test_review_without_a_model_lists_the_broken_test_and_linter_messages_on_changed_lines(
    change: Path, env: dict[str, str]
) -> None:
    proc = pedro("review", "--no-model", "--base", "main", env=env, cwd=change, stdin="")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.count(NO_MODEL_SAID) == 1
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(
        "1. **major** `test_calc.py:5` — test_calc.py::test_add passes at the base and fails on the change: "
    )
    assert lines[0].endswith("_(test_calc.py::test_add)_")
    assert lines[1] == "2. **minor** `calc.py:10` — Comparison to `None` should be `cond is None` _(ruff E711)_"
    assert lines[2].startswith("3. **major** `typed.py:2` — Incompatible return value type")
    assert lines[2].endswith("_(mypy return-value)_")
    assert len(lines) == 3  # calc.py:6 has the same message, on a line the change does not touch
    assert "ruff: 1 message on changed lines (1 on lines the change does not touch, left out)" in proc.stderr
    if shutil.which("eslint", path=env["PATH"]) is None:
        assert "configures eslint, which is not installed: skipped" in proc.stderr
    _untouched(change)


def test_review_without_a_model_server_gives_the_checks_findings_as_json(change: Path, env: dict[str, str]) -> None:
    # No --model, no backend configured anywhere: the checks still run and say that no model was asked.
    proc = pedro("review", "--base", "main", "--json", env=env, cwd=change, stdin="")
    assert proc.returncode == 0, proc.stderr
    assert NO_MODEL_SAID in proc.stderr and "no model is configured" in proc.stderr
    finished = json.loads(proc.stdout.strip())
    assert finished["type"] == "job.finished" and finished["exit_status"] == "no_model"
    found = [(f["origin"], f["source"], f["path"], f["line"], f["anchored"]) for f in finished["findings"]]
    assert found == [
        ("tool", "test_calc.py::test_add", "test_calc.py", 5, True),
        ("tool", "ruff E711", "calc.py", 10, True),
        ("tool", "mypy return-value", "typed.py", 2, True),
    ]
    assert finished["findings"][0]["test"] == "test_calc.py::test_add"
    _untouched(change)


MODEL_REVIEW = (
    "TASK COMPLETE\n"
    "- [major] calc.py:99 — the loop runs past the end\n"
    "- [minor] calc.py:10 — use `is None`\n"
    "- [major] calc.py:2 — add() subtracts; return a + b\n"
)


def test_the_models_findings_follow_the_checks_held_to_the_change(
    change: Path, env: dict[str, str], stub_server: Any
) -> None:
    server = stub_server([MODEL_REVIEW])
    args = ["review", "--base", "main", "--backend", "openai", "--base-url", f"{server.url}/v1", "--model", "m"]
    proc = pedro(*args, "--json", env=env, cwd=change, stdin="")
    assert proc.returncode == 0, proc.stderr
    finished = json.loads(proc.stdout.splitlines()[-1])
    found = [(f["number"], f["origin"], f["source"], f"{f['path']}:{f['line']}",
              f["anchored"], f["note"]) for f in finished["findings"]]  # fmt: skip
    assert found == [
        (1, "tool", "test_calc.py::test_add", "test_calc.py:5", True, ""),
        (2, "tool", "ruff E711", "calc.py:10", True, ""),
        (3, "tool", "mypy return-value", "typed.py:2", True, ""),
        # The model's calc.py:10 is the ruff finding's place: one finding there, the check's.
        (4, "model", "model", "calc.py:99", False, "calc.py has no line 99; it has 10"),
        (5, "model", "model", "calc.py:2", True, ""),
    ]
    # The model read what the checks found, to build on rather than repeat.
    task = json.dumps(server.requests[0]["messages"])
    assert "ruff E711" in task and "test_calc.py::test_add passes at the base" in task
    _untouched(change)


def test_an_unanchored_model_finding_is_marked_in_the_printed_list(
    change: Path, env: dict[str, str], stub_server: Any
) -> None:
    server = stub_server([MODEL_REVIEW])
    args = ["review", "--base", "main", "--backend", "openai", "--base-url", f"{server.url}/v1", "--model", "m"]
    proc = pedro(*args, env=env, cwd=change, stdin="")
    assert proc.returncode == 0, proc.stderr
    assert (
        "4. **major** `calc.py:99` — the loop runs past the end _(model, not anchored: calc.py has no line 99; it has "
        "10)_" in proc.stdout
    )
    assert "5. **major** `calc.py:2` — add() subtracts; return a + b _(model)_" in proc.stdout
    assert "use `is None`" not in proc.stdout


@pytest.mark.skipif(shutil.which("go") is None, reason="go vet needs go")
def test_go_vet_reports_only_on_the_lines_the_change_adds(tmp_path: Path, env: dict[str, str]) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "dev@example.com")
    git(repo, "config", "user.name", "Dev")
    (repo / "go.mod").write_text("module example.com/m\n\ngo 1.21\n")
    wrong = 'func {name}(s string) string {{\n\treturn fmt.Sprintf("%d", s)\n}}\n'
    (repo / "m.go").write_text('package m\n\nimport "fmt"\n\n' + wrong.format(name="Old"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Old")
    git(repo, "switch", "-q", "-c", "feature")
    with (repo / "m.go").open("a") as source:
        source.write("\n" + wrong.format(name="New"))
    git(repo, "commit", "-q", "-am", "New")
    proc = pedro("review", "--no-model", "--base", "main", env=env, cwd=repo, stdin="")
    assert proc.returncode == 0, proc.stderr
    assert "`m.go:10` — fmt.Sprintf format %d has arg s of wrong type string _(go vet)_" in proc.stdout
    assert "m.go:6" not in proc.stdout
    _untouched(repo)


# SmolLM2-135M's two replies to the review of a branch whose checks found a broken test_add and a ruff E711 (make e2e,
# tests/e2e/test_review_real_model.py): the checks' list copied, labels and all, without the completion marker, each
# cut by the reply time limit in the middle of an item.
SMOLLM2_REPLIES = [
    "The changes are:\n\n1. **major** `test_calc.py:5` — test_calc.py::test_add passes at the base and fails on the "
    "change: assert -1 == 5 _(test_calc.py::test_add)_\n2. **minor** `calc.py:10` — comparison to `None` should be "
    "`cond is None` _(ruff E711)_\n\nThe changes are:\n\n1. **major** `test_calc.",
    "The changes are:\n\n1. **major** `test_calc.py:5` — test_calc.py::test_add passes at the base and fails on the "
    "change: assert -1 == 5 _(test_calc.py::test_add)_\n2. **minor** `calc.py:10` — comparison to `None` should be "
    "`cond is None` _(ruff E711)_\n\nThe changes are:\n\n1. **major** `test_calc.py:5` — test_calc.py::test_add "
    "passes at the",
]


def test_a_review_that_ends_without_the_marker_keeps_the_models_findings_as_the_models(
    branch_repo: Path, cli_env: dict[str, str], stub_server: Any
) -> None:
    # The checks find nothing here (no tests, no linter): what the model wrote is all there is, and it is the model's.
    server = stub_server(SMOLLM2_REPLIES)
    args = ["review", "--base", "main", "--backend", "openai", "--base-url", f"{server.url}/v1", "--model", "m"]
    proc = pedro(*args, "--max-rounds", "2", env=cli_env, cwd=branch_repo, stdin="")
    assert proc.returncode == 4 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.splitlines() == [
        "1. **major** `test_calc.py:5` — test_calc.py::test_add passes at the base and fails on the change: assert -1 "
        "== 5 _(model, not anchored: test_calc.py is not a file of the repository)_",
        "2. **minor** `calc.py:10` — comparison to `None` should be `cond is None` _(model, not anchored: calc.py has "
        "no line 10; it has 6)_",
    ]


def test_without_a_sandbox_the_repositorys_own_checks_run_only_when_the_person_allows_them(
    change: Path, env: dict[str, str], tmp_path: Path
) -> None:
    # A cloned repository's own `.venv/bin/ruff` can be any script; with no sandbox it would run with the person's
    # rights (reading ~/.ssh into a finding, in the audit). It runs as the model's commands do: asked, refused when
    # nobody can answer, allowed by --full-access.
    ran = tmp_path / "ran"
    ruff = change / ".venv" / "bin" / "ruff"
    ruff.parent.mkdir(parents=True)
    ruff.write_text(f"#!/bin/sh\necho pwned > {ran}\n")
    ruff.chmod(0o755)
    unconfined = {**env, "PEDRO_SANDBOX": "off"}
    proc = pedro("review", "--no-model", "--base", "main", "--no-input", env=unconfined, cwd=change, stdin="")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and not ran.exists()
    assert f"checks: ruff ({ruff}) was not run: no sandbox confines" in proc.stderr
    assert "pytest" in proc.stderr and "--full-access" in proc.stderr  # the tests were refused too, with the fix
    assert "test_add passes at the base" not in proc.stdout
    allowed = pedro(
        "review", "--no-model", "--base", "main", "--no-input", "--full-access", env=unconfined, cwd=change, stdin=""
    )
    assert allowed.returncode == 0, allowed.stderr
    assert ran.exists() and "test_add passes at the base and fails on the change" in allowed.stdout
    _untouched(change)

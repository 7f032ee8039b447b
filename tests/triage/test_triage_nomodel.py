"""pedro triage with no model: the whole report from the log and the repository, through the real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_util import pedro
from recorded import LOGS, log, project

NO_MODEL_SAID = "no model was asked"


def ci_env(cli_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """A CI runner's environment: GitHub Actions, a step summary file, no model configured anywhere."""
    return {**cli_env, "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}


def test_the_readme_ci_line_reports_without_a_model_server(tmp_path: Path, cli_env: dict[str, str]) -> None:
    repo = project(tmp_path, "py")
    (repo / "Makefile").write_text(f"test:\n\t{sys.executable} -m pytest -p no:cacheprovider\n")
    env = ci_env(cli_env, tmp_path)
    proc = subprocess.run(
        ["bash", "-c", f"make test 2>&1 | {sys.executable} -m pedro triage --no-input --report triage.json"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 5, proc.stderr
    assert (proc.stdout + proc.stderr).count(NO_MODEL_SAID) == 1 and "Traceback" not in proc.stderr
    data = json.loads((repo / "triage.json").read_text())
    assert data["exit_status"] == "no_model" and data["job_id"] is None
    assert data["counts"] == {"passed": 1, "failed": 2}
    median = data["failing_tests"][1]
    assert (median["file"], median["line"], median["message"]) == (
        "tests/test_stats.py",
        13,
        "IndexError: list index out of range",
    )
    assert median["deepest_frame"] == {"file": "stats/mean.py", "line": 11}
    assert median["function"] == {"name": "median", "file": "stats/mean.py", "start_line": 9, "end_line": 11}
    assert median["last_change"]["subject"] == "Compute the mean and the median"
    title = "title=tests/test_stats.py%3A%3Atest_mean_of_three"
    assert f"::error file=tests/test_stats.py,line=5,{title}::assert 1.5 == 2%0A+  where 1.5 = mean" in proc.stderr
    summary = (tmp_path / "summary.md").read_text()
    assert "`median` (stats/mean.py:9-11)" in summary and "Compute the mean and the median" in summary
    assert "No model was asked" in summary
    # The repository is as it was: triage only read it.
    assert subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True).stdout == (
        "?? Makefile\n?? triage.json\n"
    )


@pytest.mark.parametrize("which", ["jest", "node --test tap", "node --test spec", "go test", "go test -json"])
def test_no_model_annotates_each_runner_with_relative_places_and_the_comparison(
    tmp_path: Path, cli_env: dict[str, str], which: str
) -> None:
    folder, name = LOGS[which]
    repo = project(tmp_path, folder)
    sarif = tmp_path / "triage.sarif"
    proc = pedro(
        "triage", "--no-model", "--no-input", "--sarif", str(sarif),
        env=ci_env(cli_env, tmp_path), cwd=repo, stdin=log(folder, name, repo),
    )  # fmt: skip
    assert proc.returncode == 5, proc.stderr
    assert (proc.stdout + proc.stderr).count(NO_MODEL_SAID) == 1
    errors = [line for line in proc.stderr.splitlines() if line.startswith("::error ")]  # the runner reads both
    assert len(errors) == 2 and str(repo) not in proc.stdout + proc.stderr
    expected = {
        "jest": ("file=test/math.test.js,line=5,", "Expected: 2%0AReceived: 1.5"),
        "node --test tap": ("file=test/math.test.js,line=7,", "1.5 !== 2"),
        "node --test spec": ("file=test/math.test.js,line=7,", "1.5 !== 2"),
        "go test": ("file=stats/mean_test.go,line=7,", "Mean([1 2 3]) = 1.5, want 2"),
        "go test -json": ("file=stats/mean_test.go,line=7,", "Mean([1 2 3]) = 1.5, want 2"),
    }[which]
    assert expected[0] in errors[0] and errors[0].endswith(expected[1]), errors[0]
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    assert results[1]["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] in (
        "src/math.js",
        "stats/mean.go",
    )
    assert str(repo) not in sarif.read_text()


def test_no_model_and_no_failing_test_exits_0(tmp_path: Path, cli_env: dict[str, str]) -> None:
    repo = project(tmp_path, "py")
    passing = "tests/test_stats.py ...                 [100%]\n============ 3 passed in 0.01s ============\n"
    proc = pedro("triage", "--no-input", env=cli_env, cwd=repo, stdin=passing)
    assert proc.returncode == 0, proc.stderr
    assert (proc.stdout + proc.stderr).count(NO_MODEL_SAID) == 1 and "pytest: 0 failing, 3 passing." in proc.stdout

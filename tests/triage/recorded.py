"""The recorded real runner logs of tests/fixtures/triage, each with its project in a real git repository."""

from __future__ import annotations

import shutil
from pathlib import Path

from repo_util import git

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "triage"
RECORDED_AT = "/tmp/pedro-triage-demo"
LOGS = {
    "pytest": ("py", "pytest_plain.log"),
    "pytest -rA": ("py", "pytest_ra.log"),
    "junit": ("py", "junit.xml"),
    "go test": ("go", "go_plain.log"),
    "go test -json": ("go", "go_json.log"),
    "jest": ("jest", "jest.log"),
    "node --test spec": ("node", "node_spec.log"),
    "node --test tap": ("node", "node_tap.log"),
}


def project(tmp_path: Path, folder: str) -> Path:
    """The project the logs of `folder` came from, committed in two steps: the code, then a change to the tests
    only (so the last commit that changed the code is not HEAD)."""
    repo = tmp_path / folder
    shutil.copytree(FIXTURES / folder / "project", repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "dev@example.com")
    git(repo, "config", "user.name", "Dev")
    tests = sorted(path for path in repo.rglob("*") if path.is_file() and "test" in path.name)
    git(repo, "add", "-A", *(f":(exclude){path.relative_to(repo)}" for path in tests))
    git(repo, "commit", "-q", "-m", "Compute the mean and the median")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Test the averages")
    return repo


def log(folder: str, name: str, repo: Path) -> str:
    """The recorded log, its recording folder replaced by the repository's path (as a run there would print)."""
    return (FIXTURES / folder / name).read_text(encoding="utf-8").replace(f"{RECORDED_AT}/{folder}", str(repo))

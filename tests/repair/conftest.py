"""What the repair tests share: `calc`, a repository whose add() subtracts, with its tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_util import git
from test_repairer import CALC, TESTS


@pytest.fixture
def calc(repo: Path) -> Path:
    (repo / "calc.py").write_text(CALC)
    (repo / "test_calc.py").write_text(TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    return repo

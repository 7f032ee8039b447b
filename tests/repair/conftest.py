"""What the repair tests share: `calc`, a repository whose add() subtracts, with its tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_util import commit_files
from test_repairer import CALC, TESTS


@pytest.fixture
def calc(repo: Path) -> Path:
    return commit_files(repo, {"calc.py": CALC, "test_calc.py": TESTS}, "calc")

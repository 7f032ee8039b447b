"""Helpers for tests that build real git repositories."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

_PLUGINS_LEFT_OUT = " ".join(f"-p no:{plugin.name}" for plugin in entry_points(group="pytest11"))
PYTEST = f"{sys.executable} -m pytest -q -p no:cacheprovider {_PLUGINS_LEFT_OUT}".rstrip()
"""The test command of the repositories tests build. The plugins installed for pedro's own tests (hypothesis, xdist,
anyio) cost half of each pytest start, and these repositories use none of them: a repair test starts pytest three
or four times."""


def git(repo: Path, *args: str) -> str:
    """Run git in `repo` and return its stdout."""
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def commit_files(repo: Path, files: dict[str, str], message: str = "code") -> Path:
    """Write `files` (paths relative to `repo`, folders made as needed) and commit everything in one commit."""
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)
    return repo


REVIEW_BASE_CALC = "def add(a, b):\n    return a + b\n\n\ndef is_none(x):\n    return x == None\n"
# add() now subtracts (line 2, breaks test_add); is_empty() adds a `== None` on line 10, while line 6 had one before.
REVIEW_CHANGED_CALC = REVIEW_BASE_CALC.replace("a + b", "a - b") + "\n\ndef is_empty(x):\n    return x == None\n"
_REVIEW_TESTS = (
    "from calc import add, is_none\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_none():\n"
    "    assert is_none(None)\n"
)
_REVIEW_CONFIG = '[tool.ruff.lint]\nselect = ["E711"]\n\n[tool.mypy]\nignore_missing_imports = true\n'


def review_change(tmp_path: Path) -> Path:
    """main: calc.py with a `== None` on line 6, its passing tests, ruff and mypy configured, eslint declared in
    package.json; the feature branch breaks add(), adds a `== None` on line 10 and a mistyped half() in typed.py."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "dev@example.com")
    git(repo, "config", "user.name", "Dev")
    (repo / "pyproject.toml").write_text(_REVIEW_CONFIG)
    (repo / "package.json").write_text(json.dumps({"name": "calc", "devDependencies": {"eslint": "^9.0.0"}}))
    (repo / "calc.py").write_text(REVIEW_BASE_CALC)
    (repo / "test_calc.py").write_text(_REVIEW_TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "calc")
    git(repo, "switch", "-q", "-c", "feature")
    (repo / "calc.py").write_text(REVIEW_CHANGED_CALC)
    (repo / "typed.py").write_text("def half(n: int) -> int:\n    return n / 2\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "is_empty and half")
    return repo


def node_test(module: str, name: str, *checks: str, strict: bool = True) -> str:
    """A node:test file that takes `name` from `./module` and makes `checks` (lines of JavaScript) in one test, with
    node's strict assert (`assert.equal` is strict) or its plain one (`assert.ok` as a bare check)."""
    kind = "node:assert/strict" if strict else "node:assert"
    lines = "".join(f"  {check}\n" for check in checks)
    return (
        f'const test = require("node:test");\nconst assert = require("{kind}");\n'
        f'const {{ {name} }} = require("./{module}");\n\ntest("{name}", () => {{\n{lines}}});\n'
    )


def js_runner_modules(runner: str) -> Path:
    """The node_modules holding `runner` (jest or vitest) that PEDRO_TEST_NODE_MODULES names (`make test` sets it from
    scripts/install-js-runners; the suite itself never downloads); the test skips without one."""
    folder = os.environ.get("PEDRO_TEST_NODE_MODULES", "")
    if not folder or not (Path(folder) / ".bin" / runner).exists():
        pytest.skip(f"no {runner}: scripts/install-js-runners installs it; PEDRO_TEST_NODE_MODULES names the folder")
    return Path(folder)

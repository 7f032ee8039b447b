"""What flake8 and eslint print, read into messages relative to the repository (ruff, mypy and go vet are read in
tests/test_review_checks.py, from real runs)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from pedro.changedlines import parse_changed_lines
from pedro.linters import LINTERS, LintMessage


def _parser(name: str) -> Callable[[str, Path, Path], list[LintMessage]]:
    return next(linter.parse for linter in LINTERS if linter.name == name)


def test_flake8s_default_format_is_read_with_its_codes(tmp_path: Path) -> None:
    output = (
        "./calc.py:6:14: E711 comparison to None should be 'if cond is None:'\n"
        "./calc.py:1:1: F401 'os' imported but unused\n"
        "./calc.py:9:12: F821 undefined name 'totl'\n"
    )
    # An unused import is untidy; an undefined name is a bug.
    assert _parser("flake8")(output, tmp_path, tmp_path) == [
        LintMessage("flake8", "calc.py", 6, "E711", "comparison to None should be 'if cond is None:'", "minor"),
        LintMessage("flake8", "calc.py", 1, "F401", "'os' imported but unused", "minor"),
        LintMessage("flake8", "calc.py", 9, "F821", "undefined name 'totl'", "major"),
    ]


def test_eslints_json_is_read_and_files_outside_the_repository_are_left_out(tmp_path: Path) -> None:
    report = [
        {"filePath": str(tmp_path / "src" / "a.js"), "messages": [
            {"ruleId": "no-unused-vars", "severity": 2, "message": "'x' is never used.", "line": 3, "column": 7},
            {"ruleId": "eqeqeq", "severity": 1, "message": "Expected '==='.", "line": 4, "column": 9},
        ]},
        {"filePath": "/elsewhere/b.js", "messages": [{"ruleId": "x", "severity": 2, "message": "m", "line": 1}]},
    ]  # fmt: skip
    assert _parser("eslint")(json.dumps(report), tmp_path, tmp_path) == [
        LintMessage("eslint", "src/a.js", 3, "no-unused-vars", "'x' is never used.", "minor"),
        LintMessage("eslint", "src/a.js", 4, "eqeqeq", "Expected '==='.", "nit"),
    ]


def test_changed_lines_are_the_new_sides_of_the_hunks() -> None:
    diff = (
        "diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -2 +2 @@\n-x\n+y\n@@ -6,0 +7,4 @@\n+a\n"
        "diff --git a/old.py b/old.py\n--- a/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n"
        'diff --git "a/caf\\303\\251.py" "b/caf\\303\\251.py"\n--- "a/caf\\303\\251.py"\n+++ "b/caf\\303\\251.py"\n'
        "@@ -1,0 +1 @@\n+z\n"
    )
    changed = parse_changed_lines(diff)
    assert changed.lines == {"calc.py": frozenset({2, 7, 8, 9, 10}), "café.py": frozenset({1})}

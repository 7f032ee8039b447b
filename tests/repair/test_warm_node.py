"""Repair's candidates under `node --test` in one warm node, each run's test files in fresh worker threads: the files
node's own runner would run, each edit seen, a loop stopped, and the plain command where a worker behaves otherwise."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from repo_util import commit_files
from test_evaluate import runs

from pedro.repair.judge import judge
from pedro.repair.warm_node import WarmNode

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

CALC = (
    "function add(a, b) {\n  return a - b;\n}\n\n"
    "function mul(a, b) {\n  return a * b;\n}\n\nmodule.exports = { add, mul };\n"
)
ADD_TEST = (
    'const test = require("node:test");\nconst assert = require("node:assert/strict");\n'
    'const { add } = require("../calc.js");\n\n'
    'test("add", () => {\n  assert.equal(add(2, 3), 5);\n});\n'
)
MUL_TEST = (
    'const test = require("node:test");\nconst assert = require("node:assert/strict");\n'
    'const { mul } = require("./calc.js");\n\n'
    'test("mul", () => {\n  assert.equal(mul(2, 3), 6);\n});\n'
)
FILES = {"calc.js": CALC, "test/add.js": ADD_TEST, "calc.test.js": MUL_TEST, "helper.js": "module.exports = 1;\n"}


def test_the_files_node_would_run_are_run_in_workers_each_seeing_the_code_on_disk(repo: Path, tmp_path: Path) -> None:
    commit_files(repo, FILES)
    candidate_runs, notices = runs(repo, tmp_path, "node --test")
    try:
        warm = candidate_runs.warm
        assert isinstance(warm, WarmNode) and notices == [], notices
        assert candidate_runs.how == "a warm node, a worker thread per candidate"
        # node's own runner named the files: one in a test folder, one by its name, and not the helper.
        assert warm.ready is not None and sorted(Path(f).name for f in warm.ready["files"]) == [
            "add.js",
            "calc.test.js",
        ]
        first = candidate_runs.first(["add"])
        # The other file's test is left out by name, as node's runner leaves it out (skipped).
        assert first.failing == {"add"} and first.report is not None and first.report.passing == []
        assert "5" in first.report.failures[0].details or "5" in first.report.failures[0].message
        (repo / "calc.js").write_text(CALC.replace("a - b", "a + b"))
        again = candidate_runs.first(["add"])
        assert again.passed and again.report is not None and again.report.passing == ["add"]
        everything = candidate_runs.known(["add", "mul"])
        assert (
            everything.passed and everything.report is not None and sorted(everything.report.passing) == ["add", "mul"]
        )
    finally:
        candidate_runs.close()


def test_a_candidate_that_loops_is_stopped_and_the_next_one_still_runs(repo: Path, tmp_path: Path) -> None:
    commit_files(repo, FILES)
    candidate_runs, _ = runs(repo, tmp_path, "node --test")
    try:
        assert isinstance(candidate_runs.warm, WarmNode)
        assert candidate_runs.timeout_s is not None and candidate_runs.timeout_s < 30
        (repo / "calc.js").write_text(CALC.replace("return a - b;", "while (true) {}"))
        looped = candidate_runs.first(["add"])
        assert looped.result.outcome == "timeout"
        verdict, _why = judge(candidate_runs.baseline, looped, frozenset(["add"]))
        assert verdict == "fails"
        (repo / "calc.js").write_text(CALC.replace("a - b", "a + b"))
        assert candidate_runs.first(["add"]).passed
    finally:
        candidate_runs.close()


def test_a_candidate_that_breaks_loading_fails_by_the_files_name(repo: Path, tmp_path: Path) -> None:
    commit_files(repo, FILES)
    candidate_runs, _ = runs(repo, tmp_path, "node --test")
    try:
        assert isinstance(candidate_runs.warm, WarmNode)
        (repo / "calc.js").write_text(
            CALC.replace("return a - b;", "return a + undefinedName;").replace(
                "module.exports", "undefinedName;\nmodule.exports"
            )
        )
        run = candidate_runs.first(["add"])
        assert not run.passed and run.report is not None
        names = [failure.test_id for failure in run.report.failures]
        assert any(name.endswith("add.js") for name in names), names
        assert any("undefinedName" in failure.message for failure in run.report.failures)
    finally:
        candidate_runs.close()


def test_tests_that_behave_otherwise_in_a_worker_fall_back_to_the_plain_command(repo: Path, tmp_path: Path) -> None:
    # A test that looks at how it was started: it passes in node's own test process and fails in a worker thread.
    probe = MUL_TEST.replace(
        "assert.equal(mul(2, 3), 6);", 'assert.equal(require("node:worker_threads").isMainThread, true);'
    )
    commit_files(repo, {**FILES, "calc.test.js": probe})
    candidate_runs, notices = runs(repo, tmp_path, "node --test")
    try:
        assert candidate_runs.warm is None
        assert len(notices) == 1 and "plain test command" in notices[0] and "process of its own" in notices[0]
        run = candidate_runs.first(["add"])
        assert run.failing == {"add"} and run.report is not None and run.report.passing == []
    finally:
        candidate_runs.close()


def test_an_option_whose_value_is_a_word_of_its_own_is_run_by_the_plain_command(repo: Path, tmp_path: Path) -> None:
    commit_files(repo, {**FILES, "setup.js": "globalThis.ready = true;\n"})
    candidate_runs, notices = runs(repo, tmp_path, "node --require ./setup.js --test")
    try:
        assert candidate_runs.warm is None and "--require" in notices[0]
        assert candidate_runs.first(["add"]).failing == {"add"}
    finally:
        candidate_runs.close()


def test_es_modules_and_suites_run_warm_too(repo: Path, tmp_path: Path) -> None:
    tests = (
        'import { describe, it } from "node:test";\nimport assert from "node:assert/strict";\n'
        'import { add } from "./calc.js";\n\n'
        'describe("calc", () => {\n  it("adds", () => assert.equal(add(2, 3), 5));\n'
        '  it("adds zero", () => assert.equal(add(2, 0), 2));\n});\n'
    )
    module = "export function add(a, b) {\n  return a - b;\n}\n"
    commit_files(repo, {"package.json": '{"type": "module"}\n', "calc.js": module, "calc.test.js": tests})
    candidate_runs, notices = runs(repo, tmp_path, "node --test")
    try:
        assert isinstance(candidate_runs.warm, WarmNode) and notices == []
        assert candidate_runs.first(["adds"]).failing == {"adds"}
        (repo / "calc.js").write_text(module.replace("a - b", "a + b"))
        assert candidate_runs.known(["adds", "adds zero"]).passed
    finally:
        candidate_runs.close()

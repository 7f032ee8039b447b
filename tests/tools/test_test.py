"""The test tool on real temporary projects: detection, live runs, explicit commands, failures."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from repo_util import PYTEST, commit_files, js_runner_modules

from pedro.config import ToolsConfig
from pedro.tools import load_tool
from pedro.tools.base import ToolContext, ToolFailure, ToolTimeoutError
from pedro.tools.test import RunTestsArgs, detect_framework, has_shell_syntax, narrow, plan_test_run, run_tests

CALC_TESTS = """\
import pytest


def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 3


def test_add_wrong():
    assert add(2, 2) == 5


@pytest.mark.skip(reason="later")
def test_later():
    pass
"""


def run(ctx: ToolContext, **arguments: object) -> str:
    tool = load_tool("test")
    return tool.run(tool.Args.model_validate(arguments), ctx)


@pytest.fixture
def pyproject(repo: Path) -> Path:
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "demo"\n\n[tool.pytest.ini_options]\naddopts = "-p no:cacheprovider"\n'
    )
    (repo / "tests").mkdir()
    (repo / "tests" / "test_calc.py").write_text(CALC_TESTS)
    (repo / "tests" / "test_ok.py").write_text("def test_fine():\n    assert True\n")
    return repo


def test_pytest_live_run_names_the_failing_test(ctx: ToolContext, pyproject: Path) -> None:
    out = run(ctx)
    first = out.splitlines()[0]
    assert first == "pytest FAILED: passed 2, failed 1, skipped 1 (exit code 1)"
    assert "- tests/test_calc.py::test_add_wrong (tests/test_calc.py:13)" in out
    assert "assert 4 == 5" in out
    assert "--- end of output" in out
    assert not list(pyproject.glob("*.xml"))


def test_pytest_path_runs_only_that_file(ctx: ToolContext, pyproject: Path) -> None:
    out = run(ctx, path="tests/test_ok.py")
    assert out.splitlines()[0] == "pytest passed: passed 1, failed 0, skipped 0 (exit code 0)"


def test_the_users_pytest_settings_reach_the_run(pyproject: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Set in the user's shell, as a project's README may ask.
    monkeypatch.setenv("PYTEST_ADDOPTS", "-k test_add_wrong")
    out = run(ToolContext(root=pyproject, config=ToolsConfig()))
    assert out.splitlines()[0].startswith("pytest FAILED: passed 0, failed 1")


def test_pytest_detected_from_test_files_alone(ctx: ToolContext, repo: Path) -> None:
    (repo / "test_solo.py").write_text("def test_one():\n    assert 1 == 2\n")
    out = run(ctx, framework="python")
    assert out.startswith("pytest FAILED: passed 0, failed 1")
    assert "test_solo.py::test_one (test_solo.py:2)" in out


def test_explicit_pytest_command_gets_a_report(ctx: ToolContext, pyproject: Path) -> None:
    out = run(ctx, command="pytest tests/test_calc.py")
    assert out.splitlines()[0] == "pytest FAILED: passed 1, failed 1, skipped 1 (exit code 1)"
    assert "tests/test_calc.py::test_add_wrong (tests/test_calc.py:13)" in out


def test_explicit_shell_command_is_parsed_from_output(ctx: ToolContext, pyproject: Path) -> None:
    out = run(ctx, cmd="cd tests && pytest -q test_calc.py")
    assert out.splitlines()[0] == "command FAILED: passed 1, failed 1, skipped 1 (exit code 1)"
    assert "- test_calc.py::test_add_wrong" in out


def test_unknown_output_falls_back_to_raw(ctx: ToolContext) -> None:
    out = run(ctx, command="echo compiling; echo all good")
    assert out.splitlines()[0] == "command: exit code 0; no test report could be read"
    assert out.endswith("compiling\nall good")


def test_no_framework_says_how_to_pass_command(ctx: ToolContext) -> None:
    with pytest.raises(ToolFailure, match=r"pass `command`"):
        run(ctx)
    with pytest.raises(ToolFailure, match="no go project found"):
        run(ctx, framework="go")


def test_timeout_is_reported(repo: Path) -> None:
    ctx = ToolContext(root=repo, config=ToolsConfig(test_timeout=0.5))
    with pytest.raises(ToolTimeoutError, match="stopped after 0.5 s"):
        run(ctx, command="echo start; sleep 100")


def test_missing_path_is_a_clear_failure(ctx: ToolContext, pyproject: Path) -> None:
    with pytest.raises(ToolFailure, match="does not exist"):
        run(ctx, path="tests/test_nope.py")


def test_detection_prefers_the_nearest_project(repo: Path) -> None:
    service = repo / "services" / "api"
    service.mkdir(parents=True)
    (service / "go.mod").write_text("module example.com/api\n\ngo 1.19\n")
    (repo / "pytest.ini").write_text("[pytest]\n")
    assert detect_framework(repo, service) == ("go", service)
    assert detect_framework(repo, repo) == ("pytest", repo)
    assert detect_framework(repo, service, "pytest") == ("pytest", repo)


def test_detection_of_npm_scripts(repo: Path) -> None:
    (repo / "package.json").write_text(json.dumps({"scripts": {"test": 'echo "Error: no test specified" && exit 1'}}))
    assert detect_framework(repo, repo) is None
    (repo / "package.json").write_text(json.dumps({"scripts": {"test": "jest --coverage"}}))
    assert detect_framework(repo, repo) == ("npm", repo)


def test_args_aliases() -> None:
    args = RunTestsArgs.model_validate({"cmd": ["pytest", "-k", "a b"], "framework": "Jest", "file": "x"})
    assert args.command == "pytest -k 'a b'"
    assert args.framework == "npm"
    assert args.path == "x"


@pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed (Debian: apt-get install golang-go)")
def test_go_live_run(repo: Path, tmp_path: Path) -> None:
    env = {**os.environ, "GOCACHE": str(tmp_path / "gocache"), "GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local"}
    ctx = ToolContext(root=repo, env=env)
    (repo / "go.mod").write_text("module example.com/demo\n\ngo 1.19\n")
    (repo / "calc").mkdir()
    (repo / "calc" / "calc.go").write_text("package calc\n\nfunc Add(a, b int) int { return a + b }\n")
    (repo / "calc" / "calc_test.go").write_text(
        'package calc\n\nimport "testing"\n\n'
        'func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("bad")\n\t}\n}\n\n'
        "func TestAddWrong(t *testing.T) {\n"
        '\tif got := Add(2, 2); got != 5 {\n\t\tt.Errorf("Add(2, 2) = %d, want 5", got)\n\t}\n}\n'
    )
    out = run(ctx)
    assert out.splitlines()[0] == "go test FAILED: passed 1, failed 1, skipped 0 (exit code 1)"
    assert "- example.com/demo/calc.TestAddWrong (calc/calc_test.go:13)" in out
    assert "Add(2, 2) = 4, want 5" in out
    assert '"Action"' not in out
    assert run(ctx, path="calc/calc_test.go").splitlines()[0].startswith("go test FAILED: passed 1, failed 1")


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_npm_script_with_unknown_runner_is_read_raw(ctx: ToolContext, repo: Path) -> None:
    (repo / "package.json").write_text(json.dumps({"name": "demo", "scripts": {"test": "node check.js"}}))
    (repo / "check.js").write_text("console.log('  2 passing (3ms)');\nconsole.log('  1 failing');\nprocess.exit(1);\n")
    out = run(ctx)
    assert out.splitlines()[0] == "npm test FAILED: passed 2, failed 1, skipped 0 (exit code 1)"


_NODE_TESTS = (
    'const test = require("node:test");\nconst assert = require("node:assert/strict");\n\n'
    'test("adds", () => assert.equal(1 + 2, 3));\ntest("adds wrong", () => assert.equal(2 + 2, 5));\n'
)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_an_npm_script_that_is_node_s_own_runner_runs_as_node_with_its_report(ctx: ToolContext, repo: Path) -> None:
    (repo / "package.json").write_text(json.dumps({"name": "demo", "scripts": {"test": "node --test"}}))
    (repo / "calc.test.js").write_text(_NODE_TESTS)
    out = run(ctx)
    # node's junit report names the tests, and the run can be held to the failing one by name (repair's first run).
    assert out.splitlines()[0] == "node --test FAILED: passed 1, failed 1, skipped 0 (exit code 1)"
    assert "- adds wrong" in out and "4 !== 5" in out


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_an_npm_script_with_a_pretest_script_still_runs_through_npm(ctx: ToolContext, repo: Path) -> None:
    scripts = {"pretest": "node -e \"console.log('built')\"", "test": "node --test"}
    (repo / "package.json").write_text(json.dumps({"name": "demo", "scripts": scripts}))
    (repo / "calc.test.js").write_text(_NODE_TESTS)
    out = run(ctx)
    assert out.splitlines()[0].startswith("npm test FAILED")


def test_jest_live_run(ctx: ToolContext, repo: Path) -> None:
    (repo / "node_modules").symlink_to(js_runner_modules("jest"))
    (repo / "package.json").write_text(json.dumps({"name": "demo", "scripts": {"test": "jest"}}))
    (repo / "calc.test.js").write_text(
        "test('adds', () => { expect(1 + 2).toBe(3); });\ntest('adds wrong', () => { expect(2 + 2).toBe(5); });\n"
    )
    out = run(ctx)
    assert out.splitlines()[0] == "jest FAILED: passed 1, failed 1, skipped 0 (exit code 1)"
    assert "- calc.test.js > adds wrong (calc.test.js:2)" in out


def test_vitest_live_run(ctx: ToolContext, repo: Path) -> None:
    (repo / "node_modules").symlink_to(js_runner_modules("vitest"))
    (repo / "package.json").write_text(json.dumps({"name": "demo", "type": "module", "scripts": {"test": "vitest"}}))
    (repo / "calc.test.js").write_text(
        "import { test, expect } from 'vitest';\n"
        "test('adds', () => { expect(1 + 2).toBe(3); });\ntest('adds wrong', () => { expect(2 + 2).toBe(5); });\n"
    )
    out = run(ctx)
    assert out.splitlines()[0] == "vitest FAILED: passed 1, failed 1, skipped 0 (exit code 1)"
    assert "- calc.test.js > adds wrong (calc.test.js:3)" in out


NESTED_JS_TESTS = """\
{imports}describe('calc (v2)', () => {{
  describe('add', () => {{
    test('adds two', () => {{ expect(1 + 2).toBe(3); }});
    test('adds wrong [x]', () => {{ expect(2 + 2).toBe(5); }});
  }});
  test('top', () => {{ expect(1).toBe(2); }});
}});
test('free', () => {{ expect(1).toBe(1); }});
"""
NESTED_FAILING = ("calc.test.js > calc (v2) > add > adds wrong [x]", "calc.test.js > calc (v2) > top")


def _js_project(repo: Path, runner: str) -> None:
    """A project whose npm test runs `runner` (jest or vitest), with nested describe blocks and titles that are
    not plain words."""
    module = {"type": "module"} if runner == "vitest" else {}
    (repo / "package.json").write_text(json.dumps({"name": "demo", **module, "scripts": {"test": runner}}))
    imports = "import { describe, test, expect } from 'vitest';\n" if runner == "vitest" else ""
    (repo / "calc.test.js").write_text(NESTED_JS_TESTS.format(imports=imports))
    (repo / "other.test.js").write_text(f"{imports}test('adds wrong [x]', () => {{ expect(1).toBe(1); }});\n")


@pytest.mark.parametrize("runner", ["jest", "vitest"])
def test_a_jest_or_vitest_run_is_held_to_the_failing_tests_and_their_files(
    repo: Path, tmp_path: Path, runner: str
) -> None:
    _js_project(repo, runner)
    plan = plan_test_run(RunTestsArgs(), ToolContext(root=repo), tmp_path)
    narrowed = narrow(plan, NESTED_FAILING)
    assert narrowed is not None
    argv = list(narrowed.command.argv)
    # jest 29 and vitest 1 match -t against the describe titles and the test's joined by spaces (vitest 1 with a
    # space in front); jest reads a file as a pattern over the absolute path, vitest as a part of the relative one.
    pattern = argv[argv.index("-t") + 1]
    assert pattern == r"^ ?(calc\ \(v2\)\ add\ adds\ wrong\ \[x\]|calc\ \(v2\)\ top)$"
    assert argv[-1] == (r"/calc\.test\.js$" if runner == "jest" else "calc.test.js")
    # A file that failed to load has no tests to name: its file alone holds the run.
    whole = narrow(plan, ["calc.test.js"])
    assert whole is not None and "-t" not in whole.command.argv
    assert whole.command.argv[len(plan.command.argv) :] == narrowed.command.argv[-1:]


def test_a_unittest_command_is_held_to_the_ids_with_its_options_and_their_values(repo: Path, tmp_path: Path) -> None:
    command = "python -m unittest -b -k add --durations 3 test_calc"
    plan = plan_test_run(RunTestsArgs(command=command), ToolContext(root=repo), tmp_path)
    narrowed = narrow(plan, ["test_calc.T.test_add", "test_calc.T.test_mul"])
    assert narrowed is not None
    assert shlex.split(narrowed.command.argv[-1])[3:] == [
        "-b", "-k", "add", "--durations", "3", "-v", "test_calc.T.test_add", "test_calc.T.test_mul",
    ]  # fmt: skip


def test_a_jest_command_that_picks_tests_by_name_is_not_narrowed_again(repo: Path, tmp_path: Path) -> None:
    plan = plan_test_run(RunTestsArgs(command="npx jest -t adds"), ToolContext(root=repo), tmp_path)
    assert plan.report_kind == "jest"
    assert narrow(plan, NESTED_FAILING) is None


def test_npm_test_given_as_the_command_gets_the_scripts_runners_report(repo: Path, tmp_path: Path) -> None:
    _js_project(repo, "jest")
    ctx = ToolContext(root=repo)
    for command, extra in (("npm test", []), ("npm run test -- calc.test.js", ["calc.test.js"])):
        plan = plan_test_run(RunTestsArgs(command=command), ctx, tmp_path)
        # The same run as when pedro finds the script itself: the failing tests by name, where they are defined.
        assert plan.report_kind == "jest", command
        argv = list(plan.command.argv)
        assert argv[:3] == ["npm", "test", "--"] and argv[len(argv) - len(extra) :] == extra, argv
    # npm's own flags, or a report the command asks for, leave the command as it is.
    for command in ("npm test --silent", "npm test -- --json", "npm test && echo done"):
        plan = plan_test_run(RunTestsArgs(command=command), ctx, tmp_path)
        assert (plan.report_kind, plan.command.argv) == ("raw", ("bash", "-c", command)), command


@pytest.mark.parametrize("runner", ["jest", "vitest"])
def test_a_live_jest_or_vitest_run_held_to_the_failing_tests_runs_them_alone(repo: Path, runner: str) -> None:
    (repo / "node_modules").symlink_to(js_runner_modules(runner))
    _js_project(repo, runner)
    ctx = ToolContext(root=repo)
    whole = run_tests(RunTestsArgs(), ctx)
    assert whole.report is not None and whole.report.passed == 3
    run = run_tests(RunTestsArgs(), ctx, only=NESTED_FAILING)
    assert run.report is not None
    assert sorted(run.failing) == sorted(NESTED_FAILING)
    # Neither the passing test of the same title in another file nor the passing tests beside them ran.
    assert (run.report.passed, run.report.failed) == (0, 2)


def test_report_files_stay_out_of_the_repository(ctx: ToolContext, pyproject: Path) -> None:
    run(ctx)
    status = subprocess.run(
        ["git", "status", "--porcelain", "--ignored"], cwd=pyproject, capture_output=True, text=True, check=True
    ).stdout
    assert "xml" not in status
    assert "report" not in status


def test_a_go_run_held_to_named_tests_skips_vet_unless_the_command_sets_it(repo: Path, tmp_path: Path) -> None:
    (repo / "go.mod").write_text("module example.com/demo\n\ngo 1.19\n")
    ctx = ToolContext(root=repo)
    for command, vet in (("go test ./...", ["-vet=off"]), ("go test -vet=all ./...", ["-vet=all"])):
        plan = narrow(plan_test_run(RunTestsArgs(command=command), ctx, tmp_path), ["example.com/demo/calc.TestAdd"])
        assert plan is not None
        argv = " ".join(plan.command.argv)
        # The first check of a candidate: the named test, in its package; vet as the command asks, else none.
        assert "-run '^(TestAdd)$' ./calc" in argv or "-run ^(TestAdd)$ ./calc" in argv, argv
        assert [flag for flag in argv.split() if flag.startswith("-vet")] == vet, argv


def test_a_command_that_sets_variables_before_pytest_is_read_as_pytest(repo: Path) -> None:
    # A src layout, tested with its folder put on the path by the command itself (and a value with a space in it).
    commit_files(
        repo,
        {
            "src/shop/__init__.py": "",
            "src/shop/calc.py": "def add(a, b):\n    return a - b\n",
            "tests/test_calc.py": (
                "import os\n\nfrom shop.calc import add\n\n\n"
                "def test_add():\n    assert add(2, 3) == 5\n\n\n"
                "def test_greeting():\n    assert os.environ['GREETING'] == 'hello there'\n"
            ),
        },
    )
    ctx = ToolContext(root=repo)
    command = f"PYTHONPATH=src GREETING='hello there' {PYTEST} tests/test_calc.py"
    run = run_tests(RunTestsArgs(command=command), ctx)
    assert run.report is not None and run.report.runner == "pytest", run.summary
    assert run.failing == {"tests/test_calc.py::test_add"} and run.report.passing == [
        "tests/test_calc.py::test_greeting"
    ]
    held = run_tests(RunTestsArgs(command=command), ctx, only=["tests/test_calc.py::test_add"])
    assert held.report is not None and (held.report.passed, held.report.failed) == (0, 1)


@pytest.mark.parametrize("setting", ["BASH_ENV=setup.sh", "PYTHONPATH+=:src"])
def test_a_variable_bash_reads_as_it_starts_or_appends_to_is_left_to_bash(
    repo: Path, tmp_path: Path, setting: str
) -> None:
    # Set before the runner, BASH_ENV is the runner's alone (in the environment of `bash -c` bash would source it),
    # and `+=` appends to what bash holds: bash runs such a command as written.
    command = f"{setting} {PYTEST} tests"
    plan = plan_test_run(RunTestsArgs(command=command), ToolContext(root=repo), tmp_path)
    assert (plan.report_kind, plan.command.argv) == ("raw", ("bash", "-c", command))
    assert not {"BASH_ENV", "PYTHONPATH+"} & set(plan.command.env)


@pytest.mark.parametrize(
    ("command", "syntax"),
    [
        ("python -m pytest -q 'tests/t.py::test_parse[\\ufeffa=b-case1]'", False),
        ('pytest -k "add or sub" tests', False),
        ("pytest 'a;b'", False),
        ("pytest tests/t.py::test_parse[1]", True),
        ("cd tests && pytest", True),
        ('pytest "$TESTS"', True),
        ("pytest a\\ b", True),
    ],
)
def test_quotes_make_shell_characters_text(command: str, syntax: bool) -> None:
    assert has_shell_syntax(command) is syntax


def test_a_pytest_command_naming_a_quoted_parametrized_id_gets_a_report(ctx: ToolContext, repo: Path) -> None:
    (repo / "test_cases.py").write_text(
        "import pytest\n\n\n@pytest.mark.parametrize('n', [1, 2], ids=['one', 'two'])\n"
        "def test_even(n):\n    assert n % 2 == 0\n"
    )
    out = run(ctx, command="pytest 'test_cases.py::test_even[one]'")
    assert out.splitlines()[0] == "pytest FAILED: passed 0, failed 1, skipped 0 (exit code 1)"

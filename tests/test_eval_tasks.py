"""The eval task suite (evals/tasks, format in evals/README.md): every task is well formed, its check fails on the
repository as shipped, its reference solution makes the check pass, and an overfit fix, where a task keeps one, passes
the visible tests and fails the check."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pedro.eval.tasks import load_suite

pytestmark = pytest.mark.slow

TASKS_DIR = Path(__file__).resolve().parent.parent / "evals" / "tasks"
TASK_IDS = sorted(path.name for path in TASKS_DIR.iterdir() if path.is_dir())

REQUIRED_KEYS = {"title", "language", "tier", "description", "test", "check"}
OPTIONAL_KEYS = {"timeout_s", "origin"}
DEFAULT_TIMEOUT_S = 120
PREFIX = {"python": "py", "javascript": "js", "go": "go"}
TOOL = {"python": None, "javascript": "node", "go": "go"}
MIN_LANGUAGES = {"python": 15, "javascript": 6, "go": 5}
MIN_TIERS = {"one-function": 12, "find-file": 9, "two-edits": 8, "feature": 4, "real-project": 8}
MIN_TASKS = 34
# Tasks whose overfit/ shows that the hidden tests reject a fix that special-cases the visible tests' inputs.
MIN_OVERFIT = 6
CACHES = ("__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache", "node_modules")  # left by local runs
BUG_TIERS = {"one-function", "find-file", "two-edits", "real-project"}
# The one-function Python tasks the suite must hold, each with the function its bug sits in.
REQUIRED_PYTHON = {
    "py-add-sign": "add",
    "py-max-of": "max_of",
    "py-is-even": "is_even",
    "py-total-skip-first": "total",
    "py-greet": "greet",
}


def load(task_id: str) -> dict[str, Any]:
    with (TASKS_DIR / task_id / "task.toml").open("rb") as f:
        return tomllib.load(f)


def tier_of(task_id: str) -> object:
    """The task's tier, or None when its task.toml does not load (test_task_toml_is_valid reports that)."""
    try:
        return load(task_id).get("tier")
    except (OSError, tomllib.TOMLDecodeError):
        return None


def files_under(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` outside caches, by its path relative to `folder`."""
    if not folder.is_dir():
        return {}
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file() and not set(CACHES).intersection(path.relative_to(folder).parts)
    }


@pytest.fixture(scope="session")
def task_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment a task's commands run in: `python` is this interpreter (which has pytest), pytest loads no
    installed plugins, Go builds in writable temporary folders with one build cache for the whole session, and
    nothing reaches the network."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "GO")) and k != "PYTHONPATH"}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", os.defpath)])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # the tasks use plain pytest; hypothesis' plugin alone costs 0.5 s
    env["GOCACHE"] = str(tmp_path_factory.mktemp("gocache"))
    env["GOPATH"] = str(tmp_path_factory.mktemp("gopath"))
    env["GOFLAGS"] = "-mod=mod"
    env["GOPROXY"] = "off"
    env["NO_COLOR"] = "1"
    return env


def run(command: str, cwd: Path, env: dict[str, str], timeout_s: int) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            command, shell=True, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout_s, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"`{command}` ran past {timeout_s} s in {cwd}")


def checkout(task_id: str, dest: Path, *layers: str) -> Path:
    """repo/ copied to `dest`, then each of `layers` (hidden, solution) copied over it."""
    task = TASKS_DIR / task_id
    shutil.copytree(task / "repo", dest, ignore=shutil.ignore_patterns(*CACHES))
    for layer in layers:
        if (task / layer).is_dir():
            shutil.copytree(task / layer, dest, ignore=shutil.ignore_patterns(*CACHES), dirs_exist_ok=True)
    return dest


def output(proc: subprocess.CompletedProcess[str]) -> str:
    return (proc.stdout + proc.stderr)[-3000:]


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_task_toml_is_valid(task_id: str) -> None:
    task = load(task_id)
    folder = TASKS_DIR / task_id
    assert task.keys() >= REQUIRED_KEYS, f"missing keys: {REQUIRED_KEYS - task.keys()}"
    assert task.keys() <= REQUIRED_KEYS | OPTIONAL_KEYS, f"unknown keys: {task.keys() - REQUIRED_KEYS - OPTIONAL_KEYS}"
    for key in REQUIRED_KEYS:
        assert isinstance(task[key], str), f"{key} is not a string"
        assert task[key].strip() == task[key], f"{key} has surrounding whitespace"
        assert task[key], f"{key} is empty"
    assert "\n" not in task["title"]
    assert task["language"] in PREFIX
    assert task["tier"] in MIN_TIERS
    timeout = task.get("timeout_s", DEFAULT_TIMEOUT_S)
    assert type(timeout) is int
    assert 0 < timeout <= 600
    assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)+", task_id), "ids are lowercase words joined by dashes"
    assert task_id.startswith(PREFIX[task["language"]] + "-")
    assert files_under(folder / "repo"), "repo/ is empty"
    assert files_under(folder / "solution"), "solution/ is empty"
    assert {path.name for path in folder.iterdir()} <= {"task.toml", "repo", "hidden", "solution", "overfit"}
    if files_under(folder / "overfit"):
        assert task["tier"] in BUG_TIERS, "overfit/ is a wrong fix of a bug"
        assert files_under(folder / "hidden"), "overfit/ needs hidden tests that reject it"
    if task["tier"] == "feature":
        assert files_under(folder / "hidden"), "a feature task's hidden/ holds the tests of the feature"
    if task["language"] == "go":
        assert re.search(r"^go 1\.19$", (folder / "repo" / "go.mod").read_text(), re.MULTILINE)


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_fix_is_not_shipped(task_id: str) -> None:
    folder = TASKS_DIR / task_id
    repo = files_under(folder / "repo")
    shipped = set(repo.values())
    for layer in ("solution", "hidden", "overfit"):
        for rel, content in files_under(folder / layer).items():
            assert content != repo.get(rel), f"{layer}/{rel} is the same as repo/{rel}"
            assert content not in shipped, f"{layer}/{rel} is a copy of a file in repo/"


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_task_fails_as_shipped_and_passes_with_its_solution(
    task_id: str, task_env: dict[str, str], tmp_path: Path
) -> None:
    task = load(task_id)
    tool = TOOL[task["language"]]
    if tool and shutil.which(tool) is None:
        pytest.skip(f"{task['language']} task needs `{tool}`, which is not installed")
    timeout = task.get("timeout_s", DEFAULT_TIMEOUT_S)

    shipped = run(task["test"], checkout(task_id, tmp_path / "shipped"), task_env, timeout)
    if task["tier"] in BUG_TIERS:
        assert shipped.returncode != 0, f"`{task['test']}` passes before the fix:\n{output(shipped)}"
    else:
        assert shipped.returncode == 0, f"`{task['test']}` fails on the shipped repository:\n{output(shipped)}"

    unsolved = run(task["check"], checkout(task_id, tmp_path / "unsolved", "hidden"), task_env, timeout)
    assert unsolved.returncode != 0, f"`{task['check']}` passes without the solution:\n{output(unsolved)}"

    solved = run(task["check"], checkout(task_id, tmp_path / "solved", "solution", "hidden"), task_env, timeout)
    assert solved.returncode == 0, f"`{task['check']}` fails with the solution:\n{output(solved)}"


def overfit_tasks() -> list[str]:
    return [task_id for task_id in TASK_IDS if files_under(TASKS_DIR / task_id / "overfit")]


@pytest.mark.parametrize("task_id", overfit_tasks())
def test_overfit_fix_passes_the_tests_and_fails_the_check(
    task_id: str, task_env: dict[str, str], tmp_path: Path
) -> None:
    task = load(task_id)
    tool = TOOL[task["language"]]
    if tool and shutil.which(tool) is None:
        pytest.skip(f"{task['language']} task needs `{tool}`, which is not installed")
    timeout = task.get("timeout_s", DEFAULT_TIMEOUT_S)

    visible = run(task["test"], checkout(task_id, tmp_path / "visible", "overfit"), task_env, timeout)
    assert visible.returncode == 0, f"the overfit fix fails `{task['test']}`:\n{output(visible)}"

    checked = run(task["check"], checkout(task_id, tmp_path / "checked", "overfit", "hidden"), task_env, timeout)
    assert checked.returncode != 0, f"the hidden tests accept the overfit fix:\n{output(checked)}"


def test_enough_tasks_show_their_hidden_tests_reject_an_overfit_fix() -> None:
    tasks = overfit_tasks()
    assert len(tasks) >= MIN_OVERFIT, f"only {tasks} keep an overfit/ fix, want at least {MIN_OVERFIT}"
    assert {load(task_id)["language"] for task_id in tasks} == set(PREFIX), "every language has one"


def is_test_file(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name.startswith("test_") or ".test." in name or name.endswith("_test.go") or path.startswith("test/")


@pytest.mark.parametrize("task_id", [task_id for task_id in TASK_IDS if tier_of(task_id) == "find-file"])
def test_find_file_bug_sits_in_a_module_the_tests_do_not_import(task_id: str) -> None:
    folder = TASKS_DIR / task_id
    repo = files_under(folder / "repo")
    imports = [
        line
        for path, content in repo.items()
        if is_test_file(path)
        for line in content.decode().splitlines()
        if re.match(r"\s*(import|from)\b", line) or "require(" in line
    ]
    assert imports, "the visible tests import nothing"
    modules = [
        path
        for path in repo
        if Path(path).suffix in {".py", ".js", ".go"} and Path(path).name != "__init__.py" and not is_test_file(path)
    ]
    assert 3 <= len(modules) <= 6, f"a find-file task has 3 to 6 modules, not {modules}"
    for path in files_under(folder / "solution"):
        module = Path(path).stem
        assert not [line for line in imports if re.search(rf"\b{module}\b", line)], f"the tests import {path}"


REAL_MODULE_LINES = 250
"""A real project's bug sits in a module of several hundred lines or more, not in a toy."""


@pytest.mark.parametrize("task_id", [task_id for task_id in TASK_IDS if tier_of(task_id) == "real-project"])
def test_real_project_task_is_one_fix_commit_of_a_licensed_project(task_id: str) -> None:
    folder = TASKS_DIR / task_id
    task = load(task_id)
    assert re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+/commit/[0-9a-f]{40}", task["origin"]), task["origin"]
    repo = files_under(folder / "repo")
    assert any(Path(path).name.startswith(("LICENSE", "COPYING")) for path in repo), "the project's licence ships"
    fixed = files_under(folder / "solution")
    assert len(fixed) == 1, f"one module holds the fix, not {sorted(fixed)}"
    [(module, text)] = fixed.items()
    assert module in repo and not is_test_file(module)
    assert len(repo[module].decode().splitlines()) >= REAL_MODULE_LINES
    # The visible command runs the fix's own tests; the check runs the rest of their file as well.
    assert task["test"] != task["check"] and task["test"].startswith(task["check"].split(" ", 1)[0])
    assert task["test"].split()[-1].startswith(task["check"].split()[-1]), "the check runs the test's whole file"


def test_suite_size_and_mix() -> None:
    tasks = {task_id: load(task_id) for task_id in TASK_IDS}
    assert len(tasks) >= MIN_TASKS
    languages = Counter(task["language"] for task in tasks.values())
    tiers = Counter(task["tier"] for task in tasks.values())
    for language, least in MIN_LANGUAGES.items():
        assert languages[language] >= least, f"{languages[language]} {language} tasks, want at least {least}"
    for tier, least in MIN_TIERS.items():
        assert tiers[tier] >= least, f"{tiers[tier]} {tier} tasks, want at least {least}"


@pytest.mark.parametrize(("task_id", "function"), sorted(REQUIRED_PYTHON.items()))
def test_required_one_function_tasks(task_id: str, function: str) -> None:
    assert task_id in TASK_IDS
    task = load(task_id)
    assert (task["language"], task["tier"]) == ("python", "one-function")
    sources = [path.read_text() for path in (TASKS_DIR / task_id / "repo").glob("*.py")]
    assert any(re.search(rf"^def {function}\(", source, re.MULTILINE) for source in sources)


QUIXBUGS_DIR = TASKS_DIR.parent / "quixbugs"


def test_the_quixbugs_suite_is_forty_one_line_bugs_with_their_correct_programs() -> None:
    tasks = load_suite(QUIXBUGS_DIR)
    assert len(tasks) == 40 and {task.language for task in tasks} == {"python"}
    for task in tasks:
        name = task.id.removeprefix("py-quixbugs-").replace("-", "_")
        program = Path("python_programs") / f"{name}.py"
        buggy, fixed = (task.repo / program).read_text(), (task.path / "solution" / program).read_text()
        assert buggy != fixed and (task.repo / "python_testcases" / f"test_{name}.py").is_file(), task.id
        assert task.test == task.check == f"python -m pytest -q python_testcases/test_{name}.py"

"""The task runner: the real pedro command on a copy of a task, scored by the task's check (hidden tests in)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pedro.errors import UsageError
from pedro.eval.plan import TaskGrid, task_env, task_plan
from pedro.eval.taskrun import TaskLimits, prepare_repository, run_task, score
from pedro.eval.tasks import load_suite, load_task
from pedro.presets import DEFAULT_PROFILE

SUITE = Path(__file__).resolve().parents[1] / "evals" / "tasks"
FIX = '```python\ndef add(a, b):\n    """Return the sum of a and b."""\n    return a + b\n```'
WRONG = "```python\ndef add(a, b):\n    return a - b - 10\n```"  # every actual value moves away: no progress


def env_for(cli_env: dict[str, str]) -> dict[str, str]:
    # The task's `python -m pytest` must find this interpreter (with pytest) first on PATH.
    return {**cli_env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{cli_env.get('PATH', '')}"}


def test_the_suite_loads_and_filters() -> None:
    tasks = load_suite(SUITE)
    assert len(tasks) >= 24 and {t.language for t in tasks} == {"python", "javascript", "go"}
    assert [t.id for t in load_suite(SUITE, only=("py-add-sign",))] == ["py-add-sign"]
    assert {t.tier for t in load_suite(SUITE, tiers=("feature",))} == {"feature"}
    with pytest.raises(UsageError, match="no task named nope"):
        load_suite(SUITE, only=("nope",))


def test_a_broken_task_file_names_the_key(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "task.toml").write_text('title = "x"\nlanguage = "python"\n')
    with pytest.raises(UsageError, match="lacks tier, description, test, check"):
        load_task(tmp_path / "t")


def test_score_runs_the_hidden_tests_too(tmp_path: Path, cli_env: dict[str, str]) -> None:
    task = load_task(SUITE / "py-add-sign")
    repo = prepare_repository(task, tmp_path / "repo")
    assert not score(task, repo, env_for(cli_env))
    (repo / "calc.py").write_text((repo / "calc.py").read_text().replace("return a - b", "return a + b", 1))
    assert score(task, repo, env_for(cli_env))
    assert (repo / "test_calc_hidden.py").is_file()


def test_a_run_that_made_the_tests_agree_with_the_code_is_not_scored_solved(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    # A real project's task has no hidden tests: its check is its own test file, which a run may have edited.
    folder = tmp_path / "task"
    (folder / "repo").mkdir(parents=True)
    (folder / "task.toml").write_text(
        'title = "t"\nlanguage = "python"\ntier = "one-function"\ndescription = "add adds"\n'
        'test = "python -m pytest -q tests.py"\ncheck = "python -m pytest -q tests.py"\n'
    )
    (folder / "repo" / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    shipped = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    (folder / "repo" / "tests.py").write_text(shipped)
    task = load_task(folder)
    repo = prepare_repository(task, tmp_path / "repo")
    (repo / "tests.py").write_text(shipped.replace("== 5", "== -1"))
    assert not score(task, repo, env_for(cli_env))
    assert (repo / "tests.py").read_text() == shipped


@pytest.mark.slow
@pytest.mark.parametrize(("replies", "solved", "reason"), [([FIX], True, "repaired"), ([WRONG], False, None)])
def test_pedro_runs_on_a_task_and_is_scored(
    stub_server: Any, tmp_path: Path, cli_env: dict[str, str], replies: list[str], solved: bool, reason: str | None
) -> None:
    server = stub_server(replies + ["TASK COMPLETE"] * 3)
    task = load_task(SUITE / "py-add-sign")
    backend = ["--backend", "openai", "--base-url", server.url + "/v1", "--model", "m"]
    env = {**env_for(cli_env), "PEDRO_REPAIR__CANDIDATES": "1", "PEDRO_REPAIR__COVERAGE": "false"}
    env["PEDRO_REPAIR__RIVALS"] = "0"  # the fix stays unchecked: one answer, then the loop's replies
    env["PEDRO_REPAIR__MUTANTS"] = "0"  # and the scripted answer is asked for at once
    run = run_task(task, tmp_path, backend_args=backend, env=env, limits=TaskLimits(max_rounds=2, time_limit_s=120))
    result = run.result
    assert run.outcome.finished and '"type": "job.finished"' in run.stdout
    assert result.failure == (None if solved else "no_change")
    assert (result.task, result.tier, result.solved) == ("py-add-sign", "one-function", solved)
    assert result.exit_code == (0 if solved else 1)
    if reason:
        assert result.reason == reason and result.repair_candidates == 1 and result.rounds == 0
    else:
        # The wrong answer was undone, so the loop's completion claims found nothing changed.
        assert result.reason == "no_evidence" and result.repair_candidates == 1


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "solved"), [("repair", True), ("variants", False)])
def test_the_variants_mode_takes_no_code_the_model_writes_for_a_feature(
    stub_server: Any, tmp_path: Path, cli_env: dict[str, str], mode: str, solved: bool
) -> None:
    """A feature is written by the model's code or not at all: the variants mode, which counts what pedro fixes
    without the model's code, leaves it, so a feature repair's run builds counts as a model answer's fix."""
    answer = '```python\ndef is_even(n):\n    """Return True when n is even."""\n    return n % 2 == 0\n```'
    server = stub_server([answer] * 6 + ["TASK COMPLETE"] * 3)
    task = load_task(SUITE / "py-feature-is-even")
    model = "SmolLM2-135M-Instruct"  # a model under a billion parameters: build's direct way, as shipped
    (planned,) = task_plan([task], TaskGrid(model=model, profiles=[DEFAULT_PROFILE], modes=[mode]))
    backend = ["--backend", "openai", "--base-url", server.url + "/v1", "--model", model]
    env = {**env_for(cli_env), **planned.spec.env, "PEDRO_BUILD__RIVALS": "0"}
    run = run_task(task, tmp_path, backend_args=backend, env=env, limits=TaskLimits(max_rounds=2, time_limit_s=120))
    assert run.result.solved is solved, run.stderr
    # Repair's run kept the model's function; the variants' run gave it to the loop, which read it as prose.
    expected = ("built", None) if solved else ("round_limit", "no_tool_call")
    assert (run.result.reason, run.result.failure) == expected, run.result


@pytest.mark.parametrize(
    ("answer", "solved"),
    [
        # The whole file, as the probe asks; then a function alone, which goes in place of the failing one.
        ((SUITE / "py-add-sign" / "solution" / "calc.py").read_text(), True),
        (FIX[len("```python\n") : -len("\n```")], True),
        ("def add(a, b):\n    return a - b - 10\n", False),
    ],
    ids=["whole-file", "function", "wrong"],
)
def test_a_probe_puts_the_model_s_answer_into_the_file_and_runs_the_tests(
    stub_server: Any, tmp_path: Path, cli_env: dict[str, str], answer: str, solved: bool
) -> None:
    from pedro.eval.probe import ANSWERS, run_probe

    server = stub_server([f"```python\n{answer.rstrip()}\n```"] * ANSWERS)
    task = load_task(SUITE / "py-add-sign")
    backend = ["--backend", "openai", "--base-url", server.url + "/v1", "--model", "m"]
    run = run_probe(task, tmp_path, backend_args=backend, env=env_for(cli_env), time_limit_s=120)
    assert run.result.solved is solved
    assert run.result.reason == ("probe_fixed" if solved else "probe_unfixed"), run.stderr
    # The whole file and the failing assertion went to the model, with no tools; identical answers ran once.
    prompt = server.requests[0]["messages"][0]["content"]
    assert "def subtract(a, b):" in prompt and "assert add(2, 3) == 5" in prompt and not server.requests[0].get("tools")
    assert len(server.requests) == (1 if solved else ANSWERS)


def test_a_probe_whose_server_goes_away_says_so_instead_of_calling_the_bug_unfixed(
    stub_server: Any, tmp_path: Path, cli_env: dict[str, str]
) -> None:
    from pedro.eval.probe import ANSWERS, run_probe

    wrong = "```python\ndef add(a, b):\n    return a - b - 10\n```"
    server = stub_server([wrong] * ANSWERS, on_request=lambda number: number == 2 and server.stop())
    task = load_task(SUITE / "py-add-sign")
    backend = ["--backend", "openai", "--base-url", server.url + "/v1", "--model", "m"]
    run = run_probe(task, tmp_path, backend_args=backend, env=env_for(cli_env), time_limit_s=120)
    assert (run.result.solved, run.result.reason, run.result.failure) == (False, "backend_error", "server_error")
    assert len(server.requests) == 2 and run.result.repair_candidates == 2
    assert server.url in run.stderr and "connection refused" in run.stderr


def test_task_runs_load_no_pytest_plugin_the_task_does_not_name(tmp_path: Path) -> None:
    """The Python running pedro may carry plugins of its own (hypothesis); a task's plain pytest does not load them."""
    (tmp_path / "conftest.py").write_text("")
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert True\n")
    env = task_env(os.environ, Path(sys.executable).parent)
    assert env["PATH"].split(os.pathsep)[0] == str(Path(sys.executable).parent)
    shown = subprocess.run(
        ["python", "-m", "pytest", "-p", "no:cacheprovider", "--trace-config", "-q"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "hypothesis" not in shown and "xdist" not in shown


def test_a_run_stopped_at_its_limit_keeps_where_pedro_was_waiting(
    stub_server: Any, tmp_path: Path, cli_env: dict[str, str]
) -> None:
    from stub_server import Looping

    from pedro.eval.launch import run_pedro

    # A model that never stops writing: the run outlives its limit in the middle of a request.
    server = stub_server([Looping("word ", numbered=True)] * 4)
    repo = prepare_repository(load_task(SUITE / "py-add-sign"), tmp_path / "repo")
    backend = ["--backend", "openai", "--base-url", server.url + "/v1", "--model", "m"]
    args = ["build", "--description", "add a function sub(a, b)", "--json", *backend]
    env = {**env_for(cli_env), "PEDRO_AGENT__TIME_LIMIT_S": "300", "PEDRO_BUILD__STRATEGY": "loop"}
    launched = run_pedro(args, cwd=repo, env=env, time_limit_s=6)
    # Every thread's stack at the limit (SIGUSR1), and pedro went on to end as Ctrl-C ends it, its job saved.
    assert launched.timed_out and "(most recent call first)" in launched.stderr, launched.stderr[-2000:]
    assert "File " in launched.stderr and launched.exit_code == 130
    assert '"type": "job.finished"' in launched.stdout


def test_what_pedros_own_log_said_above_debug_is_kept_with_its_traceback(tmp_path: Path) -> None:
    from pedro.debuglog import LOGGER, job_log
    from pedro.eval.taskrun import logged_above_debug

    log = tmp_path / ".pedro" / "jobs" / "20261206-010000-abcd" / "debug.log"
    log.parent.mkdir(parents=True)
    with job_log(log):
        LOGGER.debug("a request took 2 s")
        LOGGER.warning("git exited, but its output stayed open in 4242 (sleep 120)")
        try:
            {}["missing"]
        except KeyError:
            LOGGER.exception("a tool failed")
        LOGGER.info("the job ended")
    kept = logged_above_debug(tmp_path)
    assert "stayed open in 4242 (sleep 120)" in kept and "KeyError: 'missing'" in kept
    assert "a request took" not in kept and "the job ended" not in kept
    assert logged_above_debug(tmp_path / "nothing") == ""

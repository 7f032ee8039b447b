"""The real `pedro` process with sampling profiles, model presets and the tool-calling flags, against a stub
server speaking the OpenAI wire."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_util import build, fenced, pedro
from repo_util import git

EDIT = fenced("code_edit", {"path": "calc.py", "old": "a - b", "new": "a + b"})


@pytest.fixture
def calc_repo(repo: Path) -> Path:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(repo, "add", "calc.py")
    git(repo, "commit", "-qm", "calc")
    return repo


def user_config(env: dict[str, str], text: str) -> None:
    path = Path(env["XDG_CONFIG_HOME"]) / "pedro" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_a_preset_in_the_user_file_is_picked_up_and_the_flag_beats_it(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    user_config(cli_env, '[models."m"]\nsampling_profile = "smollm_recommended"\n')
    server = stub_server([EDIT, "TASK COMPLETE\ndone"])
    proc = build(server, calc_repo, cli_env, "--no-commit")  # so that the second build starts from the same code
    assert proc.returncode == 0, proc.stderr
    assert all((r["temperature"], r["top_p"]) == (0.2, 0.9) for r in server.requests)
    git(calc_repo, "checkout", "-q", "calc.py")
    server = stub_server([EDIT, "TASK COMPLETE\ndone"])
    proc = build(server, calc_repo, cli_env, "--sampling-profile", "creative")
    assert proc.returncode == 0, proc.stderr
    assert all((r["temperature"], r["top_p"]) == (0.9, 0.95) for r in server.requests)


def test_overrides_from_the_environment_reach_the_wire(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    env = {**cli_env, "PEDRO_TOOL_CALLING__REQUEST_OVERRIDES": '{"seed": 11, "model": "x"}'}
    server = stub_server([EDIT, "TASK COMPLETE\ndone"])
    proc = build(server, calc_repo, env)
    assert proc.returncode == 0, proc.stderr
    assert all(r["seed"] == 11 and r["model"] == "m" for r in server.requests)
    assert "request_overrides: model ignored" in proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("flag", "value", "named"),
    [("--tool-use-mode", "always", "tool_calling.tool_use_mode"), ("--sampling-profile", "hot", "'hot'")],
)
def test_a_bad_flag_value_exits_2_naming_the_key(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str], flag: str, value: str, named: str
) -> None:
    server = stub_server([])
    proc = build(server, calc_repo, cli_env, flag, value)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert named in proc.stderr and "command-line flags" in proc.stderr
    assert not server.requests


def test_tool_use_mode_from_the_command_line_reaches_the_loop(
    calc_repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server([EDIT, "TASK COMPLETE\ndone"])
    proc = build(server, calc_repo, cli_env, "--tool-use-mode", "disabled", "--json")
    assert "tools" not in server.requests[0]
    assert "return a - b" in (calc_repo / "calc.py").read_text()  # the call written in text did not run
    started = json.loads(proc.stdout.splitlines()[0])
    assert started["tools"] == [] and started["settings"]["tool_calling"]["tool_use_mode"] == "disabled"

    server = stub_server(["TASK COMPLETE\nthe log says add() subtracts"])
    (calc_repo / "ci.log").write_text("FAILED test_calc.py::test_add - assert -1 == 3\n")
    proc = pedro(
        "triage", "--log", "ci.log", "--base-url", f"{server.url}/v1", "--model", "m", "--no-input", "--json",
        "--tool-use-mode", "enforced", env=cli_env, cwd=calc_repo,
    )  # fmt: skip
    finished = json.loads(proc.stdout.splitlines()[-1])
    assert finished["reason"] == "no_tool_call" and proc.returncode != 0

"""pedro eval against hostile inputs: model-written code run by a task's check, and hostile tasks and scenarios."""

from __future__ import annotations

import os
import socket
import sys
import threading
from pathlib import Path

import pytest
import tomlkit
from harness import PLANTED_ENV, SSH_KEY, Arena
from repo_util import git

from pedro.errors import UsageError
from pedro.eval.scenarios import SCENARIOS_DIR, load_scenario
from pedro.eval.taskrun import commit_repository, prepare_repository, score
from pedro.eval.tasks import Task, load_task

SUITE = Path(__file__).resolve().parents[2] / "evals" / "tasks"


def check_env() -> dict[str, str]:
    """pedro eval's own environment (planted secrets included) with this interpreter, and so pytest, on PATH."""
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def make_task(folder: Path, files: dict[str, str], *, check: str = "python -m pytest -q") -> Task:
    (folder / "repo").mkdir(parents=True)
    for name, text in files.items():
        (folder / "repo" / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "repo" / name).write_text(text)
    (folder / "task.toml").write_text(
        f'title = "t"\nlanguage = "python"\ntier = "one-function"\ndescription = "d"\ntest = "{check}"\n'
        f'check = "{check}"\n'
    )
    return load_task(folder)


class Listener:
    """A loopback TCP listener that records whether anything connected."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connected = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connected = True
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.sock.close()


def test_hole_the_checks_model_written_conftest_runs_in_the_sandbox(arena: Arena, sandbox: str, tmp_path: Path) -> None:
    """The model left a conftest.py that the task's check imports: it must not write the user's keys, read them
    or pedro's secrets, write outside the repository, or reach a loopback listener."""
    # seen.txt exists already: under Landlock a command may change the top folder's files, not add to it.
    task = make_task(tmp_path / "task", {"test_ok.py": "def test_ok():\n    assert True\n", "seen.txt": ""})
    repo = prepare_repository(task, tmp_path / "run")
    listener = Listener()
    key, outside = arena.home / ".ssh" / "id_rsa", arena.sentinel / "pwned.txt"
    (repo / "conftest.py").write_text(
        "import os, socket, pathlib\n"
        "seen = []\n"
        f"for path in ({str(key)!r}, {str(outside)!r}):\n"
        "    try:\n"
        "        seen.append(pathlib.Path(path).read_text())\n"
        "    except OSError as exc:\n"
        "        seen.append(f'read refused: {exc}')\n"
        "    try:\n"
        "        pathlib.Path(path).write_text('pwned')\n"
        "    except OSError as exc:\n"
        "        seen.append(f'write refused: {exc}')\n"
        "seen.append(repr(dict(os.environ)))\n"
        "try:\n"
        f"    socket.create_connection(('127.0.0.1', {listener.port}), timeout=2).close()\n"
        "except OSError as exc:\n"
        "    seen.append(f'connect refused: {exc}')\n"
        "pathlib.Path('seen.txt').write_text('\\n'.join(seen))\n"
    )
    try:
        passed = score(task, repo, check_env())
    finally:
        listener.close()

    seen = (repo / "seen.txt").read_text()  # the conftest really ran, inside the repository
    assert passed, seen
    assert key.read_text() == SSH_KEY
    assert not outside.exists()
    assert SSH_KEY.strip().splitlines()[1] not in seen
    for name, value in PLANTED_ENV.items():
        assert name not in seen and value not in seen, sandbox
    assert not listener.connected, sandbox
    arena_digests = arena.outside_digests()
    assert arena_digests == arena.digests


def test_hole_hidden_tests_are_not_written_through_the_models_links(arena: Arena, sandbox: str, tmp_path: Path) -> None:
    """The model replaced the hidden test's place (and its folder's) with links to the user's files: scoring copies
    the hidden tests in as real files and leaves the user's files alone."""
    task = load_task(SUITE / "py-add-sign")
    repo = prepare_repository(task, tmp_path / "run")
    bashrc = arena.home / ".bashrc"
    before = bashrc.read_bytes()
    (repo / "test_calc_hidden.py").symlink_to(bashrc)
    score(task, repo, check_env())
    assert bashrc.read_bytes() == before
    assert not (repo / "test_calc_hidden.py").is_symlink()
    assert (repo / "test_calc_hidden.py").read_text() == (task.hidden / "test_calc_hidden.py").read_text()


def test_hole_a_task_file_linking_out_of_the_task_is_refused(arena: Arena, tmp_path: Path) -> None:
    task = make_task(tmp_path / "task", {"calc.py": "x = 1\n"})
    (task.repo / "key.txt").symlink_to(arena.home / ".ssh" / "id_rsa")
    with pytest.raises(UsageError, match=r"key.txt is a link to .*outside the task"):
        prepare_repository(task, tmp_path / "run")
    assert not (tmp_path / "run" / "key.txt").exists()


def test_a_link_inside_the_task_is_copied_as_its_file(tmp_path: Path) -> None:
    task = make_task(tmp_path / "task", {"calc.py": "x = 1\n"})
    (task.repo / "alias.py").symlink_to("calc.py")
    repo = prepare_repository(task, tmp_path / "run")
    assert (repo / "alias.py").read_text() == "x = 1\n" and not (repo / "alias.py").is_symlink()


def test_hole_a_tasks_own_git_config_is_refused(arena: Arena, tmp_path: Path) -> None:
    """A task whose repo/ carries .git/config with core.fsmonitor would run it on the setup commit."""
    task = make_task(tmp_path / "task", {"calc.py": "x = 1\n"})
    (task.repo / ".git").mkdir()
    (task.repo / ".git" / "config").write_text(f'[core]\n\tfsmonitor = "touch {arena.sentinel}/pwned"\n')
    with pytest.raises(UsageError, match=r"\.git"):
        prepare_repository(task, tmp_path / "run")
    assert not (arena.sentinel / "pwned").exists()


def test_hole_the_setup_commit_runs_no_hook_and_no_fsmonitor(arena: Arena, tmp_path: Path) -> None:
    repo = tmp_path / "run"
    repo.mkdir()
    git(repo, "init", "-q")
    pwned = arena.sentinel / "pwned"
    git(repo, "config", "core.fsmonitor", f"touch {pwned}.fsmonitor; false")
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\ntouch {pwned}.hook\n")
    hook.chmod(0o755)
    (repo / "calc.py").write_text("x = 1\n")
    commit_repository(repo)
    assert git(repo, "log", "--format=%s").strip() == "task"
    assert not list(arena.sentinel.glob("pwned*"))


@pytest.mark.parametrize(("path", "said"), [("/tmp/evil.py", "not a path inside"), ("../../x.py", "climbs out")])
def test_hole_a_scenario_file_outside_the_repository_is_refused(tmp_path: Path, path: str, said: str) -> None:
    scenario = _scenario_with_file(tmp_path, path)
    with pytest.raises(UsageError, match=said):
        load_scenario(scenario)


def test_hole_a_scenario_writing_git_config_is_refused(tmp_path: Path) -> None:
    scenario = _scenario_with_file(tmp_path, ".git/config")
    with pytest.raises(UsageError, match=r"inside \.git"):
        load_scenario(scenario)


def _scenario_with_file(tmp_path: Path, path: str) -> Path:
    """A built-in scenario with one more file, at `path`."""
    document = tomlkit.parse((SCENARIOS_DIR / "call_formats.toml").read_text())
    document["files"][path] = "[core]\n\tfsmonitor = touch /tmp/pwned\n"  # type: ignore[index]
    target = tmp_path / "hostile.toml"
    target.write_text(tomlkit.dumps(document))
    return target

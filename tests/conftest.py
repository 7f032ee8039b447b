"""Shared fixtures: real temporary git repositories and a guard against non-loopback network access."""

from __future__ import annotations

import os
import shutil
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from repo_util import git

from pedro.config import ToolsConfig
from pedro.tools.base import ToolContext

pytest_plugins = ["timing"]  # the slow and medium tiers, from durations.json


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C as at a terminal for every process the tests start: a runner that starts the suite in the background
    (a shell without job control) leaves SIGINT ignored, which its children inherit, and the tests that send pedro
    a Ctrl-C would then wait on a process that never sees it."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


# The pytest plugins installed for pedro's own suite; the repositories the tests build never use them.
_SUITE_PLUGINS = ("hypothesispytest", "xdist", "xdist.looponfail", "anyio")


@pytest.fixture(scope="session", autouse=True)
def _test_runs_without_the_suites_plugins() -> Iterator[None]:
    """Every pytest the tests start (pedro's test runs, the warm pytest, a task's run) leaves out the plugins pedro's
    own suite installs: importing them cost 0.3-0.5 s at each start (0.57-0.78 s against 0.26 s for a one-test run),
    and the tests start thousands. This process's own pytest has read its options already."""
    with pytest.MonkeyPatch.context() as patch:
        turned_off = " ".join(f"-p no:{name}" for name in _SUITE_PLUGINS)
        patch.setenv("PYTEST_ADDOPTS", f"{os.environ.get('PYTEST_ADDOPTS', '')} {turned_off}".strip())
        yield


@pytest.fixture(scope="session")
def _template_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository `repo` copies: built once per worker, since five git commands cost 23 ms a test, a copy 6."""
    path = tmp_path_factory.mktemp("template") / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "dev@example.com")
    git(path, "config", "user.name", "Dev")
    (path / "README.md").write_text("# sample\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    return path


@pytest.fixture
def repo(tmp_path: Path, _template_repo: Path) -> Path:
    """A real git repository with one commit, on branch main: a copy of one built for the session."""
    path = tmp_path / "repo"
    shutil.copytree(_template_repo, path, symlinks=True)
    return path


@pytest.fixture
def ctx(repo: Path) -> ToolContext:
    """A tool context on the sample repository, with approvals refused."""
    return ToolContext(root=repo, config=ToolsConfig())


@pytest.fixture(autouse=True)
def _loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refuse network connections to anything but loopback."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else address
        inet = self.family in (socket.AF_INET, socket.AF_INET6)
        if inet and isinstance(host, str) and not (host.startswith("127.") or host in ("localhost", "::1")):
            raise OSError(f"tests may not reach {host}: only loopback is allowed")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture
def stub_server() -> Iterator[Any]:
    """Start stdlib chat servers on 127.0.0.1 with queued replies; all are stopped after the test."""
    from stub_server import StubServer

    started: list[StubServer] = []

    def start(replies: list[Any], **kwargs: Any) -> StubServer:
        server = StubServer(list(replies), **kwargs).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def cli_env(tmp_path: Path) -> dict[str, str]:
    """An environment for running the real `pedro` process with no user config and no CI prompts."""
    outside = ("OLLAMA_HOST", "OPENAI_BASE_URL", "GITHUB_BASE_REF")  # each changes what pedro picks
    env = {k: v for k, v in os.environ.items() if not k.startswith("PEDRO_") and k not in outside}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg-config")
    env["PYTHONWARNINGS"] = "error"
    return env


@pytest.fixture
def branch_repo(tmp_path: Path) -> Path:
    """A repository whose feature branch adds mul() on top of main's buggy add()."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(repo, "add", "calc.py")
    git(repo, "commit", "-q", "-m", "calc")
    git(repo, "switch", "-q", "-c", "feature")
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n")
    git(repo, "commit", "-q", "-am", "mul")
    return repo

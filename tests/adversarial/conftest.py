"""Fixtures of the adversarial suite: the arena (repository, fake home, sentinel) and the sandbox to run under."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import PLANTED_ENV, Arena, kill_all, make_arena, marked_processes

from pedro.safety.sandbox import SWITCH_VAR, detect_sandbox


@pytest.fixture
def arena(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Arena]:
    """The repository, a fake $HOME with keys and dotfiles, a sentinel directory, and secrets in the environment."""
    built = make_arena(repo, tmp_path)
    monkeypatch.setenv("HOME", str(built.home))
    for name, value in PLANTED_ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv(SWITCH_VAR, raising=False)
    yield built
    # a failed case must not leave its children running for the rest of the session
    kill_all(marked_processes(built.home))


@pytest.fixture(params=["bwrap", "landlock"])
def sandbox(request: pytest.FixtureRequest, arena: Arena, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the case under bubblewrap (the default) and again under the Landlock fallback."""
    found = detect_sandbox()
    if request.param == "bwrap":
        if found.kind != "bubblewrap":
            pytest.skip(f"bubblewrap is not usable here: {found.detail}")
        monkeypatch.delenv(SWITCH_VAR, raising=False)
    else:
        if found.landlock_abi is None:
            pytest.skip(f"Landlock is not available here: {found.detail}")
        monkeypatch.setenv(SWITCH_VAR, "landlock")
    return str(request.param)


@pytest.fixture
def bwrap_only(arena: Arena, monkeypatch: pytest.MonkeyPatch) -> None:
    """For commands that would harm this machine if the policy ever let them through: only bubblewrap contains them
    (its pid namespace and read-only root), so they are never tried under the Landlock fallback."""
    found = detect_sandbox()
    if found.kind != "bubblewrap":
        pytest.skip(f"bubblewrap is not usable here, and these commands need its containment: {found.detail}")
    monkeypatch.delenv(SWITCH_VAR, raising=False)


@pytest.fixture(params=["bwrap", "landlock"])
def sandbox_env(request: pytest.FixtureRequest) -> dict[str, str]:
    """For cases run through the real `pedro` process: the environment that picks bubblewrap (the default), and
    then the Landlock fallback."""
    found = detect_sandbox()
    if request.param == "bwrap":
        if found.kind != "bubblewrap":
            pytest.skip(f"bubblewrap is not usable here: {found.detail}")
        return {}
    if found.landlock_abi is None:
        pytest.skip(f"Landlock is not available here: {found.detail}")
    return {SWITCH_VAR: "landlock"}

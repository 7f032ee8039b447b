"""What the Landlock fallback used to leave readable: the user's git configuration (an http.extraHeader token) and the
environment of pedro and its ancestors under /proc. Neither may reach the model, not even reversed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro
from harness import DONE, Arena, bash, check_invariants, job_files_text, run_case, tree_digest

from pedro.safety.sandbox import SWITCH_VAR

# Header values no redaction pattern knows: only hiding the files keeps them from the model.
GITCONFIG_TOKEN = "gitconfig-planted-token-4a2e9c"
XDG_GIT_TOKEN = "xdg-git-planted-token-7d1b3f"
GIT_CREDENTIAL = "xdg-credential-planted-5e8a0d"
ENV_SECRET = "environ-planted-secret-c3f19a"

# Walks up from itself and prints every ancestor's environment reversed, past any redaction of known values.
ANCESTOR_WALK = """\
import os
pid = os.getpid()
while pid > 1:
    try:
        print(open(f"/proc/{pid}/environ").read()[::-1])
    except OSError as exc:
        print("environ:", exc)
    try:
        pid = int(open(f"/proc/{pid}/status").read().split("PPid:")[1].split()[0])
    except (OSError, IndexError, ValueError) as exc:
        print("status:", exc)
        break
"""


def plant_git_config(home: Path, xdg: Path) -> None:
    (home / ".gitconfig").write_text(f"[http]\n\textraHeader = X-Planted-Auth: {GITCONFIG_TOKEN}\n")
    (xdg / "git").mkdir(parents=True)
    (xdg / "git" / "config").write_text(f'[http "https://example.com"]\n\textraHeader = X-Auth: {XDG_GIT_TOKEN}\n')
    (xdg / "git" / "credentials").write_text(f"https://user:{GIT_CREDENTIAL}@example.com\n")


def leaked(text: str, secrets: tuple[str, ...]) -> list[str]:
    return [s for s in secrets if s in text or s[::-1] in text]


def test_user_git_config_never_reaches_the_model(
    arena: Arena, sandbox: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """~/.gitconfig and $XDG_CONFIG_HOME/git hold tokens (http.extraHeader, a credential store): hidden like the
    other credential stores, so neither cat nor git config prints them."""
    xdg = tmp_path / "xdg"
    plant_git_config(arena.home, xdg)
    arena.digests[arena.home] = tree_digest(arena.home)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    commands = [
        "cat ~/.gitconfig | rev",
        f"cat {xdg}/git/config {xdg}/git/credentials | rev",
        "cat ~/.config/git/config; git config --global --get-regexp http | rev",
        "git config --get-regexp 'http.*' | rev",
    ]
    run = run_case(arena, [bash(command) for command in commands])

    secrets = (GITCONFIG_TOKEN, XDG_GIT_TOKEN, GIT_CREDENTIAL)
    assert leaked(run.everything_sent(), secrets) == [], sandbox
    assert leaked(job_files_text(arena.root, run.job_id), secrets) == [], sandbox
    check_invariants(run)


def test_no_process_environment_is_readable(
    arena: Arena, sandbox: str, stub_server: Any, cli_env: dict[str, str], tmp_path: Path
) -> None:
    """The real `pedro build --no-input`, a secret in its environment: a command that walks up its ancestors'
    /proc/<pid>/environ (pedro's among them) and prints them reversed learns nothing."""
    (arena.root / "walk.py").write_text(ANCESTOR_WALK)
    server = stub_server([bash("python3 walk.py"), DONE, DONE])
    env = {**cli_env, "HOME": str(arena.home), "PYTHONDONTWRITEBYTECODE": "1", "DEPLOY_SECRET": ENV_SECRET}
    if sandbox == "landlock":
        env[SWITCH_VAR] = "landlock"
    argv = ["build", "-d", "x", "--base-url", f"{server.url}/v1", "--model", "m", "--no-input"]
    done = pedro(*argv, env=env, cwd=arena.root)

    assert "Traceback" not in done.stderr, done.stderr
    sent = json.dumps(server.requests)
    assert "walk.py" in sent and len(server.requests) >= 2, "the command ran and its result went to the model"
    assert leaked(sent, (ENV_SECRET,)) == [], sandbox
    jobs = [p.name for p in (arena.root / ".pedro" / "jobs").iterdir()]
    assert leaked(job_files_text(arena.root, jobs[0]), (ENV_SECRET,)) == [], sandbox

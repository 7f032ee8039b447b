"""Helpers for tests that run the real `pedro` process against a stub server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import warm_pedro


def pedro(
    *args: str, env: dict[str, str], cwd: Path, stdin: str | None = None, python_flags: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """Run `python [PYTHON_FLAGS] -m pedro ARGS` in `cwd` and capture what it printed (forked from a warm pedro
    where nothing read as Python starts differs: warm_pedro)."""
    if not python_flags:
        warm = warm_pedro.run(list(args), env=env, cwd=cwd, stdin=stdin, timeout=300)
        if warm is not None:
            return warm
    return subprocess.run(
        [sys.executable, *python_flags, "-m", "pedro", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def build(
    server: Any,
    repo: Path,
    env: dict[str, str],
    *extra: str,
    description: str = "Fix add()",
    backend: str = "openai",
) -> Any:
    """`pedro build` against a stub server speaking `backend`'s wire (OpenAI-compatible by default), never prompting."""
    return pedro(
        "build",
        "-d",
        description,
        "--backend",
        backend,
        "--base-url",
        f"{server.url}/v1" if backend == "openai" else server.url,
        "--model",
        "m",
        "--no-input",
        *extra,
        env=env,
        cwd=repo,
    )


def fenced(tool: str, body: dict[str, Any] | str) -> str:
    """A call in pedro's fenced convention; a dict body becomes JSON arguments."""
    return f"```{tool}\n{body if isinstance(body, str) else json.dumps(body)}\n```"


# A frame of pedro's own code in a Python traceback; a real model's echoed reply may say "Traceback" on its own.
_PEDRO_FRAME = re.compile(r'File "[^"\n]*[/\\]pedro[/\\][^"\n]*\.py", line \d+')


def pedro_crashed(printed: str) -> bool:
    """Whether what pedro printed holds a traceback through pedro's own code."""
    return "Traceback (most recent call last)" in printed and _PEDRO_FRAME.search(printed) is not None


def processes_holding(marker: str) -> list[str]:
    """The processes whose command line holds `marker` (`pid: command`): what pedro left running."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if entry.name.isdigit() and marker in command:
            found.append(f"{entry.name}: {command}")
    return found

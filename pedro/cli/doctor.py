"""`pedro doctor`: a table of what works — server, model, context size, tool calls, and local helpers."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from pedro.cli.common import BackendOpt, BaseUrlOpt, CommonFlags, ModelOpt, RepoOpt, load
from pedro.errors import PedroError

if TYPE_CHECKING:
    from pedro.config import PedroConfig


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    essential: bool = False


def doctor(
    backend: BackendOpt = None, base_url: BaseUrlOpt = None, model: ModelOpt = None, repo: RepoOpt = Path()
) -> None:
    """Check the backend and the local tools pedro relies on; exit non-zero when the backend is unusable."""
    _, config = load(CommonFlags(backend=backend, base_url=base_url, model=model, repo=repo), need_git=False)
    checks = [*_backend_checks(config), *_local_checks()]
    width = max(len(c.name) for c in checks)
    for check in checks:
        mark = "ok  " if check.ok else ("FAIL" if check.essential else "warn")
        sys.stdout.write(f"{mark}  {check.name:<{width}}  {check.detail}\n")
    failed = [c for c in checks if c.essential and not c.ok]
    raise typer.Exit(3 if failed else 0)


def _backend_checks(config: PedroConfig) -> list[Check]:
    from pedro.backends import get_backend

    url = config.resolved_base_url()
    checks = [Check("backend", True, f"{config.backend.kind} at {url}")]
    try:
        backend = get_backend(config)
    except PedroError as exc:
        return [*checks, Check("server", False, str(exc), essential=True)]
    try:
        window = backend.context_window()
        checks.append(Check("server reachable", True, url, essential=True))
        checks.append(
            Check(
                "context size",
                window is not None,
                f"{window} tokens" if window else "the server does not say; set [backend].context_window",
            )
        )
    except PedroError as exc:
        checks.append(Check("server reachable", False, str(exc), essential=True))
    finally:
        backend.close()
    if not config.backend.model:
        checks.append(Check("model", False, "no model configured: pass --model or set [backend].model", True))
    else:
        checks.append(Check("model", True, config.backend.model))
    return checks


def _local_checks() -> list[Check]:
    checks = []
    git = shutil.which("git")
    checks.append(
        Check("git", git is not None, _version([git, "--version"]) if git else "not found: install git", essential=True)
    )
    rg = shutil.which("rg")
    checks.append(
        Check(
            "ripgrep",
            rg is not None,
            _version([rg, "--version"])
            if rg
            else "not found: pip install ripgrep==14.1.0 (or apt-get install ripgrep)",
        )
    )
    server = shutil.which("llama-server")
    checks.append(Check("llama-server", server is not None, server or "not on PATH: scripts/install-llama-server"))
    bwrap = shutil.which("bwrap")
    checks.append(
        Check(
            "sandbox",
            bwrap is not None,
            f"bubblewrap ({bwrap})" if bwrap else "bubblewrap not found: apt-get install bubblewrap",
        )
    )
    return checks


def _version(argv: list[str]) -> str:
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"cannot run: {exc}"
    return proc.stdout.strip().splitlines()[0] if proc.stdout.strip() else "present"

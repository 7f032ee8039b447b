"""Going on with an evaluation stopped half way: its finished runs kept, the rest made with its settings and code."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pedro import __version__, gitlayer
from pedro.errors import UsageError
from pedro.eval.records import RunRecord, RunSpec
from pedro.eval.results import SUMMARY, EvalStore
from pedro.eval.runner import PlannedRun
from pedro.gitlayer import GitError

SOURCE = Path(__file__).resolve().parents[2]
"""The folder pedro runs from: a git checkout when pedro is run from its source."""


def code_identity() -> dict[str, Any]:
    """Which pedro makes the runs: its version, and where it runs from a git checkout, the commit and a digest of
    any uncommitted change to its code. Two halves of one evaluation must be made by the same code."""
    identity: dict[str, Any] = {"version": __version__}
    if not (SOURCE / ".git").exists():
        return identity
    try:
        head = gitlayer.run(SOURCE, "rev-parse", "HEAD", timeout=15)
        changed = gitlayer.run(SOURCE, "diff", "HEAD", "--", "pedro", timeout=15)
    except GitError:
        return identity
    if head.ok and changed.ok:
        identity["commit"] = head.out.strip()
        if changed.out:
            identity["changes"] = hashlib.sha256(changed.out.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return identity


def reopen(folder: Path, *, suite: str, settings: Mapping[str, Any]) -> EvalStore:
    """The evaluation in `folder`, to go on with; UsageError when it is not one, or when this evaluation's suite,
    settings or code differ from the ones it was started with: its figures would then mix two measurements."""
    if not (folder / SUMMARY).is_file():
        raise UsageError(f"--resume {folder}: no {SUMMARY} there; give a folder under .pedro/evals/ that pedro wrote")
    try:
        store = EvalStore.reopen(folder)
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise UsageError(f"--resume {folder}: its results cannot be read ({exc}); start a new evaluation") from exc
    started_as = {"suite": store.meta.get("suite"), **dict(store.meta.get("settings") or {})}
    wanted = {"suite": suite, **json.loads(json.dumps(dict(settings)))}
    differ = sorted(key for key in started_as.keys() | wanted.keys() if started_as.get(key) != wanted.get(key))
    if differ:
        said = "; ".join(f"{key}: {_shown(started_as.get(key))} then, {_shown(wanted.get(key))} now" for key in differ)
        raise UsageError(f"--resume {folder}: {said}. Give the flags it was started with, or start a new evaluation")
    code, now = store.meta.get("pedro"), code_identity()
    if code != now:
        raise UsageError(
            f"--resume {folder}: it was started by pedro {_code(code)}, and this is pedro {_code(now)}. Run it with "
            "the code that started it (git checkout its commit), or start a new evaluation"
        )
    return store


def remaining(planned: Sequence[PlannedRun], done: Sequence[RunRecord]) -> list[PlannedRun]:
    """The planned runs the evaluation has not made yet."""
    made = {_key(record) for record in done}
    return [item for item in planned if _key(item.spec) not in made]


def _key(run: RunSpec | RunRecord) -> tuple[str, str, str, str, str, int]:
    return (run.run_id, run.scenario, run.model, run.profile, run.mode, run.trial)


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _code(identity: Any) -> str:
    if not isinstance(identity, Mapping):
        return "of unknown make"
    text = str(identity.get("version", "?"))
    if identity.get("commit"):
        text += f" at {str(identity['commit'])[:12]}"
    if identity.get("changes"):
        text += f" with uncommitted changes {identity['changes']}"
    return text

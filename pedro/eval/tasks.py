"""The task suite: small repositories with a failing check (evals/README.md describes the format)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from pedro.errors import UsageError

Tier = Literal["one-function", "find-file", "two-edits", "feature", "real-project"]
Language = Literal["python", "javascript", "go"]
TIERS: tuple[str, ...] = get_args(Tier)


@dataclass(frozen=True)
class Task:
    """One task: where it lives and what its task.toml says."""

    id: str
    path: Path
    title: str
    language: Language
    tier: Tier
    description: str
    test: str
    check: str
    timeout_s: int = 120
    # Where a real project's bug comes from: the fix commit's address.
    origin: str = ""

    @property
    def repo(self) -> Path:
        return self.path / "repo"

    @property
    def hidden(self) -> Path:
        return self.path / "hidden"


def load_task(path: Path) -> Task:
    """The task in folder `path`; UsageError naming the file and the key when task.toml is wrong."""
    file = path / "task.toml"
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"cannot read {file} ({exc}); every task folder needs a valid task.toml") from exc
    keys = ("title", "language", "tier", "description", "test", "check")
    missing = [key for key in keys if not isinstance(data.get(key), str) or not data[key].strip()]
    if missing:
        raise UsageError(f"{file} lacks {', '.join(missing)}; see evals/README.md for the format")
    if data["tier"] not in TIERS or data["language"] not in get_args(Language):
        raise UsageError(f"{file}: tier {data['tier']!r} or language {data['language']!r} is not one pedro knows")
    origin = data.get("origin", "")
    if data["tier"] == "real-project" and (not isinstance(origin, str) or not origin.startswith("https://")):
        raise UsageError(f'{file}: a real-project task names its fix commit as origin = "https://..."')
    timeout = data.get("timeout_s", 120)
    if not isinstance(timeout, int) or not 0 < timeout <= 600:
        raise UsageError(f"{file}: timeout_s must be a whole number of seconds from 1 to 600")
    return Task(
        id=path.name,
        path=path,
        title=data["title"],
        language=data["language"],
        tier=data["tier"],
        description=data["description"],
        test=data["test"],
        check=data["check"],
        timeout_s=timeout,
        origin=origin,
    )


def load_suite(root: Path, *, only: tuple[str, ...] = (), tiers: tuple[str, ...] = ()) -> list[Task]:
    """Every task under `root` in id order, or those named in `only` / of the given tiers."""
    folders = sorted(p for p in root.iterdir() if (p / "task.toml").is_file()) if root.is_dir() else []
    if not folders:
        raise UsageError(f"no tasks under {root}; give the folder that holds one folder per task")
    tasks = [load_task(folder) for folder in folders]
    unknown = sorted(set(only) - {task.id for task in tasks})
    if unknown:
        raise UsageError(f"no task named {', '.join(unknown)} under {root}")
    return [t for t in tasks if (not only or t.id in only) and (not tiers or t.tier in tiers)]

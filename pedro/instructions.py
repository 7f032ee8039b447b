"""The project's own instructions for agents (AGENTS.md and its kin), found nearest to the working directory first
and cut to a budget, for the first message of a job."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pedro.prompts import render_prompt

INSTRUCTION_FILES = ("AGENTS.md", "CLAUDE.md", "CONVENTIONS.md")
"""Looked for in the working directory and each folder above it up to the repository root."""
REPOSITORY_FILES = (".github/copilot-instructions.md",)
"""Looked for at the repository root only."""
_MAX_FILE_BYTES = 256 * 1024


@dataclass(frozen=True)
class Instructions:
    """What reaches the model, and which files it came from (for the job's record)."""

    text: str
    files: tuple[str, ...]
    cut: bool
    """Some text was left out for the budget."""


def find_instruction_files(root: Path, cwd: Path) -> list[Path]:
    """The instruction files that exist, nearest to `cwd` first; `cwd` outside `root` counts as the root."""
    root, cwd = root.resolve(), cwd.resolve()
    if cwd != root and root not in cwd.parents:
        cwd = root
    folders = [cwd, *[parent for parent in cwd.parents if parent == root or root in parent.parents]]
    found = [folder / name for folder in folders for name in INSTRUCTION_FILES]
    found += [root / name for name in REPOSITORY_FILES]
    # A link could lead anywhere (a home file, /proc): only regular files inside the repository count.
    return [path for path in found if path.is_file() and not path.is_symlink() and path.resolve().is_relative_to(root)]


def load_instructions(root: Path, cwd: Path, *, max_chars: int) -> Instructions | None:
    """The instruction files' text, nearest first, within `max_chars` in all; None when there are none."""
    files = find_instruction_files(root, cwd)
    if not files or max_chars <= 0:
        return None
    parts: list[str] = []
    used, cut, named = 0, False, []
    for path in files:
        try:
            if path.stat().st_size > _MAX_FILE_BYTES:
                cut = True
                continue
            text = path.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            continue
        if not text:
            continue
        rel = path.relative_to(root.resolve()).as_posix()
        room = max_chars - used
        if room <= 0:
            cut = True
            break
        if len(text) > room:
            text, cut = text[:room].rstrip() + "\n[… cut: the rest of this file is over pedro's budget]", True
        parts.append(render_prompt("context/project_file.md", path=rel, text=text).strip())
        used += len(text)
        named.append(rel)
    if not parts:
        return None
    body = render_prompt("context/project_instructions.md", files="\n\n".join(parts)).strip()
    return Instructions(body, tuple(named), cut)

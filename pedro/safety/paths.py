"""Confine every path a tool touches to the repository root."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

MAX_PATH_CHARS = 4096


class PathRefusedError(Exception):
    """A path the model gave that pedro will not touch; the message is for the model."""


def confine(root: Path, raw: str, *, must_exist: bool = False) -> Path:
    """Resolve `raw` against `root` through symlinks and refuse anything that leaves the root.

    For a path that does not exist yet, the deepest existing ancestor is resolved, so a symlinked
    directory cannot carry a new file outside. `~` and `$HOME` are never expanded.
    """
    text = _checked_text(raw)
    real_root = root.resolve()
    candidate = Path(text)
    if not candidate.is_absolute():
        candidate = real_root / candidate
    resolved = resolve_inside(real_root, candidate)
    if resolved is None:
        raise PathRefusedError(f"path {raw!r} escapes the repository ({real_root}); tools only reach files inside it")
    if must_exist and not resolved.exists():
        raise PathRefusedError(f"{raw!r} does not exist")
    return resolved


def _checked_text(raw: str) -> str:
    """The path as given, stripped; PathRefusedError for one no tool should take, whatever it resolves to."""
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        raise PathRefusedError('empty path; give a path relative to the repository root, e.g. "src/main.py"')
    if "\x00" in text or "\n" in text or "\r" in text:
        raise PathRefusedError("path contains a NUL or newline character; use a plain file name")
    if len(text) > MAX_PATH_CHARS:
        raise PathRefusedError(f"path is {len(text)} characters long; the limit is {MAX_PATH_CHARS}")
    if text.startswith("-") or any(part.startswith("-") for part in Path(text).parts):
        raise PathRefusedError(f"path {raw!r} has a component starting with '-', which tools refuse; rename the file")
    if text.startswith("~") or text.startswith("$"):
        raise PathRefusedError(
            f"path {raw!r} refers to a home directory or a variable, which pedro never expands; "
            "tools only reach files inside the repository"
        )
    return text


def resolve_inside(root: Path, path: Path) -> Path | None:
    """The absolute `path` with its symlinks resolved (a missing tail taken literally), or None when that leaves
    `root` (a resolved path)."""
    resolved = _resolve_deepest(path)
    return resolved if resolved == root or root in resolved.parents else None


def _resolve_deepest(path: Path) -> Path:
    """Resolve symlinks of the deepest existing ancestor and append the missing tail literally."""
    missing: list[str] = []
    current = Path(os.path.normpath(path)) if ".." not in path.parts else path
    while True:
        if current.exists() or current.is_symlink():
            base = current.resolve()
            break
        if current.parent == current:
            base = current
            break
        missing.append(current.name)
        current = current.parent
    for name in reversed(missing):
        if name == "..":
            base = base.parent
        elif name not in ("", "."):
            base = base / name
    return base


def relative(root: Path, path: Path) -> str:
    """The path as the model should see it: relative to the root, with forward slashes."""
    try:
        return path.relative_to(root.resolve()).as_posix() or "."
    except ValueError:
        return path.as_posix()


def repository_path(root: Path, raw: str) -> str | None:
    """A path someone else wrote (a CI log, a report, the model) as the repository's own: relative to the root,
    normalised, with forward slashes; None when it is empty, names the root itself or resolves outside it.
    A `file://` URI counts by its path."""
    text = raw.strip()
    if text.startswith("file://"):
        text = unquote(urlsplit(text).path)
    try:
        resolved = confine(root, text)
    except PathRefusedError:
        return None
    found = relative(root, resolved)
    return None if found == "." else found

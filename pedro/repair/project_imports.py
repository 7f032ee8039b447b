"""The functions a Python file imports by name from the project's own modules (`from .util import is_number`)."""

from __future__ import annotations

import ast
from pathlib import Path, PurePosixPath

from pedro.repair.locate import file_units


def imported_functions(root: Path, path: str) -> frozenset[str]:
    """The names (as the file uses them) that the Python file `path` imports with `from … import` from a module of
    the project that defines them as functions; none from elsewhere (the standard library, installed packages)."""
    try:
        tree = ast.parse((root / path).read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return frozenset()
    found: set[str] = set()
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        module = _module_file(root, path, node.module or "", node.level)
        if module is None:
            continue
        defined = {unit.name for unit in file_units(root, module)}
        found.update(alias.asname or alias.name for alias in node.names if alias.name in defined)
    return frozenset(found)


def _module_file(root: Path, path: str, module: str, level: int) -> str | None:
    """The project file (relative to `root`) of the module `from <level dots><module> import` names in `path`."""
    parts = [part for part in module.split(".") if part]
    here = PurePosixPath(path).parents
    if level > len(here):
        return None  # a relative import above the repository
    starts = [here[level - 1]] if level else [PurePosixPath("."), PurePosixPath("src")]
    for start in starts:
        files = [start.joinpath(*parts).with_suffix(".py")] if parts else []
        for candidate in [*files, start.joinpath(*parts, "__init__.py")]:
            if (root / candidate).is_file():
                return candidate.as_posix()
    return None

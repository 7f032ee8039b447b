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
        module = imported_module(root, path, node.module or "", node.level)
        if module is None:
            continue
        defined = {unit.name for unit in file_units(root, module)}
        found.update(alias.asname or alias.name for alias in node.names if alias.name in defined)
    return frozenset(found)


def module_file(root: Path, module: str, bases: tuple[str, ...] = ("", "src/")) -> str | None:
    """The repository path of the module `module` (dotted; a file or a package) under one of `bases` (folders with a
    trailing slash: the root and src/ unless a relative import names its own package's folder), or None."""
    relative = module.replace(".", "/")
    for base in bases:
        package = f"{base}{relative}/" if relative else base
        for path in ([f"{base}{relative}.py"] if relative else []) + [f"{package}__init__.py"]:
            if (root / path).is_file():
                return path
    return None


def imported_module(root: Path, path: str, module: str, level: int) -> str | None:
    """The project file of the module that `from <level dots><module> import` in the file `path` names."""
    if not level:
        return module_file(root, module)
    here = PurePosixPath(path).parents
    if level > len(here):
        return None  # a relative import above the repository
    folder = here[level - 1].as_posix()
    return module_file(root, module, ("" if folder == "." else f"{folder}/",))

"""Failures that are the test command's set-up, not the code: a module of the project's own the tests cannot import."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePosixPath

from pedro.tools.testreport import FailedTest

_NO_MODULE = re.compile(r"No module named '(?P<name>[A-Za-z_][\w.]*)'")


def unimportable(failures: Sequence[FailedTest], root: Path) -> str:
    """What to change where the tests cannot import a module the repository holds below its root (`src/inv`, the
    usual layout of a package that is installed to be tested), or "": no edit of the code fixes that."""
    for failure in failures:
        for found in _NO_MODULE.finditer(f"{failure.message}\n{failure.details}"):
            top = found.group("name").split(".")[0]
            held = next(_held(root, top), None)
            if held is not None:
                folder = str(PurePosixPath(held).parent)
                return (
                    f"the tests cannot import {top}, which is {held} in the repository: the test command needs "
                    f"{folder} on Python's path (PYTHONPATH={folder} before it), or the project installed "
                    "(pip install -e .)"
                )
    return ""


def _held(root: Path, top: str) -> Iterator[str]:
    """Where the repository holds the module `top` one or two folders down (never at its root, which the tests'
    own folder puts on the path): a package's folder or a module's file."""
    for folder in (*root.glob("*/"), *root.glob("*/*/")):
        if folder.name.startswith(".") or not folder.is_dir():
            continue
        package, module = folder / top, folder / f"{top}.py"
        if (package / "__init__.py").is_file() or module.is_file():
            found = package if package.is_dir() else module
            yield found.relative_to(root).as_posix()

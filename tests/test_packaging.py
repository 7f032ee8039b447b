"""An installed pedro (not an editable one) ships every package of the source tree."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_python_package_under_pedro_is_listed_for_setuptools() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "pedro").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found - listed == set()


def test_every_folder_of_package_data_under_pedro_is_listed_for_setuptools() -> None:
    """A data folder (the eval scenarios) that setuptools does not know as a package makes `pip install` print a
    long "Package would be ignored" warning, and a later setuptools drops its files."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    folders = {
        ".".join(folder.relative_to(ROOT).parts)
        for folder in (ROOT / "pedro").rglob("*")
        if folder.is_dir() and folder.name != "__pycache__" and any(child.is_file() for child in folder.iterdir())
    }
    assert folders - listed == set()


def test_every_data_file_under_pedro_is_package_data() -> None:
    """A data file (the command rules, a prompt) that no package-data pattern names is missing from the wheel, and
    the installed pedro fails where the source tree worked."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]
    unlisted = []
    for path in (ROOT / "pedro").rglob("*"):
        if not path.is_file() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts:
            continue
        owners = [pkg for pkg in patterns if path.is_relative_to(ROOT / pkg.replace(".", "/"))]
        package = max(owners, key=len, default=None)
        relative = path.relative_to(ROOT / package.replace(".", "/")) if package else None
        if relative is None or not any(
            relative.match(p) and len(relative.parts) == len(Path(p).parts) for p in patterns[package]
        ):
            unlisted.append(str(path.relative_to(ROOT)))
    assert unlisted == []

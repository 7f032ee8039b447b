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

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

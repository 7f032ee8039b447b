"""One exception tree: every PedroError subclass in pedro is drawn in pedro.errors' docstring, under its parent."""

from __future__ import annotations

import importlib
import pkgutil

import pedro
from pedro import errors
from pedro.errors import PedroError


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def test_every_operator_error_is_in_the_drawn_tree() -> None:
    for module in pkgutil.walk_packages(pedro.__path__, "pedro."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    drawn = errors.__doc__ or ""
    lines = {line.split("──")[-1].split()[0]: line for line in drawn.splitlines() if "──" in line}
    for cls in _subclasses(PedroError):
        assert cls.__name__ in lines, f"{cls.__module__}.{cls.__name__} is missing from pedro.errors' tree"
        parent = cls.__mro__[1].__name__
        if parent != "PedroError":
            assert lines[cls.__name__].index("──") > lines[parent].index("──"), (cls.__name__, parent)

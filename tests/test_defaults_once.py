"""Each setting's default is declared once, in pedro/config.py: a runtime object that falls back to one without a
configuration reads it there (config_default), so the two can never drift apart."""

from __future__ import annotations

import ast
from pathlib import Path

from pydantic import BaseModel

import pedro.config as config_module

PEDRO = Path(__file__).resolve().parent.parent / "pedro"


def _config_defaults() -> dict[str, set[str]]:
    """For every field of the config sections, the reprs of its literal defaults."""
    found: dict[str, set[str]] = {}
    for value in vars(config_module).values():
        if isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == config_module.__name__:
            for name, info in value.model_fields.items():
                default = info.default
                # False is every switch's "off", and "" and None say "not set": they are no one's choice to copy.
                if isinstance(default, int | float | str | bool) and default not in ("", False):
                    found.setdefault(name, set()).add(repr(default))
    return found


def _literal_defaults(tree: ast.AST) -> list[tuple[int, str, ast.expr]]:
    """(line, name, default) for every class field and parameter with a default."""
    found: list[tuple[int, str, ast.expr]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            found.append((node.lineno, node.target.id, node.value))
        elif isinstance(node, ast.arguments):
            positional = node.args[len(node.args) - len(node.defaults) :]
            found += [(value.lineno, arg.arg, value) for arg, value in zip(positional, node.defaults, strict=True)]
            found += [
                (value.lineno, arg.arg, value)
                for arg, value in zip(node.kwonlyargs, node.kw_defaults, strict=True)
                if value is not None
            ]
    return found


def test_no_setting_default_is_declared_twice() -> None:
    defaults = _config_defaults()
    twice = [
        f"{path.relative_to(PEDRO)}:{line} {name} = {value.value!r} (config.py declares it: use config_default)"
        for path in sorted(PEDRO.rglob("*.py"))
        if path.name != "config.py"
        for line, name, value in _literal_defaults(ast.parse(path.read_text(encoding="utf-8")))
        if name in defaults and isinstance(value, ast.Constant) and repr(value.value) in defaults[name]
    ]
    assert twice == []

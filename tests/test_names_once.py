"""Every list of names is declared once: the registries, and the Literal types and choices that must agree with them."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import pytest

from pedro.backends import BACKENDS
from pedro.cli.flags import BackendChoice
from pedro.config import BackendKind
from pedro.messages import RoleName
from pedro.roles import ROLES
from pedro.tools import TOOL_CLASSES, ToolRegistry
from pedro.tooltable import tool_names


def test_the_tool_names_are_the_registrys() -> None:
    assert tuple(TOOL_CLASSES) == tool_names() == tuple(ToolRegistry.default().names())
    for role in ROLES.values():
        assert role.tools is None or set(role.tools) <= set(TOOL_CLASSES), role.name


def test_the_backend_kinds_are_the_registrys() -> None:
    assert set(get_args(BackendKind)) == set(BACKENDS)
    assert {choice.value for choice in BackendChoice} == set(BACKENDS)


def test_the_role_names_are_the_roles_table() -> None:
    assert set(get_args(RoleName)) == set(ROLES)
    assert all(name == role.name for name, role in ROLES.items())


def _compared_tool_names(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, name) for each comparison of something with a tool's name, or with a collection of them."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for side in (node.left, *node.comparators):
            items = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
            names = [item.value for item in items if isinstance(item, ast.Constant) and item.value in TOOL_CLASSES]
            if names and len(names) == len(items):
                yield from ((node.lineno, name) for name in names)


# Where a tool's name is its own syntax, not a question about what the call does: the model writes a fenced
# ```bash block as the bash call's text form (pedro.toolcalls reads and reports it as such).
_SPELLED_BY_THE_MODEL = {"pedro/toolcalls/fences.py", "pedro/toolcalls/problems.py"}


@pytest.mark.parametrize("layer", ["pedro/cli", "pedro/mcp", "pedro/roles.py", "pedro/loop/assembly.py"])
def test_code_asks_capabilities_not_tool_names(layer: str) -> None:
    """Outside the tools and their registry, code asks what a call does (Effects, Role fields), never which tool it
    is: a new tool is its module, its prompt files and one registry line (tests/eighth_tool.py, as test_render
    registers it)."""
    root = Path(__file__).resolve().parent.parent
    modules = [root / layer] if layer.endswith(".py") else sorted((root / layer).rglob("*.py"))
    named = []
    for module in modules:
        where = module.relative_to(root).as_posix()
        if where in _SPELLED_BY_THE_MODEL:
            continue
        for line, name in _compared_tool_names(ast.parse(module.read_text(encoding="utf-8"))):
            named.append(f"{where}:{line} compares with {name!r}")
    assert not named, named

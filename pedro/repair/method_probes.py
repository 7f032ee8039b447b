"""Probes for a method or a property: the object made as the tests make it, `Rect(2, 3).area`, and its neighbours
(`Rect(3, 2).area`, `Rect(2, 4).area`). A method's fix that only fits the tests' objects parts from a right one there,
as a function's does on its arguments' neighbours."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pedro.repair.case_bindings import Row, call_arguments, called_name, own_nodes, rows_of, scopes
from pedro.repair.locate import Unit

Seed = tuple[tuple[Any, ...], dict[str, Any]]
_PROPERTIES = frozenset({"property", "cached_property", "functools.cached_property"})


def method_seeds(trees: Sequence[ast.Module], cls: str, method: str) -> tuple[list[Seed], int]:
    """The tests' uses of `cls(…).method(…)` (or `.method` for a property), directly or through a name assigned
    the object once, as flat calls: the constructor's arguments, then the method's, its keywords the constructor's;
    and how many of the arguments are the constructor's (the same for every seed, else no seeds)."""
    found: list[Seed] = []
    widths: set[int] = set()
    for tree in trees:
        for scope in scopes(tree):
            uses = [node for node in own_nodes(scope) if isinstance(node, ast.Attribute) and node.attr == method]
            if not uses:
                continue
            made, rows = _objects(scope, cls), rows_of(scope)
            for node in uses:
                call = _call_of(scope, node)
                for row in rows:
                    seed = _seed(node, made, cls, row, call)
                    if seed is not None:
                        found.append(seed[0])
                        widths.add(seed[1])
    return (found, widths.pop()) if len(widths) == 1 else ([], 0)


def is_called(unit: Unit, root: Path) -> bool | None:
    """Whether the method is called (False: a property, read); None when its class or definition is not found."""
    try:
        tree = ast.parse((root / unit.path).read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return None
    cls, _, method = unit.qualified_name.partition(".")
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == method:
                    return not any(ast.unparse(d) in _PROPERTIES for d in item.decorator_list)
    return None


def _objects(scope: ast.AST, cls: str) -> dict[str, ast.Call]:
    """The names a scope assigns `cls(…)` once, with the call that makes each."""
    made: dict[str, ast.Call] = {}
    counts: dict[str, int] = {}
    for node in own_nodes(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    counts[target.id] = counts.get(target.id, 0) + 1
                    if _makes(node.value, cls):
                        made[target.id] = node.value  # type: ignore[assignment]
    return {name: call for name, call in made.items() if counts[name] == 1}


def _makes(node: ast.expr, cls: str) -> bool:
    return isinstance(node, ast.Call) and called_name(node) == cls


def _call_of(scope: ast.AST, attribute: ast.Attribute) -> ast.Call | None:
    """The call that calls the attribute read (`obj.method(…)`), if any."""
    for node in own_nodes(scope):
        if isinstance(node, ast.Call) and node.func is attribute:
            return node
    return None


def _seed(
    attribute: ast.Attribute, made: dict[str, ast.Call], cls: str, row: Row, call: ast.Call | None
) -> tuple[Seed, int] | None:
    """One use as a flat call and the constructor's share of its arguments; None where any value is not known."""
    receiver = attribute.value
    if isinstance(receiver, ast.Name) and receiver.id in made:
        receiver = made[receiver.id]
    if not _makes(receiver, cls) or not isinstance(receiver, ast.Call):
        return None
    made_with = call_arguments(receiver, row)
    used_with = call_arguments(call, row) if call is not None else ((), {})
    if made_with is None or used_with is None or used_with[1]:
        return None
    return ((*made_with[0], *used_with[0]), made_with[1]), len(made_with[0])

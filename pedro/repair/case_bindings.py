"""The literal values a test gives the names it calls a function with: parametrize's rows, loops over literals, and
names assigned a literal once."""

from __future__ import annotations

import ast
import copy
import itertools
from collections import deque
from collections.abc import Iterator
from typing import Any

Row = dict[str, Any]
MAX_ROWS = 16
"""The most bindings of one test read: a table of cases is the tests' own calls, and the probes' limit is near."""
_UNEVALUATED = (ValueError, TypeError, SyntaxError, MemoryError, RecursionError)


def scopes(tree: ast.Module) -> Iterator[ast.AST]:
    """The module's top level, then each function: where names are bound (rows_of)."""
    yield tree
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def called_name(node: ast.Call) -> str:
    """The name a call calls: `f` for `f(…)` and `m.f(…)`, "" for anything else."""
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a scope's own code, not those of the functions or classes it defines, in ast.walk's order."""
    pending = deque(ast.iter_child_nodes(scope))
    while pending:
        node = pending.popleft()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        yield node
        pending.extend(ast.iter_child_nodes(node))


def rows_of(scope: ast.AST) -> list[Row]:
    """Each set of values a function's names take together: a parametrize row, an item of a loop over a literal,
    with the names assigned one literal; at most MAX_ROWS, the first ones first. The module's level binds none."""
    if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
        return [{}]
    function = scope
    sources = [*(_parametrized(decorator) for decorator in function.decorator_list), *_loops(function)]
    fixed = _assigned(function)
    rows = []
    for combination in itertools.islice(itertools.product(*[s for s in sources if s]), MAX_ROWS):
        row = dict(fixed)
        for part in combination:
            row.update(part)
        rows.append(row)
    return rows or [fixed]


def evaluated(node: ast.expr, row: Row) -> tuple[bool, Any]:
    """The value of an argument made of literals and names the row binds, and whether it has one."""
    bound = _Bound(row).visit(copy.deepcopy(node)) if row else node
    try:
        return True, ast.literal_eval(bound)
    except _UNEVALUATED:
        return False, None


def call_arguments(node: ast.Call, row: Row) -> tuple[tuple[Any, ...], dict[str, Any]] | None:
    """A call's arguments as values where the row gives each one, else None."""
    if any(isinstance(arg, ast.Starred) for arg in node.args) or any(kw.arg is None for kw in node.keywords):
        return None
    args, kwargs = [], {}
    for arg in node.args:
        ok, value = evaluated(arg, row)
        if not ok:
            return None
        args.append(value)
    for keyword in node.keywords:
        ok, value = evaluated(keyword.value, row)
        if not ok:
            return None
        kwargs[str(keyword.arg)] = value
    return tuple(args), kwargs


class _Bound(ast.NodeTransformer):
    """Names the row binds replaced by their values, as literals."""

    def __init__(self, row: Row) -> None:
        self.row = row

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id not in self.row:
            return node
        try:
            return ast.parse(repr(self.row[node.id]), mode="eval").body
        except SyntaxError:
            return node


def _parametrized(decorator: ast.expr) -> list[Row]:
    """The rows of `@pytest.mark.parametrize("a, b", [(1, 2), …])` (a `pytest.param(…)` row by its values)."""
    if not (isinstance(decorator, ast.Call) and _name(decorator.func).endswith("parametrize")):
        return []
    if len(decorator.args) < 2:
        return []
    names = _argnames(decorator.args[0])
    if not names or not isinstance(decorator.args[1], ast.List | ast.Tuple):
        return []
    rows = []
    for item in decorator.args[1].elts:
        if isinstance(item, ast.Call) and _name(item.func).endswith("param"):
            item = ast.Tuple(elts=list(item.args), ctx=ast.Load())
        ok, value = evaluated(item, {})
        if not ok:
            continue
        values = (value,) if len(names) == 1 else value
        if isinstance(values, tuple | list) and len(values) == len(names):
            rows.append(dict(zip(names, values, strict=True)))
    return rows


def _argnames(node: ast.expr) -> list[str]:
    ok, value = evaluated(node, {})
    if ok and isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if ok and isinstance(value, list | tuple) and all(isinstance(part, str) for part in value):
        return list(value)
    return []


def _loops(function: ast.AST) -> Iterator[list[Row]]:
    """For each loop or comprehension over a literal, a row per item: `for n in (3, 5)`, `for a, b in [(1, 2)]`."""
    for node in own_nodes(function):
        if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            ok, items = evaluated(node.iter, {})
            names = _targets(node.target)
            if ok and names and isinstance(items, list | tuple | set | frozenset | dict):
                yield [row for item in items if (row := _unpacked(names, item)) is not None]


def _targets(target: ast.expr) -> list[str] | None:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple) and all(isinstance(part, ast.Name) for part in target.elts):
        return [part.id for part in target.elts if isinstance(part, ast.Name)]
    return None


def _unpacked(names: list[str], item: Any) -> Row | None:
    if len(names) == 1:
        return {names[0]: item}
    if isinstance(item, tuple | list) and len(item) == len(names):
        return dict(zip(names, item, strict=True))
    return None


def _assigned(function: ast.AST) -> Row:
    """The names assigned exactly once in the function, to a literal."""
    seen: dict[str, int] = {}
    values: Row = {}
    for node in own_nodes(function):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        seen[name.id] = seen.get(name.id, 0) + 1
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                ok, value = evaluated(node.value, {}) if node.value is not None else (False, None)
                if ok:
                    values[node.targets[0].id] = value
    return {name: value for name, value in values.items() if seen.get(name) == 1}


def _name(node: ast.expr) -> str:
    """`pytest.mark.parametrize` for the expression that names it."""
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""

"""A result stored in the wrong place: the target of an assignment in place of a like target its value reads.

`weight_by_edge[u, v] = min(weight_by_node[u] + weight, weight_by_node[v])` where `weight_by_node[v] = …` was meant
(Bellman-Ford's relaxation written into the edge's weight), `low = min(low, high)` where `high` was meant. Each
assignment offers at most the few targets of its own kind its value reads, so the class costs a handful of
candidates where a whole-line search would cost hundreds.
"""

from __future__ import annotations

import ast
import textwrap

from pedro.repair.locate import RowChange

_BEST_OF = frozenset({"min", "max"})
"""Calls whose result is a best-so-far: with a plain name as target, only such an update is offered another name."""


def misplaced_stores(text: str, tree: ast.Module) -> list[RowChange]:
    """For each one-target assignment of the unit (`text`, parsed dedented as `tree`), its target in place of each
    like target its value reads: an item (`a[i]`) for an item, and for a name, a name the `min`/`max` it is given
    compares."""
    originals, dedented = text.splitlines(), textwrap.dedent(text).splitlines()
    found: list[RowChange] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if target.lineno != target.end_lineno or target.end_col_offset is None:
            continue
        old = ast.unparse(target)
        row = target.lineno - 1
        raw = originals[row].encode()
        shift = len(raw) - len(dedented[row].encode())  # the indentation dedent took off
        start, end = target.col_offset + shift, target.end_col_offset + shift
        for new in _alike(target, node.value):
            if new != old:
                line = (raw[:start] + new.encode() + raw[end:]).decode()
                found.append(RowChange(row, line, f"the result stored in `{new}`, not `{old}`"))
    return found


def _alike(target: ast.expr, value: ast.expr) -> list[str]:
    """The targets of the same kind as `target` that `value` reads, in order, each once."""
    readable: list[ast.expr]
    if isinstance(target, ast.Subscript):
        readable = [
            node for node in ast.walk(value)
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name | ast.Attribute)
        ]  # fmt: skip
    elif isinstance(target, ast.Name) and _best_of(value):
        assert isinstance(value, ast.Call)
        readable = [arg for arg in value.args if isinstance(arg, ast.Name)]
    else:
        return []
    return list(dict.fromkeys(ast.unparse(node) for node in readable))


def _best_of(value: ast.expr) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _BEST_OF

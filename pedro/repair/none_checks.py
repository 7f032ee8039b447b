"""A test against None where the value's truth was meant, or the other way round: `if line == '\n' and current is
not None:` → `if line == '\n' and current:`. An empty list, string or container object is not None but is false, and
the code that follows the check assumes more than that it exists (unidiff's trailing newline after a file with no
hunks). No one-token change reaches it: the whole `is not None` goes, or comes."""

from __future__ import annotations

import ast

from pedro.repair.index_guards import CONDITION_LINE, condition_tree
from pedro.repair.locate import RowChange


def none_checks(lines: list[str], *, to_none: bool) -> list[RowChange]:
    """For each `if`, `elif` or `while` line of a Python unit, each of its terms turned from a test against None to a
    test of truth (`x is not None` → `x`, `x is None` → `not x`), or with `to_none` the other way."""
    changes: list[RowChange] = []
    for row, line in enumerate(lines):
        match = CONDITION_LINE.match(line)
        tree = condition_tree(match["condition"]) if match is not None else None
        if match is None or tree is None:
            continue
        condition = match["condition"].encode()  # the parser's offsets count UTF-8 bytes
        terms = tree.values if isinstance(tree, ast.BoolOp) else [tree]
        for term in terms:
            turned = _turned(term)
            if turned is not None and turned.endswith(" None") is not to_none:
                continue
            if turned is None or term.end_col_offset is None:
                continue
            new = condition[: term.col_offset] + turned.encode() + condition[term.end_col_offset :]
            text = f"{match['head']}{new.decode()}{match['tail']}"
            changes.append(RowChange(row, text, f"`{ast.unparse(term)}` → `{turned}`"))
    return changes


def _turned(term: ast.expr) -> str | None:
    """The term tested the other way: against None where it tests truth, by truth where it tests against None."""
    if isinstance(term, ast.Compare) and len(term.ops) == 1 and _is_none(term.comparators[0]):
        subject = ast.unparse(term.left)
        if isinstance(term.ops[0], ast.IsNot):
            return subject
        if isinstance(term.ops[0], ast.Is):
            return f"not {subject}"
        return None
    if isinstance(term, ast.Name | ast.Attribute):
        return f"{ast.unparse(term)} is not None"
    if isinstance(term, ast.UnaryOp) and isinstance(term.op, ast.Not):
        return f"{ast.unparse(term.operand)} is None" if isinstance(term.operand, ast.Name | ast.Attribute) else None
    return None


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None

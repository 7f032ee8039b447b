"""A conditional expression that takes in more than was meant, narrowed by a pair of parentheses to the operand beside
it: `w in 'WF' and 2 or 0 if combining(c) else 1` → `w in 'WF' and 2 or (0 if combining(c) else 1)`, and
`a if c else b + d` → `(a if c else b) + d`. Python's `if … else` binds loosest of all, so the condition chooses
between everything on its left and everything on its right; no one-token change reaches the fix (texttable's width of
a combining character)."""

from __future__ import annotations

import ast
import textwrap

from pedro.repair.locate import RowChange


def ternary_reach(lines: list[str]) -> list[RowChange]:
    """For each one-line conditional expression of a Python unit's `lines` whose chosen value is an operation
    (`a and b`, `a + b`), the expression narrowed to that operation's nearest operand."""
    code = textwrap.dedent("\n".join(lines))
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return []
    dedented = code.splitlines()
    changes: list[RowChange] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.IfExp) or node.lineno != node.end_lineno or node.end_col_offset is None:
            continue
        row = node.lineno - 1
        line = dedented[row].encode()  # the parser's offsets count UTF-8 bytes
        indent = lines[row][: len(lines[row]) - len(dedented[row])]
        for start, end, what in _narrowings(node):
            text = line[:start] + b"(" + line[start:end] + b")" + line[end:]
            changes.append(RowChange(row, indent + text.decode(), f"`if … else` narrowed to {what}"))
    return changes


def _narrowings(node: ast.IfExp) -> list[tuple[int, int, str]]:
    """Where the parentheses go (byte offsets on the line) and what they hold, in words: around the body's last
    operand and the rest of the conditional, and around the conditional up to the first operand of what it
    chooses otherwise."""
    found = []
    last = _operands(node.body)
    if last:
        found.append((last[-1].col_offset, node.end_col_offset or 0, f"`{ast.unparse(last[-1])}` on its left"))
    first = _operands(node.orelse)
    if first and first[0].end_col_offset is not None and first[0].end_lineno == node.lineno:
        found.append((node.col_offset, first[0].end_col_offset, f"`{ast.unparse(first[0])}` on its right"))
    return found


def _operands(node: ast.expr) -> list[ast.expr]:
    """An operation's operands in order (a comparison's and a call's are not: `if` rarely means to split those)."""
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    return []

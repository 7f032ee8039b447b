"""A condition that reads a sequence at one of its ends (`result[-1]`, `items[0]`), guarded by the sequence's truth
first, where the failure is an IndexError raised on that line: `elif c == ZWJ and result[-1] in DATA:` →
`elif c == ZWJ and result and result[-1] in DATA:`. The code assumed the sequence was never empty, and the test gave
it an empty one; no one-token change reaches the fix, a term added to the condition."""

from __future__ import annotations

import ast
import re

from pedro.repair.locate import RowChange

CONDITION_LINE = re.compile(r"^(?P<head>\s*(?:if|elif|while)\s+)(?P<condition>.+?)(?P<tail>:\s*(?:#.*)?)$")
"""A Python `if`, `elif` or `while` line on one line: what leads to the condition, the condition, the colon after."""


def index_guards(lines: list[str], row: int) -> list[RowChange]:
    """For the `if`, `elif` or `while` line at `row` of a Python unit's `lines`, the condition with each sequence it
    reads at an end guarded: the guard joins the `and` chain just before the first term that reads it, or stands
    before the whole condition."""
    match = CONDITION_LINE.match(lines[row]) if 0 <= row < len(lines) else None
    tree = condition_tree(match["condition"]) if match is not None else None
    if match is None or tree is None:
        return []
    condition = match["condition"]
    terms = tree.values if isinstance(tree, ast.BoolOp) and isinstance(tree.op, ast.And) else [tree]
    changes: list[RowChange] = []
    for name in _end_read(tree):
        term = next(term for term in terms if name in _end_read(term))
        if any(_guards(other, name) for other in terms[: terms.index(term)]):
            continue
        # The parser's offsets count UTF-8 bytes.
        at = len(condition.encode()[: term.col_offset].decode(errors="ignore")) if len(terms) > 1 else 0
        body = condition if len(terms) > 1 or not isinstance(tree, ast.BoolOp) else f"({condition})"
        text = f"{match['head']}{body[:at]}{name} and {body[at:]}{match['tail']}"
        changes.append(RowChange(row, text, f"`{name} and` before `{ast.unparse(term)}`, which reads it at an end"))
    return changes


def condition_tree(condition: str) -> ast.expr | None:
    """The condition's syntax tree, or None where it does not parse alone."""
    try:
        return ast.parse(condition, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None


def _end_read(node: ast.AST) -> list[str]:
    """The sequences (names and attributes, as written) that `node` subscripts at 0 or -1, in order, each once."""
    found: dict[str, None] = {}
    for sub in ast.walk(node):
        if isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name | ast.Attribute) and _end(sub.slice):
            found[ast.unparse(sub.value)] = None
    return list(found)


def _end(index: ast.expr) -> bool:
    if isinstance(index, ast.Constant):
        return index.value == 0 and type(index.value) is int
    return isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub) and _constant(index.operand, 1)


def _constant(node: ast.expr, value: int) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == value


def _guards(term: ast.expr, name: str) -> bool:
    """Whether `term` already says the sequence holds something (`result`, `len(result)`, `len(result) > 0`)."""
    text = ast.unparse(term)
    return text == name or text.startswith(f"len({name})")

"""Guards for a piece handed on even when it is empty: `yield list(it)` → `piece = list(it)`, `if piece:`, `yield
piece`, for a failure whose result holds one empty item more than wanted (split_after's `[[1], []]` for `[[1]]`)."""

from __future__ import annotations

import ast
import textwrap

from pedro.repair.locate import RowChange, indent_of

_NAME = "piece"


def empty_piece_guards(unit_text: str, tree: ast.Module) -> list[RowChange]:
    """Each `yield VALUE` or `NAME.append(VALUE)` on a line of its own in a Python unit, run only when VALUE is not
    empty; none for a literal VALUE (never empty, or always) or one an `if` or `while` of the unit already tests."""
    taken = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    name = next(f"{_NAME}{'_' * n}" for n in range(len(taken) + 1) if f"{_NAME}{'_' * n}" not in taken)
    tested = _tested_values(tree)
    lines, dedented = unit_text.splitlines(), textwrap.dedent(unit_text)
    found = []
    for statement in ast.walk(tree):
        value = _handed_on(statement)
        if isinstance(statement, ast.Expr) and value is not None and ast.unparse(value) not in tested:
            guarded = _guarded((lines, dedented), statement, value, name)
            if guarded is not None:
                found.append(guarded)
    return found


def _guarded(unit: tuple[list[str], str], statement: ast.Expr, value: ast.expr, name: str) -> RowChange | None:
    """The statement behind `if VALUE:` (a computed value first stored in `name`), or None where it does not stand
    alone on its line (after an `if x:`, before a `;`); `unit` is its lines as written and its text dedented, as
    parsed."""
    lines, dedented = unit
    said, whole = (ast.get_source_segment(dedented, node) for node in (value, statement))
    line = lines[statement.lineno - 1]
    indent, code = indent_of(line), line.strip()
    rest = code.removeprefix(whole or "\n").strip()  # a comment after it is kept
    if not said or not whole or not code.startswith(whole) or (rest and not rest.startswith("#")):
        return None
    if isinstance(value, ast.Name):
        text = f"{indent}if {said}:\n{indent}    {code}"
    else:
        # Computed once, where the statement computed it: a call (`list(it)`) may consume what it reads. The value
        # ends both kinds of statement, so its last occurrence is the one handed on.
        at = whole.rfind(said)
        handed = whole[:at] + name + whole[at + len(said) :] + (f"  {rest}" if rest else "")
        text = f"{indent}{name} = {said}\n{indent}if {name}:\n{indent}    {handed}"
    return RowChange(statement.lineno - 1, text, f"`{whole}` run only when `{said}` is not empty")


def _handed_on(statement: ast.AST) -> ast.expr | None:
    """The value a statement yields or appends, unless a literal (never empty, or always); else None."""
    if not isinstance(statement, ast.Expr):
        return None
    value = statement.value
    if isinstance(value, ast.Yield) and value.value is not None:
        handed: ast.expr = value.value
    elif (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "append"
        and len(value.args) == 1 and not value.keywords
    ):  # fmt: skip
        handed = value.args[0]
    else:
        return None
    return None if isinstance(handed, ast.Constant) else handed


def _tested_values(tree: ast.Module) -> set[str]:
    """The expressions some `if` or `while` tests whole (`if buf and ok:` tests `buf`)."""
    tests = [node.test for node in ast.walk(tree) if isinstance(node, ast.If | ast.While)]
    parts = [value for test in tests for value in (test.values if isinstance(test, ast.BoolOp) else [test])]
    return {ast.unparse(part) for part in parts}

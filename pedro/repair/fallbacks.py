"""A `return` that raised where the failing test wanted a result, kept, with that exception caught and each of the
function's other results given in its place: `format(val, intfmt)` on a number given as text answers as the
function answers text, `f"{val}"`. No one-token change reaches it: the fix is a statement around the line."""

from __future__ import annotations

import ast
import textwrap

from pedro.repair.locate import RETURN_LINE, RowChange, indent_of

NOT_CAUGHT = frozenset(
    {
        "AssertionError",
        "AttributeError",
        "ImportError",
        "IndentationError",
        "IndexError",
        "ModuleNotFoundError",
        "NameError",
        "NotImplementedError",
        "RecursionError",
        "SyntaxError",
        "UnboundLocalError",
        "ZeroDivisionError",
    }
)
"""Exceptions that say the code itself slipped (a name, an index, a division): caught, they would hide the slip."""
_MOST = 4
"""The other results tried in place of the one that raised, the nearest first."""


def fallbacks(lines: list[str], row: int, raised: frozenset[str]) -> list[RowChange]:
    """For the `return` at `row` of a Python function's `lines` that raised one of `raised`, the line wrapped in a
    `try` that answers each of the function's other results when it raises; [] where the row is no such line."""
    caught = sorted(raised - NOT_CAUGHT)
    match = RETURN_LINE.match(lines[row]) if 0 < row < len(lines) and caught else None
    local = _locals_of("\n".join(lines)) if match is not None and _expression(match["value"]) is not None else None
    if match is None or local is None:
        return []
    exception = caught[0] if len(caught) == 1 else f"({', '.join(caught)})"
    indent = indent_of(lines[row])
    inner = indent + ("\t" if indent.startswith("\t") else "    ")
    changes = []
    for value in _other_results(lines, row, local)[:_MOST]:
        text = f"{indent}try:\n{inner}return {match['value']}\n{indent}except {exception}:\n{inner}return {value}"
        changes.append(RowChange(row, text, f"`return {value}` where `{match['value']}` raises {exception}"))
    return changes


def _other_results(lines: list[str], row: int, local: set[str]) -> list[str]:
    """What the function's other `return`s give, each once, nearest to `row` first: those that read none of its
    locals (unset, maybe, where the line at `row` raised)."""
    raised = RETURN_LINE.match(lines[row])
    found: dict[str, int] = {}
    for other_row, text in enumerate(lines):
        other = RETURN_LINE.match(text)
        if other is None or raised is None or other["value"] == raised["value"] or other["value"] in found:
            continue
        tree = _expression(other["value"])
        if tree is not None and not {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} & local:
            found[other["value"]] = abs(other_row - row)
    return sorted(found, key=lambda value: found[value])


def _expression(text: str) -> ast.expr | None:
    try:
        return ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None


def _locals_of(source: str) -> set[str] | None:
    """The names the function assigns that are not its parameters: unset, maybe, where a `return` raised; None
    where the function does not parse alone."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except SyntaxError:
        return None
    function = next((node for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)), None)
    if function is None:
        return None
    arguments = function.args
    given = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    parameters = {argument.arg for argument in given if argument is not None}
    stored = {node.id for node in ast.walk(function) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    return stored - parameters

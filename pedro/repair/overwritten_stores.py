"""Values stored and overwritten before anything reads them: `a, b = x.split("/")` and, a line below, `a = int(b) *
int(c)`, the dead store a linter flags. The overwriting line is taken out; where a unit overwrites several values so,
all of those lines are taken out together too, since lines a slip added break the result only as a group. Lines
added in a row read one another (`largest = f(smallest)`, then `smallest = f(largest)`): the second overwrites an
unread value only once the first is out, so the group is followed to where taking lines out uncovers no more."""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from pedro.repair.candidate import REMOVED
from pedro.repair.locate import RowChange

_MOST_ALONE = 4
"""Overwriting lines offered one by one at most: a unit with more is written that way on purpose."""


def overwritten_stores(tree: ast.Module, lines: list[str]) -> list[RowChange]:
    """Each one-line assignment (Python) that overwrites every name it sets before the value stored there was read,
    taken out alone, then all of them at once with those their going uncovers; `lines` are the unit's."""
    closures = _read_in_functions_within(tree)
    rows = _rows(tree, closures)
    if not rows or len(rows) > _MOST_ALONE:
        return []
    changes = [
        RowChange(row, REMOVED, f"`{lines[row].strip()}` taken out: it overwrites a value never read") for row in rows
    ]
    group = _uncovered(tree, rows, closures)
    if len(group) > 1:
        said = " and ".join(f"`{lines[row].strip()}`" for row in group)
        also = tuple((row, REMOVED) for row in group[1:])
        changes.insert(0, RowChange(group[0], REMOVED, f"{said} taken out: each overwrites a value never read", also))
    return changes


def _rows(tree: ast.Module, closures: set[str]) -> list[int]:
    return sorted({row for block, given in _blocks(tree) for row in _overwriting_rows(block, given, closures)})


def _uncovered(tree: ast.Module, rows: list[int], closures: set[str]) -> list[int]:
    """`rows`, and the rows that overwrite an unread value once those are taken out, again and again, while there are
    no more than `_MOST_ALONE` in all."""
    taken = set(rows)
    while len(taken) <= _MOST_ALONE:
        more = set(_rows(_without(tree, taken), closures)) - taken
        if not more:
            return sorted(taken)
        taken |= more
    return sorted(rows)


def _without(tree: ast.Module, rows: set[int]) -> ast.Module:
    """A copy of the tree whose blocks lack the statements on `rows` (0 for the unit's first line)."""
    pruned = copy.deepcopy(tree)
    for node in ast.walk(pruned):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(node, name, [statement for statement in block if statement.lineno - 1 not in rows])
    return pruned


def _blocks(tree: ast.Module) -> Iterator[tuple[list[ast.stmt], set[str]]]:
    """Every block of statements inside the unit's function, with the names already given a value where it starts:
    the function's parameters where its own body starts, else none."""
    outer = tree.body[0] if tree.body else None
    for node in ast.walk(tree):
        if isinstance(node, ast.Module):
            continue
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                given = _parameters(node) if node is outer and name == "body" else set()
                yield block, given


def _parameters(function: ast.AST) -> set[str]:
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return set()
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    return {argument.arg for argument in every if argument is not None} - {"self", "cls"}


def _overwriting_rows(block: list[ast.stmt], given: set[str], closures: set[str]) -> Iterator[int]:
    """The rows (0 for the unit's first line) of the block's one-line assignments whose every name was stored earlier
    in the block (or `given` a value where it starts) and not read since."""
    for index, statement in enumerate(block):
        targets = _plain_targets(statement)
        if not targets or statement.lineno != statement.end_lineno or targets & closures:
            continue
        assert isinstance(statement, ast.Assign | ast.AnnAssign)
        if statement.value is not None and targets & _names(statement.value):
            continue  # `x = x + 1` reads what it overwrites
        if all(_stored_unread(block[:index], name, given) for name in targets):
            yield statement.lineno - 1


def _stored_unread(before: list[ast.stmt], name: str, given: set[str]) -> bool:
    """Whether, going back from the end of `before`, a statement stores `name` (a plain assignment or unpacking), or
    the block starts with it `given`, with nothing reading or touching it in between."""
    for statement in reversed(before):
        if isinstance(statement, ast.Assign) and name in _assigned(statement):
            return name not in _names(statement.value)
        if name in _names(statement) or isinstance(statement, ast.Global | ast.Nonlocal):
            return False
    return name in given


def _plain_targets(statement: ast.stmt) -> set[str]:
    """The names a `name = value` (or `name: T = value`) sets, when it sets names alone."""
    if isinstance(statement, ast.AnnAssign) and statement.value is not None and isinstance(statement.target, ast.Name):
        return {statement.target.id}
    if isinstance(statement, ast.Assign) and all(isinstance(target, ast.Name) for target in statement.targets):
        return {target.id for target in statement.targets if isinstance(target, ast.Name)}
    return set()


def _assigned(statement: ast.Assign) -> set[str]:
    """The names an assignment sets, unpacked ones included (`a, b = …`, `a, *rest = …`); not `xs[i] = …`, which
    changes what `xs` holds."""
    found: set[str] = set()
    waiting: list[ast.expr] = list(statement.targets)
    while waiting:
        target = waiting.pop()
        if isinstance(target, ast.Name):
            found.add(target.id)
        elif isinstance(target, ast.Tuple | ast.List):
            waiting += target.elts
        elif isinstance(target, ast.Starred):
            waiting.append(target.value)
    return found


def _names(node: ast.AST) -> set[str]:
    return {found.id for found in ast.walk(node) if isinstance(found, ast.Name)}


def _read_in_functions_within(tree: ast.Module) -> set[str]:
    """The names a function or lambda defined inside the unit reads: it may run between any two statements."""
    outer = tree.body[0] if tree.body else None
    return {
        name
        for node in ast.walk(tree)
        if node is not outer and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for name in _names(node)
    }

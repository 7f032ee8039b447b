"""The code budgets `make lint` holds: complexity as radon counts it, function length and parameters.

ruff's C901 does not count boolean operators, so a function it passes at 12 can be 30 by radon's count; this counts
as radon does. Outside cli/ (where a command's options are its parameters), a function takes at most MAX_PARAMS
parameters and MAX_LINES lines. Functions over a budget when it was set are listed in scripts/budgets.toml with the
figure they had: each may shrink, never grow, and leaves the list once within the budget. Any other function over a
budget fails the check.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

from radon.complexity import cc_visit

MAX_COMPLEXITY = 15
MAX_LINES = 60
MAX_PARAMS = 6
ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "scripts" / "budgets.toml"
_EXEMPT_FROM_SIZE = ("pedro/cli/",)


def measured(source: str, rel: str) -> Iterator[tuple[str, str, int]]:
    """(function, budget, figure) for every function of the module at `rel` over a budget, named
    `rel:Class.function`."""
    for block in _functions(cc_visit(source)):
        name = f"{rel}:{block.fullname}"
        if block.complexity > MAX_COMPLEXITY:
            yield name, "complexity", block.complexity
    if rel.startswith(_EXEMPT_FROM_SIZE):
        return
    for node, qualified in _definitions(ast.parse(source)):
        name = f"{rel}:{qualified}"
        lines = (node.end_lineno or node.lineno) - node.lineno + 1
        if lines > MAX_LINES:
            yield name, "lines", lines
        params = _parameters(node)
        if params > MAX_PARAMS:
            yield name, "params", params


def _functions(blocks: list) -> Iterator:  # type: ignore[type-arg]
    for block in blocks:
        if hasattr(block, "methods"):
            yield from _functions(block.methods)
        else:
            yield block
            yield from _functions(getattr(block, "closures", []))


def _definitions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node, prefix + node.name
            yield from _definitions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _definitions(node, f"{prefix}{node.name}.")


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Every parameter but `self` and `cls`, `*args` and `**kwargs` one each."""
    args = node.args
    named = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    count = len(named) + (args.vararg is not None) + (args.kwarg is not None)
    return count - (1 if named and named[0].arg in ("self", "cls") else 0)


def main() -> int:
    allowed: dict[str, dict[str, int]] = (
        tomllib.loads(BASELINE.read_text(encoding="utf-8")) if BASELINE.exists() else {}
    )
    found: dict[str, dict[str, int]] = {}
    for path in sorted((ROOT / "pedro").rglob("*.py")):
        for name, budget, figure in measured(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix()):
            found.setdefault(name, {})[budget] = max(figure, found.get(name, {}).get(budget, 0))
    limits = {"complexity": MAX_COMPLEXITY, "lines": MAX_LINES, "params": MAX_PARAMS}
    problems = []
    for name, figures in sorted(found.items()):
        for budget, figure in figures.items():
            recorded = allowed.get(name, {}).get(budget)
            if recorded is None:
                problems.append(f"{name}: {budget} {figure}, over the budget of {limits[budget]}")
            elif figure > recorded:
                problems.append(f"{name}: {budget} {figure}, grown from {recorded} (the budget is {limits[budget]})")
    for name, figures in sorted(allowed.items()):
        for budget in figures:
            if budget not in found.get(name, {}):
                problems.append(f"{name}: {budget} now within {limits[budget]}; remove it from {BASELINE.name}")
    for problem in problems:
        print(problem)
    if problems:
        print(
            f"{len(problems)} over the code budgets (scripts/budgets.py): split the function, or take a settings "
            "object instead of separate parameters"
        )
        return 1
    total = sum(len(figures) for figures in allowed.values())
    print(f"code budgets hold ({total} figures over them recorded in {BASELINE.name}, none grown)")
    return 0


def baseline() -> str:
    """The TOML that records every figure over a budget as it is now."""
    found: dict[str, dict[str, int]] = {}
    for path in sorted((ROOT / "pedro").rglob("*.py")):
        for name, budget, figure in measured(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix()):
            found.setdefault(name, {})[budget] = figure
    lines = ["# Functions over the code budgets of scripts/budgets.py, with the figure each had. Shrink, never grow."]
    for name, figures in sorted(found.items()):
        lines.append(f'\n["{name}"]')
        lines += [f"{budget} = {figure}" for budget, figure in sorted(figures.items())]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] == ["--record"]:
        BASELINE.write_text(baseline(), encoding="utf-8")
        sys.exit(0)
    sys.exit(main())

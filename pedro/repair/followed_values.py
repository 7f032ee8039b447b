"""The values a Python function reads from the module level, followed through the project's own modules to the
assignments that write literals: `misc.NON_PCT_ENCODED` read in a function is `abnf_regexp.NON_PCT_ENCODED_SET`,
made of `UNRESERVED_CHARS_SET`, made of the string the bug is in. Each such assignment is a unit of its own."""

from __future__ import annotations

import ast
import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from pedro.repair.frames import is_test_file
from pedro.repair.locate import Unit
from pedro.repair.project_imports import imported_module

_MOST = 6
"""Assignments found at most: each is a unit whose variants and line question come after the function's own."""
_DEEPEST = 6
"""Assignments followed from one another at most: a value made of a value made of … the literal."""
_LONGEST = 20
"""Lines an assignment has at most to be a unit: a longer table is followed through, not varied line by line."""
_SELF_NAMES = frozenset({"self", "cls"})


@dataclass(frozen=True)
class _Scope:
    """A module's top level: its assignments by name, its imported names and modules."""

    assigned: dict[str, ast.stmt] = field(default_factory=dict)
    names: dict[str, tuple[str, str]] = field(default_factory=dict)
    """A name imported from another project module: (that module's path, the name there)."""
    modules: dict[str, str] = field(default_factory=dict)
    """A name bound to a project module (`from rfc3986 import misc`, `import pkg.misc as misc`): its path."""


def followed_values(root: Path, unit: Unit, *, most: int = _MOST) -> list[Unit]:
    """The module-level assignments with a literal in their value that the Python unit reads, directly or through
    other assignments and the project's imports, nearest first; a class attribute read on `self` or `cls` counts.
    Empty where the unit is no Python function of a file that parses. Each file is parsed once per call."""
    if unit.language != "python":
        return []
    reader = _Reader(root)
    scope, tree = reader.scope(unit.path)
    function = _function_at(tree, unit.start_line) if tree is not None else None
    if scope is None or function is None:
        return []
    owner = _owner_class(tree, function) if tree is not None else None
    return reader.follow(reader.resolved(unit.path, function, scope, owner), most)


@dataclass
class ValuesRead:
    """followed_values of each unit, found once per repair."""

    root: Path
    _found: dict[tuple[str, str], list[Unit]] = field(default_factory=dict)

    def __call__(self, unit: Unit) -> list[Unit]:
        key = (unit.path, unit.text)
        if key not in self._found:
            self._found[key] = followed_values(self.root, unit)
        return self._found[key]


def literal_line(value: Unit) -> int:
    """The value's first line that writes a literal (a quote or a digit): the one a line question asks about."""
    lines = value.text.splitlines()
    return next((value.start_line + at for at, text in enumerate(lines) if re.search(r"[\d'\"]", text)),
                value.start_line)  # fmt: skip


@dataclass
class _Reader:
    """The project's modules as they are now, each parsed once, and the assignments found in them."""

    root: Path
    _scopes: dict[str, tuple[_Scope | None, ast.Module | None]] = field(default_factory=dict)

    def scope(self, path: str) -> tuple[_Scope | None, ast.Module | None]:
        if path not in self._scopes:
            self._scopes[path] = self._parsed(path)
        return self._scopes[path]

    def follow(self, first: list[tuple[str, ast.stmt]], most: int) -> list[Unit]:
        """Breadth first from the assignments read: each one with a literal is a unit; its own reads are followed."""
        queue = deque((path, statement, 1) for path, statement in first)
        seen: set[tuple[str, int]] = set()
        found: list[Unit] = []
        while queue and len(found) < most:
            path, statement, depth = queue.popleft()
            if (path, statement.lineno) in seen:
                continue
            seen.add((path, statement.lineno))
            if _holds_literal(statement) and _short(statement) and not is_test_file(path):
                found.append(self._unit(path, statement))
            scope, _tree = self.scope(path)
            if depth < _DEEPEST and scope is not None:
                value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
                if value is not None:
                    queue.extend((where, target, depth + 1) for where, target in self.resolved(path, value, scope))
        return found

    def resolved(
        self, path: str, node: ast.AST, scope: _Scope, owner: ast.ClassDef | None = None
    ) -> list[tuple[str, ast.stmt]]:
        """The assignments (path, statement) that the names `node` reads are bound by: its module's own, the owner
        class's read on `self`, and other project modules' (imported by name, or read as `module.NAME`)."""
        found = [(path, target) for target in _reads(node, scope, owner)]
        bound = _bound_in(node)
        for name in _loaded_names(node):
            if name in scope.names and name not in bound:
                found.extend(self._imported(*scope.names[name]))
        for module, name in _module_attributes(node, scope):
            found.extend(self._imported(module, name))
        return found

    def _imported(self, path: str, name: str) -> list[tuple[str, ast.stmt]]:
        scope, _tree = self.scope(path)
        if scope is None:
            return []
        if name in scope.assigned:
            return [(path, scope.assigned[name])]
        if name in scope.names:  # imported again from further on: one step, as Python resolves it
            further, there = scope.names[name]
            other, _ = self.scope(further)
            return [(further, other.assigned[there])] if other is not None and there in other.assigned else []
        return []

    def _unit(self, path: str, statement: ast.stmt) -> Unit:
        text = (self.root / path).read_text(encoding="utf-8", errors="replace")
        end = statement.end_lineno or statement.lineno
        lines = text.splitlines()[statement.lineno - 1 : end]
        name = _assigned_names(statement)[0]
        return Unit(path, name, name, "python", statement.lineno, end, "\n".join(lines), kind="value")

    def _parsed(self, path: str) -> tuple[_Scope | None, ast.Module | None]:
        try:
            tree = ast.parse((self.root / path).read_text(encoding="utf-8", errors="replace"))
        except (OSError, SyntaxError, ValueError):
            return None, None
        scope = _Scope()
        for node in tree.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                scope.assigned.update(dict.fromkeys(_assigned_names(node), node))
            elif isinstance(node, ast.ImportFrom):
                self._from_import(path, node, scope)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    module = imported_module(self.root, path, alias.name, 0)
                    # `import a.b` binds `a`, not the module named: only `import b` and `import a.b as b` bind it.
                    if module is not None and (alias.asname or "." not in alias.name):
                        scope.modules[alias.asname or alias.name] = module
        return scope, tree

    def _from_import(self, path: str, node: ast.ImportFrom, scope: _Scope) -> None:
        """`from M import a, b as c`: each name a module of M's package, or a name M defines."""
        module = imported_module(self.root, path, node.module or "", node.level)
        for alias in node.names:
            bound = alias.asname or alias.name
            inner = imported_module(self.root, path, f"{node.module}.{alias.name}" if node.module else alias.name,
                                    node.level)  # fmt: skip
            if inner is not None:
                scope.modules[bound] = inner
            elif module is not None:
                scope.names[bound] = (module, alias.name)


def _function_at(tree: ast.Module, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            if first <= line <= node.lineno:
                return node
    return None


def _owner_class(tree: ast.Module, function: ast.AST) -> ast.ClassDef | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and function in node.body:
            return node
    return None


def _reads(node: ast.AST, scope: _Scope, owner: ast.ClassDef | None) -> list[ast.stmt]:
    """The module-level assignments (and the owner class's, read on `self`/`cls`) the names in `node` read, in the
    order they are first read; a name the function binds itself is its own."""
    bound = _bound_in(node)
    found: dict[int, ast.stmt] = {}
    for name in _loaded_names(node):
        if name in scope.assigned and name not in bound:
            found.setdefault(scope.assigned[name].lineno, scope.assigned[name])
    if owner is not None:
        own = {name: statement for statement in owner.body if isinstance(statement, (ast.Assign, ast.AnnAssign))
               for name in _assigned_names(statement)}  # fmt: skip
        for sub in ast.walk(node):
            if _on_self(sub) and isinstance(sub, ast.Attribute) and sub.attr in own:
                found.setdefault(own[sub.attr].lineno, own[sub.attr])
    return list(found.values())


def _module_attributes(node: ast.AST, scope: _Scope) -> list[tuple[str, str]]:
    """(module path, name) for each `module.NAME` read, where `module` is a project module the scope binds."""
    return [
        (scope.modules[sub.value.id], sub.attr)
        for sub in ast.walk(node)
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id in scope.modules
    ]


def _loaded_names(node: ast.AST) -> list[str]:
    names = [sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load)]
    return list(dict.fromkeys(names))


def _bound_in(node: ast.AST) -> set[str]:
    """The names a function binds itself: its parameters and what it stores."""
    bound = {sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store)}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
        bound.update(argument.arg for argument in every if argument is not None)
    return bound


def _on_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in _SELF_NAMES


def _assigned_names(statement: ast.stmt) -> list[str]:
    targets = statement.targets if isinstance(statement, ast.Assign) else [getattr(statement, "target", None)]
    return [target.id for target in targets if isinstance(target, ast.Name)]


def _short(statement: ast.stmt) -> bool:
    """Whether the assignment is short enough to vary line by line: a long table is followed, not varied."""
    return (statement.end_lineno or statement.lineno) - statement.lineno < _LONGEST


def _holds_literal(statement: ast.stmt) -> bool:
    """Whether the assignment writes a number or a text of its own, where a slip can be."""
    value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
    if value is None:
        return False
    return any(
        isinstance(sub, ast.Constant) and isinstance(sub.value, (str, bytes, int, float)) and sub.value is not True
        and sub.value is not False
        for sub in ast.walk(value)
    )  # fmt: skip

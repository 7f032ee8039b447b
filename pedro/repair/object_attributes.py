"""The attributes of an object a failure says lacks one: a builtin type's, a project class's (its bases' too), a
module's top-level names, a Go type's fields and methods. A misspelt attribute most likely meant one of these."""

from __future__ import annotations

import ast
import builtins
import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from pedro.repair.locate import project_sources
from pedro.repair.project_imports import module_file

# Python's `'Owner' object has no attribute`, `type object 'Owner'`, `module 'pkg.mod'`; Go's `type Owner has no
# field or method`.
PYTHON_MISSING_ATTRIBUTE = re.compile(
    r"AttributeError: (?:'(?P<object>[\w.]+)' object|type object '(?P<type>[\w.]+)'|module '(?P<module>[\w.]+)') "
    r"has no attribute '(?P<name>\w+)'"
)
GO_MISSING_ATTRIBUTE = re.compile(r"\(type \*?(?:\w+\.)?(?P<type>\w+) has no field or method (?P<name>\w+)")
_MOST_BASES = 8
"""How many classes up a project class's bases are followed."""
# The object is None or a value of no class the code names: its attributes say nothing of the one meant.
_NO_CLASS = frozenset({"NoneType", "object", "type", "function", "builtin_function_or_method", "method"})
# Standard modules that act when imported (a browser opened, a poem printed): never imported here.
_ACTS_WHEN_IMPORTED = frozenset({"antigravity", "this"})


def missing_attributes(texts: list[str], root: Path) -> frozenset[tuple[str, frozenset[str]]]:
    """(an attribute the failures say is missing, the attributes its object has), for each whose object is found."""
    # Each object once, however many failing tests name it: finding a class reads the project's sources.
    wanted: dict[tuple[str, str], set[str]] = {}
    for text in texts:
        for match in PYTHON_MISSING_ATTRIBUTE.finditer(text):
            owner = match.group("object") or match.group("type")
            key = ("class", owner) if owner else ("module", match.group("module"))
            wanted.setdefault(key, set()).add(match.group("name"))
        for match in GO_MISSING_ATTRIBUTE.finditer(text):
            wanted.setdefault(("go", match.group("type")), set()).add(match.group("name"))
    readers = {"class": _class_attributes, "module": _module_attributes, "go": _go_type_attributes}
    found: dict[str, set[str]] = {}
    for (kind, owner), names in wanted.items():
        known = readers[kind](owner, root)
        for name in names if known else ():
            found.setdefault(name, set()).update(known)
    return frozenset((name, frozenset(known - {name})) for name, known in found.items())


def _class_attributes(owner: str, root: Path) -> set[str]:
    """A builtin type's public attributes, or those of the project's classes of that name and their bases."""
    name = owner.rsplit(".", 1)[-1]
    if name in _NO_CLASS:
        return set()
    builtin = getattr(builtins, name, None)
    if "." not in owner and isinstance(builtin, type):
        return _public(builtin)
    known: set[str] = set()
    for current, classes in class_chain(name, list(project_sources(root, "python"))):
        base_type = getattr(builtins, current, None)
        if not classes and isinstance(base_type, type):
            known.update(_public(base_type))
        for node in classes:
            known.update(_members(node))
    return known


def class_chain(name: str, texts: list[str]) -> list[tuple[str, list[ast.ClassDef]]]:
    """The class `name` and its bases, _MOST_BASES names at most: each name with the classes of that name in the
    project's Python files `texts` (none for a class from elsewhere, a builtin type's)."""
    chain: list[tuple[str, list[ast.ClassDef]]] = []
    wanted, seen = [name], set[str]()
    while wanted and len(seen) < _MOST_BASES:
        current = wanted.pop()
        if not current or current in seen:
            continue
        seen.add(current)
        classes = _python_classes(texts, current)
        chain.append((current, classes))
        wanted.extend(_base_name(base) for node in classes for base in node.bases)
    return chain


def _public(thing: object) -> set[str]:
    """What a type or module offers without an underscore."""
    return {attribute for attribute in dir(thing) if not attribute.startswith("_")}


def _python_classes(texts: list[str], name: str) -> list[ast.ClassDef]:
    """The classes named `name` in the project's Python files (read only where the name is declared)."""
    declared = re.compile(rf"^\s*class\s+{re.escape(name)}\b", re.M)
    found: list[ast.ClassDef] = []
    for text in texts:
        if not declared.search(text):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        found.extend(node for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name == name)
    return found


def _members(node: ast.ClassDef) -> Iterator[str]:
    """What a class defines: its methods, class attributes, nested classes, and what its methods assign to `self.`."""
    for statement in node.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield statement.name
        yield from _assigned_names(statement)
    for method in ast.walk(node):
        if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from self_assigned(method)


def self_assigned(method: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[str]:
    """The attributes a method assigns on its own object (`self.name = ...`, by its first parameter's name)."""
    if not method.args.args:
        return
    me = method.args.args[0].arg
    for inner in ast.walk(method):
        for target in _targets(inner):
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == me:
                yield target.attr


def _assigned_names(statement: ast.AST) -> Iterator[str]:
    for target in _targets(statement):
        for leaf in ast.walk(target):
            if isinstance(leaf, ast.Name):
                yield leaf.id


def _targets(statement: ast.AST) -> list[ast.expr]:
    if isinstance(statement, ast.Assign):
        return statement.targets
    if isinstance(statement, ast.AnnAssign | ast.AugAssign):
        return [statement.target]
    return []


def _base_name(base: ast.expr) -> str:
    if isinstance(base, ast.Subscript):  # Generic[T], Mapping[str, int]
        base = base.value
    if isinstance(base, ast.Attribute):
        return base.attr
    return base.id if isinstance(base, ast.Name) else ""


def _module_attributes(module: str, root: Path) -> set[str]:
    """A project module's top-level names, else a standard module's."""
    parts = module.split(".")
    path = module_file(root, module)
    if path is not None:
        try:
            return _top_level_names(ast.parse((root / path).read_text(encoding="utf-8", errors="replace")))
        except (SyntaxError, ValueError, OSError):
            return set()
    if parts[0] not in sys.stdlib_module_names or parts[0] in _ACTS_WHEN_IMPORTED:
        return set()
    # A standard module as Python sees it: its source's top-level names miss what it takes from a compiled one
    # (`os` from `posix`).
    try:
        return _public(importlib.import_module(module))
    except Exception:  # noqa: BLE001 (a standard module that cannot load here, such as a GUI toolkit's, offers nothing)
        return set()


def _top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(statement.name)
        elif isinstance(statement, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in statement.names)
        else:
            names.update(_assigned_names(statement))
    return names


def _go_type_attributes(name: str, root: Path) -> set[str]:
    """A Go type's fields (a struct's) or methods (an interface's), and the methods declared on it."""
    declared = re.compile(
        rf"^type\s+{re.escape(name)}\s+(?P<kind>struct|interface)\s*\{{(?P<body>.*?)^\}}", re.M | re.S
    )
    method = re.compile(rf"^func\s*\(\s*\w*\s*\*?\s*{re.escape(name)}\s*(?:\[[^\]]*\])?\)\s*(?P<name>\w+)", re.M)
    known: set[str] = set()
    for text in project_sources(root, "go"):
        for match in declared.finditer(text):
            for line in match.group("body").splitlines():
                words = re.match(r"\s*(?P<names>\w+(?:\s*,\s*\w+)*)", line.split("//")[0])
                if words:
                    known.update(part.strip() for part in words.group("names").split(","))
        known.update(found.group("name") for found in method.finditer(text))
    return known

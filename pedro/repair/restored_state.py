"""An object restored without its set-up lacks what the set-up assigns: the set-up call added where it is restored.

bidict's `__setstate__` set each pickled slot back and left out `self._init_inv()`, which `__init__` calls and which
assigns `_invweak`, so an unpickled bidict failed with `'bidict' object has no attribute '_invweak'` far from the
bug, in the method that reads it. The failure names the attribute; the class says which of its methods assigns it,
that `__init__` calls that method, and which of its methods make an object another way (pickle's, copy's) without it.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path

from pedro.repair.locate import Unit, class_units, project_sources
from pedro.repair.object_attributes import PYTHON_MISSING_ATTRIBUTE, class_chain, self_assigned
from pedro.repair.variants import OWN_CLASS_SCORE, Variant

RESTORERS = frozenset({"__setstate__", "__copy__", "__deepcopy__"})
"""The methods that make an object of their class without its `__init__`, besides any that calls `__new__`."""
_MADE_NEW = re.compile(r"\.__new__\s*\(")


def restored_without_set_up(root: Path, texts: Iterable[str]) -> list[Variant]:
    """For each attribute the failures say an object of a project class lacks, where one of the class's methods
    assigns it and `__init__` calls that method: the call added to each of the class's restoring methods that does
    not make it."""
    found_in = (match for text in texts for match in PYTHON_MISSING_ATTRIBUTE.finditer(text))
    wanted = {(match["object"], match["name"]) for match in found_in if match["object"]}
    if not wanted:
        return []
    sources = list(project_sources(root, "python"))
    found: dict[tuple[str, int, str], Variant] = {}
    for owner, attribute in sorted(wanted):
        chain = [node for _name, nodes in class_chain(owner.rsplit(".", 1)[-1], sources) for node in nodes]
        set_up = _set_up(chain, attribute)
        if set_up is None:
            continue
        for name in dict.fromkeys(node.name for node in chain):
            for unit in _restorers(root, name, set_up):
                variant = _with_set_up(unit, set_up, attribute)
                if variant is not None:
                    found.setdefault((unit.path, variant.line, variant.text), variant)
    return list(found.values())


def _set_up(chain: Sequence[ast.ClassDef], attribute: str) -> str | None:
    """The method of these classes, other than `__init__`, that assigns `self.<attribute>` and that an `__init__`
    of theirs calls on `self`; None where there is none."""
    methods = [item for node in chain for item in node.body if isinstance(item, ast.FunctionDef)]
    called = {call for method in methods if method.name == "__init__" for call in _self_calls(method)}
    for method in methods:
        if method.name != "__init__" and method.name in called and attribute in set(self_assigned(method)):
            return method.name
    return None


def _restorers(root: Path, class_name: str, set_up: str) -> list[Unit]:
    """The class's restoring methods (RESTORERS, and those that make an object with `__new__`) that never call
    `set_up`."""
    calls = re.compile(rf"\.{re.escape(set_up)}\s*\(")
    return [
        unit
        for unit in class_units(root, class_name)
        if (unit.name in RESTORERS or _MADE_NEW.search(unit.text))
        and unit.qualified_name == f"{class_name}.{unit.name}"
        and not calls.search(unit.text)
    ]


def _with_set_up(unit: Unit, set_up: str, attribute: str) -> Variant | None:
    """The restoring method with the set-up called on the object it makes: before its last statement where that
    returns a name (`return copy` → `copy._init_inv()` first), else at its end on `self`."""
    try:
        tree = ast.parse(textwrap.dedent(unit.text))
    except SyntaxError:
        return None
    function = tree.body[0] if tree.body else None
    if not isinstance(function, ast.FunctionDef) or not function.args.args:
        return None
    lines = unit.text.splitlines()
    last = function.body[-1]
    indent = re.match(r"[ \t]*", lines[last.lineno - 1]).group(0)  # type: ignore[union-attr]
    change = f"`{{}}.{set_up}()` added: it assigns `{attribute}`, which the object restored here lacks"
    if isinstance(last, ast.Return) and isinstance(last.value, ast.Name):
        made, line = last.value.id, unit.start_line + last.lineno - 1
        text = f"{indent}{made}.{set_up}()\n{lines[last.lineno - 1]}"
        return Variant(unit, line, text, change.format(made), OWN_CLASS_SCORE)
    if any(isinstance(node, ast.Return) and node.value is not None for node in ast.walk(function)):
        return None  # it returns something else: what it makes is not `self`
    me = function.args.args[0].arg
    text = f"{lines[-1]}\n{indent}{me}.{set_up}()"
    return Variant(unit, unit.end_line, text, change.format(me), OWN_CLASS_SCORE)


def _self_calls(method: ast.FunctionDef) -> set[str]:
    """The methods `method` calls on its own object (`self.name(...)`)."""
    me = method.args.args[0].arg if method.args.args else ""
    return {
        node.func.attr
        for node in ast.walk(method)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == me
    }

"""The variables a unit gives a value and never reads: where a slip put another name in place of one.

`h, m := scan(text)` followed by `return h*60 + h` leaves `m` unread, as a linter's "assigned but never used" would
say; the variants that read it in place of another name are then likelier than the rest.
"""

from __future__ import annotations

import ast
import functools
import re
import textwrap

from pedro.repair.locate import Unit
from pedro.repair.mutants import code_text
from pedro.tools.symbols import LanguageName

_NAME = re.compile(r"(?<![\w$.])[A-Za-z_$][\w$]*(?![\w$])")
# Where a name stands as what is stored, in Go and JavaScript: a target list before `=` or `:=`, a declaration, a
# pointer given to a scan (`&m`).
_STORED_AFTER = re.compile(r"^\s*(?:,\s*[A-Za-z_$][\w$]*\s*)*(?::=|=(?![=>]))")
_DECLARED_BEFORE = re.compile(r"(?:\b(?:let|const|var)\s+(?:[A-Za-z_$][\w$]*\s*,\s*)*|&)$")
# What follows a declared name (`var h, m int`, `let x = 1`): not the type that ends Go's list.
_DECLARED_NAME_END = re.compile(r"\s*[,=:;]|\s+[\w$*\[]")
# Where a name stands as the type a Go declaration gives its names (`var gcd int = 1`): no variable.
_DECLARED_TYPE = re.compile(r"\bvar\s+[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s+$")
# A JavaScript signature's parameters: `function f(a, b = 1) {`, `(a, b) => {`, a method's `f(a, b) {`.
_PARAMETERS = re.compile(r"\((?P<inside>[^()]*)\)")
# A Go signature: a method's receiver and a generic's type parameters before the parameters.
_GO_SIGNATURE = re.compile(r"^\s*func\s+(?:\([^)]*\)\s*)?\w+\s*(?:\[[^\]]*\]\s*)?\((?P<inside>[^()]*)\)")
_NEVER_UNREAD = frozenset({"_", "self", "cls"})
# The methods that add to a collection, called as a statement of their own: a write into it, not a read.
_FILLING_METHODS = frozenset({"append", "extend", "add", "update", "insert", "appendleft", "setdefault"})


def unread_names(unit: Unit) -> frozenset[str]:
    """The unit's variables stored and never read; none where its code cannot be read."""
    return unread_in(unit.text, unit.language)


@functools.lru_cache(maxsize=64)
def unread_in(text: str, language: LanguageName) -> frozenset[str]:
    """The variables a function's code (`text`, its signature first) stores and never reads."""
    if language == "python":
        return _python_unread(text)
    return _token_unread(text, language)


def parameters(signature: str, language: LanguageName) -> list[str]:
    """A Python, JavaScript, TypeScript or Go signature's plain parameters."""
    if language == "go":
        return _go_parameters(signature)
    match = _PARAMETERS.search(code_text(signature, language))
    if match is None:
        return []
    names = (part.split("=")[0].split(":")[0].strip().rstrip("?") for part in match.group("inside").split(","))
    return [name for name in names if _NAME.fullmatch(name)]


def _go_parameters(signature: str) -> list[str]:
    match = _GO_SIGNATURE.match(signature)
    if match is None:
        return []
    # `x int, n int` and `a, b int` alike: the first word of each part is a name.
    words = [part.split()[0] for part in match.group("inside").split(",") if part.split()]
    return [word for word in words if _NAME.fullmatch(word)]


def _python_unread(text: str) -> frozenset[str]:
    try:
        tree = ast.parse(textwrap.dedent(text))
    except SyntaxError:
        return frozenset()
    stored: set[str] = set()
    read: set[str] = set()
    parameters: set[str] = set()
    filled = _filled_in_place(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            stored.add(node.arg)
            parameters.add(node.arg)
        elif isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) and id(node) not in filled else stored).add(node.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            read.add(node.target.id)  # `total += x` reads total too
        elif isinstance(node, ast.Global | ast.Nonlocal):
            read.update(node.names)  # stored for others to read
    # A parameter filled in place is the caller's to read.
    unread = stored - read - (parameters & set(filled.values()))
    return frozenset(name for name in unread if name not in _NEVER_UNREAD and not name.startswith("_"))


def _filled_in_place(tree: ast.AST) -> dict[int, str]:
    """The names a statement only writes into (`counts[x] += 1`, `seen[key] = v`, `out.append(x)`): a local
    collection filled there and read nowhere else was computed for nothing, as a variable stored and never read.
    (An attribute set on an object is a change others see, not such a write.)"""
    filled: dict[int, str] = {}
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            call = node.value.func
            if isinstance(call, ast.Attribute) and call.attr in _FILLING_METHODS and isinstance(call.value, ast.Name):
                filled[id(call.value)] = call.value.id
        for target in targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                filled[id(target.value)] = target.value.id
    return filled


def _token_unread(text: str, language: LanguageName) -> frozenset[str]:
    """Go and JavaScript, read by tokens: a name stored wherever it stands in the body's code (a JavaScript
    parameter stands once, in the signature, as a store)."""
    lines = text.splitlines()
    body = [code_text(line, language) for line in lines[1:]]
    seen: dict[str, list[bool]] = {name: [True] for name in parameters(lines[0] if lines else "", language)}
    for line in body:
        for match in _NAME.finditer(line):
            before, after = line[: match.start()], line[match.end() :]
            if _DECLARED_TYPE.search(before):
                continue
            declared = _DECLARED_BEFORE.search(before) and (before.endswith("&") or _DECLARED_NAME_END.match(after))
            stored = bool(_STORED_AFTER.match(after) or declared)
            seen.setdefault(match.group(0), []).append(stored)
    return frozenset(name for name, uses in seen.items() if all(uses) and name not in _NEVER_UNREAD)

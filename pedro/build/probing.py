"""The calls every answer is checked with: the request's examples (each must give its value), then probes (inputs
whose outputs the answers are compared on, so the kept answer is the one most others agree with)."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pedro.build.examples import Example
from pedro.build.place import Place
from pedro.calls.literals import literal_arguments
from pedro.calls.run import LANGUAGES, Call
from pedro.repair.frames import is_test_file
from pedro.repair.native_probes import go_neighbour_calls
from pedro.repair.probes import literal_calls, probe_inputs
from pedro.tools.symbols import extract_symbols

_MAX_TEST_FILES = 20
_MAX_TEST_BYTES = 200_000
_SIGNATURE = r"\b{name}\s*\((?P<params>[^()]*)\)"


def can_call(place: Place) -> bool:
    """Whether the built function can be called on its own: a function (not a method) in Python, JavaScript or Go."""
    return not place.owner and place.language in LANGUAGES


def checkable(place: Place, examples: Sequence[Example]) -> list[Example]:
    """The examples pedro can check: a value a function (not a method) must give. One that must raise, or a method's,
    is not checked, and so never listed as checked."""
    return [example for example in examples if example.expected and can_call(place)]


def example_calls(place: Place, examples: Sequence[Example]) -> list[Call]:
    """The checkable examples as calls with the value each must give."""
    return [Call(example.call, example.expected) for example in checkable(place, examples)]


def probe_calls(
    place: Place, examples: Sequence[Example], description: str, root: Path, listed: Sequence[str]
) -> list[str]:
    """Calls whose outputs the answers are compared on: the examples' and the tests' own calls of the function, else
    those the tests make of its file's functions that take as many arguments; then neighbours of each argument
    (repair's probes). Go's are the examples and their neighbours."""
    if not can_call(place):
        return []
    if place.language == "javascript":
        return _javascript_probes(place, examples, description, root, listed)
    if place.language == "go":
        return _go_probes(place, examples, description, root)
    if place.language != "python":
        return [example.call for example in examples]
    seeds = [seed for example in examples for seed in _call_arguments(example.call)]
    trees = list(_test_trees(root, listed))
    for tree in trees:
        seeds.extend(literal_calls(tree, place.name))
    if not seeds:
        arity = _arity(description, place.name)
        for sibling in _siblings(root / place.path, arity, place.name):
            for tree in trees:
                seeds.extend(literal_calls(tree, sibling))
    inputs, _ = probe_inputs(seeds)
    return [_as_call(place.name, text) for text in inputs]


def _javascript_probes(
    place: Place, examples: Sequence[Example], description: str, root: Path, listed: Sequence[str]
) -> list[str]:
    """As for Python: the examples' and the tests' calls with literal arguments (JSON-like values), else the tests'
    calls of the file's functions that take as many; then neighbours. Written back as JavaScript calls."""
    tests = [_read(root / path) for path in listed if is_test_file(path) and path.endswith((".js", ".mjs", ".cjs"))]
    seeds = [seed for example in examples for seed in literal_arguments(example.call, place.name)]
    for text in tests:
        seeds.extend(literal_arguments(text, place.name))
    if not seeds:
        arity = _arity(description, place.name)
        for sibling in _javascript_siblings(root / place.path, arity, place.name):
            for text in tests:
                seeds.extend(literal_arguments(text, sibling))
    inputs, _ = probe_inputs([(args, {}) for args, _ in seeds])
    calls = []
    for literal in inputs:
        args, _ = ast.literal_eval(literal)
        calls.append(f"{place.name}({', '.join(json.dumps(arg) for arg in args)})")
    return calls


def _go_probes(place: Place, examples: Sequence[Example], description: str, root: Path) -> list[str]:
    """The examples as written, then their arguments' neighbours as Go literals of the parameters' types, which the
    request's signature gives (`Max(a, b int) int`), else the function's own in its file."""
    calls = [example.call for example in examples]
    written = re.search(_SIGNATURE.format(name=re.escape(place.name)), description)
    if written is None or not re.search(r"[A-Za-z]\w*\s+[\w\[\]]+\s*$", written.group("params")):
        written = re.search(
            rf"^func\s+{re.escape(place.name)}\s*\((?P<params>[^()]*)\)", _read(root / place.path), re.M
        )
    if written is None:
        return calls
    seeds = [seed for example in examples for seed in literal_arguments(example.call, place.name)]
    return [*calls, *go_neighbour_calls(place.name, written.group("params"), seeds)]


def _javascript_siblings(path: Path, arity: int | None, name: str) -> list[str]:
    """The file's other `function` declarations with `arity` parameters (JavaScript)."""
    if arity is None:
        return []
    return [
        sibling
        for sibling, params in re.findall(r"\bfunction\s+(\w+)\s*\(([^)]*)\)", _read(path))
        if sibling != name and len([p for p in params.split(",") if p.strip()]) == arity
    ]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace") if path.stat().st_size <= _MAX_TEST_BYTES else ""
    except OSError:
        return ""


def _call_arguments(call: str) -> Iterable[tuple[tuple[Any, ...], dict[str, Any]]]:
    try:
        tree = ast.parse(call, mode="eval")
    except SyntaxError:
        return []
    node = tree.body
    if not isinstance(node, ast.Call):
        return []
    try:
        args = tuple(ast.literal_eval(arg) for arg in node.args)
        kwargs = {str(k.arg): ast.literal_eval(k.value) for k in node.keywords if k.arg is not None}
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return []
    return [(args, kwargs)]


def _as_call(name: str, literal: str) -> str:
    args, kwargs = ast.literal_eval(literal)
    words = [repr(arg) for arg in args] + [f"{key}={value!r}" for key, value in kwargs.items()]
    return f"{name}({', '.join(words)})"


def _arity(description: str, name: str) -> int | None:
    """How many parameters the request's own signature gives the function (`median(values)`: 1)."""
    found = re.search(_SIGNATURE.format(name=re.escape(name)), description)
    if found is None:
        return None
    params = [p for p in found.group("params").split(",") if p.strip()]
    return len(params) if all(re.fullmatch(r"\s*[A-Za-z_]\w*(\s*=.*)?\s*", p) for p in params) else None


def _siblings(path: Path, arity: int | None, name: str) -> list[str]:
    """The file's other top-level functions with `arity` parameters (Python)."""
    if arity is None:
        return []
    try:
        source = path.read_text(encoding="utf-8", errors="replace")
        tree = ast.parse(source)
    except (OSError, SyntaxError, ValueError):
        return []
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name != name and len(node.args.args) == arity
    ]


def _test_trees(root: Path, listed: Sequence[str]) -> Iterable[ast.Module]:
    count = 0
    for path in listed:
        if not path.endswith(".py") or not is_test_file(path) or count >= _MAX_TEST_FILES:
            continue
        try:
            file = root / path
            if file.stat().st_size > _MAX_TEST_BYTES:
                continue
            tree = ast.parse(file.read_text(encoding="utf-8", errors="replace"))
        except (OSError, SyntaxError, ValueError):
            continue
        count += 1
        yield tree


def tests_naming(name: str, root: Path, listed: Sequence[str]) -> list[str]:
    """The test files that mention the function by name."""
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    named = []
    for path in listed:
        if not is_test_file(path):
            continue
        try:
            if pattern.search((root / path).read_text(encoding="utf-8", errors="replace")):
                named.append(path)
        except OSError:
            continue
    return named


def defined_names(text: str, path: str) -> set[str]:
    return {symbol.name for symbol in extract_symbols(text.encode(), path)}

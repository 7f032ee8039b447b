"""Probes: the inputs beyond the tests' own that every plausible candidate, and the original code, are called on.

A fix that passes the visible tests may still compute something else (a different statistic that agrees on the
tests' inputs, a special case). As CodeT-style selection does, pedro compares the passing candidates on more inputs:
the calls the tests make to the function, and neighbours of their arguments (one more, one less, empty, reversed).
Each candidate's outputs are recorded inside its own test run by a pytest plugin (pytest_probes.py), so comparing
costs no extra run; choose.py compares them. The probed function is the fixed one when the tests call it with
literal arguments (or names they bind to literals: case_bindings.py); a method or property, on the objects the tests
make (method_probes.py); a helper the tests reach only through a caller (or a method used on an object the tests do
not make with literals) is probed through the functions its failing tests call, whose outputs carry its own.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pedro.calls.run import AFTER_SLOW
from pedro.repair.case_bindings import call_arguments, called_name, own_nodes, rows_of, scopes
from pedro.repair.doc_examples import Example, doc_examples
from pedro.repair.frames import is_test_file
from pedro.repair.locate import Unit
from pedro.repair.method_probes import is_called, method_seeds
from pedro.repair.project_imports import module_file
from pedro.repair.pytest_probes import SECONDS_PER_CALL
from pedro.tools.test import RunPlan

_PLUGIN = "pedro_probe_plugin"
_PLUGIN_SOURCE = Path(__file__).with_name("pytest_probes.py")
MAX_INPUTS = 24
_DICT_VALUE_NEIGHBOURS = 2
"""How many of a mapping's first value's own neighbours stand in for it: a few, for every other argument's too."""
_MAX_TEST_FILES = 20
_MAX_TEST_BYTES = 200_000


@dataclass(frozen=True)
class ProbeSpec:
    """What to call: the module the tests import the function from, its name, and the inputs as Python literals."""

    module: str
    function: str
    inputs: tuple[str, ...]
    pinned: int = 0
    """The first `pinned` inputs are the tests' own calls, whose outputs the tests pin; the rest are neighbours."""
    language: str = "python"
    """python: recorded inside the candidate's pytest run; go, javascript: calls of their own (native_probes.py),
    where `module` is the function's file."""
    own_program: bool = False
    """python: calls of their own as well, `module` the function's file (the tests run by a runner pedro loads no
    plugin into: unittest)."""
    params: tuple[str, ...] = ()
    """Go: the parameters' types, which the calls' literals are written in."""
    # python: a method or property of the class `function` names, on an object made anew for each input: an input's
    # first `made_with` arguments and its keywords make it, the rest are the method's (method_probes.py).
    method: str = ""
    made_with: int = 0
    called: bool = True
    """Whether the method is called (a property is read)."""
    documented: tuple[tuple[int, str], ...] = ()
    """(input, the output its docstring's example says it gives, `= 5`): what the function promises (doc_examples)."""

    @property
    def separate(self) -> bool:
        """Whether the probes are a run of their own rather than part of a pytest run."""
        return self.language != "python" or self.own_program

    def call(self, index: int) -> str:
        """Input `index` as a call a person reads: `total([1, 2, 3])`, `clip('hello', size=2)`."""
        try:
            args, kwargs = ast.literal_eval(self.inputs[index])
        except (ValueError, SyntaxError, TypeError, IndexError):
            return f"{self.function}(?)"
        return self.code(args, kwargs, self.function.rsplit(".", 1)[-1])

    def code(self, args: Sequence[Any], kwargs: dict[str, Any], name: str) -> str:
        """One input as Python code calling `name`: `total([1, 2, 3])`, `Rect(2, 3).area`."""
        if not self.method:
            words = [repr(arg) for arg in args] + [f"{key}={value!r}" for key, value in kwargs.items()]
            return f"{name}({', '.join(words)})"
        made = [repr(arg) for arg in args[: self.made_with]] + [f"{key}={value!r}" for key, value in kwargs.items()]
        used = f"({', '.join(repr(arg) for arg in args[self.made_with :])})" if self.called else ""
        return f"{name}({', '.join(made)}).{self.method}{used}"


def probe_spec(unit: Unit, root: Path) -> ProbeSpec | None:
    """The probes for a Python function: its own calls with literal arguments in the tests, else those of the
    functions its failing tests call (a helper reached through a caller shows in the caller's outputs); for a method
    or property, the objects the tests make and use it on; None when the tests make no such call."""
    if unit.language != "python":
        return None
    if unit.qualified_name.count(".") == 1 and (own := _method_spec(unit, root)) is not None:
        return own
    if "." not in unit.qualified_name:
        trees = list(_test_trees(unit, root, mention=unit.name))
        default = unit.path.removesuffix(".py").replace("/", ".")
        own = _with_examples(_spec(trees, unit.name, default), unit, default)
        if own is not None:
            return own
    callers = list(_test_trees(unit, root, mention=None))
    for module, name in dict.fromkeys(found for tree in callers for found in _imported_functions(tree)):
        spec = _spec(callers, name, module) if _in_project(root, module) else None
        if spec is not None:
            return spec
    return None


def _method_spec(unit: Unit, root: Path) -> ProbeSpec | None:
    """A method's probes: the objects its tests make and use it on, and their neighbours (method_probes.py)."""
    cls, _, method = unit.qualified_name.partition(".")
    called = is_called(unit, root)
    if called is None:
        return None
    trees = list(_test_trees(unit, root, mention=method))
    seeds, made_with = method_seeds(trees, cls, method)
    module = next((found for tree in trees if (found := _imported_from(tree, cls))), "")
    inputs, pinned = probe_inputs(seeds)
    module = module or unit.path.removesuffix(".py").replace("/", ".")
    return (
        ProbeSpec(module, cls, tuple(inputs), pinned, method=method, made_with=made_with, called=called)
        if inputs
        else None
    )


def _with_examples(spec: ProbeSpec | None, unit: Unit, module: str) -> ProbeSpec | None:
    """The function's probes with its docstring's examples (doc_examples.py); the probes from the examples alone
    where no test calls it with literals."""
    examples = doc_examples(unit.text, unit.name)
    if not examples:
        return spec
    return with_examples(spec or ProbeSpec(module, unit.name, (), 0), examples, repr)


def with_examples(spec: ProbeSpec, examples: Sequence[Example], written: Callable[[Any], str | None]) -> ProbeSpec:
    """The probes with documented examples put after the tests' own calls, each with the answer it documents as
    the function's language prints it (`written`: the example still probes where that is None)."""
    inputs = list(spec.inputs[: spec.pinned])
    documented = []
    for (args, kwargs), value in examples:
        text = repr((args, kwargs))
        if text not in inputs:
            inputs.append(text)
        if (said := written(value)) is not None:
            documented.append((inputs.index(text), f"= {said}"))
    inputs += [text for text in spec.inputs[spec.pinned :] if text not in inputs][: max(0, MAX_INPUTS - len(inputs))]
    return replace(spec, inputs=tuple(inputs), documented=tuple(documented))


def by_own_program(spec: ProbeSpec | None, root: Path) -> ProbeSpec | None:
    """A Python function's probes made by a program of their own, for tests whose runner takes no plugin; None when
    the module is no file of the repository's."""
    path = module_file(root, spec.module) if spec is not None else None
    return replace(spec, module=path, own_program=True) if spec is not None and path is not None else None


def _in_project(root: Path, module: str) -> bool:
    """Whether `module` is the repository's own (a file or package under the root or under src/)."""
    return module_file(root, module) is not None


def _spec(trees: Sequence[ast.Module], name: str, default_module: str) -> ProbeSpec | None:
    """The probes for `name`: its literal calls in the trees and their neighbours, from the module they import it
    from (else `default_module`)."""
    module = ""
    seeds: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    for tree in trees:
        module = module or _imported_from(tree, name)
        seeds.extend(literal_calls(tree, name))
    module = module or default_module
    inputs, pinned = probe_inputs(seeds)
    return ProbeSpec(module, name, tuple(inputs), pinned) if inputs and module else None


def _test_trees(unit: Unit, root: Path, *, mention: str | None) -> Iterator[ast.Module]:
    """The parsed test files of the tests that lead to the unit, else (when `mention` is given) the repository's
    test files; only those that name `mention`, when given."""
    named = sorted({test.split("::")[0] for test in unit.tests if test.endswith(".py") or "::" in test})
    paths = [root / path for path in named if is_test_file(path)]
    if not paths and mention is not None:
        paths = _tracked_test_files(root)
    for path in paths:
        text = _read_test(path)
        if text is not None and (mention is None or mention in text):
            with contextlib.suppress(SyntaxError, ValueError):
                yield ast.parse(text)


def _tracked_test_files(root: Path) -> list[Path]:
    """The repository's Python test files by name, from git's index (no walk of the tree); none outside git."""
    from pedro import gitlayer

    try:
        listed = gitlayer.run(root, "ls-files", "-z", "--", ":(glob)**/test*.py", ":(glob)**/*_test.py", timeout=60)
    except gitlayer.GitError:
        return []
    found = [root / path for path in listed.out.split("\0") if path and ".pedro/" not in path] if listed.ok else []
    return found[:_MAX_TEST_FILES]


def _read_test(path: Path) -> str | None:
    """A test file's text, or None when it is too large to be a test or cannot be read."""
    try:
        if path.stat().st_size > _MAX_TEST_BYTES:
            return None
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _imported_functions(tree: ast.Module) -> Iterator[tuple[str, str]]:
    """The modules and function names a test file imports by name (`from shop.cart import total`), in order, then
    the functions it calls on a module it imports whole (`import shop` … `shop.total(…)`); classes (capitalised) and
    names imported under another name are left out."""
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if alias.asname is None and alias.name != "*" and not alias.name[:1].isupper():
                    yield node.module, alias.name
    modules = _modules_imported_whole(tree)
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and not call.func.attr[:1].isupper():
            module = modules.get(ast.unparse(call.func.value))
            if module is not None:
                yield module, call.func.attr


def _modules_imported_whole(tree: ast.Module) -> dict[str, str]:
    """The modules a test file imports whole (`import shop`, `import shop.cart as cart`), by the name it uses."""
    return {
        alias.asname or alias.name: alias.name
        for node in tree.body
        if isinstance(node, ast.Import)
        for alias in node.names
    }


def _imported_from(tree: ast.Module, name: str) -> str:
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not node.module or node.level:
            continue
        if any(alias.name == name for alias in node.names):
            return node.module
    return ""


def literal_calls(tree: ast.Module, name: str) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """The argument values of every call of `name` whose arguments are literals, or names the test binds to
    literals (a parametrize row, a loop over a tuple of cases, a name assigned once: case_bindings.py), once for
    each set of values they take together."""
    for scope in scopes(tree):
        calls = [node for node in own_nodes(scope) if isinstance(node, ast.Call) and called_name(node) == name]
        rows = rows_of(scope) if calls else []  # read only where the scope calls the function
        for node in calls:
            for row in rows:
                found = call_arguments(node, row)
                if found is not None:
                    yield found


def probe_inputs(seeds: Sequence[tuple[tuple[Any, ...], dict[str, Any]]]) -> tuple[list[str], int]:
    """The tests' own calls first, then each argument's neighbours in turn, as Python literals, at most MAX_INPUTS;
    and how many of them are the tests' own."""
    found: dict[str, None] = {}

    def add(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        text = repr((args, kwargs))
        try:
            same = ast.literal_eval(text) == (args, kwargs)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            same = False
        if same and len(found) < MAX_INPUTS:
            found.setdefault(text, None)

    for args, kwargs in seeds:
        add(args, kwargs)
    pinned = len(found)
    for args, kwargs in seeds:
        for at, value in enumerate(args):
            for other in neighbours(value):
                add((*args[:at], other, *args[at + 1 :]), kwargs)
    return list(found), pinned


def neighbours(value: Any) -> list[Any]:
    """Values near `value` of the same type: where a general fix and one fitted to the tests' inputs part."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1, -value, value * 3 + 2]
    if isinstance(value, float):
        return [value + 0.5, value * 2.5, -value]
    if isinstance(value, str):
        return [value[::-1], value.upper(), value + " x", ""]
    # Besides reorderings and a repeat, one that changes which values it holds (its last item dropped, and none at
    # all): a fix that keeps each value once answers a reordering as it answers the test's own list.
    if isinstance(value, list):
        return [value[::-1], value[1:], [*value, value[0]], value[:-1], []] if value else []
    if isinstance(value, tuple):
        return [value[::-1], value[1:], (*value, value[0]), value[:-1], ()] if value else []
    if isinstance(value, dict):
        return _dict_neighbours(value)
    return []


def _dict_neighbours(value: dict[Any, Any]) -> list[Any]:
    """A mapping's neighbours: its first two values swapped, its first value's own neighbours, its last key dropped,
    and none at all. A fix fitted to a test's record (`{'a': 'x', 'b': 'y'}`) parts from a general one where the
    values change, not the keys."""
    if not value:
        return []
    keys = list(value)
    found: list[Any] = []
    if len(keys) >= 2 and value[keys[0]] != value[keys[1]]:
        found.append({**value, keys[0]: value[keys[1]], keys[1]: value[keys[0]]})
    found += [{**value, keys[0]: other} for other in neighbours(value[keys[0]])[:_DICT_VALUE_NEIGHBOURS]]
    return [*found, {key: value[key] for key in keys[:-1]}, {}]


@dataclass
class ProbeRecorder:
    """An instrument for a pytest run: after the tests, the function is called on every input of `spec`."""

    spec: ProbeSpec
    outputs: list[str] | None = None

    @property
    def allowance_s(self) -> float:
        """The time the calls may add to the run: a slow function's probes must not make a right fix's run look
        like one that hung."""
        return len(self.spec.inputs) * SECONDS_PER_CALL

    def prepare(self, plan: RunPlan, workdir: Path) -> RunPlan:
        folder = workdir / "probes"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_PLUGIN_SOURCE, folder / f"{_PLUGIN}.py")
        spec_file = workdir / "probes.json"
        spec = {"module": self.spec.module, "function": self.spec.function, "inputs": list(self.spec.inputs),
                "pinned": self.spec.pinned, "after_slow": AFTER_SLOW, "method": self.spec.method,
                "made_with": self.spec.made_with, "called": self.spec.called}  # fmt: skip
        spec_file.write_text(json.dumps(spec), encoding="utf-8")
        env = dict(plan.command.env)
        path = env.get("PYTHONPATH", "")
        env["PYTHONPATH"] = f"{folder}{os.pathsep}{path}" if path else str(folder)
        env["PYTEST_ADDOPTS"] = f"{env.get('PYTEST_ADDOPTS', '')} -p {_PLUGIN}".strip()
        env["PEDRO_PROBE_SPEC"] = str(spec_file)
        env["PEDRO_PROBE_OUT"] = str(workdir / "probes.out.json")
        return replace(plan, command=replace(plan.command, env=env))

    def collect(self, plan: RunPlan, workdir: Path) -> None:
        try:
            outputs = json.loads((workdir / "probes.out.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(outputs, list) and len(outputs) == len(self.spec.inputs):
            self.outputs = [str(output) for output in outputs]

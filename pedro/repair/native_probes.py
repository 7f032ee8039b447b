"""Probes for Go and JavaScript: the changed function called on the probe inputs by a child of its own (calls/).

Python's probes ride along inside a candidate's pytest run (probes.py); Go's test binaries and node's test runner
leave no such hook, so the calls are a run of their own, made only for plausible candidates and the original code.
The inputs are the tests' literal calls of the function and their neighbours; a Go function the tests never call
with literals (a helper behind the function they do call) is probed on the numbers and texts of its own body and
their neighbours, as its parameter types allow.
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pedro.calls.literals import Arguments, literal_arguments
from pedro.calls.run import Call, run_calls
from pedro.calls.tables import table_arguments
from pedro.repair.doc_examples import comment_examples
from pedro.repair.frames import is_test_file
from pedro.repair.locate import Unit
from pedro.repair.probes import MAX_INPUTS, ProbeSpec, probe_inputs, with_examples

_MAX_TEST_FILES = 20
_MAX_TEST_BYTES = 200_000
_GO_SIGNATURE = re.compile(r"^func\s+(?P<name>\w+)\s*\((?P<params>[^()]*)\)\s*(?P<results>[^{]*)\{", re.MULTILINE)
_GO_INTS = frozenset({"int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "byte",
                      "rune"})  # fmt: skip
_GO_FLOATS = frozenset({"float32", "float64"})
_GO_TYPES = _GO_INTS | _GO_FLOATS | {"string", "bool"}
_JS_SUFFIXES = (".js", ".cjs", ".mjs")
_JS_TEST_DIRS = ("test", "tests", "__tests__")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_TEXT = re.compile(r'"((?:\\.|[^"\\])*)"')
_MOST_SHOWN_ITEMS = 6
"""The most items of an array node's inspect prints on one line whatever they are."""


def native_probe_spec(unit: Unit, root: Path) -> ProbeSpec | None:
    """The probes for a Go or JavaScript function, or None (a method, a type the probes cannot build, no input)."""
    if "." in unit.qualified_name:
        return None  # a method needs a receiver the probes cannot build
    if unit.language == "go":
        return _go_spec(unit, root)
    if unit.language == "javascript" and unit.path.endswith(_JS_SUFFIXES):
        seeds = [seed for text in _test_texts(root, unit, _js_test_files(root, unit))
                 for seed in literal_arguments(text, unit.name)]  # fmt: skip
        inputs, pinned = probe_inputs(seeds)
        spec = ProbeSpec(unit.path, unit.name, tuple(inputs), pinned, language="javascript")
        spec = with_examples(spec, _examples(unit, root, lambda args: True), _js_said)
        return spec if spec.inputs else None
    return None


def _examples(unit: Unit, root: Path, fits: Callable[[tuple[Any, ...]], bool]) -> list[Any]:
    """The examples of the comment above the function (doc_examples.py) whose arguments `fits` takes."""
    try:
        text = (root / unit.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return [example for example in comment_examples(text, unit.start_line, unit.name) if fits(example[0][0])]


def _go_spec(unit: Unit, root: Path) -> ProbeSpec | None:
    """A Go function of one result whose parameters are numbers, texts, flags or slices of them."""
    signature = _GO_SIGNATURE.search(unit.text)
    if signature is None or signature.group("name") != unit.name or not _one_result(signature.group("results")):
        return None
    params = _go_params(signature.group("params"))
    folder = (root / unit.path).parent
    if params is None:
        return None
    texts = _test_texts(root, unit, _go_test_files(root, folder))
    # The calls written with literals, and the rows of the tables that table-driven tests loop over.
    seeds = [
        seed for text in texts for seed in (*literal_arguments(text, unit.name), *table_arguments(text, unit.name))
    ]
    own = [seed for seed in seeds if _fits(seed[0], params)]
    inputs, pinned = probe_inputs(own)
    examples = _examples(unit, root, lambda args: _fits(args, params))
    if not inputs and not examples:
        inputs, pinned = _typed_inputs(unit.text[signature.end() :], params), 0
    inputs = [text for text in inputs if _fits(ast.literal_eval(text)[0], params)]
    spec = ProbeSpec(unit.path, unit.name, tuple(inputs), pinned, language="go", params=params)
    result = signature.group("results").strip().strip("()").split()[-1]
    spec = with_examples(spec, examples, lambda value: _go_said(value, result))
    return spec if spec.inputs else None


def _one_result(text: str) -> bool:
    """Whether a Go signature's results are one value: `int`, `(n int)`, not `(int, error)` or nothing."""
    text = text.strip()
    return bool(text) and "," not in text


def _go_params(text: str) -> tuple[str, ...] | None:
    """The parameter types of `a, b int, s string`, one per parameter; None for a type the probes cannot build."""
    parameters = go_parameters(text)
    if parameters is None:
        return None
    for _, kind in parameters:
        element = kind.removeprefix("[]")
        if element not in _GO_TYPES or kind.startswith("[][]") or "..." in kind:
            return None
    return tuple(kind for _, kind in parameters)


def go_parameters(text: str) -> list[tuple[str, str]] | None:
    """(name, type) of each parameter of a Go parameter list, `a, b int` giving both their type; None where a name
    is left without one (a list of types alone, as an interface's method may have)."""
    found: list[tuple[str, str]] = []
    pending: list[str] = []
    for part in (piece.strip() for piece in text.split(",") if piece.strip()):
        name, _, kind = part.partition(" ")
        if not kind.strip():
            pending.append(name)  # `a` in `a, b int`: its type comes later
            continue
        found += [(each, kind.strip()) for each in (*pending, name)]
        pending = []
    return None if pending else found


def _go_test_files(root: Path, folder: Path) -> list[Path]:
    """The test files of the function's package and of the module's root package (Go's tests sit beside)."""
    found = dict.fromkeys([*sorted(folder.glob("*_test.go")), *sorted(root.glob("*_test.go"))])
    return list(found)[:_MAX_TEST_FILES]


def _js_test_files(root: Path, unit: Unit) -> list[Path]:
    """The test files beside the module, in a test folder beside it, and at the root (no walk of the tree)."""
    bases = ((root / unit.path).parent, root)
    folders = dict.fromkeys([*bases, *(base / sub for base in bases for sub in _JS_TEST_DIRS)])
    found = [
        path for folder in folders if folder.is_dir() for path in sorted(folder.iterdir())
        if path.suffix in _JS_SUFFIXES and (is_test_file(str(path.relative_to(root))) or folder.name in _JS_TEST_DIRS)
    ]  # fmt: skip
    return found[:_MAX_TEST_FILES]


def _test_texts(root: Path, unit: Unit, paths: Sequence[Path]) -> Iterator[str]:
    for path in paths:
        try:
            if path.stat().st_size <= _MAX_TEST_BYTES and path.resolve().is_relative_to(root.resolve()):
                text = path.read_text(encoding="utf-8")
                if unit.name in text:
                    yield text
        except (OSError, UnicodeDecodeError):
            continue


def _typed_inputs(body: str, params: Sequence[str]) -> list[str]:
    """Inputs built from the body's own constants and the parameter types: each parameter in turn takes the values
    near the body's numbers (and their multiples, where a boundary repeats) or its texts, the others their first."""
    numbers = sorted({int(float(n)) for n in _NUMBER.findall(body)} | {0, 1})
    # Each constant and its neighbours first, then their doubles and triples: a boundary that repeats.
    ints = list(dict.fromkeys(v for k in (1, 2, 3) for n in numbers for v in (n * k - 1, n * k, n * k + 1)))
    texts = list(dict.fromkeys(["", "a b", *filter(None, map(_go_text, _TEXT.findall(body)))]))
    choices: list[list[Any]] = []
    for kind in params:
        element = kind.removeprefix("[]")
        values: list[Any] = (
            ints if element in _GO_INTS else [float(v) + 0.5 for v in ints[:6]] + ints if element in _GO_FLOATS
            else texts if element == "string" else [True, False]
        )  # fmt: skip
        if kind.startswith("[]"):
            # Every length up to four: code may take an odd length's middle and an even one's two alike.
            values = [[], values[:3], values[:3][::-1], values[:1], values[:2], values[:4]]
        choices.append(values)
    base = [values[0] for values in choices]
    found: dict[str, None] = {}
    for at, values in enumerate(choices):
        for value in values:
            found.setdefault(repr(((*base[:at], value, *base[at + 1 :]), {})), None)
    return list(found)[:MAX_INPUTS]


def _go_text(inner: str) -> str | None:
    try:
        text = json.loads(f'"{inner}"')
    except ValueError:
        return None
    return text if isinstance(text, str) else None


def _fits(args: Sequence[Any], params: Sequence[str]) -> bool:
    """Whether the values can be written as Go literals of the parameters' types."""
    return len(args) == len(params) and all(_go_literal(value, kind) is not None for value, kind in
                                            zip(args, params, strict=True))  # fmt: skip


def _go_literal(value: Any, kind: str) -> str | None:
    """`value` written as a Go literal of type `kind`, or None when it is not one."""
    if kind.startswith("[]"):
        items = [_go_literal(item, kind[2:]) for item in value] if isinstance(value, list) else [None]
        return None if None in items else f"{kind}{{{', '.join(map(str, items))}}}"
    family = "int" if kind in _GO_INTS else "float" if kind in _GO_FLOATS else kind
    write = _GO_WRITERS.get(family)
    return write(value, kind) if write is not None else None


def _go_int(value: Any, kind: str) -> str | None:
    fits = isinstance(value, int) and not isinstance(value, bool)
    if not fits or (kind.startswith(("uint", "byte")) and value < 0):
        return None
    return str(value) if kind == "int" else f"{kind}({value})"  # an untyped constant is an int already


def _go_float(value: Any, kind: str) -> str | None:
    fits = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    return f"{kind}({float(value)!r})" if fits else None


def _go_string(value: Any, kind: str) -> str | None:
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else None


def _go_bool(value: Any, kind: str) -> str | None:
    return ("true" if value else "false") if isinstance(value, bool) else None


_GO_WRITERS: dict[str, Callable[[Any, str], str | None]] = {
    "int": _go_int, "float": _go_float, "string": _go_string, "bool": _go_bool,
}  # fmt: skip


def _go_said(value: Any, kind: str) -> str | None:
    """`value` as Go's `%#v` prints a result of type `kind` (`3`, `"ab"`, `[]int{1, 2}`), or None where pedro cannot
    tell how it would (a float in a slice: `%#v` prints 2.0 as `2`)."""
    if kind.startswith("[]"):
        element = kind[2:]
        if element in _GO_FLOATS or not isinstance(value, list):
            return None
        items = [_go_said(item, element) for item in value]
        return None if None in items else f"{kind}{{{', '.join(str(item) for item in items)}}}"
    if kind in _GO_INTS:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else None
    if kind in _GO_FLOATS:
        return _go_float(value, kind) and repr(float(value))
    if kind == "string":
        return _go_string(value, kind) if _plain(value) else None
    return _go_bool(value, kind) if kind == "bool" else None


def _js_said(value: Any) -> str | None:
    """`value` as node's util.inspect prints it (`3`, `'ab'`, `[ 1, 2 ]`, `null`), or None where pedro cannot tell
    how it would (an object, a long array)."""
    if isinstance(value, list):
        items = [_js_said(item) for item in value if not isinstance(item, list | dict)]
        if len(items) != len(value) or None in items or len(value) > _MOST_SHOWN_ITEMS:
            return None
        return f"[ {', '.join(str(item) for item in items)} ]" if items else "[]"
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int | float):
        return _js_number(value)
    return f"'{value}'" if _plain(value) else None


def _js_number(value: float) -> str | None:
    """A number as node prints it (`2` for 2.0); None for those it prints otherwise than Python (`Infinity`, `NaN`,
    `-0`)."""
    if isinstance(value, int):
        return repr(value)
    if not math.isfinite(value) or (value == 0 and math.copysign(1.0, value) < 0):
        return None
    return repr(int(value)) if value.is_integer() else repr(value)


def _plain(value: Any) -> bool:
    """Whether a value is a text every language prints alike between its quotes."""
    return isinstance(value, str) and value.isascii() and value.isprintable() and not set(value) & set("'\"\\")


def go_neighbour_calls(function: str, params_text: str, seeds: Sequence[Arguments]) -> list[str]:
    """Go calls of `function` on the neighbours of the seeds' arguments (not the seeds themselves), its parameters
    written as in its signature (`a, b int`); none where a parameter has a type the probes cannot build."""
    params = _go_params(params_text)
    if params is None:
        return []
    inputs, pinned = probe_inputs([seed for seed in seeds if _fits(seed[0], params)])
    neighbours = tuple(text for text in inputs[pinned:] if _fits(ast.literal_eval(text)[0], params))
    return [call.code for call in probe_calls(ProbeSpec("", function, neighbours, language="go", params=params))]


def probe_calls(spec: ProbeSpec) -> list[Call]:
    """The probe inputs as calls in the function's own language."""
    calls = []
    for n, text in enumerate(spec.inputs):
        args, kwargs = ast.literal_eval(text)
        if spec.language == "go":
            words = [str(_go_literal(value, kind)) for value, kind in zip(args, spec.params, strict=True)]
        elif spec.language == "python":
            calls.append(Call(spec.code(args, kwargs, spec.function), pinned=n < spec.pinned))
            continue
        else:
            words = [json.dumps(value) for value in args]
        calls.append(Call(f"{spec.function}({', '.join(words)})", pinned=n < spec.pinned))
    return calls


def probe_outputs(spec: ProbeSpec, root: Path, env: Mapping[str, str], timeout: float) -> tuple[str, ...] | None:
    """The function's outputs on the probes as the code is now (`= 649`, `! panic`), in the sandbox; None when the
    calls could not be made (the code does not build or import, the function is not exported)."""
    made = run_calls(spec.language, spec.module, root, env, probe_calls(spec), timeout)
    if made.problem or len(made.results) != len(spec.inputs):
        return None
    if all(result.raised == "ReferenceError" for result in made.results):
        return None  # a JavaScript function the module does not export
    return tuple(result.output for result in made.results)


def pinning_test(spec: ProbeSpec, index: int, value_text: str) -> str:
    """A check, in the function's own language, that input `index` gives the value `value_text` (a Python repr)
    names: `assert f(2) == 4`, `assert.deepStrictEqual(f(2), 4)`, Go's `if got := F(2); got != 4 { … }`; "" where
    the value cannot be written so."""
    if spec.language == "python":
        return f"assert {spec.call(index)} == {value_text}"
    try:
        value = ast.literal_eval(value_text)
        call = probe_calls(spec)[index].code
    except (ValueError, SyntaxError, TypeError, IndexError, MemoryError, RecursionError):
        return ""
    if spec.language == "javascript":
        return f"assert.deepStrictEqual({call}, {json.dumps(value, ensure_ascii=False)})"
    if isinstance(value, bool):
        want = "true" if value else "false"
    elif isinstance(value, int | float | str) and not (isinstance(value, float) and not math.isfinite(value)):
        want = json.dumps(value, ensure_ascii=False)
    else:
        return ""  # a slice or a map: no `!=` in Go
    return f'if got := {call}; got != {want} {{ t.Errorf("got %v, want %v", got, {want}) }}'

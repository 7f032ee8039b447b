"""Probes for Go and JavaScript: a small program pedro writes calls the changed function on the probe inputs, run in
the tests' own sandbox in place of the test command.

Python's probes ride along inside a candidate's pytest run (probes.py); Go's test binaries and node's test runner
leave no such hook, so the program is a run of its own, made only for plausible candidates and the original code.
Go's runs as a test main added to the function's package through the go command's `-overlay` (the repository is
never written); JavaScript's imports the module and calls the export. The inputs are the tests' literal calls of the
function and their neighbours; a Go function the tests never call with literals (a helper behind the function they
do call) is probed on the numbers, texts and flags of its own body and their neighbours, as its parameter types
allow.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pedro.repair.frames import is_test_file
from pedro.repair.locate import Unit
from pedro.repair.probes import MAX_INPUTS, ProbeSpec, probe_inputs
from pedro.tools.test import RunPlan

_SECONDS_PER_CALL = 1
_MAX_TEST_FILES = 20
_MAX_TEST_BYTES = 200_000
_GO_SIGNATURE = re.compile(r"^func\s+(?P<name>\w+)\s*\((?P<params>[^()]*)\)\s*(?P<results>[^{]*)\{", re.MULTILINE)
_GO_PACKAGE = re.compile(r"^package\s+(\w+)", re.MULTILINE)
_GO_TEST_MAIN = re.compile(r"^func\s+TestMain\s*\(", re.MULTILINE)
_GO_INTS = frozenset({"int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "byte",
                      "rune"})  # fmt: skip
_GO_FLOATS = frozenset({"float32", "float64"})
_GO_TYPES = _GO_INTS | _GO_FLOATS | {"string", "bool"}
_JS_SUFFIXES = (".js", ".cjs", ".mjs")
_JS_TEST_DIRS = ("test", "tests", "__tests__")
_LITERAL_WORDS = {"true": "True", "false": "False", "null": "None", "nil": "None"}
_GO_SLICE = re.compile(r"\[\]\s*\w+\s*\{")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_TEXT = re.compile(r'"((?:\\.|[^"\\])*)"')


def native_probe_spec(unit: Unit, root: Path) -> ProbeSpec | None:
    """The probes for a Go or JavaScript function, or None (a method, a type the probes cannot build, no input)."""
    if "." in unit.qualified_name:
        return None  # a method needs a receiver the probes cannot build
    if unit.language == "go":
        return _go_spec(unit, root)
    if unit.language == "javascript" and unit.path.endswith(_JS_SUFFIXES):
        seeds = list(_literal_seeds(_test_texts(root, unit, _js_test_files(root, unit)), unit.name))
        inputs, pinned = probe_inputs(seeds)
        return ProbeSpec(unit.path, unit.name, tuple(inputs), pinned, language="javascript") if inputs else None
    return None


def _go_spec(unit: Unit, root: Path) -> ProbeSpec | None:
    signature = _GO_SIGNATURE.search(unit.text)
    if signature is None or signature.group("name") != unit.name:
        return None
    params = _go_params(signature.group("params"))
    results = _go_result_count(signature.group("results"))
    folder = (root / unit.path).parent
    try:
        package = _GO_PACKAGE.search((root / unit.path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None
    if params is None or results is None or package is None or _has_test_main(folder):
        return None
    own = [
        seed for seed in _literal_seeds(_test_texts(root, unit, _go_test_files(root, folder)), unit.name)
        if _fits(seed[0], params)
    ]  # fmt: skip
    inputs, pinned = probe_inputs(own)
    if not inputs:
        inputs, pinned = _typed_inputs(unit.text[signature.end() :], params), 0
    inputs = [text for text in inputs if _fits(ast.literal_eval(text)[0], params)]
    if not inputs:
        return None
    return ProbeSpec(str(Path(unit.path).parent), unit.name, tuple(inputs), pinned, language="go", params=params,
                     results=results, package=package.group(1))  # fmt: skip


def _go_params(text: str) -> tuple[str, ...] | None:
    """The parameter types of `a, b int, s string`, one per parameter; None for a type the probes cannot build."""
    types: list[str] = []
    pending = 0
    for part in (piece.strip() for piece in text.split(",") if piece.strip()):
        words = part.split()
        if len(words) == 1:
            pending += 1  # `a` in `a, b int`: its type comes later
            continue
        kind = words[-1]
        element = kind.removeprefix("[]")
        if element not in _GO_TYPES or kind.startswith("[][]") or "..." in kind:
            return None
        types.extend([kind] * (pending + 1))
        pending = 0
    return None if pending else tuple(types)


def _go_result_count(text: str) -> int | None:
    text = text.strip()
    if not text:
        return 0
    if not text.startswith("("):
        return 1
    inner = text.strip("() ")
    names = [piece.split() for piece in inner.split(",") if piece.strip()]
    if all(len(words) == 2 for words in names) or all(len(words) == 1 for words in names):
        return len(names)
    return None  # `(a, b int)`: rare enough to leave unprobed


def _has_test_main(folder: Path) -> bool:
    """Whether the package's tests declare TestMain already (a test binary holds one)."""
    for path in sorted(folder.glob("*_test.go"))[:_MAX_TEST_FILES]:
        try:
            if _GO_TEST_MAIN.search(path.read_text(encoding="utf-8")):
                return True
        except (OSError, UnicodeDecodeError):
            return True
    return False


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


def _literal_seeds(texts: Iterator[str], name: str) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """The argument values of every call of `name` whose arguments are all literals (numbers, texts, flags, lists),
    as Python values."""
    call = re.compile(rf"(?<![\w$])(?:\w+\.)?{re.escape(name)}\s*\(")
    for text in texts:
        for match in call.finditer(text):
            inner = _balanced(text, match.end())
            values = _literal_values(inner) if inner is not None else None
            if values is not None:
                yield tuple(values), {}


def _balanced(text: str, start: int) -> str | None:
    """The text between the `(` just before `start` and its `)`, or None past a line's worth of text."""
    depth, quote = 1, ""
    for at in range(start, min(len(text), start + 400)):
        char = text[at]
        if quote:
            quote = "" if char == quote and text[at - 1] != "\\" else quote
        elif char in "\"'`":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return text[start:at]
    return None


def _literal_values(inner: str) -> list[Any] | None:
    """`5, 'a', [1, 2], true` (JavaScript) or `5, "a", []int{1, 2}` (Go) as Python values; None unless all are."""
    if not inner.strip() or "`" in inner:
        return None
    python = _GO_SLICE.sub("[", inner)
    python = re.sub(r"\}", "]", python) if python != inner else python
    words = re.sub(r"\b(true|false|null|nil)\b", lambda m: _LITERAL_WORDS[m.group(1)], python)
    try:
        value = ast.literal_eval(f"({words},)")
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return list(value) if isinstance(value, tuple) else None


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
            values = [[], values[:3], values[:3][::-1]]
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
    if kind.startswith("[]"):
        if not isinstance(value, list):
            return None
        items = [_go_literal(item, kind[2:]) for item in value]
        return None if any(item is None for item in items) else f"{kind}{{{', '.join(map(str, items))}}}"
    if kind in _GO_INTS and isinstance(value, int) and not isinstance(value, bool):
        return None if value < 0 and kind.startswith(("uint", "byte")) else f"{kind}({value})"
    if kind in _GO_FLOATS and isinstance(value, int | float) and not isinstance(value, bool):
        return f"{kind}({float(value)!r})" if abs(float(value)) != float("inf") and value == value else None
    if kind == "string" and isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if kind == "bool" and isinstance(value, bool):
        return "true" if value else "false"
    return None


def _go_program(spec: ProbeSpec, out: Path) -> str:
    """A test main for the function's package that writes each call's result, or how it failed, and exits."""
    calls: list[str] = []
    names = ", ".join(f"r{k}" for k in range(spec.results)) or "_"
    shown = ' + ", " + '.join(f"pedroShow(r{k})" for k in range(spec.results)) or '"ok"'
    for text in spec.inputs:
        args, _ = ast.literal_eval(text)
        literals = ", ".join(str(_go_literal(value, kind)) for value, kind in zip(args, spec.params, strict=True))
        if spec.results:
            calls.append(f"\tpedroCall(func() string {{ {names} := {spec.function}({literals}); return {shown} }})")
        else:
            calls.append(f"\tpedroCall(func() string {{ {spec.function}({literals}); return {shown} }})")
    return _GO_TEMPLATE.format(package=spec.package, calls="\n".join(calls), out=json.dumps(str(out)),
                               seconds=_SECONDS_PER_CALL)  # fmt: skip


_GO_TEMPLATE = """package {package}

import (
	pedroJSON "encoding/json"
	pedroFmt "fmt"
	pedroOS "os"
	pedroTesting "testing"
	pedroTime "time"
)

var pedroOutputs []string

func pedroShow(value interface{{}}) string {{
	if err, ok := value.(error); ok {{
		return pedroFmt.Sprintf("error(%q)", err.Error())
	}}
	return pedroFmt.Sprintf("%#v", value)
}}

func pedroCall(call func() string) {{
	done := make(chan string, 1)
	go func() {{
		defer func() {{
			if caught := recover(); caught != nil {{
				done <- "! panic"
			}}
		}}()
		done <- "= " + call()
	}}()
	select {{
	case got := <-done:
		pedroOutputs = append(pedroOutputs, got)
	case <-pedroTime.After({seconds} * pedroTime.Second):
		pedroOutputs = append(pedroOutputs, "! too slow")
	}}
}}

func TestMain(m *pedroTesting.M) {{
{calls}
	data, _ := pedroJSON.Marshal(pedroOutputs)
	_ = pedroOS.WriteFile({out}, data, 0o600)
	pedroOS.Exit(0)
}}
"""

_JS_PROGRAM = """
import {{ pathToFileURL }} from "node:url";
import {{ writeFileSync }} from "node:fs";
import vm from "node:vm";
const inputs = {inputs};
const show = (value) => {{
  if (value === undefined) return "undefined";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  try {{ return JSON.stringify(value) ?? String(value); }} catch {{ return String(value); }}
}};
let outputs;
try {{
  const loaded = await import(pathToFileURL({module}).href);
  const exported = loaded[{name}] ?? loaded.default?.[{name}] ??
    (typeof loaded.default === "function" && loaded.default.name === {name} ? loaded.default : undefined);
  if (typeof exported !== "function") throw new TypeError("not exported");
  globalThis.__pedroProbe = exported;
  outputs = inputs.map((args) => {{
    globalThis.__pedroArgs = args;
    try {{
      return "= " + show(vm.runInThisContext("__pedroProbe(...__pedroArgs)", {{ timeout: {milliseconds} }}));
    }} catch (error) {{
      return error && error.code === "ERR_SCRIPT_EXECUTION_TIMEOUT" ? "! too slow" : "! " + (error?.name ?? "Error");
    }}
  }});
}} catch (error) {{
  outputs = ["! cannot load: " + (error?.name ?? "Error")];
}}
writeFileSync({out}, JSON.stringify(outputs));
process.exit(0);
"""


@dataclass
class ProbeProgram:
    """A run instrument that puts the probe program in place of the test command, in the same sandbox and folder,
    and reads the outputs it wrote."""

    spec: ProbeSpec
    root: Path
    outputs: list[str] | None = None

    def prepare(self, plan: RunPlan, workdir: Path) -> RunPlan:
        out = workdir / "probes.out.json"
        if self.spec.language == "go":
            program = workdir / "pedro_probe_test.go"
            program.write_text(_go_program(self.spec, out), encoding="utf-8")
            folder = self.root / self.spec.module
            overlay = workdir / "overlay.json"
            overlay.write_text(json.dumps({"Replace": {str(folder / "zz_pedro_probe_test.go"): str(program)}}))
            env = dict(plan.command.env)
            env["GOFLAGS"] = f"{env.get('GOFLAGS', '')} -overlay={overlay}".strip()
            module_root = _module_root(folder, self.root)
            package = "./" + str(folder.relative_to(module_root)) if folder != module_root else "."
            argv = ("go", "test", "-vet=off", "-count=1", "-run", "^$", package)  # vet reads no overlay
            return replace(plan, command=replace(plan.command, argv=argv, env=env, cwd=module_root))
        script = workdir / "probe.mjs"
        inputs = [list(ast.literal_eval(text)[0]) for text in self.spec.inputs]
        script.write_text(_JS_PROGRAM.format(
            inputs=json.dumps(inputs), module=json.dumps(str(self.root / self.spec.module)),
            name=json.dumps(self.spec.function), out=json.dumps(str(out)), milliseconds=_SECONDS_PER_CALL * 1000,
        ), encoding="utf-8")  # fmt: skip
        return replace(plan, command=replace(plan.command, argv=("node", str(script)), cwd=self.root))

    def collect(self, plan: RunPlan, workdir: Path) -> None:
        try:
            outputs = json.loads((workdir / "probes.out.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(outputs, list) and len(outputs) == len(self.spec.inputs):
            self.outputs = [str(output) for output in outputs]


def _module_root(folder: Path, root: Path) -> Path:
    """The folder of the go.mod that holds `folder`, else the repository root."""
    for candidate in (folder, *folder.parents):
        if (candidate / "go.mod").is_file():
            return candidate
        if candidate == root:
            break
    return root

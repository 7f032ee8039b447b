"""Calls of the built function made in the project's own language, in the sandbox: the request's examples (does the
value equal the one it gives?) and probes (what does each answer give?), with one child per answer."""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from pedro.build.place import Place
from pedro.linters import find_program
from pedro.process import ChildCommand, OutputLimits, child_env, run_child
from pedro.safety.sandbox import wrap

_HERE = Path(__file__).parent
_LIMITS = OutputLimits(head_bytes=0, tail_bytes=2048, hard_cap_bytes=4 * 1024 * 1024)
_GO_PACKAGE = re.compile(r"^package\s+(\w+)", re.M)


@dataclass(frozen=True)
class Call:
    """A call to make, as code of the project's language, and the value it must equal ("" for a probe)."""

    code: str
    expected: str = ""


@dataclass(frozen=True)
class CallResult:
    """What one call gave: its value as the language prints it, whether it equals the expected value (None when
    there was none or it could not be read), or what it raised."""

    value: str = ""
    equal: bool | None = None
    raised: str = ""
    said: str = ""

    @property
    def output(self) -> str:
        """The call's outcome as probes compare it: `= 2`, `! IndexError`."""
        return f"! {self.raised}" if self.raised else f"= {self.value}"


@dataclass(frozen=True)
class CallRun:
    """Every call's result, in order; or, when none could be made, why (the module does not import or build)."""

    results: tuple[CallResult, ...] = ()
    problem: str = ""


def can_call(place: Place) -> bool:
    """Whether the built function can be called on its own: a function (not a method) in Python, JavaScript or Go."""
    return not place.owner and place.language in ("python", "javascript", "go")


def run_calls(place: Place, root: Path, env: Mapping[str, str], calls: Sequence[Call], timeout: float) -> CallRun:
    """Make `calls` against the file as it is now, in one sandboxed child of the project's language; with no calls,
    a Python or JavaScript module is still imported (it must import), while Go leaves that to its tests' build."""
    if place.language not in ("python", "javascript", "go") or (place.language == "go" and not calls):
        return CallRun()
    with tempfile.TemporaryDirectory(prefix="pedro-calls-") as tmp:
        folder = Path(tmp)
        out = folder / "out.json"
        if place.language == "go":
            return _go(place, root, env, calls, folder, timeout)
        spec: dict[str, Any] = {"calls": [{"call": c.code, "expected": c.expected} for c in calls], "out": str(out)}
        if place.language == "python":
            python = find_program(root, "python3", env) or find_program(root, "python", env) or sys.executable
            spec["module"] = _python_module(place.path)
            argv: tuple[str, ...] = (python, str(_HERE / "py_calls.py"), str(folder / "spec.json"))
            extra = {"PYTHONPATH": os.pathsep.join(_python_paths(root, place.path)), "PYTHONDONTWRITEBYTECODE": "1"}
        else:
            node = find_program(root, "node", env) or "node"
            spec["module"] = str(root / place.path)
            argv = (node, str(_HERE / "js_calls.mjs"), str(folder / "spec.json"))
            extra = {}
        (folder / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
        said = _run(ChildCommand(argv, root, child_env(env, extra)), root, folder, timeout)
        return _read(out, said)


def _run(command: ChildCommand, root: Path, folder: Path, timeout: float) -> str:
    """Run the child; "" when it ended, else what went wrong."""
    try:
        child = wrap(command, root=root, kind="test", writable=(folder,))
        result = run_child(child, timeout=timeout, limits=_LIMITS)
    except OSError as exc:
        return f"could not start {command.argv[0]} ({exc.strerror})"
    if result.outcome == "timeout":
        return f"the calls ran longer than {timeout:.0f} s"
    tail = " ".join(result.output.strip().splitlines()[-3:])[:400]
    return tail if result.exit_code else ""


def _read(out: Path, said: str) -> CallRun:
    try:
        data = json.loads(out.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return CallRun(problem=said or "the calls left no result")
    if not isinstance(data, dict):
        return CallRun(problem="the calls left no result")
    if isinstance(data.get("import"), str):
        return CallRun(problem=f"the module does not import: {data['import']}")
    rows = data.get("results")
    if not isinstance(rows, list):
        return CallRun(problem="the calls left no result")
    return CallRun(tuple(_result(row) for row in rows if isinstance(row, dict)))


def _result(row: dict[str, Any]) -> CallResult:
    equal = row.get("equal")
    return CallResult(
        value=str(row.get("value", "")),
        equal=equal if isinstance(equal, bool) else None,
        raised=str(row.get("raised", "")),
        said=str(row.get("said", "")),
    )


def _python_module(path: str) -> str:
    """`pkg/stats.py` → `pkg.stats`; under a `src/` layout, without `src`."""
    parts = list(PurePosixPath(path).with_suffix("").parts)
    if len(parts) > 1 and parts[0] == "src":
        parts = parts[1:]
    return ".".join(parts)


def _python_paths(root: Path, path: str) -> list[str]:
    parts = PurePosixPath(path).parts
    return [str(root / "src")] if len(parts) > 1 and parts[0] == "src" else [str(root)]


def _go(
    place: Place, root: Path, env: Mapping[str, str], calls: Sequence[Call], folder: Path, timeout: float
) -> CallRun:
    """Go has no way to evaluate a call at run time: the calls become a test in the package's folder, run alone
    with `go test -run`, and the file is removed at once (its name is new, so nothing of the project's is touched)."""
    source = root / place.path
    package = _GO_PACKAGE.search(source.read_text(encoding="utf-8", errors="replace"))
    if package is None:
        return CallRun(problem=f"{place.path} has no package clause")
    name = f"TestPedroCalls{secrets.token_hex(4)}"
    test = source.parent / f"zz_pedro_calls_{secrets.token_hex(4)}_test.go"
    out = folder / "out.txt"
    test.write_text(_go_test(package.group(1), name, calls), encoding="utf-8")
    try:
        relative = os.path.relpath(source.parent, root)
        argv = ("go", "test", "-count=1", "-run", f"^{name}$", f"./{relative}" if relative != "." else ".")
        said = _run(ChildCommand(argv, root, child_env(env, {"PEDRO_CALLS_OUT": str(out)})), root, folder, timeout)
    finally:
        test.unlink(missing_ok=True)
    try:
        lines = out.read_text(encoding="utf-8").splitlines()
    except OSError:
        return CallRun(problem=f"the calls do not build: {said}" if said else "the calls left no result")
    results = []
    for line in lines:
        kind, _, rest = line.partition("\t")
        if kind == "raised":
            results.append(CallResult(raised="panic", said=rest))
        else:
            value, _, equal = rest.rpartition("\t")
            results.append(CallResult(value=value, equal={"true": True, "false": False}.get(equal)))
    return CallRun(tuple(results))


def _go_test(package: str, name: str, calls: Sequence[Call]) -> str:
    """A test that makes each call, recovering from a panic, and writes one line per call."""
    body = []
    for call in calls:
        check = f"fmt.Sprint(got) == fmt.Sprint({call.expected})" if call.expected else '"none"'
        body.append(
            "\tfunc() {\n"
            '\t\tdefer func() { if r := recover(); r != nil { fmt.Fprintf(out, "raised\\t%v\\n", r) } }()\n'
            f"\t\tgot := {call.code}\n"
            f'\t\tfmt.Fprintf(out, "value\\t%#v\\t%v\\n", got, {check})\n'
            "\t}()\n"
        )
    return (
        f'package {package}\n\nimport (\n\t"fmt"\n\t"os"\n\t"testing"\n)\n\n'
        f"func {name}(t *testing.T) {{\n"
        '\tout, err := os.Create(os.Getenv("PEDRO_CALLS_OUT"))\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n'
        f"\tdefer out.Close()\n{''.join(body)}}}\n"
    )

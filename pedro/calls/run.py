"""Calls of a function made in the project's own language, in one sandboxed child: does each value equal the one it
must give, and what does each call give (probes)?"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from pedro.linters import find_program
from pedro.process import ChildCommand, OutputLimits, child_env, run_child
from pedro.safety.sandbox import wrap

_HERE = Path(__file__).parent
_LIMITS = OutputLimits(head_bytes=0, tail_bytes=2048, hard_cap_bytes=4 * 1024 * 1024)
_GO_PACKAGE = re.compile(r"^package\s+(\w+)", re.M)
SECONDS_PER_CALL = 2
"""A call that runs longer is stopped and recorded as too slow (each language's runner holds it)."""
# Once one call ran too long, or the pinned calls (Call.pinned) all ended, each later call's limit is `factor` times
# the slowest call that ended, at least `floor_s`, never more than the first; once the calls took `total_s` in all,
# each later one is too slow unmade. A function that hangs on one input hangs on others (a probe's negated count),
# and each would cost the whole limit again: 12 probes of such a function took 24 s of a repair's minute, 23 slow
# ones of a right fix 27 s. The pinned calls say how long a call takes, so even the first neighbour that hangs need
# not cost the whole limit: it did for every candidate a repair checked.
AFTER_SLOW = {"floor_s": 0.25, "factor": 4, "total_s": 5.0}
_GO_TEST_NAME = "TestPedroCalls"
LANGUAGES = ("python", "javascript", "go")


@dataclass(frozen=True)
class Call:
    """A call to make, as code of the project's language, and the value it must equal ("" for a probe)."""

    code: str
    expected: str = ""
    # Whether something pins the call's output (a test's own call among probes; a call with an expected value is
    # pinned too): the calls after the first pinned ones are neighbours, held to AFTER_SLOW's limit from the start.
    pinned: bool = False

    @property
    def pins(self) -> bool:
        return self.pinned or bool(self.expected)


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


def run_calls(language: str, path: str, root: Path, env: Mapping[str, str], calls: Sequence[Call],
              timeout: float) -> CallRun:  # fmt: skip
    """Make `calls` against the file at `path` as it is now, in one sandboxed child of the project's language; with
    no calls, a Python or JavaScript module is still imported (it must import), while Go leaves that to its tests'
    build."""
    if language not in LANGUAGES or (language == "go" and not calls):
        return CallRun()
    with tempfile.TemporaryDirectory(prefix="pedro-calls-") as tmp:
        folder = Path(tmp)
        out = folder / "out.json"
        if language == "go":
            return _go(path, root, env, calls, folder, timeout)
        spec: dict[str, Any] = {"calls": [{"call": c.code, "expected": c.expected} for c in calls], "out": str(out),
                                "seconds": SECONDS_PER_CALL, "after_slow": AFTER_SLOW,
                                "pinned": pinned_count(calls)}  # fmt: skip
        if language == "python":
            python = find_program(root, "python3", env) or find_program(root, "python", env) or sys.executable
            spec["module"] = _python_module(path)
            argv: tuple[str, ...] = (python, str(_HERE / "py_calls.py"), str(folder / "spec.json"))
            extra = {"PYTHONPATH": os.pathsep.join(_python_paths(root, path)), "PYTHONDONTWRITEBYTECODE": "1"}
        else:
            node = find_program(root, "node", env) or "node"
            spec["module"] = str(root / path)
            argv = (node, str(_HERE / "js_calls.mjs"), str(folder / "spec.json"))
            extra = {}
        (folder / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
        # The calls run in a folder of their own: a function that writes the file it is named writes it there, not
        # into the repository, whose files the job's commit takes.
        scratch = folder / "cwd"
        scratch.mkdir()
        said = _run(ChildCommand(argv, scratch, child_env(env, extra)), root, folder, timeout)
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
    lines = result.output.strip().splitlines()
    # A Go runtime's fatal error (a stack overflow) ends in hundreds of frames: its first line says what it was.
    fatal = [line for line in lines if line.startswith("fatal error:")][:1]
    tail = " ".join([*fatal, *lines[-3:]])[:400]
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


def _go(path: str, root: Path, env: Mapping[str, str], calls: Sequence[Call], folder: Path, timeout: float) -> CallRun:
    """Go has no way to evaluate a call at run time: the calls become a test of the package, added through the go
    command's overlay (the repository is never written) and run alone (under the package's own TestMain, if any)."""
    source = root / path
    package = _GO_PACKAGE.search(source.read_text(encoding="utf-8", errors="replace"))
    if package is None:
        return CallRun(problem=f"{path} has no package clause")
    out = folder / "out.txt"
    program = folder / "calls_test.go"
    program.write_text(_go_test(package.group(1), calls, out), encoding="utf-8")
    overlay = folder / "overlay.json"
    overlay.write_text(json.dumps({"Replace": {str(source.parent / "zz_pedro_calls_test.go"): str(program)}}))
    module = _go_module_root(source.parent, root)
    relative = os.path.relpath(source.parent, module)
    # vet reads no overlay; of the package's tests only the calls' own runs.
    argv = (
        "go",
        "test",
        "-vet=off",
        "-count=1",
        "-run",
        f"^{_GO_TEST_NAME}$",
        f"./{relative}" if relative != "." else ".",
    )
    flags = f"{env.get('GOFLAGS', '')} -overlay={overlay}".strip()
    said = _run(ChildCommand(argv, module, child_env(env, {"GOFLAGS": flags})), root, folder, timeout)
    try:
        lines = out.read_text(encoding="utf-8").splitlines()
    except OSError:
        return CallRun(problem=_go_problem(said))
    results = []
    for line in lines:
        kind, _, rest = line.partition("\t")
        if kind == "raised":
            results.append(CallResult(raised="panic", said=rest))
        elif kind == "slow":
            results.append(CallResult(raised="too slow", said=f"ran longer than {SECONDS_PER_CALL} s"))
        else:
            value, _, equal = rest.rpartition("\t")
            results.append(CallResult(value=value, equal={"true": True, "false": False}.get(equal)))
    return CallRun(tuple(results))


def _go_problem(said: str) -> str:
    """Why Go's calls left no results: they did not build, the test binary died (a stack overflow), or the run."""
    if not said:
        return "the calls left no result"
    if "[build failed]" in said or "[setup failed]" in said:
        return f"the calls do not build: {said}"
    if said.startswith(("the calls ran longer", "could not start")):
        return said
    # Built, the calls write each result as it comes: none written is a binary that died before the first.
    return f"the calls stopped the test binary: {said}"


def _go_module_root(folder: Path, root: Path) -> Path:
    """The folder of the go.mod that holds `folder`, else the repository root."""
    for candidate in (folder, *folder.parents):
        if (candidate / "go.mod").is_file():
            return candidate
        if candidate == root:
            break
    return root


def pinned_count(calls: Sequence[Call]) -> int:
    """How many of the first calls are pinned: the calls after them are neighbours."""
    return next((n for n, call in enumerate(calls) if not call.pins), len(calls)) if calls else 0


def _go_test(package: str, calls: Sequence[Call], out: Path) -> str:
    """A test that makes each call on a goroutine of its own, recovering from a panic and giving up on one that runs
    too long, and writes one line per call."""
    body = []
    for call in calls:
        check = f"pedroFmt.Sprint(got) == pedroFmt.Sprint({call.expected})" if call.expected else '"none"'
        body.append(
            "\tpedroCall(func() string {\n"
            f"\t\tgot := {call.code}\n"
            f'\t\treturn pedroFmt.Sprintf("value\\t%#v\\t%v", got, {check})\n'
            "\t})\n"
        )
    return _GO_MAIN.format(package=package, out=json.dumps(str(out)), seconds=SECONDS_PER_CALL, body="".join(body),
                           name=_GO_TEST_NAME, floor_ms=int(AFTER_SLOW["floor_s"] * 1000),
                           factor=AFTER_SLOW["factor"], total_ms=int(AFTER_SLOW["total_s"] * 1000),
                           pinned=pinned_count(calls))  # fmt: skip


# Imports under names no package uses, so that none clashes with the package's own identifiers.
_GO_MAIN = r"""package {package}

import (
	pedroFmt "fmt"
	pedroOS "os"
	pedroStrings "strings"
	pedroTesting "testing"
	pedroTime "time"
)

var pedroLines []string

// Each call's limit: the whole one until a call ran too long or the {pinned} pinned calls all ended, then {factor}
// times the slowest call that ended (at least {floor_ms} ms); past {total_ms} ms in all, no more calls: a function
// that hangs on one input hangs on others.
var pedroLimit = {seconds} * pedroTime.Second
var pedroSlowest pedroTime.Duration
var pedroStarted = pedroTime.Now()
var pedroAnySlow bool

func pedroTighten() {{
	next := {factor} * pedroSlowest
	if next < {floor_ms}*pedroTime.Millisecond {{
		next = {floor_ms} * pedroTime.Millisecond
	}}
	if next < pedroLimit {{
		pedroLimit = next
	}}
}}

func pedroCall(call func() string) {{
	if pedroTime.Since(pedroStarted) > {total_ms}*pedroTime.Millisecond {{
		pedroLines = append(pedroLines, "slow\t")
		return
	}}
	if {pinned} > 0 && len(pedroLines) == {pinned} && !pedroAnySlow {{
		pedroTighten()
	}}
	done := make(chan string, 1)
	began := pedroTime.Now()
	go func() {{
		defer func() {{
			if r := recover(); r != nil {{
				done <- pedroFmt.Sprintf("raised\t%v", r)
			}}
		}}()
		done <- call()
	}}()
	select {{
	case line := <-done:
		pedroLines = append(pedroLines, pedroStrings.ReplaceAll(line, "\n", " "))
		if took := pedroTime.Since(began); took > pedroSlowest {{
			pedroSlowest = took
		}}
	case <-pedroTime.After(pedroLimit):
		pedroLines = append(pedroLines, "slow\t")
		pedroAnySlow = true
		pedroTighten()
	}}
}}

func {name}(t *pedroTesting.T) {{
{body}	_ = pedroOS.WriteFile({out}, []byte(pedroStrings.Join(pedroLines, "\n")+"\n"), 0o600)
}}
"""

"""Write HumanEvalFix's Python, JavaScript or Go tasks as an eval suite (evals/README.md's format) from HumanEvalPack.

HumanEvalFix (HumanEvalPack, MIT licensed) gives each of HumanEval's 164 functions with a bug written in by hand,
and its tests. Each task here is a repository holding the buggy function in `solution.py` and its tests as one
pytest test in `test_solution.py` (JavaScript: `solution.js`, exporting the function, and one `node:test` test in
`solution.test.js`, whose `console.assert` calls become `assert.ok`, which fail; Go: `solution.go` in package main
with the imports the benchmark gives it, and the test function in `solution_test.go`, its `assert.Equal` from
`assert_test.go`, which compares as testify's does, since nothing is downloaded); the test command is
the check, as the benchmark runs it. The source is a checkout laid out as `<root>/python_<n>/instruction.md` (the
buggy function in its `# Context` block), `tests/test_code.txt` (the tests, ending in `check(<name>)`; JavaScript's
in a call of its test function; Go's imports in `tests/main_test.go`) and `solution/solution.py` (the fixed
function); `javascript_<n>` and `go_<n>` likewise.

    python benchmarks/humanevalfix_suite.py SOURCE OUT [--every 4] [--offset 0] [--language javascript|go]
    make eval ARGS="--models smollm2 --suite OUT --modes repair --jobs 1 --time-limit 60 --max-rounds 2"

Tasks whose tests need more than the function (helpers defined beside it, or a Go import the benchmark leaves out)
fail as shipped and with their fix alike; they are left out, and the script says which.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

_CONTEXT = re.compile(r"# Context\n\n```python\n(?P<code>.*?)\n```\n\n# Instruction\n\nFix bugs in (?P<name>\w+)", re.S)
_HEADER = "from typing import List, Dict, Tuple, Optional, Any, Union\nimport math\n\n"
_TASK = """title = "HumanEvalFix {n} {name}"
language = "python"
tier = "one-function"
description = "The tests in test_solution.py fail; fix the bug in {name} so they pass."
test = "python -m pytest -q test_solution.py"
check = "python -m pytest -q test_solution.py"
timeout_s = 60
"""
_JS_CONTEXT = re.compile(
    r"# Context\n\n```javascript\n(?P<code>.*?)\n```\n\n# Instruction\n\nFix bugs in (?P<name>\w+)", re.S
)
_JS_TASK = """title = "HumanEvalFix JavaScript {n} {name}"
language = "javascript"
tier = "one-function"
description = "The tests in solution.test.js fail; fix the bug in {name} so they pass."
test = "node --test"
check = "node --test"
timeout_s = 60
"""
_JS_PACKAGE = '{"name": "solution", "version": "1.0.0", "private": true, "scripts": {"test": "node --test"}}\n'
_JS_RUN = re.compile(r"^(test\w*)\(\)\s*;?\s*$", re.M)
_GO_CONTEXT = re.compile(r"# Context\n\n```go\n(?P<code>.*?)\n```\n\n# Instruction\n\nFix bugs in (?P<name>\w+)", re.S)
_GO_TASK = """title = "HumanEvalFix Go {n} {name}"
language = "go"
tier = "one-function"
description = "The tests in solution_test.go fail; fix the bug in {name} so they pass."
test = "go test ./..."
check = "go test ./..."
timeout_s = 60
"""
_GO_MOD = "module task\n\ngo 1.19\n"
_GO_IMPORTS = re.compile(r"^import \((?P<block>.*?)^\)", re.S | re.M)
# testify's assert.Equal, as HumanEvalFix's Go tests use it (`assert := assert.New(t)`, whose right side reads this
# package-level `assert`): ObjectsAreEqual's comparison and a failure at the caller. A test file of its own, as a
# dependency is no code under repair.
_GO_ASSERT = """package main

import (
\t"bytes"
\t"reflect"
\t"testing"
)

type testify struct{}

var assert testify

type Assertions struct{ t *testing.T }

func (testify) New(t *testing.T) *Assertions { return &Assertions{t} }

func (a *Assertions) Equal(expected, actual interface{}, msgAndArgs ...interface{}) bool {
\ta.t.Helper()
\tif objectsAreEqual(expected, actual) {
\t\treturn true
\t}
\ta.t.Errorf("Not equal: \\nexpected: %#v\\nactual  : %#v", expected, actual)
\treturn false
}

func objectsAreEqual(expected, actual interface{}) bool {
\texp, ok := expected.([]byte)
\tif !ok {
\t\treturn reflect.DeepEqual(expected, actual)
\t}
\tact, ok := actual.([]byte)
\treturn ok && bytes.Equal(exp, act)
}
"""


def _context(folder: Path, pattern: re.Pattern[str]) -> re.Match[str]:
    """The `# Context` block of a task's instruction: the buggy function and its name."""
    context = pattern.search((folder / "instruction.md").read_text())
    if context is None:
        raise SystemExit(f"{folder / 'instruction.md'}: no `# Context` block naming the function to fix")
    return context


def _write(task: Path, files: dict[str, str]) -> Path:
    """The task's files (`repo/…`, `solution/…`, `task.toml`) written under its folder; its tests also under
    `hidden/`, which the check copies back over the repository, so that a run that changed a test is not scored on
    its own version of it."""
    tests = {f"hidden/{name[5:]}": text for name, text in files.items() if name.startswith("repo/") and _is_test(name)}
    for name, text in {**files, **tests}.items():
        (task / name).parent.mkdir(parents=True, exist_ok=True)
        (task / name).write_text(text)
    return task


def _is_test(name: str) -> bool:
    return name.endswith(("/test_solution.py", "/solution.test.js", "_test.go"))


def write_task(source: Path, n: int, out: Path) -> Path:
    """The task of HumanEvalFix's Python function `n`, written under `out`."""
    folder = source / f"python_{n}"
    context = _context(folder, _CONTEXT)
    name = context["name"]
    tests = (folder / "tests" / "test_code.txt").read_text().rstrip().splitlines()
    body = "\n".join(line for line in tests if not line.startswith("check(")).strip("\n")
    test = f"from solution import {name}\n\n\n{body}\n\n\ndef test_{name}():\n    check({name})\n"
    return _write(
        out / f"py-hef-{n}",
        {
            "repo/solution.py": _HEADER + context["code"].rstrip() + "\n",
            "solution/solution.py": _HEADER + (folder / "solution" / "solution.py").read_text(),
            "repo/test_solution.py": test,
            "task.toml": _TASK.format(n=n, name=name),
        },
    )


def write_javascript_task(source: Path, n: int, out: Path) -> Path:
    """The task of HumanEvalFix's JavaScript function `n`, written under `out`."""
    folder = source / f"javascript_{n}"
    context = _context(folder, _JS_CONTEXT)
    name = context["name"]
    tests = (folder / "tests" / "test_code.txt").read_text()
    runs = "".join(f"  {run}();\n" for run in _JS_RUN.findall(tests))
    body = _JS_RUN.sub("", tests).replace("console.assert(", "assert.ok(").strip("\n")
    exports = f"\n\nmodule.exports = {{ {name} }};\n"
    test = (
        'const test = require("node:test");\nconst assert = require("node:assert");\n'
        f'const {{ {name} }} = require("./solution.js");\n\n{body}\n\ntest("{name}", () => {{\n{runs}}});\n'
    )
    return _write(
        out / f"js-hef-{n}",
        {
            "repo/solution.js": context["code"].rstrip() + exports,
            "solution/solution.js": (folder / "solution" / "solution.js").read_text().rstrip() + exports,
            "repo/solution.test.js": test,
            "repo/package.json": _JS_PACKAGE,
            "task.toml": _JS_TASK.format(n=n, name=name),
        },
    )


def write_go_task(source: Path, n: int, out: Path) -> Path:
    """The task of HumanEvalFix's Go function `n`, written under `out`."""
    folder = source / f"go_{n}"
    context = _context(folder, _GO_CONTEXT)
    tests = (folder / "tests" / "test_code.txt").read_text().strip("\n")
    imports = _GO_IMPORTS.search((folder / "tests" / "main_test.go").read_text())
    wanted = [line.strip() for line in (imports["block"] if imports else "").splitlines() if line.strip()]
    # Go refuses an import the file does not use: the test file keeps those its test function reads.
    used = [path for path in wanted if path.strip('"') == "testing" or _go_package_used(path, tests)]
    used = [path for path in used if "testify" not in path]  # assert_test.go stands in for it
    block = "".join(f"\t{path}\n" for path in used)
    return _write(
        out / f"go-hef-{n}",
        {
            "repo/go.mod": _GO_MOD,
            "repo/solution.go": "package main\n\n" + context["code"].rstrip() + "\n",
            "solution/solution.go": "package main\n\n"
            + (folder / "solution" / "solution.go").read_text().rstrip()
            + "\n",
            "repo/solution_test.go": f"package main\n\nimport (\n{block})\n\n{tests}\n",
            "repo/assert_test.go": _GO_ASSERT,
            "task.toml": _GO_TASK.format(n=n, name=context["name"]),
        },
    )


def _go_package_used(path: str, code: str) -> bool:
    name = path.strip('"').rpartition("/")[2]
    return re.search(rf"\b{re.escape(name)}\.", code) is not None


_WRITERS = {"python": write_task, "javascript": write_javascript_task, "go": write_go_task}
_FIXED_FILES = {"python": "solution.py", "javascript": "solution.js", "go": "solution.go"}


def _language(task: Path) -> str:
    return next(language for language, file in _FIXED_FILES.items() if (task / "repo" / file).is_file())


def holds(task: Path) -> bool:
    """Whether the task's tests fail as shipped and pass with its fix."""
    language = _language(task)
    fix = task / "solution" / _FIXED_FILES[language]
    outcomes = []
    for fixed in (False, True):
        with tempfile.TemporaryDirectory() as scratch:
            shutil.copytree(task / "repo", scratch, dirs_exist_ok=True)
            if fixed:
                shutil.copy(fix, scratch)
            command = {
                "python": [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_solution.py"],
                "javascript": ["node", "--test"],
                "go": ["go", "test", "./..."],
            }[language]
            outcomes.append(_passes(command, scratch))
    return outcomes == [False, True]


def _passes(command: list[str], cwd: str) -> bool:
    """Whether the command passes within 30 s; a bug that loops for ever fails, and its whole process group is
    stopped (node's test runner leaves its test file's process running when it is itself stopped)."""
    child = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        return child.wait(timeout=30) == 0
    except subprocess.TimeoutExpired:
        return False
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="the folder holding python_0 … python_163 (javascript_0 …, go_0 …)")
    parser.add_argument("out", type=Path, help="the suite's folder (replaced)")
    parser.add_argument("--every", type=int, default=1, help="take every n-th task (4: a quarter)")
    parser.add_argument("--offset", type=int, default=0, help="the first task taken")
    parser.add_argument("--language", choices=tuple(_WRITERS), default="python")
    args = parser.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    kept, left = 0, []
    write = _WRITERS[args.language]
    found = args.source.glob(f"{args.language}_*")
    numbers = sorted(int(path.name.split("_")[1]) for path in found if path.is_dir())
    for n in (n for n in numbers if n >= args.offset and (n - args.offset) % args.every == 0):
        task = write(args.source, n, args.out)
        if holds(task):
            kept += 1
        else:
            shutil.rmtree(task)
            left.append(n)
    print(f"{kept} tasks in {args.out}; left out (not failing as shipped and passing with their fix): {left or 'none'}")


if __name__ == "__main__":
    main()

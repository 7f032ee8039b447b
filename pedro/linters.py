"""The linters and type checkers a repository configures and has installed (ruff, flake8, mypy, eslint, go vet),
run in the sandbox on the files a change touches; their messages, with file, line and rule."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pedro.findings import Severity
from pedro.process import ChildCommand, OutputLimits, child_env, run_child
from pedro.safety.sandbox import wrap

_OUTPUT_CAP_BYTES = 16 * 1024 * 1024
# `path:line:col: rest`, the line format of ruff (concise), flake8, mypy and go vet; the column is optional.
_LINE = re.compile(r"^(?P<path>[^:\n]+?):(?P<line>\d+):(?:\d+:)?\s*(?P<rest>.+)$")
_RULE = re.compile(r"^(?P<code>[A-Z]+[0-9]+)\s+(?:\[\*\]\s+)?(?P<message>.+)$")
_MYPY = re.compile(r"^error:\s*(?P<message>.+?)(?:\s+\[(?P<code>[\w-]+)\])?$")
_PYTHON = (".py", ".pyi")
_JAVASCRIPT = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
_TIDINESS = frozenset({"F401", "F841", "F541"})
"""Pyflakes codes that are untidy code, not wrong code: rated minor."""


@dataclass(frozen=True)
class LintMessage:
    """One message on one line, relative to the repository."""

    tool: str
    path: str
    line: int
    code: str
    message: str
    severity: Severity

    @property
    def source(self) -> str:
        """`ruff E711`, `mypy arg-type`, `go vet`."""
        return f"{self.tool} {self.code}".strip()


@dataclass(frozen=True)
class Linter:
    """One checker: when the repository configures it, how to call it on some files, how to read what it says."""

    name: str
    program: str
    suffixes: tuple[str, ...]
    configured: Callable[[Path], bool]
    argv: Callable[[str, list[str]], tuple[str, ...]]
    parse: Callable[[str, Path, Path], list[LintMessage]]
    """(output, the folder it ran in, the repository root) -> messages."""
    fails_with: tuple[int, ...] = (0, 1)
    """Exit codes of a run that checked the files (1: it found something); any other is the tool's own failure."""


@dataclass(frozen=True)
class LintRun:
    """What one checker said: its messages, or why it could not check."""

    linter: str
    messages: list[LintMessage]
    problem: str = ""


def configured_linters(root: Path, env: Mapping[str, str]) -> tuple[list[tuple[Linter, str]], list[str]]:
    """(linter, program path) for each checker the repository configures and that is installed; and the names of
    those it configures that are not installed."""
    ready: list[tuple[Linter, str]] = []
    missing: list[str] = []
    for linter in LINTERS:
        if not linter.configured(root):
            continue
        program = find_program(root, linter.program, env)
        if program is None:
            missing.append(linter.name)
        else:
            ready.append((linter, program))
    return ready, missing


def find_program(root: Path, name: str, env: Mapping[str, str]) -> str | None:
    """The project's own install first (node_modules/.bin, .venv), then PATH, then the environment pedro runs in."""
    for folder in ("node_modules/.bin", ".venv/bin", "venv/bin", "env/bin"):
        candidate = root / folder / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which(name, path=env.get("PATH"))
    if found:
        return found
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.is_file() and os.access(beside, os.X_OK) else None


def run_linter(
    linter: Linter, program: str, root: Path, files: list[str], env: Mapping[str, str], timeout: float
) -> LintRun:
    """One checker on `files` (relative to `root`), in the sandbox without the network."""
    wanted = [path for path in files if path.endswith(linter.suffixes) and (root / path).is_file()]
    if not wanted:
        return LintRun(linter.name, [])
    # "./" before each path: a file named "-x.py" is never read as an option.
    targets = _go_packages(wanted) if linter.name == "go vet" else [f"./{path}" for path in wanted]
    command = ChildCommand(linter.argv(program, targets), root, child_env(env, {"NO_COLOR": "1"}))
    with tempfile.TemporaryDirectory(prefix="pedro-lint-") as tmp:
        log_path = Path(tmp) / "output.log"
        limits = OutputLimits(head_bytes=0, tail_bytes=4096, hard_cap_bytes=_OUTPUT_CAP_BYTES)
        try:
            child = wrap(command, root=root, kind="test", writable=(Path(tmp),))
            with log_path.open("wb") as log:
                result = run_child(child, timeout=timeout, limits=limits, tee=log)
        except OSError as exc:
            return LintRun(linter.name, [], f"could not start {program} ({exc.strerror})")
        output = log_path.read_text(encoding="utf-8", errors="replace")
    if result.outcome != "exited":
        return LintRun(linter.name, [], f"stopped ({result.outcome}) after {result.duration_s:.0f} s")
    messages = linter.parse(output, root, root)
    if result.exit_code not in linter.fails_with and not messages:
        said = " ".join(output.strip().splitlines()[-2:])[:300]
        return LintRun(linter.name, [], f"exit status {result.exit_code}: {said}")
    return LintRun(linter.name, messages)


def _relative(path: str, cwd: Path, root: Path) -> str | None:
    """A path a checker printed, relative to the repository; None when it is outside it."""
    full = Path(path) if Path(path).is_absolute() else cwd / path
    try:
        return Path(os.path.normpath(full)).relative_to(root).as_posix()
    except ValueError:
        return None


def _parse_rule_lines(tool: str) -> Callable[[str, Path, Path], list[LintMessage]]:
    """ruff's concise and flake8's default format: `path:line:col: CODE message`."""

    def parse(output: str, cwd: Path, root: Path) -> list[LintMessage]:
        found = []
        for raw in output.splitlines():
            line = _LINE.match(raw.strip())
            rule = _RULE.match(line.group("rest")) if line else None
            path = _relative(line.group("path"), cwd, root) if line else None
            if line is None or rule is None or path is None:
                continue
            code = rule.group("code")
            # Pyflakes' codes (an undefined name, a redefinition) and syntax errors are bugs more often than style;
            # an unused import or variable, or an f-string without a field, is tidiness.
            bug = code.startswith(("F", "E9")) and code not in _TIDINESS
            severity: Severity = "major" if bug else "minor"
            found.append(LintMessage(tool, path, int(line.group("line")), code, rule.group("message"), severity))
        return found

    return parse


def _parse_mypy(output: str, cwd: Path, root: Path) -> list[LintMessage]:
    found = []
    for raw in output.splitlines():
        line = _LINE.match(raw.strip())
        error = _MYPY.match(line.group("rest")) if line else None
        path = _relative(line.group("path"), cwd, root) if line else None
        if line is None or error is None or path is None:
            continue
        found.append(
            LintMessage(
                "mypy", path, int(line.group("line")), error.group("code") or "", error.group("message"), "major"
            )
        )
    return found


def _parse_go_vet(output: str, cwd: Path, root: Path) -> list[LintMessage]:
    found = []
    for raw in output.splitlines():
        line = _LINE.match(raw.strip())
        path = _relative(line.group("path"), cwd, root) if line else None
        if line is None or path is None or not path.endswith(".go"):
            continue
        found.append(LintMessage("go vet", path, int(line.group("line")), "", line.group("rest"), "major"))
    return found


def _parse_eslint(output: str, cwd: Path, root: Path) -> list[LintMessage]:
    """ESLint's json format: a list of files, each with its messages (severity 2 an error, 1 a warning)."""
    start = output.find("[")
    try:
        data = json.loads(output[start:]) if start >= 0 else []
    except ValueError:
        return []
    found = []
    for entry in data if isinstance(data, list) else []:
        path = _relative(str(entry.get("filePath", "")), cwd, root) if isinstance(entry, dict) else None
        if path is None:
            continue
        for message in entry.get("messages") or []:
            if not isinstance(message, dict) or not isinstance(message.get("line"), int):
                continue
            severity: Severity = "minor" if message.get("severity") == 2 else "nit"
            rule = str(message.get("ruleId") or "")
            found.append(LintMessage("eslint", path, message["line"], rule, str(message.get("message", "")), severity))
    return found


def _toml_tool(root: Path, name: str) -> bool:
    """pyproject.toml has a [tool.NAME] table."""
    try:
        data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    tools = data.get("tool")
    return isinstance(tools, dict) and name in tools


def _ini_section(root: Path, names: tuple[str, ...], section: str) -> bool:
    for name in names:
        try:
            text = (root / name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if re.search(rf"^\[{re.escape(section)}(?:-[^\]]*)?\]", text, re.MULTILINE):
            return True
    return False


def _ruff_configured(root: Path) -> bool:
    return _toml_tool(root, "ruff") or any((root / name).is_file() for name in ("ruff.toml", ".ruff.toml"))


def _flake8_configured(root: Path) -> bool:
    return (root / ".flake8").is_file() or _ini_section(root, ("setup.cfg", "tox.ini"), "flake8")


def _mypy_configured(root: Path) -> bool:
    if _toml_tool(root, "mypy") or any((root / name).is_file() for name in ("mypy.ini", ".mypy.ini")):
        return True
    return _ini_section(root, ("setup.cfg",), "mypy")


def _eslint_configured(root: Path) -> bool:
    try:
        data: Any = json.loads((root / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(data, dict):
        return False
    declared = [data.get(key) for key in ("devDependencies", "dependencies")]
    return "eslintConfig" in data or any(isinstance(deps, dict) and "eslint" in deps for deps in declared)


def _go_configured(root: Path) -> bool:
    return (root / "go.mod").is_file()


def _go_packages(files: list[str]) -> list[str]:
    """`./dir` for each changed .go file's package (go vet runs at go.mod's folder, the repository root)."""
    folders = sorted({Path(path).parent.as_posix() for path in files})
    return ["." if folder == "." else f"./{folder}" for folder in folders]


LINTERS: tuple[Linter, ...] = (
    # No caches written into the person's checkout: ruff's and mypy's are switched off.
    Linter(
        "ruff",
        "ruff",
        _PYTHON,
        _ruff_configured,
        lambda program, files: (program, "check", "--no-cache", "--no-fix", "--output-format=concise", *files),
        _parse_rule_lines("ruff"),
    ),
    Linter(
        "flake8",
        "flake8",
        _PYTHON,
        _flake8_configured,
        lambda program, files: (program, *files),
        _parse_rule_lines("flake8"),
    ),  # fmt: skip
    Linter(
        "mypy",
        "mypy",
        _PYTHON,
        _mypy_configured,
        lambda program, files: (
            program,
            "--cache-dir=/dev/null",
            "--no-error-summary",
            "--no-color-output",
            "--show-column-numbers",
            *files,
        ),  # fmt: skip
        _parse_mypy,
    ),
    Linter(
        "eslint",
        "eslint",
        _JAVASCRIPT,
        _eslint_configured,
        lambda program, files: (program, "--format", "json", "--no-color", *files),
        _parse_eslint,
    ),  # fmt: skip
    Linter(
        "go vet",
        "go",
        (".go",),
        _go_configured,
        lambda program, packages: (program, "vet", *packages),
        _parse_go_vet,
        fails_with=(0, 1),
    ),  # fmt: skip
)

"""The test tool: find the project's test runner, run it with a machine-readable reporter, summarise the result."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import tempfile
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol

from pydantic import Field, model_validator

from pedro.effects import Effects
from pedro.process import ChildCommand, ChildResult, OutputLimits, child_env, describe_exit, run_child
from pedro.safety.commands import ASSIGNMENT
from pedro.safety.sandbox import wrap
from pedro.tools.base import ToolArgs, ToolContext, ToolFailure, ToolTimeoutError
from pedro.tools.bash import network_evidence, offer_network, sandbox_blocks_network
from pedro.tools.testreport import (
    JS_ID_SEPARATOR,
    NODE_RUNNER,
    UNITTEST_RUNNER,
    ReportError,
    RunReport,
    parse_go_test_json,
    parse_jest_json,
    parse_junit_xml,
    parse_raw,
    parse_vitest_json,
    with_crash_cause,
)

Framework = Literal["auto", "go", "pytest", "npm"]
ReportKind = Literal["junit", "node-junit", "jest", "vitest", "go-json", "raw"]

MAX_TIMEOUT_S = 3600.0
MAX_FAILURES_SHOWN = 20
RAW_TAIL_LINES = 40
_RAW_TAIL_BYTES = 4096
_HARD_CAP_BYTES = 64 * 1024 * 1024  # the full log goes to disk, so a verbose suite may say a lot
_PARSE_TAIL_BYTES = 256 * 1024

_FRAMEWORK_ALIASES: dict[str, Framework] = {
    "": "auto",
    "python": "pytest",
    "py": "pytest",
    "py.test": "pytest",
    "golang": "go",
    "go test": "go",
    "jest": "npm",
    "vitest": "npm",
    "mocha": "npm",
    "node": "npm",
    "javascript": "npm",
    "typescript": "npm",
    "js": "npm",
    "ts": "npm",
    "yarn": "npm",
    "pnpm": "npm",
}
_NPM_PLACEHOLDER = "no test specified"
_VENVS = (".venv", "venv", "env")
TEST_DEPENDENCIES = ("node_modules", *_VENVS)
"""Untracked folders the tests need and git does not hold: a throwaway worktree links them from the checkout."""
_SHELL_META = re.compile(r"[;&|<>$`()\n\\*?{}\[\]]")
"""What bash reads as more than a word's own text outside quotes: operators, expansions, escapes, globs."""
_DOUBLE_QUOTED_META = frozenset("$`\\")
"""What bash still expands between double quotes."""


def has_shell_syntax(command: str) -> bool:
    """Whether bash would read `command` as more than words: a metacharacter outside quotes, or an expansion or
    escape between double quotes. Between single quotes everything is text: a pytest node id quoted as
    `'tests/t.py::test_parse[\\ufeffa=b-case1]'` is one word."""
    quote = ""
    for char in command:
        if quote == "'":
            quote = "" if char == "'" else quote
        elif quote == '"':
            if char in _DOUBLE_QUOTED_META:
                return True
            quote = "" if char == '"' else quote
        elif char in "'\"":
            quote = char
        elif _SHELL_META.match(char):
            return True
    return False


class RunTestsArgs(ToolArgs):
    """Run the project's tests; every key is optional."""

    short_keys: ClassVar[tuple[str, ...]] = ("path",)

    command: str | None = None
    path: str | None = None
    framework: Framework = "auto"
    timeout: float | None = Field(default=None, gt=0)

    @model_validator(mode="before")
    @classmethod
    def _accept_aliases(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for alias in ("cmd", "test_command"):
            if alias in data and "command" not in data:
                data["command"] = data.pop(alias)
        for alias in ("file_path", "filename", "file", "dir", "directory", "package", "target"):
            if alias in data and "path" not in data:
                data["path"] = data.pop(alias)
        if isinstance(data.get("command"), list):
            data["command"] = shlex.join(str(part) for part in data["command"])
        framework = data.get("framework")
        if isinstance(framework, str):
            key = framework.strip().lower()
            data["framework"] = _FRAMEWORK_ALIASES.get(key, key)
        elif framework is None:
            data.pop("framework", None)
        for key in ("command", "path"):
            if isinstance(data.get(key), str) and not data[key].strip():
                data[key] = None
        return data

    @model_validator(mode="after")
    def _check_command(self) -> RunTestsArgs:
        if self.command is not None and "\x00" in self.command:
            raise ValueError("command contains a NUL character; send plain text")
        return self


@dataclass(frozen=True)
class RunPlan:
    """One test run decided: what to execute, where its report lands and how to read it."""

    label: str
    command: ChildCommand
    report_kind: ReportKind
    report_path: Path | None = None
    module: str = ""
    """go.mod's module path, to turn Go package paths into directories."""


@dataclass(frozen=True)
class TestRun:
    """One finished test run: what the model reads, and the facts pedro's own code decides on."""

    __test__ = False  # a name pytest would otherwise collect in the modules that import it

    summary: str
    report: RunReport | None
    result: ChildResult
    command: str

    @property
    def passed(self) -> bool:
        """The command exited 0 and no test failed or erred."""
        if self.result.outcome != "exited" or self.result.exit_code != 0:
            return False
        return self.report is None or not (self.report.failed or self.report.errors or self.report.failures)

    @property
    def failing(self) -> frozenset[str]:
        """The ids of the failing tests (empty when the report names none)."""
        return frozenset(f.test_id for f in self.report.failures) if self.report is not None else frozenset()


class RunInstrument(Protocol):
    """Changes a planned run before it starts and reads what it left in the run's folder before that folder is
    removed: how repair's fault localisation records line coverage without a runner of its own."""

    def prepare(self, plan: RunPlan, workdir: Path) -> RunPlan: ...

    def collect(self, plan: RunPlan, workdir: Path) -> None: ...


class TestTool:
    """Runs tests and answers with counts, each failure's id, location and message, then a raw tail."""

    name: ClassVar[str] = "test"
    Args: ClassVar[type[ToolArgs]] = RunTestsArgs

    def effects(self, args: RunTestsArgs) -> Effects:
        return Effects(command=args.command or None, runs_commands=True)

    def run(self, args: RunTestsArgs, ctx: ToolContext) -> str:
        timeout = min(args.timeout or ctx.config.test_timeout, MAX_TIMEOUT_S)
        network = ctx.grants.network
        run, evidence = _run_once(args, ctx, timeout, network=network)
        summary = run.summary
        if evidence is not None:
            # Never retried on its own: only an approval (or a remembered one) runs it again, once, with network.
            rerun, note = offer_network(args.command or run.command, ctx, evidence)
            if rerun:
                run, _ = _run_once(args, ctx, timeout, network=True)
            summary = f"note: {note}\n{run.summary}"
        if run.result.outcome == "timeout":
            raise ToolTimeoutError(summary)
        return summary


def run_tests(
    args: RunTestsArgs, ctx: ToolContext, *, instrument: RunInstrument | None = None, only: Sequence[str] = ()
) -> TestRun:
    """Run the tests as the test tool does, without the network, for pedro's own decisions (repair, evidence);
    `only` holds the run to those test ids where the runner allows it (narrow())."""
    timeout = min(args.timeout or ctx.config.test_timeout, MAX_TIMEOUT_S)
    return _run_once(args, ctx, timeout, network=False, instrument=instrument, only=only)[0]


def _run_once(
    args: RunTestsArgs,
    ctx: ToolContext,
    timeout: float,
    *,
    network: bool,
    instrument: RunInstrument | None = None,
    only: Sequence[str] = (),
) -> tuple[TestRun, str | None]:
    """One run, and the sign that it lacked the network (or None)."""
    with tempfile.TemporaryDirectory(prefix="pedro-test-") as tmp:
        workdir = Path(tmp)
        plan = plan_test_run(args, ctx, workdir)
        if only:
            plan = narrow(plan, only) or plan
        if instrument is not None:
            plan = instrument.prepare(plan, workdir)
        log_path = workdir / "output.log"
        limits = OutputLimits(head_bytes=0, tail_bytes=_RAW_TAIL_BYTES, hard_cap_bytes=_HARD_CAP_BYTES)
        # The report lands in `workdir`, outside the repository, so the sandbox must let the runner write there.
        try:
            child = wrap(plan.command, root=ctx.root, kind="test", writable=(workdir,), allow_network=network)
            with log_path.open("wb") as log:
                result = run_child(child, timeout=timeout, limits=limits, tee=log)
        except OSError as exc:
            program = plan.command.argv[0]
            raise ToolFailure(
                f"{program!r} could not be started ({exc.strerror}); install it or put it on PATH, or pass "
                '`command` with the test command to use, e.g. {"command": "make test"}'
            ) from exc
        report = read_report(plan, log_path)
        if instrument is not None:
            instrument.collect(plan, workdir)
        raw_tail = _raw_tail(plan, log_path, result)
        evidence = None
        if not network and result.outcome == "exited" and result.exit_code != 0 and sandbox_blocks_network():
            evidence = network_evidence(_read_tail(log_path, _PARSE_TAIL_BYTES))
    summary = format_summary(plan, result, report, raw_tail, timeout=timeout)
    return TestRun(summary, report, result, args.command or shlex.join(plan.command.argv)), evidence


def plan_test_run(args: RunTestsArgs, ctx: ToolContext, workdir: Path) -> RunPlan:
    """Decide the command: the model's own, or the detected framework's runner with a machine-readable reporter."""
    target = ctx.resolve(args.path, must_exist=True) if args.path else None
    env = child_env(ctx.env, {"NO_COLOR": "1", "FORCE_COLOR": "0", "PY_COLORS": "0"})
    if args.command:
        return _plan_explicit(args.command, ctx.root, env, workdir)
    start = target if target is None or target.is_dir() else target.parent
    found = detect_framework(ctx.root, start or ctx.root, args.framework)
    if found is None:
        wanted = "test setup" if args.framework == "auto" else f"{args.framework} project"
        raise ToolFailure(
            f"no {wanted} found (looked for go.mod, pytest config or test_*.py files, package.json with a test "
            'script); pass `command` with the test command to run, e.g. {"command": "make test"}'
        )
    framework, project = found
    rel_target = os.path.relpath(target, project) if target is not None and target != project else ""
    report = workdir / "report"
    if framework == "go":
        go_argv = ("go", "test", "-json", _go_package(target, project))
        return RunPlan("go test", ChildCommand(go_argv, project, env), "go-json", module=_go_module(project))
    if framework == "pytest":
        targets = (rel_target,) if rel_target else ()
        argv = (*_python_runner(project, ctx.root, env), "-q", "--color=no", *_junit_options(report), *targets)
        return RunPlan("pytest", ChildCommand(argv, project, env), "junit", report.with_suffix(".xml"))
    return _plan_npm(project, (rel_target,) if rel_target else (), env, report)


# pytest options whose value is the next word, so that the value is never taken for a test path.
_PYTEST_VALUED = frozenset(
    {"-k", "-m", "-o", "-p", "-c", "-W", "-r", "-n", "--rootdir", "--confcutdir", "--basetemp", "--deselect",
     "--ignore", "--ignore-glob", "--tb", "--maxfail", "--durations", "--dist", "--import-mode", "--log-level",
     "--junitxml", "--cov", "--cov-report", "--override-ini", "--capture"}
)  # fmt: skip


def narrow(plan: RunPlan, ids: Sequence[str]) -> RunPlan | None:
    """The planned run held to the tests `ids` (repair's first check of a candidate): pytest's node ids in place of
    the command's test paths, `go test -run` over the packages concerned, `node --test --test-name-pattern`, jest's
    and vitest's `-t` over the tests' files; None when the runner cannot be held to named tests (the whole command
    runs then)."""
    argv = list(plan.command.argv)
    shell = argv[:2] == ["bash", "-c"]
    if (plan.report_kind == "raw" and plan.label != UNITTEST_RUNNER) or not ids:
        return None
    try:
        tokens = shlex.split(argv[2]) if shell else argv
    except ValueError:
        return None
    if plan.label == UNITTEST_RUNNER:
        narrowed = _narrow_unittest(tokens, ids)
    elif plan.report_kind == "junit":
        narrowed = _narrow_pytest(tokens, ids, plan.command.cwd)
    elif plan.report_kind == "go-json":
        narrowed = _narrow_go(tokens, ids, plan.module)
    elif plan.report_kind == "node-junit":
        narrowed = [tokens[0], f"--test-name-pattern={name_pattern(ids)}", *tokens[1:]]
    elif plan.report_kind in ("jest", "vitest"):
        narrowed = _narrow_jest(tokens, ids, plan.report_kind)
    else:
        return None
    if narrowed is None:
        return None
    new_argv = ("bash", "-c", shlex.join(narrowed)) if shell else tuple(narrowed)
    return replace(plan, command=replace(plan.command, argv=new_argv))


def _narrow_pytest(tokens: list[str], ids: Sequence[str], cwd: Path) -> list[str] | None:
    """The pytest argv with its test paths dropped and the node ids added."""
    split = _split_pytest(tokens, cwd)
    return None if split is None else [*split[0], *ids]


def pytest_paths(plan: RunPlan) -> tuple[str, ...]:
    """The test paths and node ids a planned pytest run names (none when it names none, or is not pytest)."""
    argv = list(plan.command.argv)
    try:
        tokens = shlex.split(argv[2]) if argv[:2] == ["bash", "-c"] else argv
    except ValueError:
        return ()
    split = _split_pytest(tokens, plan.command.cwd) if plan.report_kind == "junit" else None
    return () if split is None else tuple(split[1])


def _split_pytest(tokens: list[str], cwd: Path) -> tuple[list[str], list[str]] | None:
    """A pytest argv as the rest and the test paths it names; None when no pytest is in it."""
    try:
        start = next(i for i, token in enumerate(tokens) if token.rsplit("/", 1)[-1] in ("pytest", "py.test"))
    except StopIteration:
        return None
    kept, paths = tokens[: start + 1], list[str]()
    for k in range(start + 1, len(tokens)):
        token, before = tokens[k], tokens[k - 1]
        positional = not token.startswith("-") and before not in _PYTEST_VALUED
        if positional and ("::" in token or (cwd / token.split("::")[0]).exists()):
            paths.append(token)
            continue
        kept.append(token)
    return kept, paths


def _narrow_unittest(tokens: list[str], ids: Sequence[str]) -> list[str] | None:
    """`python -m unittest` with the test ids in place of its own names; None for `discover`, whose start folder
    the ids may not be importable from."""
    if "discover" in tokens:
        return None
    options: list[str] = []
    for k, token in enumerate(tokens[3:], start=3):
        # `-k PATTERN` keeps its pattern: without it, -k would take the first id as one.
        if token.startswith("-") or (k > 3 and tokens[k - 1] in _UNITTEST_VALUED):
            options.append(token)
    return [*tokens[:3], *options, *ids]


_UNITTEST_VALUED = frozenset({"-k", "--durations"})
"""unittest's options that take the next word as their value."""


def _narrow_go(tokens: list[str], ids: Sequence[str], module: str) -> list[str] | None:
    """`go test` with `-run` for the ids' top-level tests, over the packages they are in."""
    if tokens[:2] != ["go", "test"]:
        return None
    packages: dict[str, None] = {}
    names: dict[str, None] = {}
    for test_id in ids:
        package, _, name = test_id.rpartition(".")
        if not name:
            return None
        names[name.split("/")[0]] = None
        if module and (package == module or package.startswith(module + "/")):
            packages["./" + package[len(module) + 1 :] if package != module else "."] = None
        elif package:
            return None
    flags = [token for token in tokens[2:] if token.startswith("-") and not token.startswith("-run")]
    # go vet is a linter, not a test: a first check of named tests skips it (a quarter of a small package's run),
    # and the whole command, as given, runs it before anything passes.
    vet = [] if any(flag.startswith(("-vet", "--vet")) for flag in flags) else ["-vet=off"]
    return ["go", "test", *flags, *vet, "-run", name_pattern(list(names)), *packages]


def _narrow_jest(tokens: list[str], ids: Sequence[str], kind: ReportKind) -> list[str] | None:
    """jest or vitest held to the ids' files, and by `-t` to their tests' full names (the describe blocks' titles and
    the test's, joined by spaces); None when the command already picks tests by name."""
    if any(token in ("-t", "--testNamePattern") or token.startswith("--testNamePattern=") for token in tokens):
        return None
    files: dict[str, None] = {}
    names: dict[str, None] = {}
    for test_id in ids:
        file, _, titles = test_id.partition(JS_ID_SEPARATOR)
        files[file] = None
        names[titles.replace(JS_ID_SEPARATOR, " ")] = None
    # jest reads a file argument as a pattern over the absolute path, vitest as a part of the relative one.
    filters = [f"/{re.escape(file)}$" if kind == "jest" else file for file in files]
    if "" in names:  # a file that failed to load: its tests have no names to run by
        return [*tokens, *filters]
    # vitest 1 matches the pattern against a full name that starts with its file's empty title and a space.
    return [*tokens, "-t", "^ ?" + name_pattern(list(names)).removeprefix("^"), *filters]


def name_pattern(names: Sequence[str]) -> str:
    """A regular expression that matches exactly the test names `names` (go test -run, node --test-name-pattern,
    jest and vitest -t)."""
    return "^(" + "|".join(re.escape(name) for name in names) + ")$"


def detect_framework(root: Path, start: Path, wanted: Framework = "auto") -> tuple[Framework, Path] | None:
    """The nearest directory from `start` up to `root` that holds a test setup, and which framework it is."""
    current = start
    while True:
        for framework in _frameworks_in(current):
            if wanted in ("auto", framework):
                return framework, current
        if current == root or root not in current.parents:
            break
        current = current.parent
    if wanted == "pytest":
        return "pytest", root  # pytest discovers tests without any config
    return None


def _frameworks_in(directory: Path) -> Iterator[Framework]:
    """Frameworks a directory sets up, strongest evidence first."""
    if (directory / "go.mod").is_file():
        yield "go"
    if _has_pytest_config(directory):
        yield "pytest"
    if _npm_test_script(directory) is not None:
        yield "npm"
    if _has_python_tests(directory):
        yield "pytest"


def _has_pytest_config(directory: Path) -> bool:
    if (directory / "pytest.ini").is_file() or (directory / "conftest.py").is_file():
        return True
    markers = {"pyproject.toml": "[tool.pytest", "setup.cfg": "[tool:pytest]", "tox.ini": "[pytest]"}
    for name, marker in markers.items():
        file = directory / name
        if file.is_file() and marker in file.read_text(encoding="utf-8", errors="replace"):
            return True
    return False


def _has_python_tests(directory: Path) -> bool:
    if any(directory.glob("test_*.py")):
        return True
    for sub in ("tests", "test"):
        folder = directory / sub
        if folder.is_dir() and (any(folder.rglob("test_*.py")) or any(folder.rglob("*_test.py"))):
            return True
    return False


def _npm_test_script(directory: Path) -> str | None:
    file = directory / "package.json"
    if not file.is_file():
        return None
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (ValueError, OSError):
        return None
    scripts = data.get("scripts") if isinstance(data, dict) else None
    script = scripts.get("test") if isinstance(scripts, dict) else None
    if not isinstance(script, str) or not script.strip() or _NPM_PLACEHOLDER in script:
        return None
    return script


def _plan_npm(project: Path, extra: tuple[str, ...], env: dict[str, str], report: Path) -> RunPlan:
    """The package's test script, with the reporter pedro reads where its runner is known; `extra` goes to the
    runner (a test path, or what followed `npm test --`)."""
    script = _npm_test_script(project) or ""
    runner = _js_runner(script)
    # Reporter flags are appended to the script, so only when the runner is the script's last command.
    simple = runner is not None and not re.search(r"&&|\|\||;|\|", script.split(runner)[-1])
    if runner == "jest" and simple:
        json_path = report.with_suffix(".json")
        flags = ("--json", f"--outputFile={json_path}", "--testLocationInResults", *extra)
        return RunPlan("jest", ChildCommand(("npm", "test", "--", *flags), project, env), "jest", json_path)
    if runner == "vitest" and simple:
        json_path = report.with_suffix(".json")
        flags = ("--run", "--reporter=default", "--reporter=json", f"--outputFile.json={json_path}", *extra)
        return RunPlan("vitest", ChildCommand(("npm", "test", "--", *flags), project, env), "vitest", json_path)
    node = _node_test_script(project, script)
    if node is not None:
        tokens, kind, path = _node_reporter([*node, *extra], report)
        return RunPlan(NODE_RUNNER, ChildCommand(tuple(tokens), project, env), kind, path)
    # An unknown runner may watch for changes unless it believes it runs in CI (react-scripts, karma).
    argv = ("npm", "test", *(("--", *extra) if extra else ()))
    return RunPlan(runner or "npm test", ChildCommand(argv, project, {**env, "CI": "1"}), "raw")


def _node_test_script(project: Path, script: str) -> list[str] | None:
    """The words of a test script that is node's own runner alone (`node --test …`), which runs as it is, without npm
    (npm adds half a second to every run, and its output hides node's): None for anything else, or when the package
    has a pretest or posttest script that npm would run around it."""
    if has_shell_syntax(script):
        return None
    try:
        tokens = shlex.split(script)
    except ValueError:
        return None
    if tokens[:1] != ["node"] or "--test" not in tokens[1:]:
        return None
    try:
        scripts = json.loads((project / "package.json").read_text(encoding="utf-8")).get("scripts", {})
    except (OSError, ValueError, AttributeError):
        return None
    return None if "pretest" in scripts or "posttest" in scripts else tokens


def _js_runner(script: str) -> str | None:
    for runner in ("vitest", "jest", "mocha"):
        if re.search(rf"(?<![\w-]){runner}(?![\w-])", script):
            return runner
    return None


def _plan_explicit(command: str, root: Path, env: dict[str, str], workdir: Path) -> RunPlan:
    """The model's own command, run by bash; a simple pytest/go/jest/vitest call also gets a reporter."""
    assigned, tokens = _simple_words(command)
    kind: ReportKind = "raw"
    report_path: Path | None = None
    npm_extra = _npm_test_extra(tokens) if tokens else None
    # The command's own settings (`PYTHONPATH=src pytest`) go into the environment of the runner pedro reads, where
    # every run of it, narrowed or warm, finds them; a command run as written leaves them to bash.
    read_env = {**env, **assigned}
    if npm_extra is not None and _npm_test_script(root) is not None:
        return _plan_npm(root, npm_extra, read_env, workdir / "report")  # as if detected: the script's runner's report
    runner = _explicit_runner(tokens) if tokens else None
    reporter = _REPORTERS.get(runner) if runner is not None else None
    if reporter is not None:
        tokens, kind, report_path = reporter(tokens, workdir / "report")
    if kind == "raw" and runner != UNITTEST_RUNNER:
        return RunPlan(runner or "command", ChildCommand(("bash", "-c", command), root, env), kind, report_path)
    module = _go_module(root) if kind == "go-json" else ""
    return RunPlan(runner or "command", ChildCommand(("bash", "-c", shlex.join(tokens)), root, read_env), kind,
                   report_path, module)  # fmt: skip


def _simple_words(command: str) -> tuple[dict[str, str], list[str]]:
    """For a simple command (no shell syntax), the variables it sets before its program and the program's words;
    nothing for any other."""
    try:
        tokens = shlex.split(command)
    except ValueError:
        return {}, []
    if not tokens or has_shell_syntax(command):
        return {}, []
    return _assignments(tokens)


# What bash itself reads as it starts: set before the runner, bash gives it to the runner alone; lifted into the
# environment of `bash -c`, it would change that bash too. Such a command is left to bash as written.
_SHELL_STARTUP = frozenset({"BASH_ENV", "ENV", "BASHOPTS", "SHELLOPTS", "PS4"})


def _assignments(tokens: list[str]) -> tuple[dict[str, str], list[str]]:
    """The variables a command line sets before its program (`PYTHONPATH=src pytest`), and the words after them;
    nothing when it sets one that bash itself reads as it starts."""
    assigned: dict[str, str] = {}
    for at, token in enumerate(tokens):
        if not ASSIGNMENT.match(token):
            return assigned, tokens[at:]
        name, value = token.split("=", 1)
        # `NAME+=value` appends to what bash holds; bash reads that, and what it reads as it starts, as written.
        if name.endswith("+") or name in _SHELL_STARTUP or name.startswith("BASH_FUNC_"):
            return {}, []
        assigned[name] = value
    return assigned, []


_NPM_TEST_WORDS = (["npm", "test"], ["npm", "t"], ["npm", "run", "test"], ["npm", "run-script", "test"])


def _npm_test_extra(tokens: list[str]) -> tuple[str, ...] | None:
    """What `npm test -- …` passes on to the test script (nothing for a plain `npm test`); None for any other command,
    for npm's own flags, and for a command that asks for a report of its own."""
    for words in _NPM_TEST_WORDS:
        if tokens[: len(words)] == words:
            rest = tokens[len(words) :]
            if rest[:1] not in ([], ["--"]) or any(
                t.startswith(("--json", "--reporter", "--outputFile")) for t in rest
            ):
                return None
            return tuple(rest[1:])
    return None


# A command with the reporter pedro reads added (unless it asks for one itself), the report's kind and its file.
_Reported = tuple[list[str], ReportKind, Path | None]


def _pytest_reporter(tokens: list[str], report: Path) -> _Reported:
    """pytest: a junit XML report (xunit1)."""
    if any(t.startswith("--junitxml") for t in tokens):
        return tokens, "raw", None
    return [*tokens, *_junit_options(report)], "junit", report.with_suffix(".xml")


def _go_reporter(tokens: list[str], report: Path) -> _Reported:
    """go test: -json output, which the summary reads from stdout."""
    if "-json" in tokens:
        return tokens, "go-json", None
    return [*tokens[:2], "-json", *tokens[2:]], "go-json", None


def _jest_reporter(tokens: list[str], report: Path) -> _Reported:
    """jest: a JSON report with each test's location."""
    if "--json" in tokens:
        return tokens, "raw", None
    path = report.with_suffix(".json")
    return [*tokens, "--json", f"--outputFile={path}", "--testLocationInResults"], "jest", path


def _vitest_reporter(tokens: list[str], report: Path) -> _Reported:
    """vitest: a JSON report beside the default one a person reads."""
    if any(t.startswith("--reporter") for t in tokens):
        return tokens, "raw", None
    path = report.with_suffix(".json")
    return [*tokens, "--reporter=default", "--reporter=json", f"--outputFile.json={path}"], "vitest", path


def _unittest_reporter(tokens: list[str], report: Path) -> _Reported:
    """unittest: no report file; -v names every test on its own line."""
    if {"-v", "--verbose"} & set(tokens):
        return tokens, "raw", None
    return [*tokens, "-v"], "raw", None  # each test's line names the passing ones too


def _node_reporter(tokens: list[str], report: Path) -> _Reported:
    """node --test: a junit report beside the spec output a person reads."""
    if any(t.startswith("--test-reporter") for t in tokens):
        return tokens, "raw", None
    path = report.with_suffix(".xml")
    return [tokens[0], *_node_reporter_options(path), *tokens[1:]], "node-junit", path


_REPORTERS: dict[str, Callable[[list[str], Path], _Reported]] = {
    "pytest": _pytest_reporter,
    "go": _go_reporter,
    "jest": _jest_reporter,
    "vitest": _vitest_reporter,
    UNITTEST_RUNNER: _unittest_reporter,
    NODE_RUNNER: _node_reporter,
}


def _explicit_runner(tokens: list[str]) -> str | None:
    head = tokens[0].rsplit("/", 1)[-1]
    if head in ("pytest", "py.test") or (head.startswith("python") and tokens[1:3] == ["-m", "pytest"]):
        return "pytest"
    if head == "go" and tokens[1:2] == ["test"]:
        return "go"
    if head.startswith("python") and tokens[1:3] == ["-m", "unittest"]:
        return UNITTEST_RUNNER
    if head == "node" and "--test" in tokens[1:]:
        return NODE_RUNNER
    name = tokens[1] if head == "npx" and len(tokens) > 1 else head
    return name if name in ("jest", "vitest") else None


def _node_reporter_options(report_path: Path) -> tuple[str, ...]:
    # Two reporters: junit into the report file for pedro, spec on stdout for the raw tail a person reads.
    return (
        "--test-reporter=junit",
        f"--test-reporter-destination={report_path}",
        "--test-reporter=spec",
        "--test-reporter-destination=stdout",
    )


def _junit_options(report: Path) -> tuple[str, ...]:
    # xunit1 records each test's file and line, which the summary shows.
    return ("-o", "junit_family=xunit1", f"--junitxml={report.with_suffix('.xml')}")


def _python_runner(project: Path, root: Path, env: dict[str, str]) -> tuple[str, ...]:
    """The project's own virtualenv first, then pytest on PATH, then python3 -m pytest."""
    for base in dict.fromkeys((project, root)):
        for venv in _VENVS:
            python = base / venv / "bin" / "python"
            if python.is_file():
                return (str(python), "-m", "pytest")
    found = shutil.which("pytest", path=env.get("PATH"))
    if found:
        return (found,)
    return ("python3", "-m", "pytest")


def _go_package(target: Path | None, project: Path) -> str:
    """`./...` for the module, `./dir/...` for a directory, `./dir` for one file's package."""
    if target is None:
        return "./..."
    folder = target if target.is_dir() else target.parent
    rel = Path(os.path.relpath(folder, project)).as_posix()
    if target.is_dir():
        return "./..." if rel == "." else f"./{rel}/..."
    return "." if rel == "." else f"./{rel}"


def _go_module(project: Path) -> str:
    try:
        text = (project / "go.mod").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    match = re.search(r"^module\s+(\S+)", text, re.MULTILINE)
    return match.group(1).strip('"') if match else ""


def read_report(plan: RunPlan, log_path: Path) -> RunReport | None:
    """The run's structured report, or counts scraped from its output when no report can be read."""
    if plan.report_path is not None and plan.report_path.is_file() and plan.report_path.stat().st_size:
        text = plan.report_path.read_text(encoding="utf-8", errors="replace")
        try:
            if plan.report_kind == "junit":
                return parse_junit_xml(text)
            if plan.report_kind == "node-junit":
                report = parse_junit_xml(text, runner=NODE_RUNNER)
                return with_crash_cause(report, _read_tail(log_path, _PARSE_TAIL_BYTES))
            if plan.report_kind in ("jest", "vitest"):
                root = plan.command.cwd.resolve()
                return (
                    parse_vitest_json(text, root=root)
                    if plan.report_kind == "vitest"
                    else parse_jest_json(text, root=root)
                )
        except ReportError:
            pass
    if plan.report_kind == "go-json" or _looks_like_go_json(log_path):
        with log_path.open(encoding="utf-8", errors="replace") as lines:
            report = parse_go_test_json(lines, module=plan.module)
        if report.total or report.failures:
            return report
    return parse_raw(_read_tail(log_path, _PARSE_TAIL_BYTES))


def _looks_like_go_json(log_path: Path) -> bool:
    with log_path.open("rb") as fh:
        head = fh.read(4096)
    return b'{"Time":' in head and b'"Action":' in head


def _read_tail(path: Path, size: int) -> str:
    with path.open("rb") as fh:
        fh.seek(max(path.stat().st_size - size, 0))
        return fh.read().decode("utf-8", errors="replace")


def _raw_tail(plan: RunPlan, log_path: Path, result: ChildResult) -> str:
    """The last lines a person would have seen; for go -json that is the text inside the events."""
    if plan.report_kind != "go-json":
        return result.output
    kept: deque[str] = deque(maxlen=RAW_TAIL_LINES)
    with log_path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line.startswith("{"):
                try:
                    event = json.loads(line)
                except ValueError:
                    event = None
                if isinstance(event, dict):
                    if isinstance(event.get("Output"), str):
                        kept.extend(event["Output"].splitlines())
                    continue
            kept.append(line.rstrip("\n"))
    return "\n".join(kept)


def format_summary(
    plan: RunPlan, result: ChildResult, report: RunReport | None, raw_tail: str, *, timeout: float
) -> str:
    """What the model reads: a verdict with counts, the failing tests, then the end of the raw output."""
    lines: list[str] = []
    if result.outcome == "timeout":
        lines.append(f"{plan.label}: stopped after {timeout:g} s (timeout); the whole process group was ended")
    elif result.outcome == "overflow":
        lines.append(f"{plan.label}: stopped after printing more than {_HARD_CAP_BYTES // (1024 * 1024)} MiB")
    if report is None:
        lines.append(f"{plan.label}: {describe_exit(result.exit_code)}; no test report could be read")
    else:
        verdict = "passed" if result.exit_code == 0 and not report.failed and not report.errors else "FAILED"
        counts = f"passed {report.passed}, failed {report.failed}, skipped {report.skipped}"
        if report.errors:
            counts += f", errors {report.errors}"
        lines.append(f"{plan.label} {verdict}: {counts} ({describe_exit(result.exit_code)})")
        if report.total == 0 and not report.failures:
            lines.append("no tests ran; check `path` or the test file names")
        if report.failures:
            lines += _failing_tests(report)
    tail = _last_lines(raw_tail, RAW_TAIL_LINES)
    if tail:
        lines.append(f"--- end of output ({len(tail.splitlines())} lines) ---")
        lines.append(tail)
    return "\n".join(lines)


def _failing_tests(report: RunReport) -> list[str]:
    """The summary's list of failing tests, each with its location and message, the first MAX_FAILURES_SHOWN."""
    lines = ["failing tests:"]
    for failure in report.failures[:MAX_FAILURES_SHOWN]:
        where = f" ({failure.location})" if failure.location else ""
        lines.append(f"- {failure.test_id}{where}")
        lines.extend(f"    {line}" for line in failure.message.splitlines())
    hidden = len(report.failures) - MAX_FAILURES_SHOWN
    if hidden > 0:
        lines.append(f"... and {hidden} more failing tests")
    return lines


# Stack frames inside the runner's own machinery say nothing about the project's code.
_FOREIGN_FRAME = re.compile(r"^\s+at .*(node_modules/|node:internal|\(<anonymous>\))")


def _last_lines(text: str, count: int) -> str:
    lines = [line.rstrip() for line in text.strip("\n").splitlines() if not _FOREIGN_FRAME.match(line)]
    return "\n".join(lines[-count:]).strip("\n")

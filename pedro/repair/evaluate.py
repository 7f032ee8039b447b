"""How repair runs a candidate's tests: the failing tests first, in a warm forked pytest where it serves, else the
project's command held to those tests; every test the baseline named only for a candidate that passes them; the
whole command once, as the final check. Each run is bounded by a multiple of the original code's own time."""

from __future__ import annotations

import os
import shlex
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pedro.evidence import ProjectTests, count
from pedro.process import ChildCommand
from pedro.repair.native_probes import probe_outputs
from pedro.repair.probes import ProbeSpec
from pedro.repair.warm_node import NodeLaunch, WarmNode, node_launch
from pedro.repair.warm_pytest import UNITTEST_FLAG
from pedro.repair.warm_server import WarmServer, warm_test_run
from pedro.tools.test import RunInstrument, RunPlan, TestRun, narrow, plan_test_run, pytest_paths
from pedro.tools.testreport import NODE_RUNNER, UNITTEST_RUNNER

_SERVER_SOURCE = Path(__file__).with_name("warm_pytest.py")
TIMEOUT_FACTOR = 3.0
TIMEOUT_SLACK_S = 2.0
"""A candidate's run may take this multiple of the original code's run of the same tests, plus this: a candidate
that loops or deadlocks is stopped early and counted as failing."""
# A warm candidate may also use TIMEOUT_FACTOR times the CPU time of the original code's run, plus this. A loop that
# never ends is stopped there, sooner than by the time limit, and a busy machine, which slows a run but adds no CPU
# time to it, stops no candidate early. Every candidate that loops pays the slack, and variants of a `while` loop
# loop often (7 of 49 candidates on one line-wrapping bug): at 1 s they took half of that repair's time. At half a
# second, a fix may still do that much more work than the bug did before its test failed.
CPU_SLACK_S = 0.5
_JUNIT_OPTIONS = ("-o", "junit_family=xunit1")
PROBE_TIMEOUT_S = 60.0
"""The probe calls' limit: a compile of the package's test binary, and a few seconds per call at most."""

Notice = Callable[[str], None]


@dataclass(frozen=True)
class _Pytest:
    """What the warm pytest (or unittest) starts from: the interpreter, the options the command gives its runner,
    the planned run."""

    python: str
    options: tuple[str, ...]
    plan: RunPlan
    module: bool = False
    """`python -m pytest`, which puts the working folder first on sys.path (the `pytest` script does not)."""
    paths: tuple[str, ...] = ()
    """The test paths the command names (none: pytest's own default), to run it whole in the warm pytest."""
    runner: str = "pytest"
    """pytest, or UNITTEST_RUNNER for `python -m unittest`, whose children run unittest's own program."""


def pytest_launch(tests: ProjectTests, workdir: Path) -> _Pytest | str:
    """The interpreter and pytest (or unittest) options of the project's test command, or why a warm runner cannot
    run it (another runner, a shell line pedro cannot take apart)."""
    plan = plan_test_run(tests.args, tests.ctx, workdir)
    if plan.label == UNITTEST_RUNNER:
        return _unittest_launch(plan)
    if plan.report_kind != "junit":
        return "the test runner is neither pytest nor python -m unittest"
    argv = list(plan.command.argv)
    try:
        tokens = shlex.split(argv[2]) if argv[:2] == ["bash", "-c"] else argv
    except ValueError:
        return "the test command cannot be taken apart"
    narrowed = narrow(plan, ["-"])  # any id: what is left of the command once its test paths are dropped
    if narrowed is None or "=" in tokens[0]:
        return "the test command sets its own environment"
    kept = shlex.split(narrowed.command.argv[2]) if argv[:2] == ["bash", "-c"] else list(narrowed.command.argv)
    head = tokens[0]
    if Path(head).name.startswith("python") and tokens[1:3] == ["-m", "pytest"]:
        python, start = head, 3
    elif Path(head).name in ("pytest", "py.test"):
        python, start = _script_interpreter(head, plan.command.env), 1
    else:
        return f"the test command starts with {head}, not pytest or python -m pytest"
    if not python:
        return f"the interpreter of {head} cannot be found"
    options = [token for token in kept[start:-1] if not token.startswith("--junitxml")]
    options = _without(options, _JUNIT_OPTIONS)
    return _Pytest(python, tuple(options), plan, module=start == 3, paths=pytest_paths(plan))


def _unittest_launch(plan: RunPlan) -> _Pytest | str:
    """`python -m unittest` as the warm runner takes it: the interpreter, the command's options (with -v, which names
    every test), the names it runs (none: its own discovery from the working folder); or why it cannot."""
    argv = list(plan.command.argv)
    try:
        tokens = shlex.split(argv[2]) if argv[:2] == ["bash", "-c"] else argv
    except ValueError:
        return "the test command cannot be taken apart"
    if not (Path(tokens[0]).name.startswith("python") and tokens[1:3] == ["-m", "unittest"]):
        return f"the test command starts with {tokens[0]}, not python -m unittest"
    rest = tokens[3:]
    if "discover" in rest:
        return "the test command discovers its tests from a folder of its own (unittest discover)"
    options = [token for token in rest if token.startswith("-")]
    if unknown := [option for option in options if option not in _UNITTEST_FLAGS]:
        return f"the test command gives unittest an option the warm runner does not take ({unknown[0]})"
    kept = [option for option in options if option not in ("-q", "--quiet", "-v", "--verbose")]
    names = tuple(token for token in rest if not token.startswith("-"))
    return _Pytest(tokens[0], ("-v", *kept), plan, module=True, paths=names, runner=UNITTEST_RUNNER)


_UNITTEST_FLAGS = frozenset({"-v", "--verbose", "-q", "--quiet", "-b", "--buffer", "-c", "--catch", "-f", "--failfast"})
"""unittest's options that take no value, the ones the warm runner passes on (-v always, -q never)."""


def _script_interpreter(script: str, env: dict[str, str] | Any) -> str:
    """The Python a pytest script's first line names; for a script that is not Python (a version manager's shim,
    a shell wrapper), the `python3` on the command's PATH, whose verdicts are checked against the command's own
    before the warm pytest is trusted."""
    found = shutil.which(script, path=env.get("PATH"))
    if found is None:
        return ""
    try:
        with Path(found).open(encoding="utf-8", errors="replace") as handle:
            first = handle.readline().strip()
    except OSError:
        return ""
    words = first[2:].split() if first.startswith("#!") else []
    if words and Path(words[0]).name == "env":
        words = [word for word in words[1:] if not word.startswith("-")]
    if words and Path(words[0]).name.startswith("python"):
        return words[0]
    return shutil.which("python3", path=env.get("PATH")) or ""


def _without(options: list[str], pair: tuple[str, str]) -> list[str]:
    kept: list[str] = []
    skip = False
    for k, token in enumerate(options):
        if skip:
            skip = False
            continue
        if token == pair[0] and k + 1 < len(options) and options[k + 1] == pair[1]:
            skip = True
            continue
        kept.append(token)
    return kept


def _added_options(env: dict[str, str]) -> list[str]:
    """The options PYTEST_ADDOPTS adds to every pytest run, as pytest reads them (none where it cannot)."""
    try:
        return shlex.split(env.get("PYTEST_ADDOPTS", ""))
    except ValueError:
        return []


def turned_off_plugins(options: Sequence[str]) -> list[str]:
    """The plugins pytest's options turn off (`-p no:NAME`, `-pno:NAME`), which the warm pytest need not import."""
    names: list[str] = []
    for k, token in enumerate(options):
        if token == "-p":
            value = options[k + 1] if k + 1 < len(options) else ""
        else:
            value = token[2:] if token.startswith("-p") else ""
        if value.startswith("no:"):
            names.append(value[3:])
    return names


class WarmPytest(WarmServer):
    """One pytest (or unittest) process for the whole repair, started inside the sandbox, that forks a child per
    run."""

    name = "warm pytest"
    differs = "a conftest or plugin may not survive a fork"

    def __init__(self, launch: _Pytest, root: Path, workdir: Path, *, wait: bool = True) -> None:
        """Start it; unless not `wait`, until it is ready (`wait_ready`)."""
        self.launch = launch
        script = workdir / "pedro_warm_pytest.py"
        shutil.copyfile(_SERVER_SOURCE, script)
        env = {**launch.plan.command.env, "PYTHONDONTWRITEBYTECODE": "1"}
        if launch.runner == UNITTEST_RUNNER:
            self.name, self.differs = "warm unittest", "a test may not survive a fork"
            argv: tuple[str, ...] = (launch.python, "-u", str(script), UNITTEST_FLAG)
        else:
            argv = (launch.python, "-u", str(script), *turned_off_plugins([*_added_options(env), *launch.options]))
        super().__init__(ChildCommand(argv, launch.plan.command.cwd, env), root, workdir)
        self.per_test_s: float | None = None
        """Each test's own limit in every run, once the command was found to hang: a test past it fails there."""
        self.cpu_limit_s: float | None = None
        """The CPU time a repeated run may use, once the original code's run of it was measured."""
        if wait:
            self.wait_ready()

    @property
    def preloaded(self) -> int:
        """How many third-party modules it imported before its first run (-1 until it is ready)."""
        return int(self.ready.get("preloaded", 0)) if self.ready is not None else -1

    def serves(self, instrument: RunInstrument | None) -> bool:
        """Whether it can run with `instrument`: pytest takes every one (each is a pytest plugin or environment);
        unittest none, whose instruments run with the command."""
        return instrument is None or self.launch.runner != UNITTEST_RUNNER

    def run(
        self, ids: Sequence[str], *, timeout: float, instrument: RunInstrument | None = None, repeated: bool = False
    ) -> TestRun:
        """The tests `ids` in a forked child, on the code as it is on disk now; `repeated` for the run every candidate
        repeats, which the server sets up once (pytest's own set-up) for its children to start from."""
        folder = self.new_folder()
        plan = replace(self.launch.plan, label=self.launch.runner)
        prepared = instrument.prepare(plan, folder) if instrument is not None else plan
        overlay = _overlay(plan.command.env, prepared.command.env)
        if self.launch.module:
            overlay["path"] = [str(plan.command.cwd), *overlay["path"]]
        request = {
            "ids": list(ids),
            "timeout": timeout,
            "workdir": str(folder),
            "args": list(self.launch.options),
            "per_test_s": self.per_test_s,
            "repeated": repeated,
            "runner": self.launch.runner,
            # What the original code's run used bounds the same run of a candidate, not a run measured otherwise.
            "cpu_limit_s": self.cpu_limit_s if repeated and instrument is None else None,
            **overlay,
        }
        answer = self.ask(request, timeout)
        if instrument is not None:
            instrument.collect(prepared, folder)
        runner = ["python", "-m", "unittest"] if self.launch.runner == UNITTEST_RUNNER else ["pytest"]
        return warm_test_run(plan, folder, answer, timeout, shlex.join([*runner, *ids]))


def _overlay(base: Any, prepared: Any) -> dict[str, Any]:
    """What an instrument changed in the run's environment, as the server applies it in the child: variables set,
    and the folders it put before PYTHONPATH (added to sys.path, which the variable no longer changes there)."""
    env = {key: value for key, value in prepared.items() if base.get(key) != value and key != "PYTHONPATH"}
    before = set(filter(None, str(base.get("PYTHONPATH", "")).split(os.pathsep)))
    added = [entry for entry in str(prepared.get("PYTHONPATH", "")).split(os.pathsep) if entry and entry not in before]
    return {"env": env, "path": added}


class WarmStart:
    """A warm pytest started before repair needs it, while the job's baseline runs on the other core: its interpreter
    and imports are ready when the first candidate is. Taken by the repair's runs, or closed unused (the baseline
    passed, or its runner was not pytest). Started on the caller's thread, not one of its own: the sandbox ends a
    child whose starting thread ends. Under `node --test` nothing starts early: a warm node is started only where the
    command hung (`take_node`), to run its tests one by one."""

    def __init__(self, tests: ProjectTests, workdir: Path) -> None:
        self._warm: WarmRunner | None = None
        self.error = ""
        self.workdir = workdir
        self.launch = launch = pytest_launch(tests, workdir)
        self.node: NodeLaunch | None = None
        if isinstance(launch, str):
            self.error = launch
            node = node_launch(tests, workdir)
            self.node = node if isinstance(node, NodeLaunch) else None
            return
        try:
            self._warm = WarmPytest(launch, tests.ctx.root, workdir, wait=False)
        except OSError as exc:
            self.error = str(exc)

    @property
    def serves(self) -> bool:
        """Whether a warm runner can take the tests of a command that hung, one by one."""
        return self._warm is not None or self.node is not None

    def take(self) -> WarmRunner | None:
        """The started runner, once ready (None when it could not start: `error` says why); the caller owns it."""
        warm, self._warm = self._warm, None
        if warm is None:
            return None
        try:
            warm.wait_ready()
        except OSError as exc:
            self.error = str(exc)
            return None
        return warm

    def take_node(self, root: Path) -> WarmNode | None:
        """A warm node started now, for a `node --test` command that hung (None where it cannot start)."""
        if self.node is None:
            return None
        try:
            return WarmNode(self.node, root, self.workdir)
        except OSError as exc:
            self.error = str(exc)
            return None

    def give_back(self, warm: WarmRunner) -> None:
        """Hold `warm` again, after a run before repair (the tests of a command that hung), for repair to take."""
        self._warm = warm

    def close(self) -> None:
        """End the runner if nobody took it."""
        warm, self._warm = self._warm, None
        if warm is not None:
            warm.close()


WarmRunner = WarmPytest | WarmNode


@dataclass
class CandidateRuns:
    """The runs of one repair: `first` (the failing tests), `known` (every test the baseline named), `whole` (the
    command as the user gave it). Warm where pytest allows, checked against the baseline before it is trusted."""

    tests: ProjectTests
    baseline: TestRun
    notice: Notice
    workdir: Path
    warm: WarmRunner | None = None
    timeout_s: float | None = None
    """Each candidate's limit: TIMEOUT_FACTOR times the original code's first run, plus TIMEOUT_SLACK_S."""
    how: str = "the whole command"
    """How candidates run, for the record."""
    narrowed: bool = True
    # A user who names one test still wants the rest of its file kept passing, so plausible candidates run these.
    beside: tuple[str, ...] = ()
    """Tests the command leaves out that pass on the original code, in the files of the tests it names."""
    _beside_timeout_s: float | None = None
    _fell_back: bool = field(default=False, repr=False)
    early: WarmStart | None = None
    """A warm pytest started while the baseline ran, for `start` to take instead of starting its own."""

    def start(self, ids: Sequence[str], *, use_warm: bool = True) -> None:
        """Set up the fastest way that gives the baseline's verdict on `ids` for the original code: the warm pytest,
        else the command held to those tests, else the whole command; the first run's time sets the limit."""
        wanted = frozenset(ids)
        runner = self.baseline.report.runner if self.baseline.report is not None else "unknown"
        early, self.early = self.early, None
        if use_warm and runner in ("pytest", UNITTEST_RUNNER):
            launch = pytest_launch(self.tests, self.workdir) if early is None else early.launch
            if isinstance(launch, str):
                self._fall_back(launch)
            else:
                self._start_warm(launch, ids, wanted, early)
        elif use_warm and runner == NODE_RUNNER:
            self._start_warm_node(ids, wanted, early)
        elif use_warm:
            self._fall_back(f"the test runner is {runner}, not pytest, unittest or node --test")
        if early is not None:
            early.close()
        if self.warm is None:
            began = time.monotonic()
            run = self.tests.run(only=ids)
            self.narrowed = _agrees(run, self.baseline, wanted)
            elapsed = time.monotonic() - began if self.narrowed else self.baseline.result.duration_s
            self.how = "the test command held to the failing tests" if self.narrowed else "the whole test command"
            self.timeout_s = _limit(elapsed)
        self._find_beside()

    def _find_beside(self) -> None:
        """The passing tests in the files (or modules) of the tests the command names, when it names single tests."""
        containers = named_containers(self.baseline, self.tests.command)
        if not containers or (self.warm is None and not self.narrowed):
            return
        began = time.monotonic()
        if self.warm is not None:
            run = self.warm.run(containers, timeout=max(self.baseline.result.duration_s * TIMEOUT_FACTOR, 30.0))
        else:
            args = self.tests.args.model_copy(update={"timeout": self.tests.ctx.config.test_timeout})
            run = ProjectTests(args, self.tests.ctx).run(only=containers)
        report, baseline = run.report, self.baseline.report
        if report is None or baseline is None or run.result.outcome != "exited" or not report.names_tests:
            return
        named = {*baseline.passing, *self.baseline.failing}
        # Only ids inside the named files or modules can be run by name: a module's doctests, which unittest's
        # load_tests adds under the documented object's own name, cannot (naming one calls the object).
        inside = tuple(f"{container}{'::' if report.runner == 'pytest' else '.'}" for container in containers)
        self.beside = tuple(sorted(i for i in set(report.passing) - named if i.startswith(inside)))
        if self.beside:
            self._beside_timeout_s = _limit(time.monotonic() - began)
            self.how += f"; {count(len(self.beside), 'passing test')} beside them in their files guard each fix"

    def _start_warm(self, launch: _Pytest, ids: Sequence[str], wanted: frozenset[str], early: WarmStart | None) -> None:
        try:
            warm = early.take() if early is not None else WarmPytest(launch, self.tests.ctx.root, self.workdir)
        except OSError as exc:
            self._fall_back(str(exc))
            return
        if not isinstance(warm, WarmPytest):
            self._fall_back(early.error if early is not None else "it did not start")
            return
        if warm.per_test_s is not None:
            # The baseline is this pytest's own run of the command that hung: nothing to check it against, and each
            # test's own limit bounds a run of them all.
            named = self._named(ids)
            self.warm, self.timeout_s = warm, _limit(warm.per_test_s * len(named))
            self.how = f"a {warm.name}, forked per candidate, each test stopped after {warm.per_test_s:.2g} s"
            return
        self._trust(warm, ids, wanted, f"a {warm.name}, forked per candidate")

    def _start_warm_node(self, ids: Sequence[str], wanted: frozenset[str], early: WarmStart | None) -> None:
        hung = early.take() if early is not None else None
        if isinstance(hung, WarmNode) and hung.per_test_s is not None:
            # The node that ran the hung command's tests one by one, as the baseline: each test's own limit bounds a
            # run of them all.
            self.warm, self.timeout_s = hung, _limit(hung.per_test_s * len(self._named(ids)))
            self.how = f"a warm node, a worker thread per candidate, each test stopped after {hung.per_test_s:.2g} s"
            return
        if hung is not None:
            hung.close()
        launch = node_launch(self.tests, self.workdir)
        if isinstance(launch, str):
            self._fall_back(launch)
            return
        try:
            warm = WarmNode(launch, self.tests.ctx.root, self.workdir)
        except OSError as exc:
            self._fall_back(str(exc))
            return
        self._trust(warm, ids, wanted, "a warm node, a worker thread per candidate")

    def _named(self, ids: Sequence[str]) -> list[str]:
        report = self.baseline.report
        return sorted({*(report.passing if report is not None else ()), *self.baseline.failing, *ids})

    def _trust(self, warm: WarmRunner, ids: Sequence[str], wanted: frozenset[str], how: str) -> None:
        """Use `warm` once its verdicts agree with the baseline's: on every test the baseline named, so that a test
        that behaves otherwise there is caught before it can make a fix look like it broke something, and on the
        failing tests alone, whose run sets the time limit."""
        named = self._named(ids)
        try:
            budget = max(self.baseline.result.duration_s * TIMEOUT_FACTOR, 30.0)
            whole = warm.run(named, timeout=budget, repeated=list(named) == list(ids))
            run = warm.run(ids, timeout=budget, repeated=True) if set(named) != set(ids) else whole
        except OSError as exc:
            warm.close()
            self._fall_back(str(exc))
            return
        if not _agrees(whole, self.baseline, frozenset(named)) or not _agrees(run, self.baseline, wanted):
            warm.close()
            self._fall_back(f"its verdict differs from the test command's; {warm.differs}")
            return
        self.warm, self.timeout_s = warm, _limit(run.result.duration_s)
        if run.result.cpu_s is not None:
            warm.cpu_limit_s = run.result.cpu_s * TIMEOUT_FACTOR + CPU_SLACK_S
        self.how = how

    def _fall_back(self, why: str) -> None:
        if not self._fell_back:
            self._fell_back = True
            self.notice(f"repair runs each candidate with the plain test command: a warm runner cannot serve ({why})")

    def first(
        self,
        ids: Sequence[str],
        instrument: RunInstrument | None = None,
        *,
        repeated: bool = True,
        extra_s: float = 0.0,
    ) -> TestRun:
        """The tests `ids` on the code as it is now; `repeated` for the run each candidate repeats (the failing tests),
        which the warm pytest sets up once; `extra_s` for what the instrument adds."""
        if self.warm is not None and self.warm.serves(instrument):
            try:
                return self.warm.run(ids, timeout=self._timeout() + extra_s, instrument=instrument, repeated=repeated)
            except OSError as exc:
                self.close()
                self._fall_back(str(exc))
        return self._plain(ids if self.narrowed else (), instrument, self._timeout() + extra_s)

    def recorded(self, ids: Sequence[str], instrument: RunInstrument, *, limit_s: float | None = None) -> TestRun:
        """The tests `ids` once, with an instrument that records them (line coverage), on the original code: warm
        where it serves, else the test command held to them. The limit is generous, as recording slows a run, unless
        `limit_s` is given."""
        if self.warm is not None and self.warm.serves(instrument):
            timeout = limit_s or max(self.baseline.result.duration_s * TIMEOUT_FACTOR, 30.0)
            try:
                return self.warm.run(ids, timeout=timeout, instrument=instrument)
            except OSError as exc:
                self.close()
                self._fall_back(str(exc))
        return self.tests.run(instrument=instrument, only=ids, timeout=limit_s)

    def known(self, ids: Sequence[str], instrument: RunInstrument | None = None, *, extra_s: float = 0.0) -> TestRun:
        """Every test of `ids` (those the baseline named) and the tests beside them, warm where it can; else the
        whole command (with the tests beside, when it can be held to tests). `extra_s` is the time the instrument
        adds to the run (probe calls)."""
        if self.beside:
            everything = sorted({*ids, *self.beside})
            timeout = max(self._timeout(), self._beside_timeout_s or 0.0) + extra_s
            if self.warm is not None and self.warm.serves(instrument):
                try:
                    return self.warm.run(everything, timeout=timeout, instrument=instrument)
                except OSError as exc:
                    self.close()
                    self._fall_back(str(exc))
            return self._plain(everything, instrument, timeout)
        if self.warm is not None and self.warm.serves(instrument):
            return self.first(ids, instrument, repeated=False, extra_s=extra_s)
        return self._plain((), instrument, self._timeout() + extra_s)

    def whole(self, instrument: RunInstrument | None = None) -> TestRun:
        """The whole command as the user gave it, for the final check."""
        return self.tests.run(instrument=instrument)

    def probed(self, spec: ProbeSpec) -> tuple[str, ...] | None:
        """The outputs of a probe program of its own (Go, JavaScript) on the code as it is now, in the tests'
        sandbox; None when it could not run."""
        ctx = self.tests.ctx
        return probe_outputs(spec, ctx.root, ctx.env, min(ctx.config.test_timeout, PROBE_TIMEOUT_S))

    def _plain(self, ids: Sequence[str], instrument: RunInstrument | None, timeout: float | None = None) -> TestRun:
        args = self.tests.args.model_copy(update={"timeout": timeout or self._timeout()})
        return ProjectTests(args, self.tests.ctx).run(instrument=instrument, only=ids)

    def _timeout(self) -> float:
        return self.timeout_s if self.timeout_s is not None else self.tests.ctx.config.test_timeout

    def close(self) -> None:
        if self.warm is not None:
            self.warm.close()
            self.warm = None


def named_containers(baseline: TestRun, command: str) -> list[str]:
    """The test files (pytest) or modules (unittest) whose single tests the command names, e.g. `tests/test_x.py`
    for `pytest tests/test_x.py::test_y`; [] when it names whole files, or for other runners."""
    report = baseline.report
    if report is None or not report.names_tests:
        return []
    ids = {*report.passing, *baseline.failing}
    if report.runner == "pytest":
        files = {test_id.split("::")[0] for test_id in ids if "::" in test_id}
        return sorted(file for file in files if f"{file}::" in command)
    if report.runner == UNITTEST_RUNNER:
        modules = {test_id.rsplit(".", 2)[0] for test_id in ids if test_id.count(".") >= 2}
        return sorted(module for module in modules if f"{module}." in command)
    return []


def _limit(seconds: float) -> float:
    return seconds * TIMEOUT_FACTOR + TIMEOUT_SLACK_S


def _agrees(run: TestRun, baseline: TestRun, ids: frozenset[str]) -> bool:
    """Whether a run of `ids` names them all and fails exactly those of them the baseline failed."""
    if run.report is None or run.result.outcome != "exited" or not run.report.names_tests:
        return False
    named = set(run.report.passing) | run.failing
    return ids <= named and run.failing & ids == baseline.failing & ids

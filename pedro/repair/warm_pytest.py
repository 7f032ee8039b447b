"""A warm Python test runner for repair's candidates: it imports the runner (pytest and its plugins, or unittest) and
the project's third-party imports once, then forks a child per request that imports the project's own modules afresh
from disk and runs the given test ids.

A pytest request said to be `repeated` (the failing tests, which every candidate runs) gets a session of its own
prepared in this process: options parsed, conftests loaded, plugins configured, their fixtures read; a child then only
collects and runs. It is used once its verdict agrees with a child's that prepared nothing, and only while no project
module was imported to prepare it and its conftests are unchanged.

Copied into a folder of its own and run in the project's interpreter, inside the sandbox the tests run in; it imports
nothing of pedro's. Requests come as JSON lines on the stdin it started with and answers go out as JSON lines on the
stdout it started with (fd 1 is pointed at stderr and fd 0 at nothing, so that nothing a plugin prints or reads can
garble either). Its arguments are UNITTEST_FLAG for Python's own runner, else the plugins the pytest command turns off
(`-p no:NAME`), which it never imports.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import importlib
import importlib.util
import inspect
import json
import os
import re
import select
import signal
import sys
import tempfile
import time
import tokenize
from pathlib import Path
from types import CodeType
from typing import Any
from xml.etree import ElementTree

UNITTEST_FLAG = "--unittest"
"""The server's first argument when it runs Python's own runner: unittest alone is loaded, never pytest."""
_PRELOAD_SECONDS = 20.0
_PRELOAD_FILES = 2000
_SKIPPED_DIRS = {".git", ".pedro", "node_modules", ".venv", "venv", "env", "__pycache__", "build", "dist", ".tox"}
_POLL_S = 0.002


def main() -> None:
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    # The requests come on a descriptor of their own: pytest points fd 0 elsewhere while a session is prepared.
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    root = str(Path.cwd())
    started = time.monotonic()
    arguments = sys.argv[1:]
    unittest_only = arguments[:1] == [UNITTEST_FLAG]
    preloaded = _preload_unittest(root) if unittest_only else _preload(root, frozenset(arguments))
    _settle()
    _answer(answers, {"ready": True, "preloaded": preloaded, "seconds": round(time.monotonic() - started, 3)})
    server = _Server(root)
    for line in requests:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError:
            _answer(answers, {"outcome": "bad request"})
            continue
        _answer(answers, server.serve(request))
    # Every answer went out as it was written; tearing down a heap of preloaded modules would only delay the end.
    os._exit(0)


def _answer(stream: Any, answer: dict[str, Any]) -> None:
    stream.write(json.dumps(answer) + "\n")
    stream.flush()


def _preload(root: str, disabled: frozenset[str]) -> int:
    """Import pytest, the plugins the command's run loads (not those it turns off) and every third-party module the
    project imports (never the project's own)."""
    import pytest

    count = 0
    # pytest loads no installed plugin at all when told so; a plugin the command turns off costs nothing there either.
    autoload = not os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    with contextlib.suppress(Exception):
        from importlib.metadata import entry_points

        for entry in entry_points(group="pytest11") if autoload else ():
            if entry.name in disabled:
                continue
            with contextlib.suppress(Exception):
                entry.load()
                count += 1
    _rehearse(pytest, disabled)
    return count + _preload_project(root)


def _preload_unittest(root: str) -> int:
    """For Python's own runner: unittest, rehearsed, and every third-party module the project imports."""
    _rehearse_unittest()
    return _preload_project(root)


def _preload_project(root: str) -> int:
    """Import every module the project imports from elsewhere (never its own) and compile the regular expressions
    it compiles from literals."""
    count = 0
    deadline = time.monotonic() + _PRELOAD_SECONDS
    reading = _Reading().read(root)
    # The project's own package, installed as well (the last release, with the bug fixed), would answer every run.
    # Shortest first: a package before its submodules, so that a package of the project's own stops them all.
    for name in sorted(reading.imported, key=lambda dotted: (dotted.count("."), dotted)):
        if time.monotonic() > deadline:
            break
        if name in sys.modules or name.partition(".")[0] in reading.own or not _third_party(name, root):
            continue
        with contextlib.suppress(BaseException):
            importlib.import_module(name)
            count += 1
    for pattern, flags in reading.patterns:
        with contextlib.suppress(Exception):
            re.compile(pattern, flags)
    _compile_ahead(reading.sources)
    return count


_AHEAD_SECONDS = 3.0
"""The project's files are compiled ahead for this long at most (a few hundred files of a few thousand lines)."""


def _compile_ahead(sources: dict[Path, bytes]) -> None:
    """Compile the project's own files here, once. Each child imports them afresh from disk, with no bytecode cache
    to read, and would compile each again: sqlparse's tests import 22 of its files. A file whose source is, byte for
    byte, the one compiled here (every file but a candidate's own) takes this code instead."""
    from importlib.machinery import SourceFileLoader

    compiled: dict[str, tuple[bytes, CodeType]] = {}
    deadline = time.monotonic() + _AHEAD_SECONDS
    for file, data in sources.items():
        if time.monotonic() > deadline:
            break
        with contextlib.suppress(Exception):
            # As the import system compiles a source file, so that the code is the one it would make.
            compiled[str(file)] = (data, compile(data, str(file), "exec", dont_inherit=True, optimize=-1))
    original = SourceFileLoader.source_to_code

    def source_to_code(self: Any, data: bytes, path: str, *, _optimize: int = -1) -> CodeType:
        kept = compiled.get(path) if _optimize == -1 else None
        if kept is not None and kept[0] == data:
            return kept[1]
        return original(self, data, path, _optimize=_optimize)

    if compiled:
        SourceFileLoader.source_to_code = source_to_code  # type: ignore[method-assign,assignment]


_REHEARSAL = """\
def test_passes():
    assert [1, 2] == [1, 2]


def test_fails():
    assert {"a": 1} == {"a": 2}
"""


def _rehearse(pytest: Any, disabled: frozenset[str]) -> None:
    """Run a session like a candidate's, with a passing and a failing test, in a folder of its own: it configures
    every plugin (which imports what plugins import only then: hypothesis does) and fills the caches a failure report
    and the junit report need, once here instead of in every child. The project's own conftest and modules stay
    unimported, and the rehearsal's module and path entry are taken back."""
    path, modules = list(sys.path), set(sys.modules)
    with tempfile.TemporaryDirectory(prefix="pedro-warm-") as folder, contextlib.suppress(BaseException):
        Path(folder, "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        Path(folder, "test_pedro_warm_rehearsal.py").write_text(_REHEARSAL, encoding="utf-8")
        argv = ["-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit1", f"--junitxml={Path(folder, 'r.xml')}"]
        turned_off = [f"-pno:{name}" for name in sorted(disabled)]
        pytest.main([*argv, *turned_off, "--rootdir", folder, folder])
    sys.path[:] = path
    for name in set(sys.modules) - modules:
        if name.startswith("test_pedro_warm_rehearsal"):
            del sys.modules[name]


_UNITTEST_REHEARSAL = """\
import unittest


class Rehearsal(unittest.TestCase):
    def test_passes(self):
        self.assertEqual([1, 2], [1, 2])

    def test_fails(self):
        self.assertEqual({"a": 1}, {"a": 2})
"""


def _rehearse_unittest() -> None:
    """Run a program like a candidate's, with a passing and a failing test, in a folder of its own: what a failure's
    account needs (the diff, the traceback's source lines) is loaded once here. Its module and path entry are taken
    back."""
    import io
    import unittest

    path = list(sys.path)
    with tempfile.TemporaryDirectory(prefix="pedro-warm-") as folder, contextlib.suppress(BaseException):
        Path(folder, "pedro_warm_rehearsal.py").write_text(_UNITTEST_REHEARSAL, encoding="utf-8")
        sys.path.insert(0, folder)
        runner = unittest.TextTestRunner(stream=io.StringIO(), verbosity=2)
        unittest.main(module=None, argv=["python -m unittest", "pedro_warm_rehearsal"], exit=False, testRunner=runner)
    sys.path[:] = path
    sys.modules.pop("pedro_warm_rehearsal", None)


def _settle() -> None:
    """Leave the children as little to redo as the parent can: what every child would otherwise pay again."""
    # pytest's failure reports ask `inspect` which module holds a file, which maps every loaded module's file the
    # first time; mapped here once, a child maps only the modules it imports itself.
    with contextlib.suppress(Exception):
        inspect.getmodule(compile("", "<warm>", "exec"))
    # pytest collects garbage several times as it ends; without this each collection walks the parent's whole heap.
    gc.collect()
    gc.freeze()


class _Reading:
    """What the project's Python files say a child will need: the modules they import (by their whole dotted names:
    a submodule, `html.parser`, that the parent has not imported is compiled from its source in every child, whose
    bytecode cache is a folder of its own), the top-level names the project provides itself (its packages and
    modules, which a copy installed under the same name must not stand in for), and the regular expressions they
    compile from literals (each child would compile them again as it imports the project's modules)."""

    def __init__(self) -> None:
        self.imported: set[str] = set()
        self.own: set[str] = set()
        self.patterns: dict[tuple[str | bytes, int], None] = {}
        self.sources: dict[Path, bytes] = {}
        """Each file read, with its source: compiled ahead once the imports are loaded."""

    def read(self, root: str) -> _Reading:
        seen = 0
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in _SKIPPED_DIRS and not d.startswith(".")]
            if "__init__.py" not in files:
                self.own.update(file[:-3] for file in files if file.endswith(".py"))
            elif not Path(folder).parent.joinpath("__init__.py").exists():
                self.own.add(Path(folder).name)
            for file in files:
                if not file.endswith(".py"):
                    continue
                seen += 1
                if seen > _PRELOAD_FILES:
                    return self
                self._read_file(Path(folder, file))
        return self

    def _read_file(self, file: Path) -> None:
        try:
            self.sources[file] = file.read_bytes()
            tree = ast.parse(self.sources[file])
        except (OSError, ValueError, SyntaxError, RecursionError):
            return
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                self.imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                self.imported.add(node.module)
                # What `from a import b` takes may be a submodule; a name that is none is passed over as it is tried.
                self.imported.update(f"{node.module}.{alias.name}" for alias in node.names if alias.name != "*")
            elif isinstance(node, ast.Call) and len(self.patterns) < _PATTERNS and (found := _compiled_literal(node)):
                self.patterns[found] = None


_PATTERNS = 256
"""At most this many patterns are compiled ahead: the `re` module keeps the last 512 it compiled."""


def _compiled_literal(call: ast.Call) -> tuple[str | bytes, int] | None:
    """The pattern and flags of `re.compile(LITERAL[, FLAGS])`, flags written as `re` names joined by `|`."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "compile" and isinstance(func.value, ast.Name)):
        return None
    if func.value.id != "re" or not call.args or not isinstance(call.args[0], ast.Constant):
        return None
    pattern = call.args[0].value
    given = call.args[1:2] or [keyword.value for keyword in call.keywords if keyword.arg == "flags"]
    flags = _flags(given[0]) if given else 0
    return (pattern, flags) if isinstance(pattern, str | bytes) and flags is not None else None


def _flags(node: ast.expr) -> int | None:
    """The value of a flags expression of `re`'s own names and `|`; None for anything else."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _flags(node.left), _flags(node.right)
        return None if left is None or right is None else left | right
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
        flag = getattr(re, node.attr, None)
        return int(flag) if isinstance(flag, re.RegexFlag) else None
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _third_party(name: str, root: str) -> bool:
    """Whether the module `name` is installed outside the project (the standard library or site-packages); finding a
    submodule imports its package."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    if spec is None:
        return False
    origin = spec.origin or (list(spec.submodule_search_locations or [""])[0])
    if not origin or origin in ("built-in", "frozen"):
        return True
    inside = os.path.realpath(origin).startswith(os.path.realpath(root) + os.sep)
    return not inside or "site-packages" in origin


class _Prepared:
    """A pytest session set up in this process for one shape of request, which each child only collects and runs."""

    def __init__(self, shape: str, config: Any, session: Any, conftests: dict[str, tuple[int, int]], report: Path):
        self.shape = shape
        self.config = config
        self.session = session
        self.conftests = conftests
        """The project's conftest files loaded to prepare it, with what they were then (mtime, size)."""
        self.report = report
        """Where the session's junit report is written, for the child to move into its own folder."""

    def current(self) -> bool:
        """Whether every conftest it loaded is still as it was."""
        return all(_stamp(path) == stamp for path, stamp in self.conftests.items())


class _Server:
    """The requests of one repair, each served by a child: through a prepared session for the run said to repeat."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.refused: set[str] = set()
        self.prepared: _Prepared | None = None

    def serve(self, request: dict[str, Any]) -> dict[str, Any]:
        shape = _shape(request)
        prepared = self.prepared
        if prepared is not None and prepared.shape == shape:
            if prepared.current():
                answer = _run(request, prepared)
                if answer.get("exit_code") not in _PREPARED_DOUBT:
                    return answer
            self._drop(refuse=True)
        elif request.get("repeated") and shape is not None and shape not in self.refused:
            self._drop(refuse=False)
            return self._prepare(shape, request)
        return _run(request, None)

    def _prepare(self, shape: str, request: dict[str, Any]) -> dict[str, Any]:
        """Prepare a session for `shape` and run the request both ways: the prepared session is kept only when its
        verdict is the one a child that prepared nothing gives; that child's answer is the one returned."""
        self.prepared = _prepare_session(shape, request, self.root)
        if self.prepared is None:
            self.refused.add(shape)
            return _run(request, None)
        trial = _run(request, self.prepared)
        verdict = _verdict(trial, Path(str(request["workdir"])))
        answer = _run(request, None)
        if verdict != _verdict(answer, Path(str(request["workdir"]))):
            self._drop(refuse=True)
        return answer

    def _drop(self, *, refuse: bool) -> None:
        prepared, self.prepared = self.prepared, None
        if prepared is None:
            return
        if refuse:
            self.refused.add(prepared.shape)
        with contextlib.suppress(BaseException):
            prepared.config._ensure_unconfigure()
        _forget(set(prepared.conftests))


# A prepared session's child that ends with an internal or usage error is not trusted: the request runs again plainly.
_PREPARED_DOUBT = (3, 4)


def _shape(request: dict[str, Any]) -> str | None:
    """What makes two requests the same session; None for one that sets variables (an instrument's), never prepared."""
    if request.get("env") or request.get("runner") == "unittest":
        return None
    return json.dumps([request.get("ids"), request.get("args"), request.get("path"), request.get("per_test_s")])


def _verdict(answer: dict[str, Any], workdir: Path) -> tuple[Any, ...]:
    """How a run ended and each test's outcome in its junit report, to compare two runs of the same tests."""
    tests: set[tuple[str, str, str]] = set()
    with contextlib.suppress(Exception):
        for case in ElementTree.parse(workdir / "report.xml").iter("testcase"):
            outcome = next((child.tag for child in case if child.tag in _OUTCOMES), "passed")
            tests.add((case.get("classname", ""), case.get("name", ""), outcome))
    return (answer["outcome"], answer.get("exit_code"), frozenset(tests))


_OUTCOMES = ("failure", "error", "skipped")


def _argv(request: dict[str, Any], report: Path) -> list[str]:
    argv = ["-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit1", f"--junitxml={report}"]
    # The plugins this process imported before pytest could mark them for assert rewriting warn so in every child;
    # a project's `filterwarnings = error` makes that an error, and the child ends before any test runs.
    argv += ["-W", f"ignore:{_ALREADY_IMPORTED}:pytest.PytestAssertRewriteWarning"]
    return [*argv, *list(request.get("args") or []), "--", *[str(test) for test in request["ids"]]]


_ALREADY_IMPORTED = "Module already imported so cannot be rewritten"


def _plugins(request: dict[str, Any]) -> list[object]:
    per_test = request.get("per_test_s")
    return [_hang_guard(float(per_test))] if per_test else []


def _prepare_session(shape: str, request: dict[str, Any], root: str) -> _Prepared | None:
    """Parse the options, load the conftests, configure the plugins and read their fixtures here, as `pytest.main`
    would in each child; None (and everything it loaded forgotten) where that imported a project module, or where
    pytest's internals are not the ones this relies on."""
    import pytest
    from _pytest import fixtures
    from _pytest.config import _prepareconfig

    modules, path = set(sys.modules), list(sys.path)
    sys.path[:0] = [str(entry) for entry in request.get("path") or []]
    report = Path(str(request["workdir"])).parent / "prepared-report.xml"
    config = None
    try:
        config = _prepareconfig(_argv(request, report), _plugins(request))
        loaded = _inside(root, set(sys.modules) - modules)
        if any(Path(file).name != "conftest.py" for file in loaded.values()) or _captured_fds(config) is None:
            raise LookupError("a project module was imported, or the capture is not one this can point elsewhere")
        session = pytest.Session.from_config(config)
        config._do_configure()
        fixtures.pytest_sessionstart(session)
        files = [str(test).split("::")[0] for test in request["ids"]]
        _remember_rewrites(config, files)
        _remember_statements([Path(config.rootpath, file) for file in dict.fromkeys(files)])
    except BaseException:  # noqa: BLE001 (what cannot be prepared runs as every child runs it)
        if config is not None:
            with contextlib.suppress(BaseException):
                config._ensure_unconfigure()
        _forget(set(_inside(root, set(sys.modules) - modules).values()))
        sys.path[:] = path
        return None
    sys.stdout.flush()
    sys.stderr.flush()
    _settle()
    return _Prepared(shape, config, session, {file: _stamp(file) for file in loaded.values()}, report)


def _remember_rewrites(config: Any, files: list[str]) -> None:
    """Rewrite the asserts of the test files `files` here, once: a child whose test file still reads the same takes
    the rewritten code instead of parsing and compiling it again (a long test module costs a tenth of a second)."""
    from _pytest.assertion import rewrite

    original = rewrite._rewrite_test
    kept: dict[str, tuple[bytes, Any]] = {}
    for file in dict.fromkeys(files):
        path = Path(config.rootpath, file)
        with contextlib.suppress(Exception):
            kept[os.path.realpath(path)] = (path.read_bytes(), original(path, config))

    def rewrite_test(fn: Path, config: Any) -> Any:
        source, code = kept.get(os.path.realpath(fn), (None, None))
        if source is not None and Path(fn).read_bytes() == source:
            return code
        return original(fn, config)

    if kept:
        rewrite._rewrite_test = rewrite_test


def _remember_statements(files: list[Path]) -> None:
    """Parse the test files `files` here, once: a failure's report parses the whole file of each entry of its
    traceback to find the statement around the entry's line (about a tenth of a failing child's time); a child
    whose test file still reads the same takes this parse instead."""
    from _pytest._code import code, source

    original = getattr(source.getstatementrange_ast, "__wrapped__", source.getstatementrange_ast)
    memoize = getattr(source, "_statement_linenos", None)  # pytest ≥ 9 keeps the statements' lines on the tree
    parsed: dict[str, ast.AST] = {}
    for path in files:
        with contextlib.suppress(Exception), tokenize.open(path) as handle:
            # The text the report parses: the file's lines as `inspect` reads them, each stripped at its end.
            text = "\n".join(line.rstrip() for line in handle)
            tree = ast.parse(text, "source", "exec")
            if memoize is not None:
                memoize(tree)
            parsed[text] = tree

    def statement_range(
        lineno: int, found: source.Source, assertion: bool = False, astnode: ast.AST | None = None
    ) -> tuple[ast.AST, int, int]:
        return original(lineno, found, assertion, astnode if astnode is not None else parsed.get(str(found)))

    if parsed:
        statement_range.__wrapped__ = original  # type: ignore[attr-defined]
        # Both names: the report's code imported the function from its module.
        for module in (source, code):
            vars(module)["getstatementrange_ast"] = statement_range


def _captured_fds(config: Any) -> list[Any] | None:
    """The file-descriptor captures pytest holds for the session, each with the descriptor it restores after a test
    (which a child points at its own log); None when the capture is by descriptor but not of a kind this knows."""
    capman = config.pluginmanager.get_plugin("capturemanager")
    captures = getattr(capman, "_global_capturing", None) if capman is not None else None
    found = [capture for capture in (getattr(captures, name, None) for name in ("in_", "out", "err")) if capture]
    held = [capture for capture in found if hasattr(capture, "targetfd_save") and hasattr(capture, "tmpfile")]
    if getattr(config.option, "capture", "fd") == "fd" and (not found or len(held) != len(found)):
        return None
    return held


def _inside(root: str, names: set[str]) -> dict[str, str]:
    """Of the modules `names`, those whose file is in the project (not an installed package): name → file."""
    prefix = os.path.realpath(root) + os.sep
    found = {}
    for name in names:
        file = getattr(sys.modules.get(name), "__file__", None)
        if file and os.path.realpath(file).startswith(prefix) and "site-packages" not in file:
            found[name] = file
    return found


def _forget(files: set[str]) -> None:
    """Take the modules loaded from `files` out of sys.modules, so that a later session imports them afresh."""
    for name, module in list(sys.modules.items()):
        if getattr(module, "__file__", None) in files:
            del sys.modules[name]


def _stamp(file: str) -> tuple[int, int]:
    try:
        status = Path(file).stat()
    except OSError:
        return (-1, -1)
    return (status.st_mtime_ns, status.st_size)


def _run(request: dict[str, Any], prepared: _Prepared | None) -> dict[str, Any]:
    """Fork a child that runs the request's test ids; wait for it within the request's timeout. A child past its CPU
    limit is ended by the system (SIGPROF) and answered as one past its time."""
    workdir = str(request["workdir"])
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(request, workdir, prepared)
    deadline = started + float(request.get("timeout", 60.0))
    ended = _wait(pid, deadline)
    if ended is None:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
        _, _, usage = os.wait4(pid, 0)
        return {"outcome": "timeout", "exit_code": None, **_spent(started, usage)}
    status, usage = ended
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)  # whatever the tests left running in the child's group
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGPROF and request.get("cpu_limit_s"):
        return {"outcome": "timeout", "exit_code": None, **_spent(started, usage)}
    if os.WIFSIGNALED(status):
        return {"outcome": "signal", "exit_code": -os.WTERMSIG(status), **_spent(started, usage)}
    return {"outcome": "exited", "exit_code": os.WEXITSTATUS(status), **_spent(started, usage)}


def _spent(started: float, usage: Any) -> dict[str, float]:
    """The seconds a child took and the CPU time it used."""
    return {"seconds": round(time.monotonic() - started, 3), "cpu_s": round(usage.ru_utime + usage.ru_stime, 3)}


def _wait(pid: int, deadline: float) -> tuple[int, Any] | None:
    """The child's exit status and resource use, or None once `deadline` passed; woken as it ends where the system
    says so (a pidfd), else by polling."""
    watch = None
    with contextlib.suppress(AttributeError, OSError):
        watch = os.pidfd_open(pid)
    try:
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                return status, usage
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if watch is not None:
                select.select([watch], [], [], left)
            else:
                time.sleep(min(_POLL_S, left))
    finally:
        if watch is not None:
            os.close(watch)


def _child(request: dict[str, Any], workdir: str, prepared: _Prepared | None) -> None:
    """In the forked child: the project's modules from disk, a bytecode cache of its own, the ids run by pytest."""
    code = 70
    try:
        cpu_limit = request.get("cpu_limit_s")
        if cpu_limit:
            # The system ends the child once it has used this much CPU (SIGPROF's default action), even inside C code;
            # a child slowed by a busy machine uses no more CPU than on a quiet one.
            signal.signal(signal.SIGPROF, signal.SIG_DFL)
            signal.setitimer(signal.ITIMER_PROF, float(cpu_limit))
        os.setpgid(0, 0)
        log = os.open(Path(workdir, "output.log"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(log, 1)
        os.dup2(log, 2)
        quiet = os.open(os.devnull, os.O_RDONLY)
        # No bytecode from an earlier candidate (or written by one) can be read: a cache folder of this child's own.
        sys.pycache_prefix = tempfile.mkdtemp(prefix="pycache-", dir=workdir)
        sys.dont_write_bytecode = True
        importlib.invalidate_caches()
        if prepared is not None:
            code = _run_prepared(prepared, Path(workdir), log, quiet)
        else:
            os.environ.update({str(k): str(v) for k, v in dict(request.get("env") or {}).items()})
            sys.path[:0] = [str(entry) for entry in request.get("path") or []]
            code = _run_unittest(request) if request.get("runner") == "unittest" else _run_pytest(request, workdir)
    except BaseException:  # noqa: BLE001 (a child that cannot run says so by its exit status)
        code = 70
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _run_pytest(request: dict[str, Any], workdir: str) -> int:
    """pytest's own main on the request's ids, with its options and its report in `workdir`."""
    import pytest
    from _pytest.assertion.rewrite import AssertionRewritingHook

    # A session prepared in the server left its assert rewriting on the import path; this run's own options say
    # whether asserts are rewritten (an instrument's run asks for plain ones).
    sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, AssertionRewritingHook)]
    return int(pytest.main(_argv(request, Path(workdir, "report.xml")), plugins=_plugins(request)))


def _run_prepared(prepared: _Prepared, workdir: Path, log: int, quiet: int) -> int:
    """The prepared session, run by pytest's own session loop: the session, the configuring and the fixtures read in
    the server are the ones it finds, and each other plugin starts its session here."""
    import pytest
    from _pytest import fixtures

    config, session = prepared.config, prepared.session
    with contextlib.suppress(FileNotFoundError):
        prepared.report.unlink()
    for capture in _captured_fds(config) or []:
        # What pytest restores after each test is this child's log (or nothing to read), not the server's; what an
        # earlier child left captured is not this one's.
        os.dup2(quiet if capture.targetfd == 0 else log, capture.targetfd_save)
        with contextlib.suppress(Exception):
            capture.tmpfile.seek(0)
            capture.tmpfile.truncate()
    # pytest's own session loop, handed what the server prepared: this child's copy of it, changed only here.
    session_type: Any = pytest.Session
    session_type.from_config = lambda _config: session
    config._do_configure = lambda: None
    hooks = config.pluginmanager
    hooks.hook.pytest_sessionstart = hooks.subset_hook_caller("pytest_sessionstart", remove_plugins=[fixtures])
    try:
        code = int(config.hook.pytest_cmdline_main(config=config))
    finally:
        config._ensure_unconfigure()
    # Copied, not moved: a sandbox may forbid moving a file between folders (Landlock without the right to refer).
    with contextlib.suppress(OSError):
        (workdir / "report.xml").write_bytes(prepared.report.read_bytes())
    return code


def _run_unittest(request: dict[str, Any]) -> int:
    """unittest's own program on the request's ids (none: its discovery, as `python -m unittest` does), its account
    on stderr, which is this child's log; its exit status, as the program gives it."""
    import unittest

    argv = ["python -m unittest", *list(request.get("args") or []), *[str(test) for test in request["ids"]]]
    try:
        unittest.main(module=None, argv=argv, testRunner=_unittest_runner(request.get("per_test_s")))
    except SystemExit as stop:
        return int(stop.code) if isinstance(stop.code, int) else 1
    finally:
        with contextlib.suppress(BaseException):
            sys.stderr.flush()
    return 0


def _unittest_runner(per_test_s: float | None) -> type:
    """unittest's text runner, each test stopped at `per_test_s` where it is given (as the pytest plugin below)."""
    import unittest

    seconds = float(per_test_s or 0)

    def stop(signum: int, frame: Any) -> None:
        raise TestHung(f"the test still ran after {seconds:g} s, so it was stopped here")

    class Result(unittest.TextTestResult):
        def startTest(self, test: Any) -> None:  # noqa: N802 (unittest's name)
            super().startTest(test)
            if seconds:
                signal.signal(signal.SIGALRM, stop)
                signal.setitimer(signal.ITIMER_REAL, seconds)

        def stopTest(self, test: Any) -> None:  # noqa: N802 (unittest's name)
            if seconds:
                signal.setitimer(signal.ITIMER_REAL, 0)
            super().stopTest(test)

    class Runner(unittest.TextTestRunner):
        resultclass = Result  # type: ignore[assignment]  # a TextTestResult, as the runner's own

    return Runner


class TestHung(Exception):  # noqa: N818 (the name a person reads in the failure: the test hung)
    """Raised inside a test that ran past its limit, where it was: the traceback shows the loop or the wait."""


def _hang_guard(seconds: float) -> object:
    """A pytest plugin that stops each test's call at `seconds`: a test that loops or waits forever fails there,
    with its traceback, and the tests after it still run."""
    import pytest

    def stop(signum: int, frame: Any) -> None:
        raise TestHung(f"the test still ran after {seconds:g} s, so it was stopped here")

    class HangGuard:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(self, item: Any) -> Any:
            previous = signal.signal(signal.SIGALRM, stop)
            signal.setitimer(signal.ITIMER_REAL, seconds)
            try:
                yield
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)

    return HangGuard()


if __name__ == "__main__":
    main()

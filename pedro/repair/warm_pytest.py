"""A warm pytest for repair's candidates: it imports pytest, its plugins and the project's third-party imports once,
then forks a child per request that imports the project's own modules afresh from disk and runs the given test ids.

Copied into a folder of its own and run in the project's interpreter, inside the sandbox the tests run in; it imports
nothing of pedro's. Requests come as JSON lines on stdin and answers go out as JSON lines on the stdout it started
with (fd 1 is pointed at stderr, so that nothing a plugin prints can garble an answer).
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
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_PRELOAD_SECONDS = 20.0
_PRELOAD_FILES = 2000
_SKIPPED_DIRS = {".git", ".pedro", "node_modules", ".venv", "venv", "env", "__pycache__", "build", "dist", ".tox"}
_POLL_S = 0.002


def main() -> None:
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    root = str(Path.cwd())
    started = time.monotonic()
    preloaded = _preload(root)
    _settle()
    _answer(answers, {"ready": True, "preloaded": preloaded, "seconds": round(time.monotonic() - started, 3)})
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError:
            _answer(answers, {"outcome": "bad request"})
            continue
        _answer(answers, _run(request))


def _answer(stream: Any, answer: dict[str, Any]) -> None:
    stream.write(json.dumps(answer) + "\n")
    stream.flush()


def _preload(root: str) -> int:
    """Import pytest, its plugins and every third-party module the project imports (never the project's own)."""
    import pytest

    count = 0
    with contextlib.suppress(Exception):
        from importlib.metadata import entry_points

        for entry in entry_points(group="pytest11"):
            with contextlib.suppress(Exception):
                entry.load()
                count += 1
    _rehearse(pytest)
    deadline = time.monotonic() + _PRELOAD_SECONDS
    for name in sorted(_imported_names(root)):
        if time.monotonic() > deadline:
            break
        if name in sys.modules or not _third_party(name, root):
            continue
        with contextlib.suppress(BaseException):
            importlib.import_module(name)
            count += 1
    return count


_REHEARSAL = """\
def test_passes():
    assert [1, 2] == [1, 2]


def test_fails():
    assert {"a": 1} == {"a": 2}
"""


def _rehearse(pytest: Any) -> None:
    """Run a session like a candidate's, with a passing and a failing test, in a folder of its own: it configures
    every plugin (which imports what plugins import only then: hypothesis does) and fills the caches a failure report
    and the junit report need, once here instead of in every child. The project's own conftest and modules stay
    unimported, and the rehearsal's module and path entry are taken back."""
    path, modules = list(sys.path), set(sys.modules)
    with tempfile.TemporaryDirectory(prefix="pedro-warm-") as folder, contextlib.suppress(BaseException):
        Path(folder, "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        Path(folder, "test_pedro_warm_rehearsal.py").write_text(_REHEARSAL, encoding="utf-8")
        argv = ["-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit1", f"--junitxml={Path(folder, 'r.xml')}"]
        pytest.main([*argv, "--rootdir", folder, folder])
    sys.path[:] = path
    for name in set(sys.modules) - modules:
        if name.startswith("test_pedro_warm_rehearsal"):
            del sys.modules[name]


def _settle() -> None:
    """Leave the children as little to redo as the parent can: what every child would otherwise pay again."""
    # pytest's failure reports ask `inspect` which module holds a file, which maps every loaded module's file the
    # first time; mapped here once, a child maps only the modules it imports itself.
    with contextlib.suppress(Exception):
        inspect.getmodule(compile("", "<warm>", "exec"))
    # pytest collects garbage several times as it ends; without this each collection walks the parent's whole heap.
    gc.collect()
    gc.freeze()


def _imported_names(root: str) -> set[str]:
    """The top-level module names the project's Python files import."""
    names: set[str] = set()
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _SKIPPED_DIRS and not d.startswith(".")]
        for file in files:
            if not file.endswith(".py"):
                continue
            seen += 1
            if seen > _PRELOAD_FILES:
                return names
            try:
                tree = ast.parse(Path(folder, file).read_text(encoding="utf-8"))
            except (OSError, ValueError, SyntaxError, RecursionError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names.add(node.module.split(".")[0])
    return names


def _third_party(name: str, root: str) -> bool:
    """Whether `name` is installed outside the project (the standard library or site-packages)."""
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


def _run(request: dict[str, Any]) -> dict[str, Any]:
    """Fork a child that runs the request's test ids; wait for it within the request's timeout."""
    workdir = str(request["workdir"])
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(request, workdir)
    deadline = started + float(request.get("timeout", 60.0))
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return {"outcome": "timeout", "exit_code": None, "seconds": round(time.monotonic() - started, 3)}
        time.sleep(_POLL_S)
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)  # whatever the tests left running in the child's group
    seconds = round(time.monotonic() - started, 3)
    if os.WIFSIGNALED(status):
        return {"outcome": "signal", "exit_code": -os.WTERMSIG(status), "seconds": seconds}
    return {"outcome": "exited", "exit_code": os.WEXITSTATUS(status), "seconds": seconds}


def _child(request: dict[str, Any], workdir: str) -> None:
    """In the forked child: the project's modules from disk, a bytecode cache of its own, the ids run by pytest."""
    code = 70
    try:
        os.setpgid(0, 0)
        log = os.open(Path(workdir, "output.log"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.environ.update({str(k): str(v) for k, v in dict(request.get("env") or {}).items()})
        sys.path[:0] = [str(entry) for entry in request.get("path") or []]
        # No bytecode from an earlier candidate (or written by one) can be read: a cache folder of this child's own.
        sys.pycache_prefix = tempfile.mkdtemp(prefix="pycache-", dir=workdir)
        sys.dont_write_bytecode = True
        importlib.invalidate_caches()
        import pytest

        argv = ["-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit1"]
        argv += [f"--junitxml={Path(workdir, 'report.xml')}", *list(request.get("args") or [])]
        per_test = request.get("per_test_s")
        plugins = [_hang_guard(float(per_test))] if per_test else []
        code = int(pytest.main([*argv, "--", *[str(test) for test in request["ids"]]], plugins=plugins))
    except BaseException:  # noqa: BLE001 (a child that cannot run says so by its exit status)
        code = 70
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


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

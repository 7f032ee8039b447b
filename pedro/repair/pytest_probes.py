"""A pytest plugin pedro loads into a candidate's own test run (-p) to call the repaired function on extra inputs."""

# Copied into a folder on the run's PYTHONPATH; it imports nothing of pedro's, since it runs in the project's
# interpreter, inside the sandbox the tests run in. It runs after the tests, so it never changes their outcome, and
# every failure of its own is recorded as data, never raised.

from __future__ import annotations

import ast
import asyncio
import copy
import importlib
import inspect
import io
import itertools
import json
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_MAX_REPR = 200
_MAX_ITEMS = 20
SECONDS_PER_CALL = 1.0
"""Each probe call's limit; a run that calls them has as much more time per call (ProbeRecorder.allowance_s)."""


class _Slow(Exception):
    pass


def _stop(signum: int, frame: Any) -> None:
    raise _Slow


def _shown(value: Any) -> str:
    """A result as probes compare it: its repr, or for an iterator (a generator, a map) the items it gives, at most
    _MAX_ITEMS of them: its repr says only where it lives (calls/py_calls.py reads results the same way)."""
    if inspect.iscoroutine(value):
        # An async function's call: the value it gives once run (its coroutine's repr says only where it lives).
        return _shown(asyncio.run(value))
    if isinstance(value, Iterator) and not isinstance(value, io.IOBase):
        items = list(itertools.islice(value, _MAX_ITEMS + 1))
        more = ", ..." if len(items) > _MAX_ITEMS else ""
        return f"iter({items[:_MAX_ITEMS]!r}{more})"
    return repr(value)


def _call(function: Any, args: list[Any], kwargs: dict[str, Any], seconds: float) -> str:
    """What one call gives: its result as _shown reads it, or the name of the exception it raised."""
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return "= " + _shown(function(*copy.deepcopy(args), **copy.deepcopy(kwargs)))[:_MAX_REPR]
    except _Slow:
        return "! too slow"
    except BaseException as exc:  # noqa: BLE001 (a probe's failure is its answer)
        return f"! {type(exc).__name__}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _calls(function: Any, spec: dict[str, Any]) -> list[str]:
    """Each input's output; once a call ran too long, each later one's limit and the calls' whole time are the
    spec's `after_slow` (pedro's calls/run.py AFTER_SLOW): a function that hangs on one input hangs on others.

    The neighbours' limit is the same from the start once the tests' own calls (the spec's first `pinned`) all
    ended: they say how long a call of the function takes, and a neighbour that takes `factor` times longer hangs
    (a count of 1 or 0 where a loop divides by it). Waiting the whole limit for it cost a second per candidate."""
    outputs: list[str] = []
    limit, slowest = SECONDS_PER_CALL, 0.0
    after = spec.get("after_slow") or {}
    pinned = int(spec.get("pinned", 0))
    started = time.monotonic()
    for index, call in enumerate(spec["inputs"]):
        args, kwargs = ast.literal_eval(call)
        began = time.monotonic()
        if after and began - started > float(after["total_s"]):
            outputs.append("! too slow")
            continue
        if after and pinned and index == pinned and "! too slow" not in outputs:
            limit = _after(after, limit, slowest)
        outputs.append(_call(function, list(args), dict(kwargs), limit))
        if outputs[-1] != "! too slow":
            slowest = max(slowest, time.monotonic() - began)
        elif after:
            limit = _after(after, limit, slowest)
    return outputs


def _after(after: dict[str, Any], limit: float, slowest: float) -> float:
    """A call's limit once the calls before it say how long one takes: `factor` times the slowest, at least
    `floor_s`, never more than the limit before."""
    return min(limit, max(float(after["floor_s"]), float(after["factor"]) * slowest))


def _on_new_object(cls: Any, method: str, made_with: int, called: bool) -> Any:
    """A function of a probe's flat arguments: the object made of the first `made_with` and the keywords, then its
    method called with the rest (or its property read)."""

    def use(*args: Any, **kwargs: Any) -> Any:
        found = getattr(cls(*args[:made_with], **kwargs), method)
        return found(*args[made_with:]) if called else found

    return use


@contextmanager
def _scratch_folder(parent: Path) -> Iterator[None]:
    """The probes' working directory: a new folder, removed after them. A function that writes the file it is named
    (`save(rows, "out.txt")`) writes it there on the probes' neighbours of that name, never into the repository, whose
    files the job's commit takes."""
    here = Path.cwd()
    folder = tempfile.mkdtemp(prefix="probes-", dir=parent)
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(here)
        shutil.rmtree(folder, ignore_errors=True)


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    spec_file, out_file = os.environ.get("PEDRO_PROBE_SPEC"), os.environ.get("PEDRO_PROBE_OUT")
    if not spec_file or not out_file or hasattr(session.config, "workerinput"):
        return
    try:
        with open(spec_file, encoding="utf-8") as file:
            spec = json.load(file)
        function: Any = importlib.import_module(spec["module"])
        for part in spec["function"].split("."):
            function = getattr(function, part)
        if spec.get("method"):
            function = _on_new_object(function, spec["method"], int(spec["made_with"]), bool(spec["called"]))
    except BaseException as exc:  # noqa: BLE001
        outputs = [f"! cannot load: {type(exc).__name__}"]
    else:
        previous = signal.signal(signal.SIGALRM, _stop)
        try:
            with _scratch_folder(Path(out_file).parent):
                outputs = _calls(function, spec)
        finally:
            signal.signal(signal.SIGALRM, previous)
    with open(out_file, "w", encoding="utf-8") as file:
        json.dump(outputs, file)

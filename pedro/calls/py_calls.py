"""Run in the project's interpreter, inside the sandbox: import the changed module and make the build's calls."""

# Imports nothing of pedro's. Every call's outcome is recorded as data (its value, whether it equals the expected
# one, or what it raised), never raised; a call that runs too long is stopped. The results go to a file, since the
# project's code may print.

from __future__ import annotations

import asyncio
import importlib
import inspect
import io
import itertools
import json
import math
import signal
import sys
import time
from collections.abc import Iterator
from typing import Any

_MAX_REPR = 300
_MAX_ITEMS = 20


class _Slow(Exception):
    pass


def _stop(signum: int, frame: Any) -> None:
    raise _Slow


def _equal(value: Any, want: Any) -> bool:
    if isinstance(value, float) and isinstance(want, int | float) and not isinstance(want, bool):
        return math.isclose(value, want, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(value, bool) or isinstance(want, bool):
        return type(value) is type(want) and value == want
    try:
        return bool(value == want)
    except Exception:  # noqa: BLE001
        return False


def _shown(value: Any) -> str:
    """A result as it is reported: its repr, or for an iterator (a generator, a map) the items it gives, at most
    _MAX_ITEMS of them: its repr says only where it lives (repair/pytest_probes.py reads results the same way)."""
    if inspect.iscoroutine(value):
        # An async function's call: the value it gives once run (its coroutine's repr says only where it lives).
        return _shown(asyncio.run(value))
    if isinstance(value, Iterator) and not isinstance(value, io.IOBase):
        items = list(itertools.islice(value, _MAX_ITEMS + 1))
        more = ", ..." if len(items) > _MAX_ITEMS else ""
        return f"iter({items[:_MAX_ITEMS]!r}{more})"
    return repr(value)


def _one(item: dict[str, Any], scope: dict[str, Any], seconds: float) -> dict[str, Any]:
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        value = eval(item["call"], scope)  # noqa: S307 (the project's own code, in the sandbox)
        shown = _shown(value)  # an iterator's items are made here, under the call's limit
    except _Slow:
        return {"raised": "too slow", "said": f"ran longer than {seconds:g} s"}
    except BaseException as exc:  # noqa: BLE001
        return {"raised": type(exc).__name__, "said": str(exc)[:_MAX_REPR]}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    entry: dict[str, Any] = {"value": shown[:_MAX_REPR]}
    if item.get("expected"):
        try:
            want = eval(item["expected"], scope)  # noqa: S307
        except BaseException as exc:  # noqa: BLE001
            entry["equal"] = None
            entry["said"] = f"the expected value {item['expected']} cannot be read: {type(exc).__name__}"
        else:
            entry["equal"] = _equal(value, want)
    return entry


def _all(spec: dict[str, Any], scope: dict[str, Any]) -> list[dict[str, Any]]:
    """Each call's result; once a call ran too long, or the spec's first `pinned` calls all ended, each later one's
    limit and the calls' whole time are the spec's `after_slow` (run.py's AFTER_SLOW): a function that hangs on one
    input hangs on others."""
    results: list[dict[str, Any]] = []
    limit, slowest = float(spec["seconds"]), 0.0
    after = spec.get("after_slow") or {}
    pinned = int(spec.get("pinned", 0))
    started = time.monotonic()
    for index, item in enumerate(spec["calls"]):
        began = time.monotonic()
        if after and began - started > float(after["total_s"]):
            results.append({"raised": "too slow", "said": f"the calls ran longer than {after['total_s']:g} s in all"})
            continue
        # The pinned calls all ended: they say how long a call takes, and the neighbours are held to that.
        if after and pinned and index == pinned and all(r.get("raised") != "too slow" for r in results):
            limit = _after(after, limit, slowest)
        results.append(_one(item, scope, limit))
        if results[-1].get("raised") != "too slow":
            slowest = max(slowest, time.monotonic() - began)
        elif after:
            limit = _after(after, limit, slowest)
    return results


def _after(after: dict[str, Any], limit: float, slowest: float) -> float:
    """A call's limit once the calls before it say how long one takes."""
    return min(limit, max(float(after["floor_s"]), float(after["factor"]) * slowest))


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as file:
        spec = json.load(file)
    result: dict[str, Any]
    try:
        module = importlib.import_module(spec["module"])
    except BaseException as exc:  # noqa: BLE001
        result = {"import": f"{type(exc).__name__}: {str(exc)[:_MAX_REPR]}"}
    else:
        scope = dict(vars(module))
        signal.signal(signal.SIGALRM, _stop)
        result = {"results": _all(spec, scope)}
    with open(spec["out"], "w", encoding="utf-8") as file:
        json.dump(result, file)


if __name__ == "__main__":
    main()

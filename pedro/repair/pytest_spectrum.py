"""A pytest plugin pedro loads into the project's own test run (-p) to record which lines each test executes."""

# Copied beside the coverage package into a folder on the run's PYTHONPATH; it imports nothing of pedro's, since
# it runs in the project's interpreter.

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import coverage
import pytest

_measure: list[coverage.Coverage] = []


def pytest_configure(config: Any) -> None:
    if _measure or hasattr(config, "workerinput"):
        return  # one measurement per run; xdist workers are not followed
    # Only which lines each test runs is read from this run, not how its failures read; pytest's own traceback of
    # a deep recursion, walked under the tracer, can cost seconds a test.
    config.option.tbstyle = "native"
    root = os.environ["PEDRO_SPECTRUM_ROOT"]
    measure = coverage.Coverage(
        data_file=os.environ["PEDRO_SPECTRUM_DATA"],
        config_file=False,
        include=[str(Path(root) / "*")],
        omit=["*/site-packages/*", "*/.venv/*", "*/node_modules/*"],
    )
    measure.start()
    _measure.append(measure)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    # Each test's lines are recorded under its node id, the id the run's report gives it.
    if _measure:
        _measure[0].switch_context(item.nodeid)
    yield
    if _measure:
        _measure[0].switch_context("")


def pytest_unconfigure(config: Any) -> None:
    if _measure:
        measure = _measure.pop()
        measure.stop()
        measure.save()

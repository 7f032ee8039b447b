"""Tests sorted by the time they were measured to take: `slow` ones run in CI only, `medium` ones stay out of test-fast.

`make durations` runs the whole suite with --record-durations (the parallel pass, then the serial tests alone) and
writes every test that took at least MEDIUM_S (setup, call and teardown together) to durations.json; the suite marks
tests from that record, so the tiers follow what tests cost, not what someone guessed when writing them. A test not in
the record (a new one, or a fast one) is in every tier until the record is taken again.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

RECORD = Path(__file__).with_name("durations.json")
SLOW_S = 2.0
"""At or above this a test runs in CI (`make test-slow`, or `make test` under CI), not in `make test`: about the slowest
8%, more than half of the suite's time."""
MEDIUM_S = 0.5
"""At or above this a test is left out of `make test-fast`, the edit-test loop."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--record-durations", action="store_true", help=f"write the time each test took to {RECORD.name}")


class Timing:
    """Marks tests from the record, and with --record-durations takes a new one."""

    def __init__(self, config: pytest.Config) -> None:
        self.recording: bool = config.getoption("--record-durations")
        self.taken: defaultdict[str, float] = defaultdict(float)

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        if self.recording:
            return  # measured as they are, whatever an older record says
        recorded: dict[str, float] = json.loads(RECORD.read_text()) if RECORD.is_file() else {}
        for item in items:
            seconds = recorded.get(item.nodeid, 0.0)
            if seconds >= SLOW_S:
                item.add_marker(pytest.mark.slow)
            elif seconds >= MEDIUM_S:
                item.add_marker(pytest.mark.medium)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # Under pytest-xdist the workers' reports reach this hook in the controller too, which writes the record.
        self.taken[report.nodeid] += report.duration

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if not self.recording or hasattr(session.config, "workerinput"):
            return
        # The tests this run measured, and the record's word on the others: the serial tests are measured in a run of
        # their own, after the parallel one (`make durations` starts from no record, so none outlives its test).
        recorded: dict[str, float] = json.loads(RECORD.read_text()) if RECORD.is_file() else {}
        kept = {nodeid: seconds for nodeid, seconds in recorded.items() if nodeid not in self.taken}
        kept.update({nodeid: round(seconds, 2) for nodeid, seconds in self.taken.items() if seconds >= MEDIUM_S})
        RECORD.write_text(json.dumps(dict(sorted(kept.items())), indent=1, ensure_ascii=False) + "\n")


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(Timing(config), "pedro-timing")

"""The suite's tiers come from the recorded durations: slow tests leave `make test`, medium ones `make test-fast`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import timing

_TESTS = (
    "import time\n\n\n"
    "def test_quick():\n    pass\n\n\n"
    "def test_sleeps():\n    time.sleep(0.6)\n\n\n"
    "def test_new():\n    pass\n"
)


def _suite(tmp_path: Path, recorded: dict[str, float]) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    shutil.copy(timing.__file__, folder / "timing.py")
    (folder / "conftest.py").write_text('pytest_plugins = ["timing"]\n')
    (folder / "test_sample.py").write_text(_TESTS)
    (folder / "durations.json").write_text(json.dumps(recorded))
    (folder / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: s\n    medium: m\naddopts = --strict-markers\n")
    return folder


def _selected(folder: Path, *args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=folder, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 5), done.stdout + done.stderr
    return sorted(line.partition("::")[2] for line in done.stdout.splitlines() if "::" in line)


def test_recorded_times_put_each_test_in_its_tier_and_a_new_test_in_every_tier(tmp_path: Path) -> None:
    folder = _suite(tmp_path, {"test_sample.py::test_sleeps": 4.2, "test_sample.py::test_quick": 0.7})
    assert _selected(folder, "--co", "-m", "not slow") == ["test_new", "test_quick"]
    assert _selected(folder, "--co", "-m", "slow") == ["test_sleeps"]
    assert _selected(folder, "--co", "-m", "not slow and not medium") == ["test_new"]


def test_recording_measures_every_test_again_and_keeps_those_of_half_a_second(tmp_path: Path) -> None:
    folder = _suite(tmp_path, {"test_sample.py::test_quick": 9.0})
    _selected(folder, "--record-durations")
    recorded = json.loads((folder / "durations.json").read_text())
    assert list(recorded) == ["test_sample.py::test_sleeps"]
    assert timing.MEDIUM_S <= recorded["test_sample.py::test_sleeps"] < timing.SLOW_S

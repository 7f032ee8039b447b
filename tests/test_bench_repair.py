"""benchmarks/bench_repair.py: stopping the benchmark stops the `pedro eval` it runs, as a Ctrl-C stops it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS = HERE.parent / "benchmarks"

# A child that says when it starts and, on Ctrl-C, what it got; then ends as pedro eval does once stopped.
CHILD = """
import signal, sys, time
from pathlib import Path
def stopped(signum, frame):
    Path(sys.argv[1]).write_text(signal.Signals(signum).name)
    raise SystemExit(130)
signal.signal(signal.SIGINT, stopped)
Path(sys.argv[1]).write_text("started")
time.sleep(60)
"""
# The benchmark's own way of running it, in a process of its own that the test stops.
PARENT = """
import sys
sys.path.insert(0, {benchmarks!r})
from bench_repair import run_passing_term_on
sys.exit(run_passing_term_on([sys.executable, "-c", {child!r}, {mark!r}]))
"""


def test_a_sigterm_to_the_benchmark_reaches_pedro_eval_as_a_ctrl_c_and_the_benchmark_waits_for_it(
    tmp_path: Path,
) -> None:
    mark = tmp_path / "mark"
    code = PARENT.format(benchmarks=str(BENCHMARKS), child=CHILD, mark=str(mark))
    parent = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 60
        while not (mark.exists() and mark.read_text() == "started"):
            assert time.monotonic() < deadline and parent.poll() is None, "the child never started"
            time.sleep(0.05)
        parent.send_signal(signal.SIGTERM)
        assert parent.wait(timeout=30) == 130  # the child's own ending, waited for
        assert mark.read_text() == "SIGINT"
    finally:
        if parent.poll() is None:  # a failed check leaves no process behind for a later test to find
            parent.kill()
            parent.wait()

"""benchmarks/bench_repair.py: stopping the benchmark stops the `pedro eval` it runs, as a Ctrl-C stops it."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

HERE = Path(__file__).resolve().parent
BENCHMARKS = HERE.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

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


def test_a_run_stopped_half_way_resumes_with_its_own_options_and_runs_only_what_it_had_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bench_repair

    from pedro.eval.tasks import load_suite

    tasks = load_suite(bench_repair.TASKS, only=("py-greet", "py-is-even", "py-max-of"))
    args = bench_repair.parse_args(["--models", "smollm2", "--peers", "aider", "--time-limit", "42", "--jobs", "1"])
    saved = bench_repair.new_report(args, tasks, {"smollm2": Path("SmolLM2.gguf")}, results=tmp_path)
    saved.model = "smollm2"
    saved.add_row("aider", {"task": "py-greet", "solved": True})

    again = bench_repair.parse_args(["--resume", str(saved.path)])
    assert (again.time_limit, again.peers, again.suite, again.resume) == (42.0, "aider", args.suite, saved.path)
    resumed = bench_repair.resumed_report(saved.path)
    resumed.model = "smollm2"
    ran: list[str] = []

    def run_peer(peer: str, task_dir: Path, **_options: object) -> SimpleNamespace:
        ran.append(task_dir.name)
        return SimpleNamespace(peer=peer, task=task_dir.name, solved=task_dir.name == "py-max-of", wall_s=1.0, note="")

    fake = SimpleNamespace(ensure_peer=lambda *_: None, run_peer=run_peer)
    monkeypatch.setitem(sys.modules, "peers", fake)
    bench_repair.run_peer_suite("aider", tasks, ("http://x/v1", "m"), tmp_path, again, resumed)
    assert ran == ["py-is-even", "py-max-of"]  # py-greet's row was kept
    entry = json.loads(saved.path.read_text())["peers"]["smollm2"]["aider"]
    assert (entry["solved"], entry["total"]) == (2, 3)
    assert len(json.loads(saved.path.read_text())["resumed"]) == 1


def test_a_run_made_by_other_code_is_not_resumed(tmp_path: Path) -> None:
    import bench_repair

    saved = bench_repair.new_report(bench_repair.parse_args(["--models", "smollm2"]), [], {}, results=tmp_path)
    saved.report["code"] = {"version": "0.1.0", "commit": "0" * 40}
    saved.save()
    with pytest.raises(SystemExit, match="check out the commit that started it"):
        bench_repair.resumed_report(saved.path)
    saved.path.write_text("{}")
    with pytest.raises(SystemExit, match="not a report this benchmark wrote"):
        bench_repair.parse_args(["--resume", str(saved.path)])


# The peers' part run on a fake peer whose every task takes a second; SIGTERM must end it within a task or two.
PEERS = """
import signal, sys, time
from pathlib import Path
from types import SimpleNamespace
sys.path.insert(0, {benchmarks!r})
import bench_repair
from pedro.eval.tasks import load_suite

def run_peer(peer, task_dir, **options):
    time.sleep(1)
    return SimpleNamespace(peer=peer, task=task_dir.name, solved=False, wall_s=1.0, note="")

sys.modules["peers"] = SimpleNamespace(ensure_peer=lambda *_: None, run_peer=run_peer)
tasks = load_suite(bench_repair.TASKS)[:30]
args = bench_repair.parse_args(["--models", "smollm2", "--peers", "aider"])
saved = bench_repair.new_report(args, tasks, {{}}, results=Path({folder!r}))
saved.model = "smollm2"
signal.signal(signal.SIGTERM, bench_repair._interrupt)
Path({mark!r}).write_text("started")
try:
    bench_repair.run_peer_suite("aider", tasks, ("http://x/v1", "m"), Path({folder!r}), args, saved)
except KeyboardInterrupt:
    sys.exit(130)
"""


def test_a_sigterm_stops_the_peers_part_after_the_task_under_way(tmp_path: Path) -> None:
    mark = tmp_path / "mark"
    code = PEERS.format(benchmarks=str(BENCHMARKS), folder=str(tmp_path), mark=str(mark))
    process = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 60
        while not mark.exists():
            assert time.monotonic() < deadline and process.poll() is None, "the run never started"
            time.sleep(0.05)
        time.sleep(2.5)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 130
        (report,) = tmp_path.glob("eval-*.json")
        rows = json.loads(report.read_text())["peers"]["smollm2"]["aider"]["tasks"]
        assert 1 <= len(rows) <= 5  # the tasks made, each saved as it ended; none started after the signal
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

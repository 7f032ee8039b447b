"""make eval: `pedro eval --suite tasks` with real small models, repair on and off, and the peers beside it.

pedro's part is the `pedro eval` command itself: for each model it starts llama-server, runs every task in each mode
(repair: pedro as shipped; loop: the agent loop alone), scores each run with the task's own check and hidden tests,
and writes .pedro/evals/<UTC time>/ in this checkout (summary.json, summary_by_scenario.json, a trace per run).
The peers (benchmarks/peers.py) then run on the same GGUF, tasks and time limit. Everything is also saved under
benchmarks/results/eval-<UTC time>.json, and a solved/total table per model, mode and tier is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TASKS = ROOT / "evals" / "tasks"
INTERRUPTED = 130
sys.path.insert(0, str(HERE))

from pedro.backends.managed import ManagedLlamaServer, ServerSettings, find_llama_server  # noqa: E402
from pedro.eval.plan import EVAL_MODES  # noqa: E402
from pedro.eval.results import EVALS_DIR  # noqa: E402
from pedro.eval.resume import code_identity  # noqa: E402
from pedro.eval.tasks import TIERS, Task, load_suite  # noqa: E402


def model_path(name: str) -> Path:
    """The GGUF of a model that scripts/install-model installs (installing it if needed)."""
    script = ROOT / "scripts" / "install-model"
    env = {**os.environ, "PYTHON": sys.executable}
    done = subprocess.run([str(script), "-q", "--model", name], capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit(f"cannot install the model {name}: {done.stderr.strip()}")
    return Path(done.stdout.strip())


def run_env(home: Path) -> dict[str, str]:
    """pedro's environment for every run: this checkout, this Python first on PATH, no user config, a tiny window."""
    return {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "XDG_CONFIG_HOME": str(home / "config"),
        "PEDRO_BACKEND__CONTEXT_WINDOW": "4096",
        # A 135M model writes tool calls only when held to the format; replies kept short as in make demo.
        "PEDRO_BACKEND__CONSTRAIN_CALLS": "true",
        "PEDRO_BACKEND__MAX_TOKENS": "192",
    }


def eval_command(ggufs: Sequence[Path], args: argparse.Namespace) -> list[str]:
    """The `pedro eval` command line for these models and the benchmark's options."""
    command = [sys.executable, "-m", "pedro", "eval", "--suite", "tasks", "--tasks-dir", str(args.suite)]
    for gguf in ggufs:
        command += ["--model-file", str(gguf)]
    command += ["--modes", args.modes, "--profiles", args.profiles, "--trials", str(args.trials)]
    command += ["--jobs", str(args.jobs), "--time-limit", str(args.time_limit), "--max-rounds", str(args.max_rounds)]
    if args.tasks:
        command += ["--tasks", args.tasks]
    if args.tiers:
        command += ["--tiers", args.tiers]
    return command


def run_pedro_eval(ggufs: Sequence[Path], env: dict[str, str], args: argparse.Namespace, resume: Path | None) -> Path:
    """Run `pedro eval` in this checkout (its progress and tables on the terminal), or go on with the one in `resume`;
    the folder it wrote. Stopped half way, this process ends with its status: no peer runs beside half a measurement."""
    evals = ROOT / EVALS_DIR
    before = set(evals.iterdir()) if evals.is_dir() else set()
    command = eval_command(ggufs, args) + (["--resume", str(resume)] if resume else [])
    returncode = run_passing_term_on(command, cwd=ROOT, env=env)
    written = [resume] if resume else sorted(set(evals.iterdir()) - before) if evals.is_dir() else []
    if not written or not (written[-1] / "summary.json").is_file():
        raise SystemExit(f"pedro eval wrote no results (exit {returncode})")
    if returncode == INTERRUPTED:
        raise Stopped(written[-1])
    return written[-1]


def run_passing_term_on(command: Sequence[str], **options: Any) -> int:
    """Run `command` to its end, passing a SIGTERM sent to this process on to it as the Ctrl-C it stops on (its runs
    ended, its server stopped, what it finished saved): killed at once, `pedro eval` would leave its llama-server
    running beside the next benchmark. Its exit status."""
    started: list[subprocess.Popen[bytes]] = []

    def stop(_signum: int, _frame: object) -> None:
        for process in started:
            process.send_signal(signal.SIGINT)

    # Set before the command starts: a SIGTERM that came between its start and this would be lost (or end this
    # process alone, the command left running).
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        started.append(subprocess.Popen(list(command), **options))
        return started[0].wait()
    finally:
        signal.signal(signal.SIGTERM, previous)


def by_tier(rows: Sequence[dict[str, Any]], tiers: dict[str, str]) -> dict[str, str]:
    """solved/total per tier, for rows that name a task (`task` or `scenario`) and whether it was solved."""
    counts: dict[str, list[int]] = {}
    for row in rows:
        task = row.get("task") or row.get("scenario")
        solved = row.get("solved", row.get("ok"))
        counts.setdefault(tiers[str(task)], [0, 0])
        counts[tiers[str(task)]][0] += bool(solved)
        counts[tiers[str(task)]][1] += 1
    return {tier: f"{counts[tier][0]}/{counts[tier][1]}" for tier in TIERS if tier in counts}


def run_peer_suite(
    peer: str, tasks: Sequence[Task], server: tuple[str, str], work: Path, args: argparse.Namespace, saved: Saved
) -> None:
    """A peer agent on the same server (base URL, model), tasks and time limit (benchmarks/peers.py), each installed
    once into its own environment under $PEDRO_PEERS_CACHE (default ~/.cache/pedro/peers). Each task's row is saved
    as it ends, and a task with a row already (a run resumed) is not run again."""
    import peers  # type: ignore[import-not-found]

    cache_dir = Path(os.environ.get("PEDRO_PEERS_CACHE") or Path.home() / ".cache" / "pedro" / "peers")
    peers.ensure_peer(peer, cache_dir)  # once, before the runs that share it start

    def run(task: Task) -> None:
        result = peers.run_peer(
            peer,
            task.path,
            base_url=server[0],
            model=server[1],
            time_limit_s=args.time_limit,
            workdir=work / peer / task.id,  # `work` is the model's own folder
            cache_dir=cache_dir,
        )
        print(
            f"  {peer:22} {task.id:28} {'SOLVED' if result.solved else 'failed':7} {result.wall_s:6.1f}s {result.note}",
            flush=True,
        )
        saved.add_row(peer, vars(result))

    # As many runs at once as pedro's (--jobs), each on a server slot of its own.
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run, task) for task in tasks if not saved.has_row(peer, task.id)]
        try:
            for future in futures:
                future.result()
        except KeyboardInterrupt:
            # The runs under way end within the time limit and are kept; none other starts.
            for future in futures:
                future.cancel()
            raise


@dataclass
class Saved:
    """The report of one benchmark run, written to its file whenever it grows: a run stopped half way keeps what it
    measured, and --resume goes on from it."""

    path: Path
    report: dict[str, Any]
    model: str = ""
    """The model (nickname) whose peer rows add_row adds to."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def save(self) -> None:
        with self.lock:
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text(json.dumps(self.report, indent=2) + "\n")
            tmp.replace(self.path)

    def rows(self, peer: str) -> list[dict[str, Any]]:
        entry = self.report["peers"].setdefault(self.model, {}).setdefault(peer, {"solved": 0, "total": 0, "tasks": []})
        rows: list[dict[str, Any]] = entry["tasks"]
        return rows

    def has_row(self, peer: str, task: str) -> bool:
        return any(row["task"] == task for row in self.rows(peer))

    def add_row(self, peer: str, row: dict[str, Any]) -> None:
        with self.lock:
            rows = self.rows(peer)
            rows.append(row)
            entry = self.report["peers"][self.model][peer]
            entry["solved"], entry["total"] = sum(bool(r["solved"]) for r in rows), len(rows)
        self.save()


class Stopped(Exception):
    """The benchmark was stopped (Ctrl-C or SIGTERM) with runs left to make."""


def print_table(report: dict[str, Any], tiers: dict[str, str]) -> None:
    print("\nsolved/total per model and mode (tiers: " + ", ".join(TIERS) + ")")
    runs = report["pedro"]["runs"]
    for model, nickname in report["models"].items():
        for mode in report["modes"]:
            mine = [run for run in runs if run["model"] == model and run["mode"] == mode]
            solved = sum(run["ok"] for run in mine)
            cells = "  ".join(f"{tier} {count}" for tier, count in by_tier(mine, tiers).items())
            print(f"  {nickname:8} pedro ({mode:6}) {solved:2}/{len(mine):<2}  {cells}")
        for peer, data in report["peers"].get(nickname, {}).items():
            cells = "  ".join(f"{tier} {count}" for tier, count in by_tier(data["tasks"], tiers).items())
            print(f"  {nickname:8} {peer:15} {data['solved']:2}/{data['total']:<2}  {cells}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--models", default="smollm2,gemma3", help="comma-separated: smollm2, gemma3")
    parser.add_argument("--modes", default="repair,variants,probe", help=f"comma-separated: {', '.join(EVAL_MODES)}")
    parser.add_argument("--profiles", default="default", help="comma-separated sampling profiles")
    parser.add_argument("--tasks", default="", help="comma-separated task ids (default: all)")
    parser.add_argument("--tiers", default="", help="comma-separated tiers (default: all)")
    parser.add_argument("--peers", default="", help="comma-separated: mini-swe-agent, aider")
    parser.add_argument("--trials", type=int, default=1, help="runs of each task, model, mode and profile")
    parser.add_argument("--jobs", type=int, default=1, help="runs at once (llama-server gets as many slots)")
    parser.add_argument("--time-limit", type=float, default=300.0, help="seconds per run, the same for everyone")
    parser.add_argument("--max-rounds", type=int, default=4, help="pedro's round limit after repair")
    parser.add_argument("--suite", type=Path, default=TASKS)
    parser.add_argument(
        "--resume",
        type=Path,
        help="a report (benchmarks/results/eval-*.json) of a run stopped half way: go on with it, with its options",
    )
    args = parser.parse_args(argv)
    if args.resume is None:
        return args
    try:
        report = json.loads(args.resume.read_text())
        started_with = report["args"]
    except (OSError, ValueError, KeyError) as exc:
        raise SystemExit(f"--resume {args.resume}: not a report this benchmark wrote ({exc})") from exc
    return argparse.Namespace(**{**started_with, "suite": Path(started_with["suite"]), "resume": args.resume})


def new_report(
    args: argparse.Namespace, tasks: Sequence[Task], ggufs: dict[str, Path], results: Path = HERE / "results"
) -> Saved:
    """The report of a run starting now, saved at once in `results`."""
    started = time.time()
    report: dict[str, Any] = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "args": {key: str(value) if isinstance(value, Path) else value for key, value in vars(args).items()},
        "code": code_identity(),
        "tasks": [task.id for task in tasks],
        "time_limit_s": args.time_limit,
        "max_rounds": args.max_rounds,
        "cpu_count": os.cpu_count(),
        "models": {gguf.stem: name for name, gguf in ggufs.items()},
        "modes": list(split(args.modes)),
        "peers": {},
    }
    del report["args"]["resume"]
    results.mkdir(exist_ok=True)
    saved = Saved(results / f"eval-{time.strftime('%Y%m%d-%H%M%S', time.gmtime(started))}.json", report)
    saved.save()
    return saved


def resumed_report(path: Path) -> Saved:
    """The report of a run stopped half way, when this checkout's code is the code that started it."""
    report = json.loads(path.read_text())
    if report.get("code") != code_identity():
        raise SystemExit(
            f"--resume {path}: it was started by pedro {report.get('code')}, and this is {code_identity()}: "
            "check out the commit that started it, or start a new run"
        )
    report.setdefault("resumed", []).append(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    return Saved(path, report)


def split(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def pedro_part(saved: Saved, ggufs: dict[str, Path], env: dict[str, str], args: argparse.Namespace) -> None:
    """pedro's runs, unless the report has them all; their summary and records go into the report."""
    done = saved.report.get("pedro")
    if done and done["summary"].get("complete"):
        return
    folder: Path | None = None
    try:
        folder = run_pedro_eval(list(ggufs.values()), env, args, Path(done["folder"]) if done else None)
    except Stopped as stopped:
        folder = stopped.args[0]
        raise
    finally:
        if folder is not None:
            saved.report["pedro"] = {
                "folder": str(folder),
                "summary": json.loads((folder / "summary.json").read_text()),
                "runs": [json.loads(line) for line in (folder / "runs.jsonl").read_text().splitlines()],
            }
            saved.save()


def peers_part(
    saved: Saved, tasks: Sequence[Task], ggufs: dict[str, Path], work: Path, args: argparse.Namespace
) -> None:
    """Each peer on each model, on a llama-server of its own, for the tasks the report has no row of."""
    binary = find_llama_server()
    for name in split(args.models) if split(args.peers) else ():
        saved.model = name
        if all(saved.has_row(peer, task.id) for peer in split(args.peers) for task in tasks):
            continue
        if binary is None:
            raise SystemExit("llama-server is not installed: run scripts/install-llama-server")
        slots = max(1, args.jobs)
        settings = ServerSettings(ctx_size=8192 * slots, parallel=slots)
        with ManagedLlamaServer(ggufs[name], settings, binary=binary) as server:
            for peer in split(args.peers):
                run_peer_suite(peer, tasks, (server.base_url + "/v1", server.model_alias), work / name, args, saved)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    tasks = load_suite(args.suite, only=split(args.tasks), tiers=split(args.tiers))
    ggufs = {name: model_path(name) for name in split(args.models)}
    saved = resumed_report(args.resume) if args.resume else new_report(args, tasks, ggufs)
    started = time.monotonic()
    previous = signal.signal(signal.SIGTERM, _interrupt)  # the peers' part ends as on Ctrl-C, its server stopped
    try:
        with tempfile.TemporaryDirectory(prefix="pedro-eval-") as tmp:
            pedro_part(saved, ggufs, run_env(Path(tmp)), args)
            peers_part(saved, tasks, ggufs, Path(tmp), args)
    except (Stopped, KeyboardInterrupt):
        print(f"\nstopped: what was measured is in {saved.path}; `{Path(__file__).name} --resume {saved.path}` goes on")
        return INTERRUPTED
    finally:
        signal.signal(signal.SIGTERM, previous)
        saved.report["duration_s"] = round(saved.report.get("duration_s", 0.0) + time.monotonic() - started, 1)
        saved.save()
    print_table(saved.report, {task.id: task.tier for task in tasks})
    took, folder = saved.report["duration_s"], saved.report["pedro"]["folder"]
    print(f"\nsaved {saved.path} ({took} s); pedro's own results in {folder}")
    return 0


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    raise SystemExit(main())

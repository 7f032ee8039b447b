"""The runner: each planned run is the real `pedro` command (never a second loop), N at a time, its record and
trace handed to the evaluation's store as it ends; Ctrl-C stops the runs under way and keeps what was measured."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from pedro.eval.launch import Cancel
from pedro.eval.offline import run_case
from pedro.eval.outcome import read_outcome
from pedro.eval.probe import run_probe
from pedro.eval.records import RunRecord, RunSpec, record_of
from pedro.eval.results import EvalStore
from pedro.eval.scenarios import Case
from pedro.eval.taskrun import TaskLimits, run_task
from pedro.eval.tasks import Task


@dataclass(frozen=True)
class PlannedRun:
    """A run to make: its spec and what it runs (an offline case or a task)."""

    spec: RunSpec
    case: Case | None = None
    task: Task | None = None
    probe: bool = False
    """The task is run as a probe (pedro.eval.probe), not as a pedro job."""


@dataclass(frozen=True)
class Target:
    """Where runs send requests: a server the user runs (backend flags), or a GGUF pedro serves itself."""

    label: str
    backend_args: tuple[str, ...] = ()
    model_file: Path | None = None


@dataclass
class Runner:
    """Makes planned runs `jobs` at a time; `on_start` and `on_done` see each run begin and end."""

    store: EvalStore
    env: Mapping[str, str]
    """The environment every run starts from; each run's own settings go over it."""
    jobs: int = 1
    time_limit_s: float = 300.0
    max_rounds: int = 4
    cancel: Cancel = field(default_factory=Cancel)
    on_start: Callable[[RunSpec], None] = lambda _spec: None
    on_done: Callable[[RunRecord], None] = lambda _record: None

    @property
    def interrupted(self) -> bool:
        return self.cancel.fired

    def run(self, planned: Sequence[PlannedRun], backend_args: Sequence[str] = ()) -> None:
        """Make the runs; on Ctrl-C the runs under way get SIGINT, none starts, and this returns once they end."""
        with (
            tempfile.TemporaryDirectory(prefix="pedro-eval-") as scratch,
            ThreadPoolExecutor(max_workers=max(1, self.jobs), thread_name_prefix="pedro-eval") as pool,
        ):
            pending: set[Future[None]] = {
                pool.submit(self._make, item, tuple(backend_args), Path(scratch)) for item in planned
            }
            try:
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        future.result()
            except KeyboardInterrupt:
                self.cancel.fire()
                for future in pending:
                    future.cancel()
                wait(pending)

    def _make(self, item: PlannedRun, backend_args: tuple[str, ...], scratch: Path) -> None:
        if self.cancel.fired:
            return
        spec = item.spec
        self.on_start(spec)
        workdir = scratch / spec.run_id
        workdir.mkdir()
        env = {**self.env, **spec.env}
        try:
            if item.case is not None:
                case_run = run_case(item.case, workdir, env=env, time_limit_s=self.time_limit_s, cancel=self.cancel)
                trace = self.store.write_trace(spec.run_id, case_run.launched.stdout, case_run.launched.stderr)
                record = record_of(
                    spec, case_run.outcome, wall_s=case_run.launched.wall_s, mismatches=case_run.mismatches, trace=trace
                )
            elif item.task is not None and item.probe:
                task_run = run_probe(
                    item.task, workdir, backend_args=backend_args, env=env, time_limit_s=self.time_limit_s
                )
                trace = self.store.write_trace(spec.run_id, task_run.stdout)
                record = record_of(
                    spec, task_run.outcome, wall_s=task_run.result.wall_s, solved=task_run.result.solved, trace=trace
                )
            elif item.task is not None:
                task_run = run_task(
                    item.task,
                    workdir,
                    backend_args=backend_args,
                    env=env,
                    limits=TaskLimits(self.max_rounds, self.time_limit_s),
                    cancel=self.cancel,
                )
                trace = self.store.write_trace(spec.run_id, task_run.stdout, task_run.stderr, task_run.log)
                record = record_of(
                    spec, task_run.outcome, wall_s=task_run.result.wall_s, solved=task_run.result.solved, trace=trace
                )
            else:
                return
        except (OSError, subprocess.SubprocessError) as exc:
            # The repository or the process could not be set up: the run is recorded as one that never ran.
            problem = f"the run could not start: {type(exc).__name__}: {exc}"
            record = record_of(spec, read_outcome([], exit_code=None), wall_s=0.0, mismatches=(problem,))
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        self.store.add(record)
        self.on_done(record)


@contextlib.contextmanager
def serving(target: Target, *, jobs: int, ctx_size: int, on_notice: Callable[[str], None]) -> Iterator[list[str]]:
    """The backend flags of a target's runs; for a GGUF, llama-server runs meanwhile with one slot per job."""
    if target.model_file is None:
        yield list(target.backend_args)
        return
    from pedro.backends.managed import ManagedLlamaServer, ServerSettings

    on_notice(f"starting llama-server with {target.model_file.name} ({jobs} slot{'s' if jobs > 1 else ''}) …")
    # llama-server splits its context among the slots: each run gets ctx_size tokens.
    with ManagedLlamaServer(target.model_file, ServerSettings(ctx_size=ctx_size * jobs, parallel=jobs)) as server:
        on_notice(f"llama-server ready at {server.base_url}")
        yield ["--backend", "llamacpp", "--base-url", server.base_url, "--model", server.model_alias]

"""One agent run from the command line: the flags read into a job, the terminal's renderer, Ctrl-C, and the exit
code; the job itself runs through pedro.jobs.service."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pedro.cli.common import load
from pedro.cli.flags import CommonFlags
from pedro.cli.render import make_renderer
from pedro.config import PedroConfig
from pedro.errors import TERMINATED_EXIT_CODE, Terminated
from pedro.jobs.service import AfterRun, Aim, JobHooks, JobSpec, run_job, run_lock

if TYPE_CHECKING:
    from pedro.cli.render import Renderer
    from pedro.jobstore import JobStore


def run_session(
    role_name: str,
    flags: CommonFlags,
    task_vars: dict[str, Any],
    *,
    resume: str | None = None,
    test_command: str | None = None,
    on_result: Callable[[Any, Path], None] | None = None,
    message: str | None = None,
    config: PedroConfig | None = None,
    follow_up: bool = False,
    session: bool = False,
    after_run: Callable[[AfterRun], None] | None = None,
    aim: Aim | None = None,
) -> int:
    """Run one role to the end (or continue the saved job `resume`, with a new user `message` when given) and
    return the process exit code.

    `test_command` (debug --test) is the job's test command; else [agent].test_command or the detected runner.
    `on_result` gets the run's result (pedro.loop.agent.RunResult) and the repository root when the job has ended.
    `config` replaces the loaded configuration (a session passes the one of the server it holds); `follow_up`
    (a session's next message to the same job) leaves out the setup notes the person has already read; `session`
    (any turn of an interactive session) shows the turn without the job's header, round lines and resume hint.
    `after_run` gets the finished job while the model is still up, within the job's time limit (triage's fix).
    `aim` holds repair to some tests and says how a reviewer's answer becomes findings (pedro review).
    """
    root, loaded = load(flags)
    renderer = make_renderer(json_mode=flags.json, stream_json=flags.stream_json, session=session)
    spec = JobSpec(
        role_name, task_vars, resume, test_command, message, follow_up, aim or Aim(),
        interactive=flags.interactive, verbose=flags.verbose, backend_named=frozenset(flags.backend_named()),
    )  # fmt: skip
    hooks = JobHooks(renderer, on_result, after_run, after_commit=_pull_request(root, flags, renderer))
    with _second_interrupt_exits(), run_lock(root, role_name, resume):
        return run_job(spec, root, config or loaded, hooks).exit_code


def _pull_request(root: Path, flags: CommonFlags, renderer: Renderer) -> Callable[[JobStore, str, Any], None] | None:
    """With --pr, the pull request opened for the job's commit once its branch is settled."""
    if not flags.pr:
        return None

    def open_it(store: JobStore, job_id: str, committed: Any) -> None:
        from pedro.cli.pullrequest import open_pull_request

        open_pull_request(root, store, job_id, committed, flags, renderer)

    return open_it


@contextlib.contextmanager
def _second_interrupt_exits() -> Iterator[None]:
    """The first Ctrl-C stops the model or the tool and lets the job save itself; a second one exits at once.

    Every file pedro writes is replaced atomically, so leaving in the middle of cleanup cannot leave one
    half-written; the edit journal tells the next start what the interrupted round had changed.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed = 0

    def on_interrupt(signum: int, _frame: Any) -> None:
        nonlocal pressed
        pressed += 1
        terminated = signum == signal.SIGTERM
        if pressed == 1:
            # SIGTERM (a cancelled CI job) stops the run the way Ctrl-C does, so the job is saved.
            raise Terminated if terminated else KeyboardInterrupt
        os.write(2, b"\ninterrupted again: exiting now (the job keeps what it saved; `pedro jobs list` shows it)\n")
        os._exit(TERMINATED_EXIT_CODE if terminated else 130)

    previous = {sig: signal.signal(sig, on_interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)

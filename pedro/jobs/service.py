"""The one way a job runs, under every front end: open it (new, or a saved one resumed), assemble the agent, run it
within the job's Deadline, and settle what it leaves (the commit, the job branch); JobSpec says what was asked,
JobHooks where the job reports."""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pedro.config import NO_MODEL_GIVEN, PedroConfig
from pedro.deadline import NO_DEADLINE, Deadline
from pedro.errors import UsageError
from pedro.jobstore import JobStore

if TYPE_CHECKING:  # the loop's modules load only when a job runs
    from pedro.jobstore import Job
    from pedro.loop.agent import RunResult
    from pedro.loop.assembly import Workspace
    from pedro.messages import Event, Message
    from pedro.roles import Role
    from pedro.safety.secrets import Redactor


class JobRenderer(Protocol):
    """Where a job reports: its events, its notices, and how it asks the person (approvals, questions)."""

    def handle(self, event: Event) -> None: ...

    def notice(self, text: str) -> None: ...

    def approver(self, interactive: bool) -> Any: ...

    def asker(self, interactive: bool) -> Any: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Aim:
    """What review gives the jobs it starts: the failing tests a /fix repairs, how the answer becomes findings."""

    repair_targets: frozenset[str] | None = None
    read_findings: Callable[[str], list[Any]] | None = None


@dataclass(frozen=True)
class JobSpec:
    """What a front end asks of one job: the role and its task, or the saved job to resume with a new message."""

    role_name: str
    task_vars: dict[str, Any]
    resume: str | None = None
    test_command: str | None = None
    message: str | None = None
    follow_up: bool = False
    """A session's next message to the same job: the setup notes the person has read are left out."""
    aim: Aim = field(default_factory=Aim)
    interactive: bool = False
    """Whether someone can answer an approval or a question (a terminal, not CI or --no-input)."""
    verbose: bool = False
    """The job's debug log keeps every detail."""
    backend_named: frozenset[str] = frozenset()
    """The [backend] keys the person named for this run (kind, base_url, model, model_file): a resumed job keeps
    its own server and model for the others."""


@dataclass(frozen=True)
class JobHooks:
    """Where a job's events go (the terminal's renderer; pedro mcp passes its own) and who is told when its loop has
    ended (`after_run`, the model still up), when its change is committed (`after_commit`) and when the job has
    (`on_result`)."""

    renderer: JobRenderer
    on_result: Callable[[Any, Path], None] | None = None
    after_run: Callable[[AfterRun], None] | None = None
    after_commit: Callable[[JobStore, str, Any], None] | None = None
    """Told of a changing job's commit (or None) once its branch is settled: the CLI opens the pull request."""


@dataclass(frozen=True)
class AfterRun:
    """What a step after the job's loop may use: the result, the model and how it was asked, the job's first
    snapshot (the checkout as the job found it; None outside git), and the job's notices."""

    result: Any
    root: Path
    config: PedroConfig
    backend: Any
    options: Any
    snapshot: str | None
    notice: Callable[[str], None]
    deadline: Deadline = NO_DEADLINE
    """The job's own: a step after the loop ends before it, as the loop did."""


@dataclass(frozen=True)
class _Opened:
    """A job open in its store, with what its run needs."""

    root: Path
    store: JobStore
    job: Job
    role: Role
    history: list[Message]
    task: str


def run_lock(root: Path, role_name: str, resume: str | None) -> contextlib.AbstractContextManager[None]:
    """Builder and debugger (and any resumed job, whose role is only known later) hold the repository's run lock."""
    from pedro.roles import get_role
    from pedro.runlock import hold_run_lock
    from pedro.workspace import is_git_repo

    changes = resume is not None or get_role(role_name).evidence == "changes"
    if not changes or not is_git_repo(root):
        return contextlib.nullcontext()
    return hold_run_lock(root, f"job {resume}" if resume else f"pedro {role_name}")


def run_job(spec: JobSpec, root: Path, config: PedroConfig, hooks: JobHooks) -> RunResult:
    """The part every front end shares: the job opened (new or resumed), assemble(), Agent.run(), then the commit
    and the job branch. The caller holds the run lock (run_lock) and decides what Ctrl-C does."""
    from pedro.roles import get_role
    from pedro.safety.secrets import Redactor

    saved = _saved_job(root, spec.resume, with_message=bool(spec.message)) if spec.resume is not None else None
    role_name = spec.role_name
    if saved is not None:
        config = _with_job_backend(config, saved[0], spec.backend_named)
        role_name = saved[0].role
    role = get_role(role_name)
    renderer = hooks.renderer
    _report_interrupted_jobs(root, renderer)
    for abandoned in JobStore(root).settle_abandoned():
        renderer.notice(f"job {abandoned.id} was left running by a pedro process that is gone: marked interrupted")
    JobStore(root).sweep_unfinished_starts()
    from pedro.gitlayer import sweep_stale_worktrees

    for left in sweep_stale_worktrees(root):
        renderer.notice(f"removed the scratch worktree {left}, left by a pedro that was stopped before it could")
    with managed_server(config, renderer) as config:
        if not config.backend.model:
            raise UsageError(NO_MODEL_GIVEN)
        redactor = Redactor.for_job(os.environ, root)
        store = JobStore(root, redactor=redactor)
        job, history, task = _open_job(store, role, config, saved, spec)
        if saved is not None and not spec.follow_up:
            replies = sum(m.role == "assistant" for m in history)
            renderer.notice(f"resuming job {job.id} after {replies} replies")
        instructions = _instructions(root, config, redactor, renderer) if saved is None else ""
        opened = _Opened(root, store, job, role, history, task)
        result = _run_opened(opened, spec, config, hooks, instructions)
    renderer.close()
    if hooks.on_result is not None:
        hooks.on_result(result, root)
    return result


def _run_opened(opened: _Opened, spec: JobSpec, config: PedroConfig, hooks: JobHooks, instructions: str) -> RunResult:
    """Assemble the agent for an open job, run it within the job's time limit, and settle what it leaves."""
    from pedro.debuglog import DEBUG_LOG_NAME, job_log
    from pedro.loop.assembly import JobSlot, RunUI, assemble

    renderer = hooks.renderer
    ui = RunUI(
        on_event=renderer.handle,
        notice=renderer.notice,
        approve=renderer.approver(spec.interactive),
        ask=renderer.asker(spec.interactive),
        interactive=spec.interactive,
        quiet=spec.follow_up,
    )
    store, job = opened.store, opened.job
    with job_log(store.job_dir(job.id) / DEBUG_LOG_NAME, verbose=spec.verbose):
        slot = JobSlot(
            store,
            job,
            resumed=spec.resume is not None,
            test_command=spec.test_command,
            repair_targets=spec.aim.repair_targets,
            read_findings=spec.aim.read_findings,
        )
        run = assemble(config, opened.role, slot, ui)
        try:
            # One Deadline, from when the job opens (a llama-server it starts is up by then): the loop, repair and
            # the tests all read it, and the alarm below keeps it wherever the run is.
            deadline = Deadline.after(config.agent.time_limit_s)
            with _time_limit(deadline):
                result = run.agent.run(opened.task, resume=opened.history, instructions=instructions, deadline=deadline)
                if hooks.after_run is not None and result.exit_status not in ("backend_error", "interrupted"):
                    snapshot = run.workspace.facts.get("snapshot")
                    parts = run.agent.parts
                    hooks.after_run(
                        AfterRun(
                            result,
                            opened.root,
                            config,
                            run.agent.backend,
                            parts.options,
                            snapshot,
                            renderer.notice,
                            deadline,
                        )
                    )
        finally:
            run.agent.close()
        request = spec.message or str(spec.task_vars.get("description") or "")
        _after_run(opened, run.workspace, result, _Settling(config, hooks, request))
    return result


@dataclass(frozen=True)
class _Settling:
    """What settling a finished job needs beside the job: how pedro was configured, where it reports, what was asked."""

    config: PedroConfig
    hooks: JobHooks
    request: str
    """What the person asked for, the commit message's subject."""


def _open_job(
    store: JobStore, role: Role, config: PedroConfig, saved: tuple[Job, list[Message]] | None, spec: JobSpec
) -> tuple[Job, list[Message], str]:
    """The job this run works on, its saved conversation (with the new message) and its task: a new job recorded
    in the store, or the saved one marked running again."""
    from pedro.loop.context import render_task
    from pedro.messages import Message
    from pedro.prompts import render_prompt

    if saved is None:
        task = render_task(role, **spec.task_vars)
        job = store.create(role=role.name, task=task, backend=config.backend.kind, model=config.backend.model)
        job.base_url, job.test_command = config.resolved_base_url(), spec.test_command or ""
        job.request = str(spec.task_vars.get("description") or "").strip()
        store.save(job)
        return job, [], task
    job, history = saved
    job.status, job.pid = "running", os.getpid()
    store.save(job)
    if spec.message:
        if history and history[-1].role == "user":
            # The last turn ended unanswered: said so, and the roles still take turns (chat templates insist).
            history = [*history, Message("assistant", render_prompt("context/unanswered.md").strip())]
            store.append_message(job.id, history[-1])
        history = [*history, Message("user", spec.message)]
        store.append_message(job.id, history[-1])
    return job, history, job.task


def _instructions(root: Path, config: PedroConfig, redactor: Redactor, renderer: JobRenderer) -> str:
    """The project's instructions for agents (AGENTS.md and kin), redacted and cut to budget; named in a notice."""
    from pedro.instructions import load_instructions

    found = load_instructions(root, Path.cwd(), max_chars=config.agent.instructions_max_chars)
    if found is None:
        return ""
    cut = " (cut to [agent].instructions_max_chars)" if found.cut else ""
    renderer.notice(f"project instructions for the model: {', '.join(found.files)}{cut}")
    return redactor.redact(found.text)


def _after_run(opened: _Opened, workspace: Workspace, result: RunResult, settling: _Settling) -> None:
    """What a finished job leaves: the interrupted round named, a completed change committed on the job branch,
    the user back where they were when nothing changed, and the pull request when asked for."""
    from pedro.jobs.settle import commit_job_change, settle_branch

    root, store, job, role = opened.root, opened.store, opened.job, opened.role
    renderer = settling.hooks.renderer
    if result.exit_status == "interrupted":
        _report_interrupted_round(workspace.journal, job.id, renderer, workspace.guard)
    committed = None
    if role.evidence == "changes" and result.exit_status == "completed" and settling.config.agent.commit:
        title = settling.request or job.task
        committed = commit_job_change(store, job.id, workspace.guard, result, title, renderer)
    if workspace.branch is not None:
        settle_branch(root, job.id, workspace.guard, workspace.branch, renderer, committed)
    if settling.hooks.after_commit is not None and role.evidence == "changes":
        settling.hooks.after_commit(store, job.id, committed)


@contextlib.contextmanager
def _time_limit(deadline: Deadline) -> Iterator[None]:
    """The job's deadline, kept wherever the run is (the model streaming, a test or repair running): an alarm at the
    same moment the loop and repair read raises TimeLimitReached, which stops and saves the job as Ctrl-C does. Off
    the main thread, the loop's own check at each round is the limit."""
    left, seconds = deadline.left(), deadline.seconds
    if left is None or not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return
    from pedro.errors import TimeLimitReached

    def on_alarm(_signum: int, _frame: Any) -> None:
        raise TimeLimitReached(seconds)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _report_interrupted_round(journal: Any, job_id: str, renderer: Any, guard: Any) -> None:
    """Which files the interrupted round had changed, and how to take them back.

    Files the round put back before it ended (repair restores a candidate's old code when Ctrl-C stops its test)
    are not named: the job's last snapshot is the word on what it changed.
    """
    import dataclasses

    from pedro.safety.journal import read_state

    state = read_state(journal.path, job_id)
    if state is None:
        return
    if hasattr(guard, "changed_files"):
        still = set(guard.changed_files())
        state = dataclasses.replace(state, changed=tuple(path for path in state.changed if path in still))
    if not (state.changed or state.in_flight):
        return
    renderer.notice(_describe_round(state, f"job {job_id} was interrupted"))


def _report_interrupted_jobs(root: Path, renderer: Any) -> None:
    """Jobs that died mid-round (killed, crashed, a second Ctrl-C): say what they changed and sweep temporaries."""
    from pedro.safety.guard import SnapshotError, settle_interrupted
    from pedro.safety.journal import recover

    for state, removed in recover(root):
        renderer.notice(_describe_round(state, f"job {state.job_id} was interrupted"))
        if removed:
            renderer.notice(
                f"removed {len(removed)} leftover temporary file(s) of interrupted writes: {', '.join(removed)}"
            )
        try:
            settle_interrupted(root, state.job_id, state.head)
        except SnapshotError as exc:
            renderer.notice(f"could not snapshot what job {state.job_id} left behind: {exc}")


def _describe_round(state: Any, headline: str) -> str:
    parts = [headline]
    if state.changed:
        parts.append(f" after changing {', '.join(state.changed)}")
    if state.in_flight:
        parts.append(f" while writing {', '.join(state.in_flight)} (each is either fully old or fully new)")
    return "".join(parts) + f"; `pedro undo {state.job_id}` restores the files as they were before that round"


def _saved_job(root: Path, job_id: str, *, with_message: bool = False) -> tuple[Any, list[Any]]:
    """The job to resume and its saved conversation. A completed job continues only with a new message; a job that
    never talked to the model has nothing to continue."""
    store = JobStore(root)
    job = store.load(job_id)
    if job.status == "completed" and not with_message:
        raise UsageError(
            f"job {job.id} already completed; continue it with a new request (`pedro jobs resume {job.id} -m TEXT`) "
            "or start a new job"
        )
    history = store.messages(job.id)
    # A new message continues any conversation that reached the model, also one whose turn ended unanswered (its
    # time limit passed while the model wrote); without one, there must be a reply to go on from.
    talked = any(message.role == ("user" if with_message else "assistant") for message in history)
    if not talked:
        raise UsageError(f"job {job.id} has no saved conversation to continue; start a new job instead")
    return job, history


def _with_job_backend(config: PedroConfig, job: Any, named: frozenset[str]) -> PedroConfig:
    """The backend the job used, unless this run names another."""
    resumed = config.model_copy(deep=True)
    if not named & {"kind", "model_file"}:
        resumed.backend.kind = job.backend
        if "base_url" not in named and job.base_url:
            resumed.backend.base_url = job.base_url
    if "model" not in named and job.model:
        resumed.backend.model = job.model
    return resumed


@contextlib.contextmanager
def managed_server(config: PedroConfig, renderer: JobRenderer) -> Iterator[PedroConfig]:
    """Start llama-server for --model-file and point the config at it; stop it however the run ends."""
    if not config.backend.model_file:
        yield config
        return
    from pedro.backends.managed import ManagedLlamaServer, ServerSettings

    model_file = Path(config.backend.model_file).expanduser()
    if not model_file.is_file():
        raise UsageError(f"--model-file {model_file} does not exist; give the path of a .gguf file")
    renderer.notice(f"starting llama-server with {model_file.name} …")
    ctx_size = config.backend.context_window or 8192
    server = ManagedLlamaServer(model_file, ServerSettings(ctx_size=ctx_size))
    # The job's own modules (the loop, repair, the tools: most of a second on a small machine) import while the
    # model loads in the server's process, rather than after it.
    server.start(while_loading=lambda: importlib.import_module("pedro.loop.assembly"))
    with server:
        managed = config.model_copy(deep=True)
        managed.backend.kind = "llamacpp"
        managed.backend.base_url = server.base_url
        if not managed.backend.model:
            managed.backend.model = model_file.stem
        renderer.notice(f"llama-server ready at {server.base_url}")
        if server.chat_template is not None:
            renderer.notice(
                f"{model_file.name} carries no chat template; llama-server uses pedro's {server.chat_template} "
                "template for its architecture instead of a ChatML fallback the model was not trained on"
            )
        yield managed
    sys.stderr.flush()

"""One agent run from the command line: build backend, tools and job, run the loop, render, return the exit code."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pedro.cli.common import NO_MODEL_GIVEN, load
from pedro.cli.flags import CommonFlags
from pedro.cli.render import make_renderer
from pedro.config import PedroConfig
from pedro.deadline import Deadline
from pedro.errors import TERMINATED_EXIT_CODE, Terminated, UsageError

if TYPE_CHECKING:  # the loop's modules load only when a job runs
    from pedro.agent import RunResult
    from pedro.assembly import Workspace
    from pedro.cli.render import Renderer
    from pedro.jobs import Job, JobStore
    from pedro.messages import Message
    from pedro.roles import Role
    from pedro.safety.secrets import Redactor


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
    `on_result` gets the run's result (pedro.agent.RunResult) and the repository root when the job has ended.
    `config` replaces the loaded configuration (a session passes the one of the server it holds); `follow_up`
    (a session's next message to the same job) leaves out the setup notes the person has already read; `session`
    (any turn of an interactive session) shows the turn without the job's header, round lines and resume hint.
    `after_run` gets the finished job while the model is still up, within the job's time limit (triage's fix).
    `aim` holds repair to some tests and says how a reviewer's answer becomes findings (pedro review).
    """
    root, loaded = load(flags)
    renderer = make_renderer(json_mode=flags.json, stream_json=flags.stream_json, session=session)
    spec = JobSpec(role_name, task_vars, resume, test_command, message, follow_up, aim or Aim())
    hooks = JobHooks(renderer, on_result, after_run)
    with _second_interrupt_exits(), run_lock(root, role_name, resume):
        return run_job(spec, flags, root, config or loaded, hooks).exit_code


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


@dataclass(frozen=True)
class JobHooks:
    """Where a job's events go (the terminal's renderer by default; pedro mcp passes its own) and who is told
    when its loop has ended (`after_run`, the model still up) and when the job has (`on_result`)."""

    renderer: Renderer | None = None
    on_result: Callable[[Any, Path], None] | None = None
    after_run: Callable[[AfterRun], None] | None = None


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


def run_job(spec: JobSpec, flags: CommonFlags, root: Path, config: PedroConfig, hooks: JobHooks) -> RunResult:
    """The part every front end shares: the job opened (new or resumed), assemble(), Agent.run(), then the commit
    and the job branch. The caller holds the run lock (run_lock) and decides what Ctrl-C does."""
    from pedro.jobs import JobStore
    from pedro.roles import get_role
    from pedro.safety.secrets import Redactor

    saved = _saved_job(root, spec.resume, flags, with_message=bool(spec.message)) if spec.resume is not None else None
    role_name = spec.role_name
    if saved is not None:
        config = _with_job_backend(config, saved[0], flags)
        role_name = saved[0].role
    role = get_role(role_name)
    renderer = hooks.renderer or make_renderer(json_mode=flags.json, stream_json=flags.stream_json)
    _report_interrupted_jobs(root, renderer)
    for abandoned in JobStore(root).settle_abandoned():
        renderer.notice(f"job {abandoned.id} was left running by a pedro process that is gone: marked interrupted")
    JobStore(root).sweep_unfinished_starts()
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
        result = _run_opened(opened, spec, flags, config, replace(hooks, renderer=renderer), instructions)
    renderer.close()
    if hooks.on_result is not None:
        hooks.on_result(result, root)
    return result


def _run_opened(
    opened: _Opened, spec: JobSpec, flags: CommonFlags, config: PedroConfig, hooks: JobHooks, instructions: str
) -> RunResult:
    """Assemble the agent for an open job, run it within the job's time limit, and settle what it leaves."""
    from pedro.assembly import JobSlot, RunUI, assemble
    from pedro.debuglog import DEBUG_LOG_NAME, job_log

    renderer = hooks.renderer
    assert renderer is not None
    ui = RunUI(
        on_event=renderer.handle,
        notice=renderer.notice,
        approve=renderer.approver(flags.interactive),
        ask=renderer.asker(flags.interactive),
        interactive=flags.interactive,
        quiet=spec.follow_up,
    )
    store, job = opened.store, opened.job
    with job_log(store.job_dir(job.id) / DEBUG_LOG_NAME, verbose=flags.verbose):
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
            deadline = Deadline.after(run.agent.limits.time_limit_s)
            with _time_limit(deadline):
                result = run.agent.run(opened.task, resume=opened.history, instructions=instructions, deadline=deadline)
                if hooks.after_run is not None and result.exit_status not in ("backend_error", "interrupted"):
                    snapshot = run.workspace.facts.get("snapshot")
                    parts = run.agent.parts
                    hooks.after_run(
                        AfterRun(
                            result, opened.root, config, run.agent.backend, parts.options, snapshot, renderer.notice
                        )
                    )
        finally:
            run.agent.close()
        request = spec.message or str(spec.task_vars.get("description") or "")
        _after_run(opened, run.workspace, result, _Settling(config, flags, renderer, request))
    return result


@dataclass(frozen=True)
class _Settling:
    """What settling a finished job needs beside the job: how pedro was configured and asked, where it reports."""

    config: PedroConfig
    flags: CommonFlags
    renderer: Renderer
    request: str
    """What the person asked for, the commit message's subject."""


def _open_job(
    store: JobStore, role: Role, config: PedroConfig, saved: tuple[Job, list[Message]] | None, spec: JobSpec
) -> tuple[Job, list[Message], str]:
    """The job this run works on, its saved conversation (with the new message) and its task: a new job recorded
    in the store, or the saved one marked running again."""
    from pedro.context import render_task
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


def _instructions(root: Path, config: PedroConfig, redactor: Redactor, renderer: Renderer) -> str:
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
    root, store, job, role, renderer = opened.root, opened.store, opened.job, opened.role, settling.renderer
    if result.exit_status == "interrupted":
        _report_interrupted_round(workspace.journal, job.id, renderer, workspace.guard)
    committed = None
    if role.evidence == "changes" and result.exit_status == "completed" and settling.config.agent.commit:
        committed = _commit_job(root, store, job.id, workspace.guard, result, settling.request or job.task, renderer)
    if workspace.branch is not None:
        _settle_branch(root, job.id, workspace.guard, workspace.branch, renderer, committed)
    if settling.flags.pr and role.evidence == "changes":
        from pedro.cli.pullrequest import open_pull_request

        open_pull_request(root, store, job.id, committed, settling.flags, renderer)


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


def _saved_job(root: Path, job_id: str, flags: CommonFlags, *, with_message: bool = False) -> tuple[Any, list[Any]]:
    """The job to resume and its saved conversation. A completed job continues only with a new message; a job that
    never talked to the model has nothing to continue."""
    from pedro.jobs import JobStore

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


def _with_job_backend(config: PedroConfig, job: Any, flags: CommonFlags) -> PedroConfig:
    """The backend the job used, unless the flags name another."""
    resumed = config.model_copy(deep=True)
    if flags.backend is None and flags.model_file is None:
        resumed.backend.kind = job.backend
        if flags.base_url is None and job.base_url:
            resumed.backend.base_url = job.base_url
    if flags.model is None and job.model:
        resumed.backend.model = job.model
    return resumed


def _settle_branch(
    root: Path, job_id: str, guard: Any, branch: tuple[str, str], renderer: Any, committed: Any = None
) -> None:
    """A job that changed nothing leaves the user where they were; one that changed files says what and how back."""
    from pedro.safety.jobbranch import current_branch_exists, leave_unused_job_branch
    from pedro.safety.snapshots import shorten

    previous, start = branch
    changed = guard.changed_files()
    if not changed:
        if leave_unused_job_branch(root, job_id, previous, start):
            renderer.notice(f"the job changed no file: back on {previous}, and no pedro/{job_id} branch is kept")
        return
    named = current_branch_exists(root, previous)
    back = f"git switch {previous}" if named else f"git switch --detach {previous}"
    if committed is not None and committed.beside:
        # A file that holds the user's edits beside the job's committed change differs between the two branches,
        # and a switch refuses to carry it (--merge too, while anything is staged): the stash carries the edits
        # across, and only them, since the job's change is in the commit the stash is taken against.
        back = f"git stash && {back} && git stash pop"
    comes_along = (
        f"your own uncommitted edits come along; the job's commit stays on pedro/{job_id}"
        if committed is not None
        else "uncommitted changes come along"
    )
    renderer.notice(
        f"the job changed {len(changed)} file{'s' if len(changed) != 1 else ''}: {shorten(changed)}; you are on "
        f"branch pedro/{job_id}. `{back}` returns you ({comes_along}); "
        f"`pedro undo {job_id}` takes the job's changes back"
    )


def _commit_job(root: Path, store: Any, job_id: str, guard: Any, result: Any, title: str, renderer: Any) -> Any:
    """One commit on pedro/<job> holding exactly the job's own change; the commit, or None when there was nothing to
    commit or it could not be made (the edits then stay uncommitted, and a notice says why)."""
    from pedro.safety.jobbranch import job_branch
    from pedro.safety.jobcommit import commit_job, commit_message
    from pedro.safety.snapshots import SnapshotError, current_branch, shorten

    if not hasattr(guard, "changed_files") or current_branch(root) != job_branch(job_id):
        return None
    delta = _job_delta(root, job_id)
    if delta is None:
        return None
    body = job_description(store, job_id, result)
    try:
        committed = commit_job(root, job_id, delta, commit_message(job_id, title, body))
    except SnapshotError as exc:  # NoIdentityError and EditsClashError among them: each message names the fix
        renderer.notice(f"the job's change is left uncommitted on {job_branch(job_id)}: {exc}")
        return None
    if committed is None:
        return None
    renderer.notice(f"committed {committed.commit[:7]} on {job_branch(job_id)}: {committed.title}")
    if committed.ignored:
        renderer.notice(f"left uncommitted, since the ignore rules match them: {shorten(committed.ignored)}")
    if committed.beside:
        renderer.notice(
            f"your own uncommitted edits in {shorten(committed.beside)} are not in the commit; they stay in the "
            "working tree beside it"
        )
    return committed


def _job_delta(root: Path, job_id: str) -> Any:
    """What the job leaves to commit: its first snapshot, its last, and the files its rounds changed (in this run or
    an earlier one of the same job) that differ between the two, so neither the user's edits between rounds nor a
    file repair put back are taken; None when there are none."""
    from pedro.cli.jobfacts import changed_files, job_snapshots
    from pedro.safety.jobchange import JobDelta
    from pedro.safety.snapshots import changed_paths

    snapshots = job_snapshots(root, job_id)
    if len(snapshots) < 2:
        return None
    first, last = snapshots[0], snapshots[-1]
    paths = sorted(set(changed_files(root, snapshots)).intersection(changed_paths(root, first.tree, last.tree)))
    return JobDelta(first.tree, first.head, last.tree, tuple(paths)) if paths else None


def job_description(store: Any, job_id: str, result: Any = None) -> str:
    """The job in words for its commit and its pull request: the summary, the evidence (the result's, else
    job.finished's) and its last test run, as recorded."""
    from pedro.safety.jobcommit import describe_job

    events = store.events(job_id)
    finished: dict[str, Any] = next((e for e in reversed(events) if e.get("type") == "job.finished"), {})
    tests = next((e for e in reversed(events) if e.get("type") == "tests.run"), None)
    summary = result.summary if result is not None else str(finished.get("summary") or "")
    evidence = getattr(result, "evidence", None) or finished.get("evidence")
    return describe_job(summary, evidence, tests)


@contextlib.contextmanager
def managed_server(config: PedroConfig, renderer: Any) -> Iterator[PedroConfig]:
    """Start llama-server for --model-file and point the config at it; stop it however the run ends."""
    if not config.backend.model_file:
        yield config
        return
    from pedro.backends.managed import ManagedLlamaServer

    model_file = Path(config.backend.model_file).expanduser()
    if not model_file.is_file():
        raise UsageError(f"--model-file {model_file} does not exist; give the path of a .gguf file")
    renderer.notice(f"starting llama-server with {model_file.name} …")
    ctx_size = config.backend.context_window or 8192
    with ManagedLlamaServer(model_file, ctx_size=ctx_size) as server:
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

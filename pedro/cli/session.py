"""One agent run from the command line: build backend, tools and job, run the loop, render, return the exit code."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pedro.cli.common import CommonFlags, load
from pedro.cli.render import make_renderer
from pedro.config import PedroConfig
from pedro.errors import TERMINATED_EXIT_CODE, Terminated, UsageError


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
) -> int:
    """Run one role to the end (or continue the saved job `resume`, with a new user `message` when given) and
    return the process exit code.

    `test_command` (debug --test) is the job's test command; else [agent].test_command or the detected runner.
    `on_result` gets the run's result (pedro.agent.RunResult) and the repository root when the job has ended.
    `config` replaces the loaded configuration (a session passes the one of the server it holds); `follow_up`
    (a session's next message to the same job) leaves out the setup notes the person has already read.
    """
    root, loaded = load(flags)
    config = config or loaded
    with _second_interrupt_exits(), _run_lock(root, role_name, resume):
        return _run(role_name, flags, task_vars, root, config, resume, test_command, on_result, message, follow_up)


def _run_lock(root: Path, role_name: str, resume: str | None) -> contextlib.AbstractContextManager[None]:
    """Builder and debugger (and any resumed job, whose role is only known later) hold the repository's run lock."""
    from pedro.roles import get_role
    from pedro.runlock import hold_run_lock
    from pedro.workspace import is_git_repo

    changes = resume is not None or get_role(role_name).evidence == "changes"
    if not changes or not is_git_repo(root):
        return contextlib.nullcontext()
    return hold_run_lock(root, f"job {resume}" if resume else f"pedro {role_name}")


def _run(
    role_name: str,
    flags: CommonFlags,
    task_vars: dict[str, Any],
    root: Path,
    config: PedroConfig,
    resume: str | None,
    test_command: str | None,
    on_result: Callable[[Any, Path], None] | None = None,
    message: str | None = None,
    follow_up: bool = False,
) -> int:
    from pedro.agent import Limits, run_agent
    from pedro.backends import get_backend
    from pedro.backends.base import GenerationOptions
    from pedro.context import render_task
    from pedro.debuglog import DEBUG_LOG_NAME, job_log
    from pedro.dispatch import Dispatcher
    from pedro.gate import Gate
    from pedro.instructions import load_instructions
    from pedro.jobs import JobStore
    from pedro.roles import get_role
    from pedro.safety.journal import JOURNAL_NAME, Journal
    from pedro.safety.sandbox import active_sandbox
    from pedro.safety.sandbox import describe as describe_sandbox
    from pedro.safety.secrets import Redactor, secret_values
    from pedro.settings import RunSettings
    from pedro.tools import ToolRegistry
    from pedro.tools.base import ToolContext

    saved = _saved_job(root, resume, flags, with_message=bool(message)) if resume is not None else None
    if saved is not None:
        config = _with_job_backend(config, saved[0], flags)
        role_name = saved[0].role
    role = get_role(role_name)
    renderer = make_renderer(json_mode=flags.json, stream_json=flags.stream_json)
    _report_interrupted_jobs(root, renderer)
    for abandoned in JobStore(root).settle_abandoned():
        renderer.notice(f"job {abandoned.id} was left running by a pedro process that is gone: marked interrupted")
    with managed_server(config, renderer) as config:
        if not config.backend.model:
            raise UsageError(
                "no model given: pass --model NAME (or set [backend].model / PEDRO_MODEL); "
                "`ollama list` or the server's /v1/models shows the names"
            )
        backend = get_backend(config)
        if not config.backend.model_file:
            _warn_if_template_missing(backend, renderer)
        logs = contextlib.ExitStack()
        try:
            ctx = ToolContext(
                root=root,
                config=config.tools,
                approve=renderer.approver(flags.interactive),
                ask=renderer.asker(flags.interactive),
                read_only=role.read_only or config.safety.mode == "read-only",
            )
            redactor = Redactor(secret_values(os.environ, root=root))
            sandbox = active_sandbox()
            if not follow_up:
                renderer.notice(f"sandbox for bash and test: {describe_sandbox(sandbox)}")
            gate = Gate(_policy(config, interactive=flags.interactive), sandboxed=sandbox.kind != "none")
            if config.safety.mode != "workspace-write":
                renderer.notice(f"safety mode: {config.safety.mode}")
            dispatcher = Dispatcher(ToolRegistry.default(role.tools), ctx, redactor=redactor, gate=gate)
            store = JobStore(root, redactor=redactor)
            if saved is None:
                task = render_task(role, **task_vars)
                job = store.create(role=role.name, task=task, backend=config.backend.kind, model=config.backend.model)
                job.base_url, job.short_tools = config.resolved_base_url(), _small_window(backend)
                job.test_command = test_command or ""
                store.save(job)
                history: list[Any] = []
            else:
                job, history = saved
                job.status, job.pid = "running", os.getpid()
                store.save(job)
                if message:
                    from pedro.messages import Message

                    history = [*history, Message("user", message)]
                    store.append_message(job.id, history[-1])
                task = job.task
                if not follow_up:
                    replies = sum(m.role == "assistant" for m in history)
                    renderer.notice(f"resuming job {job.id} after {replies} replies")
            instructions = ""
            if saved is None:
                found = load_instructions(root, Path.cwd(), max_chars=config.agent.instructions_max_chars)
                if found is not None:
                    instructions = redactor.redact(found.text)
                    cut = " (cut to [agent].instructions_max_chars)" if found.cut else ""
                    renderer.notice(f"project instructions for the model: {', '.join(found.files)}{cut}")
            logs.enter_context(job_log(store.job_dir(job.id) / DEBUG_LOG_NAME, verbose=flags.verbose))
            journal = Journal(store.job_dir(job.id) / JOURNAL_NAME)
            dispatcher.journal = journal
            with store.ending_on_error(job):
                guard, branch, protected = _protect_work(
                    root, job.id, role.evidence == "changes", renderer, resumed=saved is not None, quiet=follow_up
                )
            setup = {
                "model": config.backend.model,
                "server": config.resolved_base_url(),
                "sandbox": describe_sandbox(sandbox),
                **protected,
            }
            guard.journal = journal
            dispatcher.after_call = guard.after_call
            options = GenerationOptions(
                temperature=config.backend.temperature,
                max_tokens=config.backend.max_tokens,
                tool_mode=config.backend.tool_mode,
                stream=config.backend.stream,
            )
            limits = Limits(
                max_rounds=config.agent.max_rounds,
                max_idle_replies=config.agent.max_idle_replies,
                max_repeats=config.agent.max_repeats,
                time_limit_s=config.agent.time_limit_s or None,
            )
            tests = _test_evidence(role, root, ctx, config, test_command or job.test_command or None, job)
            repair = _repairer(role, config, backend, dispatcher, tests, options, guard)
            try:
                with _time_limit(limits.time_limit_s):
                    result = run_agent(
                        task,
                        role=role,
                        backend=backend,
                        dispatcher=dispatcher,
                        limits=limits,
                        options=options,
                        store=store,
                        job=job,
                        on_event=renderer.handle,
                        short_tools=job.short_tools,
                        guard=guard,
                        resume=history,
                        repair=repair,
                        tests=tests,
                        instructions=instructions,
                        settings=RunSettings.from_config(config),
                        setup=setup,
                    )
            finally:
                store.close()
            if result.exit_status == "interrupted":
                _report_interrupted_round(journal, job.id, renderer)
            if branch is not None:
                _settle_branch(root, job.id, guard, branch, renderer)
        finally:
            logs.close()
            backend.close()
    renderer.close()
    if on_result is not None:
        on_result(result, root)
    return result.exit_code


def _test_evidence(role: Any, root: Path, ctx: Any, config: PedroConfig, given: str | None, job: Any) -> Any:
    """The job's tests, for roles whose completion needs evidence, with the baseline a resumed job recorded (a new
    job takes its own when the loop starts); None when no test command is known."""
    from pedro.evidence import ProjectTests, TestEvidence, TestStates, find_test_command

    if role.evidence != "changes":
        return None
    args = find_test_command(root, given, config.agent.test_command)
    if args is None:
        return None
    saved = job.evidence.get("baseline") if isinstance(job.evidence, dict) else None
    baseline = TestStates.from_dict(saved) if isinstance(saved, dict) else None
    return TestEvidence(ProjectTests(args, ctx), baseline, must_fix=role.fixes_failing_tests)


def _repairer(
    role: Any, config: PedroConfig, backend: Any, dispatcher: Any, tests: Any, options: Any, guard: Any
) -> Any:
    """Test-driven repair, for roles that use it (before the loop or as a finisher), when tests are known and it may
    edit."""
    if role.repair == "never" or not config.repair.enabled or tests is None or dispatcher.ctx.read_only:
        return None
    from pedro.repair import Repairer, RepairSettings

    settings = RepairSettings(
        candidates=config.repair.candidates,
        temperature=config.repair.temperature,
        max_tokens=config.repair.max_tokens,
        max_units=config.repair.max_functions,
        coverage=config.repair.coverage,
    )
    return Repairer(
        backend=backend, dispatcher=dispatcher, tests=tests.tests, settings=settings, options=options, guard=guard
    )


def _warn_if_template_missing(backend: Any, renderer: Any) -> None:
    """A llama-server pedro did not start, serving a GGUF without a chat template on its ChatML fallback."""
    from pedro.backends.probe import describe_missing_template, missing_template

    missing = missing_template(backend)
    if missing is not None:
        problem, fix = describe_missing_template(*missing)
        renderer.notice(f"{problem}; {fix}")


def _policy(config: PedroConfig, *, interactive: bool) -> Any:
    """The policy of this run: the configured mode and approval, never asking when nobody can answer."""
    from pedro.safety.policy import Policy

    roots = tuple(str(Path(root).expanduser().resolve()) for root in config.safety.read_roots)
    approval = config.safety.approval if interactive else "never"
    return Policy(mode=config.safety.mode, approval=approval, read_roots=roots)


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
def _time_limit(seconds: float | None) -> Iterator[None]:
    """The job's wall-clock limit, kept wherever the run is (the model streaming, a test or repair running): an alarm
    raises TimeLimitReached, which stops and saves the job as Ctrl-C does. Off the main thread, the loop's own check
    at each round is the limit."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return
    from pedro.errors import TimeLimitReached

    def on_alarm(_signum: int, _frame: Any) -> None:
        raise TimeLimitReached(seconds)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _report_interrupted_round(journal: Any, job_id: str, renderer: Any) -> None:
    """Which files the interrupted round had changed, and how to take them back."""
    from pedro.safety.journal import read_state

    state = read_state(journal.path, job_id)
    if state is None or not (state.changed or state.in_flight):
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
            settle_interrupted(root, state.job_id)
        except SnapshotError as exc:
            renderer.notice(f"could not snapshot what job {state.job_id} left behind: {exc}")


def _describe_round(state: Any, headline: str) -> str:
    parts = [headline]
    if state.changed:
        parts.append(f" after changing {', '.join(state.changed)}")
    if state.in_flight:
        parts.append(f" while writing {', '.join(state.in_flight)} (each is either fully old or fully new)")
    return "".join(parts) + f"; `pedro undo {state.job_id}` restores the files as they were before that round"


SMALL_WINDOW_TOKENS = 8192


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
    if not any(message.role == "assistant" for message in history):
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


def _protect_work(
    root: Path, job_id: str, own_branch: bool, renderer: Any, *, resumed: bool = False, quiet: bool = False
) -> tuple[Any, tuple[str, str] | None, dict[str, Any]]:
    """Snapshot the user's work before anything can change, then move builder and debugger to their own branch.

    Returns the guard; when this run made the job branch, (the branch it came from, the commit it started at); and
    the facts for job.started (the first snapshot's ref, the branch the job works on).
    """
    from pedro.safety.guard import JournalOnlyGuard, SnapshotGuard
    from pedro.safety.jobbranch import ensure_job_branch
    from pedro.safety.snapshots import current_branch, head_commit
    from pedro.workspace import is_git_repo

    if not is_git_repo(root):
        renderer.notice(
            f"{root} is not a git repository: no snapshots, no job branch; `pedro undo` cannot undo this job"
        )
        return JournalOnlyGuard(), None, {"snapshot": None, "branch": None}
    guard = SnapshotGuard(root, job_id)
    first = guard.start("job resumed" if resumed else "job start")
    if not quiet:
        renderer.notice(f"snapshot of your work: {first.ref} (pedro undo --start {job_id} restores it)")
    if first.not_covered:
        from pedro.safety.snapshots import shorten

        renderer.notice(
            f"not in the snapshot, so undo cannot restore them (ignored build output, dependencies, "
            f"large ignored files): {shorten(first.not_covered)}"
        )
    if not own_branch:
        return guard, None, {"snapshot": first.ref, "branch": current_branch(root)}
    start = head_commit(root) or ""
    previous = ensure_job_branch(root, job_id)
    renderer.notice(f"working on branch pedro/{job_id}, with your uncommitted changes; {previous} is untouched")
    made = None if resumed or previous == f"pedro/{job_id}" else (previous, start)
    return guard, made, {"snapshot": first.ref, "branch": f"pedro/{job_id}"}


def _settle_branch(root: Path, job_id: str, guard: Any, branch: tuple[str, str], renderer: Any) -> None:
    """A job that changed nothing leaves the user where they were; one that changed files says what and how back."""
    from pedro.safety.jobbranch import leave_unused_job_branch
    from pedro.safety.snapshots import shorten

    previous, start = branch
    changed = guard.changed_files()
    if not changed:
        if leave_unused_job_branch(root, job_id, previous, start):
            renderer.notice(f"the job changed no file: back on {previous}, and no pedro/{job_id} branch is kept")
        return
    renderer.notice(
        f"the job changed {len(changed)} file{'s' if len(changed) != 1 else ''}: {shorten(changed)}; you are on "
        f"branch pedro/{job_id}. `git switch {previous}` returns you (uncommitted changes come along); "
        f"`pedro undo {job_id}` takes the job's changes back"
    )


def _small_window(backend: Any) -> bool:
    """Whether the model's window is too small for the full tool descriptions."""
    window = backend.context_window()
    return window is not None and window < SMALL_WINDOW_TOKENS


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

"""run_agent(): the one loop every role runs — render, complete, extract, dispatch, observe, check limits."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pedro import endings
from pedro.backends.base import Backend, ContextOverflowError, GenerationOptions
from pedro.compaction import Compactor, OutputSaver, TaskState
from pedro.context import (
    build_chat_prompt,
    build_system_prompt,
    render_finalise,
    render_format_problems,
    render_ignored_calls,
    render_interrupted,
    render_tool_result,
)
from pedro.debuglog import LOGGER
from pedro.dispatch import Dispatcher
from pedro.effects import Effects
from pedro.endings import Counters, Ending, Evidence, RepairStep
from pedro.endings import Limits as Limits
from pedro.errors import TERMINATED_EXIT_CODE, BackendError, PedroError
from pedro.evidence import TestEvidence, TestStates, describe_test_run
from pedro.findings import parse_findings
from pedro.jobs import Job, JobStore
from pedro.messages import EXIT_CODES, Completion, Event, EventType, ExitStatus, Message, ToolCall, ToolResult, Usage
from pedro.repair import RepairOutcome
from pedro.roles import Role
from pedro.settings import RunSettings
from pedro.tokens import TokenLedger
from pedro.toolcalls import StreamExtractor, extract
from pedro.tools.textfile import is_text_file
from pedro.window import ContextBudget, ContextFullError
from pedro.workspace import fingerprint

EventHandler = Callable[[Event], None]


class ChangeGuard(Protocol):
    """Keeps the user's work recoverable while the job changes files (see pedro.safety.guard)."""

    def before(self, round_no: int, calls: Sequence[Effects]) -> dict[str, Any] | None: ...

    def finish(self) -> dict[str, Any] | None: ...


def _ignore(_: Event) -> None:
    return None


@dataclass(frozen=True)
class RunResult:
    """How a job ended."""

    job_id: str
    exit_status: ExitStatus
    reason: str
    summary: str
    rounds: int
    tool_calls: int
    usage: Usage
    duration_s: float

    @property
    def exit_code(self) -> int:
        return TERMINATED_EXIT_CODE if self.reason == "terminated" else EXIT_CODES[self.exit_status]


@dataclass
class _Emitter:
    """Numbers events, persists them and hands them to the caller."""

    job_id: str
    store: JobStore | None
    on_event: EventHandler
    seq: int = 0

    def emit(self, type_: EventType, *, persist: bool = True, **data: Any) -> None:
        self.seq += 1
        event = Event(type=type_, job_id=self.job_id, seq=self.seq, data=data)
        if persist and self.store is not None:
            self.store.append(self.job_id, event)
        self.on_event(event)


class _History(list[Message]):
    """The conversation; every message appended is also saved, so an interrupted job can resume."""

    def __init__(self, store: JobStore | None, job_id: str) -> None:
        super().__init__()
        self._store = store
        self._job_id = job_id

    def append(self, message: Message) -> None:
        super().append(message)
        if self._store is not None:
            self._store.append_message(self._job_id, message)


@dataclass
class _RunState:
    """Counters of one run; never global."""

    rounds: int = 0
    tool_calls: int = 0
    counters: Counters = field(default_factory=Counters)
    repair_candidates: int | None = None
    usage: Usage = field(default_factory=Usage)
    task: TaskState = field(default_factory=lambda: TaskState(goal=""))
    after_calls: bool = False
    """The last reply called tools (an empty reply now earns the finalisation request)."""
    finalising: bool = False
    """The next request is the finalisation request ([tool_calling].fix_empty_final)."""
    failed_repair: str = ""
    """What a repair that ran before the loop and did not fix the tests said; the model then gets only a few
    rounds to make a successful call (Limits.rounds_after_failed_repair)."""


def run_agent(
    task: str,
    *,
    role: Role,
    backend: Backend,
    dispatcher: Dispatcher,
    limits: Limits,
    options: GenerationOptions,
    store: JobStore | None = None,
    job: Job | None = None,
    on_event: EventHandler = _ignore,
    short_tools: bool = False,
    guard: ChangeGuard | None = None,
    resume: Sequence[Message] = (),
    repair: RepairStep | None = None,
    tests: TestEvidence | None = None,
    instructions: str = "",
    settings: RunSettings | None = None,
    setup: Mapping[str, Any] | None = None,
) -> RunResult:
    """Drive the model until it reports completion, a limit is hit, or the backend fails.

    With `resume` (a saved conversation of `job`), the loop continues it instead of starting a new one. With
    `tests`, a new job first runs them for its baseline, and a completion claim of a role that needs evidence holds
    only when nothing that passed then fails now (pedro.evidence). With `repair`, the role says when it runs
    (Role.repair): before the loop (a repair that the evidence backs ends the job, else the loop starts with what it
    learned), or as a finisher on the tests a completion claim left failing.
    `instructions` (the project's AGENTS.md and kin, already cut to budget) open the first user message.
    `settings` ([tool_calling] and the composed request settings) default to those of the dispatcher's context.
    `setup` (model, server, sandbox, snapshot, branch: what the caller arranged) goes into `job.started`.
    """
    started = time.monotonic()
    job_id = job.id if job is not None else "ephemeral"
    persist = store is not None and job is not None
    emitter = _Emitter(job_id, store, on_event, seq=store.last_seq(job_id) if store is not None and resume else 0)
    settings = settings if settings is not None else RunSettings(calling=dispatcher.ctx.calling)
    # One set of [tool_calling] settings per run: the dispatcher enforces the limits and masks the loop follows.
    dispatcher.ctx.calling = settings.calling
    # Small windows get short tool descriptions; either way the list is fixed for the whole job. Chat only: none.
    tools = [] if settings.calling.tool_use_mode == "disabled" else dispatcher.specs(short=short_tools)
    root = dispatcher.ctx.root
    history = _History(store if persist else None, job_id)
    if resume:
        history.extend(resume)
    state = _RunState(task=TaskState(goal=task))
    baseline = job.baseline if job is not None and job.baseline else ""
    if role.evidence == "changes" and not baseline:
        baseline = fingerprint(root)
        if job is not None and store is not None:
            job.baseline = baseline
            store.save(job)
    finisher = repair if role.repair == "finisher" else None
    first_repair = repair if role.repair == "first" else None
    emitter.emit(
        "job.started",
        role=role.name,
        task=task,
        backend=backend.name,
        tools=[t["function"]["name"] for t in tools],
        max_rounds=limits.max_rounds,
        resumed=bool(resume),
        settings=settings.recorded(),
        **(setup or {}),
    )
    loop = _Loop(
        backend, dispatcher, limits, options, emitter, tools, history, state,
        Evidence(role, root, baseline, tests, emitter.emit, finisher), guard,
        _output_saver(store, job, root) if persist else None, settings, dispatcher.registry.specs(short=short_tools),
        started + limits.time_limit_s if limits.time_limit_s else None,
    )  # fmt: skip
    ending = endings.round_limit(limits)
    try:
        if tests is not None and not resume:
            _take_baseline(tests, job, store, emitter)
        ending = _run_rounds(loop, task, resume, first_repair, instructions) or ending
        ending = endings.tool_use(ending, state.counters, settings.calling)
    except ContextFullError as exc:
        ending = endings.context_full(str(exc))
    except BackendError as exc:
        ending = endings.backend_failed(str(exc))
    except KeyboardInterrupt as how:
        ending = endings.interrupted(how)
    except BaseException as exc:
        # A fault in pedro itself still leaves a finished job and its last snapshot; the CLI reports the error.
        LOGGER.exception("the loop of job %s failed", job_id)
        ending = endings.internal_error(exc)
        raise
    finally:
        result = _finish(ending, job, store, emitter, guard, state, time.monotonic() - started, role, loop.evidence)
    return result


@dataclass
class _Loop:
    """Everything one job's rounds use, wired once by run_agent."""

    backend: Backend
    dispatcher: Dispatcher
    limits: Limits
    options: GenerationOptions
    emitter: _Emitter
    tools: list[dict[str, Any]]
    history: _History
    state: _RunState
    evidence: Evidence
    guard: ChangeGuard | None
    saver: OutputSaver | None
    settings: RunSettings
    known_tools: list[dict[str, Any]]
    """Every tool of the role, masked or not: calls are read against these, so a call to a masked tool is
    answered with TOOL_NOT_ALLOWED rather than taken for prose."""
    deadline: float | None = None
    """time.monotonic() at which the job's time limit passes."""

    @property
    def chat_only(self) -> bool:
        """tool_use_mode = "disabled": no tools sent or described, no calls run, the reply is the result."""
        return self.settings.calling.tool_use_mode == "disabled"


def _run_rounds(
    loop: _Loop, task: str, resume: Sequence[Message], repair: RepairStep | None, instructions: str
) -> Ending | None:
    """Repair first when the role starts with it, then one round after another; the ending a rule gave, or None
    when the rounds ran out."""
    backend, emitter, state, history, options = loop.backend, loop.emitter, loop.state, loop.history, loop.options
    root = loop.dispatcher.ctx.root
    repaired = None
    if repair is not None and not resume and not loop.chat_only:
        tests = loop.evidence.tests
        repaired = repair.run(emitter.emit, start=tests.baseline_run if tests is not None else None)
        state.usage += repaired.usage
        state.tool_calls += repaired.tool_calls
        state.repair_candidates = repaired.candidates
        ending = _after_first_repair(loop, repaired)
        if ending is not None:
            return ending
    # Asking the window first also tells a backend whether the model takes native tools (Ollama's /api/show).
    budget = ContextBudget(
        TokenLedger(backend.count_tokens), Compactor(loop.saver), backend.context_window(), emitter.emit
    )
    # Native tools travel in the request, so the system prompt describes them only in text mode.
    system = {
        native: build_chat_prompt(repo_name=root.name)
        if loop.chat_only
        else build_system_prompt(loop.evidence.role, loop.tools, repo_name=root.name, native=native)
        for native in (True, False)
    }
    if not resume:
        handover = repaired.handover if repaired is not None else ""
        history.append(Message("system", system[backend.sends_tools(options)]))
        first = f"{task.rstrip()}\n\n{handover}" if handover else task
        history.append(Message("user", f"{instructions.strip()}\n\n{first}" if instructions.strip() else first))
    while state.rounds < loop.limits.max_rounds:
        if loop.deadline is not None and time.monotonic() >= loop.deadline:
            return endings.time_limit(loop.limits)
        state.rounds += 1
        emitter.emit("round.started", round=state.rounds)
        native = backend.sends_tools(options)
        _follow_tool_mode(history, system, native)
        # The finalisation request goes without tools unless fix_empty_final_with_tools says otherwise.
        finalising, state.finalising = state.finalising, False
        offered = [] if finalising and not loop.settings.calling.fix_empty_final_with_tools else loop.tools
        # Only natively sent tools are part of the prompt; in text mode the system prompt describes them.
        in_prompt = offered if native else []
        request = budget.prepare(history, in_prompt, options, state.task, state.rounds)
        try:
            completion = _complete(backend, request.messages, offered, request.options, emitter)
        except ContextOverflowError as exc:
            # The server's window is smaller than it said: compact to the one it names and ask once more.
            budget.refused(request, exc.window)
            request = budget.prepare(history, in_prompt, options, state.task, state.rounds)
            completion = _complete(backend, request.messages, offered, request.options, emitter)
        budget.observe(request, completion.usage.prompt_tokens, state.rounds)
        state.usage += completion.usage
        ending = _handle_reply(loop, completion)
        emitter.emit(
            "round.finished",
            round=state.rounds,
            usage=_usage_dict(completion.usage),
            timings=completion.timings,
            prompt_estimate=request.prompt_tokens,
        )
        if ending is not None:
            return ending
        stalled = state.rounds >= loop.limits.rounds_after_failed_repair and not state.counters.ok_calls
        if state.failed_repair and stalled:
            return endings.stalled_after_repair(state.failed_repair, state.rounds)
    return None


def _take_baseline(tests: TestEvidence, job: Job | None, store: JobStore | None, emitter: _Emitter) -> None:
    """Run the job's tests before anything changes: what passes and fails now is what later runs are judged by."""
    run = tests.run()
    emitter.emit("tests.run", **describe_test_run(run, "baseline", tests.command))
    tests.baseline, tests.baseline_run = TestStates.of(run), run
    if tests.baseline is None:
        emitter.emit(
            "notice",
            message=f"{tests.tests.named} does not name its tests, so completion needs the whole command to pass",
        )
    if job is not None and store is not None:
        job.evidence = tests.to_dict()
        store.save(job)


def _after_first_repair(loop: _Loop, repaired: RepairOutcome) -> Ending | None:
    """A repair before the loop ends the job when it changed the code and the evidence backs the change; else the
    loop goes on, for only a few rounds when the model cannot make a successful call."""
    evidence = loop.evidence
    if repaired.changed and repaired.last_run is not None:
        judgement = evidence.judge_run(repaired.last_run) if evidence.tests is not None else None
        if judgement is None or judgement.holds:
            return endings.repaired(endings.with_notes(repaired.summary, judgement))
    if repaired.ran:
        loop.state.failed_repair = repaired.summary
    return None


def _finish(
    ending: Ending,
    job: Job | None,
    store: JobStore | None,
    emitter: _Emitter,
    guard: ChangeGuard | None,
    state: _RunState,
    duration_s: float,
    role: Role,
    evidence: Evidence,
) -> RunResult:
    """The job's last snapshot, `job.finished` and the saved job record: always, whatever ended the run."""
    if guard is not None:
        _snapshot(emitter, guard.finish)
    result = RunResult(
        emitter.job_id,
        ending.status,
        ending.reason,
        ending.summary,
        state.rounds,
        state.tool_calls,
        state.usage,
        duration_s,
    )
    totals = _totals(result, state, evidence)
    report = _evidence_report(evidence)
    extra: dict[str, Any] = {"evidence": report} if report else {}
    emitter.emit(
        "job.finished",
        exit_status=ending.status,
        exit_code=result.exit_code,
        reason=ending.reason,
        summary=ending.summary,
        totals=totals,
        **extra,
        **_role_report(role, ending.summary),
    )
    if job is not None and store is not None:
        job.status, job.exit_status, job.exit_code = ending.status, ending.status, result.exit_code
        job.summary, job.finished_at, job.totals = ending.summary, time.time(), totals
        job.evidence = report or job.evidence
        store.save(job)
    return result


def _evidence_report(evidence: Evidence) -> dict[str, Any]:
    """The tests' baseline, their final state and the verdict per test, for job.finished and the job record."""
    if evidence.tests is None:
        return {}
    report = evidence.tests.to_dict()
    last = evidence.last
    if last is not None:
        final = TestStates.of(last.run)
        report["final"] = final.to_dict() if final is not None else None
        report.update(last.to_dict())
    return report


def _role_report(role: Role, summary: str) -> dict[str, Any]:
    """What a role's answer reports besides its text: a reviewer's numbered findings."""
    if not role.reports_findings:
        return {}
    return {"findings": [finding.to_dict() for finding in parse_findings(summary)]}


def _follow_tool_mode(history: list[Message], system: dict[bool, str], native: bool) -> None:
    """Keep the system prompt in step with how the tools travel: described in it only when not sent natively.

    It changes only when the mode does (a server refused native tools mid-job, or a resumed job runs in the other
    mode), so the cached prefix holds in every other round.
    """
    if history and history[0].role == "system" and history[0].content == system[not native]:
        history[0] = Message("system", system[native])


def _output_saver(store: JobStore | None, job: Job | None, root: Path) -> OutputSaver:
    """Where compaction keeps the full text of what it masks: the job directory, as a path inside the repository."""

    def save(index: int, text: str) -> str | None:
        if store is None or job is None:
            return None
        try:
            path = store.save_output(job.id, f"message-{index:04d}", text)
        except OSError:
            return None
        return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)

    return save


def _complete(
    backend: Backend, history: list[Message], tools: list[dict[str, Any]], options: GenerationOptions, emitter: _Emitter
) -> Completion:
    """One request; the visible text is shown live as it arrives, call markup held back."""
    live = StreamExtractor(tools)

    def on_token(delta: str) -> None:
        visible = live.feed(delta)
        if visible:
            emitter.emit("model.delta", persist=False, text=visible)

    def on_notice(text: str) -> None:
        emitter.emit("notice", message=text)

    # The backend decides what goes on the wire (native tools, or a grammar in text mode); it always knows the tools.
    completion = backend.complete(history, tools=tools, options=options, on_token=on_token, on_notice=on_notice)
    held_back = live.flush()  # text held back in case it began call markup, now known to be prose
    if held_back:
        emitter.emit("model.delta", persist=False, text=held_back)
    for notice in completion.notices:
        emitter.emit("notice", message=notice)
    emitter.emit(
        "model.completed",
        text=completion.text,
        reasoning=completion.reasoning,
        native_calls=len(completion.tool_calls),
        finish_reason=completion.finish_reason,
        usage=_usage_dict(completion.usage),
        timings=completion.timings,
    )
    return completion


def _handle_reply(loop: _Loop, completion: Completion) -> Ending | None:
    """Run the reply's calls and append what the model must read next; the ending when a rule ends the run."""
    dispatcher, emitter, state, history, guard = loop.dispatcher, loop.emitter, loop.state, loop.history, loop.guard
    if loop.chat_only:
        history.append(Message("assistant", completion.text))
        return endings.chat_reply(completion.text)
    # The extractor does no I/O: whether `file PATH` in a bash block names a text file is asked of the tool context.
    text_file = functools.partial(is_text_file, dispatcher.ctx)
    extraction = extract(_payload(completion), loop.known_tools, finish_reason=completion.finish_reason,
                         text_file=text_file)  # fmt: skip
    native_ids = {call.id for call in completion.tool_calls if call.id}
    native = [call for call in extraction.calls if call.id in native_ids]
    history.append(Message("assistant", completion.text, tool_calls=tuple(native)))
    for problem in extraction.problems:
        emitter.emit("format.problem", kind=problem.kind, message=problem.message)
    feedback: list[str] = []
    calls, ignored = _split_turn(loop, extraction.calls)
    if calls:
        verdict = endings.repeated_calls(calls, state.counters, loop.limits)
        if verdict.ending is not None:
            return verdict.ending
        feedback += verdict.feedback
    effects = [dispatcher.effects(call) for call in calls]
    if calls and guard is not None:
        _snapshot(emitter, guard.before, state.rounds, effects)
    answered = 0
    results: list[ToolResult] = []
    try:
        for index, call in enumerate(calls, start=1):
            result = dispatcher.run_reported(call, emitter.emit)
            results.append(result)
            state.tool_calls += 1
            state.task.record(call, result, effects[index - 1])
            if call in native:
                history.append(Message("tool", render_tool_result(result), tool_call_id=call.id, name=call.name))
            else:
                feedback.append(render_tool_result(result, index=index))
            answered = index
        _answer_ignored(loop, ignored, native, feedback)
    except KeyboardInterrupt:
        # Every call the assistant message holds gets a result, so a resumed conversation is well-formed.
        for call in calls[answered:]:
            text = render_interrupted(call.name)
            if call in native:
                history.append(Message("tool", text, tool_call_id=call.id, name=call.name))
            else:
                feedback.append(text)
        _answer_ignored(loop, ignored, native, feedback)
        if feedback:
            history.append(Message("user", "\n\n".join(feedback)))
        raise
    if extraction.problems:
        feedback.append(render_format_problems(extraction.problems))
    failed = endings.tool_failed(results, state.counters, loop.settings.calling)
    if failed is not None:
        if feedback:
            history.append(Message("user", "\n\n".join(feedback)))
        return failed
    after_calls, state.after_calls = state.after_calls, bool(calls)
    if calls:
        state.counters.idle = 0
    elif (
        after_calls
        and not extraction.problems
        and _empty(completion, extraction.text)
        and loop.settings.calling.fix_empty_final
    ):
        # Small models often end with an empty message after their last tool result: ask once for the answer.
        emitter.emit("notice", message="the reply after the tool results was empty; asking once for a final answer")
        state.finalising = True
        feedback.append(render_finalise())
    else:
        verdict = endings.reply_without_calls(
            extraction.text, bool(extraction.problems), state.counters, loop.limits, loop.evidence
        )
        if verdict.ending is not None:
            return verdict.ending
        feedback += verdict.feedback
    if feedback:
        history.append(Message("user", "\n\n".join(feedback)))
    return endings.timeouts(dispatcher.halted)


def _split_turn(loop: _Loop, calls: Sequence[ToolCall]) -> tuple[list[ToolCall], list[ToolCall]]:
    """The calls of a reply that run ([tool_calling].max_tool_calls_per_turn) and those past the limit, which the
    trace records."""
    limit = loop.settings.calls_per_turn
    if not limit or len(calls) <= limit:
        return list(calls), []
    ignored = list(calls[limit:])
    loop.emitter.emit(
        "tool_calls.ignored",
        limit=limit,
        ignored_tool_calls=[{"id": call.id, "name": call.name, "arguments": call.arguments} for call in ignored],
    )
    return list(calls[:limit]), ignored


def _answer_ignored(loop: _Loop, ignored: list[ToolCall], native: list[ToolCall], feedback: list[str]) -> None:
    """Tell the model which calls did not run; a native call gets its own answer, so the conversation stays
    well-formed."""
    if not ignored:
        return
    note = render_ignored_calls([call.name for call in ignored], loop.settings.calls_per_turn)
    for call in ignored:
        if call in native:
            loop.history.append(Message("tool", note, tool_call_id=call.id, name=call.name))
    if any(call not in native for call in ignored):
        feedback.append(note)


def _empty(completion: Completion, visible: str) -> bool:
    """A reply with nothing in it: no text beyond reasoning, no calls, no call the extractor could not read."""
    return not visible.strip() and not completion.tool_calls


def _snapshot(emitter: _Emitter, take: Callable[..., dict[str, Any] | None], *args: Any) -> None:
    """Take a snapshot and record it; a failure is reported, and the job goes on with the snapshots it has."""
    try:
        taken = take(*args)
    except PedroError as exc:
        emitter.emit("notice", message=f"could not snapshot the working tree: {exc}")
        return
    if taken is not None:
        emitter.emit("snapshot.taken", **taken)


def _payload(completion: Completion) -> str | dict[str, Any]:
    """The reply in the shape extract() reads: the server's assembled message when the backend kept it (so a
    native call with unreadable arguments becomes a problem, not silence), else the text and native calls."""
    message = completion.raw.get("message")
    if isinstance(message, dict) and (completion.tool_calls or message.get("tool_calls")):
        return message
    if not completion.tool_calls:
        return completion.text
    return {
        "role": "assistant",
        "content": completion.text,
        "tool_calls": [
            {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
            for call in completion.tool_calls
        ],
    }


def _usage_dict(usage: Usage) -> dict[str, int]:
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "cached_tokens": usage.cached_tokens,
    }


def _totals(result: RunResult, state: _RunState, evidence: Evidence) -> dict[str, Any]:
    usage, tool_calls, candidates = result.usage, result.tool_calls, state.repair_candidates
    for finished in evidence.repairs:  # repair as a finisher, run on a completion claim
        usage, tool_calls = usage + finished.usage, tool_calls + finished.tool_calls
        candidates = (candidates or 0) + finished.candidates
    totals = {
        "rounds": result.rounds,
        "tool_calls": tool_calls,
        "duration_s": round(result.duration_s, 3),
        **_usage_dict(usage),
    }
    if candidates is not None:
        totals["repair_candidates"] = candidates
    return totals

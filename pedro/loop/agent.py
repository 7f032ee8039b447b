"""The Agent: the one loop every role runs — render, complete, extract, dispatch, observe, check limits — as an object
whose run() starts or resumes a job and whose step() is one round."""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pedro.backends.base import Backend, ContextOverflowError, GenerationOptions
from pedro.build import BuildOutcome
from pedro.deadline import NO_DEADLINE, Deadline
from pedro.debuglog import LOGGER
from pedro.dispatch import Dispatcher
from pedro.errors import TERMINATED_EXIT_CODE, BackendError, PedroError
from pedro.evidence import TestEvidence, TestStates, describe_test_run
from pedro.findings import Finding, parse_findings
from pedro.jobstore import Job, JobStore
from pedro.loop import endings
from pedro.loop.compaction import Compactor, OutputSaver, TaskState
from pedro.loop.context import (
    build_chat_prompt,
    build_system_prompt,
    render_finalise,
    render_format_problems,
    render_ignored_calls,
    render_interrupted,
    render_tool_result,
)
from pedro.loop.cutreply import cut_reply, was_cut
from pedro.loop.endings import BuildStep, Counters, Ending, Evidence, RepairStep
from pedro.loop.endings import Limits as Limits
from pedro.loop.window import ContextBudget, ContextFullError
from pedro.messages import EXIT_CODES, Completion, Event, EventType, ExitStatus, Message, ToolCall, ToolResult, Usage
from pedro.modelcall import complete, usage_dict
from pedro.repair import RepairOutcome
from pedro.roles import Role
from pedro.settings import RunSettings
from pedro.tokens import TokenLedger
from pedro.toolcalls import Extraction, extract
from pedro.tools.test import TestRun
from pedro.tools.textfile import is_text_file
from pedro.workspace import fingerprint

EventHandler = Callable[[Event], None]


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


class Closeable(Protocol):
    def close(self) -> None: ...


@dataclass(frozen=True)
class AgentParts:
    """Everything a run uses, complete when it is made (pedro.loop.assembly.assemble builds it for every front end)."""

    role: Role
    backend: Backend
    dispatcher: Dispatcher
    limits: Limits
    options: GenerationOptions
    settings: RunSettings | None = None
    """[tool_calling] and the composed request settings; by default those of the dispatcher's context (the two
    must agree: the dispatcher enforces the limits and masks the loop follows)."""
    store: JobStore | None = None
    job: Job | None = None
    repair: RepairStep | None = None
    """Test-driven repair; the role says when it runs (Role.repair)."""
    direct: BuildStep | None = None
    """Build's direct way, when the role writes code directly and the build's strategy chose it."""
    tests: TestEvidence | None = None
    short_tools: bool = False
    """Small windows get short tool descriptions; either way the list is fixed for the whole job."""
    setup: Mapping[str, Any] = field(default_factory=dict)
    """What the caller arranged (model, server, sandbox, snapshot, branch), for `job.started`."""
    read_findings: Callable[[str], list[Finding]] = parse_findings
    """A reviewer's answer as findings (review holds them to its change and adds its checks' own)."""
    toolsets: tuple[Closeable, ...] = ()
    """Other programs the run started for their tools (the MCP servers of [mcp.servers]); closed with the agent."""


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
    build: dict[str, Any] = field(default_factory=dict)
    """The direct build's record (pedro.build.BuildOutcome.record), for job.finished and the job record."""
    failed_repair: str = ""
    """What a repair that ran before the loop and did not fix the tests said; the model then gets only a few
    rounds to make a successful call (Limits.rounds_after_failed_repair)."""
    deadline: Deadline = NO_DEADLINE
    """When the job's time limit passes: the loop and repair read it."""


@dataclass
class _Turn:
    """What one reply's calls produce: results for native calls go into the history, the rest into feedback."""

    native: list[ToolCall]
    feedback: list[str] = field(default_factory=list)

    def answer(self, history: list[Message], call: ToolCall, text: str) -> None:
        """The one place a call's answer is routed: its own tool message when it came natively, else feedback."""
        if call in self.native:
            history.append(Message("tool", text, tool_call_id=call.id, name=call.name))
        else:
            self.feedback.append(text)

    def answer_result(self, history: list[Message], call: ToolCall, result: ToolResult, index: int) -> None:
        """A call's result; one in the feedback says which call of the reply it answers."""
        self.answer(history, call, render_tool_result(result) if call in self.native else render_tool_result(
            result, index=index
        ))  # fmt: skip

    def flush(self, history: list[Message]) -> None:
        """The feedback, as one user message."""
        if self.feedback:
            history.append(Message("user", "\n\n".join(self.feedback)))


class Agent:
    """Drives the model until it reports completion, a limit is hit, or the backend fails."""

    def __init__(self, parts: AgentParts, on_event: EventHandler = _ignore) -> None:
        self.parts = parts
        self.role = parts.role
        self.backend = parts.backend
        self.dispatcher = parts.dispatcher
        self.limits = parts.limits
        self.settings = parts.settings or RunSettings(calling=parts.dispatcher.ctx.calling)
        if self.settings.calling != parts.dispatcher.ctx.calling:
            raise ValueError("the run's [tool_calling] settings differ from those of the dispatcher's context")
        self.root = parts.dispatcher.ctx.root
        self.job_id = parts.job.id if parts.job is not None else "ephemeral"
        persist = parts.store is not None and parts.job is not None
        self.emitter = _Emitter(self.job_id, parts.store, on_event)
        self.history = _History(parts.store if persist else None, self.job_id)
        self.state = _RunState()
        # Chat only (tool_use_mode = "disabled"): no tools sent or described, no calls run, the reply is the result.
        self.chat_only = self.settings.calling.tool_use_mode == "disabled"
        self.tools = [] if self.chat_only else parts.dispatcher.specs(short=parts.short_tools)
        # Every tool of the role, masked or not: calls are read against these, so a call to a masked tool is
        # answered with TOOL_NOT_ALLOWED rather than taken for prose.
        self.known_tools = parts.dispatcher.registry.specs(short=parts.short_tools)
        finisher = parts.repair if self.role.repair == "finisher" else None
        self.evidence = Evidence(self.role, self.root, "", parts.tests, self.emitter.emit, finisher)
        self.budget: ContextBudget | None = None
        self.system: dict[bool, str] = {}
        self._is_ready = False

    def close(self) -> None:
        """Let go of the backend's connections, the tools' servers and the job's open files."""
        for toolset in self.parts.toolsets:
            toolset.close()
        self.backend.close()
        if self.parts.store is not None:
            self.parts.store.close()

    def _offered(self) -> list[dict[str, Any]]:
        """The tools sent with a request: the job's fixed list, less those of an MCP server that has stopped."""
        allowed = set(self.dispatcher.allowed)
        return [tool for tool in self.tools if tool["function"]["name"] in allowed]

    # -- a whole run ---------------------------------------------------------------------------------------------

    def run(
        self, task: str, *, resume: Sequence[Message] = (), instructions: str = "", deadline: Deadline | None = None
    ) -> RunResult:
        """Start the job with `task` (the project's `instructions` open the first message), or continue the saved
        conversation `resume`; whatever ends it, `job.finished` and the job record are written. `deadline` is the
        job's time limit as its caller keeps it (else the limits' from now)."""
        started = time.monotonic()
        store = self.parts.store
        if store is not None and resume:
            self.emitter.seq = store.last_seq(self.job_id)
        self.history.extend(resume)
        self.state.task = TaskState(goal=task)
        self.state.deadline = deadline if deadline is not None else Deadline.after(self.limits.time_limit_s, started)
        self.evidence.deadline = self.state.deadline
        self._emit_started(task, bool(resume))
        ending = endings.round_limit(self.limits)
        try:
            ending = self._run(task, resume, instructions) or ending
            ending = endings.tool_use(ending, self.state.counters, self.settings.calling)
        except ContextFullError as exc:
            ending = endings.context_full(str(exc))
        except BackendError as exc:
            ending = endings.backend_failed(str(exc))
        except KeyboardInterrupt as how:
            ending = endings.interrupted(how)
        except BaseException as exc:
            # A fault in pedro itself still leaves a finished job and its last snapshot; the CLI reports the error.
            LOGGER.exception("the loop of job %s failed", self.job_id)
            ending = endings.internal_error(exc)
            raise
        finally:
            result = self._finish(ending, time.monotonic() - started)
        return result

    def _run(self, task: str, resume: Sequence[Message], instructions: str) -> Ending | None:
        """The baseline and the repair a new job starts with, then one round after another; the ending a rule gave,
        or None when the rounds ran out."""
        parts = self.parts
        # What runs before the first request (the tests, the direct way, repair) may write files: the start
        # snapshot comes first. Otherwise the first request goes out while it is taken.
        if resume or parts.tests is not None or parts.direct is not None or parts.repair is not None:
            unready = self._ready()
            if unready is not None:
                return unready
        handover = ""
        if not resume:
            first = self._before_the_loop()
            if isinstance(first, Ending):
                return first
            handover = first
        self._prepare(task, resume, instructions, handover)
        while self.state.rounds < self.limits.max_rounds:
            ending = self.step()
            if ending is not None:
                return ending
        return None

    def _before_the_loop(self) -> Ending | str:
        """A new job's stages before its first round: the tests' baseline, build's direct way, repair. Their ending,
        or what the loop's model reads first from repair (else "")."""
        parts = self.parts
        tests = parts.tests
        repair = parts.repair if self.role.repair == "first" and not self.chat_only else None
        # Repair's warm pytest starts beside the baseline: its imports cost as much as the baseline's run.
        with repair.warming() if repair is not None and tests is not None else contextlib.nullcontext():
            if tests is not None:
                self._take_baseline(tests, repair)
                # The failure the person gave as a command is not there: no model can be told to fix it.
                if tests.given and tests.must_fix and tests.baseline_run is not None and tests.baseline_run.passed:
                    return endings.nothing_to_fix(tests.tests.named)
            direct = parts.direct if self.role.writes_directly and not self.chat_only else None
            if direct is not None:
                built = self._build_first(direct)
                if built is not None:
                    return built
            return self._repair_first(repair) if repair is not None else ""

    def _prepare(self, task: str, resume: Sequence[Message], instructions: str, handover: str) -> None:
        """The context budget and the system prompts; a new job's first two messages."""
        backend, root = self.backend, self.root
        # Asking the window first also tells a backend whether the model takes native tools (Ollama's /api/show).
        saver = _output_saver(self.parts.store, self.parts.job, root)
        self.budget = ContextBudget(
            TokenLedger(backend.count_tokens), Compactor(saver), backend.context_window(), self.emitter.emit
        )
        # Native tools travel in the request, so the system prompt describes them only in text mode.
        self.system = {
            native: build_chat_prompt(repo_name=root.name)
            if self.chat_only
            else build_system_prompt(self.role, self.tools, repo_name=root.name, native=native)
            for native in (True, False)
        }
        if resume:
            return
        self.history.append(Message("system", self.system[backend.sends_tools(self.parts.options)]))
        first = f"{task.rstrip()}\n\n{handover}" if handover else task
        self.history.append(Message("user", f"{instructions.strip()}\n\n{first}" if instructions.strip() else first))

    # -- one round -----------------------------------------------------------------------------------------------

    def step(self) -> Ending | None:
        """One round: ask the model, handle its reply; the ending when a rule ends the run."""
        state, limits = self.state, self.limits
        if self.budget is None:
            raise RuntimeError("Agent.step() runs inside Agent.run(), after the job's first messages")
        if state.deadline.passed:
            return endings.time_limit(limits)
        state.rounds += 1
        self.emitter.emit("round.started", round=state.rounds)
        completion, request = self._ask(self.budget)
        # The first request went out beside the start snapshot: nothing in its reply runs or is judged before it.
        ending = self._ready() or self._handle_reply(completion)
        self.emitter.emit(
            "round.finished",
            round=state.rounds,
            usage=usage_dict(completion.usage),
            timings=completion.timings,
            prompt_estimate=request.prompt_tokens,
        )
        if ending is not None:
            return ending
        stalled = state.rounds >= limits.rounds_after_failed_repair and not state.counters.ok_calls
        if state.failed_repair and stalled:
            return endings.stalled_after_repair(state.failed_repair, state.rounds)
        return None

    def _ask(self, budget: ContextBudget) -> tuple[Completion, Any]:
        """The round's request, fitted to the window; a server that says its window is smaller gets one more try."""
        state, options = self.state, self.parts.options
        native = self.backend.sends_tools(options)
        _follow_tool_mode(self.history, self.system, native)
        # The finalisation request goes without tools unless fix_empty_final_with_tools says otherwise.
        finalising, state.finalising = state.finalising, False
        offered = [] if finalising and not self.settings.calling.fix_empty_final_with_tools else self._offered()
        # Only natively sent tools are part of the prompt; in text mode the system prompt describes them.
        in_prompt = offered if native else []
        request = budget.prepare(self.history, in_prompt, options, state.task, state.rounds)
        try:
            completion = complete(self.backend, request.messages, offered, request.options, self.emitter.emit)
        except ContextOverflowError as exc:
            # The server's window is smaller than it said: compact to the one it names and ask once more.
            budget.refused(request, exc.window)
            request = budget.prepare(self.history, in_prompt, options, state.task, state.rounds)
            completion = complete(self.backend, request.messages, offered, request.options, self.emitter.emit)
        budget.observe(request, completion.usage.prompt_tokens, state.rounds)
        state.usage += completion.usage
        return completion, request

    def _handle_reply(self, completion: Completion) -> Ending | None:
        """Run the reply's calls and append what the model must read next; the ending when a rule ends the run."""
        state, history = self.state, self.history
        if was_cut(completion.finish_reason):
            # The backend cut the reply (a loop, or out of time): nothing in it runs, and it claims nothing.
            verdict, state.after_calls = cut_reply(completion.finish_reason, state.counters, self.limits), False
            history.append(Message("assistant", completion.text))
            history.extend(Message("user", line) for line in verdict.feedback)
            return verdict.ending
        if self.chat_only:
            history.append(Message("assistant", completion.text))
            return endings.chat_reply(completion.text)
        # The extractor does no I/O: whether `file PATH` in a bash block names a text file is asked of the tools.
        text_file = functools.partial(is_text_file, self.dispatcher.ctx)
        extraction = extract(
            _payload(completion), self.known_tools, finish_reason=completion.finish_reason, text_file=text_file
        )
        native_ids = {call.id for call in completion.tool_calls if call.id}
        turn = _Turn([call for call in extraction.calls if call.id in native_ids])
        history.append(Message("assistant", completion.text, tool_calls=tuple(turn.native)))
        for problem in extraction.problems:
            self.emitter.emit("format.problem", kind=problem.kind, message=problem.message)
        calls, ignored = self._split_turn(extraction.calls)
        if calls:
            verdict = endings.repeated_calls(calls, state.counters, self.limits)
            if verdict.ending is not None:
                return verdict.ending
            turn.feedback += verdict.feedback
        results = self._run_calls(calls, ignored, turn)
        if extraction.problems:
            turn.feedback.append(render_format_problems(extraction.problems))
        return self._after_results(completion, extraction, calls, results, turn)

    def _after_results(
        self, completion: Completion, extraction: Extraction, calls: list[ToolCall], results: list[ToolResult],
        turn: _Turn,
    ) -> Ending | None:  # fmt: skip
        """The endings a round's results can bring (failing tools, the same failure again), then the rest of the
        round; the turn goes into the history however it ends."""
        state, history = self.state, self.history
        failed = endings.tool_failed(results, state.counters, self.settings.calling)
        if failed is not None:
            turn.flush(history)
            return failed
        problems = [problem.message for problem in extraction.problems]
        repeated = endings.repeated_failure(calls, results, problems, state.counters)
        if repeated is not None:
            turn.flush(history)
            return repeated
        ending = self._after_calls(completion, extraction, bool(calls), turn)
        if ending is not None:
            return ending
        turn.flush(history)
        return endings.timeouts(self.dispatcher.halted)

    def _run_calls(self, calls: list[ToolCall], ignored: list[ToolCall], turn: _Turn) -> list[ToolResult]:
        """Run the calls in order, each answered; Ctrl-C answers the rest as interrupted, so a resumed conversation
        is well-formed."""
        effects = [self.dispatcher.effects(call) for call in calls]
        if calls:
            self.dispatcher.snapshots.before(self.emitter.emit, self.state.rounds, effects)
        results: list[ToolResult] = []
        try:
            for call, effect in zip(calls, effects, strict=True):
                result = self.dispatcher.run_reported(call, self.emitter.emit)
                results.append(result)
                self.state.tool_calls += 1
                self.state.task.record(call, result, effect)
                turn.answer_result(self.history, call, result, len(results))
            self._answer_ignored(ignored, turn)
        except KeyboardInterrupt:
            for call in calls[len(results) :]:
                turn.answer(self.history, call, render_interrupted(call.name))
            self._answer_ignored(ignored, turn)
            turn.flush(self.history)
            raise
        return results

    def _after_calls(self, completion: Completion, extraction: Extraction, called: bool, turn: _Turn) -> Ending | None:
        """After the calls: a reply without any is a completion claim, a nudge, or the finalisation request."""
        state = self.state
        after_calls, state.after_calls = state.after_calls, called
        if called:
            state.counters.idle = 0
            return None
        calling = self.settings.calling
        if after_calls and not extraction.problems and _empty(completion, extraction.text) and calling.fix_empty_final:
            # Small models often end with an empty message after their last tool result: ask once for the answer.
            self.emitter.emit(
                "notice", message="the reply after the tool results was empty; asking once for a final answer"
            )
            state.finalising = True
            turn.feedback.append(render_finalise())
            return None
        verdict = endings.reply_without_calls(
            extraction.text, bool(extraction.problems), state.counters, self.limits, self.evidence
        )
        if verdict.ending is None:
            turn.feedback += verdict.feedback
        return verdict.ending

    def _split_turn(self, calls: Sequence[ToolCall]) -> tuple[list[ToolCall], list[ToolCall]]:
        """The calls of a reply that run ([tool_calling].max_tool_calls_per_turn) and those past the limit, which the
        trace records."""
        limit = self.settings.calls_per_turn
        if not limit or len(calls) <= limit:
            return list(calls), []
        ignored = list(calls[limit:])
        self.emitter.emit(
            "tool_calls.ignored",
            limit=limit,
            ignored_tool_calls=[{"id": call.id, "name": call.name, "arguments": call.arguments} for call in ignored],
        )
        return list(calls[:limit]), ignored

    def _answer_ignored(self, ignored: list[ToolCall], turn: _Turn) -> None:
        """Tell the model which calls did not run; a native call gets its own answer, and one note covers the rest."""
        if not ignored:
            return
        note = render_ignored_calls([call.name for call in ignored], self.settings.calls_per_turn)
        for call in ignored:
            if call in turn.native:
                turn.answer(self.history, call, note)
        if any(call not in turn.native for call in ignored):
            turn.feedback.append(note)

    # -- the start and the end -----------------------------------------------------------------------------------

    def _ready(self) -> Ending | None:
        """Before anything that may change a file: the start snapshot holds the user's work (taken beside the first
        request, SnapshotGuard.start_beside), and the tree's fingerprint is read; an ending when the snapshot failed."""
        if self._is_ready:
            return None
        try:
            self.dispatcher.snapshots.ready(self.emitter.emit)
        except PedroError as exc:
            return endings.unprotected(str(exc))
        self.evidence.baseline = self._baseline()
        self._is_ready = True
        return None

    def _baseline(self) -> str:
        """The working tree's fingerprint when the job began (a resumed job keeps its own): completion evidence."""
        job, store = self.parts.job, self.parts.store
        if self.role.evidence != "changes":
            return job.baseline if job is not None else ""
        if job is not None and job.baseline:
            return job.baseline
        baseline = fingerprint(self.root)
        if job is not None and store is not None:
            job.baseline = baseline
            store.save(job)
        return baseline

    def _emit_started(self, task: str, resumed: bool) -> None:
        self.emitter.emit(
            "job.started",
            role=self.role.name,
            task=task,
            backend=self.backend.name,
            tools=[t["function"]["name"] for t in self.tools],
            max_rounds=self.limits.max_rounds,
            resumed=resumed,
            settings=self.settings.recorded(),
            **self.parts.setup,
        )

    def _take_baseline(self, tests: TestEvidence, repair: RepairStep | None) -> None:
        """Run the job's tests before anything changes: what passes and fails now is what later runs are judged by.
        With repair to follow, a command that hangs is stopped early and its tests run one by one, each with a
        limit of its own: a test that loops forever is a failing test repair can work on."""

        def ran(run: TestRun) -> None:
            self.emitter.emit("tests.run", **describe_test_run(run, "baseline", tests.command))

        if repair is None:
            run = tests.run()
            ran(run)
        else:
            run = repair.baseline(self.emitter.emit, self.state.deadline, ran=ran)
        tests.baseline, tests.baseline_run = TestStates.of(run), run
        if tests.baseline is None:
            message = f"{tests.tests.named} does not name its tests, so completion needs the whole command to pass"
            self.emitter.emit("notice", message=message)
        job, store = self.parts.job, self.parts.store
        if job is not None and store is not None:
            job.evidence = tests.to_dict()
            store.save(job)

    def _build_first(self, direct: BuildStep) -> Ending | None:
        """The direct way before the loop: its kept answer ends the job, as does its failure (the strategy chose it
        because the loop would not serve the model); None when it found nothing to write and the loop goes on."""
        built = BuildOutcome()
        try:
            direct.run(self.emitter.emit, deadline=self.state.deadline, outcome=built)
        finally:  # what it spent counts, also when Ctrl-C or the time limit stopped it
            self.state.usage += built.usage
            self.state.tool_calls += built.tool_calls
            self.state.build = built.record()
        if built.kept:
            judgement = self.evidence.judge_run(built.last_run) if built.last_run is not None else None
            summary = built.summary if judgement is None else endings.with_notes(built.summary, judgement)
            return endings.built(summary, verified=built.verified)
        if built.ran:
            return endings.build_failed(built.summary)
        return None

    def _repair_first(self, repair: RepairStep) -> Ending | str:
        """The debugger's repair before the loop: it ends the job when it changed the code, the evidence backs the
        change and no failure left points at code; else what the loop's model reads first (empty when repair has
        nothing to say)."""
        tests = self.parts.tests
        start = tests.baseline_run if tests is not None else None
        repaired = RepairOutcome()
        try:
            repair.run(self.emitter.emit, start=start, deadline=self.state.deadline, outcome=repaired)
        finally:  # what repair spent counts, also when Ctrl-C or the time limit stopped it
            self.state.usage += repaired.usage
            self.state.tool_calls += repaired.tool_calls
            self.state.repair_candidates = repaired.candidates
        if repaired.changed and repaired.last_run is not None:
            judgement = self.evidence.judge_run(repaired.last_run) if tests is not None else None
            # Progress on some failures, while others still point at code, is work the loop goes on with.
            if (judgement is None or judgement.holds) and not repaired.left:
                summary = endings.with_notes(repaired.summary, judgement)
                return endings.repaired(summary, unsure=bool(repaired.disputes))
        if repaired.ran:
            self.state.failed_repair = repaired.summary
        return repaired.handover

    def _finish(self, ending: Ending, duration_s: float) -> RunResult:
        """The job's last snapshot, `job.finished` and the saved job record: always, whatever ended the run."""
        job, store, state = self.parts.job, self.parts.store, self.state
        self._ready()  # when nothing ran before the end, the tree as it is now is as the job found it
        self.dispatcher.snapshots.finish(self.emitter.emit)
        result = RunResult(
            self.job_id, ending.status, ending.reason, ending.summary, state.rounds, state.tool_calls, state.usage,
            duration_s,
        )  # fmt: skip
        totals = _totals(result, state, self.evidence)
        report = _evidence_report(self.evidence)
        extra: dict[str, Any] = {"evidence": report} if report else {}
        if state.build:
            extra["build"] = state.build
        if self.role.reports_findings:
            extra["findings"] = [finding.to_dict() for finding in self.parts.read_findings(self._review(ending))]
        self.emitter.emit(
            "job.finished",
            exit_status=ending.status,
            exit_code=result.exit_code,
            reason=ending.reason,
            summary=ending.summary,
            totals=totals,
            **extra,
        )
        if job is not None and store is not None:
            job.status, job.exit_status, job.exit_code = ending.status, ending.status, result.exit_code
            job.summary, job.finished_at, job.totals = ending.summary, time.time(), totals
            job.evidence = report or job.evidence
            job.build = state.build or job.build
            store.save(job)
        return result

    def _review(self, ending: Ending) -> str:
        """The reviewer's answer, read for findings: its completion summary, or, when the job ended otherwise (a small
        model seldom writes the completion marker), its last reply, whose findings are the model's word like any."""
        if ending.status == "completed":
            return ending.summary
        return next((message.content for message in reversed(self.history) if message.role == "assistant"), "")


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


def _follow_tool_mode(history: list[Message], system: dict[bool, str], native: bool) -> None:
    """Keep the system prompt in step with how the tools travel: described in it only when not sent natively.

    It changes only when the mode does (a server refused native tools mid-job, or a resumed job runs in the other
    mode), so the cached prefix holds in every other round.
    """
    if history and history[0].role == "system" and history[0].content == system[not native]:
        history[0] = Message("system", system[native])


def _output_saver(store: JobStore | None, job: Job | None, root: Path) -> OutputSaver | None:
    """Where compaction keeps the full text of what it masks: the job directory, as a path inside the repository."""
    if store is None or job is None:
        return None

    def save(index: int, text: str) -> str | None:
        try:
            path = store.save_output(job.id, f"message-{index:04d}", text)
        except OSError:
            return None
        return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)

    return save


def _empty(completion: Completion, visible: str) -> bool:
    """A reply with nothing in it: no text beyond reasoning, no calls, no call the extractor could not read."""
    return not visible.strip() and not completion.tool_calls


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


def _totals(result: RunResult, state: _RunState, evidence: Evidence) -> dict[str, Any]:
    usage, tool_calls, candidates = result.usage, result.tool_calls, state.repair_candidates
    for finished in evidence.repairs:  # repair as a finisher, run on a completion claim
        usage, tool_calls = usage + finished.usage, tool_calls + finished.tool_calls
        candidates = (candidates or 0) + finished.candidates
    totals = {"rounds": result.rounds, "tool_calls": tool_calls, "duration_s": round(result.duration_s, 3)}
    totals.update(usage_dict(usage))
    if candidates is not None:
        totals["repair_candidates"] = candidates
    return totals


__all__ = ["Agent", "AgentParts", "EventHandler", "Limits", "RepairOutcome", "RunResult"]

"""Test-driven repair: run the tests, find the failing unit, ask the model for that unit only, apply it as a
code_edit, run the tests again, and sample more candidates until one passes or the budget is spent."""

from __future__ import annotations

import math
import re
import textwrap
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pedro.backends.base import Backend, GenerationOptions
from pedro.dispatch import Dispatcher
from pedro.errors import BackendError
from pedro.evidence import ProjectTests, count, describe_test_run
from pedro.messages import Message, ToolCall, ToolResult, Usage
from pedro.modelcall import complete
from pedro.prompts import render_prompt
from pedro.repair.candidate import Candidate, mutant_candidate, read_candidate, read_line_candidate, special_cases
from pedro.repair.locate import Unit, failing_test, locate
from pedro.repair.mutants import Mutant, line_mutants
from pedro.repair.opening import answer_opening, with_opening
from pedro.repair.probes import Passing, ProbeRecorder, ProbeSpec, agreement, changed_lines, choose, probe_spec
from pedro.repair.progress import closer
from pedro.repair.spectrum import Spectrum, Suspect, measure, suspects
from pedro.tools.test import TestRun
from pedro.tools.testreport import FailedTest
from pedro.tools.textfile import stamp_file

if TYPE_CHECKING:
    from pedro.config import RepairConfig

Emit = Callable[..., None]
"""The job's event emitter: emit(type, **data)."""

_FENCE_NAMES = {"python": "python", "go": "go", "javascript": "javascript", "typescript": "typescript", "tsx": "tsx"}
_MAX_FAILURE_LINES = 24
_MAX_FAILURE_CHARS = 1600
_MAX_FAILURES_SHOWN = 2
_MAX_TEST_LINES = 30
_ANSWER_SLACK_TOKENS = 96
_MAX_TEMPERATURE = 1.5
_SPECTRUM_SHOWN = 5
# Lines of a unit's body whose variants are tried beside the ones coverage ranks first: a small function's whole.
_BODY_LINES_MUTATED = 12
# Stack lines inside a runtime or a test runner say nothing the model can act on.
_NOISE = re.compile(r"^\s*(?:at .*(?:node:|node_modules/|\(<anonymous>\))|at (?:Test|TestContext|AsyncResource)\.)")


@dataclass(frozen=True)
class RepairSettings:
    """The budget and sampling of one repair."""

    candidates: int = 8
    """Model answers asked for per unit."""
    temperature: float = 0.8
    """For every answer after the first, which is greedy."""
    max_tokens: int = 512
    max_units: int = 4
    """Functions asked for, taking turns; all of them together get at most candidates × max_units answers."""
    coverage: bool = True
    """Rank lines by the tests' line coverage (once per repair) before asking; else by the traceback alone."""
    max_pairs: int = 6
    """Pairs of earlier candidates (at two locations) tried together before repair gives up."""
    time_budget_s: float | None = None
    """Seconds one repair may take; no new question once they are spent (None: only the count bounds it)."""
    rivals: int = 2
    """Answers asked after the first fix to check it against (probes.py); 0 keeps the first fix."""
    mutants: int = 24
    """One-token variants of the most suspicious lines (mutants.py) tried before the model is asked; 0 asks at once."""

    @classmethod
    def from_config(cls, repair: RepairConfig) -> RepairSettings:
        """The settings [repair] gives."""
        return cls(
            candidates=repair.candidates,
            temperature=repair.temperature,
            max_tokens=repair.max_tokens,
            max_units=repair.max_functions,
            coverage=repair.coverage,
            time_budget_s=repair.time_budget_s,
            rivals=repair.rivals,
            mutants=repair.mutants,
        )


@dataclass
class RepairOutcome:
    """What repair achieved and learned; the loop goes on from it when the tests still fail."""

    fixed: bool = False
    ran: bool = False
    """Whether there was anything to repair (failing tests, a unit to ask for)."""
    summary: str = ""
    handover: str = ""
    """What the loop's model reads first when repair did not finish; empty when there is nothing to say."""
    usage: Usage = field(default_factory=Usage)
    candidates: int = 0
    tool_calls: int = 0
    """Edits pedro made through the dispatcher: each candidate and each undo of one."""
    stopped: str = ""
    """Why repair stopped early (a file changed under it), or empty."""
    out_of_time: bool = False
    """The time budget ran out before the wanted tests passed."""
    changed: bool = False
    """A candidate was kept: the code differs from where repair started."""
    last_run: TestRun | None = None
    """The tests as repair leaves the code: after the last kept candidate, else where it started."""


Question = Literal["line", "function", "mutation"]


@dataclass
class _Try:
    """The state of one question's attempts: a whole unit, or one line of it."""

    unit: Unit
    kind: Question = "function"
    line: int = 0
    """The file line a line question marks (0 for a function question)."""
    asked: int = 0
    """Answers asked for so far: the first is greedy."""
    tried: set[str] = field(default_factory=set)
    """The unit texts tried for this version of the unit, by any question about it."""
    last_problem: str = ""
    mutants: list[Mutant] | None = None
    """A mutation question's variants of its line not tried yet (None until they are made)."""


@dataclass(frozen=True)
class _Kept:
    """A candidate kept for its progress: its edits, the run before it, and whether fewer wanted tests fail (else
    one only fails closer to passing, which is kept only while it leads to a fix)."""

    n: int
    edits: list[tuple[Unit, str]]
    before: TestRun
    fewer_failing: bool


@dataclass(frozen=True)
class _Helped:
    """A candidate the tests confirmed (a fix or progress): the run after it, the unit's new text, the file as it was
    before, and the candidate's outputs on the probes (None without probes)."""

    n: int
    run: TestRun
    text: str
    file_text: str
    outputs: tuple[str, ...] | None


@dataclass(frozen=True)
class _Tested:
    """A candidate that was applied, tested and undone: material for a pair."""

    n: int
    unit: Unit
    text: str
    kind: Question
    line: int


@dataclass
class _Plan:
    """What repair tries next: mutation questions first while variants are allowed (each costs a test run and no
    answer; every line's likeliest variant before any line's second), then the model's questions in turn.

    One attempt per question about a version of a unit: a unit whose code changed (a kept candidate made progress)
    starts afresh, one that did not keeps what it has spent.
    """

    settings: RepairSettings
    attempts: dict[tuple[str, str, str, str, int], _Try] = field(default_factory=dict)
    seen: dict[tuple[str, str, str], set[str]] = field(default_factory=dict)
    turns: deque[_Try] = field(default_factory=deque)
    mutations: deque[_Try] = field(default_factory=deque)
    mutants_tried: int = 0

    def follow(self, ranked: list[Suspect]) -> None:
        """Line up the questions about the ranked units, with what each has already spent."""
        questions = (_attempt(self.attempts, self.seen, question) for question in _questions(ranked))
        self.turns = deque(attempt for attempt in questions if attempt.asked < self.settings.candidates)
        mutations = _mutation_attempts(ranked, self.attempts, self.seen) if self.settings.mutants else []
        self.mutations = deque(mutations)

    def next(self) -> _Try | None:
        """The attempt to take a turn now, out of its queue; None when nothing is left."""
        if self.mutations and self.mutants_tried < self.settings.mutants:
            self.mutants_tried += 1
            best = min(self.mutations, key=lambda attempt: attempt.mutants[0].tier if attempt.mutants else math.inf)
            self.mutations.remove(best)
            return best
        return self.turns.popleft() if self.turns else None

    def again(self, attempt: _Try) -> None:
        """An attempt whose candidate did not help goes back in line while it has more to try."""
        if attempt.kind == "mutation":
            if attempt.mutants:
                self.mutations.append(attempt)
        elif attempt.asked < self.settings.candidates:
            self.turns.append(attempt)


class Repairer:
    """Repairs failing tests one unit at a time, keeping only candidates the tests confirm."""

    def __init__(
        self,
        *,
        backend: Backend,
        dispatcher: Dispatcher,
        tests: ProjectTests,
        settings: RepairSettings,
        options: GenerationOptions,
    ) -> None:
        self.backend = backend
        self.dispatcher = dispatcher
        self.tests = tests
        self.settings = settings
        self._deadline = math.inf
        """When the running repair's time budget ends (time.monotonic())."""
        # Repair asks for code, not tool calls: plain text replies, no tools, no call grammar.
        self.options = replace(options, tool_mode="text", max_tokens=settings.max_tokens)
        self.root: Path = dispatcher.ctx.root
        self._runner = ""
        """The test runner the running repair's baseline named (probes need pytest)."""
        self._probe_specs: dict[tuple[str, str, int], ProbeSpec | None] = {}

    def run(self, emit: Emit, *, start: TestRun | None = None, targets: frozenset[str] | None = None) -> RepairOutcome:
        """From the tests as they are (`start`, else a fresh run), while `targets` (else every failing test) fail and
        the budget lasts, ask one question at a time and keep what helps without breaking a passing test.

        The questions follow the ranking (line coverage, then the traceback): for each unit, its most suspicious
        line, then the whole function, then its next line. They take turns: each gets its greedy answer before any
        gets a sample, since the function a test points at first is often not the one with the bug.
        """
        outcome = RepairOutcome()
        budget = self.settings.time_budget_s
        self._deadline = time.monotonic() + budget if budget is not None else math.inf
        run = start if start is not None else self._test(emit, "baseline")
        outcome.last_run = run
        self._runner = run.report.runner if run.report is not None else ""
        wanted = targets if targets is not None else run.failing
        if run.passed or (targets is not None and not wanted & run.failing):
            outcome.summary = "the tests already pass"
            return outcome
        spectrum = self._spectrum(run, wanted, emit)
        ranked = self._suspects(run, wanted, spectrum)
        units = [suspect.unit for suspect in ranked]
        emit("repair.started", command=self.tests.command, units=[_describe(u) for u in units])
        if not units:
            outcome.handover = self._handover(run, outcome, [], "no function could be located from the failures")
            return outcome
        outcome.ran = True
        # One snapshot step around every candidate and restore: the states in between are never undo steps. The
        # step is opened with what the edits declare, as the loop's rounds are.
        self.dispatcher.snapshots.open_step(emit, "repair", [self.dispatcher.effects(_edit(u, u.text)) for u in units])
        try:
            run = self._attempts(ranked, run, wanted, outcome, emit, spectrum)
        finally:
            self.dispatcher.snapshots.close_step(emit)
        emit("repair.finished", fixed=outcome.fixed, candidates=outcome.candidates, summary=outcome.summary)
        return outcome

    def _spectrum(self, run: TestRun, wanted: frozenset[str], emit: Emit) -> Spectrum | None:
        """The tests' line coverage ranked, measured once per repair; None when off or not measurable."""
        if not self.settings.coverage:
            return None
        spectrum = measure(self.tests, run, wanted & run.failing)
        if spectrum is not None:
            top = [f"{path}:{line} {score:.2f}" for path, line, score in spectrum.ranked()[:_SPECTRUM_SHOWN]]
            emit(
                "repair.spectrum",
                seconds=round(spectrum.seconds, 3),
                runs=spectrum.runs,
                failing=spectrum.failing,
                passing=spectrum.passing,
                lines=top,
            )
        return spectrum

    def _suspects(self, run: TestRun, wanted: frozenset[str], spectrum: Spectrum | None) -> list[Suspect]:
        located = locate(self._failures(run, wanted), self.root, limit=self.settings.max_units)
        return suspects(spectrum, located, self.root, sorted(wanted & run.failing), self.settings.max_units)

    def _attempts(
        self,
        ranked: list[Suspect],
        start: TestRun,
        wanted: frozenset[str],
        outcome: RepairOutcome,
        emit: Emit,
        spectrum: Spectrum | None,
    ) -> TestRun:
        """Questions in turn until the wanted tests pass or the budget is spent, then pairs of earlier candidates;
        the last kept run."""
        run, last = start, ""
        asked: dict[str, None] = {}
        tested: list[_Tested] = []
        kept: list[_Kept] = []
        chain: list[str] = []
        plan = _Plan(self.settings)
        plan.follow(ranked)
        # candidates × units answers in all, and every first question at least its greedy answer.
        budget = max(self.settings.candidates * self.settings.max_units, len(plan.turns)) + self.settings.mutants
        while outcome.candidates < budget and not self._out_of_time(outcome):
            attempt = plan.next()
            if attempt is None:
                break
            asked[_describe(attempt.unit)] = None
            result = self._candidate(attempt, run, wanted, outcome, emit, tested)
            last = outcome.stopped or attempt.last_problem or last
            if outcome.stopped:
                break
            if result is None:
                plan.again(attempt)
                continue
            unit = attempt.unit
            fewer = len(wanted & result.run.failing) < len(wanted & run.failing)
            kept.append(_Kept(outcome.candidates, [(unit, result.text)], run, fewer))
            run = outcome.last_run = result.run
            outcome.changed = True
            if not wanted & run.failing and _verdict_fixed(run):
                run = self._settle(attempt, result, kept, wanted, outcome, emit)
                break
            chain.append(f"{outcome.candidates}: {_describe(unit)}{_line_label(attempt)}")
            emit("repair.kept", n=outcome.candidates, unit=_describe(unit), reason=attempt.last_problem, chain=chain)
            if spectrum is not None:
                spectrum = spectrum.shifted(unit.path, unit.start_line, unit.end_line, len(result.text.splitlines()))
            # Progress without a full pass: the kept change stays while the next location is asked about.
            plan.follow(self._suspects(run, wanted, spectrum))
        if outcome.out_of_time:
            last = f"its time budget of {self.settings.time_budget_s:g} s ([repair].time_budget_s) was spent"
        if not outcome.fixed and not outcome.stopped and not outcome.out_of_time:
            run, paired, pair = self._pairs(tested, run, wanted, outcome, emit)
            last = paired or last
            kept.extend([pair] if pair is not None else [])
        if not outcome.fixed and not outcome.stopped:
            run = self._take_back_tentative(kept, run, outcome, emit)
        outcome.summary = self._summary(outcome, start, run, wanted)
        if not outcome.fixed:
            outcome.handover = self._handover(start, outcome, list(asked), last)
        return run

    def _settle(
        self, attempt: _Try, fix: _Helped, kept: list[_Kept], wanted: frozenset[str], outcome: RepairOutcome, emit: Emit
    ) -> TestRun:
        """The tests pass: drop kept changes the fix does not need, check an answer against rivals (a one-token
        variant is the smallest change there is), and return the run the code is left at."""
        outcome.fixed = True
        run = outcome.last_run = self._without_needless(kept, fix.run, outcome, emit)
        if attempt.kind != "mutation":
            settled = replace(fix, run=run)
            run = outcome.last_run = self._rivals(attempt, settled, kept[-1].before, wanted, outcome, emit)
        return run

    def _out_of_time(self, outcome: RepairOutcome) -> bool:
        """Whether the time budget is spent (after at least one candidate); `outcome.out_of_time` records it."""
        outcome.out_of_time = bool(outcome.candidates) and time.monotonic() >= self._deadline
        return outcome.out_of_time

    @staticmethod
    def _failures(run: TestRun, wanted: frozenset[str]) -> list[FailedTest]:
        failures = run.report.failures if run.report is not None else []
        return [failure for failure in failures if failure.test_id in wanted] or failures[: 1 if not wanted else 0]

    def _candidate(
        self,
        attempt: _Try,
        run: TestRun,
        wanted: frozenset[str],
        outcome: RepairOutcome,
        emit: Emit,
        tested: list[_Tested],
    ) -> _Helped | None:
        """Ask for, apply and test one candidate for the attempt's question: what it achieved when it helped, else
        None.

        A candidate that does not help is undone (and kept in `tested` for pairs); `attempt.last_problem` says why
        it failed, and `outcome.stopped` is set when a file changed under repair.
        """
        unit = attempt.unit
        number = attempt.asked
        attempt.asked += 1
        outcome.candidates += 1
        index = outcome.candidates
        path = self.dispatcher.ctx.resolve(unit.path)
        label = {"unit": _describe(unit), "question": attempt.kind, **({"line": attempt.line} if attempt.line else {})}
        if number == 0:
            # As if the model had read the file: an edit by anyone else from now on is noticed, never overwritten.
            self.dispatcher.ctx.read_stamps[path] = stamp_file(path)
        failing = _shown_failures(run, unit)
        try:
            file_text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            outcome.stopped = f"{unit.path} cannot be read any more ({exc.strerror})"
            return None
        if attempt.kind == "mutation" and attempt.mutants:
            mutant = attempt.mutants.pop(0)
            label["change"] = mutant.change
            candidate = mutant_candidate(unit, attempt.line, mutant.line, file_text)
        else:
            reply = self._ask(attempt, failing, number, outcome, emit)
            candidate = (
                read_line_candidate(reply, unit, attempt.line, file_text)
                if attempt.kind == "line"
                else read_candidate(reply, unit, file_text)
            )
        candidate = self._screened(candidate, unit, failing)
        if not self._usable(candidate, attempt, path, index, label, outcome, emit):
            return None
        assert candidate.text is not None
        probe = self._probe(unit)
        edits = [(unit, candidate.text)]
        verdict, problem, after = self._try_edits(edits, index, run, wanted, outcome, emit, label, probe=probe)
        attempt.last_problem = problem
        if after is not None:
            outputs = tuple(probe.outputs) if probe is not None and probe.outputs is not None else None
            return _Helped(index, after, candidate.text, file_text, outputs)
        if verdict == "fails":
            tested.append(_Tested(index, unit, candidate.text, attempt.kind, attempt.line))
        return None

    def _usable(
        self,
        candidate: Candidate,
        attempt: _Try,
        path: Path,
        index: int,
        label: dict[str, Any],
        outcome: RepairOutcome,
        emit: Emit,
    ) -> bool:
        """Whether the candidate is worth a test run: it was read, is new for this unit, and nobody else has changed
        the file (else `outcome.stopped` says so). An unusable one is reported and costs no run."""
        if candidate.text is None or candidate.text in attempt.tried:
            attempt.last_problem = candidate.problem or "the same answer as before"
            status = (
                "duplicate"
                if candidate.text is not None
                else "overfits"
                if candidate.problem.startswith("it ")
                else "unusable"
            )
            emit("repair.candidate", n=index, status=status, reason=attempt.last_problem, **label)
            return False
        attempt.tried.add(candidate.text)
        if self._changed_by_someone(path):
            outcome.stopped = f"{attempt.unit.path} changed while pedro was repairing it; it is left as you made it"
            emit("repair.candidate", n=index, status="stopped", reason=outcome.stopped, **label)
            return False
        return True

    def _probe(self, unit: Unit) -> ProbeRecorder | None:
        """A recorder of the unit's outputs on inputs beyond the tests' own (or of the functions its tests call, which
        carry them), when rivals are asked and pytest runs the tests; the inputs are found once per unit."""
        if not self.settings.rivals or self._runner != "pytest":
            return None
        if unit.key not in self._probe_specs:
            self._probe_specs[unit.key] = probe_spec(unit, self.root)
        spec = self._probe_specs[unit.key]
        return ProbeRecorder(spec) if spec is not None else None

    def _rivals(
        self, attempt: _Try, fix: _Helped, before: TestRun, wanted: frozenset[str], outcome: RepairOutcome, emit: Emit
    ) -> TestRun:
        """After a fix: up to `rivals` more answers to the question that gave it, each tested in its place. When more
        than one passes, the one whose outputs on the probes agree with the most others stays (probes.choose). The
        run the code is left at."""
        if fix.outputs is None:
            return fix.run
        unit, first = attempt.unit, fix.n
        pool = [Passing(first, fix.text, fix.outputs, changed_lines(unit.text, fix.text))]
        runs = {first: fix.run}
        current = replace(unit, text=fix.text)  # the unit as the file holds it now
        failing = _shown_failures(before, unit)
        for _ in range(self.settings.rivals):
            if time.monotonic() >= self._deadline or outcome.stopped:
                break
            try:
                rival = self._rival(attempt, current, fix, failing, wanted, outcome, emit)
            except BackendError as exc:
                # The fix is confirmed already: a server that fails now costs only the check.
                emit("notice", message=f"repair keeps candidate {first} unchecked: {exc}")
                break
            if rival is not None:
                pool.append(rival[0])
                runs[rival[0].n] = rival[1]
        if len(pool) < 2 or outcome.stopped:
            return fix.run
        best = pool[choose(pool)]
        emit(
            "repair.chosen",
            n=best.n,
            unit=_describe(unit),
            candidates=[passing.n for passing in pool],
            agreement=agreement(pool),
            probes=len(fix.outputs),
        )
        if best.n == first:
            return fix.run
        if not self._edit(emit, outcome, unit, fix.text, best.text).ok:
            emit("notice", message=f"candidate {best.n} could not replace candidate {first}, which stays")
            return fix.run
        return runs[best.n]

    def _rival(
        self,
        attempt: _Try,
        current: Unit,
        fix: _Helped,
        failing: list[FailedTest],
        wanted: frozenset[str],
        outcome: RepairOutcome,
        emit: Emit,
    ) -> tuple[Passing, TestRun] | None:
        """One more answer to the question of the fix, tested in the fix's place and taken back: it and its run when
        it passes too, else None."""
        unit = attempt.unit
        number = attempt.asked
        attempt.asked += 1
        outcome.candidates += 1
        index = outcome.candidates
        label = {"unit": _describe(unit), "question": attempt.kind, "rival_of": fix.n}
        label |= {"line": attempt.line} if attempt.line else {}
        reply = self._ask(attempt, failing, number, outcome, emit)
        candidate = (
            read_line_candidate(reply, unit, attempt.line, fix.file_text)
            if attempt.kind == "line"
            else read_candidate(reply, unit, fix.file_text)
        )
        candidate = self._screened(candidate, unit, failing)
        path = self.dispatcher.ctx.resolve(unit.path)
        if not self._usable(candidate, attempt, path, index, label, outcome, emit):
            return None
        assert candidate.text is not None
        probe = self._probe(unit)
        edits = [(current, candidate.text)]
        verdict, _, after = self._try_edits(edits, index, fix.run, wanted, outcome, emit, label, probe=probe)
        if after is None:
            return None
        self._undo(edits, index, outcome, emit)  # the fix stays in place while the rivals are tried
        if verdict != "fixed" or probe is None or probe.outputs is None or outcome.stopped:
            return None
        return Passing(index, candidate.text, tuple(probe.outputs), changed_lines(unit.text, candidate.text)), after

    def _screened(self, candidate: Candidate, unit: Unit, failing: list[FailedTest]) -> Candidate:
        """The candidate, or none when it special-cases the failing tests' own values (it would not generalise)."""
        if candidate.text is None:
            return candidate
        why = special_cases(candidate.text, unit, "\n".join(f.message + "\n" + f.details for f in failing))
        return Candidate(None, why) if why else candidate

    def _try_edits(
        self,
        edits: list[tuple[Unit, str]],
        index: int,
        run: TestRun,
        wanted: frozenset[str],
        outcome: RepairOutcome,
        emit: Emit,
        label: dict[str, Any],
        *,
        probe: ProbeRecorder | None = None,
    ) -> tuple[str, str, TestRun | None]:
        """Apply the edits, test (the probe, if any, records the candidate's outputs in the same run), and keep them
        when they fixed the wanted tests or made progress, else undo them: (verdict, why, the run when kept).

        A variant (`question: mutation` in the label) makes progress only when a failing test passes: nearly every
        variant moves a value, so a value nearer the expected one says nothing about it."""
        applied: list[tuple[Unit, str]] = []
        for unit, new in edits:
            result = self._edit(emit, outcome, unit, unit.text, new)
            if not result.ok:
                problem = _first_line(result.output)
                emit("repair.candidate", n=index, status="rejected", reason=problem, **label)
                self._undo(applied, index, outcome, emit)
                return "rejected", problem, None
            applied.append((unit, new))
        try:
            after = self._test(emit, "candidate", instrument=probe, candidate=index)
        except BaseException:
            # Interrupted (Ctrl-C) or failed while testing: an unconfirmed candidate never stays in the file.
            for unit, new in reversed(applied):
                if not self._changed_by_someone(self.dispatcher.ctx.resolve(unit.path)):
                    self._restore(emit, outcome, index, unit, new)
            raise
        verdict, problem = _judge(run, after, wanted, nearer_counts=label.get("question") != "mutation")
        emit("repair.candidate", n=index, status=verdict, reason=problem, **label)
        if verdict in ("fixed", "progress"):
            return verdict, problem, after
        self._undo(applied, index, outcome, emit)
        return verdict, problem, None

    def _undo(self, applied: list[tuple[Unit, str]], index: int, outcome: RepairOutcome, emit: Emit) -> None:
        for unit, new in reversed(applied):
            path = self.dispatcher.ctx.resolve(unit.path)
            if self._changed_by_someone(path) or not self._restore(emit, outcome, index, unit, new).ok:
                outcome.stopped = (
                    f"{unit.path} changed while candidate {index} was being tested, so pedro did not put the old "
                    f"code back; the file keeps candidate {index} and your change"
                )
                emit("notice", message=outcome.stopped)
                return

    def _without_needless(self, kept: list[_Kept], run: TestRun, outcome: RepairOutcome, emit: Emit) -> TestRun:
        """Once the tests pass after candidates kept in several units, each is put back as it was before repair if
        the tests pass without its change too: a kept change can have bent a caller to fit a bug
        that a later candidate fixed where it was. The run the code is left at."""
        changed = _changed_units(kept)
        for original, current, numbers in changed if len(changed) > 1 else []:
            if outcome.stopped or self._changed_by_someone(self.dispatcher.ctx.resolve(original.path)):
                break
            if not self._edit(emit, outcome, original, current, original.text).ok:
                continue
            after = self._test(emit, "candidate", dropped=numbers)
            if _judge(run, after, frozenset(), nearer_counts=False)[0] == "fixed":
                emit("repair.dropped", n=numbers, unit=_describe(original), reason="the tests pass without it")
                run = after
            else:
                self._restore(emit, outcome, numbers[-1], original, original.text, current)
        return run

    def _take_back_tentative(self, kept: list[_Kept], run: TestRun, outcome: RepairOutcome, emit: Emit) -> TestRun:
        """When repair ends unfixed, the kept candidates whose only progress was a failure closer to passing are
        undone, with everything kept after them: they were kept only to reach a fix. The run the code is left at."""
        while any(not step.fewer_failing for step in kept) and not outcome.stopped:
            step = kept.pop()
            self._undo(step.edits, step.n, outcome, emit)
            run = step.before
        outcome.changed, outcome.last_run = bool(kept) or bool(outcome.stopped), run
        return run

    def _pairs(
        self, tested: list[_Tested], run: TestRun, wanted: frozenset[str], outcome: RepairOutcome, emit: Emit
    ) -> tuple[TestRun, str, _Kept | None]:
        """Before giving up: earlier candidates at two different locations, applied together (a bug that needs two
        edits shows nothing for either alone). The run when a pair helped, the last pair's problem, and the pair
        when it was kept."""
        last = ""
        for first, second, edits in _pairings(tested, self.settings.max_pairs):
            outcome.candidates += 1
            index = outcome.candidates
            label = {"unit": _describe(first.unit), "question": "pair", "combines": [first.n, second.n]}
            verdict, last, after = self._try_edits(edits, index, run, wanted, outcome, emit, label)
            if outcome.stopped:
                return run, outcome.stopped, None
            if after is not None:
                outcome.changed, outcome.last_run = True, after
                outcome.fixed = not wanted & after.failing and _verdict_fixed(after)
                emit(
                    "repair.kept", n=index, unit=_describe(first.unit), reason=last, chain=[str(first.n), str(second.n)]
                )
                return after, last, _Kept(index, edits, run, wanted & after.failing < wanted & run.failing)
        return run, last, None

    def _ask(self, attempt: _Try, failing: list[FailedTest], number: int, outcome: RepairOutcome, emit: Emit) -> str:
        """One fresh request for the question: greedy first, then sampled with a new seed each time."""
        unit, problem = attempt.unit, attempt.last_problem
        retry = "\n" + render_prompt("repair/retry.md", reason=problem).strip() if number and problem else ""
        # Every question about a unit shows the same failure and code first and differs only at its end, so the
        # server's prompt cache holds everything but the question when repair turns from one to the next.
        template, line = "repair/fix.md", ""
        if attempt.kind == "line":
            template, line = "repair/line.md", unit.text.splitlines()[attempt.line - unit.start_line].strip()
        prompt = render_prompt(
            template,
            failure="\n\n".join(self._with_test_source(f) for f in failing[:_MAX_FAILURES_SHOWN]),
            name=unit.name,
            path=unit.path,
            fence=_FENCE_NAMES[unit.language],
            code=unit.text,
            line=line,
            retry=retry,
        )
        # Greedy first; then sampled, a little hotter each time, since a small model's samples often repeat.
        temperature = 0.0 if number == 0 else min(self.settings.temperature + 0.1 * (number - 1), _MAX_TEMPERATURE)
        # One function is the whole answer: room for a few times its length (a second block often holds the
        # better version), not for the rambling that otherwise takes most of a small model's sample time.
        room = min(self.settings.max_tokens, len(unit.text) + _ANSWER_SLACK_TOKENS)
        options = replace(self.options, temperature=temperature, seed=number or None, max_tokens=room)

        messages = [Message("user", prompt)]
        opening = answer_opening(unit, _FENCE_NAMES[unit.language], whole_function=attempt.kind != "line", line=line)
        if self.backend.continues_answers:
            messages.append(Message("assistant", opening))
        completion = complete(self.backend, messages, [], options, emit, purpose="repair", temperature=temperature)
        outcome.usage += completion.usage
        return with_opening(completion.text, opening) if self.backend.continues_answers else completion.text

    def _with_test_source(self, failure: FailedTest) -> str:
        """The failure, and the test's own code when the runner's text does not show it (go test, node --test)."""
        described = describe_failure(failure)
        test = failing_test(failure, self.root)
        if test is None or test.text.strip().splitlines()[0].strip() in described:
            return described
        code = "\n".join(textwrap.dedent(test.text).splitlines()[:_MAX_TEST_LINES])
        source = render_prompt("repair/test_source.md", path=test.path, fence=_FENCE_NAMES[test.language], code=code)
        return f"{described}\n\n{source.strip()}"

    def _edit(self, emit: Emit, outcome: RepairOutcome, unit: Unit, old: str, new: str) -> ToolResult:
        """Replace `old` by `new` in the unit's file through the dispatcher: the gate, journal and checks apply."""
        outcome.tool_calls += 1
        return self.dispatcher.run_reported(_edit(unit, new, old=old), emit)

    def _restore(
        self, emit: Emit, outcome: RepairOutcome, index: int, unit: Unit, candidate: str, text: str | None = None
    ) -> ToolResult:
        """Put the unit's code (or `text`) back in place of a rejected candidate: through the dispatcher like any
        edit, but reported as one quiet line (`repair.restored`), not as an edit of the model's."""
        outcome.tool_calls += 1
        result = self.dispatcher.run(_edit(unit, unit.text if text is None else text, old=candidate))
        emit("repair.restored", n=index, path=unit.path, ok=result.ok, output="" if result.ok else result.output)
        return result

    def _changed_by_someone(self, path: Path) -> bool:
        """Whether the file differs from what pedro last read or wrote there."""
        seen = self.dispatcher.ctx.read_stamps.get(path)
        try:
            now = stamp_file(path)
        except OSError:
            return True
        return seen is None or (seen.size, seen.sha256) != (now.size, now.sha256)

    def _test(self, emit: Emit, phase: str, *, instrument: ProbeRecorder | None = None, **extra: Any) -> TestRun:
        run = self.tests.run(instrument=instrument)
        emit("tests.run", **describe_test_run(run, phase, self.tests.command), **extra)
        return run

    def _summary(self, outcome: RepairOutcome, start: TestRun, run: TestRun, wanted: frozenset[str]) -> str:
        before = len(wanted & start.failing) or 1
        tries = count(outcome.candidates, "candidate")
        if outcome.fixed:
            passes = f"; {self.tests.named} passes" if run.passed else ""
            return f"fixed {count(before, 'failing test')} in {tries}{passes}"
        if outcome.stopped:
            return f"repair stopped after {tries}: {outcome.stopped}"
        left = len(wanted & run.failing) if run.report is not None else before
        verb = "fails" if left == 1 else "fail"
        spent = f" in its time budget of {self.settings.time_budget_s:g} s" if outcome.out_of_time else ""
        return f"repair tried {tries}{spent}; {left} of {count(before, 'failing test')} still {verb}"

    def _handover(self, run: TestRun, outcome: RepairOutcome, units: list[str], last: str) -> str:
        report = run.report
        counts = f"passed {report.passed}, failed {report.failed + report.errors}" if report else "it failed"
        failing = "\n".join(f"- {describe_failure(f)}" for f in (report.failures[:3] if report else []))
        return render_prompt(
            "repair/handover.md",
            command=self.tests.command,
            counts=counts,
            failing=failing,
            tries=outcome.candidates,
            units=", ".join(units) or "no function",
            last=last or "no usable answer",
        )


def _shown_failures(run: TestRun, unit: Unit) -> list[FailedTest]:
    """The failures a question about the unit shows: its own tests', else the run's first."""
    failures = run.report.failures if run.report is not None else []
    return [failure for failure in failures if failure.test_id in unit.tests] or failures[:1]


def _edit(unit: Unit, new: str, *, old: str | None = None) -> ToolCall:
    """The code_edit call that replaces the unit's text (or `old`, a candidate in its place) by `new`."""
    arguments = {"action": "replace", "path": unit.path, "old": unit.text if old is None else old, "new": new}
    return ToolCall("code_edit", arguments, id=None)


def _attempt(
    attempts: dict[tuple[str, str, str, str, int], _Try],
    seen: dict[tuple[str, str, str], set[str]],
    question: tuple[Unit, Question, int],
) -> _Try:
    """The attempt for this question about this version of the unit, with the unit as located now (its lines may
    have moved); every question about one version shares what was tried."""
    unit, kind, line = question
    version = (unit.path, unit.qualified_name, unit.text)
    offset = line - unit.start_line if line else 0
    attempt = attempts.setdefault(
        (*version, kind, offset), _Try(unit, kind, line, tried=seen.setdefault(version, set()))
    )
    attempt.unit, attempt.line = unit, line
    return attempt


def _questions(ranked: list[Suspect]) -> list[tuple[Unit, Question, int]]:
    """For each unit in rank order: the whole function, then its suspicious lines from the most suspicious down.

    The function comes first because that is the question small models answer best when it is asked greedily: on
    the task suite, SmolLM2-135M's greedy answers to line questions were mostly prose or another language, and a
    line question first cost the bugs its greedy function answer fixes (py-add-sign)."""
    questions: list[tuple[Unit, Question, int]] = []
    for suspect in ranked:
        lines = [line for line in suspect.lines if suspect.unit.start_line <= line <= suspect.unit.end_line]
        questions.append((suspect.unit, "function", 0))
        questions.extend((suspect.unit, "line", line) for line in lines)
    return questions


def _mutation_attempts(
    ranked: list[Suspect],
    attempts: dict[tuple[str, str, str, str, int], _Try],
    seen: dict[tuple[str, str, str], set[str]],
) -> list[_Try]:
    """A mutation question for each line of the ranked units, their suspicious lines first, then the rest of a small
    function's body (coverage often ranks a whole body alike, and the variants' tiers order the lines then), with its
    variants made once; only those with variants left."""
    found: list[_Try] = []
    for suspect in ranked:
        unit = suspect.unit
        body = range(unit.start_line + 1, min(unit.end_line, unit.start_line + _BODY_LINES_MUTATED) + 1)
        lines = dict.fromkeys([line for line in suspect.lines if unit.start_line < line <= unit.end_line] + [*body])
        for line in lines:
            attempt = _attempt(attempts, seen, (unit, "mutation", line))
            if attempt.mutants is None:
                attempt.mutants = line_mutants(unit.text.splitlines()[line - unit.start_line], unit.language)
            if attempt.mutants:
                found.append(attempt)
    return found


def _changed_units(kept: list[_Kept]) -> list[tuple[Unit, str, list[int]]]:
    """Each unit the kept candidates changed, in the order they first did: the unit as it was before repair, its
    text now, and the candidates that changed it."""
    units: dict[tuple[str, str], tuple[Unit, str, list[int]]] = {}
    for step in kept:
        for unit, new in step.edits:
            first, _, numbers = units.get((unit.path, unit.qualified_name), (unit, "", []))
            units[(unit.path, unit.qualified_name)] = (first, new, [*numbers, step.n])
    return list(units.values())


def _pairings(tested: list[_Tested], limit: int) -> list[tuple[_Tested, _Tested, list[tuple[Unit, str]]]]:
    """Pairs of tested candidates at two different locations, earliest first, as the edits that apply both: two
    units' replacements, or one unit with both candidates' changed lines when they touch different lines."""
    pairs: list[tuple[_Tested, _Tested, list[tuple[Unit, str]]]] = []
    for k, first in enumerate(tested):
        for second in tested[k + 1 :]:
            if len(pairs) >= limit:
                return pairs
            if first.unit.key != second.unit.key:
                if first.unit.path != second.unit.path or _apart(first.unit, second.unit):
                    pairs.append((first, second, [(first.unit, first.text), (second.unit, second.text)]))
                continue
            merged = _merge_lines(first.unit.text, first.text, second.text)
            if merged is not None:
                pairs.append((first, second, [(first.unit, merged)]))
    return pairs


def _apart(one: Unit, other: Unit) -> bool:
    return one.end_line < other.start_line or other.end_line < one.start_line


def _merge_lines(original: str, one: str, other: str) -> str | None:
    """`original` with the lines `one` changed and the lines `other` changed, when each changed different lines of
    the same count; else None."""
    base, a, b = original.splitlines(), one.splitlines(), other.splitlines()
    if not len(base) == len(a) == len(b):
        return None
    changed_a = {i for i, (x, y) in enumerate(zip(base, a, strict=True)) if x != y}
    changed_b = {i for i, (x, y) in enumerate(zip(base, b, strict=True)) if x != y}
    if not changed_a or not changed_b or changed_a & changed_b:
        return None
    return "\n".join(b[i] if i in changed_b else a[i] for i in range(len(base)))


def _line_label(attempt: _Try) -> str:
    return f" line {attempt.line}" if attempt.line else ""


def _judge(before: TestRun, after: TestRun, wanted: frozenset[str], *, nearer_counts: bool = True) -> tuple[str, str]:
    """fixed (the wanted tests pass, none new fails), progress (fewer of them fail, or with `nearer_counts` one fails
    closer to passing: a later assertion, an actual value nearer the expected one; none new fails), breaks (a test
    that passed before repair now fails) or fails.

    A wanted test that passes only thanks to a kept candidate may fail again when more of them pass: a kept change
    can be wrong in a way the next one shows (a caller bent to fit a buggy callee)."""
    if after.passed:
        return "fixed", ""
    if after.report is None or (not after.failing and after.report.total == 0):
        return "fails", _first_line(after.summary)
    newly = sorted(after.failing - before.failing - wanted)
    if newly:
        return "breaks", f"it broke {', '.join(newly[:3])}"
    if not wanted & after.failing and _verdict_fixed(after):
        return "fixed", ""
    if len(wanted & after.failing) < len(wanted & before.failing):
        gained = len(wanted & before.failing) - len(wanted & after.failing)
        return "progress", f"{count(gained, 'failing test')} now {'passes' if gained == 1 else 'pass'}"
    if nearer_counts and before.report is not None and wanted & after.failing == wanted & before.failing:
        earlier = {f.test_id: f for f in before.report.failures}
        moves = [
            (failure.test_id, *closer(earlier[failure.test_id], failure))
            for failure in after.report.failures
            if failure.test_id in wanted and failure.test_id in earlier
        ]
        if any(sign > 0 for _, sign, _ in moves) and not any(sign < 0 for _, sign, _ in moves):
            return "progress", "; ".join(f"{test}: {why}" for test, sign, why in moves if sign > 0)
    failure = next(iter(after.report.failures), None)
    return "fails", describe_failure(failure, short=True) if failure else _first_line(after.summary)


def _verdict_fixed(run: TestRun) -> bool:
    """The run names its failures (so the wanted tests can be told from the rest), or it passed outright."""
    return run.passed or (run.report is not None and run.report.names_tests)


def describe_failure(failure: FailedTest, *, short: bool = False) -> str:
    """A failing test as the model reads it: its id and the runner's text without runtime stack noise."""
    text = failure.details or failure.message
    lines = [line.rstrip() for line in text.splitlines() if line.strip() and not _NOISE.match(line)]
    if short:
        message = failure.message.strip().splitlines()
        return f"{failure.test_id}: {message[0] if message else 'failed'}"
    body = "\n".join(lines[-_MAX_FAILURE_LINES:])[-_MAX_FAILURE_CHARS:]
    return f"FAILED {failure.test_id}\n{body}" if body else f"FAILED {failure.test_id}"


def _describe(unit: Unit) -> str:
    return f"{unit.path}:{unit.start_line} {unit.qualified_name}"


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")

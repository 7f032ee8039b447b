"""Test-driven repair, composed once: locate → propose (variants, model answers) → evaluate (warm or plain, failing
tests first) → choose (probes) → settle. The model is asked at the start and answers while the tests run; one time
budget holds both."""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pedro.backends.base import Backend, GenerationOptions
from pedro.config import RepairConfig
from pedro.deadline import NO_DEADLINE, Deadline
from pedro.dispatch import Dispatcher
from pedro.evidence import ProjectTests, count, describe_test_run
from pedro.prompts import render_prompt
from pedro.repair.answers import ModelAnswers, questions_for
from pedro.repair.assert_values import COMPARED_TIMEOUT_S, with_values
from pedro.repair.byte_order_marks import dropped_marks
from pedro.repair.clues import clue_texts, read_clues
from pedro.repair.edits import Edit, Editor, Emit, edit_call
from pedro.repair.evaluate import TIMEOUT_FACTOR, CandidateRuns, WarmPytest, WarmStart
from pedro.repair.followed_values import ValuesRead
from pedro.repair.frames import HUNG_MARK, is_doctest
from pedro.repair.judge import describe_failure
from pedro.repair.locate import FailingTests, Unit, class_units, instruments, locate
from pedro.repair.missing_modules import unimportable
from pedro.repair.native_probes import native_probe_spec
from pedro.repair.origins import got_nothing
from pedro.repair.outcome import RepairOutcome
from pedro.repair.own_class import own_class_rows
from pedro.repair.probes import ProbeSpec, by_own_program, probe_spec
from pedro.repair.restored_state import restored_without_set_up
from pedro.repair.search import Search, describe
from pedro.repair.settle import Settled, settle
from pedro.repair.spectrum import Spectrum, Suspect, measure, suspects
from pedro.repair.syntax_mends import Mended, mend_syntax
from pedro.repair.variants import OWN_CLASS_SCORE
from pedro.tools.test import TestRun
from pedro.tools.testreport import UNITTEST_RUNNER, FailedTest

_SPECTRUM_SHOWN = 5
# Coverage may take this share of the time repair has (its budget, within the job's time left), never less than
# SPECTRUM_MIN_S.
SPECTRUM_SHARE = 0.1
SPECTRUM_MIN_S = 3.0
FINAL_CHECK_FACTOR = 1.5
FINAL_CHECK_SLACK_S = 2.0
"""Room kept before the job's deadline for the final check: this many times the baseline's run, and seconds more."""
# With repair to follow, the baseline may take this share of the job's time (never less than BASELINE_MIN_S): a
# command that hangs leaves the rest of the job for finding the tests that hang and repairing them.
BASELINE_SHARE = 0.1
BASELINE_MIN_S = 10.0
# Once the command hung, each test's own limit as its tests run one by one: this share of the baseline's limit, never
# less than PER_TEST_MIN_S.
PER_TEST_SHARE = 0.1
PER_TEST_MIN_S = 1.0
# Then each test's limit in a candidate's runs: TIMEOUT_FACTOR times the slowest test that passed one by one, never
# less than this; a test that still hangs costs no more than that, and a repair tries many candidates.
CANDIDATE_PER_TEST_MIN_S = 0.25
# The Python test runners whose projects' changed code is called on probes.
_PROBED_RUNNERS = ("pytest", UNITTEST_RUNNER)


@dataclass(frozen=True)
class _Located:
    """Where repair starts: the coverage measured (or None), the units ranked, the model asking about them, and
    the editor that watches their files."""

    spectrum: Spectrum | None
    ranked: list[Suspect]
    model: ModelAnswers | None
    editor: Editor
    shown: list[FailedTest]
    """The failures as the model and the clues read them: with the values a bare assertion did not show."""
    tests: FailingTests
    """Their test functions, looked up once for the clues and the model's prompts."""
    values: ValuesRead
    """The values the units read, followed once for the variants and the questions alike."""


class Repairer:
    """Repairs failing tests: finds the units the failures point at, tries variants and the model's answers at once,
    and keeps the plausible candidate the probes support best, confirmed by the whole test command."""

    def __init__(
        self,
        *,
        backend: Backend,
        dispatcher: Dispatcher,
        tests: ProjectTests,
        config: RepairConfig,
        options: GenerationOptions,
    ) -> None:
        self.backend = backend
        self.dispatcher = dispatcher
        self.tests = tests
        self.config = config
        self.options = options
        self.root: Path = dispatcher.ctx.root
        self._specs: dict[tuple[str, str, int], ProbeSpec | None] = {}
        self._runner = ""
        self._deadline = NO_DEADLINE
        self._early: tuple[Path, WarmStart] | None = None

    def run(
        self,
        emit: Emit,
        *,
        start: TestRun | None = None,
        targets: frozenset[str] | None = None,
        deadline: Deadline = NO_DEADLINE,
        outcome: RepairOutcome | None = None,
    ) -> RepairOutcome:
        """From the tests as they are (`start`, else a fresh run), while `targets` (else every failing test) fail and
        the budget lasts: variants and model answers tested as they come, the best-supported fix kept. The search
        stops in time for the final check to end before the job's `deadline`. A given `outcome` is filled in as
        repair goes, so that what it spent (tokens, edits) is known even when Ctrl-C or the time limit stops it."""
        outcome = outcome if outcome is not None else RepairOutcome()
        began = time.monotonic()
        self._deadline = deadline
        run = start if start is not None else self._baseline(emit)
        mended = self._mended(emit, outcome, run)
        run = outcome.last_run = mended.run
        self._runner = run.report.runner if run.report is not None else ""
        # Tests that could not even be collected before a mend are not the ones that fail after it.
        wanted = targets if targets is not None and not mended.kept else run.failing
        if run.passed or (targets is not None and not wanted & run.failing):
            outcome.fixed = bool(mended.kept)
            outcome.summary = _mends_said(mended, self.tests.command) or "the tests already pass"
            outcome.candidates, outcome.tool_calls = mended.tried, mended.edits
            return outcome
        early, self._early = self._early, None
        with contextlib.ExitStack() as stack:
            folder = early[0] if early is not None else stack.enter_context(_repair_folder())
            runs = CandidateRuns(self.tests, run, lambda text: emit("notice", message=text), folder)
            runs.early = early[1] if early is not None else None
            try:
                self._repair(emit, outcome, run, wanted, runs, began)
            finally:
                runs.close()
        # The search counts its own candidates from nought: the mends' come on top.
        outcome.candidates += mended.tried
        outcome.tool_calls += mended.edits
        if mended.kept:
            outcome.changed = True
            outcome.summary = f"{_mends_said(mended, '')}; then {outcome.summary}"
        return outcome

    def _mended(self, emit: Emit, outcome: RepairOutcome, run: TestRun) -> Mended:
        """A file that does not compile mended first (syntax_mends.py); run() counts its tries as candidates."""
        if run.passed:
            return Mended(run)
        # Within repair's own budget and the job's deadline, as every candidate is.
        stop_at = self._deadline.before(time.monotonic() + self.config.time_budget_s)
        mended = mend_syntax(emit, self.dispatcher, self.tests, run, self.root, stop_at)
        outcome.ran = outcome.ran or bool(mended.tried)
        outcome.changed = bool(mended.kept)
        return mended

    @contextlib.contextmanager
    def warming(self) -> Iterator[None]:
        """While the job's baseline runs: the warm pytest started beside it, on the other core, for the repair that
        may follow to take; whatever it did not take is ended on the way out."""
        with _repair_folder() as folder:
            early = WarmStart(self.tests, folder)
            self._early = (folder, early)
            try:
                yield
            finally:
                self._early = None
                early.close()

    def baseline(
        self, emit: Emit, deadline: Deadline, *, ran: Callable[[TestRun], None] = lambda _run: None
    ) -> TestRun:
        """The job's tests before anything changes, with this repair to follow: a command that hangs (an endless loop
        under test) is stopped at its share of the job's time (`ran` hears of that run), and its tests run again one
        by one, each with a limit: the test that hangs is a failing test like any other."""
        run = self.tests.run(timeout=self.baseline_limit(deadline))
        ran(run)
        if run.result.outcome == "timeout" and not deadline.passed:
            run = self.one_by_one(emit, run) or run
        return run

    def baseline_limit(self, deadline: Deadline) -> float | None:
        """The job's baseline limit: its share of the job's time, within the tests' own limit. None (the tests' own
        limit holds) without a time limit, or without a warm pytest starting to run the tests one by one."""
        left = deadline.left()
        if left is None or self._early is None or not self._early[1].serves:
            return None
        return min(self.tests.ctx.config.test_timeout, max(BASELINE_MIN_S, left * BASELINE_SHARE))

    def one_by_one(self, emit: Emit, hung: TestRun) -> TestRun | None:
        """The hung command's tests in the warm pytest started beside the baseline (or a warm node started now), each
        stopped at its own limit: a test that hangs fails (with a traceback where it hung, in Python). The same limit
        holds for every later run of this runner, the candidates' included. None when no warm runner serves the
        command, or it named no tests."""
        if self._early is None:
            return None
        warm = self._early[1].take() or self._early[1].take_node(self.root)
        if warm is None:
            return None
        limit = hung.result.duration_s
        warm.per_test_s = max(PER_TEST_MIN_S, limit * PER_TEST_SHARE)
        # pytest's paths as the command gives them (none: all of them); node's tests by name, as its runner lists them.
        tests = warm.launch.paths if isinstance(warm, WarmPytest) else warm.names or None
        try:
            run = warm.run(tests, timeout=max(limit, self.tests.ctx.config.test_timeout)) if tests is not None else None
        except OSError:
            run = None
        if run is None:
            warm.close()
            return None
        self._early[1].give_back(warm)
        if run.report is None or not run.report.names_tests:
            warm.per_test_s = None  # the baseline stays the command's own run, which this pytest's runs must match
            return None
        hanging = sorted(_hung(run))
        emit(
            "notice",
            message=f"{self.tests.named} still ran after {limit:.0f} s; its tests ran one by one, each stopped after "
            f"{warm.per_test_s:.2g} s: {count(len(hanging), 'test')} hung ({', '.join(hanging[:5]) or 'none'})",
        )
        warm.per_test_s = max(CANDIDATE_PER_TEST_MIN_S, TIMEOUT_FACTOR * run.report.slowest_s)
        emit("tests.run", **describe_test_run(run, "baseline", run.command))
        return run

    def _baseline(self, emit: Emit) -> TestRun:
        run = self.tests.run()
        emit("tests.run", **describe_test_run(run, "baseline", self.tests.command))
        return run

    def _repair(
        self,
        emit: Emit,
        outcome: RepairOutcome,
        run: TestRun,
        wanted: frozenset[str],
        runs: CandidateRuns,
        began: float,
    ) -> RepairOutcome:
        failing_ids = sorted(wanted & run.failing)
        if failing_ids and run.report is not None and run.report.names_tests:
            runs.start(failing_ids)
        located = self._located(emit, outcome, run, wanted, runs)
        spectrum, ranked = located.spectrum, located.ranked
        emit("repair.started", command=self.tests.command, units=[describe(s.unit) for s in ranked], runs=runs.how)
        if not ranked:
            return self._nothing_located(emit, outcome, run, wanted, located)
        outcome.ran = True
        search = self._searcher(emit, run, wanted, runs, located)

        def relocate(now: TestRun, applied: list[Edit]) -> list[Suspect]:
            nonlocal spectrum
            for unit, new in applied:
                if spectrum is not None:
                    spectrum = spectrum.shifted(unit.path, unit.start_line, unit.end_line, len(new.splitlines()))
            if spectrum is not None:
                spectrum = spectrum.narrowed(wanted & now.failing)
            return self._suspects(_failures(now, wanted), wanted & now.failing, spectrum) or search.suspects

        search.relocate = relocate
        units = [s.unit for s in ranked]
        # One snapshot step around every candidate and restore: the states in between are never undo steps. The
        # step is opened with what the edits declare, as the loop's rounds are.
        self.dispatcher.snapshots.open_step(
            emit, "repair", [self.dispatcher.effects(edit_call(u, u.text)) for u in units]
        )
        try:
            if search.model is not None:  # asked again only if the functions changed
                search.model.ask_about(questions_for(ranked, search.values), emit)
            search.remember_original(ranked[0].unit)  # while the model writes its first answer
            settled = self._search(search, outcome, began)
        finally:
            # Counted first: a time limit during the waits below left a job at 0 tokens after 27 answers.
            outcome.candidates, outcome.tool_calls = search.candidates, search.editor.calls
            if search.model is not None:
                outcome.usage += search.model.usage
                search.model.finish(emit)
            self.dispatcher.snapshots.close_step(emit)
        self._record(outcome, search, settled, run, wanted, [describe(u) for u in units])
        emit(
            "repair.finished",
            fixed=outcome.fixed,
            candidates=outcome.candidates,
            summary=outcome.summary,
            beyond=list(outcome.beyond),
            disputes=list(outcome.disputes),
        )
        return outcome

    def _nothing_located(
        self, emit: Emit, outcome: RepairOutcome, run: TestRun, wanted: frozenset[str], located: _Located
    ) -> RepairOutcome:
        """No function to repair: the loop takes over, told so, and the user is told what the test command needs
        where the tests cannot import the project's own code."""
        if setup := unimportable(_failures(run, wanted), self.root):
            emit("notice", message=setup)
        _done_asking(located.model, outcome, emit)
        outcome.handover = self._handover(run, outcome, [], "no function could be located from the failures")
        return outcome

    def _located(
        self, emit: Emit, outcome: RepairOutcome, run: TestRun, wanted: frozenset[str], runs: CandidateRuns
    ) -> _Located:
        """The units to repair, ranked by coverage where it can be measured, with the model already asked about
        the ones the failures name while it is."""
        failures = _failures(run, wanted)
        editor = Editor(self.dispatcher, emit)
        named = self._suspects(failures, wanted & run.failing, None)
        ctx = self.tests.ctx
        shown = with_values(failures, [s.unit for s in named], self.root, ctx.env,
                            min(ctx.config.test_timeout, COMPARED_TIMEOUT_S))  # fmt: skip
        tests, values = FailingTests(self.root), ValuesRead(self.root)
        model = self._asking(shown, named, editor, tests, values)
        try:
            spectrum = self._spectrum(run, wanted, emit, runs)
            ranked = named if spectrum is None else self._suspects(failures, wanted & run.failing, spectrum)
        except BaseException:
            _done_asking(model, outcome, emit)
            raise
        return _Located(spectrum, ranked, model, editor, shown, tests, values)

    def _searcher(
        self, emit: Emit, run: TestRun, wanted: frozenset[str], runs: CandidateRuns, located: _Located
    ) -> Search:
        """The search over the ranked units: their files watched, the model asking, the variants queued."""
        failures = _failures(run, wanted)
        ranked, model, editor = located.ranked, located.model, located.editor
        for suspect in ranked:
            editor.watch(suspect.unit)
        clues = read_clues(located.shown, self.root, located.tests)
        search = Search(self.root, runs, editor, emit, wanted, run, clues, failures, model, self._probe)
        search.variant_limit, search.suspects, search.values = self.config.mutants, ranked, located.values
        search.add_variants([(s.unit, s.lines) for s in ranked])
        # A class the failing test subclasses: its code that names it, wherever the failure points (own_class.py).
        seen = {suspect.unit.key for suspect in ranked}
        owned = [unit for base in sorted(clues.subclassed) for unit in class_units(self.root, base)
                 if unit.key not in seen and own_class_rows(unit.text.splitlines(), clues.subclassed)]  # fmt: skip
        search.add_variants([(unit, []) for unit in owned], first=True, at_least=OWN_CLASS_SCORE)
        # An object that lacks what its set-up assigns: the set-up called where it is restored (restored_state.py).
        texts = clue_texts(located.shown)
        search.variants.extendleft(reversed(restored_without_set_up(self.root, texts)))
        # A text read with its byte order mark kept: dropped where the suspects' files read (byte_order_marks.py).
        search.variants.extendleft(reversed(dropped_marks(self.root, [s.unit.path for s in ranked], texts)))
        return search

    def _search(self, search: Search, outcome: RepairOutcome, began: float) -> Settled:
        """Proposals tested until the budget is spent, or a while after the first plausible one (to check it
        against others; no longer once two of them agree on every probe), then settled."""
        budget_end = began + self.config.time_budget_s
        # The final check runs the whole command once more, and settling may undo and redo a candidate: room for
        # both before the job's time limit, so that a fix found in time is also confirmed in time.
        reserve = FINAL_CHECK_FACTOR * search.runs.baseline.result.duration_s + FINAL_CHECK_SLACK_S
        deadline = self._deadline.before(budget_end, reserve)
        found_at: float | None = None
        while not search.editor.stopped:
            now = time.monotonic()
            if search.pool and found_at is None:
                found_at = now
            if found_at is not None and (
                now - found_at >= self.config.explore_s or len(search.pool) > self.config.rivals or search.unanimous
            ):
                break
            stop = deadline if found_at is None else min(deadline, found_at + self.config.explore_s)
            proposal = search.next_proposal(stop)
            if proposal is None:
                break
            search.test(proposal)
        if not search.pool and time.monotonic() >= deadline:
            outcome.out_of_time = (
                f"its time budget of {self.config.time_budget_s:g} s"
                if deadline >= budget_end
                else f"the job's time limit of {self._deadline.seconds:g} s"
            )
        if search.model is not None:
            # No answer is taken from here on: the server stops writing now, not after the final check.
            search.model.halt()
        search.take_up_nearest()
        return settle(search)

    def _record(
        self, outcome: RepairOutcome, search: Search, settled: Settled, start: TestRun, wanted: frozenset[str],
        units: list[str],
    ) -> None:  # fmt: skip
        outcome.candidates = search.candidates
        outcome.tool_calls = search.editor.calls
        outcome.stopped = search.editor.stopped
        outcome.fixed = settled.fixed
        outcome.last_run = settled.run
        outcome.set_aside = tuple(search.set_aside)
        outcome.changed = settled.fixed or bool(search.kept) or bool(outcome.stopped)
        if settled.verdict is not None:
            outcome.beyond, outcome.disputes = settled.verdict.beyond, settled.verdict.disputes
        outcome.summary = self._summary(outcome, start, settled, wanted)
        if not outcome.fixed and outcome.changed:
            still = _failures(settled.run, wanted & settled.run.failing) if settled.run.failing & wanted else []
            outcome.left = tuple(describe(unit) for unit in locate(still, self.root, limit=3))
        if not outcome.fixed:
            last = search.last_problem
            if outcome.out_of_time:
                setting = "[repair].time_budget_s" if outcome.out_of_time.startswith("its") else "--time-limit"
                last = f"{outcome.out_of_time} ({setting}) was spent"
            kept = sorted({step.what.split(": ", 1)[-1].split(" line ")[0] for step in search.kept})
            outcome.handover = self._handover(settled.run, outcome, list(outcome.left) or units, last, kept)

    def _spectrum(self, run: TestRun, wanted: frozenset[str], emit: Emit, runs: CandidateRuns) -> Spectrum | None:
        """The tests' line coverage ranked, measured once per repair; None when off or not measurable."""
        # A test that hung would spend its whole limit again to be recorded, and where it hung is in its traceback.
        failing = wanted & (run.failing - _hung(run))
        if not self.config.coverage or not failing:
            return None
        limit = self._spectrum_limit()
        began = time.monotonic()
        spectrum = measure(self.tests, run, failing, runs, limit_s=limit)
        if spectrum is None and time.monotonic() - began >= limit:
            emit("notice", message=f"coverage of the failing tests ran past {limit:.0f} s and was stopped; repair "
                 "ranks the code by the failures alone")  # fmt: skip
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

    def _spectrum_limit(self) -> float:
        """Coverage's share of the time repair has: a deep recursion under the tracer took 17 s of a job's minute,
        and the failures' own evidence ranks the code without it."""
        left = self._deadline.left()
        have = self.config.time_budget_s if left is None else min(left, self.config.time_budget_s)
        return max(SPECTRUM_MIN_S, have * SPECTRUM_SHARE)

    def _suspects(
        self, failures: list[FailedTest], failing: frozenset[str], spectrum: Spectrum | None
    ) -> list[Suspect]:
        located = locate(failures, self.root, limit=self.config.max_functions)
        found = suspects(
            spectrum, located, self.root, sorted(failing), self.config.max_functions, got_nothing=got_nothing(failures)
        )
        # A file that holds a failing test is the tests', whatever its name (`checks.py` named in python_files): a
        # test made to agree with the code would pass. A doctest's file is the code its docstrings show.
        tests = {test_id.partition("::")[0] for test_id in failing if "::" in test_id and not is_doctest(test_id)}
        found = [suspect for suspect in found if suspect.unit.path not in tests]
        # What the failing tests hand code to run is their instrument, however much of it they ran (locate.py).
        handed = instruments(failures, self.root)
        return [suspect for suspect in found if suspect.unit.name not in handed] or found

    def _asking(
        self, failures: list[FailedTest], named: list[Suspect], editor: Editor, tests: FailingTests, values: ValuesRead
    ) -> ModelAnswers | None:
        """The model, already asked about the functions the failures name (`named`), while coverage is measured
        (seconds on a deep recursion): its first answer is the slowest thing repair waits for. Their files are
        watched from the moment the model reads them. None when repair asks no model."""
        if not self.config.candidates:
            return None
        model = self._model(failures, tests)
        for suspect in named:
            editor.watch(suspect.unit)
            for value in values(suspect.unit):
                editor.watch(value)
        if named:
            model.start(questions_for(named, values))
        return model

    def _model(self, failures: list[FailedTest], tests: FailingTests) -> ModelAnswers:
        return ModelAnswers(self.backend, self.options, self.config, self.root, failures, tests,
                            redact=self.dispatcher.redactor.redact)  # fmt: skip

    def _probe(self, unit: Unit) -> ProbeSpec | None:
        """The unit's probes, found once: a Python function's (or its callers', which carry its outputs) when pytest
        runs the tests, or through a probe program of its own when unittest does; a Go or JavaScript function's
        through such a program."""
        if unit.key not in self._specs:
            if unit.language == "python" and self._runner == UNITTEST_RUNNER:
                self._specs[unit.key] = by_own_program(probe_spec(unit, self.root), self.root)
            elif unit.language == "python":
                self._specs[unit.key] = probe_spec(unit, self.root) if self._runner == "pytest" else None
            else:
                self._specs[unit.key] = native_probe_spec(unit, self.root)
        return self._specs[unit.key]

    def _summary(self, outcome: RepairOutcome, start: TestRun, settled: Settled, wanted: frozenset[str]) -> str:
        before = len(wanted & start.failing) or 1
        tries = count(outcome.candidates, "candidate")
        if outcome.fixed:
            passes = f"; {self.tests.named} passes" if settled.run.passed else ""
            return f"fixed {count(before, 'failing test')} in {tries}{passes}{self._checked(outcome, settled)}"
        if outcome.stopped:
            return f"repair stopped after {tries}: {outcome.stopped}"
        run = settled.run
        left = len(wanted & run.failing) if run.report is not None else before
        verb = "fails" if left == 1 else "fail"
        spent = f" in {outcome.out_of_time}" if outcome.out_of_time else ""
        said = f"repair tried {tries}{spent}; {left} of {count(before, 'failing test')} still {verb}"
        if outcome.set_aside:
            n = len(outcome.set_aside)
            said += f". {count(n, 'candidate')} passed the tests and {'was' if n == 1 else 'were'} no fix"
            said += f" ({outcome.set_aside[0]})"
        return said

    def _checked(self, outcome: RepairOutcome, settled: Settled) -> str:
        """What a fix's summary adds: where candidates disagree, what it changes beyond the tests, or why nothing
        checked it there."""
        text = ""
        if outcome.disputes:
            suggestion = settled.verdict.suggestion if settled.verdict is not None else ""
            text += ". Unsure: candidates that pass the tests disagree on " + "; ".join(outcome.disputes)
            text += f". A test would settle it: `{suggestion}`" if suggestion else ""
        if outcome.beyond:
            return text + ". Beyond the tests, the fix changes " + "; ".join(outcome.beyond)
        if settled.verdict is not None:
            unpinned = settled.verdict.unpinned
            text += f". On the {count(unpinned, 'other input')} tried, it answers as the code did" if unpinned else (
                ". Nothing checked it beyond the tests (no input other than theirs could be built for it)"
            )  # fmt: skip
        else:
            language = settled.chosen.edits[0][0].language if settled.chosen and settled.chosen.edits else ""
            probed = language in ("go", "javascript") or (language == "python" and self._runner in _PROBED_RUNNERS)
            how = "no probe could call the changed code" if probed else (
                "pedro calls changed code on other inputs in Go and JavaScript, and in Python under pytest or unittest"
            )  # fmt: skip
            text += f". Nothing checked it beyond the tests ({how})"
        return text

    def _handover(
        self, run: TestRun, outcome: RepairOutcome, units: list[str], last: str, kept: Sequence[str] = ()
    ) -> str:
        """What the loop's model reads first: the tests as repair leaves them, what it kept, what is left."""
        report = run.report
        counts = f"passed {report.passed}, failed {report.failed + report.errors}" if report else "it failed"
        failing = "\n".join(f"- {describe_failure(f)}" for f in (report.failures[:3] if report else []))
        return render_prompt(
            "repair/handover_partial.md" if kept else "repair/handover.md",
            kept=" and ".join(kept),
            command=self.tests.named,
            counts=counts,
            failing=failing,
            tries=outcome.candidates,
            units=", ".join(units) or "no function",
            last=last or "no usable answer",
        )


@contextlib.contextmanager
def _repair_folder() -> Iterator[Path]:
    """A folder of the repair's own (the warm pytest's script, its runs' reports), removed at its end."""
    with tempfile.TemporaryDirectory(prefix="pedro-repair-") as folder:
        yield Path(folder)


def _mends_said(mended: Mended, command: str) -> str:
    """The mends kept, in words ("" for none), and where the tests then pass, that the command does."""
    if not mended.kept:
        return ""
    said = f"mended what did not compile ({'; '.join(mended.kept)}) in {count(mended.tried, 'candidate')}"
    return f"{said}; `{command}` passes" if command and mended.run.passed else said


def _failures(run: TestRun, wanted: frozenset[str]) -> list[FailedTest]:
    failures = run.report.failures if run.report is not None else []
    return [failure for failure in failures if failure.test_id in wanted] or failures[: 1 if not wanted else 0]


def _done_asking(model: ModelAnswers | None, outcome: RepairOutcome, emit: Emit) -> None:
    """The model asked no more before any search began, and what it spent counted."""
    if model is not None:
        model.finish(emit)
        outcome.usage += model.usage


def _hung(run: TestRun) -> frozenset[str]:
    """The tests of `run` that were stopped at their own limit (they hung)."""
    failures = run.report.failures if run.report is not None else []
    return frozenset(failure.test_id for failure in failures if HUNG_MARK in failure.message)

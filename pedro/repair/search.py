"""The search of a repair: proposals from two sources (variants, model answers) tested as they come, each failing
test first; what makes the failing tests pass and breaks none joins the pool of plausible candidates, what makes
progress stays while the rest is looked for, everything else is taken back."""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from pedro.evidence import describe_test_run
from pedro.repair.answers import WHOLE_FILE_LINES, Answer, ModelAnswers, Question, questions_for
from pedro.repair.candidate import (
    Candidate,
    bypasses,
    drops_own_calls,
    mutant_candidate,
    read_candidate,
    read_file_candidate,
    read_line_candidate,
    special_cases,
)
from pedro.repair.choose import crashes_beyond, ignores_input, unanimous
from pedro.repair.clues import Clues
from pedro.repair.edits import Edit, Editor
from pedro.repair.evaluate import CandidateRuns
from pedro.repair.everywhere import everywhere
from pedro.repair.followed_values import ValuesRead
from pedro.repair.judge import Verdict, judge, sampled
from pedro.repair.locate import Unit, constants_read, file_units
from pedro.repair.pairs import Tested, joined, pairings, slip_kind
from pedro.repair.probes import ProbeRecorder, ProbeSpec
from pedro.repair.progress import came_nearer, failed_later, fails_alike, remaining
from pedro.repair.project_imports import imported_functions
from pedro.repair.spectrum import Suspect
from pedro.repair.variants import Variant, unit_variants
from pedro.tools.test import TestRun
from pedro.tools.testreport import FailedTest

Origin = Literal["mutation", "function", "line", "pair", "file", "answer_variant"]
Emit = Callable[..., None]
_WAIT_S = 0.2
"""How long the search waits for an answer when no variant is left and the model is still writing."""
_NUDGE = re.compile(r"`(?P<name>[\w.$]+)` → `\(?(?P=name) [+-] 1\)?`")
"""A variant that moves a name by one: `n` → `(n + 1)`."""
_NOT_A_NUMBER = re.compile(
    r"unsupported operand type|can only concatenate|bad operand type|must be str, not int|invalid operation"
)
"""The failure of arithmetic on a value that is no number (a function, an iterator, a string)."""
_CONSTANT_PENALTY = 3.0
"""How much less a variant of a constant the unit reads is worth than the same variant of the unit's own line."""
_EARLY_PAIRS = 12
"""Pairs of two candidates in different functions that each came nearer, tried as soon as the second one is tested
(more wait for the end)."""
_LATE_PAIRS = 24
"""Pairs tried after the early ones as candidates come nearer: each with the earlier one that came nearest."""
_FIRST_HALVES = 2
_HALF_EVERY = 3
_HALF_PAIRS = 24
"""The first candidates after which the failure came at a later assertion, and the pairs each makes with candidates
that left the failure as it was."""
# Pairs tried while the model writes once no variant is left, from the first _IDLE_NEARER candidates that came nearer
# and the first _IDLE_REST others: pairing every tested candidate with every other would cost more than a run.
_IDLE_PAIRS = 40
_IDLE_NEARER = 40
_IDLE_REST = 20
# Variants tried on top of kept candidates before the kept lines' other variants, then going back to the code before
# the first kept candidate: where a kept change was right, the fix on top of it came within 40 variants of it.
CHAIN_VARIANTS = 40
# Variants of the one line a failed model answer changed, tried right after it: a small model's rewrite of a line is
# often a token from the fix (`max(best, best + x)` where `max(x, best + x)` is right), and no variant of the original
# line reaches it.
_ANSWER_VARIANTS = 12


@dataclass(frozen=True)
class Proposal:
    """A candidate to test: its edits (the unit as the file holds it now, and its new text), where it came from,
    and what the events say of it."""

    edits: list[Edit]
    question: Origin
    label: dict[str, Any]


@dataclass(frozen=True)
class Plausible:
    """A candidate that made the failing tests pass and broke none: its number, edits, run, and probe outputs."""

    n: int
    edits: list[Edit]
    run: TestRun
    outputs: tuple[str, ...] | None
    question: Origin


@dataclass(frozen=True)
class Level:
    """The search as it stood when a candidate was kept, to go on from if nothing tried on top of that candidate
    fixes the tests: what was still to try there, and what had been tried."""

    variants: tuple[Variant, ...]
    variants_tried: int
    instead: tuple[Proposal, ...]
    queued: tuple[Proposal, ...]
    suspects: tuple[Suspect, ...]
    tested: tuple[Tested, ...]
    tried: tuple[tuple[tuple[str, str], frozenset[str]], ...]


@dataclass(frozen=True)
class Kept:
    """A candidate kept for its progress (fewer wanted tests fail): its edits and the run before it."""

    n: int
    edits: list[Edit]
    before: TestRun
    what: str = ""
    """`N: unit line L`, for the chain of kept candidates the events show."""
    resume: Level | None = None
    """The search before it, to go back to (None for a fix's own step, which is never taken back so)."""


@dataclass
class Search:
    """One repair's search state and its sources."""

    root: Path
    runs: CandidateRuns
    editor: Editor
    emit: Emit
    wanted: frozenset[str]
    run: TestRun
    """The tests as the code is now: the baseline, then after each kept candidate."""
    clues: Clues
    failures: Sequence[FailedTest]
    model: ModelAnswers | None
    probe_for: Callable[[Unit], ProbeSpec | None]
    suspects: list[Suspect] = field(default_factory=list)
    """The ranked units, as the code holds them now: what the model is asked about."""
    values: ValuesRead | None = None
    """The module-level values each unit reads (followed_values.py): their variants and line questions come after
    the unit's own."""
    relocate: Callable[[TestRun, list[Edit]], list[Suspect]] | None = None
    """The units to try after a kept candidate: those the failures that remain point at."""
    variants: deque[Variant] = field(default_factory=deque)
    variant_limit: int = 0
    pool: list[Plausible] = field(default_factory=list)
    kept: list[Kept] = field(default_factory=list)
    tested: list[Tested] = field(default_factory=list)
    candidates: int = 0
    last_problem: str = ""
    set_aside: list[str] = field(default_factory=list)
    """Why each candidate that passed the tests was no fix (`candidate N: it …`)."""
    originals: dict[tuple[str, str, int], tuple[str, ...] | None] = field(default_factory=dict)
    """Each probed unit's outputs before its first plausible candidate, to name what a fix changes."""
    in_place: Plausible | None = None
    """The plausible candidate the files hold now: left in place until another candidate is tried."""
    _variants_tried: int = 0
    dropped: list[tuple[list[Kept], TestRun]] = field(default_factory=list)
    """Chains of kept candidates taken back by going back, each with the tests as it left them."""
    _chain_start: int = 0
    """The variants tried when the first of the kept candidates was kept."""
    # A move by one that failed as arithmetic on no number (an iterator, a callback) fails alike on another line:
    # the (file, name) pairs here are not moved again, which saved a real project's bug a run each.
    _not_numbers: set[tuple[str, str]] = field(default_factory=set)
    _early_pairs: int = 0
    _late_pairs: int = 0
    _halves: dict[int, int] = field(default_factory=dict)
    """The candidates that moved the failure to a later assertion, taken as first halves: how many pairs each made."""
    _halves_queue: deque[Proposal] = field(default_factory=deque)
    """Their pairs, the newest first, tried one after every _HALF_EVERY variants: a one-place fix stays likelier."""
    _halves_turn: int = 0
    paired: set[frozenset[int]] = field(default_factory=set)
    """The numbers of the candidates tried together so far."""
    _idle: deque[Proposal] = field(default_factory=deque)
    _idle_seen: int = -1
    _tried: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    _own: dict[str, frozenset[str]] = field(default_factory=dict)
    """Each file's function names, read once (own_functions)."""
    _queued: deque[Proposal] = field(default_factory=deque)
    """Proposals read from an answer already taken, after the first: its whole-file reading."""
    _instead: deque[Proposal] = field(default_factory=deque)
    """The kept candidate's line's other variants, each in its place: tried once the other variants are spent,
    within the same limit."""

    @property
    def all_ids(self) -> list[str]:
        report = self.run.report
        return sorted({*report.passing, *self.run.failing}) if report is not None and report.names_tests else []

    def add_variants(
        self, units: Sequence[tuple[Unit, Sequence[int]]], *, first: bool = False, at_least: float | None = None
    ) -> None:
        """Queue the variants of these units (with their suspicious lines), best supported first; only those scored
        `at_least` where it is given."""
        found: dict[tuple[str, int, str, tuple[tuple[int, str], ...]], Variant] = {}
        for unit, lines in units:
            text = self._file_text(unit)
            for variant in unit_variants(unit, lines, self.clues, text):
                if at_least is None or variant.score >= at_least:
                    found.setdefault((unit.path, variant.line, variant.text, variant.also), variant)
            for constant, constant_text in self._values_read(unit, text):
                # A table the function reads is a likelier place than none, and less likely than its own lines.
                for variant in unit_variants(constant, [], self.clues, constant_text):
                    lower = replace(variant, score=variant.score - _CONSTANT_PENALTY)
                    found.setdefault((constant.path, variant.line, variant.text, variant.also), lower)
        ordered = sorted(found.values(), key=lambda variant: -variant.score)
        if first:
            self.variants.extendleft(reversed(ordered))
        else:
            self.variants.extend(ordered)

    def _values_read(self, unit: Unit, text: str) -> list[tuple[Unit, str]]:
        """The constants the unit reads in its own file, and the values it reads followed through the project (each
        with its file's text); the files of the latter watched, as the model reads them."""
        found = [(constant, text) for constant in constants_read(unit, text)]
        for value in self.values(unit) if self.values is not None else ():
            self.editor.watch(value)
            found.append((value, self._file_text(value)))
        return found

    def next_proposal(self, deadline: float) -> Proposal | None:
        """An answer as soon as one has arrived, else the next variant, else (while the model writes) the next
        answer to come; None when both sources are spent or the time is up."""
        while time.monotonic() < deadline:
            if self._queued:
                return self._queued.popleft()
            proposal = self._answer(0.0)
            if proposal is not None:
                return proposal
            if self._halves_queue and self._variants_tried >= self._halves_turn:
                self._halves_turn = self._variants_tried + _HALF_EVERY
                return self._halves_queue.popleft()
            variant = self._next_variant()
            if variant == "again":
                continue
            if variant is not None:
                return variant
            if self._halves_queue:
                return self._halves_queue.popleft()
            if self.model is not None and self.model.busy and (pair := self._idle_pair()) is not None:
                return pair  # the core the tests use would wait for the model's next answer
            if self.model is None or not self.model.busy:
                return self._answer(0.0)  # one may have come in since
            proposal = self._answer(min(_WAIT_S, max(0.0, deadline - time.monotonic())))
            if proposal is not None:
                return proposal
        return None

    def _next_variant(self) -> Proposal | Literal["again"] | None:
        """The next variant to test; "again" when one was passed over (its unit changed) or the search went back to
        the code before the kept candidates; None when no variant is left within the limits."""
        if self.variants and self._variants_tried < self._limit():
            proposal = self._from_variant(self.variants.popleft())
            if proposal is None:
                return "again"
            self._variants_tried += 1
            return proposal
        if self._instead and self._variants_tried < self.variant_limit:
            self._variants_tried += 1  # variants like any other: [repair].mutants bounds them too
            return self._instead.popleft()
        return "again" if self._go_back() else None

    def _limit(self) -> int:
        """How many variants may have been tried before the next: [repair].mutants, and on top of kept candidates
        CHAIN_VARIANTS more than when the first was kept."""
        if self.kept and self.kept[0].resume is not None:
            return min(self.variant_limit, self._chain_start + CHAIN_VARIANTS)
        return self.variant_limit

    def _idle_pair(self) -> Proposal | None:
        """The next pair of earlier candidates not yet tried together (pairs.pairings' order: those that came
        nearer first), made afresh whenever more candidates have been tested."""
        if len(self.tested) != self._idle_seen:
            self._idle_seen = len(self.tested)
            nearer = [one for one in self.tested if one.nearer][:_IDLE_NEARER]
            rest = [one for one in self.tested if not one.nearer][:_IDLE_REST]
            self._idle = deque(pair_proposal(*pair) for pair in pairings([*nearer, *rest], _IDLE_PAIRS))
        while self._idle:
            proposal = self._idle.popleft()
            if self.claim_pair(proposal):
                return proposal
        return None

    def claim_pair(self, proposal: Proposal) -> bool:
        """Whether the pair is yet to be tried, marking it tried: no two candidates are tested together twice."""
        key = frozenset(proposal.label["combines"])
        if key in self.paired:
            return False
        self.paired.add(key)
        return True

    def _answer(self, wait_s: float) -> Proposal | None:
        """The next answer that has arrived (waiting up to `wait_s`), as a proposal; None when none has."""
        if self.model is None:
            return None
        while (answer := self.model.take(wait_s)) is not None:
            self.model.forward(self.emit)
            proposal = self._from_answer(answer)
            if proposal is not None:
                return proposal
            wait_s = 0.0
        self.model.forward(self.emit)
        return None

    def _from_variant(self, variant: Variant) -> Proposal | None:
        """The variant as a proposal; None when a kept candidate has changed its unit since it was made."""
        self.take_back_plausible()  # proposals are made against the code without it
        unit = self._current(variant.unit)
        label = {"unit": describe(variant.unit), "question": "mutation", "line": variant.line, "change": variant.change}
        nudged = _NUDGE.fullmatch(variant.change)
        if unit is None or (nudged is not None and (unit.path, nudged["name"]) in self._not_numbers):
            return None
        file_text = self._file_text(unit)
        candidate = mutant_candidate(unit, variant.line, variant.text, file_text, variant.also)
        proposal = self._proposal(unit, candidate, "mutation", label)
        if proposal.edits and not variant.also:
            self._queue_everywhere(unit, variant, file_text, label)
        return proposal

    def _queue_everywhere(self, unit: Unit, variant: Variant, file_text: str, label: dict[str, Any]) -> None:
        """The variant's comparison changed on every line of the file that makes it, tried right after it."""
        lines = file_text.splitlines()
        if not 0 < variant.line <= len(lines):
            return
        wide = everywhere(lines[variant.line - 1], variant.text, file_text, lambda: file_units(self.root, unit.path))
        if wide is None:
            return
        tried = self._tried.setdefault((unit.path, ""), set())
        key = "\n".join(new for _unit, new in wide.edits)
        if key in tried:
            return
        tried.add(key)
        change = f"{wide.change} wherever the file makes that comparison ({wide.lines} lines)"
        self._queued.append(Proposal(wide.edits, "mutation", {**label, "change": change}))

    def _from_answer(self, answer: Answer) -> Proposal | None:
        self.take_back_plausible()  # proposals are made against the code without it
        question = answer.question
        unit = self._answered_unit(answer)
        label: dict[str, Any] = {"unit": describe(question.unit), "question": question.kind, "answer": answer.index}
        label |= {"line": question.line} if question.line else {}
        label |= {"fork": True} if answer.forked else {}
        if unit is None:
            return None  # a kept candidate changed the unit since the question was asked
        file_text = self._file_text(unit)
        shown, line, candidate = _read_answer(answer, unit, file_text)
        failing = [f for f in self.failures if f.test_id in unit.tests] or list(self.failures[:1])
        failure_text = "\n".join(f.message + "\n" + f.details for f in failing)
        if candidate.text is not None and (why := self._set_aside(candidate.text, shown, question, line, failure_text)):
            candidate = Candidate(None, why)
        elif candidate.text is not None and candidate.text.strip() == unit.text.strip():
            candidate = Candidate(None, "the answer gives the function as it now stands")
        if question.kind == "function" and len(file_text.splitlines()) <= WHOLE_FILE_LINES:
            self._queue_whole_file(answer, unit, file_text, failure_text, label)
        return self._proposal(unit, candidate, question.kind, label)

    def _queue_whole_file(
        self, answer: Answer, unit: Unit, file_text: str, failure_text: str, label: dict[str, Any]
    ) -> None:
        """The answer as the whole file it was shown, when it rewrites more than the function asked about: one
        proposal that changes every function it changed, tried after the function alone."""
        edits = read_file_candidate(answer.text, file_units(self.root, unit.path), file_text)
        if not edits or any(special_cases(new, old, failure_text) for old, new in edits):
            return
        key = "\n".join(new for _unit, new in edits)
        tried = self._tried.setdefault((unit.path, ""), set())
        if key in tried:
            return
        tried.add(key)
        changed = [old.qualified_name for old, _new in edits]
        self._queued.append(Proposal(edits, "file", {**label, "question": "file", "functions": changed}))

    def _proposal(self, unit: Unit, candidate: Candidate, question: Origin, label: dict[str, Any]) -> Proposal:
        if candidate.text is None:
            return Proposal([], question, {**label, "problem": candidate.problem or "no usable code"})
        tried = self._tried.setdefault((unit.path, unit.qualified_name), set())
        if candidate.text in tried:
            return Proposal([], question, {**label, "duplicate": True})
        tried.add(candidate.text)
        return Proposal([(unit, candidate.text)], question, label)

    def _current(self, unit: Unit) -> Unit | None:
        """The unit as the file holds it now: the same text (its lines may have moved), else None."""
        text = self._file_text(unit)
        if unit.text not in text:
            return None
        before = text[: text.index(unit.text)].count("\n")
        if before + 1 == unit.start_line:
            return unit
        shift = before + 1 - unit.start_line
        return replace(unit, start_line=unit.start_line + shift, end_line=unit.end_line + shift)

    def _answered_unit(self, answer: Answer) -> Unit | None:
        """The unit an answer replaces, as the file holds it now: for a function the search is still about, also one
        candidates kept or taken back changed since the question was asked (when its file has one function of that
        name). A small model writes an answer for seconds, and the search goes on meanwhile."""
        unit = answer.question.unit
        current = self._current(unit)
        asked = {(suspect.unit.path, suspect.unit.qualified_name) for suspect in self.suspects}
        if current is not None or (unit.path, unit.qualified_name) not in asked:
            return current
        same = [one for one in file_units(self.root, unit.path) if one.qualified_name == unit.qualified_name]
        return replace(same[0], tests=unit.tests) if len(same) == 1 else None

    def _set_aside(self, new: str, unit: Unit, question: Question, line: int, failure_text: str) -> str:
        """Why an answer's candidate is set aside untested, or "": it special-cases the tests' inputs, routes around
        another suspect, or (a line answer) calls none of its file's functions where its line did."""
        why = special_cases(new, unit, failure_text) or bypasses(new, unit, [s.unit for s in self.suspects])
        if question.kind == "line" and not why:
            why = drops_own_calls(new, unit, line, self._own_functions(unit.path))
        return why

    def _own_functions(self, path: str) -> frozenset[str]:
        """The names of the functions and methods defined in the file `path`, and of those it imports from the
        project's own modules."""
        if path not in self._own:
            defined = frozenset(unit.name for unit in file_units(self.root, path))
            self._own[path] = defined | (imported_functions(self.root, path) if path.endswith(".py") else frozenset())
        return self._own[path]

    def _file_text(self, unit: Unit) -> str:
        try:
            return (self.root / unit.path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def test(self, proposal: Proposal) -> Verdict | str:
        """Test one proposal: a verdict, or why it cost no test run (unusable, duplicate, rejected)."""
        self.candidates += 1
        index = self.candidates
        label = proposal.label
        if not proposal.edits:
            status, reason = _untested(label)
            self.emit("repair.candidate", n=index, status=status, reason=reason, **_shown(label))
            self.last_problem = reason
            return status
        if self.editor.changed_by_someone(proposal.edits[0][0]):
            path = proposal.edits[0][0].path
            self.editor.stopped = f"{path} changed while pedro was repairing it; it is left as you made it"
            self.emit("repair.candidate", n=index, status="stopped", reason=self.editor.stopped, **_shown(label))
            return "stopped"
        self.take_back_plausible()
        applied, problem = self.editor.apply(proposal.edits)
        if not applied:
            self.emit("repair.candidate", n=index, status="rejected", reason=problem, **_shown(label))
            self.last_problem = problem
            return "rejected"
        try:
            verdict = self._judged(index, proposal, applied)
        except BaseException:
            # Interrupted (Ctrl-C, the time limit) or failed while testing: an unconfirmed candidate never stays.
            self.editor.undo(applied, index)
            raise
        return verdict

    def _judged(self, index: int, proposal: Proposal, applied: list[Edit]) -> Verdict:
        # A few of the failing tests first: the rest only for a candidate that passes one of them (judge.sampled).
        failures = self.run.report.failures if self.run.report is not None else []
        wanted_ids = sampled(failures, sorted(self.wanted & self.run.failing) or sorted(self.wanted))
        first = self.runs.first(wanted_ids)
        self.emit("tests.run", **describe_test_run(first, "candidate", first.command), candidate=index, scope="failing")
        verdict, why = _judged_as(proposal, *judge(self.run, first, self.wanted & frozenset(wanted_ids) or self.wanted))
        if verdict == "fixed" or (verdict == "progress" and not self.pool):
            unit = applied[0][0]
            spec = self.probe_for(unit) if verdict == "fixed" else None
            probe = ProbeRecorder(spec) if spec is not None and not spec.separate else None
            everything = self.runs.known(self.all_ids, instrument=probe, extra_s=probe.allowance_s if probe else 0.0)
            self.emit("tests.run", **describe_test_run(everything, "candidate", everything.command), candidate=index,
                      scope="all")  # fmt: skip
            verdict, why = _judged_as(proposal, *judge(self.run, everything, self.wanted))
            if verdict == "fixed":
                return self._plausible(index, proposal, applied, everything, self._probed_outputs(spec, probe))
            if verdict == "progress" and not self.pool:
                self._keep_progress(index, proposal, applied, everything, why)
                return verdict
        self.emit("repair.candidate", n=index, status=verdict, reason=why, **_shown(proposal.label))
        self.last_problem = why
        self.editor.undo(applied, index)
        if verdict == "fails":
            self._learn_from_failure(index, proposal, applied, first, why)
        return verdict

    def _plausible(
        self, index: int, proposal: Proposal, applied: list[Edit], everything: TestRun, outputs: tuple[str, ...] | None
    ) -> Verdict:
        """A candidate that passed every test joins the pool, unless its probe outputs show it answers the tests'
        value whatever it is asked (choose.ignores_input), or crashes on an input the code answered
        (choose.crashes_beyond): then it is no fix, and nothing to learn from."""
        unit = applied[0][0]
        spec = self.probe_for(unit)
        if spec is not None and unit.key not in self.originals:
            self.editor.undo(applied, index)
            self._remember_original(unit, spec)
            self.editor.apply(applied, reported=False)
        original = self.originals.get(unit.key)
        overfit = ignores_input(outputs, original) or crashes_beyond(outputs, original, spec, self._expected)
        if overfit:
            self.emit("repair.candidate", n=index, status="overfits", reason=overfit, **_shown(proposal.label))
            self.last_problem = overfit
            self.set_aside.append(f"candidate {index}: {overfit}")
            self.editor.undo(applied, index)
            return "fails"
        self.emit("repair.candidate", n=index, status="fixed", reason="", **_shown(proposal.label))
        plausible = Plausible(index, applied, everything, outputs, proposal.question)
        self.pool.append(plausible)
        self.in_place = plausible  # taken back only when another candidate is tried
        return "fixed"

    @property
    def _expected(self) -> str:
        """What the failing tests said, where an error they expect is named (`pytest.raises(TypeError)`)."""
        return "\n".join(f"{failure.message}\n{failure.details}" for failure in self.failures)

    def _probed_outputs(self, spec: ProbeSpec | None, probe: ProbeRecorder | None) -> tuple[str, ...] | None:
        """What the fixed code gave on the probe's inputs: recorded in the tests' run, or by a program of its own."""
        if spec is not None and spec.separate:
            return self.runs.probed(spec)
        return tuple(probe.outputs) if probe is not None and probe.outputs is not None else None

    def _keep_progress(
        self, index: int, proposal: Proposal, applied: list[Edit], everything: TestRun, why: str
    ) -> None:
        """Keep a candidate that came nearer (no plausible fix yet) and go on from the code with it in place."""
        self.emit("repair.candidate", n=index, status="progress", reason=why, **_shown(proposal.label))
        line = f" line {proposal.label['line']}" if proposal.label.get("line") else ""
        level = Level(
            tuple(self.variants), self._variants_tried, tuple(self._instead), tuple(self._queued), tuple(self.suspects),
            tuple(self.tested), tuple((key, frozenset(texts)) for key, texts in self._tried.items()),
        )  # fmt: skip
        if not self.kept:
            self._chain_start = self._variants_tried
        self.kept.append(Kept(index, applied, self.run, f"{index}: {proposal.label.get('unit')}{line}", level))
        self.run = everything
        self.emit("repair.kept", n=index, unit=proposal.label.get("unit"), reason=why,
                  chain=[kept.what for kept in self.kept])  # fmt: skip
        self._follow(applied)

    def _go_back(self) -> bool:
        """With no fix found and nothing left to try on top of the kept candidates, take them all back and go on with
        what was still to try before the first: a change that makes some tests pass can be the wrong one (a
        comparison flipped where an index was off by one), and everything tried on top of it then fails. Back to
        the start, not one step: each step's own variants were mostly spent before the next was kept."""
        if self.pool or not self.kept or self.kept[0].resume is None:
            return False
        for kept in reversed(self.kept):
            self.editor.undo(kept.edits, kept.n)
            if self.editor.stopped:
                return False
        first, numbers = self.kept[0], [kept.n for kept in self.kept]
        self.dropped.append((list(self.kept), self.run))
        self.kept.clear()
        level = first.resume
        assert level is not None
        why = "nothing tried on top of it fixed the tests; repair goes on from the code before it"
        self.emit("repair.dropped", n=numbers, unit=describe(first.edits[0][0]), reason=why)
        self.run = first.before
        self.variants, self._variants_tried = deque(level.variants), level.variants_tried
        self._instead, self._queued = deque(level.instead), deque(level.queued)
        self._halves_queue.clear()  # made of candidates tried on top of the kept ones
        self.suspects, self.tested = list(level.suspects), list(level.tested)
        self._tried = {key: set(texts) for key, texts in level.tried}
        self._idle_seen = -1
        if self.model is not None:
            self.model.ask_about(questions_for(self.suspects, self.values), self.emit)
        return True

    def take_up_nearest(self) -> None:
        """With no fix found and nothing kept, put back the chain of kept candidates taken back that left the fewest
        wanted tests failing: the search went back from it and found nothing better (the failures it left may be
        none the code can fix, a fixture file missing)."""
        if self.pool or self.kept or not self.dropped or self.editor.stopped:
            return
        chain, run = min(self.dropped, key=lambda dropped: len(self.wanted & dropped[1].failing))
        if len(self.wanted & run.failing) >= len(self.wanted & self.run.failing):
            return
        done: list[Kept] = []
        for kept in chain:
            applied, _problem = self.editor.apply(kept.edits, reported=False)
            if not applied:
                for step in reversed(done):
                    self.editor.undo(step.edits, step.n)
                return
            done.append(kept)
        self.kept, self.run = list(chain), run
        why = "put back: nothing tried after it came nearer"
        self.emit("repair.kept", n=chain[-1].n, unit=describe(chain[-1].edits[0][0]), reason=why,
                  chain=[kept.what for kept in chain])  # fmt: skip

    def _learn_from_failure(
        self, index: int, proposal: Proposal, applied: list[Edit], first: TestRun, why: str
    ) -> None:
        """What a failed candidate teaches: a name that is no number; a step nearer, for pairs."""
        nudged = _NUDGE.fullmatch(str(proposal.label.get("change", "")))
        if nudged is not None and _NOT_A_NUMBER.search(why):
            self._not_numbers.add((applied[0][0].path, nudged["name"]))
        # An answer whose tests hung (a recursion that never ends) hangs with a number changed too. A fork is one
        # token from the line already: its variants are two tokens from it, and a line's dozen forks would each queue
        # a dozen of them ahead of the variants of the code as it is.
        hung = first.result.outcome == "timeout"
        answered = proposal.question in ("function", "line", "file") and not proposal.label.get("fork")
        if answered and len(applied) == 1 and not hung:
            self._queue_answer_variants(applied[0], proposal.label)
        if len(applied) == 1:
            nearer = came_nearer(self.run, first, self.wanted)
            gap = remaining(first, self.wanted) if nearer else None
            # A pair is not half of another: three changes at once are too weak a lead.
            single = proposal.question != "pair"
            later = single and failed_later(self.run, first, self.wanted)
            alike = single and fails_alike(self.run, first, self.wanted)
            kind = slip_kind(str(proposal.label.get("change", "")))
            self._remember_tested(
                Tested(index, *applied[0], nearer=nearer, gap=gap, later=later, alike=alike, kind=kind)
            )

    def _queue_answer_variants(self, applied: Edit, label: dict[str, Any]) -> None:
        """The best variants of the line a failed answer changed, when it changed one line, queued with the answer's
        line in place: each a candidate of its own, tried next, and a variant like any other ([repair].mutants and the
        chain's limit bound them too)."""
        unit, new = applied
        old_lines, new_lines = unit.text.splitlines(), new.splitlines()
        changed = [k for k, (old, now) in enumerate(zip(old_lines, new_lines, strict=False)) if old != now]
        room = min(_ANSWER_VARIANTS, self._limit() - self._variants_tried)
        if len(old_lines) != len(new_lines) or len(changed) != 1 or room <= 0:
            return
        line = unit.start_line + changed[0]
        answered = replace(unit, text=new)
        file_text = self._file_text(unit).replace(unit.text, new, 1)
        variants = [v for v in unit_variants(answered, [line], self.clues, file_text) if v.line == line]
        for variant in variants[:room]:
            change = f"answer {label.get('answer')}'s line {line}, then {variant.change}"
            shown = {"unit": describe(unit), "question": "answer_variant", "answer": label.get("answer"), "line": line,
                     "change": change}  # fmt: skip
            proposal = self._proposal(unit, mutant_candidate(answered, line, variant.text, file_text),
                                      "answer_variant", shown)  # fmt: skip
            if proposal.edits:
                self._variants_tried += 1
                self._queued.append(proposal)

    def _remember_tested(self, tested: Tested) -> None:
        """Keep a failed candidate for pairs; when it and an earlier one each came nearer at different places, try
        the two together next: a bug in two places moves the failure closer with either half. The first pairs go
        by rank; after them, each candidate that came nearer is still tried with the earlier one that came nearest
        (the earliest pairs of a search are often spent on values that moved by chance)."""
        if tested.nearer:
            partners = [one for one in self.tested if one.nearer and one.unit.key != tested.unit.key]
            early = self._early_pairs < _EARLY_PAIRS
            if not early:
                partners = sorted(partners, key=_nearest)[: int(self._late_pairs < _LATE_PAIRS)]
            for earlier in partners:  # early: the earliest (best ranked) first
                edits = joined(earlier, tested)
                if edits is None:
                    continue
                if early:
                    self._early_pairs += 1
                else:
                    self._late_pairs += 1
                proposal = pair_proposal(earlier, tested, edits)
                if self.claim_pair(proposal):
                    self._queued.append(proposal)
                if early and self._early_pairs >= _EARLY_PAIRS:
                    break
        self._pair_halves(tested)
        self.tested.append(tested)

    def _pair_halves(self, tested: Tested) -> None:
        """Where one candidate moved the failure to a later assertion and another left it exactly as it was, try the
        two together soon: a slip in two branches or two cases of one function shows nothing for the second half
        until the first is in place (`number + remaining - need` in one branch, `number + need + remaining` in the
        other), and no single candidate after the first comes nearer. The pairs made last go first, each batch
        best ranked first: the newest partner was just tried."""
        if self.pool:
            return  # with a one-place fix at hand, two changes that fit the tests are likelier to fit them alone
        if tested.later and len(self._halves) < _FIRST_HALVES:
            self._halves[tested.n] = 0
            partners = [one for one in self.tested if one.alike]
        elif tested.alike:
            partners = [one for one in self.tested if one.n in self._halves]
        else:
            return
        self._halves_queue.extendleft(reversed(self._halves_with(tested, partners)))

    def _halves_with(self, tested: Tested, partners: list[Tested]) -> list[Proposal]:
        """The pairs of `tested` with each partner not paired with it yet, within the first half's share of pairs:
        two slips of one kind (an operand dropped in each branch) first, and beyond that share, as the likeliest
        halves."""
        batch: list[Proposal] = []
        kin: list[Proposal] = []
        for earlier in partners:  # the earliest (best ranked) first
            first = tested if tested.later else earlier
            alike_kind = bool(first.kind) and earlier.kind == tested.kind
            edits = joined(earlier, tested)
            if edits is None or (self._halves[first.n] >= _HALF_PAIRS and not alike_kind):
                continue
            proposal = pair_proposal(earlier, tested, edits)
            if self.claim_pair(proposal):
                self._halves[first.n] += 1
                (kin if alike_kind else batch).append(proposal)
        return [*kin, *batch]

    @property
    def unanimous(self) -> bool:
        """Whether the plausible candidates so far, two or more of one unit, agree on every probe (choose.unanimous)."""
        if len(self.pool) < 2 or any(p.outputs is None or p.edits[0][0].key != self.pool[0].edits[0][0].key
                                     for p in self.pool):  # fmt: skip
            return False
        unit = self.pool[0].edits[0][0]
        spec = self.probe_for(unit)
        outputs = [p.outputs for p in self.pool if p.outputs is not None]
        return spec is not None and unanimous(outputs, self.originals.get(unit.key), spec.pinned, spec.documented)

    def take_back_plausible(self) -> None:
        """Put the code back as it was before the plausible candidate still in place, if one is."""
        if self.in_place is not None:
            self.editor.undo(self.in_place.edits, self.in_place.n)
            self.in_place = None

    def _follow(self, applied: list[Edit]) -> None:
        """After a kept candidate: the units the failures that remain point at, ranked again, with fresh variants
        and fresh questions (the code they were made from changed); after those variants, the ones of the lines it
        changed that were still to be tried, each in its place."""
        instead = self._instead_of_kept(applied)
        self.suspects = self.relocate(self.run, applied) if self.relocate is not None else self.suspects
        for suspect in self.suspects:
            self.editor.watch(suspect.unit)  # a file first looked at now: read as it is, as the model reads one
        self.variants.clear()
        self._queued.clear()  # read from the code before the kept candidate
        self._halves.clear()
        self._halves_queue.clear()
        self.tested.clear()  # their edits too: pairs are made of candidates tried on the code as it is now
        # A change that failed beside the old code may fix the new: with `sum()` fixed, `mean()`'s own fix passes.
        self._tried.clear()
        self.add_variants([(suspect.unit, suspect.lines) for suspect in self.suspects])
        self._instead.clear()  # made from the code before this candidate
        self._instead.extend(self._proposal(unit, candidate, "mutation", label) for unit, candidate, label in instead)
        if self.model is not None:
            self.model.ask_about(questions_for(self.suspects, self.values), self.emit)

    def _instead_of_kept(self, applied: list[Edit]) -> list[tuple[Unit, Candidate, dict[str, Any]]]:
        """The variants still untried on the lines a kept candidate changed, each made to replace it: a change that
        makes some failing tests pass may be the wrong one of its line's (`cents * rate` → `cents + rate` passed
        the test at a rate of 0, where `cents * (rate + 1)` passes them all), and variants of the kept line build
        on it instead of undoing it. Only for the first kept candidate."""
        if len(applied) != 1 or len(self.kept) != 1:
            return []  # a later kept line's: going back to the code before the first tries those variants
        before, kept_text = applied[0]
        old_lines, new_lines = before.text.splitlines(), kept_text.splitlines()
        file_now = self._file_text(before)
        if len(old_lines) != len(new_lines) or kept_text not in file_now:
            return []
        pairs = enumerate(zip(old_lines, new_lines, strict=True))
        changed = {before.start_line + i for i, (old, new) in pairs if old != new}
        now = replace(before, text=kept_text)
        file_before = file_now.replace(kept_text, before.text, 1)
        found = []
        for variant in self.variants:
            if variant.unit.key == before.key and variant.line in changed:
                candidate = mutant_candidate(before, variant.line, variant.text, file_before)
                change = f"{variant.change} in place of candidate {self.kept[-1].n}'s change"
                label = {"unit": describe(before), "question": "mutation", "line": variant.line, "change": change}
                found.append((now, candidate, label))
        return found

    def remember_original(self, unit: Unit) -> None:
        """The unit's outputs on its probes as the code is now, before any candidate: what a fix is compared with."""
        spec = self.probe_for(unit)
        if spec is not None and unit.key not in self.originals:
            self._remember_original(unit, spec)

    def _remember_original(self, unit: Unit, spec: ProbeSpec) -> None:
        """The unit's outputs on the probes before the first candidate that fixed it (the code as it is now)."""
        if spec.separate:
            self.originals[unit.key] = self.runs.probed(spec)
            return
        probe = ProbeRecorder(spec)
        self.runs.first(sorted(self.wanted & self.run.failing) or sorted(self.wanted), instrument=probe)
        self.originals[unit.key] = tuple(probe.outputs) if probe.outputs is not None else None


def _read_answer(answer: Answer, unit: Unit, file_text: str) -> tuple[Unit, int, Candidate]:
    """The answer read against the function as its question showed it, where the function stands now in `file_text`
    (`unit`): that function as shown, the line asked about, and the candidate. A line question's line moves with its
    function (a kept candidate above it may have changed the line count), and where a candidate kept, or taken back,
    since changed the function, the answer still means the code it was shown."""
    question = answer.question
    shown, shown_file = unit, file_text
    if unit.text != question.unit.text:
        shown = replace(unit, text=question.unit.text, end_line=unit.start_line + question.unit.text.count("\n"))
        shown_file = file_text.replace(unit.text, shown.text, 1)
    line = question.line + unit.start_line - question.unit.start_line
    if question.kind == "line":
        return shown, line, read_line_candidate(answer.text, shown, line, shown_file)
    return shown, line, read_candidate(answer.text, shown, shown_file)


def _judged_as(proposal: Proposal, verdict: Verdict, why: str) -> tuple[Verdict, str]:
    """The verdict, except that a pair that fixes only part of the failure fails: two changes at once are too weak
    a lead to build on."""
    if verdict == "progress" and proposal.question == "pair":
        return "fails", why
    return verdict, why


def _untested(label: dict[str, Any]) -> tuple[str, str]:
    if label.get("duplicate"):
        return "duplicate", "the same change as before"
    problem = str(label.get("problem", ""))
    return ("overfits" if problem.startswith("it ") else "unusable"), problem


def _shown(label: dict[str, Any]) -> dict[str, Any]:
    """The label as events carry it."""
    return {key: value for key, value in label.items() if key not in ("duplicate", "problem")}


def pair_proposal(first: Tested, second: Tested, edits: list[Edit]) -> Proposal:
    """Two tested candidates applied together, as a proposal."""
    return Proposal(edits, "pair", {"unit": describe(first.unit), "question": "pair", "combines": [first.n, second.n]})


def _nearest(tested: Tested) -> float:
    """A tested candidate's distance from passing, for ordering partners (unknown last)."""
    return tested.gap if tested.gap is not None else float("inf")


def describe(unit: Unit) -> str:
    return f"{unit.path}:{unit.start_line} {unit.qualified_name}"

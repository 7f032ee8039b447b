"""Build's direct way, a stage before the loop as repair is: find the place, ask the model for the code itself, check
every answer (it parses and imports, lints no worse, keeps the passing tests passing, passes tests written for it
and holds the request's examples), and keep the one most others agree with."""

from __future__ import annotations

import ast
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pedro.backends.base import Backend, GenerationOptions
from pedro.build.examples import Example, read_examples
from pedro.build.fitted import fitted_to_example
from pedro.build.merge import Merged, merge
from pedro.build.place import Place, find_place
from pedro.build.probing import checkable, example_calls, probe_calls, tests_naming
from pedro.build.question import answer_opening, answer_stops, question
from pedro.build.slips import near_miss, slip_answers
from pedro.build.testwriting import test_code, test_opening, test_path
from pedro.build.verdict import CHECKS, Tried, choose, judge_calls, passing_ids, test_failure
from pedro.calls.run import Call, CallRun, run_calls
from pedro.config import BuildConfig
from pedro.deadline import NO_DEADLINE, Deadline
from pedro.dispatch import Dispatcher
from pedro.errors import BackendError
from pedro.evidence import TestEvidence, count, describe_test_run, inside
from pedro.linters import Linter, LintMessage, configured_linters, run_linter
from pedro.messages import Message, ToolCall, Usage
from pedro.modelcall import complete
from pedro.prompts import render_prompt
from pedro.repair.answers import FENCE_NAMES, sample_temperature
from pedro.repair.choose import unanimous
from pedro.tools.ripgrep import FileListing
from pedro.tools.symbols import LanguageName
from pedro.tools.test import TestRun

Emit = Callable[..., None]
_MAX_TEMPERATURE = 1.1
"""Hotter samples of a small model are seldom code."""
_CALLS_TIMEOUT_S = 30.0
_LINT_TIMEOUT_S = 60.0
_TEST_ANSWERS = 4
"""Tests asked for at most under --with-test."""
_AGREED_LEFT = 2
"""Passing answers that give the same output on every probe end the asking this many short of `rivals`."""
# Answers asked for after the first passing one, while one example is all that checks it and no other answer agrees
# with it: a small model's sample holds one example by chance often enough (`if a < 0 {return -a}; return b` for
# Max(3, 7) → 7, 1 answer of 21), where the right code is written again, or another way, within a few more.
_CONFIRM_TRIES = 10
_SHOWN_PROBES = 3


@dataclass
class BuildOutcome:
    """What the direct way did: whether it ran, kept an answer and checked it against anything beyond parsing; the
    job's summary, what it spent, the examples it checked and the last test run (the kept answer's)."""

    ran: bool = False
    kept: bool = False
    verified: bool = False
    summary: str = ""
    usage: Usage = field(default_factory=Usage)
    tool_calls: int = 0
    answers: int = 0
    examples: list[str] = field(default_factory=list)
    last_run: TestRun | None = None
    handover: str = ""
    """Why the direct way did not run (no function named)."""
    place: dict[str, Any] = field(default_factory=dict)
    """Where it wrote: the file, the function, and why that file."""

    def record(self) -> dict[str, Any]:
        """What the job record keeps: where, the examples checked, whether anything checked what the code does."""
        if not self.ran:
            return {}
        return {**self.place, "examples_checked": self.examples, "kept": self.kept, "verified": self.verified,
                "answers": self.answers}  # fmt: skip


@dataclass
class DirectBuild:
    """The direct way for one request; `run` is called once, before the loop."""

    backend: Backend
    dispatcher: Dispatcher
    tests: TestEvidence | None
    config: BuildConfig
    options: GenerationOptions
    description: str

    def run(self, emit: Emit, *, deadline: Deadline = NO_DEADLINE, outcome: BuildOutcome | None = None) -> BuildOutcome:
        outcome = outcome if outcome is not None else BuildOutcome()
        ctx = self.dispatcher.ctx
        listing = FileListing(ctx, ctx.root)
        try:
            listed = listing.paths()
        finally:
            listing.close()
        place = find_place(self.description, ctx.root, listed)
        original = _readable(ctx.root / place.path) if place is not None else None
        if place is None or original is None:
            outcome.handover = "the request names no function to write" if place is None else (
                f"{place.path} is not UTF-8 text")  # fmt: skip
            emit("notice", message=f"build: {outcome.handover}, so the model works with the tools")
            return outcome
        outcome.ran = True
        outcome.place = {"path": place.path, "function": place.label, "why": place.why}
        examples = checkable(place, read_examples(self.description, place.name))
        outcome.examples = [example.text for example in examples]
        run = _Run(self, emit, place, original, examples, listed, deadline, outcome)
        emit("build.started", path=place.path, function=place.label, exists=place.exists, why=place.why,
             examples=outcome.examples)  # fmt: skip
        # One snapshot step around every answer checked and the file put back between them: the states in between
        # are never undo steps, and the kept answer is pedro's change, to commit.
        snapshots = self.dispatcher.snapshots
        snapshots.open_step(emit, "build", [self.dispatcher.effects(_write_call(place.path, original))])
        try:
            run.go()
        finally:
            snapshots.close_step(emit)
        return outcome


@dataclass
class _Run:
    """One direct build's state: the answers asked for and checked, and the one kept."""

    stage: DirectBuild
    emit: Emit
    place: Place
    original: str
    examples: list[Example]
    listed: list[str]
    deadline: Deadline
    outcome: BuildOutcome
    tried: list[Tried] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=dict)
    written: dict[int, int] = field(default_factory=dict)
    """How many times the model wrote each answer checked (by its number): a repeat is the model's vote for it."""
    calls: list[Call] = field(default_factory=list)
    """The request's examples as calls, with the values they must give."""
    probes: list[Call] = field(default_factory=list)
    feature: frozenset[str] = frozenset()
    """Tests that failed before the build and name the function."""
    probed_beyond: bool = False
    """Whether some probe is not one of the request's examples (a method's are the examples alone)."""
    linters: list[tuple[Linter, str]] = field(default_factory=list)
    lint_before: list[LintMessage] | None = None
    openings: tuple[str, str] = ("", "")
    """An answer's first words with the signature the request writes, and with the function's name alone."""

    def go(self) -> None:
        stage = self.stage
        budget = Deadline.after(stage.config.time_budget_s, time.monotonic())
        self._prepare()
        # Secret values (the environment's, the secret files') never reach the model, in a prompt as in a result.
        prompt = stage.dispatcher.redactor.redact(question(self.place, self.original, stage.description))
        first_pass: int | None = None
        for number in range(stage.config.answers):
            if budget.passed or self.deadline.passed or (first_pass is not None and self._enough(number - first_pass)):
                break
            reply = self._reply(prompt, number, passed=first_pass is not None)
            if reply is None:
                break
            self.outcome.answers += 1
            tried = self._check(number + 1, reply, self.calls, self.probes, self.feature)
            if tried is None:
                continue
            self.tried.append(tried)
            if tried.passed and first_pass is None:
                first_pass = number
        if self._unsettled():
            self._try_slips(budget)
        self._settle(self.calls, self.feature)

    def _unsettled(self) -> bool:
        """Whether the model's answers leave the build open: none passed, or one example alone checks them and no
        passing answer is confirmed."""
        passing = [t for t in self.tried if t.passed]
        return not passing or (self._lone_example() and not any(self._confirmed(t, passing) for t in passing))

    def _try_slips(self, budget: Deadline) -> None:
        """The likeliest one-token variants of each answer that missed an example (slips.py), checked as answers
        until one is confirmed or the time is spent. After the model's answers, so that one it writes is its own."""
        for missed in [t for t in self.tried if near_miss(t, self.calls)]:
            for text, change in slip_answers(missed, self.place.language):
                if budget.passed or self.deadline.passed or not self._unsettled():
                    return
                tried = self._check(missed.n, text, self.calls, self.probes, self.feature, change=change)
                if tried is not None:
                    self.tried.append(tried)

    def _prepare(self) -> None:
        """What checks the answers: the examples' calls, the probes, the tests written for the feature, the linters
        (and what they say before)."""
        stage, place = self.stage, self.place
        ctx = stage.dispatcher.ctx
        self.calls = example_calls(place, self.examples)
        self.probes = [Call(code) for code in probe_calls(place, self.examples, stage.description, ctx.root,
                                                           self.listed)]  # fmt: skip
        self.probed_beyond = any(probe.code not in {call.code for call in self.calls} for probe in self.probes)
        self.feature = self._feature_tests()
        self.openings = (answer_opening(place, self.original, stage.description), answer_opening(place, self.original))
        self.linters = configured_linters(ctx.root, ctx.env)[0]
        if self.linters:
            self.lint_before = self._lint()

    def _reply(self, prompt: str, number: int, *, passed: bool) -> str | None:
        """Answer `number`; None when the server failed after an answer passed (the asking ends, not the build)."""
        # Every other answer is opened with the signature the request writes, the rest with the name alone: each way
        # gets right what the other gets wrong often enough that the mix finds more. Not for an argument a changed
        # function gains: opened with its old signature, an answer cannot take it (`def shout(text):` for `times=3`).
        written, named = self.openings
        gains = self.place.exists and written != named
        opening = written if number % 2 == 0 or gains else named
        place = self.place
        try:
            return self._ask(prompt, opening, number, stops=answer_stops(place))
        except BackendError as exc:
            if not passed:
                raise
            self.emit("notice", message=f"build asks the model no more: {exc}")
            return None

    def _enough(self, since_first_pass: int) -> bool:
        """Whether the answers so far settle it: more than `rivals` passed, or twice as many were asked since the
        first did, or enough of them agree on every probe (_agreed). Where one example and nothing else checks what
        the code does, not before one passing answer is confirmed (_confirmed), unless _CONFIRM_TRIES more were
        asked in vain."""
        config, passing = self.stage.config, [t for t in self.tried if t.passed]
        if self._lone_example() and not any(self._confirmed(t, passing) for t in passing):
            return since_first_pass > _CONFIRM_TRIES
        # With nothing that checks what the code does, agreement among more answers is the only evidence.
        rivals = config.rivals if self.calls or self.feature else 2 * config.rivals
        return len(passing) > rivals or since_first_pass > 2 * rivals or _agreed(passing, rivals, len(self.calls))

    def _lone_example(self) -> bool:
        """Whether one example of the request is all that checks what the code does."""
        given = self.stage.tests is not None and self.stage.tests.given
        return len(self.calls) == 1 and not self.feature and not given

    def _confirmed(self, one: Tried, passing: list[Tried]) -> bool:
        """Whether more than the checks speak for a passing answer: the model wrote it twice, or another passing
        answer gives its output on every probe, some beyond the examples (which every passing answer holds)."""
        if not one.change and self.written.get(one.n, 1) > 1:
            return True  # a variant of an answer the model wrote twice is not what it wrote
        # pedro's variant of an answer holds the example because it was picked for it, as a lone sample that holds it
        # was: it agrees with a wrong answer of the same idea as readily (`len(s.split()) + 1`, a variant of
        # `len(s.split()) - 1`, for count_vowels('Hello World') → 3). Only the model's own answers confirm.
        return (
            self.probed_beyond
            and not one.change
            and any(t.n != one.n and t.outputs == one.outputs and not t.change for t in passing)
        )

    # -- asking --------------------------------------------------------------------------------------------------

    def _ask(
        self, prompt: str, opening: str, number: int, purpose: str = "build", stops: tuple[str, ...] = ("\n```",)
    ) -> str:
        """The model's answer `number` (0 greedy, then sampled a little hotter each time), opening included."""
        stage = self.stage
        config = stage.config
        temperature = sample_temperature(number, config.temperature, _MAX_TEMPERATURE)
        continues = stage.backend.continues_answers
        messages = [Message("user", prompt)]
        # The answer ends with its code block: a stop at the closing fence saves the prose small models add.
        options = replace(stage.options, tool_mode="text", temperature=temperature, seed=number or None,
                          max_tokens=config.max_tokens, stop=stops if continues else ())  # fmt: skip
        if continues:
            messages.append(Message("assistant", opening))

        def record(kind: str, *, persist: bool = True, **data: Any) -> None:
            if kind != "model.delta":  # answers are checked, not read as they are written
                self.emit(kind, persist=persist, **data)

        completion = complete(stage.backend, messages, [], options, record, purpose=purpose, temperature=temperature,
                              answer=number + 1)  # fmt: skip
        self.outcome.usage += completion.usage
        text = completion.text
        if not continues:
            return text
        return joined_answer(opening, text.removeprefix(opening))

    # -- checking ------------------------------------------------------------------------------------------------

    def _check(
        self, n: int, reply: str, calls: list[Call], probes: list[Call], feature: frozenset[str], change: str = ""
    ) -> Tried | None:
        """The answer's checks, cheapest first, each run only when the ones before it passed; None for an answer
        the same as one already checked. `change`: what pedro changed in answer `n` to make this one."""
        merged = merge(reply, self.place, self.original)
        if isinstance(merged, str):
            return self._report(Tried(n, None, 0, merged, change=change))
        key = same_code_key(merged.code, self.place.language)
        if key in self.seen:
            first = self.seen[key]
            if not change:  # the model wrote it again: its vote; pedro's variant of another answer is none
                self.written[first] = self.written.get(first, 1) + 1
            self.emit("build.answer", n=n, status="same", same_as=first, change=change)
            return None
        self.seen[key] = n
        if not self._write(merged.text):
            return self._report(Tried(n, merged, 0, f"{self.place.path} could not be written", change=change))
        try:
            return self._report(replace(self._checked(n, merged, calls, probes, feature), change=change))
        finally:
            self._write(self.original)

    def _checked(self, n: int, merged: Merged, calls: list[Call], probes: list[Call], feature: frozenset[str]) -> Tried:
        stage, place = self.stage, self.place
        ctx = stage.dispatcher.ctx
        made: CallRun = run_calls(place.language, place.path, ctx.root, ctx.env, [*calls, *probes], _CALLS_TIMEOUT_S)
        if made.problem:
            return Tried(n, merged, 1, made.problem)
        results = made.results
        outputs = tuple(result.output for result in results[len(calls) :])
        condemned = judge_calls(calls, results) or fitted_to_example(
            merged.code, place.language, self.examples, stage.description
        )
        if condemned:
            return Tried(n, merged, 2, condemned, outputs)
        new_lint = self._new_lint()
        if new_lint:
            first = new_lint[0]
            return Tried(n, merged, 3, f"{first.source} at line {first.line}: {first.message}", outputs)
        tests = stage.tests
        if tests is None:
            return Tried(n, merged, len(CHECKS), outputs=outputs)
        run = tests.run()
        self.emit("tests.run", **describe_test_run(run, f"answer {n}", tests.command))
        judgement = tests.judge(run)
        if tests.given and not run.passed:
            return Tried(n, merged, 4, f"{tests.tests.named}, given with --test, does not pass", outputs, run)
        if not judgement.holds:
            return Tried(n, merged, 4, test_failure(judgement.verdict, run), outputs, run)
        # A test file that could not be collected before the build is named by its tests now.
        still = sorted(test for test in run.failing if test in feature or any(inside(test, f) for f in feature))
        if still:
            return Tried(n, merged, 4, f"the test written for it still fails: {still[0]}", outputs, run)
        return Tried(n, merged, len(CHECKS), outputs=outputs, run=run)

    def _lint(self) -> list[LintMessage]:
        """What the project's own linters say about the file as it is now."""
        ctx = self.stage.dispatcher.ctx
        return [message for linter, program in self.linters
                for message in run_linter(linter, program, ctx.root, [self.place.path], ctx.env,
                                          _LINT_TIMEOUT_S).messages]  # fmt: skip

    def _new_lint(self) -> list[LintMessage]:
        """Messages of the project's own linters on the file that it did not have before the build."""
        if not self.linters or self.lint_before is None:
            return []
        before = [(m.code, m.message) for m in self.lint_before]
        new: list[LintMessage] = []
        for message in self._lint():
            if (message.code, message.message) in before:
                before.remove((message.code, message.message))
            else:
                new.append(message)
        return new

    def _write(self, text: str, path: str = "") -> bool:
        """The file's content (the place's, or `path`'s) through the dispatcher (gate, journal, snapshot), quietly:
        the kept answer is reported when it is settled."""
        result = self.stage.dispatcher.run(_write_call(path or self.place.path, text))
        self.outcome.tool_calls += 1
        return result.ok

    def _report(self, tried: Tried) -> Tried:
        status = "passed" if tried.passed else "failed"
        self.emit("build.answer", n=tried.n, status=status, check=CHECKS[min(tried.reached, len(CHECKS) - 1)],
                  reason=tried.failure, lines=len(tried.merged.code.splitlines()) if tried.merged else 0,
                  change=tried.change)  # fmt: skip
        return tried

    def _feature_tests(self) -> frozenset[str]:
        """Tests failing before the build that name the function: written for the feature, so they must pass."""
        tests = self.stage.tests
        start = tests.baseline_run if tests is not None else None
        if start is None or start.report is None:
            return frozenset()
        name = self.place.name
        return frozenset(failure.test_id for failure in start.report.failures
                         if name in failure.test_id or name in failure.message or name in failure.details)  # fmt: skip

    # -- settling ------------------------------------------------------------------------------------------------

    def _settle(self, calls: list[Call], feature: frozenset[str]) -> None:
        place, outcome = self.place, self.outcome
        passing = [t for t in self.tried if t.passed and t.merged is not None]
        if not passing:
            outcome.summary = self._failed()
            self.emit("build.finished", kept=False, summary=outcome.summary, examples=outcome.examples)
            return
        kept = passing[choose(passing, [1 if t.change else self.written.get(t.n, 1) for t in passing])]
        if len(passing) > 1:
            self.emit("build.chosen", n=kept.n, answers=[t.n for t in passing], probes=len(kept.outputs))
        assert kept.merged is not None
        result = self.stage.dispatcher.run_reported(_write_call(place.path, kept.merged.text), self.emit)
        outcome.tool_calls += 1
        if not result.ok:
            outcome.summary = f"the kept answer could not be written to {place.path}: {result.output}"
            self.emit("build.finished", kept=False, summary=outcome.summary, examples=outcome.examples)
            return
        outcome.kept, outcome.last_run = True, kept.run
        self._report_kept(kept, calls, feature)

    def _report_kept(self, kept: Tried, calls: list[Call], feature: frozenset[str]) -> None:
        """Once the kept answer is written: whether anything verified it, the test `--with-test` adds, the summary."""
        place, outcome = self.place, self.outcome
        # The tests of a function that was there check what it did before, not what the request changes.
        named = [] if place.exists else tests_naming(place.name, self.stage.dispatcher.ctx.root, self.listed)
        written = self._with_test(kept) if self.stage.config.with_test else ""
        given = self.stage.tests is not None and self.stage.tests.given
        added = written.startswith("added")
        passing = [t for t in self.tried if t.passed]
        # One example held by one answer the model wrote once, that no other answer agrees with, is a sample that
        # happened to hold it: kept, and said to be unconfirmed rather than verified.
        examples_check = len(calls) > 1 or (bool(calls) and self._confirmed(kept, passing))
        outcome.verified = examples_check or bool(feature) or given or added or bool(named and kept.run is not None)
        outcome.summary = self._verified_summary(kept, calls, feature, bool(named) or added)
        if written:
            outcome.summary += f"; {written}"
        self.emit("build.finished", kept=True, n=kept.n, verified=outcome.verified, summary=outcome.summary,
                  examples=outcome.examples)  # fmt: skip

    def _with_test(self, kept: Tried) -> str:
        """`--with-test`: a test of the kept code, asked for and kept only when it passes with the change and fails
        without it; what became of it, for the summary."""
        stage, place = self.stage, self.place
        tests, ctx = stage.tests, stage.dispatcher.ctx
        if tests is None or kept.merged is None:
            return "no test was written, as no test command is known"
        path = test_path(place, self.listed)
        opening = test_opening(place, ctx.root, self.listed, kept.merged.text)
        fence = FENCE_NAMES[place.language]
        prompt = stage.dispatcher.redactor.redact(
            render_prompt(
                "build/test.md",
                what=f"This is the new {place.label} in {place.path}",
                fence=fence,
                code=kept.merged.code,
                request=stage.description.strip(),
                name=place.name,
            )  # fmt: skip
        )
        why = "the model wrote none that parses"
        for number in range(_TEST_ANSWERS):
            if self.deadline.passed:
                break
            text = test_code(self._ask(prompt, opening, number, purpose="build-test"), place)
            if text is None:
                continue
            why = self._try_test(number + 1, path, text, kept.merged.text)
            if not why:
                self.stage.dispatcher.run_reported(_write_call(path, text), self.emit)
                self.outcome.tool_calls += 1
                return f"added a test of it, {path}, which passes with the change and fails without it"
        self.stage.dispatcher.run(ToolCall("file", {"action": "delete", "path": path}, id=None))
        return f"no test of it was kept: {why}"

    def _try_test(self, n: int, path: str, text: str, built: str) -> str:
        """Why the test cannot be kept, or "" when it passes with the change and fails without it."""
        tests = self.stage.tests
        assert tests is not None
        self._write(text, path)
        run = tests.run()
        self.emit("tests.run", **describe_test_run(run, f"test {n}", tests.command))
        judgement = tests.judge(run)
        added = frozenset(judgement.verdict.named("added_passing")) if judgement.verdict is not None else frozenset()
        why = ""
        if not judgement.holds:
            why = f"test {n} fails with the change: {test_failure(judgement.verdict, run)}"
        elif not added:
            why = f"test {n} ran no test of its own"
        else:
            self._write(self.original)
            try:
                old = tests.run()
            finally:
                self._write(built)
            if added <= passing_ids(old):
                why = f"test {n} passes on the code as it was before the build, so it checks nothing; it is dropped"
        self.emit("build.test", n=n, path=path, status="kept" if not why else "dropped", reason=why)
        return why

    def _verified_summary(self, kept: Tried, calls: list[Call], feature: frozenset[str], named: bool) -> str:
        place = self.place
        verb = "changed" if place.exists else "added"
        checked = self._checks(kept, calls, feature)
        answer = f"answer {kept.n} of {self.outcome.answers}" + (f", with {kept.change}" if kept.change else "")
        head = f"{verb} {place.label} in {place.path} ({answer}); checked: {', '.join(checked)}"
        if not self.outcome.verified and calls:
            return f"{head}. Unconfirmed: {self._unconfirmed(kept)}"
        if not self.outcome.verified:
            tests = (f"the tests of {place.name}() check what it did before" if place.exists
                     else f"no test that names {place.name} ran" if named
                     else f"no test names {place.name}")  # fmt: skip
            return (f"{head}. Unverified: {tests} and the request gives no example, so nothing checked what it "
                    f"does; add a test or an example (`{place.name}(…) returns …`)")  # fmt: skip
        if not named and not feature and not place.exists:
            head += f"; no test covers {place.name} yet"
        return head

    def _unconfirmed(self, kept: Tried) -> str:
        """Why one example holding is not enough here, what the kept code gives on other inputs (for the person to
        judge at a glance), and what would check it."""
        place = self.place
        said = self._why_unconfirmed(kept)
        examples = {call.code for call in self.calls}
        beyond = [f"{call.code} → {output.removeprefix('= ')}" for call, output in zip(self.probes, kept.outputs,
                  strict=False) if call.code not in examples]  # fmt: skip
        # Spread over the probes, which vary one argument after another: each argument's part is seen.
        if len(beyond) > _SHOWN_PROBES:
            beyond = [beyond[round(i * (len(beyond) - 1) / (_SHOWN_PROBES - 1))] for i in range(_SHOWN_PROBES)]
        gives = f"; on other inputs it gives {', '.join(beyond)}" if beyond else ""
        return (
            f"one example is all that checked it, and {said}{gives}; add a test or a second example "
            f"(`{place.name}(…) returns …`)"
        )

    def _why_unconfirmed(self, kept: Tried) -> str:
        """What the other passing answers say, or do not say, about the kept one."""
        passing = [t for t in self.tried if t.passed]
        agreeing = [t for t in passing if t is not kept and t.outputs == kept.outputs]
        if len(passing) == 1:
            return f"answer {kept.n} was the only one of {self.outcome.answers} to pass every check"
        if self.probed_beyond and kept.change:
            verb = "gives" if len(agreeing) == 1 else "give"
            also = f", and {count(len(agreeing), 'other answer')} {verb} its outputs on every probe" if agreeing else ""
            return f"the kept code is pedro's variant of answer {kept.n}, made to hold the example{also}"
        if self.probed_beyond and agreeing:  # unconfirmed, so each is pedro's variant
            return (f"the only other answers that give answer {kept.n}'s outputs on every probe are pedro's variants "
                    "of answers that missed the example, made to hold it")  # fmt: skip
        if self.probed_beyond:
            return f"of the {len(passing)} answers that passed every check, none gives answer {kept.n}'s outputs"
        return f"the {len(passing)} answers that passed every check differ, and only the example compares them"

    def _checks(self, kept: Tried, calls: list[Call], feature: frozenset[str]) -> list[str]:
        """What the kept answer passed, in the words of the summary."""
        checked = ["parses"]
        if self.place.language in ("python", "javascript"):
            checked.append("imports")
        if self.lint_before is not None:
            checked.append("lints no worse")
        run = kept.run
        if run is not None and run.report is not None:
            passing = len(run.report.passing)
            checked.append(f"{count(passing, 'test')} pass")
        if feature:
            checked.append(
                f"{count(len(feature), 'test')} written for it now {'pass' if len(feature) > 1 else 'passes'}"
            )
        if calls:
            checked.append(f"{count(len(calls), 'example')} from the request {'hold' if len(calls) > 1 else 'holds'}")
        if self.stage.tests is not None and self.stage.tests.given:
            checked.append(f"{self.stage.tests.tests.named} passes")
        return checked

    def _failed(self) -> str:
        place = self.place
        asked = count(self.outcome.answers, "answer")
        if not self.tried:
            return f"none of the model's {asked} for {place.label} could be checked; {place.path} is as it was"
        best = max(self.tried, key=lambda t: (t.reached, -t.n))
        return (f"no answer for {place.label} in {place.path} passed its checks ({asked}); the best, answer {best.n}, "
                f"failed because {best.failure}; {place.path} is as it was")  # fmt: skip


def same_code_key(code: str, language: LanguageName) -> str:
    """What two answers share when they are the same code written apart (indented with tabs or spaces, blank lines
    between): Python's syntax tree where it parses, else the lines without their indentation (braces decide)."""
    if language == "python":
        with contextlib.suppress(SyntaxError, ValueError, RecursionError, MemoryError):
            return ast.dump(ast.parse(code))
        return "\n".join(line.rstrip() for line in code.splitlines() if line.strip())
    return "\n".join(line.strip() for line in code.splitlines() if line.strip())


def joined_answer(opening: str, rest: str) -> str:
    """The opening and what the model wrote after it, as one answer.

    The opening ends with the body's indentation, and the model's first word comes with its own space (` count`):
    that space is dropped, unless the model's later lines are at that depth too, where dropping it would leave the
    first line alone out of step (`    vowels = ...` above `     return ...`)."""
    if not (opening.endswith(" ") and rest.startswith(" ")):
        return opening + rest
    deeper = len(opening) - len(opening.rstrip(" ")) + 1
    later = [len(line) - len(line.lstrip(" ")) for line in rest.splitlines()[1:] if line.strip()]
    return opening + (rest if later and min(later) == deeper else rest[1:])


def _readable(path: Path) -> str | None:
    """The file's text, or None when it is not UTF-8 (the direct way writes back what it read, byte for byte)."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _write_call(path: str, content: str) -> ToolCall:
    return ToolCall("file", {"action": "write", "path": path, "content": content}, id=None)


def _agreed(passing: list[Tried], rivals: int, examples: int) -> bool:
    """Whether enough passing answers (`rivals` less _AGREED_LEFT, two at least) give one output on every probe
    beyond the request's own examples: more answers would only agree again."""
    return len(passing) >= max(2, rivals - _AGREED_LEFT + 1) and unanimous([t.outputs for t in passing], None, examples)

"""The model's part of a repair, asked at its start and answered while the tests run: for each located unit, the
whole function (shown with its whole file when the file is small, and the failing assertion), then its most
suspicious lines; greedy first, then samples, until the repair stops it. A thread of its own asks; the repair takes
each answer as soon as it arrives, between variants, so the server generates on the core the tests leave free."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from pedro.backends.base import Backend, GenerationOptions
from pedro.config import RepairConfig
from pedro.messages import Message, TokenChoice, Usage
from pedro.modelcall import complete
from pedro.prompts import load_prompt, render_prompt
from pedro.repair.followed_values import literal_line
from pedro.repair.judge import describe_failure, first_line
from pedro.repair.line_forks import LIKELIEST, MOST_FORKS, LineForks
from pedro.repair.locate import FailingTests, Unit
from pedro.repair.opening import (
    answer_opening,
    answer_stops,
    line_in_place,
    line_rest,
    the_line_written,
    with_opening,
)
from pedro.repair.shown_code import Brief, brief, code_of_test
from pedro.repair.spectrum import Suspect
from pedro.repair.statements import joined_statement
from pedro.tools.testreport import FailedTest

QuestionKind = Literal["function", "line"]
FENCE_NAMES = {"python": "python", "go": "go", "javascript": "javascript", "typescript": "typescript", "tsx": "tsx"}
_EXAMPLE_LANGUAGE = {"python": "python", "go": "go", "javascript": "javascript", "typescript": "javascript",
                     "tsx": "javascript"}  # fmt: skip
"""Which language's worked example precedes a question about a unit: TypeScript's reads as JavaScript."""
WHOLE_FILE_LINES = 150
"""A unit's file up to this many lines is shown whole: the simplest use of a small model, and often its best."""
_MAX_FAILURES_SHOWN = 2
_MAX_TEST_LINES = 30
_TELLING_LINE_CHARS = 6
"""Shorter lines (`}`, `])`, `else:`) are in any traceback; longer ones say which code it shows."""
_ANSWER_SLACK_TOKENS = 96
_MAX_TEMPERATURE = 1.5
_TEMPERATURE_STEPS = 6
_STOP_WAIT_S = 2.0
# At the end of a repair the thread is waited for only this long: one blocked on a server still reading a long prompt
# would hold a finished job for seconds (1-2.5 s in an eval's jobs) for an answer nobody takes.
_FINISH_WAIT_S = 0.2
_AHEAD_POLL_S = 0.02
# A question whose last answers all repeated earlier ones is asked no more: a small model's line question often gives
# the same line at every temperature, and its turns go to the questions that still give something new.
_REPEATS_RETIRE = 4

Emit = Callable[..., None]


@dataclass(frozen=True)
class Question:
    """One question about a unit: its whole function, or one of its lines (a file line)."""

    unit: Unit
    kind: QuestionKind = "function"
    line: int = 0


@dataclass(frozen=True)
class Answer:
    """A reply to a question: the number-th answer to it (0 is greedy), its text (opening included), and its place
    among all the repair's answers (`answer` in its `model.completed` event and in its candidate's)."""

    question: Question
    number: int
    text: str
    index: int = 0
    forked: bool = False
    """A fork of the line (line_forks): the model's likeliest other token somewhere in it, not a whole answer."""


def questions_for(ranked: Sequence[Suspect], values: Callable[[Unit], Sequence[Unit]] | None = None) -> list[Question]:
    """For each unit in rank order: the whole function, then its suspicious lines from the most suspicious down, then
    the line of each value it reads that writes a literal (`values`, followed_values.py), once each.

    The function comes first because that is the question small models answer best when it is asked greedily: on
    the task suite, SmolLM2-135M's greedy answers to line questions were mostly prose or another language."""
    questions: list[Question] = []
    seen: set[tuple[str, str, int]] = set()
    for suspect in ranked:
        unit = suspect.unit
        questions.append(Question(unit))
        questions.extend(
            Question(unit, "line", line) for line in suspect.lines if unit.start_line <= line <= unit.end_line
        )
        for value in values(unit) if values is not None else ():
            if value.key not in seen:
                seen.add(value.key)
                questions.append(Question(value, "line", literal_line(value)))
    return questions


def sample_temperature(number: int, base: float, ceiling: float) -> float:
    """Answer `number`'s temperature: 0 (greedy) first, then `base`, 0.1 hotter each time (at most `ceiling`), and
    from `base` again after `_TEMPERATURE_STEPS` samples: hotter still, a small model writes noise."""
    return 0.0 if number == 0 else min(base + 0.1 * ((number - 1) % _TEMPERATURE_STEPS), ceiling)


class _Stopped(Exception):
    """The repair no longer wants the answer being written."""


@dataclass
class ModelAnswers:
    """Asks the questions in turn, in a thread: each gets its greedy answer before any gets a sample."""

    backend: Backend
    options: GenerationOptions
    config: RepairConfig
    root: Path
    failures: Sequence[FailedTest]
    tests: FailingTests
    """The failures' test functions, looked up once for every prompt."""
    redact: Callable[[str], str] = str
    """Secret values out of every prompt (the dispatcher's redactor), as out of every tool result."""
    usage: Usage = field(default_factory=Usage)
    asked: int = 0
    distinct: int = 0
    """Answers that differed from every earlier answer to their question: what the limit counts."""
    error: str = ""
    """Why the model stopped answering (the server failed), or ""."""
    _answers: queue.Queue[Answer] = field(default_factory=queue.Queue)
    _events: queue.Queue[tuple[str, dict[str, Any]]] = field(default_factory=queue.Queue)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _done: set[tuple[str, str, str, int, int]] = field(default_factory=set)
    """The answers asked for (the unit's path and text, the question, the answer's number): never asked again."""
    _turns: _Turns = field(default_factory=lambda: _Turns())
    """What each question gave so far, kept across restarts: a question asked before goes on where it was."""
    _units: frozenset[tuple[str, str]] = frozenset()
    """The functions (path, name) the questions asked now are about."""
    _asking: tuple[Question, ...] = ()
    """The questions asked now."""
    _next: tuple[Question, ...] | None = None
    """Questions about the same functions to ask once the answer being written is done (taken up by `take`)."""
    _forks: dict[tuple[str, str, str, int], LineForks] = field(default_factory=dict)
    """Each line question's forks, from its greedy answer's likeliest tokens, kept across restarts like `_turns`."""
    _shown: dict[tuple[str, str], Brief] = field(default_factory=dict)
    """Each function (path, text) as its questions show it, read once: its file is being edited meanwhile."""

    def start(self, questions: Sequence[Question]) -> None:
        """Begin asking; prompts are built here, on the repair's own thread."""
        prompts = [(question, self._prompt(question)) for question in questions]
        self._units = frozenset((question.unit.path, question.unit.qualified_name) for question in questions)
        self._asking, self._next = tuple(questions), None
        # candidates × units new answers in all, and every question at least its greedy one.
        limit = self.distinct + max(self.config.candidates * len({q.unit.key for q in questions}), len(questions))
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._ask_all, args=(prompts, limit, self._stop), name="pedro-repair-model"
        )
        self._thread.daemon = True  # a server that never answers must not keep pedro from exiting
        self._thread.start()

    def restart(self, questions: Sequence[Question], emit: Emit) -> None:
        """Ask these questions from now on (the code changed under some of the old ones): an answer a question
        already has is not asked for again, and answers not yet taken stay (the repair drops those whose code is
        gone)."""
        self.stop(emit)
        if not self.error:
            self.start(questions)

    def ask_about(self, questions: Sequence[Question], emit: Emit) -> None:
        """Ask these questions from now on, unless they are about the same functions as the questions asked now and the
        model is still answering: a restart abandons the answer being written, and a small model takes 10-20 s to
        write one, longer than the search takes to keep a change to a function and take it back. An answer about a
        function as it was still replaces the function as it is (Search._answered_unit)."""
        units = {(question.unit.path, question.unit.qualified_name) for question in questions}
        if self.busy and units == self._units:
            # Other questions about the same functions (lines coverage found suspicious since): asked once the
            # answer being written is done, not in place of it.
            if tuple(questions) != self._asking:
                self._next = tuple(questions)
            return
        self.restart(questions, emit)

    @property
    def busy(self) -> bool:
        """Whether more answers may come."""
        return self._next is not None or (self._thread is not None and self._thread.is_alive())

    def take(self, wait_s: float = 0.0) -> Answer | None:
        """The next answer, waiting up to `wait_s` for one; questions waiting for the answer being written to be
        done are asked from here, on the repair's own thread, once it is."""
        if self._next is not None and not (self._thread is not None and self._thread.is_alive()):
            self.start(self._next)
        try:
            return self._answers.get(timeout=wait_s) if wait_s > 0 else self._answers.get_nowait()
        except queue.Empty:
            return None

    def forward(self, emit: Emit) -> None:
        """The events the thread recorded (model.completed, notices), emitted on the repair's own thread."""
        while True:
            try:
                kind, data = self._events.get_nowait()
            except queue.Empty:
                return
            emit(kind, **data)

    def halt(self) -> None:
        """Ask no more, without waiting: the answer being written is abandoned at its next token while the caller
        goes on (to the final check, which would otherwise share the cores with it)."""
        self._stop.set()
        self._next = None

    def stop(self, emit: Emit, *, wait_s: float = _STOP_WAIT_S) -> None:
        """Ask no more; an answer being written is abandoned at its next token, waited for up to `wait_s` (a restart
        waits, so that the old questions' last request does not run beside the new ones')."""
        self._stop.set()
        self._next = None
        if self._thread is not None:
            self._thread.join(timeout=wait_s)
        self.forward(emit)

    def finish(self, emit: Emit) -> None:
        """The repair is over: ask no more, and leave an answer still being written to be abandoned on its own
        thread at its next token (the thread records nothing once stopped)."""
        self.stop(emit, wait_s=_FINISH_WAIT_S)

    def _ask_all(self, prompts: list[tuple[Question, list[Message]]], limit: int, stop: threading.Event) -> None:
        """Each question in turn: greedy first, then each line's forks (line_forks: a few tokens each), then samples;
        `candidates` new answers to a question at most, until `limit` new answers, a stop, or every question only
        repeats itself. An answer that repeats one its question gave is not handed on."""
        turns, most = self._turns, self.config.candidates
        asked = [_asked(question) for question, _ in prompts]
        numbers = [0] * len(prompts)
        round_ = 0
        while not all(turns.retired(one, most) for one in asked):
            for at, (question, messages) in enumerate(prompts):
                for _ in range(self._turns_in(round_, question, prompts)):
                    if round_ == 1 and self._forks[asked[at]].done:
                        break
                    number, numbers[at] = numbers[at], numbers[at] + 1
                    if (*asked[at], number) in self._done or turns.retired(asked[at], most):
                        continue
                    if not self._ask_one(question, messages, number, limit, stop):
                        return
            round_ += 1

    def _turns_in(self, round_: int, question: Question, prompts: Sequence[tuple[Question, list[Message]]]) -> int:
        """How many answers the question is asked for in a round: its greedy one in the first; in the second, a line's
        forks, as many as it has (none for a function's question: a sample of it takes as long as a line's forks
        together); after that as _turns_of says."""
        if round_ == 0:
            return 1
        if round_ == 1:
            return 2 * MOST_FORKS + 1 if _asked(question) in self._forks else 0
        return _turns_of(question, prompts)

    def _ask_one(
        self, question: Question, messages: list[Message], number: int, limit: int, stop: threading.Event
    ) -> bool:
        """Answer `number` to the question, handed on when it is new; False once the asking is over (stopped, the
        limit reached, the server failed)."""
        if not self._wait_turn(stop) or self.distinct >= limit or self._next is not None:
            return False
        written = self._answer(question, messages, number, stop)
        if written is None:
            return False
        text, forked = written
        asked = _asked(question)
        self._done.add((*asked, number))
        # A fork that comes back to an earlier line says nothing of the forks after it: it does not retire the line.
        if self._turns.new(asked, text, counts=not forked):
            self.distinct += 1
            self._answers.put(Answer(question, number, text, self.asked, forked))
        return True

    def _wait_turn(self, stop: threading.Event) -> bool:
        """One answer ahead at most: it is written while the last one's tests run, and none is written that the
        repair may never look at (the core is the tests' too). False once stopped."""
        while not self._answers.empty() and not stop.is_set():
            stop.wait(_AHEAD_POLL_S)
        return not stop.is_set()

    def _answer(
        self, question: Question, messages: list[Message], number: int, stop: threading.Event
    ) -> tuple[str, bool] | None:
        """One answer and whether it is a fork, or None where the repair stopped it or the server failed (which is
        said once)."""
        try:
            fork = self._forked(question, messages, number)
            written = (fork, True) if fork is not None else (self._ask(question, messages, number), False)
        except _Stopped:
            return None
        except Exception as exc:  # noqa: BLE001 (the server, or a test double, failed: the repair goes on)
            self.error = str(exc) or type(exc).__name__
            self._events.put(("notice", {"message": f"repair asks the model no more: {self.error}"}))
            return None
        if stop.is_set():
            return None
        self.asked += 1
        return written

    def _forked(self, question: Question, messages: list[Message], number: int) -> str | None:
        """The line question's next fork as its answer, once its greedy answer was given; None when it has none left."""
        forks = self._forks.get(_asked(question))
        if forks is None or number == 0 or forks.done:
            return None
        opening = self._opening(question)

        def write(written: str) -> tuple[str, Sequence[TokenChoice]]:
            return self._write_on(question, messages, opening + written)

        line = forks.next_line(write)
        if line is None:
            return None
        return the_line_written(opening + line, opening, FENCE_NAMES[question.unit.language])

    def _write_on(self, question: Question, messages: list[Message], opening: str) -> tuple[str, Sequence[TokenChoice]]:
        """What the model writes greedily on from `opening` to the line's end, and its tokens with the likeliest."""
        options = replace(self.options, tool_mode="text", temperature=0.0, seed=None, stop=("\n",),
                          max_tokens=self._room(question, opening), likeliest=LIKELIEST)  # fmt: skip
        completion = complete(
            self.backend, [*messages, Message("assistant", opening)], [], options, self._record,
            purpose="repair", temperature=0.0, answer=self.asked + 1, fork=True,
        )  # fmt: skip
        self.usage += completion.usage
        return with_opening(completion.text, opening)[len(opening) :].split("\n", 1)[0], completion.tokens

    def _ask(self, question: Question, messages: list[Message], number: int) -> str:
        unit = question.unit
        # Greedy first; then sampled, a little hotter each time, since a small model's samples often repeat.
        temperature = sample_temperature(number, self.config.temperature, _MAX_TEMPERATURE)
        opening = self._opening(question)
        # Where the server continues the opened answer, it also stops at the answer's end (answer_stops); a line
        # written in place comes with its tokens' likeliest others, the line's forks.
        in_place = question.kind == "line" and number == 0 and self.backend.continues_answers
        stops = answer_stops(unit.language, line=question.kind == "line") if self.backend.continues_answers else ()
        options = replace(self.options, tool_mode="text", temperature=temperature, seed=number or None,
                          max_tokens=self._room(question, opening), stop=stops,
                          likeliest=LIKELIEST if in_place else 0)  # fmt: skip
        if self.backend.continues_answers:
            messages = [*messages, Message("assistant", opening)]
        completion = complete(
            self.backend, messages, [], options, self._record, purpose="repair", temperature=temperature,
            answer=self.asked + 1,
        )  # fmt: skip
        self.usage += completion.usage
        if not self.backend.continues_answers:
            return completion.text
        answer = with_opening(completion.text, opening)
        if question.kind != "line":
            return answer
        if in_place and completion.tokens:
            self._forks.setdefault(_asked(question), LineForks(line_rest(unit, question.line), completion.tokens))
        return the_line_written(answer, opening, FENCE_NAMES[unit.language])

    def _room(self, question: Question, opening: str) -> int:
        """How many tokens an answer may take. One function is the whole answer: room for its length and some slack,
        not for the rambling that otherwise takes most of a small model's sample time (a server that continues answers
        also stops at the answer's end; another one may still write a second block, which is read too). A line
        question's whole answer is one line. A token of code is 3-4 characters: half the characters left to write (the
        function's but what the opening wrote) is half as much again as their tokens."""
        unit = question.unit
        shown = self._brief(unit).text
        left = len(shown) - len(opening) if self.backend.continues_answers else len(shown)
        wanted = len(_line_text(question)) * 2 if question.kind == "line" else max(left, 0) // 2
        return min(self.config.max_tokens, wanted + _ANSWER_SLACK_TOKENS)

    def _record(self, kind: str, *, persist: bool = True, **data: Any) -> None:
        """complete()'s events, kept for the repair's thread; a stop abandons the answer at its next token."""
        if self._stop.is_set():
            raise _Stopped
        if kind != "model.delta":  # live text from a background thread would interleave with the candidates' lines
            self._events.put((kind, {**data, **({} if persist else {"persist": False})}))

    def _opening(self, question: Question) -> str:
        """The answer's first words, written from the function as the question shows it."""
        unit = question.unit
        fence = FENCE_NAMES[unit.language]
        shown = self._brief(unit)
        in_view = replace(unit, text=shown.text)
        if question.kind == "line":
            return line_in_place(in_view, fence, unit.start_line + shown.row(question.line - unit.start_line))
        return answer_opening(in_view, fence)

    def _brief(self, unit: Unit, whole: str | None = None) -> Brief:
        """The function as its questions show it: as written in a small file shown whole, else its docstring cut
        to its first paragraph where it is long. `whole` is the small file where the caller has read it already."""
        key = (unit.path, unit.text)
        if key not in self._shown:
            small = _small_file(self.root, unit) if whole is None else whole
            self._shown[key] = Brief(unit.text) if small else brief(unit.text)
        return self._shown[key]

    def _prompt(self, question: Question) -> list[Message]:
        """The question's prompt. Every question about a unit shows the same failure and code first and differs
        only at its end, so the server's prompt cache holds everything but the question between them."""
        unit = question.unit
        failing = [f for f in self.failures if f.test_id in unit.tests] or list(self.failures[:1])
        shown = _unlike(failing)[:_MAX_FAILURES_SHOWN]
        tests_shown: set[str] = set()  # a test's code is shown once, however many failures it has
        failure = "\n\n".join(self._with_test_source(f, unit.path, tests_shown) for f in shown)
        whole = _small_file(self.root, unit)
        # Read here, on the repair's thread: the answers' thread then only looks it up.
        as_shown = self._brief(unit, whole)
        # A server that continues the answer is asked for the function, and the line is written in place (its
        # opening): the same prompt as the function's question, which the server's cache then holds for both.
        in_place = self.backend.continues_answers
        template = "repair/line.md" if question.kind == "line" and not in_place else "repair/fix.md"
        prompt = render_prompt(
            template,
            failure=failure,
            name=unit.name,
            path=unit.path,
            fence=FENCE_NAMES[unit.language],
            code=whole or as_shown.text,
            kind=unit.kind,
            what=f"This is {unit.path}, with the {unit.kind} {unit.name}"
            if whole
            else f"This is the {unit.kind} {unit.name} in {unit.path}",
            line=_line_text(question),
            retry="",
        )
        asked = Message("user", self.redact(prompt))
        # A worked example first, as an earlier turn: SmolLM2-135M's answers fixed 3 of 144 tries at three bugs no
        # one-token variant fixes with it, and none of 144 without. Line questions have it too, so that every
        # question about a unit shares its prompt's start.
        example = f"repair/examples/{_EXAMPLE_LANGUAGE[unit.language]}"
        return [Message("user", load_prompt(f"{example}_question.md")),
                Message("assistant", load_prompt(f"{example}_answer.md").strip()), asked]  # fmt: skip

    def _with_test_source(self, failure: FailedTest, shown: str, tests_shown: set[str]) -> str:
        """The failure (without the code of `shown`, the file the question shows), and the test's own code when the
        runner's text does not show it (go test, node --test) and no earlier failure of the question showed it."""
        described = describe_failure(failure, shown=shown)
        for root in {str(self.root), str(self.root.resolve())}:  # unittest's frames name files by absolute paths
            described = described.replace(f"{root}/", "")
        test = self.tests.of(failure)
        if test is None or test.text in tests_shown or _shows(described, test.text):
            return described
        tests_shown.add(test.text)
        code = code_of_test(test.text, test.language, _MAX_TEST_LINES)
        source = render_prompt("repair/test_source.md", path=test.path, fence=FENCE_NAMES[test.language], code=code)
        return f"{described}\n\n{source.strip()}"


def _unlike(failures: Sequence[FailedTest]) -> list[FailedTest]:
    """The failures but those that repeat an earlier one's message in the same test function (one parametrized
    test's cases that all fail alike say it once)."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for failure in failures:
        key = (failure.test_id.partition("[")[0], first_line(failure.message))
        if key not in seen:
            seen.add(key)
            kept.append(failure)
    return kept


def _shows(described: str, test: str) -> bool:
    """Whether a failure's text already shows the test's code: its first line, or most of its other lines (pytest's
    traceback, cut to the lines before the failing one, shows the body without the `def`)."""
    lines = [line.strip() for line in test.strip().splitlines()]
    if not lines or lines[0] in described:
        return True
    telling = [line for line in lines[1:] if len(line) >= _TELLING_LINE_CHARS]
    return bool(telling) and 2 * sum(line in described for line in telling) >= len(telling)


def _asked(question: Question) -> tuple[str, str, str, int]:
    """What identifies a question across restarts: its unit's path and text, its kind and line."""
    return (question.unit.path, question.unit.text, question.kind, question.line)


def _turns_of(question: Question, prompts: Sequence[tuple[Question, list[Message]]]) -> int:
    """How many answers a round asks of the question once each had its greedy one: a line's question one, a
    function's as many as its lines' questions, at least one. Whole functions are what small models fix bugs with: in
    this project's evals SmolLM2-135M's function answers were plausible fixes 15 times in 610 on three tasks, its line
    answers 5 times in 425 on one, which a function answer also fixed."""
    if question.kind == "line":
        return 1
    unit = question.unit
    return max(1, sum(1 for other, _ in prompts if other.kind == "line" and other.unit.key == unit.key))


def _line_text(question: Question) -> str:
    """The line asked about, as one line: the whole statement where brackets carry it over several (a line cut at
    `and` is no line to correct)."""
    if question.kind != "line":
        return ""
    unit = question.unit
    return joined_statement(unit.text, question.line - unit.start_line + 1, unit.language)[2]


def _small_file(root: Path, unit: Unit) -> str:
    """The unit's whole file when it has at most WHOLE_FILE_LINES lines, else ""."""
    try:
        text = (root / unit.path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return text.rstrip("\n") if len(text.splitlines()) <= WHOLE_FILE_LINES else ""


class _Turns:
    """What each question gave: it retires with `most` new answers, or once its last answers all repeated earlier
    ones."""

    def __init__(self) -> None:
        self.given: dict[tuple[str, str, str, int], set[str]] = {}
        self.repeats: dict[tuple[str, str, str, int], int] = {}

    def retired(self, question: tuple[str, str, str, int], most: int) -> bool:
        return self.repeats.get(question, 0) >= _REPEATS_RETIRE or len(self.given.get(question, ())) >= most

    def new(self, question: tuple[str, str, str, int], text: str, *, counts: bool = True) -> bool:
        """Record the question's answer; whether no earlier answer to it was the same. A repeat that `counts` is one
        more towards retiring the question."""
        given = self.given.setdefault(question, set())
        if text.strip() in given:
            self.repeats[question] = self.repeats.get(question, 0) + counts
            return False
        given.add(text.strip())
        self.repeats[question] = 0
        return True

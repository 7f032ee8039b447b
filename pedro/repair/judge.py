"""What a candidate's test run says: fixed, progress, breaks or fails, and each failure as the model reads it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from pedro.evidence import count
from pedro.tools.test import TestRun
from pedro.tools.testreport import FailedTest

Verdict = Literal["fixed", "progress", "breaks", "fails"]

SAMPLE = 6
"""The most failing tests a candidate's first run holds."""
_RAISED = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Exit))\b")
_MAX_FAILURE_LINES = 24
_MAX_FAILURE_CHARS = 1600
# pytest's traceback: a long frame ends at its location (`path:line: Error`) or a separator (`_ _ _`), a short one
# starts at `path:line: in name`; the lines it quotes from the source are indented, beside `>` (the line it stopped
# at), its carets and `E` (the error).
_PYTEST_LOCATION = re.compile(r"^([^\s:][^:]*):\d+: (?!in )\w")
_PYTEST_SHORT_FRAME = re.compile(r"^([^\s:][^:]*):\d+: in \S+$")
_PYTEST_SEPARATOR = re.compile(r"^(?:_ )+_$")
_CARETS = re.compile(r"^\s*[\^~]+\s*$")
# pytest's explanation of an assertion's operands: `+  where 13 = f(x).hour`, and deeper for each operand's own parts.
_PYTEST_WHERE = re.compile(r"^E\s+\+(\s+)where ")
_QUOTED_DEF = re.compile(r"^\s+(?:async\s+)?def\s+\w+\s*\(")
# Stack lines inside a runtime or a test runner say nothing the model can act on.
_NOISE = re.compile(r"^\s*(?:at .*(?:node:|node_modules/|\(<anonymous>\))|at (?:Test|TestContext|AsyncResource)\.)")


def judge(before: TestRun, after: TestRun, wanted: frozenset[str]) -> tuple[Verdict, str]:
    """fixed (the wanted tests pass, none new fails), progress (fewer of them fail, none new fails), breaks (a test
    that passed before now fails) or fails; and why. A failure that only moved closer to passing is no progress:
    kept, it sent the search down a wrong path more often than to a fix (progress.came_nearer pairs it instead).

    `after` may have run only some tests (a candidate's first check): a test it did not run breaks nothing here."""
    if after.result.outcome == "timeout":
        spent = after.result.cpu_s
        cpu = f", {spent:.1f} s of it on the CPU" if spent is not None else ""
        return "fails", f"its tests did not finish in {after.result.duration_s:.1f} s{cpu}, and were stopped"
    if after.passed:
        return "fixed", ""
    if after.report is None or (not after.failing and after.report.total == 0):
        return "fails", first_line(after.summary)
    newly = sorted(after.failing - before.failing - wanted)
    if newly:
        return "breaks", f"it broke {', '.join(newly[:3])}"
    if not wanted & after.failing and names_tests(after):
        return "fixed", ""
    if len(wanted & after.failing) < len(wanted & before.failing):
        gained = len(wanted & before.failing) - len(wanted & after.failing)
        return "progress", f"{count(gained, 'failing test')} now {'passes' if gained == 1 else 'pass'}"
    failure = next(iter(after.report.failures), None)
    return "fails", describe_failure(failure, short=True) if failure else first_line(after.summary)


def sampled(failures: Sequence[FailedTest], ids: Sequence[str], most: int = SAMPLE) -> list[str]:
    """At most `most` of the failing tests `ids` for a candidate's first run, when there are more: one of each kind
    of failure (`failures`: its file and what it raised, `tests/test_a.py`, `ValueError`) first, then the rest in
    order. A candidate that passes none of them is no fix of the others either, and 80 tests failing for one bug
    cost each candidate 80 runs."""
    if len(ids) <= most:
        return list(ids)
    kinds = {
        failure.test_id: (failure.test_id.partition("::")[0], _raised_kind(failure.message)) for failure in failures
    }
    first: dict[tuple[str, str], str] = {}
    for test_id in ids:
        first.setdefault(kinds.get(test_id, (test_id, "")), test_id)
    chosen = list(first.values())[:most]
    return sorted({*chosen, *[test_id for test_id in ids if test_id not in chosen][: most - len(chosen)]})


def _raised_kind(message: str) -> str:
    found = _RAISED.search(message)
    return found.group(1) if found else ""


def names_tests(run: TestRun) -> bool:
    """The run names its failures (so the wanted tests can be told from the rest), or it passed outright."""
    return run.passed or (run.report is not None and run.report.names_tests)


def describe_failure(failure: FailedTest, *, short: bool = False, shown: str = "") -> str:
    """A failing test as the model reads it: its id and the runner's text without runtime stack noise, nor the
    code pytest quotes from the file `shown` (the question shows that file's code itself)."""
    if short:
        message = failure.message.strip().splitlines()
        return f"{failure.test_id}: {message[0] if message else 'failed'}"
    text = failure.details or failure.message
    lines = [line.rstrip() for line in text.splitlines() if line.strip() and not _NOISE.match(line)]
    lines = _outer_wheres(_without_decorators(lines))
    if shown:
        lines = _without_code_of(lines, shown)
    body = "\n".join(lines[-_MAX_FAILURE_LINES:])
    if len(body) > _MAX_FAILURE_CHARS:  # cut at a line's start, where one is near
        body = body[-_MAX_FAILURE_CHARS:].partition("\n")[2] or body[-_MAX_FAILURE_CHARS:]
    return f"FAILED {failure.test_id}\n{body}" if body else f"FAILED {failure.test_id}"


def _without_code_of(lines: list[str], path: str) -> list[str]:
    """pytest's traceback without the source it quotes for frames in `path`: a long frame keeps its arguments, the
    line it stopped at (`>`, with its carets) and the error (`E`); a short one (`path:N: in name`, as a recursion
    prints) keeps that line alone. Twice the unit's code made a small model's question half as long again, and its
    prompt that much slower to read."""
    kept: list[str] = []
    frame: list[str] = []  # a long frame's lines, held until its location says whose code they quote
    quoting = False  # the lines now indented quote a short frame in `path`
    for line in lines:
        if header := _PYTEST_SHORT_FRAME.match(line):
            kept, frame, quoting = [*kept, *frame, line], [], header.group(1) == path
            continue
        if quoting and line.startswith(" "):
            continue
        quoting = False
        frame.append(line)
        location = _PYTEST_LOCATION.match(line)
        if location is None and not _PYTEST_SEPARATOR.match(line):
            continue
        kept += _unquoted(frame) if location is not None and location.group(1) == path else frame
        frame = []
    return _collapsed([*kept, *frame])


def _outer_wheres(lines: list[str]) -> list[str]:
    """pytest's `where` lines but those that explain another `where`'s parts: schedule's failure explained `13` in
    eight of them, each repeating a 90-character repr one step further down the call chain."""
    kept: list[str] = []
    outer = 0  # the indentation of the first `where` of the run the lines are in; 0 outside one
    for line in lines:
        where = _PYTEST_WHERE.match(line)
        if where is None:
            outer = 0
        elif not outer:
            outer = len(where.group(1))
        elif len(where.group(1)) > outer:
            continue
        kept.append(line)
    return kept


def _without_decorators(lines: list[str]) -> list[str]:
    """pytest's quoted source without what it quotes above a function's `def`: a parametrized test's table of cases
    (the failing case's own values are in its id). One such table, quoted once for each failing case, was most of a
    question's 1,600 tokens, at 9 ms a token for a small model on one core."""
    kept: list[str] = []
    quoted: list[str] = []  # the source lines quoted since the last line that is not source
    defined = False  # the quote has reached its first `def`
    for line in lines:
        if not line.startswith((" ", "\t")):
            kept += quoted + [line]
            quoted, defined = [], False
        elif not defined and _QUOTED_DEF.match(line):
            quoted, defined = [line], True
        else:
            quoted.append(line)
    return kept + quoted


def _unquoted(frame: list[str]) -> list[str]:
    """A long frame's lines without its quoted source, but for the carets under the line it stopped at."""
    return [
        line
        for at, line in enumerate(frame)
        if not line.startswith(" ") or (_CARETS.match(line) and at and frame[at - 1].startswith(">"))
    ]


def _collapsed(lines: list[str]) -> list[str]:
    """Each run of the same line once, with how many times it came (a recursion's frames)."""
    runs: list[tuple[str, int]] = []
    for line in lines:
        if runs and runs[-1][0] == line:
            runs[-1] = (line, runs[-1][1] + 1)
        else:
            runs.append((line, 1))
    return [line if times == 1 else f"{line} ({times} times)" for line, times in runs]


def first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")

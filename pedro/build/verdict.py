"""What the direct way concludes from an answer's checks: why a call's results condemn it, which passing answer is
kept, and a failed test run in a sentence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pedro.build.merge import Merged
from pedro.calls.run import Call, CallResult
from pedro.evidence import TestVerdict, count
from pedro.repair.choose import Passing, agreement
from pedro.tools.test import TestRun

CHECKS = ("parses", "imports", "examples", "lint", "tests")
"""The checks in the order they run (cheapest first); how far an answer got ranks the failed ones."""


@dataclass(frozen=True)
class Tried:
    """One answer's checks: the file with it, how many checks it passed, why it failed, its probe outputs."""

    n: int
    merged: Merged | None
    reached: int
    failure: str = ""
    outputs: tuple[str, ...] = ()
    run: TestRun | None = None
    change: str = ""
    """What pedro changed in answer `n` to make this one (slips.py); "" for the model's own answer."""

    @property
    def passed(self) -> bool:
        return self.reached == len(CHECKS)


def judge_calls(calls: Sequence[Call], results: Sequence[CallResult]) -> str:
    """Why the calls' results condemn the answer, or "": an example that does not give its value, a name that is not
    defined on any probe, the same error of broken code on every probe."""
    for call, result in zip(calls, results, strict=False):
        if result.equal is not True:
            got = f"raises {result.raised}" if result.raised else f"gives {result.value}"
            return f"{call.code} {got}, not {call.expected}"
    probed = results[len(calls) :]
    undefined = next((r for r in probed if r.raised in _UNDEFINED), None)
    if undefined is not None:
        return f"it uses a name that is not defined ({undefined.raised}: {undefined.said})"
    broken = _always_broken(probed)
    return f"it raises {broken} on every one of {len(probed)} inputs tried" if broken else ""


_BROKEN = frozenset({"NameError", "UnboundLocalError", "TypeError", "AttributeError", "RecursionError",
                     "ReferenceError", "too slow", "panic"})  # fmt: skip
"""What code raises when it is wrong, not when its input is: an answer that raises one on every probe is broken."""


_UNDEFINED = frozenset({"NameError", "UnboundLocalError", "ReferenceError"})
"""Errors no input can cause: the code uses a name that is not there."""


def _always_broken(results: Sequence[CallResult]) -> str:
    """The error every probe raised, when each raised one of _BROKEN; else ""."""
    raised = {result.raised for result in results}
    if not results or len(raised) != 1 or not raised <= _BROKEN:
        return ""
    return next(iter(raised))


def choose(passing: Sequence[Tried], written: Sequence[int] | None = None) -> int:
    """The answer whose outputs agree with the most others', then the smallest, then the first; an answer that gives
    one output for every input (`return []`) comes last, as what a small model writes when it cannot do the task.
    `written` says how many times the model wrote each: every copy of an answer agrees with it, and is counted."""
    pool = [Passing(t.n, t.merged.code if t.merged else "", t.outputs) for t in passing]
    copies = list(written) if written is not None else [1] * len(pool)
    weighted = [one for one, times in zip(pool, copies, strict=True) for _ in range(times)]
    owner = [i for i, times in enumerate(copies) for _ in range(times)]
    scores = [0] * len(pool)
    for k, score in enumerate(agreement(weighted)):
        scores[owner[k]] = max(scores[owner[k]], score)

    def key(i: int) -> tuple[bool, int, int, int]:
        outputs = pool[i].outputs
        constant = len(outputs) >= _VARIED and len(set(outputs)) == 1
        return (constant, -scores[i], len(pool[i].text.splitlines()), i)

    return min(range(len(pool)), key=key)


_VARIED = 3
"""Probe inputs enough to call an answer that gives one output for all of them constant."""


def passing_ids(run: TestRun) -> frozenset[str]:
    return frozenset(run.report.passing) - run.failing if run.report is not None else frozenset()


def test_failure(verdict: TestVerdict | None, run: TestRun) -> str:
    """Why a run does not hold, naming the first test it breaks: one that passed before, else a new one."""
    broken, new = (verdict.named("broken"), verdict.named("added_failing")) if verdict is not None else ([], [])
    if broken or new:
        first = (broken or new)[0]
        failures = run.report.failures if run.report is not None else []
        said = next((f.message for f in failures if f.test_id == first and f.message), "")
        said = f" ({' '.join(said.split())[:200]})" if said else ""
        parts = [f"{count(len(broken), 'test')} that passed before now {_fail(broken)}"] if broken else []
        parts += [f"{count(len(new), 'new test')} {_fail(new)}"] if new else []
        return f"{' and '.join(parts)}: {first}{said}"
    return "the tests do not pass: " + (run.summary.strip().splitlines() or ["no output"])[0]


def _fail(tests: Sequence[str]) -> str:
    return "fail" if len(tests) > 1 else "fails"

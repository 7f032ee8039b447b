"""Before repair proper: a file of the project that does not compile, mended one character at a time and kept where
the tests then get past it (a test module that cannot import the code fails before any test runs)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

from pedro.dispatch import Dispatcher
from pedro.evidence import ProjectTests, describe_test_run
from pedro.repair.edits import Editor, Emit, edit_call
from pedro.repair.locate import Unit
from pedro.repair.syntax_slips import SyntaxSlip, mends, run_slip
from pedro.tools.test import TestRun

MOST_MENDS = 12
"""Mends of one slip tried at most: the likeliest come first, and each costs a run of the tests."""
MOST_SLIPS = 3


@dataclass
class Mended:
    """What the stage did: the tests' last run, each mend kept (`what` in `path`), and the candidates tried."""

    run: TestRun
    stop_at: float = math.inf
    kept: list[str] = field(default_factory=list)
    tried: int = 0
    edits: int = 0


def mend_syntax(
    emit: Emit, dispatcher: Dispatcher, tests: ProjectTests, run: TestRun, root: Path, stop_at: float
) -> Mended:
    """Each slip the runs report, in turn (at most MOST_SLIPS): its mends tested with the whole command until one
    leaves the tests past it, none begun at or after `stop_at` (time.monotonic()) and each run ended by it; none
    kept where none does."""
    done = Mended(run, stop_at=stop_at)
    slip = run_slip(run, root)
    if slip is None:
        return done
    editor = Editor(dispatcher, emit)
    dispatcher.snapshots.open_step(emit, "repair", [dispatcher.effects(edit_call(_whole(slip, run), slip.text))])
    try:
        for _ in range(MOST_SLIPS):
            if slip is None or not _mend_one(emit, editor, tests, slip, done):
                break
            slip = run_slip(done.run, root)
    finally:
        done.edits = editor.calls
        dispatcher.snapshots.close_step(emit)
    return done


def _mend_one(emit: Emit, editor: Editor, tests: ProjectTests, slip: SyntaxSlip, done: Mended) -> bool:
    """Whether a mend of the slip was kept: the first after which the tests no longer stop at it."""
    unit = _whole(slip, done.run)
    editor.watch(unit)
    label = f"{slip.path}:{slip.line} (does not compile: {slip.message})"
    for what, text in mends(slip)[:MOST_MENDS]:
        left = done.stop_at - time.monotonic()
        if left <= 0:
            return False
        done.tried += 1
        applied, problem = editor.apply([(unit, text)])
        if not applied:
            emit("repair.candidate", n=done.tried, status="rejected", reason=problem, unit=label, change=what)
            continue
        now = tests.run(timeout=min(left, tests.ctx.config.test_timeout))
        emit("tests.run", **describe_test_run(now, "candidate", tests.command), candidate=done.tried)
        after = run_slip(now, editor.dispatcher.ctx.root)
        past = after is None or after.path != slip.path or after.line > slip.line
        status = "fixed" if now.passed else "kept" if past else "fails"
        emit("repair.candidate", n=done.tried, status=status, reason="", unit=label, change=what, question="syntax")
        if past:
            done.run = now
            done.kept.append(f"{what} in {slip.path}")
            return True
        editor.undo(applied, done.tried)
    return False


def _whole(slip: SyntaxSlip, run: TestRun) -> Unit:
    """The slip's whole file as the unit a mend replaces: its text is unique in the file, as a line's may not be."""
    lines = max(1, slip.text.count("\n"))
    return Unit(slip.path, slip.path, slip.path, "python", 1, lines, slip.text, tests=tuple(sorted(run.failing)))

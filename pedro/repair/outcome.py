"""What a repair achieved, as the loop reads it: a small module of its own, so the loop can name it without
importing the repair pipeline (a job that never repairs never pays for that import)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pedro.messages import Usage
from pedro.tools.test import TestRun


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
    out_of_time: str = ""
    """What ran out before the wanted tests passed: `its time budget of N s` or `the job's time limit of N s`."""
    changed: bool = False
    """A candidate was kept: the code differs from where repair started."""
    last_run: TestRun | None = None
    """The tests as repair leaves the code: after the last kept candidate, else where it started."""
    beyond: tuple[str, ...] = ()
    """What the fix changes on inputs the tests do not pin: `f(args): old → new`."""
    disputes: tuple[str, ...] = ()
    """Inputs on which plausible candidates disagreed: the fix is unsure there."""
    set_aside: tuple[str, ...] = ()
    """Candidates that passed the tests and were no fix, with why (`candidate N: it …`)."""
    left: tuple[str, ...] = ()
    """The units the tests that still fail point at, when repair kept progress but did not fix them all: work
    left for the loop, so the job does not end on the progress alone."""

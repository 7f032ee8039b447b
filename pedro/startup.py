"""Ctrl-C while pedro starts: an ending with its exit status, never a traceback; SIGUSR1: its threads' stacks."""

import faulthandler
import os
import signal
import sys

INTERRUPTED_EXIT_CODE = 130
"""Ctrl-C's exit status, for the moments before the exit codes' table (pedro.messages.EXIT_CODES) is loaded; a
test holds the two equal."""


def _interrupted_while_starting(_signum: int, _frame: object) -> None:
    os.write(2, b"interrupted\n")
    os._exit(INTERRUPTED_EXIT_CODE)


def quiet_interrupts_while_starting() -> None:
    """For the `pedro` command only (its script, or `python -m pedro`), not for a program that imports pedro: from
    here until the command line installs its own handling, Ctrl-C ends pedro quietly."""
    started = sys.argv[0] if sys.argv else ""
    name, folder = os.path.basename(started), os.path.basename(os.path.dirname(started))  # noqa: PTH119, PTH120
    if name == "pedro" or (name == "__main__.py" and folder == "pedro"):
        signal.signal(signal.SIGINT, _interrupted_while_starting)
        # `kill -USR1 PID` shows where a pedro that will not end is waiting, and leaves it running (the evaluation
        # sends it before stopping a run at its limit). Registered first, as SIGUSR1 would otherwise end pedro.
        faulthandler.register(signal.SIGUSR1, all_threads=True)


def interrupts_as_usual() -> None:
    """Ctrl-C raises KeyboardInterrupt again, which the command line turns into its ending."""
    signal.signal(signal.SIGINT, signal.default_int_handler)

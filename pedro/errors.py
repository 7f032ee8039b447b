"""Operator errors: what the person running pedro must fix, each mapped to an exit status. The whole tree (a test
holds it to the code); each layer raises its own and maps foreign exceptions in one place:

    PedroError
    ├── UsageError                 bad flags, bad config, no git repository                  (exit 2)
    │   ├── ConfigError            an unknown key or wrong type in a config layer
    │   ├── JobNotFoundError       `pedro jobs show ID` for an unknown ID
    │   ├── RepositoryBusyError    another job holds the repository's run lock               runlock.py
    │   └── NothingToUndo          undo found no step back                                   safety/undo.py
    ├── BackendError               server unreachable, model unknown, bad replies            (exit 3)
    │   ├── BackendHttpError       the server answered with an error status                  backends/base.py
    │   │   ├── StreamCutError     the stream broke off
    │   │   └── ContextOverflowError  the server's window is smaller than the request
    │   └── ToolsRejectedError     the server refused native tools
    ├── GitError                   git could not run, or failed where pedro needed it        gitlayer.py
    │   └── JobChangeError         the job's change to a file could not be read or merged    safety/jobchange.py
    ├── SnapshotError              a snapshot could not be taken or restored                 safety/snapshots.py
    │   ├── SnapshotConflictError  files changed since the snapshot undo would restore
    │   ├── NoIdentityError        no git identity to commit a job as                        safety/jobcommit.py
    │   └── EditsClashError        the user's edits and the job's touch the same lines       safety/jobcommit.py
    ├── ContextFullError           the request cannot fit the window even compacted          window.py (exit 4)
    ├── SaveRefused                /save refused a path                                      cli/conversation.py
    └── InterruptedRunError        Ctrl-C                                                    (exit 130)

Problems caused by the model are never PedroErrors: they are data fed back to the model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI's fast paths import this module; the shared vocabulary loads only with the loop
    from pedro.messages import ExitStatus


class PedroError(Exception):
    """An error the operator must act on; the message names the fix."""

    exit_status: ExitStatus = "failed"


class UsageError(PedroError):
    """Bad flags, bad configuration or an unsuitable working directory."""

    exit_status: ExitStatus = "usage_error"


class ConfigError(UsageError):
    """A configuration layer holds an unknown key or a value of the wrong type."""


class BackendError(PedroError):
    """The model server could not be used: unreachable, unknown model, malformed replies."""

    exit_status: ExitStatus = "backend_error"


class JobNotFoundError(UsageError):
    """No job with the given id exists in this repository."""


class InterruptedRunError(PedroError):
    """The run was interrupted by the operator."""

    exit_status: ExitStatus = "interrupted"


class Terminated(KeyboardInterrupt):
    """SIGTERM (how CI cancels a job): handled like Ctrl-C, so the job is saved, but the process exits 143."""


class TimeLimitReached(KeyboardInterrupt):
    """The job's wall-clock limit passed: raised wherever the run is (the model streaming, a test running), so it
    stops and saves itself as on Ctrl-C, and ends as limit_reached."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the job's time limit of {seconds:g} s passed")
        self.seconds = seconds


TERMINATED_EXIT_CODE = 143
"""128 + SIGTERM, the status a shell and CI runners expect from a process SIGTERM ended."""

CLOSED_STDOUT_EXIT_CODE = 141
"""128 + SIGPIPE: stdout's reader went away (`pedro jobs list | head -1`), as a shell reports `git log | head`."""

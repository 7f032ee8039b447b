"""pedro's own log: the tracebacks of internal errors that pedro turned into data, kept per job (debug.log) and
shown with --verbose, so a bug in pedro never passes for a model that made no call."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path

LOGGER = logging.getLogger("pedro")
_LIBRARY_LOGGERS = ("mcp",)
"""Libraries whose own log lines belong in the job's log, not on the user's terminal."""
DEBUG_LOG_NAME = "debug.log"
_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


@contextlib.contextmanager
def job_log(path: Path, *, verbose: bool = False) -> Iterator[None]:
    """Log to the job's debug.log (private to the user) for the block, and to stderr with --verbose."""
    handlers: list[logging.Handler] = []
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        handlers.append(logging.StreamHandler(os.fdopen(fd, "a", encoding="utf-8")))
    if verbose:
        handlers.append(logging.StreamHandler(sys.stderr))
    for handler in handlers:
        handler.setFormatter(logging.Formatter(_FORMAT))
        LOGGER.addHandler(handler)
    previous = LOGGER.level
    LOGGER.setLevel(logging.DEBUG)
    # What the libraries pedro drives log (the MCP SDK's traceback for a server that writes garbage) goes to the
    # same log, never to the user's stderr, where Python's last-resort handler would print it.
    libraries = [logging.getLogger(name) for name in _LIBRARY_LOGGERS]
    kept = [(library, library.propagate) for library in libraries]
    for library in libraries:
        library.propagate = False
        for handler in handlers or [logging.NullHandler()]:
            library.addHandler(handler)
    try:
        yield
    finally:
        LOGGER.setLevel(previous)
        for library, propagate in kept:
            library.propagate = propagate
            for handler in list(library.handlers):
                if handler in handlers or isinstance(handler, logging.NullHandler):
                    library.removeHandler(handler)
        for handler in handlers:
            LOGGER.removeHandler(handler)
            if handler.stream is not sys.stderr:  # type: ignore[attr-defined]
                handler.close()
                handler.stream.close()  # type: ignore[attr-defined]


def crash_log_path() -> Path:
    """Where an internal error outside any job leaves its traceback: pedro's log folder of this user."""
    from platformdirs import user_log_dir

    return Path(user_log_dir("pedro")) / "pedro.log"


def record_crash(exc: BaseException) -> Path | None:
    """Write the traceback of an error that reached the top to crash_log_path(); the path, or None if unwritable."""
    import traceback

    path = crash_log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as fh:
            fh.write("".join(traceback.format_exception(exc)) + "\n")
    except OSError:
        return None
    return path

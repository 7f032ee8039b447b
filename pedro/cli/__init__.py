"""The command line: parse flags, build the objects, render events, map errors to exit codes."""

from __future__ import annotations

import os
import sys

from pedro.startup import INTERRUPTED_EXIT_CODE, interrupts_as_usual, quiet_interrupts_while_starting

# From pedro's first lines (pathlib would cost an import): Ctrl-C while the command line imports is an ending, not
# a traceback.
quiet_interrupts_while_starting()

from pedro import __version__  # noqa: E402 (after the handler above, which must come first)
from pedro.errors import CLOSED_STDOUT_EXIT_CODE  # noqa: E402
from pedro.messages import EXIT_CODES  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    """Entry point of the `pedro` console script; the only place that turns errors into exit codes."""
    from pedro.cli.pipeguard import PipeGuard
    from pedro.cli.workflow import shield_streams

    guard = PipeGuard()
    guard.install()
    shields = shield_streams()
    try:
        code = _run(argv)
    except BrokenPipeError:
        # A write that bypassed the guarded streams; the reader is gone all the same.
        code = CLOSED_STDOUT_EXIT_CODE
        _discard_stdout()
    try:
        for shield in shields:
            shield.finish()
        if guard.stdout_gone:
            code = CLOSED_STDOUT_EXIT_CODE
    except KeyboardInterrupt:
        # Ctrl-C after the command finished, while its output is flushed: an ending like any, not a traceback.
        code = INTERRUPTED_EXIT_CODE
    sys.exit(code)


def _escape_unprintable() -> None:
    """Make stdout and stderr write what they cannot encode as backslash escapes instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            # Model output can hold lone surrogates or bytes the terminal cannot show; never crash on them.
            stream.reconfigure(errors="backslashreplace")


def _report_crash(exc: Exception) -> None:
    """Tell the user pedro hit a bug, and where its traceback was kept for the report."""
    from pedro.debuglog import record_crash

    kept = record_crash(exc)
    where = f"its traceback is in {kept}" if kept else "rerun with PEDRO_DEBUG=1 to see its traceback"
    sys.stderr.write(
        f"pedro: internal error: {type(exc).__name__}: {exc}\n"
        f"This is a bug in pedro; {where}. Please report it with that traceback.\n"
    )


def _run(argv: list[str] | None) -> int:
    """Run the command and return its exit code."""
    _escape_unprintable()
    args = sys.argv[1:] if argv is None else argv
    # A bare `pedro` asks what it can do: the help, and success (Click's no-args help exits 2, as for a usage error).
    args = args or ["--help"]
    if args == ["--version"]:
        # The commonest probe of a CLI answers without importing Typer, Click and the command modules.
        sys.stdout.write(f"pedro {__version__}\n")
        return 0
    from pedro.errors import TERMINATED_EXIT_CODE, PedroError, Terminated
    from pedro.gitlayer import FOREIGN_VARS

    # A git hook or alias that started pedro exports GIT_DIR, GIT_INDEX_FILE and the like: they would point every
    # git pedro runs at that repository or index instead of the one --repo names.
    for name in FOREIGN_VARS:
        os.environ.pop(name, None)

    # Exit codes come from the shared vocabulary, loaded only on the paths that need it: --help never does.
    try:
        interrupts_as_usual()  # from here Ctrl-C is a KeyboardInterrupt this block turns into its ending
        from pedro.cli.app import app

        # Standalone mode: Typer reports its own usage errors (exit 2); everything else is handled here.
        app(args=args, prog_name="pedro")
        code: int = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except PedroError as exc:
        sys.stderr.write(f"pedro: {exc}\n")
        code = _exit_code(exc.exit_status)
    except KeyboardInterrupt as how:
        sys.stderr.write("interrupted\n")
        code = TERMINATED_EXIT_CODE if isinstance(how, Terminated) else _exit_code("interrupted")
    except BrokenPipeError:
        raise  # the reader of stdout went away: not a bug, and nothing more can be said there
    except Exception as exc:  # noqa: BLE001 - the last line of defence: users never see a traceback
        if os.environ.get("PEDRO_DEBUG"):
            raise
        _report_crash(exc)
        code = _exit_code("failed")
    return code


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so the flush at exit cannot fail and print "Exception ignored ... BrokenPipeError"."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


def _exit_code(status: str) -> int:
    codes = {str(name): code for name, code in EXIT_CODES.items()}
    return codes.get(status, codes["failed"])

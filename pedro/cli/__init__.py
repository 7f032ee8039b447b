"""The command line: parse flags, build the objects, render events, map errors to exit codes."""

from __future__ import annotations

import os
import sys

import typer

from pedro import __version__
from pedro.cli import doctor, jobs, run, tools, undo
from pedro.errors import PedroError
from pedro.messages import EXIT_CODES

app = typer.Typer(
    name="pedro",
    help="A coding agent for local models: builder, debugger, reviewer and triager roles over seven tools.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"pedro {__version__}\n")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    """pedro: a terminal coding agent for local models (Ollama, llama.cpp, any OpenAI-compatible server)."""


run.register(app)
app.add_typer(jobs.app, name="jobs")
app.add_typer(tools.app, name="tools")
app.command("doctor")(doctor.doctor)
app.command("undo")(undo.undo)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the `pedro` console script; the only place that turns errors into exit codes."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            # Model output can hold lone surrogates or bytes the terminal cannot show; never crash on them.
            stream.reconfigure(errors="backslashreplace")
    try:
        # Standalone mode: Typer reports its own usage errors (exit 2); everything else is handled here.
        app(args=argv, prog_name="pedro")
        code: int = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except PedroError as exc:
        sys.stderr.write(f"pedro: {exc}\n")
        code = EXIT_CODES[exc.exit_status]
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        code = EXIT_CODES["interrupted"]
    except Exception as exc:  # noqa: BLE001 - the last line of defence: users never see a traceback
        if os.environ.get("PEDRO_DEBUG"):
            raise
        sys.stderr.write(
            f"pedro: internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in pedro; rerun with PEDRO_DEBUG=1 for details and report it.\n"
        )
        code = EXIT_CODES["failed"]
    sys.exit(code)

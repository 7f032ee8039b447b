"""The Typer app: every command group, assembled once."""

from __future__ import annotations

import sys
from collections.abc import Iterable

import typer

from pedro import __version__
from pedro.cli import config_cmd, doctor, eval_cmd, jobs, mcp_cmd, run, serve, tools, undo
from pedro.roles import ROLES
from pedro.tooltable import tool_names


def _listed(names: Iterable[str]) -> str:
    *most, last = names
    return f"{', '.join(most)} and {last}"


app = typer.Typer(
    name="pedro",
    help=f"A coding agent for local models: {_listed(ROLES)} roles over {_listed(tool_names())} tools.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
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
app.command("serve")(serve.serve)
app.command("mcp")(mcp_cmd.mcp)
app.command("config")(config_cmd.config)
app.command("eval")(eval_cmd.eval_command)

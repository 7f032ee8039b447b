"""`pedro tools list` and `pedro tools run NAME JSON`: the fastest way to see and debug a tool."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from pedro.cli.common import load
from pedro.cli.flags import CommonFlags, takes
from pedro.errors import UsageError

app = typer.Typer(help="List the tools or run one by hand.", no_args_is_help=True)


@app.command("list")
@takes("json", json_prints="Print the tools' schemas as one JSON array.")
def list_tools(*, flags: CommonFlags) -> None:
    """Print each tool with its description and JSON schema."""
    from pedro.tools import ToolRegistry

    specs = ToolRegistry.default().specs()
    if flags.json:
        sys.stdout.write(json.dumps(specs, indent=2) + "\n")
        return
    for spec in specs:
        function = spec["function"]
        sys.stdout.write(f"{function['name']}\n{'=' * len(function['name'])}\n{function['description']}\n\n")
        sys.stdout.write("schema: " + json.dumps(function["parameters"], indent=2) + "\n\n")


@app.command("run")
@takes(
    "repo",
    "no_input",
    "json",
    "allow_outside_git",
    json_prints="Print the result as one JSON object (output, ok, error code).",
)
def run_tool(
    name: Annotated[str, typer.Argument(help="Tool name, e.g. file.")],
    arguments: Annotated[str, typer.Argument(help='JSON object of arguments, e.g. \'{"action": "read", ...}\'.')],
    *,
    flags: CommonFlags,
) -> None:
    """Run one tool in the repository and print its result."""
    from pedro.dispatch import Dispatcher
    from pedro.messages import ToolCall
    from pedro.tools import TOOL_CLASSES, ToolRegistry
    from pedro.tools.base import ToolContext

    if name not in TOOL_CLASSES:
        raise UsageError(f"there is no tool {name!r}; the tools are: {', '.join(TOOL_CLASSES)}")
    try:
        parsed = json.loads(arguments)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"the arguments are not valid JSON ({exc.msg} at position {exc.pos}); "
            'quote them for the shell, e.g. \'{"action": "read", "path": "README.md"}\''
        ) from exc
    if not isinstance(parsed, dict):
        raise UsageError('the arguments must be a JSON object, e.g. \'{"action": "status"}\'')
    root, config = load(flags, find_server=False)
    from pedro.cli.render import PlainRenderer

    ctx = ToolContext(
        root=root,
        config=config.tools,
        calling=config.tool_calling,
        approve=PlainRenderer(sys.stderr).approver(flags.interactive),
        read_only=config.safety.mode == "read-only",
    )
    result = Dispatcher(ToolRegistry.default([name]), ctx).run(ToolCall(name=name, arguments=parsed, id="cli"))
    if flags.json:
        sys.stdout.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
    else:
        stream = sys.stdout if result.ok else sys.stderr
        prefix = "" if result.ok else f"error ({result.error_code or result.error_kind}): "
        stream.write(prefix + result.output.rstrip() + "\n")
    raise typer.Exit(0 if result.ok else 1)

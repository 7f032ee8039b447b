"""The layers in front of a tool, outermost first: mask, size limit, argument validation, policy gate, journal; and
the tool itself at the bottom. Each refuses with a message the model can act on, or passes the call on."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pydantic import ValidationError

from pedro.config import ToolCallingConfig
from pedro.debuglog import LOGGER
from pedro.dispatch.call import PreparedCall, Refusal
from pedro.effects import IN_DOUBT, Effects
from pedro.gate import Gate
from pedro.prompts import render_prompt
from pedro.safety.journal import Journal
from pedro.tools import ToolRegistry
from pedro.tools.base import Tool, ToolContext, ToolFailure

Inner = Callable[[PreparedCall], str]


@dataclass(frozen=True)
class Mask:
    """Lookup and mask: the call's tool by name, refused when there is none, or when [tool_calling]'s masks or a
    stopped MCP server keep it from the model."""

    registry: ToolRegistry

    def allowed(self, calling: ToolCallingConfig) -> tuple[str, ...]:
        """The tools offered to the model and allowed to run, in registry order."""
        return tuple(
            tool.name
            for tool in self.registry
            if (not calling.allow_tools or tool.name in calling.allow_tools)
            and tool.name not in calling.deny_tools
            and getattr(tool, "available", True)
        )

    def __call__(self, call: PreparedCall, inner: Inner) -> str:
        name, allowed = call.call.name, self.allowed(call.ctx.calling)
        tool = self.registry.get(name)
        if tool is None:
            names = ", ".join(allowed)
            raise Refusal("unknown_tool", f"there is no tool named {name!r}; the tools you can call are: {names}")
        if name not in allowed:
            message = render_prompt("feedback/tool_not_allowed.md", name=name, allowed=", ".join(allowed) or "none")
            raise Refusal("denied", message.strip(), "TOOL_NOT_ALLOWED")
        return inner(replace(call, tool=tool))


def size_limit(call: PreparedCall, inner: Inner) -> str:
    """Arguments over [tool_calling].max_tool_args_bytes are refused before they are parsed any further."""
    size = len(json.dumps(call.call.arguments, ensure_ascii=False, default=str).encode())
    limit = call.ctx.calling.max_tool_args_bytes
    if size > limit:
        message = render_prompt("feedback/arguments_too_large.md", name=call.call.name, size=size, limit=limit)
        raise Refusal("too_large", message.strip(), "ARGUMENTS_TOO_LARGE")
    return inner(call)


def validate(call: PreparedCall, inner: Inner) -> str:
    """The arguments checked against the tool's Args model, and what the tool declares the call will do."""
    tool = call.found()
    try:
        args = tool.Args.model_validate(call.call.arguments)
    except ValidationError as exc:
        raise Refusal("invalid_args", describe_validation(tool.name, exc, tool.Args.model_json_schema())) from exc
    return inner(replace(call, args=args, effects=declared(tool, args)))


@dataclass(frozen=True)
class PolicyGate:
    """The policy decides the call from its effects (pedro/gate.py): refused, or passed on with what it granted."""

    gate: Gate

    def __call__(self, call: PreparedCall, inner: Inner) -> str:
        # What the policy grants goes with this call only: the next call is decided afresh.
        grants = self.gate.check(call.effects, call.ctx)
        return inner(replace(call, ctx=call.ctx.for_call(grants)))


@dataclass(frozen=True)
class Journalled:
    """A call that writes or deletes a file is journalled before and after its atomic rename, so an interrupted
    round can say exactly which files changed (safety/journal.py)."""

    journal: Journal

    def __call__(self, call: PreparedCall, inner: Inner) -> str:
        written = written_path(call.effects, call.ctx)
        if written is None:
            return inner(call)
        self.journal.applying(written)
        try:
            output = inner(call)
        except ToolFailure:
            self.journal.applied(written, changed=False)
            raise
        self.journal.applied(written, changed=True)
        return output


def run_tool(call: PreparedCall) -> str:
    """The bottom of the stack: the tool runs on its validated arguments in the call's own context."""
    tool, args = call.runnable()
    return tool.run(args, call.ctx)


def declared(tool: Tool, args: Any) -> Effects:
    """The tool's own declaration of what the call does; anything, when the tool cannot say."""
    try:
        return tool.effects(args)
    except Exception:  # noqa: BLE001 - a tool that cannot describe its call is taken to do anything
        LOGGER.exception("the %s tool could not declare its effects", tool.name)
        return IN_DOUBT


def written_path(effects: Effects, ctx: ToolContext) -> str | None:
    """The file a call writes or deletes, as the model sees it; None for other calls."""
    changed = effects.changed_paths
    if not changed:
        return None
    try:
        return ctx.rel(ctx.resolve(changed[0]))
    except ToolFailure:
        return None


def describe_validation(name: str, exc: ValidationError, schema: dict[str, Any]) -> str:
    """What was wrong with the arguments, and every key the tool takes with its type."""
    problems = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"]) or "arguments"
        problems.append(f"{where}: {error['msg']}")
    props = schema.get("properties", {})
    keys = ", ".join(f"{key} ({_type_of(spec)})" for key, spec in props.items())
    return f"invalid arguments for {name}: {'; '.join(problems)}. It takes: {keys}"


def _type_of(spec: dict[str, Any]) -> str:
    if "enum" in spec:
        return "|".join(str(v) for v in spec["enum"])
    if "anyOf" in spec:
        return "|".join(_type_of(s) for s in spec["anyOf"] if s.get("type") != "null")
    return str(spec.get("type", "any"))

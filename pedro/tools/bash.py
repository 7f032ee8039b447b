"""The bash tool: run one shell command at the repository root and report its exit code and output."""

from __future__ import annotations

import re
import shlex
import signal
from typing import Any, ClassVar

from pydantic import Field, model_validator

from pedro.effects import Effects
from pedro.process import (
    HARD_CAP_BYTES,
    ChildCommand,
    ChildResult,
    OutputLimits,
    describe_exit,
    run_child,
    shell_command,
)
from pedro.prompts import render_prompt
from pedro.safety.sandbox import FSIZE_LIMIT_BYTES, active_sandbox, wrap
from pedro.tools.base import ToolArgs, ToolContext, ToolFailure, ToolTimeoutError

MAX_TIMEOUT_S = 600.0
MAX_COMMAND_CHARS = 100_000
_ENVELOPE_BYTES = 512  # room for the exit line and notes inside the output budget

# What tools print when there is no network: resolvers (curl, git, pip, apt, npm, go, cargo), connects, /dev/tcp.
_NO_NETWORK_SIGNS = (
    r"Could not resolve host",
    r"Couldn't resolve host",
    r"Temporary failure in name resolution",
    r"Network is unreachable",
    r"Failed to establish a new connection",
    r"Name or service not known",
    r"No address associated with hostname",
    r"getaddrinfo (?:ENOTFOUND|EAI_AGAIN)",
    r"\bEAI_AGAIN\b",
    r"dial tcp: lookup \S+",
    r"failed to resolve address",
    r"Could not resolve '[^']+'",
    r"/dev/tcp/\S+: (?:Connection refused|Network is unreachable|Cannot assign)",
)
_NO_NETWORK = re.compile("|".join(_NO_NETWORK_SIGNS))


class BashArgs(ToolArgs):
    """One shell command, run by `bash -c` at the repository root."""

    short_keys: ClassVar[tuple[str, ...]] = ("command",)

    command: str
    timeout: float | None = Field(default=None, gt=0)

    @model_validator(mode="before")
    @classmethod
    def _accept_aliases(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for alias in ("cmd", "script", "commands", "code", "bash"):
            if alias in data and "command" not in data:
                data["command"] = data.pop(alias)
        for alias in ("timeout_s", "timeout_seconds"):
            if alias in data and "timeout" not in data:
                data["timeout"] = data.pop(alias)
        command = data.get("command")
        if isinstance(command, list) and all(isinstance(part, str) for part in command):
            # ["ls", "-la"] is an argv; a list of whole commands would also work joined by newlines, but is rarer.
            data["command"] = shlex.join(command)
        return data

    @model_validator(mode="after")
    def _check_command(self) -> BashArgs:
        if not self.command.strip():
            raise ValueError('command is empty; send the shell command to run, e.g. {"command": "ls -la"}')
        if "\x00" in self.command:
            raise ValueError("command contains a NUL character; send plain text")
        if len(self.command) > MAX_COMMAND_CHARS:
            raise ValueError(
                f"command is {len(self.command)} characters long; the limit is {MAX_COMMAND_CHARS}. "
                "Write long scripts to a file with the file tool and run that file"
            )
        return self


def network_failure(result: ChildResult) -> str | None:
    """The line that shows a failed command wanted the network, or None (it succeeded, or failed otherwise)."""
    if result.outcome != "exited" or result.exit_code == 0:
        return None
    return network_evidence(result.output)


def network_evidence(output: str) -> str | None:
    """The first phrase in `output` that says the network was unreachable, or None."""
    match = _NO_NETWORK.search(output)
    return match.group(0) if match else None


def offer_network(command: str, ctx: ToolContext, evidence: str) -> tuple[bool, str]:
    """Ask (through the policy) to run a command again with the network on; the note tells the model what happened."""
    answer = ctx.approve_network(command)
    if answer == "approved":
        return True, render_prompt("feedback/network_rerun.md", evidence=evidence).strip()
    name = "feedback/network_declined.md" if answer == "declined" else "feedback/network_off.md"
    return False, render_prompt(name, evidence=evidence).strip()


def sandbox_blocks_network() -> bool:
    """Whether bash and test children run without network here (no sandbox: they already have it)."""
    return active_sandbox().kind != "none"


def build_command(command: str, ctx: ToolContext, *, allow_network: bool = False) -> ChildCommand:
    """The child to run for a bash call: `bash -c` at the root, inside the sandbox when this machine has one."""
    return wrap(shell_command(command, ctx.root, ctx.env), root=ctx.root, kind="bash", allow_network=allow_network)


class BashTool:
    """Runs a shell command and reports `exit code N` and its output, head and tail kept when long."""

    name: ClassVar[str] = "bash"
    Args: ClassVar[type[ToolArgs]] = BashArgs

    def effects(self, args: BashArgs) -> Effects:
        return Effects(command=args.command, runs_commands=True)

    def run(self, args: BashArgs, ctx: ToolContext) -> str:
        timeout = min(args.timeout or ctx.config.bash_timeout, max(MAX_TIMEOUT_S, ctx.config.bash_timeout))
        budget = max(ctx.output_limit - _ENVELOPE_BYTES, 1024)
        limits = OutputLimits(head_bytes=budget // 2, tail_bytes=budget - budget // 2)
        network = ctx.grants.network
        result = _run(args.command, ctx, timeout, limits, network)
        notes: list[str] = []
        evidence = None if network or not sandbox_blocks_network() else network_failure(result)
        if evidence is not None:
            # Never retried on its own: only an approval (or a remembered one) runs it again, once, with network.
            rerun, note = offer_network(args.command, ctx, evidence)
            if rerun:
                result = _run(args.command, ctx, timeout, limits, True)
            notes.append(note)
        if args.timeout is not None and args.timeout > timeout:
            notes.append(f"the timeout was capped at {timeout:g} s")
        if result.outcome == "timeout":
            raise ToolTimeoutError(
                _render(
                    result,
                    notes,
                    f"timed out after {timeout:g} s and was stopped (SIGTERM, then SIGKILL). Split long jobs, "
                    "pass a larger `timeout`, and keep servers or watchers out of the foreground",
                )
            )
        if result.truncated:
            ctx.check_output_size("bash", result.total_bytes)
        if result.outcome == "overflow":
            notes.append(
                f"the command printed more than {HARD_CAP_BYTES // (1024 * 1024)} MiB and was killed; "
                "filter its output (grep, head, tail, wc) instead of printing everything"
            )
        # bash reports a child killed by SIGXFSZ as "File size limit exceeded" even when the script goes on.
        if result.exit_code in (-signal.SIGXFSZ, 128 + signal.SIGXFSZ) or "File size limit exceeded" in result.output:
            notes.append(
                f"a file grew past the {FSIZE_LIMIT_BYTES // (1024 * 1024)} MiB size limit and the writer was "
                "stopped (SIGXFSZ); write smaller files, or delete the partial one"
            )
        if result.leftovers_killed:
            notes.append(
                "background processes it left running were stopped; nothing keeps running between calls, "
                "so start a server and use it within one command"
            )
        return _render(result, notes)


def _run(command: str, ctx: ToolContext, timeout: float, limits: OutputLimits, network: bool) -> ChildResult:
    try:
        return run_child(build_command(command, ctx, allow_network=network), timeout=timeout, limits=limits)
    except OSError as exc:
        raise ToolFailure(f"bash could not be started ({exc}); check that bash is installed") from exc


def _render(result: ChildResult, notes: list[str], headline: str = "") -> str:
    lines = [headline or describe_exit(result.exit_code)]
    if headline:
        lines.append(describe_exit(result.exit_code))
    lines.extend(f"note: {note}" for note in notes)
    if result.truncated:
        lines.append(f"output: {result.total_bytes} bytes, the middle {result.cut_bytes} bytes cut")
    output = result.output.rstrip("\n")
    lines.append(output if output else "(no output)")
    return "\n".join(lines)

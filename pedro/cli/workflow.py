"""GitHub Actions workflow commands in what pedro prints: the runner obeys pedro's own, never one that model text,
tool output or a file's contents carry.

The runner reads every line of a step's stdout and stderr: a line whose first non-blank characters are `::`
(`::warning file=…`, `::add-mask::…`, `::stop-commands::…`) or that holds `##[` anywhere is a command, and a
carriage return starts a new line. Under `GITHUB_ACTIONS=true`, pedro's standard streams, where they are the pipes
the runner reads, pass through a `ShieldedStream`: a line the runner would obey goes out between
`::stop-commands::<token>` and `::<token>::`, with a token made at random for this process, so no text pedro
prints can end the pause early. A JSON line (`--json`) is neutralised in place instead (`#\\u0023[` for `##[`,
the same value), so stdout keeps only JSON lines. Every other line is written as it is. pedro's own commands
(triage's `::error` annotations) go out through `command`.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
import sys
from typing import Any, TextIO, cast

TOKEN = secrets.token_hex(16)
"""The word that resumes command processing: random per process, never shown to the model."""


def in_actions() -> bool:
    """Whether pedro runs as a GitHub Actions step (the runner sets GITHUB_ACTIONS=true)."""
    return os.environ.get("GITHUB_ACTIONS") == "true"


def interpreted(line: str) -> bool:
    """Whether the runner would read `line` as a workflow command (v2 `::name::`, or v1 `##[name]` anywhere)."""
    return "##[" in line or any(piece.lstrip().startswith("::") for piece in line.split("\r"))


def neutralised(line: str) -> str:
    """`line` (ending in a newline) as it can go out: as it is, a JSON line with `##[` escaped, or inside a pause."""
    if not interpreted(line):
        return line
    if line.startswith(("{", "[")):
        try:
            json.loads(line)
        except ValueError:
            pass
        else:
            # Inside a JSON string `#` may be written \u0023; outside strings JSON has no `#` at all.
            escaped = line.replace("##[", "#\\u0023[")
            if not interpreted(escaped):
                return escaped
    body = line if line.endswith("\n") else line + "\n"
    return f"::stop-commands::{TOKEN}\n{body}::{TOKEN}::\n"


class ShieldedStream:
    """A text stream whose lines reach the runner only as plain text (see the module docstring).

    Whole lines are judged; a partial line is held until its newline, or written out by flush() when it cannot
    be a command by itself. Should the rest of that line make it one, the line is broken before the rest, which
    then goes out inside a pause.
    """

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner
        self._pending = ""
        self._written = ""  # the start of the current line, already written by an earlier flush()

    def write(self, text: str) -> int:
        self._pending += text
        while "\n" in self._pending:
            line, _, self._pending = self._pending.partition("\n")
            self._emit(line + "\n")
        return len(text)

    def flush(self) -> None:
        if self._pending and not interpreted(self._written + self._pending):
            # A prompt or a streamed reply without its newline yet: show it now.
            self.inner.write(self._pending)
            self._written += self._pending
            self._pending = ""
        self.inner.flush()

    def command(self, line: str) -> None:
        """One of pedro's own workflow commands, on a line of its own, obeyed by the runner."""
        self.finish()
        if self._written:
            self.inner.write("\n")
            self._written = ""
        self.inner.write(line.rstrip("\n") + "\n")
        self.inner.flush()

    def finish(self) -> None:
        """Write out a held partial line (inside a pause if it must be) before pedro exits."""
        if self._pending:
            rest, self._pending = self._pending, ""
            self._emit(rest)
        self.inner.flush()

    def _emit(self, rest: str) -> None:
        started, self._written = self._written, ""
        if not interpreted(started + rest):
            self.inner.write(rest)
            self._written = "" if rest.endswith("\n") else started + rest
            return
        if started:
            self.inner.write("\n")  # end the runner's line before the pause starts
        self.inner.write(neutralised(rest))

    def isatty(self) -> bool:
        return self.inner.isatty()

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.inner.fileno()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def shield_streams() -> list[ShieldedStream]:
    """Under GitHub Actions, put sys.stdout and sys.stderr behind shields where they are pipes (the runner reads
    pipes; a file or a terminal it never reads); the shields installed."""
    if not in_actions():
        return []
    shields = []
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        try:
            mode = os.fstat(stream.fileno()).st_mode
        except (AttributeError, OSError, ValueError):
            continue
        if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
            shield = ShieldedStream(stream)
            setattr(sys, name, cast(TextIO, shield))
            shields.append(shield)
    return shields


def command(line: str, stream: TextIO | None = None) -> None:
    """Write one of pedro's own workflow commands (default: on stderr, which the runner reads as it does stdout)."""
    out: Any = stream if stream is not None else sys.stderr
    if isinstance(out, ShieldedStream):
        out.command(line)
    else:
        out.write(line.rstrip("\n") + "\n")
        out.flush()

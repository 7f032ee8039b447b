"""A CI log read as a stream in bounded memory: its end whole, and from before it the failure blocks and summary
lines the parsers read, whatever the log's size (docs/triage.md states the bounds)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import TextIO

from pedro.tools.testreport import strip_ansi
from pedro.triage.logparse import block_ends, block_kind, block_marks, kept_line

TAIL_CHARS = 2 * 1024 * 1024
"""The end of the log kept whole: a log up to this size is read as it is."""
KEPT_CHARS = 8 * 1024 * 1024
"""What is kept from before the end, all failure blocks and summary lines together."""
LINE_CHARS = 4096
"""A longer line is cut to this many characters."""
BLOCK_LINES = 100
"""A failure block keeps its first and its last this many lines, and its where-it-failed lines between."""
# Each line also costs its object: counting it keeps a log of a million empty lines as bounded as any other.
_LINE_COST = 64


def read_log(stream: TextIO) -> str:
    """The log to parse, read from `stream` (opened with newline="\\n", so that a lone CR stays in its line); each run
    of lines left out is one `[... N lines left out ...]` line."""
    reader = _Reader()
    for line in _capped(stream):
        reader.feed(line)
    return reader.text()


def _capped(stream: TextIO) -> Iterator[str]:
    """Lines without their ending and terminal escapes, each at most LINE_CHARS long."""
    iterator = iter(lambda: stream.readline(LINE_CHARS), "")
    for raw in iterator:
        line = raw
        # A line with no newline in sight arrives in pieces (readline's limit); the rest of it is skipped.
        while len(raw) >= LINE_CHARS and not raw.endswith("\n"):
            raw = next(iterator, "\n")
        line = line.rstrip("\n").rstrip("\r")[:LINE_CHARS]
        yield strip_ansi(line) if "\x1b" in line else line


class _Reader:
    """The tail as a queue; the lines that leave it pass the block rules, which keep what the parsers need."""

    def __init__(self) -> None:
        self.tail: deque[str] = deque()
        self.tail_cost = 0
        self.kept: list[str] = []
        self.kept_cost = 0
        self.skipped = 0
        self.kind: str | None = None
        self.taken = 0
        self.recent: deque[str] = deque()

    def feed(self, line: str) -> None:
        self.tail.append(line)
        self.tail_cost += len(line) + _LINE_COST
        while self.tail_cost > TAIL_CHARS:
            left = self.tail.popleft()
            self.tail_cost -= len(left) + _LINE_COST
            self._sift(left)

    def text(self) -> str:
        self._close_block()
        if self.skipped:
            self._mark_gap()
        return "\n".join([*self.kept, *self.tail])

    def _sift(self, line: str) -> None:
        if self.kind is not None and block_ends(self.kind, line, self.taken):
            self._close_block()
        if (kind := block_kind(line)) is not None:
            self._close_block()
            self.kind, self.taken = kind, 0
        if self.kind is None:
            self._keep(line) if kept_line(line) else self._skip()
            return
        self.taken += 1
        if self.taken <= BLOCK_LINES:
            self._keep(line)
            return
        self.recent.append(line)
        if len(self.recent) > BLOCK_LINES:
            middle = self.recent.popleft()
            self._keep(middle) if block_marks(self.kind, middle) else self._skip()

    def _close_block(self) -> None:
        for line in self.recent:
            self._keep(line)
        self.recent.clear()
        self.kind, self.taken = None, 0

    def _keep(self, line: str) -> None:
        cost = len(line) + _LINE_COST
        if self.kept_cost + cost > KEPT_CHARS:
            self._skip()
            return
        if self.skipped:
            self._mark_gap()
        self.kept.append(line)
        self.kept_cost += cost

    def _skip(self) -> None:
        self.skipped += 1

    def _mark_gap(self) -> None:
        self.kept.append(f"[... {self.skipped} lines left out ...]")
        self.skipped = 0

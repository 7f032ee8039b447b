"""The state one scan shares with the dialect parsers: the text, the registry, and whether more text may come."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pedro.toolcalls.model import Found, Issue, ProblemKind, Segment
from pedro.toolcalls.names import Registry

_WS = " \t\r\n"
MAX_ISSUES = 32  # past this many broken calls in one block the rest is noise; stop parsing it


def too_many(found: list[Found]) -> bool:
    """Whether a block has produced so many issues that parsing the rest would only cost time."""
    return len(found) > MAX_ISSUES and sum(isinstance(item, Issue) for item in found) > MAX_ISSUES


@dataclass
class Scan:
    """One text being scanned. `final` is False while streaming: incomplete markup then means "wait"."""

    text: str
    registry: Registry
    final: bool = True
    whole: bool = False
    rescan: Callable[[Scan], list[Segment]] = field(default=lambda scan: [])
    lead: int = -1
    mid_line: bool = False  # a stream's unshown tail can begin mid-line, after text that was already shown

    def at_start(self, pos: int) -> bool:
        """Whether only whitespace comes before `pos` (the reply starts there)."""
        if self.mid_line:
            return False
        if self.lead < 0:
            self.lead = len(self.text) - len(self.text.lstrip())
        return pos <= self.lead

    def skip_ws(self, pos: int) -> int:
        """The first position at or after `pos` that is not whitespace."""
        text, end = self.text, len(self.text)
        while pos < end and text[pos] in _WS:
            pos += 1
        return pos

    def sub(self, text: str, *, whole: bool = True) -> Scan:
        """A scan of a piece of this text (a fence body) with the same registry."""
        return Scan(text, self.registry, self.final, whole, self.rescan)


def truncated(scan: Scan, start: int, dialect: str, name: str = "", *, extra: list[Found] | None = None) -> Segment:
    """A call cut off by the end of the text: nothing of it runs, and a stream should wait for more."""
    found: list[Found] = list(extra or [])
    found.append(Issue("truncated", dialect, scan.text[start : start + 400], name=name))
    return Segment(len(scan.text), found, incomplete=True)


def issue(kind: ProblemKind, dialect: str, raw: str, name: str = "", error: str = "") -> Issue:
    """Shorthand for a parser issue with its raw text capped."""
    return Issue(kind, dialect, raw[:400], name=name, error=error)


def arguments_text(value: Any) -> str:
    """Arguments as text for a raw excerpt."""
    return value if isinstance(value, str) else repr(value)

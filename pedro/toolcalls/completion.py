"""The completion marker (contract §3) and narrated calls: replies that say what they would do instead of doing it."""

from __future__ import annotations

import re

_MARKER = re.compile(r"[*_#>`\s]*task[ _]complete(?:d)?[*_`]*\s*[.!:\-–—]*\s*(.*)", re.I)
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
_NARRATED = re.compile(
    r"\b(?:i(?:'ll| will| shall|'m going to| am going to| need to)|let me|let's|"
    r"now i(?:'ll| will)|next,? i(?:'ll| will))"
    r"\s+(?:now\s+|first\s+|then\s+|quickly\s+|go ahead and\s+)?"
    r"(?:call|use|run|invoke|execute|search|grep|read|open|check|look|list|edit|write|create|inspect|view|examine|"
    r"apply|modify|update|fix|test|navigate)\b",
    re.I,
)


def find_completion(text: str) -> str | None:
    """The summary after a `TASK COMPLETE` line outside code fences ("" when none), or None without a marker."""
    found = _find_marker(text)
    if found is None:
        return None
    lines, index, rest = found
    return "\n".join([rest, *lines[index + 1 :]]).strip()


def without_marker(text: str) -> str:
    """The reply as people read it: the `TASK COMPLETE` line left out (what followed it on that line kept)."""
    found = _find_marker(text)
    if found is None:
        return text.strip()
    lines, index, rest = found
    return "\n".join([*lines[:index], *([rest] if rest else []), *lines[index + 1 :]]).strip()


def _find_marker(text: str) -> tuple[list[str], int, str] | None:
    """The reply's lines, the index of the first marker line outside code fences and the text after the marker."""
    if not isinstance(text, str):
        return None
    lines = text.replace("\r\n", "\n").split("\n")
    fence: str | None = None
    for index, line in enumerate(lines):
        opener = _FENCE.match(line)
        if fence is not None:
            if (
                opener
                and opener.group(1)[0] == fence[0]
                and len(opener.group(1)) >= len(fence)
                and not opener.group(2).strip()
            ):
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        match = _MARKER.fullmatch(line)
        if match:
            return lines, index, match.group(1).strip()
    return None


def is_narrated(text: str) -> bool:
    """Whether a reply with no calls describes a tool action it did not take."""
    return bool(_NARRATED.search(text)) and find_completion(text) is None

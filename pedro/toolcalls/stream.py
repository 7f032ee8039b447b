"""Streaming display (§1.9): show text as it arrives, hold back anything that may become call markup."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from pedro.toolcalls import reasoning
from pedro.toolcalls.extract import extract, parse_text
from pedro.toolcalls.harmony import MARKERS
from pedro.toolcalls.model import Extraction
from pedro.toolcalls.names import Registry
from pedro.toolcalls.scanner import CALL_CLOSERS, new_scan, opener_prefixes, scan_text

HARMONY_HEADERS = MARKERS[:2]
_MARKER_MAX = max(len(marker) for marker in HARMONY_HEADERS)
_RESCAN_MIN = 256  # below this much pending markup, rescan on every delta


@lru_cache(maxsize=1)
def _prefixes() -> tuple[frozenset[str], int]:
    openers = opener_prefixes()
    prefixes = {opener[:size] for opener in openers for size in range(1, len(opener))}
    return frozenset(prefixes), max(len(o) for o in openers)


# tokens that only ever continue a call already open (never start one), so a call followed by them is not done
_CONTINUATIONS = (
    "<|tool_call_begin|>",
    "<|tool_call_argument_begin|>",
    "<invoke",
    "</invoke>",
    "<parameter",
    "<arg_key>",
    "<arg_value>",
    "<|plugin|>",
    "[ARGS]",
    "[CALL_ID]",
)


def _may_close(rest: str) -> bool:
    """Whether text after a call could still be part of that call (a closer or a continuation, maybe partial)."""
    rest = rest.lstrip()
    if not rest or rest.startswith(_CONTINUATIONS):
        return True
    prefixes, _ = _prefixes()
    return rest in prefixes or any(token.startswith(rest) for token in (*_closers(), *_CONTINUATIONS))


def _closed(markup: str) -> bool:
    """Whether scanned markup ends in a closing token, so that no later text can extend it."""
    markup = markup.rstrip()
    return any(markup.endswith(closer) for closer in _closers())


def _may_grow(tail: str, end: int) -> bool:
    """Whether the call that ends at `end` may still grow as more of the reply arrives."""
    # A call with no closing token yet may still grow (`<tool_call>name` + `<arg_key>…`).
    return not _closed(tail[:end]) or _may_close(tail[end : end + 64])


@lru_cache(maxsize=1)
def _closers() -> tuple[str, ...]:
    # DeepSeek's closers come in the same spellings as its openers
    variants = {c.replace("▁", sep) for c in CALL_CLOSERS if "▁" in c for sep in ("_", " ", "\\_")}
    return (*CALL_CLOSERS, *sorted(variants), *reasoning.CLOSERS, "<|END_THINKING|>")


def _held_suffix(text: str) -> int:
    """How many trailing characters could be the start of an opener and must wait."""
    prefixes, longest = _prefixes()
    for size in range(min(longest, len(text)), 0, -1):
        if text[-size:] in prefixes:
            return size
    return 0


class StreamExtractor:
    """Feed text deltas, display what `feed` returns, then `finish` for the calls of the whole reply."""

    def __init__(self, tools: Sequence[Mapping[str, Any]]) -> None:
        self._tools = tools
        self._registry = Registry(tools)
        self._buffer = ""
        self._done = 0  # the buffer up to here has been shown (or decided to be hidden)
        self._rescan_at = 0
        self._harmony = False

    def feed(self, delta: str) -> str:
        """Add a delta; return the text that is now safe to display (never raw call markup)."""
        if not isinstance(delta, str) or not delta:
            return ""
        self._buffer += delta
        # only the new text (and a marker it may complete) is searched, so a long stream stays linear
        recent = self._buffer[-(len(delta) + _MARKER_MAX) :]
        self._harmony = self._harmony or any(marker in recent for marker in HARMONY_HEADERS)
        if len(self._buffer) < self._rescan_at:
            return ""
        try:
            return self._advance()
        except Exception:  # noqa: BLE001 - a display glitch must not end the stream; finish() still parses all
            logging.getLogger("pedro").debug("streamed display of a reply failed", exc_info=True)
            return ""

    def _advance(self) -> str:
        if self._harmony:
            return ""  # a Harmony transcript is only readable whole; flush() shows its visible messages
        tail = self._buffer[self._done :]
        mid_line = self._done > 0 and self._buffer[self._done - 1] != "\n"
        segments = scan_text(new_scan(tail, self._registry, final=False, mid_line=mid_line))
        shown: list[str] = []
        cursor = 0
        for index, segment in enumerate(segments):
            last = index == len(segments) - 1
            plain = segment.role == "text" and segment.visible == segment.source and not segment.incomplete
            if plain and last:
                keep = len(segment.visible) - _held_suffix(segment.visible)
                shown.append(segment.visible[:keep])
                cursor += keep
                break
            if last or segment.incomplete:
                break
            if segment.role != "text" and _may_grow(tail, segment.end):
                break
            shown.append(segment.visible if segment.role == "text" else "")
            cursor = segment.end
        self._done += cursor
        pending = len(self._buffer) - self._done
        self._rescan_at = len(self._buffer) + (pending // 4 if pending > _RESCAN_MIN else 0)
        return "".join(shown)

    def flush(self) -> str:
        """At the end of the stream: the visible text still held back (markup stripped), for display."""
        try:
            tail = parse_text(self._buffer[self._done :], self._registry).text
        except Exception:  # noqa: BLE001 - display only; finish() is what the loop acts on
            logging.getLogger("pedro").debug("streamed display of a reply's end failed", exc_info=True)
            tail = ""
        self._done = len(self._buffer)
        return tail

    def finish(self, *, finish_reason: str | None = None) -> Extraction:
        """The extraction of the whole accumulated reply (final, not per-delta)."""
        return extract(self._buffer, self._tools, finish_reason=finish_reason)

    @property
    def text(self) -> str:
        """Everything fed so far."""
        return self._buffer

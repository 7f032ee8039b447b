"""The single left-to-right scan (§1.4): at each position the first opener wins and consumes its whole span."""

from __future__ import annotations

import heapq
from collections.abc import Callable
from functools import lru_cache

from pedro.toolcalls import bare, fences, gemma, harmony, jsontags, reasoning, special, xmlparams
from pedro.toolcalls.context import Scan
from pedro.toolcalls.model import Segment
from pedro.toolcalls.names import Registry

Handler = Callable[[Scan, int, str], Segment | None]

# end-of-turn and role tokens that are never visible text
END_TOKENS: tuple[str, ...] = (
    "<|im_end|>",
    "<|im_start|>assistant",
    "<|eot_id|>",
    "<|eom_id|>",
    "</s>",
    "<｜end▁of▁sentence｜>",
    "<|end_of_text|>",
    "<|endoftext|>",
    "<|return|>",
    "<|end|>",
    "<end_of_turn>",
    "<|END_OF_TURN_TOKEN|>",
    "<|START_RESPONSE|>",
    "<|END_RESPONSE|>",
    "<|python_end|>",
)


# closers a complete call may still be waiting for; a stream must not show them as text
CALL_CLOSERS: tuple[str, ...] = (
    "</tool_call>",
    "</function>",
    "</tool_calls>",
    "</TOOLCALL>",
    "</tools>",
    "</function_call>",
    "<|tools_suffix|>",
    "<|tool_call_end|>",
    "<|tool_calls_section_end|>",
    "<|tool_call_section_end|>",
    "</minimax:tool_call>",
    "</function_calls>",
    "</seed:tool_call>",
    "<|action_end|>",
    "<|END_ACTION|>",
    "<|python_end|>",
    "<end_function_call>",
    "<tool_call|>",
    "<｜tool▁call▁end｜>",
    "<｜tool▁calls▁end｜>",
    "```",
    *END_TOKENS,
)


# how much text after an opener a stream waits for before deciding that the opener starts no call
UNSETTLED = 48


def _drop(scan: Scan, start: int, token: str) -> Segment:
    return Segment(start + len(token), role="text")


@lru_cache(maxsize=1)
def handlers() -> dict[str, Handler]:
    """Every opener the scan knows, with the parser that consumes it."""
    table: dict[str, Handler] = dict.fromkeys(END_TOKENS, _drop)
    for module in (jsontags, xmlparams, special, bare, gemma, fences, reasoning):
        table.update(module.OPENERS)
    return table


def opener_prefixes() -> tuple[str, ...]:
    """Openers a stream must not flush a prefix of (the whitespace-led ones are matched without it)."""
    known = {t.lstrip("\n") for t in handlers()} | set(reasoning.CLOSERS) | {"```"} | set(harmony.MARKERS)
    return tuple(sorted(known, key=len))


def _text(text: str, end: int) -> Segment:
    return Segment(end, role="text", visible=text, source=text)


class _Openers:
    """Where each opener next occurs, nearest first and, at one position, longest first."""

    def __init__(self, scan: Scan, tokens: tuple[str, ...]) -> None:
        self.text = scan.text
        self.heap: list[tuple[int, int, str]] = []
        present: dict[str, bool] = {}
        for token in tokens:
            # one membership test per two-character prefix spares dozens of full-text searches for absent families
            key = token[:2]
            if key not in present:
                present[key] = key in self.text
            if present[key]:
                self.find(token, -len(token), 0)
        first = len(self.text) - len(self.text.lstrip())
        if self.text[first : first + 1] in ("{", "[") and not scan.mid_line:
            # a reply that starts with JSON is at a line start too
            heapq.heappush(self.heap, (first, 0, "\n" + self.text[first]))

    def __bool__(self) -> bool:
        return bool(self.heap)

    def pop(self) -> tuple[int, int, str]:
        return heapq.heappop(self.heap)

    def find(self, token: str, rank: int, start: int) -> None:
        """Queue the next occurrence of `token` at or after `start`, if any."""
        at = self.text.find(token, start)
        if at != -1:
            heapq.heappush(self.heap, (at, rank, token))


def _segment_at(scan: Scan, at: int, token: str, seen_reasoning: bool) -> Segment | None:
    """The span the opener at `at` starts, or None when it starts none."""
    text = scan.text
    if token in reasoning.CLOSERS:
        if seen_reasoning:
            return Segment(at + len(token), role="text")
        # forced-open thinking: the template opened <think>, so all before the closer is reasoning
        return Segment(at + len(token), role="reasoning", reasoning=text[:at])
    segment = handlers()[token](scan, at, token)
    if segment is None and not scan.final and len(text) - at - len(token) < UNSETTLED:
        # a stream: the body after a complete opener may still grow into a call (`<minimax:tool_call>\n<inv`)
        segment = Segment(len(text), role="text", visible=text[at:], incomplete=True)
    return segment


def _stays_text(text: str, at: int, segment: Segment) -> bool:
    """Inline code or an illustrative fence: plain text the scan only skips."""
    return segment.role == "text" and not segment.incomplete and segment.visible == text[at : segment.end]


def scan_text(scan: Scan) -> list[Segment]:
    """Cut the text into segments: visible text, reasoning, calls and fence calls, in order."""
    text = scan.text
    openers = _Openers(scan, (*handlers(), *reasoning.CLOSERS))
    segments: list[Segment] = []
    pos = plain = 0
    seen_reasoning = False
    while openers:
        at, rank, token = openers.pop()
        if at < pos:  # inside a span already consumed
            openers.find(token, rank, pos)
            continue
        segment = _segment_at(scan, at, token, seen_reasoning)
        if segment is None:
            openers.find(token, rank, at + 1)
            continue
        segment.end = max(segment.end, at + 1)
        if _stays_text(text, at, segment):
            pos = segment.end
            openers.find(token, rank, pos)
            continue
        if segment.role == "reasoning" and token in reasoning.CLOSERS:
            segments, plain = [], at  # forced-open reasoning takes in everything before its closer
        if at > plain:
            segments.append(_text(text[plain:at], at))
        segment.source = segment.source or text[at : segment.end]
        segments.append(segment)
        seen_reasoning = seen_reasoning or segment.role == "reasoning"
        pos = plain = segment.end
        openers.find(token, rank, pos)
    if plain < len(text):
        segments.append(_text(text[plain:], len(text)))
    return segments


def new_scan(text: str, registry: Registry, *, final: bool = True, mid_line: bool = False) -> Scan:
    """A scan of `text` whose fences can rescan their bodies; `mid_line` when text precedes it on its line."""
    return Scan(text, registry, final=final, rescan=scan_text, mid_line=mid_line)

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


def scan_text(scan: Scan) -> list[Segment]:
    """Cut the text into segments: visible text, reasoning, calls and fence calls, in order."""
    text = scan.text
    table = handlers()
    heap: list[tuple[int, int, str]] = []
    present: dict[str, bool] = {}
    for token in (*table, *reasoning.CLOSERS):
        # one membership test per two-character prefix spares dozens of full-text searches for absent families
        key = token[:2]
        if key not in present:
            present[key] = key in text
        at = text.find(token) if present[key] else -1
        if at != -1:
            heap.append((at, -len(token), token))
    first = len(text) - len(text.lstrip())
    if text[first : first + 1] in ("{", "[") and not scan.mid_line:
        heap.append((first, 0, "\n" + text[first]))  # a reply that starts with JSON is at a line start too
    heapq.heapify(heap)
    segments: list[Segment] = []
    pos = plain = 0
    seen_reasoning = False
    while heap:
        at, rank, token = heapq.heappop(heap)
        if at < pos:
            again = text.find(token, pos)
            if again != -1:
                heapq.heappush(heap, (again, rank, token))
            continue
        if token in reasoning.CLOSERS:
            segment: Segment | None = Segment(at + len(token), role="text")
            if not seen_reasoning:
                # forced-open thinking: the template opened <think>, so all before the closer is reasoning
                segments, plain = [], at
                segment = Segment(at + len(token), role="reasoning", reasoning=text[:at])
        else:
            segment = table[token](scan, at, token)
        if segment is None and not scan.final and len(text) - at - len(token) < UNSETTLED:
            # a stream: the body after a complete opener may still grow into a call (`<minimax:tool_call>\n<inv`)
            segment = Segment(len(text), role="text", visible=text[at:], incomplete=True)
        if segment is None:
            again = text.find(token, at + 1)
            if again != -1:
                heapq.heappush(heap, (again, rank, token))
            continue
        segment.end = max(segment.end, at + 1)
        if segment.role == "text" and not segment.incomplete and segment.visible == text[at : segment.end]:
            pos = segment.end  # inline code or an illustrative fence: stays plain text, only skipped by the scan
            again = text.find(token, pos)
            if again != -1:
                heapq.heappush(heap, (again, rank, token))
            continue
        if at > plain:
            segments.append(_text(text[plain:at], at))
        if not segment.source:
            segment.source = text[at : segment.end]
        segments.append(segment)
        seen_reasoning = seen_reasoning or segment.role == "reasoning"
        pos = plain = segment.end
        again = text.find(token, pos)
        if again != -1:
            heapq.heappush(heap, (again, rank, token))
    if plain < len(text):
        segments.append(_text(text[plain:], len(text)))
    return segments


def new_scan(text: str, registry: Registry, *, final: bool = True, mid_line: bool = False) -> Scan:
    """A scan of `text` whose fences can rescan their bodies; `mid_line` when text precedes it on its line."""
    return Scan(text, registry, final=final, rescan=scan_text, mid_line=mid_line)

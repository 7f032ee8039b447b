"""Reasoning blocks (§2.2): <think> and its relatives are cut out first, and calls inside them never run."""

from __future__ import annotations

from collections.abc import Callable

from pedro.toolcalls.context import Scan
from pedro.toolcalls.model import Segment

Handler = Callable[[Scan, int, str], Segment | None]

# opener -> closer, for every family in the §2.2 table that marks reasoning inside the text
PAIRS: dict[str, str] = {
    "<think>": "</think>",
    "<thinking>": "</thinking>",
    "[THINK]": "[/THINK]",
    "<seed:think>": "</seed:think>",
    "<|START_THINKING|>": "<|END_THINKING|>",
    "<|inner_prefix|>": "<|inner_suffix|>",
    "<|channel>thought": "<channel|>",
}
CLOSERS: tuple[str, ...] = tuple(PAIRS.values())


def block(scan: Scan, start: int, token: str) -> Segment | None:
    """A reasoning block; an unclosed one runs to the end of the text (truncated or looping reasoning)."""
    closer = PAIRS[token]
    body = start + len(token)
    end = scan.text.find(closer, body)
    if end == -1:
        return Segment(len(scan.text), role="reasoning", reasoning=scan.text[body:], incomplete=True)
    return Segment(end + len(closer), role="reasoning", reasoning=scan.text[body:end])


OPENERS: dict[str, Handler] = dict.fromkeys(PAIRS, block)

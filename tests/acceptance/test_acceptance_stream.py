"""Streaming display over the acceptance corpus: fed in small deltas, the shown text is the visible text, no markup."""

from __future__ import annotations

import pytest
from acceptance_corpus import Case, collapse, load_cases, load_tools

from pedro.toolcalls import StreamExtractor

# what a stream cannot know when it must show text; finish() still gets calls and text right for these
UNKNOWABLE = {
    # forced-open thinking: text is shown before the `</think>` that makes it reasoning arrives
    "glm47-forced-open-think": "forced-open reasoning",
    "deepseek-r1-forced-open": "forced-open reasoning",
    "think-forced-open": "forced-open reasoning",
    # a tool fence is hidden as a call before the structured call that turns it into an illustration arrives
    "prec-structured-plus-bash-fence": "fence before a structured call",
    "adv-python-fence-tag-then-real": "fence before a structured call",
}
TEXT_CASES = [c for c in load_cases() if isinstance(c.input, str) and c.text is not None and c.id not in UNKNOWABLE]


def _shown(case: Case, size: int) -> str:
    assert isinstance(case.input, str)
    stream = StreamExtractor(load_tools())
    shown = [stream.feed(case.input[i : i + size]) for i in range(0, len(case.input), size)]
    shown.append(stream.flush())
    return "".join(shown)


@pytest.mark.parametrize("size", [1, 3, 16])
def test_stream_shows_exactly_the_visible_text(size: int) -> None:
    """One test per delta size over every text case, so a failure lists every case at once."""
    wrong = []
    for case in TEXT_CASES:
        expected = collapse(case.text or "")
        got = collapse(_shown(case, size))
        if got != expected:
            wrong.append(f"{case.id}: expected {expected[:80]!r}, shown {got[:160]!r}")
    assert not wrong, f"{len(wrong)} of {len(TEXT_CASES)} cases show the wrong text:\n" + "\n".join(wrong)


def test_stream_finish_matches_extract() -> None:
    stream = StreamExtractor(load_tools())
    case = next(c for c in TEXT_CASES if c.id == "minimax-m2-two-invokes")
    assert isinstance(case.input, str)
    for ch in case.input:
        stream.feed(ch)
    assert [(c.name, c.arguments) for c in stream.finish().calls] == [(c["name"], c["arguments"]) for c in case.calls]


def test_unknowable_cases_exist() -> None:
    ids = {case.id for case in load_cases()}
    assert set(UNKNOWABLE) <= ids

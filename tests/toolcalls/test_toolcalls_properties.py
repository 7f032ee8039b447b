"""Property tests: extraction never raises, on arbitrary text, arbitrary JSON and mutated real replies."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_toolcalls_formats import CASES
from toolcall_registry import TOOLS

from pedro.toolcalls import StreamExtractor, extract, find_completion
from pedro.toolcalls.extract import extract_unguarded

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
REAL = [c.payload for c in CASES if isinstance(c.payload, str)]
TOKENS = [
    "<tool_call>",
    "</tool_call>",
    "<function=",
    "<parameter=",
    "</parameter>",
    "</function>",
    "```",
    "```bash\n",
    "<think>",
    "</think>",
    "[TOOL_CALLS]",
    "{",
    "}",
    "[",
    "]",
    '"',
    "'",
    "\\",
    "\n",
    "<|message|>",
    "<|start|>",
    "<|channel|>",
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁sep｜>",
    '<invoke name="bash">',
    "<arg_key>",
    "<|tool_call>",
    "<escape>",
    '<|"|>',
    "functools[",
    "<|python_tag|>",
    ">>>",
    "\r\n",
    "TASK COMPLETE",
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text: str = draw(st.sampled_from(REAL))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["cut", "insert", "delete"]))
        if action == "cut":
            text = text[:at]
        elif action == "insert":
            text = text[:at] + draw(st.sampled_from(TOKENS) | st.text(max_size=5)) + text[at:]
        else:
            text = text[:at] + text[at + draw(st.integers(1, 10)) :]
    return text


def _check(payload: Any) -> None:
    result = extract_unguarded(payload, TOOLS)
    assert isinstance(result.text, str)
    for call in result.calls:
        assert isinstance(call.arguments, dict) and call.id
        json.dumps(call.arguments)
    for problem in result.problems:
        assert problem.message


@SETTINGS
@given(st.text(max_size=300) | st.lists(st.sampled_from(TOKENS) | st.text(max_size=6), max_size=30).map("".join))
def test_arbitrary_text_never_raises(text: str) -> None:
    _check(text)
    find_completion(text)


@SETTINGS
@given(mutated())
def test_mutated_real_replies_never_raise(text: str) -> None:
    _check(text)
    for finish in ("length", "stop", None):
        extract(text, TOOLS, finish_reason=finish)


@SETTINGS
@given(json_values)
def test_arbitrary_json_never_raises(value: Any) -> None:
    _check(json.dumps(value))
    _check({"role": "assistant", "content": value, "tool_calls": value})
    _check({"tool_calls": [{"function": {"name": "bash", "arguments": value}}]})
    _check([{"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": json.dumps(value)}}]}}]}])
    _check(value if isinstance(value, (dict, list)) else [value])


@SETTINGS
@given(mutated(), st.integers(1, 9))
def test_stream_never_raises_and_agrees_with_extract(text: str, size: int) -> None:
    stream = StreamExtractor(TOOLS)
    for i in range(0, len(text), size):
        assert isinstance(stream.feed(text[i : i + size]), str)
    assert stream.finish() == extract_unguarded(text, TOOLS)

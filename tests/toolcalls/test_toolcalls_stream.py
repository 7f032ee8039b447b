"""StreamExtractor: display text as it arrives, never show raw call markup, finalise from the whole reply."""

from __future__ import annotations

from toolcall_registry import TOOLS

from pedro.toolcalls import StreamExtractor, extract

MARKUP = ("<tool", "tool_call", "[TOOL_CALLS]", "<function", "<think", '"name"', "```bash", "<|", "<｜")


def _stream(text: str, size: int) -> tuple[str, StreamExtractor]:
    stream = StreamExtractor(TOOLS)
    shown = "".join(stream.feed(text[i : i + size]) for i in range(0, len(text), size))
    return shown, stream


REPLIES = [
    'I will list the files.\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>\nThen report.',
    "<think>plan <tool_call>draft</tool_call></think>Answer: 4.",
    'Ok.[TOOL_CALLS]bash{"command": "ls"}',
    "Patch:\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\nDone.",
    "Run:\n```bash\nmake test\n```\nAfter.",
    '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>bash<｜tool▁sep｜>{"command":"ls"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    '{"name": "bash", "arguments": {"command": "ls"}}',
    # families whose markup used to leak when deltas were a few characters long
    "<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>",
    '<minimax:tool_call>\n<invoke name="bash">\n<parameter name="command">ls</parameter>\n'
    "</invoke>\n</minimax:tool_call>",
    'Ok.\n<function_calls>\n<invoke name="bash">\n<parameter name="command">ls</parameter>\n'
    "</invoke>\n</function_calls>",
    "<seed:tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\n"
    "<function=bash>\n<parameter=command>\npwd\n</parameter>\n</function>\n</seed:tool_call>",
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.bash:0<|tool_call_argument_begin|>"
    '{"command": "ls"}<|tool_call_end|><|tool_call_begin|>bash:1<|tool_call_argument_begin|>'
    '{"command": "pwd"}<|tool_call_end|><|tool_calls_section_end|>',
    '<|tool_call>call:bash{command:<|"|>ls<|"|>}<tool_call|>',
    "<start_function_call>call:bash{command:<escape>ls<escape>}<end_function_call>",
    'Look.<|action_start|><|plugin|>\n{"name": "bash", "parameters": {"command": "ls"}}<|action_end|>',
    '<｜tool_calls_begin｜><｜tool_call_begin｜>bash<｜tool_sep｜>{"command": "ls"}'
    "<｜tool_call_end｜><｜tool_calls_end｜>",
    '>>>bash\n{"command": "ls"}>>>bash\n{"command": "pwd"}',
    "<|channel|>analysis<|message|>Plan <tool_call>.<|end|><|start|>assistant<|channel|>commentary "
    'to=functions.bash <|constrain|>json<|message|>{"command": "ls"}<|call|>',
]


def test_stream_never_shows_markup_and_matches_final_text() -> None:
    for reply in REPLIES:
        final = extract(reply, TOOLS)
        for size in (1, 2, 3, 7, 64):
            shown, stream = _stream(reply, size)
            for marker in MARKUP:
                assert marker not in shown, (reply, size, shown)
            result = stream.finish()
            assert result == final
            # everything shown is part of the final visible text, in order
            assert " ".join(shown.split()) in " ".join(final.text.split()) or not shown.strip(), (reply, size, shown)


def test_stream_shows_plain_text_promptly() -> None:
    stream = StreamExtractor(TOOLS)
    assert stream.feed("Hello ") == "Hello "
    assert stream.feed("world. ") == "world. "
    assert stream.feed("<tool") == ""
    assert stream.feed("_call>") == ""
    assert stream.feed('{"name": "bash", "arguments": {"command": "ls"}}</tool_call>') == ""
    assert stream.feed(" Next.") + stream.feed("\n") == " Next.\n"
    result = stream.finish()
    assert [(c.name, c.arguments) for c in result.calls] == [("bash", {"command": "ls"})]


def test_stream_illustrative_fence_is_shown_once_closed() -> None:
    shown, stream = _stream("See:\n```go\nfmt.Println(1)\n```\nbye", 4)
    assert "fmt.Println(1)" in shown
    assert stream.finish().calls == ()


def test_stream_holds_partial_opener_suffix() -> None:
    stream = StreamExtractor(TOOLS)
    assert stream.feed("abc <tool_") == "abc "
    assert stream.feed("x> more") == "<tool_x> more"


def test_stream_truncated_call_with_length() -> None:
    shown, stream = _stream('Writing.\n<tool_call>{"name": "bash", "arguments": {"command": "rm -rf b', 5)
    assert shown.strip() == "Writing."
    result = stream.finish(finish_reason="length")
    assert result.calls == ()
    assert [p.kind for p in result.problems] == ["truncated"]


def test_stream_long_call_is_fast_enough_to_be_linear() -> None:
    body = "x" * 200_000
    reply = (
        '<tool_call>{"name": "file", "arguments": {"action": "write", "path": "a", "content": "'
        + body
        + '"}}</tool_call>'
    )
    shown, stream = _stream(reply, 16)
    assert shown == ""
    assert stream.finish().calls[0].arguments["content"] == body


def test_flush_returns_held_back_visible_text() -> None:
    for reply in REPLIES:
        for size in (1, 5):
            shown, stream = _stream(reply, size)
            shown += stream.flush()
            assert " ".join(shown.split()) == " ".join(extract(reply, TOOLS).text.split()), (reply, size, shown)
            for marker in MARKUP:
                assert marker not in shown


def test_stream_keeps_code_and_prose_it_cannot_yet_judge() -> None:
    """Inline code and mid-sentence JSON are text; small deltas must not hide them as calls."""
    for reply in (
        'Models emit `<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>` in Hermes format.',
        'The payload looks like {"name": "bash", "arguments": {"command": "ls"}} when sent.',
        '- example: [{"name": "bash", "arguments": {"command": "ls"}}]',
    ):
        for size in (1, 2, 5):
            shown, stream = _stream(reply, size)
            assert " ".join((shown + stream.flush()).split()) == reply, (reply, size)
            assert not stream.finish().calls


def test_stream_shows_harmony_final_message_only() -> None:
    reply = "<|channel|>analysis<|message|>secret plan<|end|><|start|>assistant<|channel|>final<|message|>Hi!<|return|>"
    for size in (1, 4):
        shown, stream = _stream(reply, size)
        assert shown + stream.flush() == "Hi!"

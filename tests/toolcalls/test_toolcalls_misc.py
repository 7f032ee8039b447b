"""find_completion, problem messages (a correct example in the dialect used), ids, and the registry rules."""

from __future__ import annotations

from toolcall_registry import TOOLS

from pedro.toolcalls import extract, find_completion


def test_find_completion_marker_and_summary() -> None:
    assert find_completion("Fixed it.\nTASK COMPLETE\nAdded a nil check.") == "Added a nil check."
    assert find_completion("task_complete") == ""
    assert find_completion("**TASK COMPLETE**\n\nAll tests pass.") == "All tests pass."
    assert find_completion("TASK COMPLETE: fixed the parser") == "fixed the parser"


def test_find_completion_ignores_fences_and_inline_mentions() -> None:
    assert find_completion("```\nTASK COMPLETE\n```\nstill working") is None
    assert find_completion("When done, print TASK COMPLETE on its own line.") is None
    assert find_completion("no marker here") is None
    assert find_completion("````md\n```\nTASK COMPLETE\n```\n````\nTASK COMPLETE\nok") == "ok"


def test_unknown_tool_problem_names_available_tools_and_shows_example() -> None:
    result = extract('<tool_call>{"name": "deploy", "arguments": {}}</tool_call>', TOOLS)
    (problem,) = result.problems
    assert problem.kind == "unknown_tool"
    assert "deploy" in problem.message
    assert "code_edit" in problem.message and "bash" in problem.message
    assert "<tool_call>" in problem.message  # the example uses the dialect the model used
    assert "deploy" in problem.raw


def test_problem_examples_follow_the_dialect() -> None:
    cases = {
        '[TOOL_CALLS]bash{"command": ls}': "[TOOL_CALLS]",
        "<function=bash>\n<parameter=command>\nls\n</parameter>\n": "<parameter=",
        "```search\nfind it\n```": "```search",
        "<tool_call>get_weather\n<arg_key>location": "<arg_key>",
        '<|tool_call>call:bash{command:<|"|>ls': '<|"|>',
    }
    for payload, marker in cases.items():
        result = extract(payload, TOOLS)
        assert result.problems, payload
        assert marker in result.problems[0].message, (payload, result.problems[0].message)


def test_truncated_problem_example_is_complete_call() -> None:
    result = extract('<tool_call>{"name": "file", "arguments": {"action": "write", "path": "a", "content": "x', TOOLS)
    (problem,) = result.problems
    assert problem.kind == "truncated"
    assert '"action": "read"' in problem.message and "</tool_call>" in problem.message


def test_narrated_problem_only_without_calls() -> None:
    text = 'I\'ll call the search tool.\n<tool_call>{"name": "search", "arguments": {"pattern": "x"}}</tool_call>'
    assert extract(text, TOOLS).problems == ()
    narrated = extract("Let me use the bash tool to list files.", TOOLS)
    assert [p.kind for p in narrated.problems] == ["narrated"]
    assert "```" in narrated.problems[0].message


def test_ids_are_deterministic_per_reply() -> None:
    text = "<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\n" * 3
    first = extract(text, TOOLS)
    assert [c.id for c in first.calls] == ["call_0", "call_1", "call_2"]
    assert [c.id for c in extract(text, TOOLS).calls] == ["call_0", "call_1", "call_2"]


def test_name_normalisation_case_and_hyphen() -> None:
    result = extract('<tool_call>{"name": "Code-Edit", "arguments": {"path": "a"}}</tool_call>', TOOLS)
    assert [c.name for c in result.calls] == ["code_edit"]


def test_empty_registry_reports_unknown_tool() -> None:
    result = extract('<tool_call>{"name": "bash", "arguments": {}}</tool_call>', [])
    assert result.calls == ()
    assert [p.kind for p in result.problems] == ["unknown_tool"]


def test_plain_text_is_untouched() -> None:
    text = "Plain answer with <b>html</b>, a {brace} and [brackets].\n\nSecond paragraph."
    result = extract(text, TOOLS)
    assert (result.calls, result.problems, result.text) == ((), (), text)


def test_garbage_inside_payload_types_never_raises() -> None:
    for payload in (
        {"tool_calls": [1, None, {"function": 3}]},
        {"choices": "x"},
        [None, 3, {"choices": [None]}],
        {"content": [None, {"text": 5}]},
        {"tool_calls": [{"function": {"name": None}}]},
    ):
        result = extract(payload, TOOLS)  # type: ignore[arg-type]
        assert result.calls == ()
    assert extract("x", [None, {"function": None}, {"name": 5}]).calls == ()  # type: ignore[list-item]


def test_every_dialect_example_and_problem_template_renders() -> None:
    from pedro.prompts import prompts_dir
    from pedro.toolcalls.model import Issue
    from pedro.toolcalls.names import Registry
    from pedro.toolcalls.problems import render_example, render_problem

    registry = Registry(TOOLS)
    dialects = [path.stem for path in (prompts_dir() / "feedback/format/examples").glob("*.md")]
    assert len(dialects) >= 30
    for dialect in dialects:
        example = render_example(registry, dialect, "get_weather")
        assert "$" not in example and ("get_weather" in example or dialect == "fenced_bash"), dialect
    for kind in (
        "truncated",
        "invalid_json",
        "unknown_tool",
        "not_json",
        "invalid_name",
        "invalid_arguments",
        "missing_name",
    ):
        problem = render_problem(Issue(kind, "hermes", "raw", name="bash"), registry)  # type: ignore[arg-type]
        assert problem.kind == kind and "<tool_call>" in problem.message and "$" not in problem.message


def test_glued_python_strings_are_not_repaired_into_a_call() -> None:
    """`"ls" "x"` parses as Python only by gluing the strings: a broken call, not a repr; its sibling still runs."""
    reply = (
        '<tool_call>\n{"name": "bash", "arguments": {"command": "ls" "x"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "navigate", "arguments": {"path": "lib"}}\n</tool_call>'
    )
    result = extract(reply, TOOLS)
    assert [(c.name, c.arguments) for c in result.calls] == [("navigate", {"path": "lib"})]
    assert [p.kind for p in result.problems] == ["invalid_json"]
    native = {"role": "assistant", "tool_calls": [{"function": {"name": "bash", "arguments": "{'command': 'a' 'b'}"}}]}
    assert extract(native, TOOLS).calls == ()
    repr_args = {"role": "assistant", "tool_calls": [{"function": {"name": "bash", "arguments": "{'command': 'a b'}"}}]}
    assert [c.arguments for c in extract(repr_args, TOOLS).calls] == [{"command": "a b"}]


def test_functionary_v32_calls_glued_to_text_and_calls() -> None:
    """v3.2 writes `>>>` right after the previous call or the `all` text, not at a line start."""
    result = extract('>>>all\nLet me check.>>>bash\n{"command": "ls"}>>>navigate\n{"path": "a"}', TOOLS)
    assert [(c.name, c.arguments) for c in result.calls] == [("bash", {"command": "ls"}), ("navigate", {"path": "a"})]
    assert result.text == "Let me check."
    prose = extract("A shell prompt >>> ls\n{not json} and >>>frob\n{}", TOOLS)
    assert prose.calls == () and ">>> ls" in prose.text and ">>>frob" in prose.text

"""Table-driven extraction cases: every format of toolcall-formats.md, with expected calls and visible text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from toolcall_registry import TOOLS

from pedro.toolcalls import extract


@dataclass(frozen=True)
class Case:
    id: str
    payload: Any
    calls: list[tuple[str, dict[str, Any]]]
    text: str | None = None
    problems: list[str] = field(default_factory=list)
    finish_reason: str | None = None
    dialect: str | None = None


def _ws(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


FENCE = "```"
LS = {"command": "ls"}
WEATHER = {"location": "Tokyo"}

CASES: list[Case] = [
    # --- §8.4 fenced convention -------------------------------------------------------------------------------
    Case(
        "fenced_search",
        'Looking.\n```search\n{"pattern": "GenerateInstances", "path": "pkg/"}\n```\nDone.',
        [("search", {"pattern": "GenerateInstances", "path": "pkg/"})],
        "Looking. Done.",
        dialect="fenced",
    ),
    Case(
        "fenced_tool_explicit",
        '```tool\n{"name": "file", "arguments": {"action": "read", "path": "a.go"}}\n```',
        [("file", {"action": "read", "path": "a.go"})],
        "",
    ),
    Case("fenced_bash_raw", "```bash\ngo test ./...\n```", [("bash", {"command": "go test ./..."})], ""),
    Case("fenced_bash_multiline", "```bash\ncd pkg\nmake test\n```\n", [("bash", {"command": "cd pkg\nmake test"})]),
    Case(
        "fenced_bash_json_body",
        '```bash\n{"command": "ls", "timeout": 5}\n```',
        [("bash", {"command": "ls", "timeout": 5})],
    ),
    Case(
        "fenced_bash_group_command",
        "```bash\n{ make; make test; }\n```",
        [("bash", {"command": "{ make; make test; }"})],
    ),
    Case("fenced_info_trailing_spaces", "```bash   \nls\n```", [("bash", LS)]),
    Case(
        "fenced_several_in_order",
        '```bash\nls\n```\n\n```git\n{"action": "status"}\n```',
        [("bash", LS), ("git", {"action": "status"})],
    ),
    Case(
        "fenced_four_backticks_heredoc",
        "````bash\ncat > README.md <<'EOF'\n```python\nprint(1)\n```\nEOF\n````",
        [("bash", {"command": "cat > README.md <<'EOF'\n```python\nprint(1)\n```\nEOF"})],
    ),
    Case(
        "fenced_heredoc_with_bare_fences",
        "```bash\ncat > x.md <<EOF\n```\ncode\n```\nEOF\n```",
        [("bash", {"command": "cat > x.md <<EOF\n```\ncode\n```\nEOF"})],
    ),
    Case("fenced_go_is_illustration", "Example:\n```go\nfmt.Println(1)\n```", [], "Example: ```go fmt.Println(1) ```"),
    Case("fenced_sh_is_not_a_call", "```sh\nls\n```", [], "```sh ls ```"),
    Case(
        "fenced_nested_in_markdown_is_text",
        "````markdown\n```bash\nrm -rf /\n```\n````",
        [],
        "````markdown ```bash rm -rf / ``` ````",
    ),
    Case(
        "fenced_nested_same_length",
        "```markdown\n```bash\nrm -rf build\n```\n```",
        [],
        "```markdown ```bash rm -rf build ``` ```",
    ),
    Case("fenced_unclosed_raw_bash_never_runs", "```bash\nrm -rf build", [], "", ["truncated"]),
    Case("fenced_unclosed_complete_json_runs", '```search\n{"pattern": "x"}', [("search", {"pattern": "x"})]),
    Case(
        "fenced_unclosed_truncated_json",
        '```file\n{"action": "write", "path": "a", "content": "par',
        [],
        "",
        ["truncated"],
    ),
    Case("fenced_non_json_body_other_tool", "```search\nfind the thing\n```", [], "", ["not_json"]),
    Case("fenced_invalid_json_body", '```search\n{"pattern": x}\n```', [], "", ["invalid_json"]),
    Case(
        "fenced_structured_call_wins",
        "Run it:\n```bash\nmake test\n```\n"
        '<tool_call>{"name": "bash", "arguments": {"command": "make test"}}</tool_call>',
        [("bash", {"command": "make test"})],
        "Run it: ```bash make test ```",
        dialect="hermes",
    ),
    Case(
        "fenced_tag_inside_python_fence_is_text",
        '```js\nprompt = "<tool_call>{\\"name\\": \\"bash\\"}</tool_call>"\n```',
        [],
        '```js prompt = "<tool_call>{\\"name\\": \\"bash\\"}</tool_call>" ```',
    ),
    Case("fenced_crlf", "```bash\r\nls -la\r\n```\r\n", [("bash", {"command": "ls -la"})]),
    Case("fence_inside_reasoning_not_call", "<think>\n```bash\nls\n```\n</think>All good.", [], "All good."),
    # --- fences wrapping structured calls (unwrapping artifact) ------------------------------------------------
    Case(
        "json_fence_wrapping_call", '```json\n{"name": "bash", "arguments": {"command": "ls"}}\n```', [("bash", LS)], ""
    ),
    Case(
        "xml_fence_wrapping_hermes",
        '```xml\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>\n```',
        [("bash", LS)],
        "",
    ),
    Case(
        "json_fence_data_is_text",
        '```json\n{"name": "John", "age": 3}\n```',
        [],
        '```json {"name": "John", "age": 3} ```',
    ),
    # --- §3.1 Hermes -------------------------------------------------------------------------------------------
    Case(
        "hermes_basic",
        'I will search.\n<tool_call>\n{"name": "search", "arguments": {"pattern": "GenerateInstances", "path": "pkg/"}}'
        "\n</tool_call>\nI'll report back.",
        [("search", {"pattern": "GenerateInstances", "path": "pkg/"})],
        "I will search. I'll report back.",
        dialect="hermes",
    ),
    Case(
        "hermes_parallel",
        '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "git", "arguments": {"action": "status"}}\n</tool_call>',
        [("bash", LS), ("git", {"action": "status"})],
        "",
    ),
    Case(
        "hermes_literal_close_tag_in_string",
        '<tool_call>{"name": "file", "arguments": {"action": "write", "path": "t.txt", "content": "a</tool_call>b"}}'
        "</tool_call>",
        [("file", {"action": "write", "path": "t.txt", "content": "a</tool_call>b"})],
        "",
    ),
    Case(
        "hermes_missing_close_tag", '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}', [("bash", LS)], ""
    ),
    Case(
        "hermes_trailing_comma_python_literals",
        "<tool_call>{'name': 'bash', 'arguments': {'command': 'ls', 'timeout': None,},}</tool_call>",
        [("bash", {"command": "ls", "timeout": None})],
        "",
    ),
    Case(
        "hermes_true_none",
        '<tool_call>{"name": "git", "arguments": {"action": "diff", "staged": True}}</tool_call>',
        [("git", {"action": "diff", "staged": True})],
        "",
    ),
    Case(
        "hermes_args_as_string",
        '<tool_call>{"name": "bash", "arguments": "{\\"command\\": \\"ls\\"}"}</tool_call>',
        [("bash", LS)],
        "",
    ),
    Case(
        "hermes_args_double_encoded",
        '<tool_call>{"name": "bash", "arguments": "\\"{\\\\\\"command\\\\\\": \\\\\\"ls\\\\\\"}\\""}</tool_call>',
        [("bash", LS)],
        "",
    ),
    Case("hermes_args_missing", '<tool_call>{"name": "get_current_time"}</tool_call>', [("get_current_time", {})], ""),
    Case(
        "hermes_args_empty_string",
        '<tool_call>{"name": "get_current_time", "arguments": ""}</tool_call>',
        [("get_current_time", {})],
        "",
    ),
    Case(
        "hermes_parameters_key",
        '<tool_call>{"name": "bash", "parameters": {"command": "ls"}}</tool_call>',
        [("bash", LS)],
        "",
    ),
    Case(
        "hermes_openai_wire_object",
        '<tool_call>{"type": "function", "function": {"name": "bash", "arguments": "{\\"command\\": \\"ls\\"}"}}'
        "</tool_call>",
        [("bash", LS)],
        "",
    ),
    Case(
        "hermes_extra_brace",
        '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}}</tool_call>',
        [("bash", LS)],
        "",
    ),
    Case(
        "hermes_missing_final_brace",
        '<tool_call>{"name": "bash", "arguments": {"command": "ls"}</tool_call>',
        [("bash", LS)],
        "",
    ),
    Case(
        "hermes_functions_prefix",
        '<tool_call>{"name": "functions.bash", "arguments": {"command": "ls"}}</tool_call>',
        [("bash", LS)],
        "",
    ),
    Case(
        "hermes_surrogate_pair",
        '<tool_call>{"name": "bash", "arguments": {"command": "echo \\ud83d\\ude80"}}</tool_call>',
        [("bash", {"command": "echo \U0001f680"})],
        "",
    ),
    Case(
        "hermes_backslash_n_stays_two_chars",
        '<tool_call>{"name": "file", "arguments": {"action": "write", "path": "m.go", '
        '"content": "fmt.Printf(\\"%d\\\\n\\", x)"}}</tool_call>',
        [("file", {"action": "write", "path": "m.go", "content": 'fmt.Printf("%d\\n", x)'})],
        "",
    ),
    Case(
        "hermes_escaped_quotes_shell",
        '<tool_call>{"name": "bash", "arguments": {"command": "grep -r \\"foo bar\\" ."}}</tool_call>',
        [("bash", {"command": 'grep -r "foo bar" .'})],
        "",
    ),
    Case(
        "hermes_large_argument",
        '<tool_call>{"name": "file", "arguments": {"action": "write", "path": "big.txt", "content": "'
        + "x" * 8192
        + '"}}</tool_call>',
        [("file", {"action": "write", "path": "big.txt", "content": "x" * 8192})],
        "",
    ),
    Case(
        "hermes_in_xml_fence",
        '```xml\n<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>\n```',
        [("bash", LS)],
        "",
    ),
    Case(
        "hermes_fence_inside_value",
        '<tool_call>{"name": "file", "arguments": {"action": "write", "path": "R.md", "content": "```bash\\nls\\n```"}}'
        "</tool_call>",
        [("file", {"action": "write", "path": "R.md", "content": "```bash\nls\n```"})],
        "",
    ),
    Case(
        "hermes_truncated_length",
        '<tool_call>{"name": "bash", "arguments": {"command": "rm -rf b',
        [],
        "",
        ["truncated"],
        finish_reason="length",
    ),
    Case(
        "hermes_bad_call_keeps_sibling",
        '<tool_call>{"name": "bash", "arguments": {"command": ls}}</tool_call>\n'
        '<tool_call>{"name": "git", "arguments": {"action": "status"}}</tool_call>',
        [("git", {"action": "status"})],
        "",
        ["invalid_json"],
    ),
    Case("hermes_unknown_tool", '<tool_call>{"name": "deploy", "arguments": {}}</tool_call>', [], "", ["unknown_tool"]),
    Case("hermes_missing_name", '<tool_call>{"arguments": {"command": "ls"}}</tool_call>', [], "", ["missing_name"]),
    Case(
        "hermes_args_plain_string",
        '<tool_call>{"name": "bash", "arguments": "hello"}</tool_call>',
        [],
        "",
        ["not_json"],
    ),
    Case(
        "hermes_mention_in_prose",
        "Use the <tool_call> tag to call tools.",
        [],
        "Use the <tool_call> tag to call tools.",
    ),
    Case(
        "hermes_in_inline_code",
        'Write `<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>` here.',
        [],
        'Write `<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>` here.',
    ),
    Case(
        "hermes_end_tokens_stripped",
        '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call><|im_end|>',
        [("bash", LS)],
        "",
    ),
    Case(
        "hermes_crlf",
        'Ok.\r\n<tool_call>\r\n{"name": "bash", "arguments": {"command": "ls"}}\r\n</tool_call>\r\n',
        [("bash", LS)],
        "Ok.",
    ),
    Case(
        "hermes_double_escaped_quotes",
        '<tool_call>{"name": "bash", "arguments": "{\\\\"command\\\\": \\\\"ls\\\\"}"}</tool_call>',
        [("bash", LS)],
        "",
    ),
    Case(
        "hermes_phantom_name",
        '<tool_call>{"name": "{{ tool.name }}", "arguments": {}}</tool_call>',
        [],
        "",
        ["invalid_name"],
    ),
    # --- §3.2-3.5 relatives -------------------------------------------------------------------------------------
    Case("granite30", '<|tool_call|>[{"name": "bash", "arguments": {"command": "ls"}}]', [("bash", LS)], ""),
    Case(
        "granite31_array_no_close",
        '<tool_call>[{"name": "bash", "arguments": {"command": "ls"}}, '
        '{"name": "git", "arguments": {"action": "log"}}]',
        [("bash", LS), ("git", {"action": "log"})],
        "",
    ),
    Case(
        "granite20b_function_call",
        '<function_call> {"name": "bash", "arguments": {"command": "ls"}}',
        [("bash", LS)],
        "",
    ),
    Case(
        "jamba",
        '<tool_calls>[{"name": "get_weather", "arguments": {"location": "Tokyo"}}]</tool_calls>',
        [("get_weather", WEATHER)],
        "",
    ),
    Case(
        "minimax_text01_jsonl",
        '<tool_calls>\n{"name": "bash", "arguments": {"command": "ls"}}\n{"name": "get_weather", "arguments": '
        '{"location": "Tokyo"}}\n</tool_calls>',
        [("bash", LS), ("get_weather", WEATHER)],
        "",
    ),
    Case("nemotron", '<TOOLCALL>[{"name": "bash", "arguments": {"command": "ls"}}]</TOOLCALL>', [("bash", LS)], ""),
    Case(
        "lfm2_json",
        '<|tool_call_start|>[{"name": "bash", "arguments": {"command": "ls"}}]<|tool_call_end|>',
        [("bash", LS)],
        "",
    ),
    Case(
        "lfm2_pythonic",
        '<|tool_call_start|>[get_weather(location="Tokyo")]<|tool_call_end|>Checking.',
        [("get_weather", WEATHER)],
        "Checking.",
    ),
    Case(
        "apertus_short_form",
        '<|tools_prefix|>[{"get_weather": {"location": "Tokyo"}}]<|tools_suffix|>',
        [("get_weather", WEATHER)],
        "",
    ),
    Case(
        "qwen25_coder_tools",
        '<tools>\n{"name": "bash", "arguments": {"command": "ls"}}\n'
        '{"name": "git", "arguments": {"action": "status"}}\n'
        "</tools>",
        [("bash", LS), ("git", {"action": "status"})],
        "",
    ),
    Case(
        "phi4_functools_bracket_in_args",
        'functools[{"name": "git", "arguments": {"action": "diff", "paths": ["a.go", "b.go"]}}]',
        [("git", {"action": "diff", "paths": ["a.go", "b.go"]})],
        "",
    ),
    Case(
        "firefunction_functools_leading_space",
        ' functools[{"name": "bash", "parameters": {"command": "ls"}}]',
        [("bash", LS)],
        "",
    ),
    Case(
        "llamacpp_function_tag_variant",
        '<function_call>{"name": "bash", "arguments": {"command": "ls"}}</function_call>',
        [("bash", LS)],
        "",
    ),
    Case(
        "llamacpp_response_tag_anchor",
        '<response>{"name": "bash", "arguments": {"command": "ls"}}</response>',
        [("bash", LS)],
        "",
    ),
    Case("response_tag_without_call_is_text", "<response>All done.</response>", [], "<response>All done.</response>"),
    # --- §4 XML-parameter formats --------------------------------------------------------------------------------
    Case(
        "qwen3_coder",
        "<tool_call>\n<function=file>\n<parameter=action>\nread\n</parameter>\n<parameter=path>\ninternal/cache/lru.go\n"
        "</parameter>\n<parameter=start_line>\n40\n</parameter>\n</function>\n</tool_call>",
        [("file", {"action": "read", "path": "internal/cache/lru.go", "start_line": 40})],
        "",
        dialect="qwen3_xml",
    ),
    Case(
        "qwen3_coder_keeps_indentation",
        "<tool_call>\n<function=file>\n<parameter=action>\nwrite\n</parameter>\n<parameter=path>\na.py\n</parameter>\n"
        "<parameter=content>\n    x = 1\n\n</parameter>\n</function>\n</tool_call>",
        [("file", {"action": "write", "path": "a.py", "content": "    x = 1\n"})],
        "",
    ),
    Case(
        "qwen3_coder_value_with_example_call",
        "<tool_call>\n<function=file>\n<parameter=action>\nwrite\n</parameter>\n<parameter=path>\ndocs/x.md\n</parameter>\n"
        "<parameter=content>\nExample:\n<tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\n"
        "</tool_call>\nDone.\n</parameter>\n</function>\n</tool_call>",
        [
            (
                "file",
                {
                    "action": "write",
                    "path": "docs/x.md",
                    "content": "Example:\n<tool_call>\n<function=bash>\n"
                    "<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>\nDone.",
                },
            )
        ],
        "",
    ),
    Case(
        "qwen3_coder_raw_symbols",
        "<tool_call>\n<function=bash>\n<parameter=command>\nmake && test 1 >= 0 < 2\n</parameter>\n"
        "</function>\n</tool_call>",
        [("bash", {"command": "make && test 1 >= 0 < 2"})],
        "",
    ),
    Case(
        "qwen3_coder_fence_in_value",
        "<tool_call>\n<function=file>\n<parameter=action>\nwrite\n</parameter>\n<parameter=path>\nR.md\n</parameter>\n"
        "<parameter=content>\n```bash\nls\n```\n</parameter>\n</function>\n</tool_call>",
        [("file", {"action": "write", "path": "R.md", "content": "```bash\nls\n```"})],
        "",
    ),
    Case(
        "qwen3_coder_bare_function",
        "<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>",
        [("bash", LS)],
        "",
    ),
    Case(
        "qwen3_coder_missing_param_close",
        "<tool_call>\n<function=file>\n<parameter=action>\nread\n<parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>",
        [("file", {"action": "read", "path": "a.go"})],
        "",
    ),
    Case(
        "qwen3_coder_truncated",
        "<tool_call>\n<function=file>\n<parameter=action>\nwrite\n</parameter>\n"
        "<parameter=path>\na.go\n</parameter>\n<parameter=content>\npackage ma",
        [],
        "",
        ["truncated"],
        finish_reason="length",
    ),
    Case(
        "qwen3_coder_missing_function_close_eof",
        "<function=bash>\n<parameter=command>\nls\n</parameter>\n",
        [],
        "",
        ["truncated"],
    ),
    Case(
        "qwen3_coder_phantom_name",
        "<tool_call>\n<function={{ tool.name }}>\n</function>\n</tool_call>",
        [],
        "",
        ["invalid_name"],
    ),
    Case(
        "qwen3_coder_untyped_unknown_param_stays_string",
        "<function=get_weather>\n<parameter=location>\nTokyo\n</parameter>\n<parameter=extra>\n5\n</parameter>\n</function>",
        [("get_weather", {"location": "Tokyo", "extra": "5"})],
        "",
    ),
    Case(
        "qwen3_coder_null_and_object",
        "<function=get_weather>\n<parameter=location>\nTokyo\n</parameter>\n<parameter=opts>\n{'metric': True}\n"
        "</parameter>\n</function>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n<parameter=timeout>\nnull\n"
        "</parameter>\n</function>",
        [
            ("get_weather", {"location": "Tokyo", "opts": {"metric": True}}),
            ("bash", {"command": "ls", "timeout": None}),
        ],
        "",
    ),
    Case(
        "xml_compat_apply_patch_ids",
        "Patch:\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\n"
        "<function=bash>\n<parameter=command>\npwd\n</parameter>\n</function>\nDone.",
        [("bash", LS), ("bash", {"command": "pwd"})],
        "Patch: Done.",
    ),
    Case(
        "seed_oss",
        "<seed:think>plan <seed:cot_budget_reflect>x</seed:cot_budget_reflect></seed:think>"
        "<seed:tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\n</seed:tool_call>",
        [("bash", LS)],
        "",
    ),
    Case(
        "glm45",
        "<tool_call>get_weather\n<arg_key>location</arg_key>\n<arg_value>Beijing</arg_value>\n</tool_call>",
        [("get_weather", {"location": "Beijing"})],
        "",
        dialect="glm",
    ),
    Case(
        "glm47_no_newline",
        "<tool_call>file<arg_key>action</arg_key><arg_value>read</arg_value><arg_key>path</arg_key><arg_value>a.ts"
        "</arg_value><arg_key>start_line</arg_key><arg_value>3</arg_value></tool_call>",
        [("file", {"action": "read", "path": "a.ts", "start_line": 3})],
        "",
    ),
    Case("glm_zero_args", "<tool_call>get_current_time</tool_call>", [("get_current_time", {})], ""),
    Case(
        "glm_forced_open_reasoning",
        "Thinking about it.</think><tool_call>get_current_time</tool_call>",
        [("get_current_time", {})],
        "",
    ),
    Case("glm_truncated", "<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>rm -rf b", [], "", ["truncated"]),
    Case(
        "minimax_m2",
        '<minimax:tool_call>\n<invoke name="search">\n<parameter name="pattern">RetryPolicy</parameter>\n'
        '<parameter name="max_results">5</parameter>\n</invoke>\n<invoke name="bash">\n<parameter name="command">ls'
        "</parameter>\n</invoke>\n</minimax:tool_call>",
        [("search", {"pattern": "RetryPolicy", "max_results": 5}), ("bash", LS)],
        "",
    ),
    Case(
        "claude_invoke",
        'Sure.\n<function_calls>\n<invoke name="bash">\n<parameter name="command">ls -la</parameter>\n</invoke>\n'
        "</function_calls>",
        [("bash", {"command": "ls -la"})],
        "Sure.",
    ),
    Case(
        "invoke_truncated",
        '<function_calls>\n<invoke name="bash">\n<parameter name="command">rm -rf bu',
        [],
        "",
        ["truncated"],
    ),
    Case("functionary_v31", '<function=bash>{"command": "ls"}</function>', [("bash", LS)], ""),
    Case("function_name_attribute", '<function name="bash">{"command": "ls"}</function>', [("bash", LS)], ""),
    Case(
        "functiongemma",
        "<start_function_call>call:get_weather{location:<escape>Tokyo, JP<escape>,days:3}<end_function_call>",
        [("get_weather", {"location": "Tokyo, JP", "days": 3})],
        "",
    ),
    Case(
        "gemma4",
        '<|tool_call>call:get_weather{location:<|"|>Tokyo<|"|>,days:3}<tool_call|>',
        [("get_weather", {"location": "Tokyo", "days": 3})],
        "",
    ),
    Case(
        "gemma4_thought",
        '<|channel>thought plan <channel|>Sure.<|tool_call>call:bash{command:<|"|>ls<|"|>}<tool_call|>',
        [("bash", LS)],
        "Sure.",
    ),
    # --- §5 special tokens ---------------------------------------------------------------------------------------
    Case(
        "mistral_pre_v11",
        '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"location": "Lyon"}}]</s>',
        [("get_weather", {"location": "Lyon"})],
        "",
    ),
    Case(
        "mistral_v11_multi",
        'Ok.[TOOL_CALLS]get_weather{"location": "Lyon"}[TOOL_CALLS]bash{"command": "echo {}"}',
        [("get_weather", {"location": "Lyon"}), ("bash", {"command": "echo {}"})],
        "Ok.",
    ),
    Case("mistral_v13_args", '[TOOL_CALLS]search[ARGS]{"pattern": "x"}', [("search", {"pattern": "x"})], ""),
    Case(
        "mistral_think",
        '[THINK]hmm [TOOL_CALLS]bash{"command": "rm"}[/THINK][TOOL_CALLS]bash{"command": "ls"}',
        [("bash", LS)],
        "",
    ),
    Case(
        "deepseek_v3",
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"location": '
        '"Hangzhou"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>',
        [("get_weather", {"location": "Hangzhou"})],
        "",
    ),
    Case(
        "deepseek_v31",
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>search<｜tool▁sep｜>{"pattern":"x"}<｜tool▁call▁end｜>'
        '<｜tool▁call▁begin｜>bash<｜tool▁sep｜>{"command":"ls"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("search", {"pattern": "x"}), ("bash", LS)],
        "",
    ),
    Case(
        "deepseek_underscore_variant",
        '<｜tool_calls_begin｜><｜tool_call_begin｜>bash<｜tool_sep｜>{"command":"ls"}<｜tool_call_end｜><｜tool_calls_end｜>',
        [("bash", LS)],
        "",
    ),
    Case(
        "deepseek_space_variant",
        '<｜tool calls begin｜><｜tool call begin｜>bash<｜tool sep｜>{"command":"ls"}'
        "<｜tool call end｜><｜tool calls end｜>",
        [("bash", LS)],
        "",
    ),
    Case(
        "deepseek_v3_fence_in_value",
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>file\n```json\n{"action": "write", "path":'
        ' "R.md", "content": "```\\nx\\n```"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("file", {"action": "write", "path": "R.md", "content": "```\nx\n```"})],
        "",
    ),
    Case(
        "deepseek_r1_forced_open",
        "I should list files.</think>\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>bash"
        '<｜tool▁sep｜>{"command":"ls"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("bash", LS)],
        "",
    ),
    Case(
        "kimi_k2",
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
        '{"location":"Beijing"}<|tool_call_end|><|tool_call_begin|>git:1<|tool_call_argument_begin|>{"action":"log"}'
        "<|tool_call_end|><|tool_calls_section_end|>",
        [("get_weather", {"location": "Beijing"}), ("git", {"action": "log"})],
        "",
    ),
    Case(
        "internlm",
        'Let me look.<|action_start|><|plugin|>\n{"name": "bash", "parameters": {"command": "ls"}}'
        "<|action_end|><|im_end|>",
        [("bash", LS)],
        "Let me look.",
    ),
    Case(
        "harmony",
        "<|channel|>analysis<|message|>User asks for weather. to=functions.bash is prose.<|end|><|start|>assistant"
        '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"Tokyo"}<|call|>',
        [("get_weather", WEATHER)],
        "",
        dialect="harmony",
    ),
    Case(
        "harmony_recipient_before_channel",
        '<|start|>assistant to=functions.bash<|channel|>commentary json<|message|>{"command": "ls"}<|call|>',
        [("bash", LS)],
        "",
    ),
    Case(
        "harmony_final",
        "<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>final<|message|>"
        "The answer is 4.<|return|>",
        [],
        "The answer is 4.",
    ),
    Case(
        "command_r7b",
        '<|START_THINKING|>plan<|END_THINKING|><|START_ACTION|>[{"tool_call_id": "0", "tool_name": "bash", '
        '"parameters": {"command": "ls"}}]<|END_ACTION|>',
        [("bash", LS)],
        "",
    ),
    Case("command_r7b_response", "<|START_RESPONSE|>All done.<|END_RESPONSE|>", [], "All done."),
    Case("functionary_v32", '>>>bash\n{"command": "ls"}\n>>>all\nDone here.', [("bash", LS)], "Done here."),
    Case(
        "llama_builtin",
        '<|python_tag|>brave_search.call(query="weather in SF")<|eom_id|>',
        [("brave_search", {"query": "weather in SF"})],
        "",
    ),
    Case(
        "python_tag_json",
        '<|python_tag|>{"name": "bash", "parameters": {"command": "ls"}}<|eom_id|>',
        [("bash", LS)],
        "",
    ),
    Case("python_tag_code", "<|python_tag|>print(1 + 1)<|eom_id|>", [("python", {"code": "print(1 + 1)"})], ""),
    # --- §6 bare JSON and pythonic ------------------------------------------------------------------------------
    Case(
        "llama3_json",
        '{"name": "get_weather", "parameters": {"location": "Austin, TX"}}<|eot_id|>',
        [("get_weather", {"location": "Austin, TX"})],
        "",
        dialect="json",
    ),
    Case(
        "llama3_json_type_first",
        '{"type": "function", "name": "bash", "parameters": {"command": "ls"}}',
        [("bash", LS)],
        "",
    ),
    Case(
        "llama3_semicolon_separated",
        '{"name": "bash", "parameters": {"command": "for f in *.go; do echo $f; done"}}; '
        '{"name": "git", "parameters": {"action": "status"}}',
        [("bash", {"command": "for f in *.go; do echo $f; done"}), ("git", {"action": "status"})],
        "",
    ),
    Case(
        "bare_json_after_prose_line",
        'I will list.\n{"name": "bash", "arguments": {"command": "ls"}}',
        [("bash", LS)],
        "I will list.",
    ),
    Case(
        "bare_json_mid_sentence_is_prose",
        'Send {"name": "bash", "arguments": {"command": "ls"}} to run.',
        [],
        'Send {"name": "bash", "arguments": {"command": "ls"}} to run.',
    ),
    Case(
        "bare_json_unknown_name_in_prose_is_text",
        'Example:\n{"name": "deploy", "arguments": {}}\nThat is all.',
        [],
        'Example: {"name": "deploy", "arguments": {}} That is all.',
    ),
    Case("bare_json_unknown_whole_reply", '{"name": "deploy", "arguments": {}}', [], "", ["unknown_tool"]),
    Case(
        "xlam_array",
        '[{"name": "get_weather", "arguments": {"location": "Tokyo"}}, {"name": "bash", "arguments": '
        '{"command": "ls"}}]',
        [("get_weather", WEATHER), ("bash", LS)],
        "",
    ),
    Case(
        "generic_tool_call",
        '{"tool_call": {"name": "bash", "arguments": {"command": "ls"}}}',
        [("bash", LS)],
        "",
        dialect="generic",
    ),
    Case(
        "generic_tool_calls", '{"tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}]}', [("bash", LS)], ""
    ),
    Case("generic_response", '{"response": "Hello there."}', [], "Hello there."),
    Case(
        "pythonic",
        '[get_weather(location="San Francisco, CA", unit="fahrenheit"), get_current_time(timezone="UTC")]',
        [
            ("get_weather", {"location": "San Francisco, CA", "unit": "fahrenheit"}),
            ("get_current_time", {"timezone": "UTC"}),
        ],
        "",
    ),
    Case(
        "pythonic_literals",
        "[bash(command='ls\\n', timeout=None)]",
        [("bash", {"command": "ls\n", "timeout": None})],
        "",
    ),
    Case("pythonic_positional_rejected", '[get_weather("Tokyo")]', [], "", ["invalid_arguments"]),
    Case("pythonic_comprehension_is_text", "[f(x) for x in y]", [], "[f(x) for x in y]"),
    Case(
        "llama4_python_start",
        '<|python_start|>[get_weather(location="Tokyo")]<|python_end|>',
        [("get_weather", WEATHER)],
        "",
    ),
    Case(
        "markdown_link_is_text", "[docs](https://example.com)\nSee above.", [], "[docs](https://example.com) See above."
    ),
    # --- §2.2 reasoning ---------------------------------------------------------------------------------------------
    Case(
        "think_draft_then_real",
        '<think>I could call <tool_call>{"name": "bash", "arguments": {"command": "rm -rf /"}}</tool_call></think>\n'
        '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>',
        [("bash", LS)],
        "",
    ),
    Case(
        "forced_open_draft_dropped",
        'Maybe <tool_call>{"name": "bash", "arguments": {"command": "rm"}}</tool_call>.</think>Final answer.',
        [],
        "Final answer.",
    ),
    Case(
        "unclosed_think",
        'Hello <think>maybe <tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>',
        [],
        "Hello",
    ),
    Case(
        "interleaved_think",
        '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call><think>next</think>'
        '<tool_call>{"name": "git", "arguments": {"action": "status"}}</tool_call>',
        [("bash", LS), ("git", {"action": "status"})],
        "",
    ),
    Case("thinking_tag", "<thinking>plan</thinking>Answer.", [], "Answer."),
    Case(
        "think_inside_json_value_is_data",
        '<tool_call>{"name": "file", "arguments": {"action": "write", "path": "p.md", "content": "<think>x</think>"}}'
        "</tool_call>",
        [("file", {"action": "write", "path": "p.md", "content": "<think>x</think>"})],
        "",
    ),
    Case("apertus_inner", "<|inner_prefix|>plan<|inner_suffix|>Hi.", [], "Hi."),
    # --- narration and plain text ------------------------------------------------------------------------------------
    Case("narrated_search", "I'll call the search tool to find GenerateInstances.", [], None, ["narrated"]),
    Case("narrated_run", "Let me run `pytest` now.", [], None, ["narrated"]),
    Case("plain_text", "The function returns 4.", [], "The function returns 4."),
    Case("completion_not_narrated", "I will use this later.\nTASK COMPLETE\nDone.", [], None),
    # --- more edge cases ---------------------------------------------------------------------------------------------
    Case(
        "harmony_commentary_preamble_is_visible",
        "<|start|>assistant<|channel|>commentary<|message|>I will check the weather.<|end|><|start|>assistant"
        '<|channel|>commentary to=functions.get_weather json<|message|>{"location":"Oslo"}<|call|>',
        [("get_weather", {"location": "Oslo"})],
        "I will check the weather.",
    ),
    Case(
        "qwen3_tag_mention_then_real_call",
        "The <tool_call> tag wraps calls.\n<tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n"
        "</function>\n</tool_call>",
        [("bash", LS)],
        "The <tool_call> tag wraps calls.",
    ),
    Case(
        "qwen3_literal_param_close_inside_value",
        "<function=file>\n<parameter=action>\nwrite\n</parameter>\n<parameter=path>\na.py\n</parameter>\n"
        '<parameter=content>\ndef f():\n    return "</parameter>"\n</parameter>\n</function>',
        [("file", {"action": "write", "path": "a.py", "content": 'def f():\n    return "</parameter>"'})],
        "",
    ),
    Case("fenced_tool_unknown_name", '```tool\n{"name": "deploy", "arguments": {}}\n```', [], "", ["unknown_tool"]),
    Case(
        "xlam_array_in_json_fence",
        '```json\n[{"name": "bash", "arguments": {"command": "ls"}}]\n```',
        [("bash", LS)],
        "",
    ),
    Case("mistral_call_id", '[TOOL_CALLS]bash[CALL_ID]a1b2c3d4e[ARGS]{"command": "ls"}', [("bash", LS)], ""),
    Case("forced_open_then_fence_convention", "<think>\nI need ls</think>\n\n```bash\nls\n```", [("bash", LS)], ""),
    Case(
        "task_complete_with_call_keeps_call",
        '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>\nTASK COMPLETE',
        [("bash", LS)],
        "TASK COMPLETE",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_extracts_case(case: Case) -> None:
    result = extract(case.payload, TOOLS, finish_reason=case.finish_reason)
    assert [(c.name, c.arguments) for c in result.calls] == case.calls
    if case.text is not None:
        assert _ws(result.text) == _ws(case.text)
    assert [p.kind for p in result.problems] == case.problems
    if case.dialect is not None:
        assert result.dialect == case.dialect
    assert all(call.id for call in result.calls)
    assert all(p.message.strip() for p in result.problems)

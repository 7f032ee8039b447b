"""The call grammar for llama-server: its text for the real registry, its bounds, and replies shaped by it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from pedro.backends.grammar import COMPLETION_MARKER, MAX_CALLS, build_call_grammar
from pedro.roles import get_role
from pedro.toolcalls import extract, find_completion
from pedro.tools import ToolRegistry

# Replies SmolLM2-135M-Instruct gave on a real llama-server under this grammar (builder role, calc task).
RECORDED_REPLIES = [
    (
        '```code_edit\n{ "action": "replace", "path": "src/app.py", "new": "return new_result" }\n```\n\n'
        '```code_edit\n{ "action": "replace", "path": "src/app.py", "new": "return new_result" }\n```',
        [("code_edit", {"action": "replace", "path": "src/app.py", "new": "return new_result"})] * 2,
    ),
    (
        '```bash\n{ "command": "pytest.adm.add()", "timeout": 100 }\n```',
        [("bash", {"command": "pytest.adm.add()", "timeout": 100})],
    ),
    (
        '```code_edit\n{ "action": "delete_lines", "path": "src/app.py"}\n```',
        [("code_edit", {"action": "delete_lines", "path": "src/app.py"})],
    ),
]


def specs(names: list[str] | None = None) -> list[dict[str, Any]]:
    return ToolRegistry.default(names).specs() if names is not None else ToolRegistry.default().specs()


def rules_of(grammar: str) -> dict[str, str]:
    """rule name -> its right-hand side; a rule defined twice fails the test."""
    rules: dict[str, str] = {}
    for line in grammar.splitlines():
        name, sep, body = line.partition(" ::= ")
        assert sep, f"not a rule line: {line!r}"
        assert re.fullmatch(r"[a-z0-9-]+", name), name
        assert name not in rules, f"{name} defined twice"
        rules[name] = body
    return rules


def references(body: str) -> set[str]:
    """Rule names a right-hand side uses: what is left once literals, classes and repetition counts are gone."""
    bare = re.sub(r'"(?:[^"\\]|\\.)*"', " ", body)
    bare = re.sub(r"\[(?:[^\]\\]|\\.)*\]", " ", bare)
    bare = re.sub(r"\{\d+(?:,\d*)?\}", " ", bare)
    return set(re.findall(r"[a-z][a-z0-9-]*", bare))


def test_grammar_for_the_registry_names_every_tool_and_defines_every_rule() -> None:
    grammar = build_call_grammar(specs())
    assert grammar is not None
    rules = rules_of(grammar)
    assert rules["root"] == "calls | done"
    assert rules["calls"] == f'call ("\\n\\n" call){{0,{MAX_CALLS - 1}}}'
    assert rules["done"] == f'"{COMPLETION_MARKER}" "\\n" [^\\n`]{{1,240}}'
    for index, name in enumerate(["file", "code_edit", "search", "navigate", "git", "bash", "test"]):
        rule = f"call{index}-{name.replace('_', '-')}"
        assert rule in rules["call"].split(" | ")
        assert rules[rule].startswith(f'"```" "{name}" "\\n" "{{" ws ')
        assert rules[rule].endswith('ws "}" "\\n```"')
    used = set().union(*(references(body) for body in rules.values()))
    assert used - set(rules) == set(), "a rule is used but never defined"
    assert set(rules) - used == {"root"}, "a rule is defined but never used"


def test_bodies_follow_each_tool_schema_required_keys_first() -> None:
    rules = rules_of(build_call_grammar(specs()) or "")
    # code_edit: action (an enum) and path are required and come first; optional keys follow in schema order.
    assert rules["call1-code-edit-k0"] == (
        '"\\"action\\"" ws ":" ws ("\\"replace\\"" | "\\"replace_lines\\"" | "\\"insert\\"" | "\\"delete_lines\\"")'
    )
    assert rules["call1-code-edit-k1"] == '"\\"path\\"" ws ":" ws string'
    assert rules["call1-code-edit-k4"] == '"\\"replace_all\\"" ws ":" ws boolean'
    assert rules["call1-code-edit-k5"] == '"\\"start_line\\"" ws ":" ws integer'
    assert rules["call4-git-k1"] == '"\\"paths\\"" ws ":" ws string-array'
    # bash takes only the JSON body: the raw-command form would leave a call open when the grammar closes.
    assert rules["call5-bash"] == ('"```" "bash" "\\n" "{" ws call5-bash-k0 (ws "," ws call5-bash-k1)? ws "}" "\\n```"')
    assert rules["call5-bash-k1"] == '"\\"timeout\\"" ws ":" ws number'
    # test has no required key: any non-empty ordered subset, or {}.
    assert rules["call6-test"] == '"```" "test" "\\n" "{" ws call6-test-some? ws "}" "\\n```"'
    assert rules["call6-test-some"].count(" | ") == 3


def test_each_optional_key_appears_at_most_once() -> None:
    # A repeated key is how SmolLM2 filled max_tokens before: "replace_all": true, "replace_all": true, ...
    rules = rules_of(build_call_grammar(specs(["code_edit"])) or "")
    body = rules["call0-code-edit"]
    assert "*" not in body and "{" not in body.replace('"{"', "")
    for index in range(9):
        assert body.count(f"call0-code-edit-k{index}") == 1


def test_strings_hold_no_raw_newline_and_generic_values_nest_at_most_three_deep() -> None:
    tool = {"type": "function", "function": {"name": "anything", "parameters": {"type": "object"}}}
    rules = rules_of(build_call_grammar([tool]) or "")
    assert rules["call0-anything"] == '"```" "anything" "\\n" object-1 "\\n```"'
    assert rules["char"].startswith('[^"\\\\\\x00-\\x1f]')  # no control character, so no raw newline
    assert rules["ws"] == '" "?'
    assert rules["value-3"] == 'string | number | boolean | "null"'
    assert "value-4" not in rules and "object-4" not in rules


def test_grammar_is_byte_identical_for_the_same_tools_and_differs_with_the_role() -> None:
    builder = ToolRegistry.default(get_role("builder").tools).specs()
    reviewer = ToolRegistry.default(get_role("reviewer").tools).specs()
    assert build_call_grammar(builder) == build_call_grammar(json.loads(json.dumps(builder)))
    assert build_call_grammar(builder) != build_call_grammar(reviewer)


def test_max_calls_bounds_the_reply() -> None:
    one = rules_of(build_call_grammar(specs(["file"]), max_calls=1) or "")
    assert one["calls"] == "call"
    five = rules_of(build_call_grammar(specs(["file"]), max_calls=5) or "")
    assert five["calls"] == 'call ("\\n\\n" call){0,4}'


@pytest.mark.parametrize(
    "tools",
    [
        [],
        [{"type": "function", "function": {"parameters": {}}}],
        [{"type": "function", "function": {"name": "rm -rf /"}}],
        [{"type": "function", "function": "file"}],
    ],
)
def test_no_usable_tool_gives_no_grammar(tools: list[dict[str, Any]]) -> None:
    assert build_call_grammar(tools) is None


def test_odd_specs_are_skipped_or_read_plainly() -> None:
    bare = {"name": "file", "parameters": {"properties": {"path": {"type": "string"}}, "required": ["path"]}}
    twice = {"type": "function", "function": {"name": "file", "parameters": {"type": "object"}}}
    bad = {"type": "function", "function": {"name": "two words"}}
    rules = rules_of(build_call_grammar([bare, twice, bad]) or "")
    assert rules["call"] == "call0-file"
    assert rules["call0-file"] == '"```" "file" "\\n" "{" ws call0-file-k0 ws "}" "\\n```"'
    weird = {"properties": {"x": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "y": {"enum": [1, 2]}}}
    rules = rules_of(build_call_grammar([{"name": "t", "parameters": weird}]) or "")
    assert rules["call0-t-k0"].endswith("value-1")
    assert rules["call0-t-k1"].endswith("value-1")


@pytest.mark.parametrize(("reply", "expected"), RECORDED_REPLIES, ids=["two-edits", "bash-json", "delete-lines"])
def test_recorded_grammar_shaped_replies_extract_into_calls(reply: str, expected: list[tuple[str, Any]]) -> None:
    extraction = extract(reply, specs())
    assert [(call.name, call.arguments) for call in extraction.calls] == expected
    assert extraction.problems == ()
    assert find_completion(reply) is None


def test_completion_branch_reads_as_the_marker_with_its_summary() -> None:
    reply = f"{COMPLETION_MARKER}\nadd() now returns a + b and test_calc.py passes."
    extraction = extract(reply, specs())
    assert extraction.calls == ()
    assert extraction.problems == ()
    assert find_completion(reply) == "add() now returns a + b and test_calc.py passes."

"""The fixed prompt of a job (system prompt plus natively sent tools) fits a small window, in every role and mode."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pedro.loop.context import build_system_prompt
from pedro.messages import Message
from pedro.roles import ROLES, Role
from pedro.tokens import TokenLedger
from pedro.tools import ToolRegistry

# Tokens of the first request before the task, measured per part so that a new tool costs its own share and no
# more: the role's system prompt without tools, and each tool (its native definition, or its section of the system
# prompt in text mode), full and in the short form of windows under 8192.
WITHOUT_TOOLS = 350
PER_TOOL = {False: 300, True: 120}
CASES = [(role, native, short) for role in sorted(ROLES) for native in (True, False) for short in (False, True)]
LEDGER = TokenLedger()


def first_request(role: Role, *, native: bool, short: bool) -> tuple[str, list[dict[str, Any]]]:
    """What the agent sends before the task: the system prompt, and the tool list when it travels natively."""
    tools = ToolRegistry.default(role.tools).specs(short=short)
    return build_system_prompt(role, tools, repo_name="project", native=native), tools if native else []


def cost(role: Role, tools: list[dict[str, Any]], *, native: bool) -> int:
    """Counted the way the job's context budget counts its requests: the system message and the sent tools' JSON."""
    system = build_system_prompt(role, tools, repo_name="project", native=native)
    return LEDGER.count([Message("system", system)], tools if native else [])


@pytest.mark.parametrize(
    ("role_name", "native"), [(role, native) for role in sorted(ROLES) for native in (True, False)]
)
def test_the_system_prompt_without_tools_fits_its_budget(role_name: str, native: bool) -> None:
    assert cost(ROLES[role_name], [], native=native) <= WITHOUT_TOOLS


@pytest.mark.parametrize(("role_name", "native", "short"), CASES)
def test_each_tool_costs_at_most_its_share(role_name: str, native: bool, short: bool) -> None:
    role = ROLES[role_name]
    base = cost(role, [], native=native)
    for spec in ToolRegistry.default(role.tools).specs(short=short):
        share = cost(role, [spec], native=native) - base
        assert share <= PER_TOOL[short], (
            f"{spec['function']['name']} costs {share} tokens ({role_name}, native={native})"
        )


@pytest.mark.parametrize(("role_name", "short"), [(role, short) for role in sorted(ROLES) for short in (False, True)])
def test_native_tools_are_not_described_again_in_the_system_prompt(role_name: str, short: bool) -> None:
    system, tools = first_request(ROLES[role_name], native=True, short=short)
    assert tools
    for spec in tools:
        function = spec["function"]
        assert function["description"] not in system, function["name"]
        assert f"## {function['name']}" not in system
    assert "```" not in system  # no call convention either: the server's template teaches its own
    assert "TASK COMPLETE" in system


@pytest.mark.parametrize("short", [False, True])
def test_text_mode_describes_every_tool_and_how_to_call_it(short: bool) -> None:
    for role in ROLES.values():
        system, tools = first_request(role, native=False, short=short)
        assert tools == []
        for spec in ToolRegistry.default(role.tools).specs(short=short):
            function = spec["function"]
            assert f"## {function['name']}\n{function['description']}\n" in system
            for key in function["parameters"]["properties"]:
                assert f"- {key} (" in system, (function["name"], key)
            for key in function["parameters"].get("required", []):
                assert f"- {key} (" in system and ", required)" in system
        # The example is a whole call, and its path is one the model must replace: copied as is, it reads nothing.
        assert '```file\n{"action": "read", "path": "<a path from this repository>"}\n```' in system


def test_sent_schemas_carry_no_noise() -> None:
    """Titles, defaults, bounds and `X | null` cost tokens and tell the model nothing it needs to write a call."""
    for short in (False, True):
        for spec in ToolRegistry.default().specs(short=short):
            text = json.dumps(spec["function"]["parameters"])
            for noise in ('"title"', '"default"', '"minimum"', '"maximum"', '"exclusiveMinimum"', '"null"'):
                assert noise not in text, (spec["function"]["name"], noise)


def test_short_specs_are_a_subset_of_the_full_ones() -> None:
    """A short spec declares fewer keys; each key it keeps exists in the full spec, and required ones stay required."""
    registry = ToolRegistry.default()
    full = {s["function"]["name"]: s["function"]["parameters"] for s in registry.specs()}
    for spec in registry.specs(short=True):
        name, short = spec["function"]["name"], spec["function"]["parameters"]
        assert short["properties"], name
        assert set(short["properties"]) <= set(full[name]["properties"]), name
        for key in short["properties"]:
            assert short["properties"][key] == full[name]["properties"][key], (name, key)
        assert set(short.get("required", [])) == set(full[name].get("required", [])) & set(short["properties"]), name

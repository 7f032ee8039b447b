"""What the model reads: the system prompt, the task, tool results and feedback, rendered from prompts/."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pedro.messages import ToolResult
from pedro.prompts import render_prompt
from pedro.roles import Role
from pedro.toolcalls import FormatProblem


def build_system_prompt(role: Role, tools: Sequence[Mapping[str, Any]], *, repo_name: str, native: bool) -> str:
    """The system prompt: identical in every round of a job so the server can reuse its cached prefix.

    With `native` tools the request itself carries their descriptions, so the prompt holds only the role, the rules
    and how to finish; in text mode it also describes the tools and how to call them in fenced blocks.
    """
    tools_section = ""
    if not native:
        tools_section = render_prompt(
            "tools_section.md",
            tools=render_tools_section(tools).strip(),
            call_convention=render_prompt("dialects/fenced.md").strip(),
        )
    return render_prompt(
        "system.md",
        role_instructions=render_prompt(role.prompt).strip(),
        tools_section=tools_section.strip(),
        repo_name=repo_name,
    )


def build_chat_prompt(*, repo_name: str) -> str:
    """The system prompt when tools are switched off ([tool_calling].tool_use_mode = "disabled")."""
    return render_prompt("system_chat.md", repo_name=repo_name)


def render_tools_section(tools: Sequence[Mapping[str, Any]]) -> str:
    """One short block per tool: its description and its arguments, one a line."""
    blocks = []
    for spec in tools:
        function = spec.get("function", {})
        params = function.get("parameters", {}).get("properties", {})
        required = set(function.get("parameters", {}).get("required", []))
        args = "\n".join(_describe_param(key, value, key in required) for key, value in params.items())
        blocks.append(
            render_prompt(
                "tool_entry.md",
                name=function.get("name", "?"),
                description=function.get("description", "").strip(),
                arguments=args,
            ).strip()
        )
    return "\n\n".join(blocks)


def _describe_param(key: str, spec: Mapping[str, Any], required: bool) -> str:
    described = f": {spec['description']}" if spec.get("description") else ""
    return f"- {key} ({_type_name(spec)}{', required' if required else ''}){described}"


def _type_name(spec: Mapping[str, Any]) -> str:
    if "enum" in spec:
        return "|".join(str(v) for v in spec["enum"])
    if "const" in spec:
        return json.dumps(spec["const"])
    if "anyOf" in spec:
        return " or ".join(_type_name(s) for s in spec["anyOf"] if s.get("type") != "null")
    if spec.get("type") == "array":
        return f"array of {_type_name(spec.get('items', {}))}"
    return str(spec.get("type", "any"))


def render_task(role: Role, **variables: Any) -> str:
    """The first user message of a job."""
    return render_prompt(role.task, **variables)


def render_tool_result(result: ToolResult, *, index: int | None = None) -> str:
    """A tool result as the model reads it."""
    if result.ok:
        return render_prompt(
            "feedback/tool_result.md", name=result.name, output=result.output.rstrip() or "(no output)"
        )
    return render_prompt(
        "feedback/tool_error.md",
        name=result.name,
        error=result.error_code or result.error_kind or "failed",
        output=result.output.rstrip(),
    )


def render_format_problems(problems: Sequence[FormatProblem]) -> str:
    """Feedback for calls that could not run, each with what was wrong and a correct example."""
    listed = "\n\n".join(f"{n}. {p.message.strip()}" for n, p in enumerate(problems, start=1))
    return render_prompt("feedback/format_error.md", problems=listed)


def render_interrupted(name: str) -> str:
    """The result of a call the user interrupted before it finished."""
    return render_prompt("feedback/interrupted.md", name=name)


def render_nudge(attempt: int, limit: int) -> str:
    """Feedback for a reply with neither a call nor the completion marker."""
    return render_prompt("feedback/nudge.md", attempt=attempt, limit=limit)


def render_no_evidence() -> str:
    """Feedback for a completion claim when nothing in the repository changed."""
    return render_prompt("feedback/no_evidence.md")


def render_tests_failing(command: str, output: str) -> str:
    """Feedback for a completion claim while the job's test command fails."""
    return render_prompt("feedback/tests_failing.md", command=command, output=output.rstrip())


def render_tests_broken(command: str, output: str, blocking: str, preexisting: str) -> str:
    """Feedback for a completion claim whose tests the job broke or added failing; `preexisting` names the tests
    that failed before the job (not its task), or is empty."""
    before = render_prompt("feedback/preexisting.md", tests=preexisting) if preexisting else ""
    return render_prompt(
        "feedback/tests_broken.md", command=command, output=output.rstrip(), blocking=blocking, preexisting=before
    )


def render_repair_finished(summary: str) -> str:
    """Feedback after repair, run on a completion claim, made the job's failing tests pass."""
    return render_prompt("feedback/repair_finished.md", summary=summary)


def render_finalise() -> str:
    """The one request for a final answer after an empty reply that followed tool calls."""
    return render_prompt("feedback/finalise.md")


def render_ignored_calls(names: Sequence[str], limit: int) -> str:
    """What the model reads about the calls of a reply past [tool_calling].max_tool_calls_per_turn."""
    return render_prompt("feedback/calls_ignored.md", limit=limit, names=", ".join(names))


def render_repeat_warning(count: int) -> str:
    """Feedback when the model sends the same calls again and again."""
    return render_prompt("feedback/repeat.md", count=count)

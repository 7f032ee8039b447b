"""Render format problems for the model: what was wrong plus a minimal correct call in the dialect it used."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pedro.errors import UsageError
from pedro.prompts import prompts_dir, render_prompt
from pedro.toolcalls.model import FormatProblem, Issue, ProblemKind
from pedro.toolcalls.names import Registry

_RAW_CAP = 400
_PLACEHOLDER = "..."
# dialects whose arguments are written as parameters rather than one JSON object
_PARAMETER_STYLE = {
    "qwen3_xml": "xml",
    "seed_oss": "xml",
    "glm": "glm",
    "minimax_m2": "invoke",
    "claude_xml": "invoke",
    "functiongemma": "functiongemma",
    "gemma4": "gemma4",
    "pythonic": "python",
    "llama_builtin": "python",
}


def _example_value(schema: Any) -> Any:
    if not isinstance(schema, Mapping):
        return _PLACEHOLDER
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return enum[0]
    kind = schema.get("type")
    return {"integer": 1, "number": 1, "boolean": True, "array": [], "object": {}}.get(
        kind if isinstance(kind, str) else "", _PLACEHOLDER
    )


def example_arguments(registry: Registry, name: str) -> dict[str, Any]:
    """Placeholder arguments for the required parameters of a tool, read from its schema."""
    schema = registry.schemas.get(name, {})
    props = schema.get("properties")
    props = props if isinstance(props, Mapping) else {}
    required = schema.get("required")
    keys = [k for k in required if isinstance(k, str)] if isinstance(required, list) else []
    if not keys and props:
        keys = [next(iter(props))]
    return {key: _example_value(props.get(key)) for key in keys}


def _parameters(style: str, arguments: dict[str, Any]) -> str:
    def text(value: Any) -> str:
        return value if isinstance(value, str) else json.dumps(value)

    items = list(arguments.items())
    if style == "xml":
        return "\n".join(f"<parameter={k}>\n{text(v)}\n</parameter>" for k, v in items)
    if style == "glm":
        return "\n".join(f"<arg_key>{k}</arg_key>\n<arg_value>{text(v)}</arg_value>" for k, v in items)
    if style == "invoke":
        return "\n".join(f'<parameter name="{k}">{text(v)}</parameter>' for k, v in items)
    if style == "functiongemma":
        return ",".join(f"{k}:<escape>{v}<escape>" if isinstance(v, str) else f"{k}:{text(v)}" for k, v in items)
    if style == "gemma4":
        return ",".join(f'{k}:<|"|>{v}<|"|>' if isinstance(v, str) else f"{k}:{text(v)}" for k, v in items)
    return ", ".join(f"{k}={v!r}" if not isinstance(v, bool) else f"{k}={v}" for k, v in items)


def render_example(registry: Registry, dialect: str | None, name: str | None = None) -> str:
    """A minimal correct call in `dialect` for `name` (or the first registered tool)."""
    tool = name if name in registry.schemas else (registry.names[0] if registry.names else "tool_name")
    arguments = example_arguments(registry, tool)
    dialect = "fenced" if dialect == "cli" else dialect  # a malformed CLI-style call is shown the fence it was in
    style = dialect if dialect and (prompts_dir() / f"feedback/format/examples/{dialect}.md").is_file() else "json"
    if style == "fenced" and tool == "bash":
        command = arguments.get("command")
        return render_prompt("feedback/format/examples/fenced_bash.md", command=command or _PLACEHOLDER).strip()
    return render_prompt(
        f"feedback/format/examples/{style}.md",
        tool=tool,
        arguments=json.dumps(arguments),
        parameters=_parameters(_PARAMETER_STYLE.get(style, "python"), arguments),
        command=_PLACEHOLDER,
    ).strip()


def render_problem(issue: Issue, registry: Registry) -> FormatProblem:
    """The model-facing problem for one issue."""
    return _render(issue.kind, registry, issue.dialect, issue.name, issue.error, issue.raw)


def render_narrated(registry: Registry, dialect: str | None) -> FormatProblem:
    """The nudge for a reply that describes a call without making one."""
    return _render("narrated", registry, dialect, "", "", "")


_DETAIL_KEY = re.compile(r"[a-z_]+")


def _detail(error: str, kind: ProblemKind) -> str:
    """The model-facing detail: a template from prompts/feedback/format/detail/, or a decoder's own message."""
    key = error or kind
    if _DETAIL_KEY.fullmatch(key) and (prompts_dir() / f"feedback/format/detail/{key}.md").is_file():
        return render_prompt(f"feedback/format/detail/{key}.md").strip()
    return error


def _render(
    kind: ProblemKind, registry: Registry, dialect: str | None, name: str, error: str, raw: str
) -> FormatProblem:
    raw = raw[:_RAW_CAP]
    try:
        example = render_example(registry, dialect, name)
        message = render_prompt(
            f"feedback/format/{kind}.md",
            tool=name or "?",
            tools=", ".join(registry.names) or "(none)",
            error=_detail(error, kind),
            example=example,
        )
    except (UsageError, OSError):
        # a broken install must not turn model output into a crash; the loop still sees the kind and raw text
        message = f"{kind}: {error} {raw}".strip()
    return FormatProblem(kind, message.strip(), raw)

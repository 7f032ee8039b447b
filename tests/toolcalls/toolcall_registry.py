"""The tool registry the extraction tests use: pedro's tools plus a few test tools, with real schemas."""

from __future__ import annotations

from typing import Any


def _tool(name: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    schema = {"type": "object", "properties": properties, "required": required}
    return {"type": "function", "function": {"name": name, "description": f"the {name} tool", "parameters": schema}}


STR: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer"}
BOOL: dict[str, Any] = {"type": "boolean"}

TOOLS: list[dict[str, Any]] = [
    _tool(
        "file",
        {
            "action": {"type": "string", "enum": ["read", "write", "delete"]},
            "path": STR,
            "content": STR,
            "start_line": INT,
            "end_line": INT,
        },
        ["action", "path"],
    ),
    _tool(
        "code_edit",
        {
            "path": STR,
            "action": STR,
            "old": STR,
            "new": STR,
            "replace_all": BOOL,
            "start_line": INT,
            "end_line": INT,
            "line": INT,
            "content": STR,
        },
        ["path"],
    ),
    _tool(
        "search",
        {"action": STR, "pattern": STR, "path": STR, "glob": STR, "ignore_case": BOOL, "max_results": INT, "name": STR},
        ["pattern"],
    ),
    _tool("navigate", {"action": STR, "path": STR, "depth": INT}, ["path"]),
    _tool(
        "git",
        {
            "action": STR,
            "staged": BOOL,
            "paths": {"type": "array", "items": STR},
            "ref": STR,
            "message": STR,
            "max_count": INT,
        },
        ["action"],
    ),
    _tool("bash", {"command": STR, "timeout": {"type": ["number", "null"]}}, ["command"]),
    _tool("test", {"command": STR, "path": STR, "framework": STR}, []),
    _tool("get_weather", {"location": STR, "unit": STR, "days": INT, "opts": {"type": "object"}}, ["location"]),
    _tool("get_current_time", {"timezone": STR}, []),
    _tool("python", {"code": STR}, ["code"]),
    _tool("brave_search", {"query": STR}, ["query"]),
]

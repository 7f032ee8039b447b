"""The tool registry: every tool by name, loaded lazily, and role subsets of them. Adding a tool is its module, its
prompt files (prompts/tools/NAME.md and NAME.short.md), its test and one line in pedro/tooltable.py."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from typing import Any

from pedro.tools.base import Tool, tool_spec
from pedro.tooltable import TOOL_CLASSES as TOOL_CLASSES  # where callers have long imported it
from pedro.tooltable import tool_names


def load_tool(name: str) -> Tool:
    """Instantiate one tool by name."""
    module_name, _, class_name = TOOL_CLASSES[name].partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    tool: Tool = cls()
    return tool


class ToolRegistry:
    """An ordered set of tools; the order is fixed so the prompt stays byte-stable across rounds."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self._tools: dict[str, Tool] = {tool.name: tool for tool in tools}

    @classmethod
    def default(cls, names: Iterable[str] | None = None) -> ToolRegistry:
        """The tools of the table (pedro.tooltable) named in `names`, in the table's order; None: every one."""
        wanted = set(tool_names() if names is None else names)
        return cls(load_tool(name) for name in tool_names() if name in wanted)

    def subset(self, names: Iterable[str] | None) -> ToolRegistry:
        """These tools of the registry (a role's `tools`); None: all of them."""
        if names is None:
            return ToolRegistry(self._tools.values())
        wanted = set(names)
        return ToolRegistry(tool for name, tool in self._tools.items() if name in wanted)

    def joined(self, tools: Iterable[Tool]) -> ToolRegistry:
        """These tools after this registry's (other programs' tools after pedro's own, [mcp.servers])."""
        return ToolRegistry([*self._tools.values(), *tools])

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return list(self._tools)

    def specs(self, *, short: bool = False) -> list[dict[str, Any]]:
        """OpenAI-style function definitions, in registry order; `short` descriptions for small windows."""
        return [tool_spec(tool, short=short) for tool in self._tools.values()]

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

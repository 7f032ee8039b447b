"""Every tool pedro offers, by name: the one table a new tool joins with one line (its module and its prompt files
are its own). Everything that lists tools (the default registry, the roles with every tool, the settings that name
tools, the help text) reads this table when it is asked, never a copy."""

from __future__ import annotations

# name -> "module:Class"; imported on first use so start-up stays fast.
TOOL_CLASSES: dict[str, str] = {
    "file": "pedro.tools.file:FileTool",
    "code_edit": "pedro.tools.code_edit:CodeEditTool",
    "search": "pedro.tools.search:SearchTool",
    "navigate": "pedro.tools.navigate:NavigateTool",
    "git": "pedro.tools.git:GitTool",
    "bash": "pedro.tools.bash:BashTool",
    "test": "pedro.tools.test:TestTool",
}


def tool_names() -> tuple[str, ...]:
    """The tools' names, in the table's order (the order the prompt lists them in)."""
    return tuple(TOOL_CLASSES)

"""A new tool joins pedro as its own files plus one line in pedro.tooltable: the default registry, the roles with
every tool, the prompts, the settings that name tools and the dispatcher take it from there, and a scripted model
calls it through the real loop."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_util import fenced

from pedro.backends.base import GenerationOptions
from pedro.backends.scripted import ScriptedBackend
from pedro.config import ToolCallingConfig
from pedro.dispatch import Dispatcher
from pedro.loop.agent import Agent, AgentParts, Limits
from pedro.loop.context import build_system_prompt
from pedro.messages import Event
from pedro.roles import get_role
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext
from pedro.tooltable import TOOL_CLASSES, tool_names


@pytest.fixture
def eighth(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TOOL_CLASSES, "shell", "eighth_tool:ShellTool")  # the one line


def test_the_registry_the_roles_and_the_settings_take_the_new_tool(eighth: None) -> None:
    assert tool_names()[-1] == "shell" and ToolRegistry.default().names()[-1] == "shell"
    assert "shell" in ToolRegistry.default(get_role("builder").tools).names()
    assert "shell" not in ToolRegistry.default(get_role("reviewer").tools).names()  # its tools are listed
    assert ToolCallingConfig(deny_tools=["shell"]).deny_tools == ["shell"]
    for short in (False, True):
        specs = ToolRegistry.default().specs(short=short)
        system = build_system_prompt(get_role("builder"), specs, repo_name="project", native=False)
        assert "## shell\nRun " in system


def test_without_its_line_the_tool_is_unknown() -> None:
    assert "shell" not in tool_names()
    with pytest.raises(ValueError, match="no tool is named 'shell'"):
        ToolCallingConfig(deny_tools=["shell"])


def test_a_scripted_model_calls_the_new_tool_through_the_loop(eighth: None, repo: Path) -> None:
    events: list[Event] = []
    builder = get_role("builder")
    dispatcher = Dispatcher(ToolRegistry.default(builder.tools), ToolContext(root=repo))
    backend = ScriptedBackend([fenced("shell", {"line": "echo made > made.txt"}), "TASK COMPLETE\nmade.txt is made"])
    parts = AgentParts(role=builder, backend=backend, dispatcher=dispatcher, limits=Limits(max_rounds=3),
                       options=GenerationOptions())  # fmt: skip
    result = Agent(parts, on_event=events.append).run("Make made.txt")
    assert (repo / "made.txt").read_text() == "made\n"
    finished = [e.data for e in events if e.type == "tool_call.finished"]
    assert [(data["name"], data["ok"]) for data in finished] == [("shell", True)]
    assert finished[0]["output"].startswith("exit code 0")
    assert result.tool_calls == 1

"""Each tool declares what a call does once; the snapshot guard, the gate, the journal and the task-state note ask
that declaration, so every spelling a tool accepts for a write is a write to all of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pedro.backends.base import GenerationOptions
from pedro.backends.scripted import ScriptedBackend
from pedro.dispatch import Dispatcher
from pedro.loop.agent import Agent, AgentParts, Limits
from pedro.loop.compaction import TaskState
from pedro.messages import Event, Message, ToolCall, ToolResult
from pedro.roles import get_role
from pedro.safety.guard import SnapshotGuard
from pedro.tools import ToolRegistry
from pedro.tools.base import ToolContext
from pedro.tools.code_edit import _ACTION_WORDS as EDIT_WORDS
from pedro.tools.code_edit import _ALIASES as EDIT_ALIASES
from pedro.tools.file import _ACTION_WORDS as FILE_WORDS
from pedro.tools.file import _CONTENT_ALIASES, PATH_ALIASES

OLD = "def add(a, b):\n    # the sum\n    return a - b\n"


def _file_writes() -> list[dict[str, Any]]:
    """Every accepted spelling of a whole-file write: each path key, each content key, each action key and word."""
    variants: list[dict[str, Any]] = [{"path": "calc.py", "content": "x = 1\n"}]
    variants += [{key: "calc.py", "content": "x = 1\n"} for key in PATH_ALIASES]
    variants += [{"path": "calc.py", key: "x = 1\n"} for key in _CONTENT_ALIASES]
    words = ["write", *(word for word, action in FILE_WORDS.items() if action == "write")]
    variants += [{key: word, "path": "calc.py", "content": "x = 1\n"} for word in words for key in ("action", "mode")]
    variants += [{"command": "create", "path": "calc.py", "content": "x = 1\n"}]
    return variants


def _deletes() -> list[tuple[str, dict[str, Any]]]:
    words = ["delete", *(word for word, action in FILE_WORDS.items() if action == "delete")]
    return [("file", {"action": word, "path": "calc.py"}) for word in words]


def _edits() -> list[dict[str, Any]]:
    """Every accepted spelling of a code_edit: each key alias, each action word, and the inferred actions."""
    base = {"action": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"}
    variants: list[dict[str, Any]] = [base, {"path": "calc.py", "old": "a - b", "new": "a + b"}]
    for key in ("path", "old", "new"):
        for alias in EDIT_ALIASES[key]:
            if alias in ("replace",):  # "replace" as a key is also the action word: not a spelling on its own
                continue
            variants.append({**{k: v for k, v in base.items() if k != key}, alias: base[key]})
    for word, action in EDIT_WORDS.items():
        if action == "replace":
            variants.append({**base, "action": word})
        elif action == "replace_lines":
            variants.append({"action": word, "path": "calc.py", "start_line": 2, "end_line": 2, "new": "    return 0"})
        elif action == "insert":
            variants.append({"action": word, "path": "calc.py", "line": 2, "content": "    # note"})
        else:
            variants.append({"action": word, "path": "calc.py", "start_line": 2, "end_line": 2})
    variants.append({"path": "calc.py", "line": 0, "content": "# top"})
    variants.append({"path": "calc.py", "start_line": 1, "new": "def add(x, y):"})
    return variants


WRITING_CALLS = [("file", args) for args in _file_writes()] + _deletes() + [("code_edit", args) for args in _edits()]


def dispatcher_for(repo: Path, guard: SnapshotGuard | None = None) -> Dispatcher:
    return Dispatcher(ToolRegistry.default(get_role("builder").tools), ToolContext(root=repo), guard=guard)


@pytest.fixture
def calc(repo: Path) -> Path:
    (repo / "calc.py").write_text(OLD)
    return repo


@pytest.mark.parametrize(
    ("tool", "arguments"), WRITING_CALLS, ids=lambda v: json.dumps(v) if isinstance(v, dict) else v
)
def test_every_spelling_of_a_write_is_snapshotted_before_it_runs(
    calc: Path, tool: str, arguments: dict[str, Any]
) -> None:
    guard = SnapshotGuard(calc, "job")
    guard.start()
    dispatcher = dispatcher_for(calc, guard)
    reply = f"```{tool}\n{json.dumps(arguments)}\n```"

    def answer(_messages: list[Message], _tools: list[dict[str, Any]]) -> str:
        if not (calc / "notes.txt").exists():
            (calc / "notes.txt").write_text("the user's edit while the model thinks\n")
            return reply
        return "TASK COMPLETE\ndone"

    events: list[Event] = []
    Agent(
        AgentParts(
            role=get_role("builder"),
            backend=ScriptedBackend(answer),
            dispatcher=dispatcher,
            limits=Limits(max_rounds=3),
            options=GenerationOptions(),
        ),
        on_event=events.append,
    ).run("edit calc.py")
    finished = next(e for e in events if e.type == "tool_call.finished")
    assert finished.data["ok"], finished.data["output"]
    assert not (calc / "calc.py").exists() or (calc / "calc.py").read_text() != OLD
    order = [e.data.get("label") if e.type == "snapshot.taken" else e.type for e in events]
    order = [item for item in order if item in ("before round 1", "after round 1", "tool_call.started")]
    assert order == ["before round 1", "tool_call.started", "after round 1"]
    assert dispatcher.effects(ToolCall(tool, arguments)).changed_paths == ("calc.py",)


def test_a_call_that_cannot_run_declares_nothing(calc: Path) -> None:
    dispatcher = dispatcher_for(calc)
    assert not dispatcher.effects(ToolCall("nope", {"path": "calc.py"})).changes_files
    assert not dispatcher.effects(ToolCall("file", {"action": "write", "path": "calc.py"})).changes_files  # no content


@pytest.mark.parametrize(
    ("call", "changes"),
    [
        (ToolCall("file", {"action": "read", "path": "a"}), False),
        (ToolCall("search", {"pattern": "x"}), False),
        (ToolCall("navigate", {"action": "list_dir"}), False),
        (ToolCall("git", {"action": "diff"}), False),
        (ToolCall("git", {"action": "branch"}), False),
        (ToolCall("git", {"action": "branch", "name": "x"}), True),
        (ToolCall("git", {"action": "commit", "message": "m"}), True),
        (ToolCall("bash", {"command": "ls"}), True),
        (ToolCall("test", {}), True),
    ],
)
def test_reads_and_commands(calc: Path, call: ToolCall, changes: bool) -> None:
    assert dispatcher_for(calc).effects(call).changes_files is changes


def test_the_task_state_names_files_written_in_any_spelling(calc: Path) -> None:
    dispatcher = dispatcher_for(calc)
    state = TaskState(goal="g")
    for call in (
        ToolCall("file", {"file_path": "a.py", "file_text": "x"}),
        ToolCall("file", {"command": "create", "path": "b.py", "content": "y"}),
        ToolCall("code_edit", {"command": "str_replace", "path": "calc.py", "old_str": "a - b", "new_str": "a + b"}),
        ToolCall("file", {"action": "read", "path": "calc.py"}),
    ):
        state.record(call, ToolResult(call.name, True, "ok"), dispatcher.effects(call))
    assert state.files_changed == ["a.py", "b.py", "calc.py"]

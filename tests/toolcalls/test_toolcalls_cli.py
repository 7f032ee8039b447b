"""The Go design's CLI-style calls in a bash block (dialect `cli`): `file PATH`, `search -t PATTERN [PATH]`,
`navigate …`, `code_edit -f FILE -l START:END -r TEXT`, read as calls only where no shell command is meant."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from repo_util import git
from toolcall_registry import TOOLS

from pedro.toolcalls import extract

GENERATOR = "pkg/recurrence/generator.go"
TEXT_FILES = {GENERATOR, "a.go", "b.go"}


def bash(body: str) -> str:
    return f"```bash\n{body}\n```"


def text_file(path: str) -> bool:
    """The repository of these cases: three text files; everything else is missing or binary."""
    return path in TEXT_FILES


@dataclass(frozen=True)
class Case:
    id: str
    payload: str
    calls: list[tuple[str, dict[str, Any]]]
    dialect: str | None = "cli"
    problems: list[str] = field(default_factory=list)


def one(tool: str, /, **arguments: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(tool, arguments)]


def shell(body: str) -> list[tuple[str, dict[str, Any]]]:
    return [("bash", {"command": body})]


CASES = [
    # --- the Go design's own example lines (its tool-calling plan and example model output) ---------------------
    Case("go_file", bash(f"file {GENERATOR}"), [("file", {"action": "read", "path": GENERATOR})]),
    Case(
        "go_search",
        bash('search -t "Pattern" pkg/'),
        [("search", {"action": "grep", "pattern": "Pattern", "path": "pkg/"})],
    ),
    Case(
        "go_search_plan",
        "Let me search for the function:\n\n" + bash('search -t "GenerateInstances" pkg/recurrence/'),
        [("search", {"action": "grep", "pattern": "GenerateInstances", "path": "pkg/recurrence/"})],
    ),
    Case(
        "go_code_edit",
        bash(f'code_edit -f {GENERATOR} -l 12:14 -r "return nil"'),
        [("code_edit", {"path": GENERATOR, "action": "replace_lines", "start_line": 12, "end_line": 14,
                        "new": "return nil"})],
    ),  # fmt: skip
    Case(
        "go_code_edit_placeholders",  # the template line, START:END unfilled: the model is told the forms
        bash('code_edit -f FILE -l START:END -r "TEXT"'),
        [],
        problems=["invalid_arguments"],
    ),
    # --- the rest of the grammar --------------------------------------------------------------------------------
    Case(
        "search_glob_ignore_case",
        bash("search -t todo -g '*.py' -i src"),
        [("search", {"action": "grep", "pattern": "todo", "glob": "*.py", "ignore_case": True, "path": "src"})],
    ),
    Case("search_files", bash("search -f '**/*_test.go'"), one("search", action="find_files", pattern="**/*_test.go")),
    Case("search_definition", bash("search -d Gen"), one("search", action="find_definition", name="Gen")),
    Case("navigate_path", bash("navigate pkg/recurrence"), one("navigate", path="pkg/recurrence")),
    Case("navigate_root", bash("navigate"), one("navigate", action="list_dir")),
    Case("navigate_depth", bash("navigate -d 2 pkg"), one("navigate", path="pkg", action="list_dir", depth=2)),
    Case("navigate_outline", bash("navigate -o a.go"), one("navigate", path="a.go", action="outline")),
    Case("navigate_imports", bash("navigate -i a.go"), one("navigate", path="a.go", action="imports")),
    Case("code_edit_one_line", bash("code_edit -f a.go -l 7 -r 'x := 1'"),
         [("code_edit", {"path": "a.go", "action": "replace_lines", "start_line": 7, "end_line": 7, "new": "x := 1"})]),
    Case("code_edit_delete", bash("code_edit -f a.go -l 3:4 -d"),
         [("code_edit", {"path": "a.go", "action": "delete_lines", "start_line": 3, "end_line": 4})]),
    Case("code_edit_insert", bash("code_edit -f a.go -i 0 -r 'package main'"),
         [("code_edit", {"path": "a.go", "action": "insert", "line": 0, "content": "package main"})]),
    Case("code_edit_replace_text", bash("code_edit -f a.go -o 'a - b' -r 'a + b'"),
         [("code_edit", {"path": "a.go", "action": "replace", "old": "a - b", "new": "a + b"})]),
    Case("code_edit_multiline_text", bash("code_edit -f a.go -l 2:3 -r 'one\ntwo'"),
         one("code_edit", path="a.go", action="replace_lines", start_line=2, end_line=3, new="one\ntwo")),
    Case("two_reads", bash("file a.go\nfile b.go"),
         [("file", {"action": "read", "path": "a.go"}), ("file", {"action": "read", "path": "b.go"})]),
    Case("search_unknown_option", bash("search -x foo"), [], problems=["invalid_arguments"]),
    Case("search_two_paths", bash("search -t foo a b"), [], problems=["invalid_arguments"]),
    # --- never guessed: these are shell commands ----------------------------------------------------------------
    Case("git_status", bash("git status"), shell("git status"), dialect="fenced"),
    Case("test_f", bash("test -f x"), shell("test -f x"), dialect="fenced"),
    Case("file_two_operands", bash("file a.go b.go"), shell("file a.go b.go"), dialect="fenced"),
    Case("file_binary", bash("file logo.png"), shell("file logo.png"), dialect="fenced"),
    Case("file_missing", bash("file nope.go"), shell("file nope.go"), dialect="fenced"),
    Case("file_option", bash("file -b a.go"), shell("file -b a.go"), dialect="fenced"),
    Case("search_piped", bash("search -t foo | head"), shell("search -t foo | head"), dialect="fenced"),
    Case("file_then_make", bash("file a.go && make"), shell("file a.go && make"), dialect="fenced"),
    Case("mixed_lines", bash("file a.go\ngo test ./..."), shell("file a.go\ngo test ./..."), dialect="fenced"),
    Case("substitution", bash('search -t "$(cat p)"'), shell('search -t "$(cat p)"'), dialect="fenced"),
    Case("sh_fence", f"```sh\nfile {GENERATOR}\n```", [], dialect=None),
    Case("unclosed", f"```bash\nfile {GENERATOR}\n", [], dialect="fenced", problems=["truncated"]),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_cli_style_calls_in_bash_blocks(case: Case) -> None:
    result = extract(case.payload, TOOLS, text_file=text_file)
    assert [(call.name, call.arguments) for call in result.calls] == case.calls
    assert [problem.kind for problem in result.problems] == case.problems
    assert result.dialect == case.dialect


def test_without_a_repository_file_stays_a_shell_command() -> None:
    # extract() does no I/O: with no text-file check (pedro serve, a probe) `file X` is the Unix command.
    result = extract(bash(f"file {GENERATOR}"), TOOLS)
    assert [(c.name, c.arguments) for c in result.calls] == shell(f"file {GENERATOR}")


def test_a_malformed_call_is_told_the_forms() -> None:
    problem = extract(bash("code_edit -f a.go -l 3:4"), TOOLS).problems[0]
    assert "code_edit -f FILE -l START:END -r TEXT" in problem.message and "search -t PATTERN" in problem.message


def test_a_structured_call_makes_the_block_an_illustration() -> None:
    reply = bash("search -t foo") + '\n<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>'
    result = extract(reply, TOOLS, text_file=text_file)
    assert [(c.name, c.arguments) for c in result.calls] == [("bash", {"command": "ls"})]


def test_read_without_a_bash_tool() -> None:
    # A read-only role has no bash tool; its `search` and `file` lines are still calls.
    reviewer = [tool for tool in TOOLS if tool["function"]["name"] in ("file", "search", "navigate", "git")]
    result = extract(bash(f"file {GENERATOR}") + "\n" + bash("git status"), reviewer, text_file=text_file)
    assert [(c.name, c.arguments) for c in result.calls] == [("file", {"action": "read", "path": GENERATOR})]


def test_what_counts_as_a_text_file_of_the_repository(repo: Path, tmp_path: Path) -> None:
    from pedro.tools.base import ToolContext
    from pedro.tools.textfile import is_text_file

    (repo / "pkg").mkdir()
    (repo / "pkg" / "gen.go").write_text("package pkg\n")
    (repo / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    (repo / ".env").write_text("TOKEN=1\n")
    (tmp_path / "outside.txt").write_text("outside\n")
    ctx = ToolContext(root=repo)
    assert is_text_file(ctx, "pkg/gen.go") and is_text_file(ctx, "README.md")
    for path in ("logo.png", ".env", "pkg", "nope.go", "../outside.txt", str(tmp_path / "outside.txt"), ""):
        assert not is_text_file(ctx, path), path


def test_the_loop_reads_file_lines_against_the_repository(repo: Path) -> None:
    from pedro.backends.base import GenerationOptions
    from pedro.backends.scripted import ScriptedBackend
    from pedro.dispatch import Dispatcher
    from pedro.loop.agent import Agent, AgentParts, Limits
    from pedro.messages import Event
    from pedro.roles import get_role
    from pedro.tools import ToolRegistry
    from pedro.tools.base import ToolContext

    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(repo, "add", "calc.py")
    git(repo, "commit", "-qm", "calc")
    events: list[Event] = []
    role = get_role("builder")
    backend = ScriptedBackend([bash("file calc.py"), bash("file nope.py"), "TASK COMPLETE\nRead it."])
    Agent(
        AgentParts(
            role=role,
            backend=backend,
            dispatcher=Dispatcher(ToolRegistry.default(role.tools), ToolContext(root=repo)),
            limits=Limits(max_rounds=4, max_idle_replies=2),
            options=GenerationOptions(),
        ),
        on_event=events.append,
    ).run("Read calc.py")
    started = [(e.data["name"], e.data["arguments"]) for e in events if e.type == "tool_call.started"]
    assert started[:2] == [("file", {"action": "read", "path": "calc.py"}), ("bash", {"command": "file nope.py"})]
    finished = [e.data for e in events if e.type == "tool_call.finished"]
    assert finished[0]["ok"] and "return a - b" in finished[0]["output"]

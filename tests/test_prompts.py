"""Templates: every one the code names exists and renders; a missing variable is an error."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pedro.errors import UsageError
from pedro.loop.context import build_system_prompt, render_task
from pedro.prompts import prompts_dir, render_prompt
from pedro.roles import ROLES
from pedro.tools import ToolRegistry

ROOT = Path(__file__).resolve().parent.parent


def test_missing_variable_is_an_error() -> None:
    with pytest.raises(UsageError, match="needs description"):
        render_prompt("tasks/build.md")


def test_every_role_renders_its_system_prompt_and_task() -> None:
    registry = ToolRegistry.default()
    for role in ROLES.values():
        offered = registry.subset(role.tools)
        tools = offered.specs()
        for native in (True, False):
            system = build_system_prompt(role, tools, repo_name="demo", native=native)
            assert "TASK COMPLETE" in system and "$" not in system.replace("$HOME", "")
            for name in offered.names():
                # In text mode the prompt describes every tool; native tools travel in the request instead.
                assert (f"## {name}\n" in system) is not native
            assert ("```file\n" in system) is not native  # the fenced call convention, text mode only
        assert (prompts_dir() / role.task).is_file()


def test_task_templates_render_with_their_inputs() -> None:
    assert "Fix add" in render_task(ROLES["builder"], description="Fix add")
    debug = render_task(ROLES["debugger"], description="d", test_section="cmd", log_section="log")
    assert "cmd" in debug and "log" in debug


def test_every_tool_has_a_description_prompt() -> None:
    for spec in ToolRegistry.default().specs():
        function = spec["function"]
        assert len(function["description"]) > 40, function["name"]
        assert "title" not in function["parameters"]


def _string_literals(path: Path) -> list[tuple[int, str, bool]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    literals: list[tuple[int, str, bool]] = [
        (node.lineno, node.value, False)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]
    # An f-string is read whole, its placeholders as one word each: a prompt built from pieces is still a prompt.
    literals += [
        (node.lineno, "".join(part.value if isinstance(part, ast.Constant) else "x" for part in node.values), True)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
    ]
    return literals


def _is_prose(text: str) -> bool:
    """Mostly letters and spaces: a sentence, not a regex or a data table."""
    wordy = sum(ch.isalpha() or ch == " " for ch in text)
    return wordy / len(text) > 0.85


def test_no_prompt_prose_in_python() -> None:
    """Every word the model reads lives in prompts/: no long prose literals or role-play lines in code."""
    offenders = []
    for path in sorted((ROOT / "pedro").rglob("*.py")):
        for line, text, formatted in _string_literals(path):
            # Paragraphs make a prompt section, not a message; long f-strings are operators' error messages.
            sectioned = "\n\n" in text.strip() and len(text) > 40 and _is_prose(text)
            long_prose = not formatted and len(text) > 200 and _is_prose(text)
            if "You are" in text or long_prose or sectioned:
                offenders.append(f"{path.relative_to(ROOT)}:{line}")
    assert offenders == []


def test_short_tool_descriptions_are_much_shorter() -> None:
    registry = ToolRegistry.default()
    full = {s["function"]["name"]: s["function"]["description"] for s in registry.specs()}
    short = {s["function"]["name"]: s["function"]["description"] for s in registry.specs(short=True)}
    assert full.keys() == short.keys()
    for name in full:
        assert 20 < len(short[name]) < len(full[name]) / 3, name


def test_every_prompt_file_ships_in_the_wheel() -> None:
    """pyproject must list every folder under prompts/ and its package data match every file."""
    import re
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["pedro.prompts"]
    patterns = [re.compile("^" + re.escape(g).replace(r"\*", "[^/]*") + "$") for g in globs]
    files = [p.relative_to(ROOT / "prompts").as_posix() for p in (ROOT / "prompts").rglob("*") if p.is_file()]
    assert files
    assert [f for f in files if not any(p.match(f) for p in patterns)] == []
    folders = {
        "pedro.prompts." + p.relative_to(ROOT / "prompts").as_posix().replace("/", ".")
        for p in (ROOT / "prompts").rglob("*")
        if p.is_dir()
    }
    assert folders - set(config["tool"]["setuptools"]["packages"]) == set()


@pytest.mark.parametrize(
    "name",
    ["feedback/tests_failing.md", "feedback/tests_broken.md", "repair/handover.md", "repair/handover_partial.md"],
)
def test_prompts_name_tests_once(name: str, tmp_path: Path) -> None:
    # The command comes named for a sentence (ProjectTests.named): a given one already in backticks, a detected
    # runner bare. A template that quoted it again would show `pytest, detected` as if one could type it.
    from pedro.evidence import ProjectTests
    from pedro.tools.base import ToolContext
    from pedro.tools.test import RunTestsArgs

    (tmp_path / "test_x.py").write_text("def test_x():\n    pass\n")
    detected = ProjectTests(RunTestsArgs(), ToolContext(root=tmp_path)).named
    assert detected == "pytest, detected"
    values = {"output": "o", "blocking": "b", "preexisting": "p", "counts": "c", "failing": "f", "tries": 1,
              "units": "u", "last": "l", "kept": "k"}  # fmt: skip
    text = render_prompt(name, command=detected, **values)
    assert "(pytest, detected)" in text and "`pytest, detected`" not in text

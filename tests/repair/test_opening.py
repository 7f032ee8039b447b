"""The first words of a repair answer, which pedro writes for servers that continue an assistant turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro
from repo_util import PYTEST, git

from pedro.repair.locate import Unit
from pedro.repair.opening import answer_opening, with_opening


def unit(text: str, name: str, language: Any = "python") -> Unit:
    return Unit("m.py", name, name, language, 1, len(text.splitlines()), text)


@pytest.mark.parametrize(
    ("text", "name", "language", "opening"),
    [
        ("def add(a, b):\n    return a - b\n", "add", "python", "```python\ndef add"),
        ("    @property\n    def area(self):\n        return 0\n", "area", "python", "```python\ndef area"),
        ("function clamp(x, lo, hi) {\n  return x;\n}\n", "clamp", "javascript", "```javascript\nfunction clamp"),
        ("func (s *Stack) Peek() int {\n\treturn 0\n}\n", "Peek", "go", "```go\nfunc (s *Stack) Peek"),
    ],
)
def test_a_whole_function_answer_opens_with_the_definition_up_to_its_name(
    text: str, name: str, language: Any, opening: str
) -> None:
    fence = "javascript" if language == "javascript" else language
    assert answer_opening(unit(text, name, language), fence, whole_function=True) == opening


@pytest.mark.parametrize(
    ("line", "opening"),
    [
        ("    return a - b", "```python\nreturn"),
        ("    total = total + price * 2", "```python\ntotal ="),
        ("    if n > 0:", "```python\nif"),
        ("    print(a)", "```python\n"),
        ("", "```python\n"),
    ],
)
def test_a_line_answer_opens_with_the_lines_head_so_only_the_expression_is_left(line: str, opening: str) -> None:
    code = "def add(a, b):\n    return a - b\n"
    assert answer_opening(unit(code, "add"), "python", whole_function=False, line=line) == opening


def test_the_answer_is_whole_whether_the_server_sends_the_opening_back_or_not() -> None:
    opening = "```python\ndef add"
    assert with_opening("```python\ndef add(a, b):\n    return a + b\n```", opening).count("def add") == 1
    assert with_opening("(a, b):\n    return a + b\n```", opening) == "```python\ndef add(a, b):\n    return a + b\n```"


def debug(server: Any, repo: Path, env: dict[str, str], backend: str) -> Any:
    url = server.url if backend == "llamacpp" else f"{server.url}/v1"
    return pedro(
        "debug", "--test", PYTEST, "-d", "add() is wrong", "--backend", backend, "--base-url", url,
        "--model", "m", "--no-input", "--json", env=env, cwd=repo,
    )  # fmt: skip


@pytest.fixture
def bug(repo: Path) -> Path:
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (repo / "test_calc.py").write_text("from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    return repo


def test_llama_server_is_given_the_opening_and_its_continuation_is_read_as_the_answer(
    bug: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # The stub continues the turn the way Ollama does (the continuation alone); llama-server sends the opening back.
    server = stub_server(["(a, b):\n    return a + b\n```"])
    env = {**cli_env, "PEDRO_REPAIR__COVERAGE": "false", "PEDRO_REPAIR__MUTANTS": "0"}
    proc = debug(server, bug, env, "llamacpp")
    assert proc.returncode == 0, proc.stderr
    ends = [json.loads(line) for line in proc.stdout.splitlines() if '"job.finished"' in line]
    assert ends[-1]["reason"] == "repaired"
    assert (bug / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"
    last = server.requests[0]["messages"][-1]
    assert last == {"role": "assistant", "content": "```python\ndef add"}


def test_a_server_that_would_answer_the_opening_with_a_new_turn_is_not_given_one(
    bug: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    server = stub_server(["```python\ndef add(a, b):\n    return a + b\n```"])
    env = {**cli_env, "PEDRO_REPAIR__COVERAGE": "false", "PEDRO_REPAIR__MUTANTS": "0"}
    proc = debug(server, bug, env, "openai")
    assert proc.returncode == 0, proc.stderr
    assert server.requests[0]["messages"][-1]["role"] == "user"

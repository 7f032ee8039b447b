"""The first words of a repair answer, which pedro writes for servers that continue an assistant turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro
from repo_util import PYTEST, git

from pedro.repair.locate import Unit
from pedro.repair.opening import answer_opening, line_in_place, the_line_written, with_opening


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
    assert answer_opening(unit(text, name, language), fence) == opening


DOCUMENTED = '''    @staticmethod
    def center(
        text: str, width: int
    ) -> str:
        """Return text centered in `width` cells.

        For odd padding the extra cell goes on the right.
        """
        left = (width - len(text)) // 2
        return " " * left + text
'''


def test_a_documented_python_function_opens_through_its_docstring_so_only_the_code_is_left() -> None:
    opening = answer_opening(unit(DOCUMENTED, "center"), "python")
    assert opening == (
        "```python\ndef center(\n    text: str, width: int\n) -> str:\n"
        '    """Return text centered in `width` cells.\n\n'
        '    For odd padding the extra cell goes on the right.\n    """\n'
        "   "  # the body's indentation but its last space, which the first word's token carries
    )


def test_a_one_line_docstring_is_left_to_the_model_with_the_signature_it_may_fix() -> None:
    text = 'def join(parts, sep=","):\n    """Join the parts."""\n    return sep.join(parts)\n'
    assert answer_opening(unit(text, "join"), "python") == "```python\ndef join"


METHOD = """    @property
    def area(self):
        width = self.right - self.left
        height = self.top - self.bottom
        return width + height
"""


@pytest.mark.parametrize(
    ("line", "opening"),
    [
        # From the definition (not its decorator) down to the line, then the line's head without its last space.
        (
            5,
            "```python\ndef area(self):\n    width = self.right - self.left\n"
            "    height = self.top - self.bottom\n    return",
        ),
        (3, "```python\ndef area(self):\n    width ="),
    ],
)
def test_a_line_is_answered_in_place_after_the_function_down_to_it(line: int, opening: str) -> None:
    assert line_in_place(Unit("m.py", "area", "Box.area", "python", 1, 5, METHOD), "python", line) == opening


def test_a_line_without_a_head_opens_at_its_indentation_but_the_space_its_first_word_carries() -> None:
    code = "def log(x):\n    if x:\n        print(x)\n"
    assert line_in_place(unit(code, "log"), "python", 3) == "```python\ndef log(x):\n    if x:\n       "


def test_the_line_written_in_place_is_read_up_to_its_end_only() -> None:
    opening = "```python\ndef area(self):\n    width ="
    written = the_line_written(f"{opening} self.right + self.left\n    return 0\n```", opening, "python")
    assert written == "```python\nwidth = self.right + self.left"


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


def test_a_documented_function_is_repaired_from_the_code_the_model_writes_after_its_docstring(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    doc = '    """Add two numbers.\n\n    Both may be negative.\n    """\n'
    (repo / "calc.py").write_text(f"def add(a, b):\n{doc}    return a - b\n")
    (repo / "test_calc.py").write_text("from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    # Ollama's way: the continuation alone, from the line after the docstring.
    server = stub_server([" return a + b\n```"])
    env = {**cli_env, "PEDRO_REPAIR__COVERAGE": "false", "PEDRO_REPAIR__MUTANTS": "0"}
    proc = debug(server, repo, env, "llamacpp")
    assert proc.returncode == 0, proc.stderr
    assert (repo / "calc.py").read_text() == f"def add(a, b):\n{doc}    return a + b\n"
    opened = f"```python\ndef add(a, b):\n{doc}   "
    assert server.requests[0]["messages"][-1] == {"role": "assistant", "content": opened}
    # The room asked for is what is left to write, not the docstring again.
    assert server.requests[0]["max_tokens"] < 96 + 20


def test_a_line_answered_in_place_fixes_the_line_the_traceback_names(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    (repo / "words.py").write_text("def first_word(text):\n    words = text.split()\n    return words[1]\n")
    test = "from words import first_word\n\n\ndef test_first():\n    assert first_word('hello') == 'hello'\n"
    (repo / "test_words.py").write_text(test)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "words")
    # Every answer is the same continuation: after `def first_word` it is no function; after the line's `return`,
    # written in place, it is the fix.
    server = stub_server([" words[0]"] * 6)
    proc = debug(server, repo, {**cli_env, "PEDRO_REPAIR__MUTANTS": "0"}, "llamacpp")
    assert proc.returncode == 0, proc.stderr
    assert (repo / "words.py").read_text() == "def first_word(text):\n    words = text.split()\n    return words[0]\n"
    opened = "```python\ndef first_word(text):\n    words = text.split()\n    return"
    line_question = next(r["messages"] for r in server.requests if r["messages"][-1]["content"] == opened)
    assert line_question[-1]["role"] == "assistant"
    # The line is asked with the function's own prompt, which the server's cache then holds for both.
    function_question = next(r["messages"] for r in server.requests if r["messages"][-1]["content"].endswith("word"))
    assert line_question[:-1] == function_question[:-1]

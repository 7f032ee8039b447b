"""How a repair question shows code: a long docstring by its first paragraph, a test without its docstrings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cli_util import pedro
from repo_util import PYTEST, git

from pedro.repair.shown_code import LONG_DOCSTRING_LINES, brief, code_of_test

DETAILS = "".join(f"        A detail nobody needs here, number {n}.\n" for n in range(LONG_DOCSTRING_LINES))
DOCUMENTED = (
    '    def first_word(self, text):\n        """\n'
    "        The first word of a text.\n        Words are split at white space.\n\n"
    f'{DETAILS}        """\n'
    "        words = text.split()\n        return words[1]\n"
)


def test_a_long_docstring_is_shown_by_its_first_paragraph_and_the_rows_after_it_move_up() -> None:
    shown = brief(DOCUMENTED)
    assert shown.text == (
        "    def first_word(self, text):\n"
        '        """\n'
        "        The first word of a text.\n"
        "        Words are split at white space.\n"
        '        """\n'
        "        words = text.split()\n"
        "        return words[1]"
    )
    rows = DOCUMENTED.splitlines()
    shown_rows = shown.text.splitlines()
    for row in (0, 2, 3, len(rows) - 3, len(rows) - 2, len(rows) - 1):
        assert shown_rows[shown.row(row)] == rows[row]


def test_a_docstring_of_a_few_lines_and_code_that_does_not_parse_are_shown_as_written() -> None:
    short = '    def f(self):\n        """One line.\n\n        Two.\n        """\n        return 1\n'
    assert brief(short).text == short and brief(short).row(5) == 5
    broken = DOCUMENTED.replace("words = text.split()", "words = text.split(")
    assert brief(broken).text == broken


def test_a_tests_docstrings_are_left_out_but_a_body_that_is_its_docstring_alone() -> None:
    test = (
        "    def check(self, a):\n"
        '        """How to call it,\n        at length."""\n'
        "        assert a\n\n"
        "    def placeholder(self):\n"
        '        """Nothing yet."""\n'
    )
    assert code_of_test(test, "python", 30) == (
        'def check(self, a):\n    assert a\n\ndef placeholder(self):\n    """Nothing yet."""'
    )
    assert code_of_test(test, "python", 2) == "def check(self, a):\n    assert a"
    assert code_of_test("// a\nfunction f() {}\n", "javascript", 30) == "// a\nfunction f() {}"


def test_a_line_of_a_function_in_a_large_file_is_answered_after_its_docstrings_first_paragraph(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    filler = "".join(f"    def helper_{n}(self):\n        return {n}\n\n" for n in range(80))
    source = f"class Words:\n{filler}{DOCUMENTED}"
    (repo / "words.py").write_text(source)
    test = "from words import Words\n\n\ndef test_first():\n    assert Words().first_word('hello') == 'hello'\n"
    (repo / "test_words.py").write_text(test)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "words")
    server = stub_server([" words[0]"] * 6)
    proc = pedro(
        "debug", "--test", PYTEST, "-d", "first_word is wrong", "--backend", "llamacpp", "--base-url", server.url,
        "--model", "m", "--no-input", "--json", env={**cli_env, "PEDRO_REPAIR__MUTANTS": "0"}, cwd=repo,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    # The fix is in place, and the docstring is as it was written.
    assert (repo / "words.py").read_text() == source.replace("return words[1]", "return words[0]")
    opened = (
        '```python\ndef first_word(self, text):\n    """\n    The first word of a text.\n'
        '    Words are split at white space.\n    """\n    words = text.split()\n    return'
    )
    asked = [r["messages"] for r in server.requests]
    assert any(messages[-1]["content"] == opened for messages in asked), [m[-1]["content"] for m in asked]
    assert not any("A detail nobody needs" in message["content"] for messages in asked for message in messages)

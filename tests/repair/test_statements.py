"""The lines of one statement, in each language repair reads."""

from __future__ import annotations

import pytest

from pedro.repair.answers import Question, _line_text
from pedro.repair.locate import Unit
from pedro.repair.statements import statement_lines

PYTHON = """def f(left, right):
    x = "(" + left
    if not (num(left) and
            num(right)):
        return None
    y = foo(
        a,
        b,
    ) + \\
        3
    return x
"""


@pytest.mark.parametrize(
    ("line", "span"),
    [(1, (1, 1)), (2, (2, 2)), (3, (3, 4)), (4, (3, 4)), (5, (5, 5)), (7, (6, 10)), (10, (6, 10)), (11, (11, 11))],
)
def test_python_statements_run_as_far_as_the_tokenizer_reads_them(line: int, span: tuple[int, int]) -> None:
    assert statement_lines(PYTHON, line, "python") == span


def test_a_method_cut_from_its_class_is_read_at_its_own_indentation() -> None:
    method = "    def f(self):\n        return (1 +\n                2)\n"
    assert statement_lines(method, 2, "python") == (2, 3)


def test_python_that_cannot_be_tokenized_leaves_each_line_alone() -> None:
    assert statement_lines('def f():\n    s = """never closed\n    return s\n', 3, "python") == (3, 3)


JAVASCRIPT = """function f(a, b) {
  if (num(a) &&
      num(b)) {
    return null;
  }
  const s = ")" + a; // (
  const t = a &&
    b;
  i--;
  return s;
}"""


@pytest.mark.parametrize(
    ("line", "span"),
    [(1, (1, 1)), (2, (2, 3)), (3, (2, 3)), (4, (4, 4)), (6, (6, 6)), (7, (7, 8)), (8, (7, 8)), (9, (9, 9))],
)
def test_javascript_statements_end_where_brackets_close_and_no_operator_is_left(
    line: int, span: tuple[int, int]
) -> None:
    assert statement_lines(JAVASCRIPT, line, "javascript") == span


def test_a_go_condition_broken_after_its_operator_is_one_statement() -> None:
    code = "func F(a, b int) bool {\n\tif a > 0 &&\n\t\tb > 0 {\n\t\treturn true\n\t}\n\treturn false\n}"
    assert statement_lines(code, 3, "go") == (2, 3)
    assert statement_lines(code, 4, "go") == (4, 4)


def test_a_line_outside_the_text_is_its_own_statement() -> None:
    assert statement_lines("x = 1\n", 5, "python") == (5, 5)


def test_a_line_question_shows_the_whole_statement_its_line_is_part_of() -> None:
    text = "def compare(a, b):\n    if not (is_number(a) and\n            is_number(b)):\n        return None"
    unit = Unit("visitor.py", "compare", "compare", "python", 10, 13, text)
    assert _line_text(Question(unit, "line", 11)) == "if not (is_number(a) and is_number(b)):"
    assert _line_text(Question(unit, "line", 13)) == "return None"

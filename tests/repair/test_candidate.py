"""Answers read leniently: fenced or bare, whole function or body, indented to fit; invalid code is no candidate."""

from __future__ import annotations

from pathlib import Path

import pytest

from pedro.repair.candidate import drops_own_calls, read_candidate, read_line_candidate
from pedro.repair.locate import Unit, file_units

FILE = 'def add(a, b):\n    """Sum."""\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n'
ADD = Unit("calc.py", "add", "add", "python", 1, 3, 'def add(a, b):\n    """Sum."""\n    return a - b')
FIXED = 'def add(a, b):\n    """Sum."""\n    return a + b'


@pytest.mark.parametrize(
    "reply",
    [
        f"Here is the fix:\n\n```python\n{FIXED}\n```\n\nThis returns the sum.",
        f"```\n{FIXED}\n```",
        f"```py\n{FIXED}\n",  # the closing fence cut off by max_tokens
        f"{FIXED}\n",  # no fence at all
        f"The bug is the minus sign.\n{FIXED}",  # prose, then bare code
        f"```python\nimport math\n\n\n{FIXED}\n\n\nprint(add(2, 3))\n```",  # extra lines around the function
        f"```python\n    {FIXED.replace(chr(10), chr(10) + '    ')}\n```",  # indented too deep
    ],
)
def test_a_whole_function_in_many_shapes(reply: str) -> None:
    assert read_candidate(reply, ADD, FILE).text == FIXED


def test_the_block_that_defines_the_function_wins() -> None:
    reply = f"```python\nassert add(2, 3) == 5\n```\n\n```python\n{FIXED}\n```"
    assert read_candidate(reply, ADD, FILE).text == FIXED


def test_a_body_alone_gets_the_original_header() -> None:
    candidate = read_candidate("```python\nreturn a + b\n```", ADD, FILE)
    assert candidate.text == FIXED  # the docstring stays


def test_a_whole_function_keeps_the_originals_docstring_whatever_the_answer_did_with_it() -> None:
    # Dropped, or rewritten in the model's words: the fix is the code's, the docstring stays the user's.
    for reply in (
        "def add(a, b):\n    return a + b",
        'def add(a, b):\n    """Return the sum of a and b."""\n    return a + b',
    ):
        assert read_candidate(f"```python\n{reply}\n```", ADD, FILE).text == FIXED
    # A method's docstring over two lines, indented to the class.
    file = 'class A:\n    def f(self):\n        """One.\n\n        Two."""\n        return 1\n'
    unit = Unit("a.py", "f", "A.f", "python", 2, 6, "\n".join(file.splitlines()[1:]))
    fixed = read_candidate("```python\ndef f(self):\n    return 2\n```", unit, file).text
    assert fixed == '    def f(self):\n        """One.\n\n        Two."""\n        return 2'


def test_a_method_is_indented_to_its_class() -> None:
    file = "class Account:\n    def deposit(self, amount):\n        self.balance -= amount\n"
    unit = Unit(
        "a.py", "deposit", "Account.deposit", "python", 2, 3, file.splitlines()[1] + "\n" + file.splitlines()[2]
    )
    reply = "```python\ndef deposit(self, amount):\n    self.balance += amount\n```"
    assert read_candidate(reply, unit, file).text == "    def deposit(self, amount):\n        self.balance += amount"


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("```python\ndef add(a, b):\n    return a +\n```", "not valid python"),
        ("```python\ndef add_numbers(a, b):\n    return a + b\n```", "another function"),
        (f"```python\n{ADD.text}\n```", "unchanged"),
        ("I cannot help with that.", "no code"),
    ],
)
def test_unusable_answers_say_why(reply: str, problem: str) -> None:
    candidate = read_candidate(reply, ADD, FILE)
    assert candidate.text is None
    assert problem in candidate.problem


def test_javascript_function() -> None:
    file = (
        "function clamp(x, lo, hi) {\n  if (x < lo) return hi;\n  return Math.min(x, hi);\n}\n"
        "module.exports = { clamp };\n"
    )
    unit = Unit("clamp.js", "clamp", "clamp", "javascript", 1, 4, "\n".join(file.splitlines()[:4]))
    fixed = "function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  return Math.min(x, hi);\n}"
    assert read_candidate(f"```javascript\n{fixed}\n```", unit, file).text == fixed
    assert read_candidate("```js\nfunction clamp(x, lo, hi) {\n  if (x < lo\n}\n```", unit, file).text is None


def test_go_function_and_body() -> None:
    file = "package words\n\nfunc Double(n int) int {\n\treturn n + 2\n}\n"
    unit = Unit("words.go", "Double", "Double", "go", 3, 5, "func Double(n int) int {\n\treturn n + 2\n}")
    fixed = "func Double(n int) int {\n\treturn n * 2\n}"
    assert read_candidate(f"```go\n{fixed}\n```", unit, file).text == fixed
    assert read_candidate("```go\nreturn n * 2\n```", unit, file).text == fixed


def test_bare_code_before_a_stray_fence_is_read() -> None:
    # Gemma-3-270M's way: the fixed function bare, then prose with a fence that opens nothing useful.
    reply = (
        f"{FIXED}\n\nThe test fails: write it in one ```python block.assertRaises\nassertRaises(TypeError, add)\n```"
    )
    assert read_candidate(reply, ADD, FILE).text == FIXED


def test_no_block_is_taken_for_a_body_when_the_answer_defines_the_function() -> None:
    # SmolLM2's way: an assertion in one block, the function unchanged in another.
    reply = f"```\nassert add(2, 3) == 5\n```\n\nThe corrected function is:\n\n```python\n{ADD.text}\n```"
    candidate = read_candidate(reply, ADD, FILE)
    assert candidate.text is None and "unchanged" in candidate.problem


def test_a_line_answer_about_a_line_the_function_no_longer_has_is_no_candidate() -> None:
    candidate = read_line_candidate("```python\nreturn a + b", ADD, 9, FILE)
    assert candidate.text is None and "line 9 is not in add (lines 1-3)" in candidate.problem


# jmespath's comparator, as black split its guard: a line answer gives the whole condition on one line.
GUARD_FILE = (
    "def compare(left, right):\n"
    "    if not (is_number(left) and\n"
    "            is_number(right)):\n"
    "        return None\n"
    "    return left < right\n"
)
GUARD = Unit("visitor.py", "compare", "compare", "python", 1, 5, GUARD_FILE.rstrip("\n"))


@pytest.mark.parametrize("line", [2, 3])
def test_a_line_answer_replaces_the_whole_statement_its_line_is_part_of(line: int) -> None:
    reply = "```python\nif not (is_comparable(left) and is_comparable(right)):\n```"
    candidate = read_line_candidate(reply, GUARD, line, GUARD_FILE)
    assert candidate.text == (
        "def compare(left, right):\n"
        "    if not (is_comparable(left) and is_comparable(right)):\n"
        "        return None\n"
        "    return left < right"
    )


def test_a_line_answer_that_keeps_the_statement_open_replaces_its_own_line() -> None:
    reply = "```python\nif not (is_comparable(left) and\n```"
    candidate = read_line_candidate(reply, GUARD, 2, GUARD_FILE)
    assert candidate.text == GUARD.text.replace("is_number(left)", "is_comparable(left)")


def test_a_line_answer_that_repeats_the_whole_statement_is_no_candidate() -> None:
    reply = "```python\nif not (is_number(left) and is_number(right)):\n```"
    candidate = read_line_candidate(reply, GUARD, 2, GUARD_FILE)
    assert candidate.text is None and "repeats the statement on lines 2-3 unchanged" in candidate.problem


def test_a_line_answer_that_fits_neither_the_line_nor_its_statement_says_so() -> None:
    candidate = read_line_candidate("```python\nif not (is_number(left) and ((:\n```", GUARD, 2, GUARD_FILE)
    assert candidate.text is None and "in place of lines 2-3, visitor.py is not valid python" in candidate.problem


def test_a_javascript_condition_over_two_lines_is_answered_whole() -> None:
    file = "function cmp(a, b) {\n  if (isNum(a) &&\n      isNum(b)) {\n    return a < b;\n  }\n  return null;\n}\n"
    unit = Unit("cmp.js", "cmp", "cmp", "javascript", 1, 7, file.rstrip("\n"))
    candidate = read_line_candidate("```js\nif (isNum(a) || isNum(b)) {\n```", unit, 2, file)
    assert candidate.text is not None and "  if (isNum(a) || isNum(b)) {\n    return a < b;" in candidate.text


COMPARE = (
    "def is_number(x):\n    return isinstance(x, (int, float))\n\n\n"
    "def less(a, b):\n    if not (is_number(a) and\n            is_number(b)):\n        return None\n    return a < b\n"
)


@pytest.mark.parametrize(
    ("answer", "dropped"),
    [
        # The type guard rewritten as another condition: it passes a test that compares two strings, and makes every
        # comparison of equal numbers return None.
        ("```python\nif a == b:", True),
        ("```python\nif not (is_number(a) or is_number(b)):", False),  # a call of the file's own kept
        ("```python\nif not (is_number(a) and is_number(b)) or a == b:", False),
    ],
)
def test_a_line_answer_that_calls_none_of_its_files_functions_where_the_line_did_is_no_fix(
    tmp_path: Path, answer: str, dropped: bool
) -> None:
    (tmp_path / "compare.py").write_text(COMPARE)
    units = file_units(tmp_path, "compare.py")
    less = next(unit for unit in units if unit.name == "less")
    own = {unit.name for unit in units}
    candidate = read_line_candidate(answer, less, 6, COMPARE)
    assert candidate.text is not None
    why = drops_own_calls(candidate.text, less, 6, own)
    assert (
        why == "it no longer calls is_number, as the line did: that rewrites the line rather than fixing it"
    ) is dropped
    assert dropped or why == ""
    # A line that calls nothing of its file's may change as it will.
    returned = read_line_candidate("```python\nreturn a <= b", less, 9, COMPARE)
    assert returned.text is not None and drops_own_calls(returned.text, less, 9, own) == ""

"""An answer that writes the request's example result into its code is found, and one that computes it is not."""

from __future__ import annotations

import pytest

from pedro.build.examples import read_examples
from pedro.build.fitted import fitted_to_example

CLAMP = (
    "Add a function clamp(x, lo, hi) to mathutil.js and export it: it returns lo when x is below lo, hi when x is "
    "above hi, and x otherwise. Example: clamp(15, 0, 10) returns 10."
)


def fitted(code: str, language: str, request: str, name: str) -> str:
    return fitted_to_example(code, language, read_examples(request, name), request)


def test_the_examples_result_written_as_a_literal_is_found() -> None:
    code = "function clamp(x, lo, hi) {\n  return x > hi ? 10 : Math.max(lo, x);\n}"
    assert fitted(code, "javascript", CLAMP, "clamp") == (
        "it writes clamp(15, 0, 10)'s result, 10, into the code instead of computing it"
    )
    # A `#` inside a string is no comment: what follows it on the line is still code.
    hashed = 'def clamp(x, lo, hi):\n    return "#" and 10 if x > hi else max(lo, x)\n'
    assert fitted(hashed, "python", CLAMP, "clamp").startswith("it writes clamp(15, 0, 10)'s result, 10")
    shout = "Add times to shout(). Example: shout('hi', times=3) returns 'HI!!!'."
    assert fitted('def shout(s, times=1):\n    return "HI!!!" if s and times else s\n', "python", shout, "shout")


def test_a_parameter_the_answer_never_reads_is_found() -> None:
    code = "function clamp(x, low, high) {\n  return Math.max(low, high);\n  return Math.min(low, high);\n}"
    assert fitted(code, "javascript", CLAMP, "clamp") == "it never reads its parameter x"
    shout = "def shout(s, times=1):\n    return s.upper() + '!'\n"
    assert fitted(shout, "python", "Add times to shout().", "shout") == "it never reads its parameter times"
    # A method's self is left alone; Go's names are read from a signature that mixes them with types.
    assert fitted("def peek(self):\n    return 1\n", "python", "Add peek().", "peek") == ""
    go_max = "func Max(a, b int) int {\n\treturn b\n}"
    assert fitted(go_max, "go", "Add Max(a, b int). Example: Max(3, 7) returns 7.", "Max") == (
        "it never reads its parameter a"
    )


@pytest.mark.parametrize(
    ("code", "language", "request_", "name"),
    [
        # Computed; the example restated in a comment or a docstring is no fitting.
        ("function clamp(x, lo, hi) {\n  // clamp(15, 0, 10) returns 10\n  return Math.min(hi, Math.max(lo, x));\n}",
         "javascript", CLAMP, "clamp"),
        ("/* clamp(15, 0, 10) returns 10 */\nfunction clamp(x, lo, hi) {\n  return Math.min(hi, Math.max(lo, x));\n}",
         "javascript", CLAMP, "clamp"),
        ("def shout(s, times=1):\n    \"\"\"shout('hi', times=3) returns 'HI!!!'\"\"\"\n"
         "    return s.upper() + '!' * times\n",
         "python", "Example: shout('hi', times=3) returns 'HI!!!'.", "shout"),
        # The value is named beyond the example: writing it is what was asked.
        ("def fizz(n):\n    return 'Fizz' if n % 3 == 0 else n\n", "python",
         "Add fizz(n): it returns 'Fizz' for multiples of 3, else n. Example: fizz(9) returns 'Fizz'.", "fizz"),
        # Called with nothing, a function can only write its result.
        ("def version():\n    return '1.2.3'\n", "python", "Example: version() returns '1.2.3'.", "version"),
        # Values too common in code to tell anything, and a longer number that only contains the result.
        ("def sub(a, b):\n    return a - b if a > 1 else 2\n", "python", "Example: sub(5, 3) returns 2.", "sub"),
        ("def area(r):\n    return 3.14159 * r * r\n", "python", "Example: area(1) returns 3.", "area"),
    ],
)  # fmt: skip
def test_an_answer_that_computes_the_result_is_not_called_fitted(
    code: str, language: str, request_: str, name: str
) -> None:
    assert fitted(code, language, request_, name) == ""

"""A counted loop whose counter divides in its body but starts at 0 or 1: offered starting at 2, in Python,
JavaScript and Go, in its header or where it is set before a `while` loop, and a primality test that divides by
everything from 0 and a factorisation from 0 fixed through the real repair. A search for divisors from 2 that never
looks at numbers below 2: given their answer first, and a prime-length filter fixed."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_util import node_test
from test_mutants import fixed_among_the_first, tried_by_node

from pedro.repair.clues import Clues
from pedro.repair.divisor_loops import divisor_loops, small_numbers
from pedro.repair.locate import Unit
from pedro.repair.variants import unit_variants

JS = (
    "function isPrime(n) {\n  if (n < 2) return false;\n  for (let j = 0; j < n; j++)\n    if (n % j == 0)\n"
    "      return false;\n  return true;\n}"
)


def test_a_counter_that_divides_starts_at_2_in_each_language() -> None:
    assert [(change.row, change.text) for change in divisor_loops(JS.splitlines(), "javascript")] == [
        (2, "  for (let j = 2; j < n; j++)")
    ]
    python = ["def f(n):", "    for j in range(n):", "        if n % j == 0:", "            return j"]
    assert [change.text for change in divisor_loops(python, "python")] == ["    for j in range(2, n):"]
    assert divisor_loops(["    for k in range(1, len(xs)):", "        t += n / k"], "python")[0].text == (
        "    for k in range(2, len(xs)):"
    )
    go = ["\tfor i := 1; i < n; i++ {", "\t\tif n%i == 0 {", "\t\t\tcount++", "\t\t}", "\t}"]
    assert [change.text for change in divisor_loops(go, "go")] == ["\tfor i := 2; i < n; i++ {"]


@pytest.mark.parametrize(
    ("lines", "language"),
    [
        (["    for j in range(n):", "        total += j % 2"], "python"),  # the counter is divided, not a divisor
        (["    for j in range(n, 0, -1):", "        x = n % j"], "python"),  # a range with a step
        (["  for (let j = 0; j < n; j++)", "    out.push(j);", "  x = n % j;"], "javascript"),  # after the loop
        (["  for (let j = 3; j < n; j++)", "    if (n % j == 0) return false;"], "javascript"),  # from 3 on purpose
    ],
)
def test_a_loop_whose_counter_divides_nothing_or_starts_past_1_is_left_alone(lines: list[str], language: str) -> None:
    assert divisor_loops(lines, language) == []


FACTORIZE = (
    "def factorize(n):\n    fact = []\n    i = 0\n    while i <= int(n ** 0.5 + 1):\n        if n % i == 0:\n"
    "            fact.append(i)\n            n //= i\n        else:\n            i += 1\n    if n > 1:\n"
    "        fact.append(n)\n    return fact\n"
)


def test_a_counter_set_before_a_while_loop_that_moves_it_and_divides_starts_at_2_in_each_language() -> None:
    assert [(change.row, change.text) for change in divisor_loops(FACTORIZE.splitlines(), "python")] == [
        (2, "    i = 2")
    ]
    js = ["  var fact = [], i = 0;", "  while (i <= Math.sqrt(n) + 1) {", "    if (n % i == 0) {", "      n = n / i;",
          "    } else {", "      i += 1;", "    }", "  }"]  # fmt: skip
    assert [(change.row, change.text) for change in divisor_loops(js, "javascript")] == [(0, "  var fact = [], i = 2;")]
    go = ["\ti := 1", "\tcount := 0", "\tfor i*i <= n {", "\t\tif n%i == 0 {", "\t\t\tcount++", "\t\t}", "\t\ti++",
          "\t}"]  # fmt: skip
    assert [(change.row, change.text) for change in divisor_loops(go, "go")] == [(0, "\ti := 2")]


@pytest.mark.parametrize(
    ("lines", "language"),
    [
        # the loop never moves the counter
        (["    i = 0", "    while n > 1:", "        if n % i == 0:", "            n //= i"], "python"),
        # the counter is divided, not a divisor
        (["    i = 0", "    while i < n:", "        total += i % 2", "        i += 1"], "python"),
        # the loop comes long after the setting, or deeper
        (["  let i = 0;", "  a();", "  b();", "  c();", "  d();", "  while (i < n) {", "    x = n % i;", "    i++;",
          "  }"], "javascript"),
        (["\ti := 0", "\tif ok {", "\t\tfor i < n {", "\t\t\tx = n % i", "\t\t\ti++", "\t\t}", "\t}"], "go"),
    ],
)  # fmt: skip
def test_a_counter_no_while_loop_right_after_moves_and_divides_by_is_left_alone(
    lines: list[str], language: str
) -> None:
    assert divisor_loops(lines, language) == []


def test_a_factorisation_whose_divisor_starts_at_0_before_its_while_loop_is_fixed(repo: Path) -> None:
    test = (
        "from factors import factorize\n\n\ndef test_factorize():\n    assert factorize(8) == [2, 2, 2]\n"
        "    assert factorize(70) == [2, 5, 7]\n"
    )
    fixed_among_the_first(repo, {"factors.py": FACTORIZE, "test_factors.py": test}, "`i` starts at 2, not 0")
    assert "    i = 2\n    while" in (repo / "factors.py").read_text()


def test_a_primality_test_that_divides_from_0_is_fixed(repo: Path) -> None:
    files = {
        "prime.js": f"{JS}\n\nmodule.exports = {{ isPrime }};\n",
        "prime.test.js": node_test(
            "prime", "isPrime", "assert.equal(isPrime(7), true);", "assert.equal(isPrime(9), false);",
            "assert.equal(isPrime(2), true);",
        ),
    }  # fmt: skip
    tried = tried_by_node(repo, files)
    assert "starts at 2" in str(tried[-1].get("change")), [c.get("change") for c in tried]
    assert "for (let j = 2; j < n; j++)" in (repo / "prime.js").read_text()


LARGEST_FACTOR = (
    "const largestFactor = (n) => {\n  let best = 1, d = 0;\n  while (d <= n) {\n    if (n % d == 0) {\n"
    "      best = d;\n      n = n / d;\n    } else {\n      d += 1;\n    }\n  }\n  return best;\n};\n"
)


def test_a_divisor_from_0_before_a_while_loop_is_the_first_change_where_the_test_hangs() -> None:
    # `n % 0` is NaN, so the counter reaches 1, and `n / 1` leaves n as it was: the test hangs, nothing is raised.
    lines = LARGEST_FACTOR.splitlines()
    unit = Unit("factor.js", "largestFactor", "largestFactor", "javascript", 1, len(lines), LARGEST_FACTOR.rstrip())
    first = unit_variants(unit, [], Clues(kinds=frozenset({"hang"})), LARGEST_FACTOR)[0]
    assert (first.line, first.text) == (2, "  let best = 1, d = 2;"), first
    # Without the hang it is a slip of the second tier, behind the one-token slips of the loop's own lines.
    plain = unit_variants(unit, [3, 4], Clues(kinds=frozenset({"assert"})), LARGEST_FACTOR)[0]
    assert "starts at 2" not in plain.change


def test_a_search_for_divisors_from_2_gets_the_answer_for_numbers_below_2_in_each_language() -> None:
    python = ["def f(n):", "    for k in range(2, n):", "        if n % k == 0: return False", "    return True"]
    assert [(c.row, c.text) for c in small_numbers(python, "python")] == [
        (1, "    if n < 2:\n        return False\n    for k in range(2, n):")
    ]
    js = ["  for (let k = 2; k * k <= s.length; k++) {", "    if (s.length % k === 0) {", "      ok = false", "    }"]
    assert [c.text for c in small_numbers(js, "javascript")] == [
        "  if (s.length < 2) {\n    ok = false\n  }\n  for (let k = 2; k * k <= s.length; k++) {"
    ]
    go = ["\tfor i := 2; i < n; i++ {", "\t\tif n%i == 0 {", "\t\t\treturn false", "\t\t}", "\t}"]
    assert [c.text for c in small_numbers(go, "go")] == [
        "\tif n < 2 {\n\t\treturn false\n\t}\n\tfor i := 2; i < n; i++ {"
    ]


def test_a_search_whose_unit_looks_at_small_numbers_or_that_does_more_on_a_divisor_is_left_alone() -> None:
    guarded = ["def f(n):", "    if n <= 1:", "        return False", "    for k in range(2, n):",
               "        if n % k == 0:", "            return False"]  # fmt: skip
    assert small_numbers(guarded, "python") == []
    counts = ["def f(n):", "    for k in range(2, n):", "        if n % k == 0:", "            found.append(k)"]
    assert small_numbers(counts, "python") == []
    # An answer read from the search (the largest divisor) has no value below 2 to give.
    largest = ["def f(n):", "    for i in range(2, n):", "        if n % i == 0:", "            return n // i"]
    assert small_numbers(largest, "python") == []


def test_a_filter_of_words_of_prime_length_that_keeps_one_letter_words_is_fixed(repo: Path) -> None:
    code = (
        "def words_in_sentence(sentence):\n    new_lst = []\n    for word in sentence.split():\n        flg = 0\n"
        "        for i in range(2, len(word)):\n            if len(word) % i == 0:\n                flg = 1\n"
        "        if flg == 0 or len(word) == 2:\n            new_lst.append(word)\n    return ' '.join(new_lst)\n"
    )
    test = (
        "from words import words_in_sentence\n\n\ndef test_words():\n"
        "    assert words_in_sentence('lets go for swimming') == 'go for'\n"
        "    assert words_in_sentence('here is') == 'is'\n    assert words_in_sentence('a b cd') == 'cd'\n"
    )
    fixed_among_the_first(repo, {"words.py": code, "test_words.py": test}, "`if len(word) < 2: flg = 1` added")
    assert "        if len(word) < 2:\n            flg = 1\n        for i in" in (repo / "words.py").read_text()


FACTORIZE_JS = (
    "const factorize = (n) => {\n  var fact = [], i = 0;\n  while (i <= Math.sqrt(n) + 1) {\n    if (n % i == 0) {\n"
    "      fact.push(i);\n      n = n / i;\n    } else {\n      i += 1;\n    }\n  }\n  if (n > 1)\n    fact.push(n);\n"
    "  return fact;\n};\n"
)


def test_a_javascript_divisor_from_0_whose_test_runs_out_of_memory_is_the_first_change(repo: Path) -> None:
    # `n % 0` is NaN, so the counter reaches 1, which divides forever: the array grows until V8 ends the process, and
    # node's report says only that the file failed. The fatal error in the output is the clue of a loop that never
    # ends.
    files = {
        "factors.js": f"{FACTORIZE_JS}\nmodule.exports = {{ factorize }};\n",
        "factors.test.js": node_test(
            "factors", "factorize", "assert.deepEqual(factorize(8), [2, 2, 2]);",
            "assert.deepEqual(factorize(70), [2, 5, 7]);",
        ),
    }  # fmt: skip
    tried = tried_by_node(repo, files)
    assert "starts at 2" in str(tried[0].get("change")), [c.get("change") for c in tried]
    assert "var fact = [], i = 2;" in (repo / "factors.js").read_text()

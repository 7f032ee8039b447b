"""Values started empty, read and never changed: a count beside a sibling stepped in an `if` with no `else` gets its
step as the `else`, a collection takes the place of the one another line fills; in each language, and an even/odd
count fixed through the real repair."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_among_the_first

from pedro.repair.still_values import still_counts, unfilled
from pedro.tools.symbols import LanguageName


def changed(lines: list[str], language: LanguageName) -> list[tuple[int, str]]:
    return [(change.row, change.text) for change in still_counts(lines, language)]


def test_the_still_count_is_stepped_in_the_else_of_its_siblings_if_in_each_language() -> None:
    go = [
        "func EvenOdd(num int) [2]int {",
        "\teven := 0",
        "\todd := 0",
        "\tfor _, r := range strconv.Itoa(num) {",
        "\t\tif r&1 == 0 {",
        "\t\t\teven++",
        "\t\t}",
        "\t}",
        "\treturn [2]int{even, odd}",
        "}",
    ]
    assert changed(go, "go") == [(6, "\t\t} else {\n\t\t\todd++\n\t\t}")]
    js = ["const f = (s) => {", "  let o = 0", "  let e = 0;", "  for (const c of s) {", "    if (c == 1) {"]
    js += ["      e += 1;", "    }", "  }", "  return [e, o]", "}"]
    assert changed(js, "javascript") == [(6, "    } else {\n      o += 1;\n    }")]
    python = ["def f(num):", "    even = 0", "    odd = 0", "    for d in str(num):", "        if int(d) % 2 == 0:"]
    python += ["            even = even + 1", "", "    return (even, odd)"]
    assert changed(python, "python") == [(5, "            even = even + 1\n        else:\n            odd = odd + 1")]


def test_a_count_that_moves_is_unread_or_whose_sibling_has_an_else_gives_nothing() -> None:
    moved = ["def f(xs):", "    a = 0", "    b = 0", "    for x in xs:", "        if x:", "            a += 1"]
    assert changed([*moved, "        b -= 2", "    return a, b"], "python") == []  # b moves
    assert changed([*moved, "    return a"], "python") == []  # b is never read: another slip
    has_else = [*moved, "        else:", "            pass", "    return a, b"]
    assert changed(has_else, "python") == []
    go = ["func F(xs []int) (int, int) {", "\ta := 0", "\tb := 0", "\tfor _, x := range xs {", "\t\tif x > 0 {"]
    assert changed([*go, "\t\t\ta++", "\t\t} else {", "\t\t}", "\t}", "\treturn a, b", "}"], "go") == []
    # A step after a keyword on the same line still moves the count.
    js = [
        "function f(xs) {",
        "  let a = 0",
        "  let b = 0",
        "  for (const x of xs) {",
        "    if (x) {",
        "      a++",
        "    }",
    ]
    assert changed([*js, "    else b++", "  }", "  return [a, b]", "}"], "javascript") == []
    # A step straight in the loop is in no `if`.
    assert (
        changed(
            ["def f(xs):", "    a = 0", "    b = 0", "    for x in xs:", "        a += 1", "    return a, b"], "python"
        )
        == []
    )


def test_a_collection_read_and_never_filled_takes_the_place_of_the_one_filled_instead() -> None:
    go = [
        "func FilterIntegers(values []interface{}) []int {",
        "\tresult := make([]int, 0)",
        "\tfor _, val := range values {",
        "\t\tif i, ok := val.(int); ok {",
        "\t\t\tvalues = append(values, i)",
        "\t\t}",
        "\t}",
        "\treturn result",
        "}",
    ]
    assert [(c.row, c.text) for c in unfilled(go, "go")] == [(4, "\t\t\tresult = append(result, i)")]
    python = ["def f(xs):", "    out = []", "    for x in xs:", "        xs.append(x * 2)", "    return out"]
    assert [c.text.strip() for c in unfilled(python, "python")] == ["out.append(x * 2)"]
    js = ["function f(xs) {", "  const out = [];", "  for (const x of xs) {", "    xs.push(x);", "  }", "  return out;"]
    assert [c.text.strip() for c in unfilled([*js, "}"], "javascript")] == ["out.push(x);"]
    # Filled, stored into, given a new value, or never read: no slip of this kind.
    for later in ("        out.append(1)", "        out[0] = 1", "        out = xs", "        out += [x]"):
        assert unfilled([*python[:4], later, "    return out"], "python") == [], later
    assert unfilled([*python[:4], "    return xs"], "python") == []


def test_an_even_odd_count_that_never_counts_odd_digits_is_fixed_by_a_variant(repo: Path) -> None:
    code = (
        "def even_odd_count(num):\n"
        "    even_count = 0\n"
        "    odd_count = 0\n"
        "    for i in str(abs(num)):\n"
        "        if int(i) % 2 == 0:\n"
        "            even_count += 1\n"
        "    return (even_count, odd_count)\n"
    )
    test = (
        "from digits import even_odd_count\n\n\ndef test_even_odd_count():\n"
        "    assert even_odd_count(7) == (0, 1)\n    assert even_odd_count(-78) == (1, 1)\n"
        "    assert even_odd_count(3452) == (2, 2)\n"
    )
    fixed_among_the_first(repo, {"digits.py": code, "test_digits.py": test}, "`else` taking `odd_count += 1`")
    assert (
        "            even_count += 1\n        else:\n            odd_count += 1\n" in (repo / "digits.py").read_text()
    )

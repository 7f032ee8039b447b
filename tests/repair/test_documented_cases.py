"""Base cases that answer otherwise than the unit's own documentation: made to return the documented values, all at
once and each alone, in each language, and a sequence's base cases fixed for real."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_among_the_first

from pedro.repair.documented_cases import documented_cases

_DOC = "fibfib(0) == 0\nfibfib(1) == 0\nfibfib(2) == 1\n>>> fibfib(5)\n4\n"


def test_base_cases_that_answer_otherwise_than_documented_are_made_the_documented_values() -> None:
    python = ["def fibfib(n):", "    if n == 0:", "        return 0", "    if n == 1:", "        return 1",
              "    elif n == 2: return 2", "    return fibfib(n - 1) + fibfib(n - 2) + fibfib(n - 3)"]  # fmt: skip
    together, *alone = documented_cases(python, "fibfib", _DOC)
    assert (together.row, together.text, together.also) == (4, "        return 0", ((5, "    elif n == 2: return 1"),))
    assert [(c.row, c.text) for c in alone] == [(4, "        return 0"), (5, "    elif n == 2: return 1")]
    assert together.change.startswith("`return 1` → `return 0` for 1, as documented")
    # JavaScript's `return n` under a guard for 0 and 1: the documented answer is 0 for both.
    js = ["const fibfib = (n) => {", "  if (n == 0 || n == 1)", "    return n;", "  if (n === 2) { return 1; }", "}"]
    assert [(c.row, c.text) for c in documented_cases(js, "fibfib", "/* fibfib(0) -> 0, fibfib(1) -> 0 */")] == [
        (2, "    return 0;")
    ]
    # Go's switch, its name documented in another case, in `//` lines.
    go = [
        "func Fibfib(n int) int {",
        "\tswitch n {",
        "\tcase 0, 1:",
        "\t\treturn 1",
        "\tcase 2:",
        "\t\treturn 1",
        "\t}",
    ]
    assert [(c.row, c.text) for c in documented_cases(go, "Fibfib", "// " + _DOC.replace("\n", "\n// "))] == [
        (3, "\t\treturn 0")
    ]


def test_cases_that_agree_with_the_documentation_or_that_it_does_not_pin_are_left_alone() -> None:
    lines = ["def f(n):", "    if n == 1:", "        return 1", "    if n == 3 or n == 4:", "        return 2",
             "    if n == 5:", "        return g(n)", "    if n > 6:", "        return 7"]  # fmt: skip
    # f(3) and f(4) are documented apart; f(5)'s answer is no number; f(6) is said twice, two ways.
    assert documented_cases(lines, "f", "f(1) == 1, f(3) == 2, f(4) == 3, f(5) == 0, f(6) == 1, f(6) == 2") == []
    # Another function's examples say nothing of this one.
    assert documented_cases(lines, "f", "g(1) == 5") == []


def test_a_sequences_base_cases_that_contradict_its_docstring_are_fixed_by_a_variant(repo: Path) -> None:
    code = (
        'def fibfib(n: int):\n    """fibfib(0) == 0\n    fibfib(1) == 0\n    fibfib(2) == 1\n'
        '    fibfib(n) == fibfib(n-1) + fibfib(n-2) + fibfib(n-3).\n    """\n'
        "    if n == 0:\n        return 0\n    if n == 1:\n        return 1\n    if n == 2:\n        return 2\n"
        "    return fibfib(n - 1) + fibfib(n - 2) + fibfib(n - 3)\n"
    )
    test = "from seq import fibfib\n\n\ndef test_fibfib():\n    assert fibfib(5) == 4\n    assert fibfib(8) == 24\n"
    fixed_among_the_first(repo, {"seq.py": code, "test_seq.py": test}, "`return 1` → `return 0` for 1, as documented")
    assert "    if n == 1:\n        return 0\n    if n == 2:\n        return 1\n" in (repo / "seq.py").read_text()

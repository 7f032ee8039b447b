"""doc_examples.py: the examples a Python function's docstring gives, as probes with the answers they promise."""

from __future__ import annotations

from pathlib import Path

from pedro.repair.choose import Passing, against_docs, judge_pool
from pedro.repair.doc_examples import comment_examples, doc_examples
from pedro.repair.locate import Unit
from pedro.repair.probes import ProbeSpec, probe_spec

CLOSE = '''def has_close_elements(numbers, threshold):
    """Whether any two numbers are closer to each other than threshold.
    >>> has_close_elements([1.0, 2.0, 3.0], 0.5)
    False
    >>> has_close_elements([1.0, 2.8, 3.0, 4.0, 5.0, 2.0],
    ...                    0.3)
    True
    >>> has_close_elements(numbers, 0.3)
    True
    """
    return False
'''
SPACES = '''def fix_spaces(text, fill="_"):
    """Spaces as underscores: fix_spaces("Example 1") == "Example_1", fix_spaces(" a") -> "_a".
    For example fix_spaces("a b", fill="-") returns "a-b". And fix_spaces("x") == "x" but also fix_spaces("x") == "y".
    Not an example: other_function("a") == "b"; fix_spaces(text) == text.
    """
'''


def test_a_prompts_answer_and_a_calls_stated_value_are_examples_with_literals_alone() -> None:
    assert doc_examples(CLOSE, "has_close_elements") == [((([1.0, 2.0, 3.0], 0.5), {}), False)]
    assert doc_examples(SPACES, "fix_spaces") == [
        ((("Example 1",), {}), "Example_1"),
        (((" a",), {}), "_a"),
        ((("a b",), {"fill": "-"}), "a-b"),
    ]  # `fix_spaces("x")` is answered two ways, and `text` is no literal
    assert doc_examples("def f(x):\n    return x\n", "f") == []
    assert doc_examples("def f(:\n", "f") == []
    # An answer worked out is no answer: `1` is only its first term.
    worked = 'def f(xs):\n    """f([1, 3]) == 1 + 9 = 10, f([]) == 0, f([2]) == 4 - 0."""\n'
    assert doc_examples(worked, "f") == [((([],), {}), 0)]


def test_a_number_prose_promises_is_answered_by_the_text_that_writes_it() -> None:
    documented = [(0, "= 6"), (1, "= 6.5"), (2, "= 'ab'")]
    assert against_docs(["= '6.00'", "= 6.5", "= 'ab'"], documented) == []
    assert against_docs(["= '6.01'", "= '6.5'", "= 'ab '"], documented) == [0, 2]
    assert against_docs(["= 'six'", "! ValueError", "= 'ab'"], documented) == [0, 1]


def _unit(root: Path, path: str, name: str) -> Unit:
    text = (root / path).read_text()
    return Unit(path, name, name, "python", 1, text.count("\n"), text)


def test_a_function_no_test_calls_with_literals_is_probed_on_its_docstrings_examples(tmp_path: Path) -> None:
    (tmp_path / "close.py").write_text(CLOSE)
    (tmp_path / "test_close.py").write_text("from close import has_close_elements\n\n\ndef test_it():\n    xs = [1.0]\n"
                                             "    assert not has_close_elements(xs, 0.1)\n")  # fmt: skip
    spec = probe_spec(_unit(tmp_path, "close.py", "has_close_elements"), tmp_path)
    assert spec is not None and (spec.module, spec.pinned) == ("close", 0)
    assert spec.inputs == ("(([1.0, 2.0, 3.0], 0.5), {})",) and spec.documented == ((0, "= False"),)


def test_the_candidate_that_answers_as_the_docstring_says_stays_whatever_the_vote() -> None:
    # median: `n // 2` turned into `2 // n` on either side pass the tests and agree with each other on most probes;
    # `+ 1` → `- 1` is the fix, and the docstring's example is the one input that tells them apart.
    spec = ProbeSpec("stats", "median", ("(([1, 2, 3, 4],), {})", "(([1, 2, 3, 4, 5, 6],), {})", "(([2, 3],), {})"),
                     pinned=1, documented=((1, "= 3.5"),))  # fmt: skip
    twin = Passing(2, "a", ("= 2.5", "= 3.0", "= 2.5"), 1)
    other_twin = Passing(6, "b", ("= 2.5", "= 3.0", "= 2.5"), 1)
    right = Passing(7, "c", ("= 2.5", "= 3.5", "= 2.5"), 1)
    verdict = judge_pool([twin, other_twin, right], spec, ("! IndexError", "! IndexError", "! IndexError"))
    assert verdict.index == 2
    assert verdict.disputes == ()  # the docstring settles the one input they differ on
    # A rival the docstring proves wrong disputes nothing, on that input or any other.
    wrong_elsewhere = Passing(8, "d", ("= 2.5", "= 3.0", "= 9.0"), 1)
    assert judge_pool([right, wrong_elsewhere], spec, ("! IndexError",) * 3).disputes == ()
    unproven = Passing(9, "e", ("= 2.5", "= 3.5", "= 9.0"), 1)
    assert judge_pool([right, unproven], spec, ("! IndexError",) * 3).disputes == (
        "median([2, 3]): 2.5 (candidate 7) or 9.0 (candidate 9)",
    )
    kept_wrong = judge_pool([twin], spec, ("! IndexError",) * 3)
    assert kept_wrong.disputes[0] == "median([1, 2, 3, 4, 5, 6]): 3.0 (candidate 2), where its docstring says 3.5"


def test_the_comment_above_a_go_or_javascript_function_gives_its_examples_in_either_languages_literals() -> None:
    go = (
        "package stats\n\n// Median of the list.\n// >>> Median([3, 1, 2, 4, 5])\n// 3.0\n"
        "// Median([]int{1, 2}) == 1.5, and Median(xs) == 0 for a name.\nfunc Median(l []int) float64 {\n"
    )
    assert comment_examples(go, 7, "Median") == [((([3, 1, 2, 4, 5],), {}), 3.0), ((([1, 2],), {}), 1.5)]
    js = (
        "/*Return the words capitalised.\n  >>> capitalize('ab cd')\n  'Ab Cd'\n  >>> capitalize(\"\")\n  ''\n  */\n"
        "const capitalize = (s) => {\n"
    )
    assert comment_examples(js, 7, "capitalize") == [((("ab cd",), {}), "Ab Cd"), ((("",), {}), "")]
    jsdoc = "/**\n * Whether n is even: isEven(4) === true, isEven(null) === false.\n */\nfunction isEven(n) {\n"
    assert comment_examples(jsdoc, 4, "isEven") == [(((4,), {}), True), (((None,), {}), False)]
    # Only the comment that ends on the line above: a blank line or code between ends it.
    assert comment_examples("// f(1) == 2\n\nfunc f(n int) int {\n", 3, "f") == []
    assert comment_examples("// f(1) == 2\nvar x = 1\nfunc f(n int) int {\n", 3, "f") == []

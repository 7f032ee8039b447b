"""The direct way's parts on real files: where the change goes, the request's examples, an answer put into its file,
and the calls that check it, made in the project's own language in the sandbox."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pedro.build.direct import joined_answer
from pedro.build.examples import Example, read_examples
from pedro.build.merge import Merged, merge
from pedro.build.place import Place, find_place
from pedro.build.question import answer_opening
from pedro.build.strategy import size_in_name
from pedro.calls.run import Call, run_calls

STATS = '"""Statistics."""\n\n\ndef mean(values):\n    return sum(values) / len(values)\n'
STACK = (
    "class Stack:\n    def __init__(self):\n        self._items = []\n\n"
    "    def push(self, item):\n        self._items.append(item)\n"
)
ARRAYS = "function sum(items) {\n  return items.reduce((t, n) => t + n, 0);\n}\n\nmodule.exports = { sum };\n"
GO = "package textutil\n\n// Reverse reverses s.\nfunc Reverse(s string) string {\n\treturn s\n}\n"


def write(root: Path, files: dict[str, str]) -> list[str]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return sorted(files)


# ---- where the change goes


def test_the_file_and_the_new_function_the_request_names(tmp_path: Path) -> None:
    listed = write(tmp_path, {"stats.py": STATS, "test_stats.py": "from stats import mean\n", "other.py": ""})
    place = find_place("Add a function median(values) to stats.py that returns the middle value.", tmp_path, listed)
    assert place == Place("stats.py", "python", "median", why="the request names stats.py")


def test_a_method_goes_into_the_class_the_request_names(tmp_path: Path) -> None:
    listed = write(tmp_path, {"pkg/stack.py": STACK})
    place = find_place("Add a peek() method to Stack in stack.py: it returns the top item.", tmp_path, listed)
    assert place is not None and (place.path, place.name, place.owner, place.exists) == (
        "pkg/stack.py",
        "peek",
        "Stack",
        False,
    )
    assert place.label == "Stack.peek()"


def test_an_option_to_an_existing_function_changes_that_function(tmp_path: Path) -> None:
    listed = write(tmp_path, {"textutil.py": "def count_words(text):\n    return len(text.split())\n"})
    place = find_place("Add a keyword argument unique to count_words() in textutil.py.", tmp_path, listed)
    assert place is not None and (place.name, place.exists) == ("count_words", True)


def test_without_a_file_name_the_file_that_defines_a_named_function_is_chosen(tmp_path: Path) -> None:
    listed = write(tmp_path, {"a.py": "def unrelated():\n    pass\n", "lib/stats.py": STATS})
    place = find_place("Add median(values) next to mean() that returns the middle value.", tmp_path, listed)
    assert place is not None and place.path == "lib/stats.py" and "defines mean" in place.why


def test_without_names_the_file_whose_words_match_best_is_chosen(tmp_path: Path) -> None:
    listed = write(tmp_path, {"money.py": "def to_cents(amount):\n    pass\n", "text.py": "def shout(s):\n    pass\n"})
    place = find_place("Add a function from_cents(cents) that turns cents back into an amount.", tmp_path, listed)
    assert place is not None and place.path == "money.py" and "cents" in place.why


def test_a_request_that_names_no_function_or_a_new_file_has_no_place(tmp_path: Path) -> None:
    listed = write(tmp_path, {"stats.py": STATS})
    assert find_place("Make the statistics faster.", tmp_path, listed) is None
    assert find_place("Add median(values) to a new module, median.py.", tmp_path, listed) is None
    listed = [*listed, *write(tmp_path, {"test_stats.py": "from stats import median\n"})]
    place = find_place("Add median(values) so that test_stats.py passes; mean() is beside it.", tmp_path, listed)
    assert place is not None and place.path == "stats.py"  # never the test file the request names


# ---- the request's examples


def test_examples_in_words_and_in_symbols_are_read() -> None:
    text = (
        "Add median(values). Example: median([3, 1, 2]) returns 2 and `median([1, 2, 3, 4])` → `2.5`; "
        "median(values) is the middle value; median([]) raises ValueError."
    )
    assert read_examples(text, "median") == [
        Example("median([3, 1, 2])", "2"),
        Example("median([1, 2, 3, 4])", "2.5"),
        Example("median([])", raises="ValueError"),
    ]
    assert read_examples("`slug('A B')` should return 'a-b'.", "slug") == [Example("slug('A B')", "'a-b'")]
    assert read_examples('IsPalindrome("Abba") returns true', "IsPalindrome")[0].text == 'IsPalindrome("Abba") → true'


# ---- an answer put into its file


def test_a_new_function_comes_after_the_last_with_its_imports_and_helpers() -> None:
    place = Place("stats.py", "python", "median")
    reply = (
        "```python\nimport statistics\n\ndef median(values):\n    return statistics.median(_sorted(values))\n\n"
        "def _sorted(v):\n    return sorted(v)\n\ndef mean(values):\n    return 0\n```\nThis uses statistics."
    )
    merged = merge(reply, place, STATS)
    assert isinstance(merged, Merged)
    assert merged.text == (
        '"""Statistics."""\n\nimport statistics\n\n\ndef mean(values):\n    return sum(values) / len(values)\n\n\n'
        "def _sorted(v):\n    return sorted(v)\n\n\n"
        "def median(values):\n    return statistics.median(_sorted(values))\n"
    )  # the answer's own mean() is not taken


def test_a_method_is_indented_into_its_class() -> None:
    merged = merge(
        "```python\ndef peek(self):\n    return self._items[-1]\n```", Place("s.py", "python", "peek", "Stack"), STACK
    )
    assert isinstance(merged, Merged)
    assert merged.text.endswith("self._items.append(item)\n\n    def peek(self):\n        return self._items[-1]\n")


def test_a_changed_function_replaces_the_original_and_keeps_its_decorators() -> None:
    original = "import functools\n\n\n@functools.cache\ndef count(text):\n    return 1\n\n\ndef other():\n    pass\n"
    place = Place("t.py", "python", "count", exists=True)
    merged = merge("```python\ndef count(text, unique=False):\n    return 2\n```", place, original)
    assert isinstance(merged, Merged)
    assert "@functools.cache\ndef count(text, unique=False):\n    return 2\n\n\ndef other():" in merged.text


def test_a_new_javascript_function_is_exported_as_the_others_are() -> None:
    merged = merge("```javascript\nfunction unique(items) {\n  return [...new Set(items)];\n}\n```",
                   Place("arrays.js", "javascript", "unique"), ARRAYS)  # fmt: skip
    assert isinstance(merged, Merged)
    assert merged.text.endswith(
        "function unique(items) {\n  return [...new Set(items)];\n}\n\nmodule.exports = { sum, unique };\n"
    )


def test_a_go_answer_brings_its_imports() -> None:
    function = "func IsPalindrome(s string) bool {\n\treturn strings.ToLower(s) == Reverse(strings.ToLower(s))\n}\n"
    reply = f'```go\npackage textutil\n\nimport "strings"\n\n{function}```'
    merged = merge(reply, Place("reverse.go", "go", "IsPalindrome"), GO)
    assert isinstance(merged, Merged)
    assert merged.text.startswith('package textutil\n\nimport "strings"\n\n// Reverse')
    assert merged.text.rstrip().endswith("}") and merged.text.count("func IsPalindrome") == 1


def test_answers_that_cannot_be_used_say_why() -> None:
    place = Place("stats.py", "python", "median")
    assert (
        merge("```python\ndef mean(values):\n    return 1\n```", place, STATS) == "the answer has no median definition"
    )
    assert "not valid python" in str(merge("```python\ndef median(values):\n    return (\n```", place, STATS))


def test_the_opening_writes_the_definition_up_to_the_name() -> None:
    assert answer_opening(Place("s.py", "python", "median"), STATS) == "```python\ndef median("
    assert answer_opening(Place("s.py", "python", "peek", "Stack"), STACK) == "```python\n    def peek("
    go = GO + "\ntype Stack struct{}\n\nfunc (s *Stack) Push(x int) {}\n"
    assert answer_opening(Place("s.go", "go", "Peek", "Stack"), go) == "```go\nfunc (s *Stack) Peek("
    assert answer_opening(Place("a.js", "javascript", "unique"), ARRAYS) == "```javascript\nfunction unique("
    changed = Place("s.py", "python", "mean", exists=True)
    assert answer_opening(changed, STATS) == "```python\ndef mean"


def test_an_answer_continued_after_the_bodys_indentation_keeps_its_lines_in_step() -> None:
    opening = "```python\ndef count_vowels(s):\n    "
    # The model's first word brings its own space: dropped where its later lines are at the opening's depth...
    stepped = joined_answer(opening, " count = 0\n    for c in s:\n        count += 1\n    return count")
    assert stepped.endswith("):\n    count = 0\n    for c in s:\n        count += 1\n    return count")
    # ...kept where every later line is one deeper, as the first is with it (dropped, the body would not parse).
    deeper = joined_answer(opening, ' vowels = "aeiou"\n     if s:\n         return 1\n     return 2')
    assert deeper.endswith('):\n     vowels = "aeiou"\n     if s:\n         return 1\n     return 2')
    assert joined_answer(opening, " return 1").endswith("):\n    return 1")
    assert joined_answer("```go\nfunc Max(", "a, b int) int {") == "```go\nfunc Max(a, b int) int {"


def test_model_sizes_are_read_from_names() -> None:
    assert size_in_name("SmolLM2-135M-Instruct.Q4_1.gguf") == 135_000_000
    assert size_in_name("qwen2.5-coder:7b") == 7_000_000_000
    assert size_in_name("Qwen2.5-0.5B-Instruct") == 500_000_000
    assert size_in_name("gpt-4o") is None


# ---- the calls that check an answer, in the sandbox


def test_python_calls_give_values_equality_and_errors(tmp_path: Path) -> None:
    write(tmp_path, {"stats.py": STATS + "\n\ndef median(values):\n    return sorted(values)[len(values) // 2]\n"})
    calls = [Call("median([3, 1, 2])", "2"), Call("median([4, 1, 3, 2])", "2.5"), Call("median([])")]
    made = run_calls("python", "stats.py", tmp_path, os.environ, calls, 30)
    assert made.problem == ""
    assert [(r.equal, r.output) for r in made.results] == [(True, "= 2"), (False, "= 3"), (None, "! IndexError")]


def test_a_module_that_does_not_import_is_a_problem(tmp_path: Path) -> None:
    write(tmp_path, {"stats.py": "import not_a_module_anywhere\n"})
    made = run_calls("python", "stats.py", tmp_path, os.environ, [], 30)
    assert "does not import" in made.problem and "not_a_module_anywhere" in made.problem


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_javascript_calls_see_the_exports_only(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "arrays.js": ARRAYS.replace(
                "module.exports", "function unique(items) {\n  return [...new Set(items)];\n}\n\nmodule.exports"
            )
        },
    )
    made = run_calls("javascript", "arrays.js", tmp_path, os.environ,
                     [Call("sum([1, 2])", "3"), Call("unique([1, 2, 1])", "[1, 2]")], 30)  # fmt: skip
    assert made.results[0].equal is True
    assert made.results[1].raised == "ReferenceError"  # not exported: the module's users cannot call it either


@pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed")
def test_go_calls_run_as_a_test_that_leaves_nothing_behind(tmp_path: Path) -> None:
    write(tmp_path, {"go.mod": "module example.com/t\n\ngo 1.20\n", "reverse.go": GO})
    made = run_calls("go", "reverse.go", tmp_path, os.environ,
                     [Call('Reverse("ab")', '"ab"'), Call('Reverse("x")', '"y"')], 120)  # fmt: skip
    assert made.problem == "" and [r.equal for r in made.results] == [True, False]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["go.mod", "reverse.go"]


@pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed")
def test_go_calls_that_end_the_test_binary_are_told_apart_from_calls_that_do_not_build(tmp_path: Path) -> None:
    exits = 'package t\n\nimport "os"\n\nfunc Quit(n int) int {\n\tos.Exit(n)\n\treturn n\n}\n'
    write(tmp_path, {"go.mod": "module example.com/t\n\ngo 1.19\n", "quit.go": exits})
    made = run_calls("go", "quit.go", tmp_path, os.environ, [Call("Quit(3)", "3")], 120)
    assert made.problem.startswith("the calls stopped the test binary: "), made.problem
    made = run_calls("go", "quit.go", tmp_path, os.environ, [Call("Quit(undefined)", "3")], 120)
    assert made.problem.startswith("the calls do not build: ") and "undefined" in made.problem, made.problem


@pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed")
def test_go_calls_run_under_the_packages_own_test_main(tmp_path: Path) -> None:
    write(tmp_path, {
        "go.mod": "module example.com/t\n\ngo 1.19\n",
        "reverse.go": GO,
        "main_test.go": 'package textutil\n\nimport (\n\t"os"\n\t"testing"\n)\n\n'
                        "func TestMain(m *testing.M) {\n\tos.Exit(m.Run())\n}\n",
    })  # fmt: skip
    made = run_calls("go", "reverse.go", tmp_path, os.environ, [Call('Reverse("ab")', '"ab"')], 120)
    assert made.problem == "" and [r.equal for r in made.results] == [True], made


@pytest.mark.skipif(shutil.which("node") is None or shutil.which("go") is None, reason="node or go is not installed")
def test_a_call_that_never_returns_is_stopped_and_the_next_still_made(tmp_path: Path) -> None:
    write(tmp_path, {
        "spin.js": "function spin(n) {\n  while (n > 0) {}\n  return n;\n}\n\nmodule.exports = { spin };\n",
        "go.mod": "module example.com/t\n\ngo 1.19\n",
        "spin.go": "package spin\n\nfunc Spin(n int) int {\n\tfor n > 0 {\n\t}\n\treturn n\n}\n",
    })  # fmt: skip
    for language, path, calls in (
        ("javascript", "spin.js", ["spin(1)", "spin(0)"]),
        ("go", "spin.go", ["Spin(1)", "Spin(0)"]),
    ):
        made = run_calls(language, path, tmp_path, os.environ, [Call(code) for code in calls], 60)
        assert [r.output for r in made.results] == ["! too slow", "= 0"], (language, made)


# ---- the probes answers are compared on


def test_probes_come_from_the_tests_calls_of_functions_that_take_as_many_arguments(tmp_path: Path) -> None:
    from pedro.build.probing import probe_calls

    listed = write(
        tmp_path, {"stats.py": STATS, "test_stats.py": "from stats import mean\n\nassert mean([1, 2, 3]) == 2\n"}
    )
    calls = probe_calls(Place("stats.py", "python", "median"), [], "Add median(values) to stats.py.", tmp_path, listed)
    assert calls[0] == "median([1, 2, 3])" and "median([3, 2, 1])" in calls and "median([1, 2, 3, 1])" in calls
    tests = 'const { sum } = require("./arrays");\ntest("s", () => { assert.equal(sum([1, true, null]), 1); });\n'
    listed = write(tmp_path, {"arrays.js": ARRAYS, "arrays.test.js": tests})
    place = Place("arrays.js", "javascript", "unique")
    calls = probe_calls(place, [], "Add a function unique(items) to arrays.js.", tmp_path, listed)
    assert calls[0] == "unique([1, true, null])"  # written back as JavaScript
    examples = [Example("unique([2, 2])", "[2]")]
    assert probe_calls(place, examples, "unique(items)", tmp_path, listed)[0] == "unique([2, 2])"


def test_the_way_a_build_takes_follows_the_setting_then_the_models_size() -> None:
    from pedro.backends.scripted import ScriptedBackend
    from pedro.build.strategy import direct_for_model
    from pedro.config import BuildConfig

    auto = BuildConfig()
    assert direct_for_model(auto, ScriptedBackend([], parameters=134_515_008), "m") == (
        True,
        "the model has 135M parameters (the server says)",
    )
    assert direct_for_model(auto, ScriptedBackend([], parameters=7_615_616_512), "m")[0] is False
    assert direct_for_model(auto, ScriptedBackend([]), "SmolLM2-135M-Instruct.Q4_1.gguf") == (
        True,
        "the model has 135M parameters (its name says)",
    )
    assert direct_for_model(auto, ScriptedBackend([]), "m") == (False, "the model's size is not known")
    assert direct_for_model(BuildConfig(strategy="direct"), ScriptedBackend([], parameters=7_000_000_000), "m")[0]
    assert not direct_for_model(BuildConfig(strategy="loop"), ScriptedBackend([], parameters=1), "m")[0]

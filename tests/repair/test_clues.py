"""What a failure's text says about its cause, read as repair reads it."""

from __future__ import annotations

from pathlib import Path

from pedro.repair.clues import read_clues
from pedro.repair.locate import FailingTests
from pedro.tools.testreport import FailedTest

NOWHERE = Path("/nonexistent")
"""A project with no files: the failing test is looked for in it and not found, so the failure's text alone counts."""


def clues_of(message: str, details: str = "", root: Path = NOWHERE) -> frozenset[str]:
    return read_clues([FailedTest("test_a.py::test_a", message=message, details=details)], root).cases


def test_strings_that_differ_by_case_alone_say_which_case_was_wanted() -> None:
    assert clues_of("AssertionError: assert [('The', 2)] == [('the', 3)]") == {"lower"}
    assert clues_of("Expected values to be strictly equal:\n'ada' !== 'ADA'") == {"lower", "upper"}


def test_a_spelling_on_both_sides_or_another_difference_is_no_sign_of_case() -> None:
    # Too few items found, not items in the wrong case: 'a' is on both sides.
    assert clues_of("AssertionError: assert ['a'] == ['A', 'a', 'A']", "E  At index 0 diff: 'a' != 'A'") == set()
    assert clues_of("AssertionError: assert 'Hello Ada' == 'Hello, Ada!'") == set()


def test_a_value_is_cased_by_the_languages_own_method_and_not_in_go() -> None:
    from pedro.repair.variants import _case_folded

    assert list(_case_folded("    word = raw.strip()", "lower", "python")) == ["    word = raw.strip().lower()"]
    assert list(_case_folded("  const key = name.trim();", "upper", "typescript")) == [
        "  const key = name.trim().toUpperCase();"
    ]
    assert list(_case_folded("\tword = raw", "lower", "go")) == []
    assert list(_case_folded("    n = 3", "lower", "python")) == []  # a number is no text


def test_a_method_called_on_its_class_and_a_test_that_hung_are_read() -> None:
    def read(message: str) -> tuple[frozenset[str], frozenset[str]]:
        clues = read_clues([FailedTest("test_a.py::test_a", message=message)], NOWHERE)
        return clues.unbound, clues.kinds

    assert read("TypeError: unbound method timedelta.total_seconds() needs an argument")[0] == {"timedelta"}
    assert read("TypeError: Parser.parse() missing 1 required positional argument: 'self'")[0] == {"Parser"}
    assert read("TypeError: descriptor 'upper' for 'str' objects doesn't apply to a 'int' object")[0] == {"str"}
    assert read("TypeError: parse() missing 1 required positional argument: 'text'")[0] == set()
    assert "hang" in read("TestHung: the test still ran after 1 s, so it was stopped here")[1]
    assert "hang" in read("panic: test timed out after 10s")[1]


def test_the_loop_around_an_index_past_the_end_or_a_hang_is_as_suspect_as_the_line_it_stopped_on() -> None:
    from pedro.repair.clues import Clues
    from pedro.repair.locate import Unit
    from pedro.repair.variants import _loop_heads

    text = (
        "def find(items, x):\n    lo, hi = 0, len(items)\n    while lo <= hi:\n        mid = (lo + hi) // 2\n"
        "        if items[mid] == x:\n            return mid\n        for k in range(3):\n            pass\n"
        "        lo = mid + 1\n    return -1\n"
    )
    unit = Unit("search.py", "find", "find", "python", 1, 10, text)
    assert _loop_heads(unit, Clues(frames=(("search.py", 5),), kinds=frozenset({"index"}))) == {3}
    assert _loop_heads(unit, Clues(frames=(("search.py", 8),), kinds=frozenset({"hang"}))) == {7}
    assert _loop_heads(unit, Clues(frames=(("search.py", 3),), kinds=frozenset({"hang"}))) == {3}
    # Another kind of failure, or a frame outside the unit: no loop is singled out.
    assert _loop_heads(unit, Clues(frames=(("search.py", 5),), kinds=frozenset({"assert"}))) == set()
    assert _loop_heads(unit, Clues(frames=(("other.py", 5),), kinds=frozenset({"index"}))) == set()


def test_a_number_the_expected_text_has_with_leading_zeros_says_how_wide_it_was_wanted() -> None:
    def widths(message: str) -> frozenset[int]:
        return read_clues([FailedTest("test_a.py::test_a", message=message)], NOWHERE).widths

    assert widths("AssertionError: assert '1:5' == '1:05'") == {2}
    assert widths("Expected values to be strictly equal:\n\n'1:5' !== '1:05'\n") == {2}
    # Go's got/want, with the values wrong as well: the shape still says the hour was wanted two digits wide.
    assert widths('AddMinutes("08:30", 45) = "8:53", <nil>; want "09:15"') == {2}
    assert widths("AssertionError: assert '2024-1-5' == '2024-001-05'") == {2, 3}
    # Texts of another shape, a zero that is the whole number, or a wider actual number: no sign of padding.
    assert widths("AssertionError: assert 'a5' == 'b05'") == set()
    assert widths("AssertionError: assert '5' == '0'") == set()
    assert widths("AssertionError: assert '1:05' == '1:5'") == set()


def test_a_comparison_that_differs_by_a_boolean_alone_is_a_flipped_flag(tmp_path: Path) -> None:
    def kinds(message: str) -> frozenset[str]:
        return read_clues([FailedTest("t", message=message)], tmp_path).kinds

    assert "flipped" in kinds("AssertionError: assert ('bcd', True) == ('bcd', False)")
    assert "flipped" in kinds("""'["bcd",true]' !== '["bcd",false]'""")
    assert "flipped" not in kinds("AssertionError: assert ('bcd', True) == ('bc', False)")
    assert "flipped" not in kinds("AssertionError: assert 1 == 2")


def test_the_words_a_failing_test_spells_are_read_from_its_own_code_when_the_failure_quotes_none(
    tmp_path: Path,
) -> None:
    (tmp_path / "planets_test.go").write_text(
        'package planets\n\nimport "testing"\n\nfunc TestBetween(t *testing.T) {\n'
        '\tif got := Between("Jupiter", "Neptune"); len(got) != 2 {\n\t\tt.Errorf("got %v", got)\n\t}\n}\n\n'
        'func TestOther(t *testing.T) {\n\t_ = "Pluto"\n}\n'
    )
    # plain `go test` names the test and the line of its message; nothing in it is quoted.
    failure = FailedTest("TestBetween", message="got []", details="    planets_test.go:7: got []")
    spelled = read_clues([failure], tmp_path).spelled
    # The failing test's words; a word of another test, a short one or one with spaces are none of them.
    assert {"Jupiter", "Neptune"} <= spelled
    assert "Pluto" not in spelled and "got %v" not in spelled
    # Their characters too: what a bracket the code looks for is checked against.
    assert read_clues([failure], tmp_path).characters >= set("JupiterNn")
    assert "P" not in read_clues([failure], tmp_path).characters
    # The code's own answer, quoted by the failure, is no word the test spells.
    quoting = FailedTest("TestBetween", message='actual  : []string{"Jupyter"}', details=failure.details)
    assert "Jupyter" not in read_clues([quoting], tmp_path).spelled
    # Where the test's code is not found, the failure's quotes are all there is (pytest shows the call's arguments).
    assert "Wednesday" in read_clues([FailedTest("t", message="assert None == day('Wednesday')")], tmp_path).spelled


def test_testifys_expected_and_actual_texts_are_compared_as_pytests_are() -> None:
    # testify's `assert.Equal` on two strings, as `go test` prints it.
    details = (
        "    solution_test.go:9: \n        Error Trace:\tsolution_test.go:9\n        Error:      \tNot equal: \n"
        '        \t            \texpected: "Watashi.eIGHt8OKe"\n        \t            \tactual  : "WatashieIGHt8OKe"\n'
    )
    texts = read_clues([FailedTest("TestStrongest", message="Not equal:", details=details)], NOWHERE).texts
    assert texts == {("WatashieIGHt8OKe", "Watashi.eIGHt8OKe")}
    # Two slices of strings: the items that differ, as pytest's `At index 0 diff`.
    slices = 'Not equal: \n    expected: []string{"E", "D-"}\n    actual  : []string{"E+", "D-"}\n'
    assert read_clues([FailedTest("TestGrade", message="Not equal:", details=slices)], NOWHERE).texts == {("E+", "E")}
    # Numbers, or slices of another length, compare no texts.
    other = 'expected: 5\n actual  : 6\nexpected: []string{"a"}\n actual  : []string{"a", "b"}\n'
    assert read_clues([FailedTest("TestN", message="Not equal:", details=other)], NOWHERE).texts == set()


def test_two_json_texts_a_bare_assertion_compared_give_the_strings_that_differ() -> None:
    # What assert_values adds to node's `assert.ok(JSON.stringify(f(x)) === JSON.stringify(['E', 'D-']))`.
    falsy = "The expression evaluated to a falsy value:\n\n  assert.ok(…)\n\n"
    lists = f'{falsy}\'["E+","D-"]\' !== \'["E","D-"]\''
    assert read_clues([FailedTest("grade", message=falsy, details=lists)], NOWHERE).texts == {("E+", "E")}
    text = f"{falsy}'\"ab c\"' !== '\"abc\"'"
    assert read_clues([FailedTest("join", message=falsy, details=text)], NOWHERE).texts == {("ab c", "abc")}
    # Lists of another length, of numbers, or text that is no JSON compare no texts.
    for other in ('\'["a"]\' !== \'["a","b"]\'', "'[1,\"2\"]' !== '[1,\"3\"]x'", "'{\"a\": 1}' !== '{\"a\": 2}'"):
        assert read_clues([FailedTest("f", message=falsy, details=falsy + other)], NOWHERE).texts == set(), other


def test_jest_s_node_s_and_unittest_s_own_ways_of_showing_two_texts_give_the_strings_that_differ() -> None:
    # Recorded from jest 29: `expect("hello world").toBe("Hello world")`, then `toEqual` on two lists of strings.
    to_be = 'expect(received).toBe(expected) // Object.is equality\n\nExpected: "Hello world"\nReceived: "hello world"'
    lists = (
        "expect(received).toEqual(expected) // deep equality\n\n- Expected  - 1\n+ Received  + 1\n\n"
        '  Array [\n    "a",\n-   "b",\n+   "bb",\n  ]\n    at Object.toEqual (/p/s.test.js:5:23)'
    )
    node = "Expected values to be strictly equal:\n+ actual - expected\n\n+ 'ab c'\n- 'abc'\n"
    unittest = "AssertionError: 'hello world' != 'Hello world'\n- hello world\n? ^\n+ Hello world\n? ^\n"
    cases = [(to_be, {("hello world", "Hello world")}), (lists, {("bb", "b")}), (node, {("ab c", "abc")})]
    for text, texts in [*cases, (unittest, {("hello world", "Hello world")})]:
        assert read_clues([FailedTest("t", message=text.split("\n")[0], details=text)], NOWHERE).texts == texts


def test_a_failures_test_function_is_looked_up_once_for_the_clues_and_the_prompts(tmp_path: Path) -> None:
    (tmp_path / "planets_test.go").write_text(
        'package planets\n\nimport "testing"\n\nfunc TestBetween(t *testing.T) {\n\t_ = Between("Jupiter")\n}\n'
    )
    failure = FailedTest("TestBetween", message="got []")  # no frame: found by the test's name, a read of the files
    tests = FailingTests(tmp_path)
    found = tests.of(failure)
    assert found is not None and found.name == "TestBetween"
    (tmp_path / "planets_test.go").unlink()
    # What was found is what every later reader gets, with no second lookup.
    assert tests.of(failure) is found
    assert "Jupiter" in read_clues([failure], tmp_path, tests).spelled
    assert "Jupiter" not in read_clues([failure], tmp_path).spelled


def test_a_tests_own_messages_are_not_among_the_strings_it_passes(tmp_path: Path) -> None:
    """Python's `assert check, "message"` and Go's `t.Errorf("…")` are prose: their brackets and words are no input."""
    (tmp_path / "test_nest.py").write_text(
        "from nest import nested\n\n\ndef test_nested():\n"
        "    assert nested('[[]]', sep=',') == True, 'nested(s) (good for debugging!)'  # (a comment)\n"
    )
    failure = FailedTest(
        "test_nest.py::test_nested", message="AssertionError", details="test_nest.py:5: AssertionError"
    )
    characters = read_clues([failure], tmp_path).characters
    assert {"[", "]", ","} <= characters and not {"(", ")", "!", "g"} & characters
    (tmp_path / "nest_test.go").write_text(
        'package nest\n\nimport "testing"\n\nfunc TestNested(t *testing.T) {\n'
        '\tif got := Nested("[[]]"); !got {\n\t\tt.Errorf("Nested(%q) = %v", "[[]]", got)\n\t}\n}\n'
    )
    failure = FailedTest("TestNested", message="Nested", details="    nest_test.go:7: Nested")
    assert read_clues([failure], tmp_path).characters == {"[", "]"}


def test_the_names_a_failure_shows_leave_out_pytest_s_words_and_an_object_shown_with_its_address() -> None:
    # `<generator object … at 0x7fbc…>` names no code: neither `generator`, `object`, `locals` nor `x7fbcd7c392a0`.
    message = "assert False\n +  where False = all(<generator object test_update.<locals>.<genexpr> at 0x7fbcd7c392a0>)"
    details = ">       assert all(a == b for a, b in zip(merged, added)) and not None\nE       assert False"
    names = read_clues([FailedTest("test_x.py::test_update", message=message, details=details)], NOWHERE).names
    assert names == {"assert", "all", "a", "b", "for", "in", "zip", "merged", "added", "and", "not", "False", "None"}

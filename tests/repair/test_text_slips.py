"""Repair's variants of a string literal that the failure spells out: the literal that covers all that differs between
the actual and the expected text becomes the expected text, and a change of case alone is made throughout."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from repo_util import commit_files, git, node_test
from test_mutants import fixed_among_the_first, fixed_by_a_variant
from test_repairer import repair

from pedro.repair.assert_values import _equality
from pedro.repair.text_slips import joined_apart, recased, spelled_out, widened_blanks, widened_letters


def fixes(lines: list[str], *texts: tuple[str, str], language: str = "python") -> dict[str, tuple[int, str]]:
    """What each variant changed, by its change in words: (the row, the new text), with the other rows it rewrites."""
    found = spelled_out(lines, range(len(lines)), texts, language)  # type: ignore[arg-type]
    return {change: (row, text, *(f"{r}: {t}" for r, t in also)) for row, text, change, also in found}  # type: ignore[misc]


def test_the_literal_where_the_actual_text_differs_becomes_the_expected_text() -> None:
    lines = ["def to_binary(n):", '    return "db" + bin(n)[2:] + "d"']
    assert fixes(lines, ("db0d", "db0db")) == {
        '`"d"` → `"db"`, the text the failure expects': (1, '    return "db" + bin(n)[2:] + "db"')
    }
    # A literal away from where the two differ is left: "db" stands before the difference, not over it.
    assert fixes(lines, ("xx0d", "db0d")) == {}
    # No literal covers a difference inside what the code computed.
    assert fixes(lines, ("db01d", "db10d")) == {}


def test_a_formats_own_text_is_rewritten_around_the_values_it_filled_in_as_the_failure_expects() -> None:
    lines = ["func DecimalToBinary(decimal int) string {", '    return fmt.Sprintf("db%bd", decimal)', "}"]
    assert fixes(lines, ("db0d", "db0db"), language="go") == {
        '`"db%bd"` → `"db%bdb"`, the format\'s own text as the failure expects it': (
            1, '    return fmt.Sprintf("db%bdb", decimal)',
        )
    }  # fmt: skip
    python = ["def total(n):", "    return 'total: %d items' % n"]
    assert list(fixes(python, ("total: 3 items", "Total: 3 items."))) == [
        "`'total: %d items'` → `'Total: %d items.'`, the format's own text as the failure expects it"
    ]
    # A value the code filled in differs, not the format's text: nothing to rewrite; nor where the text is another.
    assert fixes(lines, ("db01d", "db10d"), language="go") == {}
    assert fixes(lines, ("0b0", "db0db"), language="go") == {}


def test_a_change_of_case_is_also_made_to_the_other_literals_written_in_that_case() -> None:
    lines = ["def answer(ok):", "    if ok:", "        return 'yes'", "    return 'no'", "    log('DEBUG')"]
    found = fixes(lines, ("yes", "Yes"))
    assert found["`'yes'` → `'Yes'`, the text the failure expects"] == (2, "        return 'Yes'")
    assert found["the literals written like `'yes'` capitalised throughout, as the failure expects"] == (
        2, "        return 'Yes'", "3:     return 'No'",
    )  # fmt: skip


def test_literals_with_an_escape_a_prefix_or_none_of_the_text_are_left_alone() -> None:
    lines = ["def f(x):", r"    a = 'ye\ts'", "    b = f'yes{x}'", "    c = 'maybe'", "    d = ''"]
    assert fixes(lines, ("yes", "Yes")) == {}
    # JavaScript's quotes are read the same way; a template literal is not a plain one.
    js = ["function f(x) {", "  return x ? 'on' : `off`;", "}"]
    assert list(fixes(js, ("on", "ON"), language="javascript")) == ["`'on'` → `'ON'`, the text the failure expects"]


def test_a_function_that_answers_in_the_wrong_case_throughout_is_fixed_by_its_first_candidate(repo: Path) -> None:
    events = fixed_by_a_variant(
        repo,
        {
            "answer.py": "def answer(ok):\n    if ok:\n        return 'yes'\n    return 'no'\n",
            "test_answer.py": (
                "from answer import answer\n\n\ndef test_answer():\n"
                "    assert answer(True) == 'Yes'\n    assert answer(False) == 'No'\n"
            ),
        },
    )
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    assert fixed[0]["n"] == 1, fixed
    assert (repo / "answer.py").read_text() == "def answer(ok):\n    if ok:\n        return 'Yes'\n    return 'No'\n"


def test_a_text_one_item_of_a_list_differs_by_is_spelt_out_from_pytests_diff_of_the_lists(repo: Path) -> None:
    events = fixed_by_a_variant(
        repo,
        {
            "grades.py": (
                "def grades(scores):\n    found = []\n    for score in scores:\n"
                "        if score > 50:\n            found.append('pass')\n"
                "        else:\n            found.append('F+')\n    return found\n"
            ),
            "test_grades.py": (
                "from grades import grades\n\n\ndef test_grades():\n    assert grades([70, 10]) == ['pass', 'F']\n"
            ),
        },
    )
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    assert fixed[0]["n"] == 1 and "the text the failure expects" in fixed[0]["change"], fixed
    assert "found.append('F')" in (repo / "grades.py").read_text()


def test_a_separator_the_expected_text_has_is_put_between_two_joined_texts() -> None:
    lines = ["    ans = stem + ext", '    return f"{a}{b}"', "  return `${a}${b}`;", "    n = count + 1"]
    texts = [("reportpdf", "report.pdf")]
    found = {(row, new) for row, new, _, _ in joined_apart(lines, range(4), texts, "python")}
    assert (0, '    ans = stem + "." + ext') in found
    assert (1, '    return f"{a}.{b}"') in found
    assert (2, "  return `${a}.${b}`;") in found
    assert not [new for row, new in found if row == 3]  # a number added is no text joined
    # More than a separator missing, or another difference besides: nothing to put in.
    assert joined_apart(lines, range(4), [("report", "report file")], "python") == []
    assert joined_apart(lines, range(4), [("reportpdf", "Report.pdf")], "python") == []


def test_a_value_is_given_the_case_the_failure_expects_where_the_texts_differ_by_case_alone() -> None:
    lines = ["        new[k] = c", "    out.append(word)", "    return s", "    x = f(c)"]
    swapped = {new for _, new, _, _ in recased(lines, range(4), [("AsDf", "aSdF")], "python")}
    assert swapped == {"        new[k] = c.swapcase()", "    out.append(word.swapcase())", "    return s.swapcase()"}
    upper = {new for _, new, _, _ in recased(lines, range(4), [("ab", "AB")], "javascript")}
    assert "    return s.toUpperCase()" in upper
    assert recased(lines, range(4), [("ab", "AC")], "python") == []


def test_a_text_built_without_its_separator_is_fixed_by_its_first_candidate(repo: Path) -> None:
    events = fixed_by_a_variant(
        repo,
        {
            "names.py": (
                "def file_name(stem, ext):\n"
                "    stem = stem.strip()\n    ext = ext.lower()\n    name = stem + ext\n    return name\n"
            ),
            "test_names.py": (
                "from names import file_name\n\n\ndef test_file_name():\n"
                "    assert file_name('report ', 'PDF') == 'report.pdf'\n"
            ),
        },
    )
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    assert fixed[0]["n"] == 1, fixed
    assert 'name = stem + "." + ext' in (repo / "names.py").read_text()


def test_a_patterns_ascii_letters_are_widened_where_the_failure_holds_a_letter_outside_ascii() -> None:
    lines = ["def titleize(word):", '    return re.sub(r"\\b(\'?[a-z])", up, word)', '    x = "[A-Za-z]+"']
    found = widened_letters(lines, range(3), [("Ana índia", "Ana Índia")], "python")
    assert [(row, text) for row, text, _change, _also in found] == [
        (1, '    return re.sub(r"\\b(\'?\\w)", up, word)'),
        (1, '    return re.sub(r"\\b(\'?[^\\W\\d_])", up, word)'),
        (2, '    x = "\\\\w+"'),  # a plain literal's backslash written twice
        (2, '    x = "[^\\\\W\\\\d_]+"'),
    ]
    # Nothing where every letter is ASCII, and nothing in JavaScript, whose \w is ASCII.
    assert widened_letters(lines, range(3), [("Ana india", "Ana India")], "python") == []
    assert widened_letters(["  s.replace(/[a-z]/g, up);"], [0], [("índia", "Índia")], "javascript") == []


def test_a_patterns_run_of_spaces_is_widened_to_tabs_where_the_failing_tests_text_holds_a_tab() -> None:
    lines = ["    parts = re.split('\\n *(-\\S+)', text)", "    return re.sub(r' +', ' ', s)", "    x = ' * '"]
    found = widened_blanks(lines, range(3), True, "python")
    assert [(row, text) for row, text, _change, _also in found] == [
        (0, "    parts = re.split('\\n[ \\\\t]*(-\\S+)', text)"),  # a plain literal's backslash written twice
        (0, "    parts = re.split('\\n\\\\s*(-\\S+)', text)"),
        (1, "    return re.sub(r'[ \\t]+', ' ', s)"),
        (1, "    return re.sub(r'\\s+', ' ', s)"),
        (2, "    x = '[ \\\\t]* '"),
        (2, "    x = '\\\\s* '"),
    ]
    # Nothing where no failing test's text holds a tab, nor in an f-string or a pattern's class or escape.
    assert widened_blanks(lines, range(3), False, "python") == []
    assert widened_blanks(["    p = f'{a} *'", "    q = r'[ *]'", "    r = r'\\ +'"], range(3), True, "python") == []


def test_options_indented_with_a_tab_are_found_by_a_pattern_widened_to_tabs(repo: Path) -> None:
    code = (
        'import re\n\n\ndef option_names(section):\n    """The options a help section lists, one a line."""\n'
        "    found = re.findall('\\n *(-[-\\w]+)', '\\n' + section)\n    return found\n"
    )
    test = (
        "from options import option_names\n\n\ndef test_spaces():\n"
        "    assert option_names('Options:\\n  --foo  Foo.') == ['--foo']\n\n\n"
        "def test_tabs():\n    assert option_names('Options:\\n\\t--foo  Foo.\\n\\t-b') == ['--foo', '-b']\n"
    )
    fixed_among_the_first(repo, {"options.py": code, "test_options.py": test}, "a run of spaces →")


def test_the_two_sides_of_a_bare_assertion_of_one_equality_are_found() -> None:
    assert _equality("f(['x', 'y']) === 'x y'") == ("f(['x', 'y'])", "'x y'")
    assert _equality("JSON.stringify(f([1, 2])) == JSON.stringify([1])") == (
        "JSON.stringify(f([1, 2]))",
        "JSON.stringify([1])",
    )
    assert _equality("f('a === b') === 'c'") == ("f('a === b')", "'c'")  # an operator in a string is text
    for other in ("Math.abs(f(1) - 2) < 1e-6", "f(1) === 2 && f(2) === 3", "f(1) !== 2", "ok ? f(1) : 2 === 3", "f(1)"):
        assert _equality(other) is None, other


def test_a_bare_javascript_assertion_is_given_its_values_and_a_literal_in_the_wrong_case_fixed_first(
    repo: Path,
) -> None:
    """node's `assert.ok(answer(false) === 'No')` says only that it was falsy: the values its two sides give show
    `'no' !== 'No'`, as pytest would, and the case is changed throughout at the first candidate."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    code = (
        "function answer(ok) {\n  if (ok) {\n    return 'yes';\n  }\n  return 'no';\n}\n\n"
        "module.exports = { answer };\n"
    )
    checks = ("assert.ok(answer(false) === 'No');", "assert.ok(answer(true) === 'Yes');")
    test = node_test("answer", "answer", *checks, strict=False)
    commit_files(repo, {"answer.js": code, "answer.test.js": test})
    outcome, backend, events = repair(repo, [], command="node --test", mutants=40, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    tried = [event.data for event in events if event.type == "repair.candidate"]
    assert [(t["n"], t["status"]) for t in tried] == [(1, "fixed")], tried
    assert "return 'Yes';" in (repo / "answer.js").read_text() and "return 'No';" in (repo / "answer.js").read_text()
    # The model's question shows them too.
    git(repo, "checkout", "-q", "answer.js")
    _, asked, _ = repair(repo, ["```javascript\nfunction answer(ok) {\n  return ok;\n}\n```"], command="node --test")
    assert "'no' !== 'No'" in asked.requests[0][0][-1].content


def test_a_grade_in_a_list_compared_as_json_by_a_bare_assertion_is_written_as_the_test_expects(repo: Path) -> None:
    """`assert.ok(JSON.stringify(grades([0.0])) === JSON.stringify(['E']))`: the two sides' values are JSON texts of
    lists, whose strings that differ (`"E+"` where `"E"` was expected) are the texts the failure compares."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    code = (
        "function grades(points) {\n  const out = [];\n  for (const p of points) {\n    if (p > 3.0) {\n"
        "      out.push('A');\n    } else if (p > 0.0) {\n      out.push('D');\n    } else {\n      out.push('E+');\n"
        "    }\n  }\n  return out;\n}\n\nmodule.exports = { grades };\n"
    )
    checks = ("assert.ok(JSON.stringify(grades([3.5, 1.0])) === JSON.stringify(['A', 'D']));",
              "assert.ok(JSON.stringify(grades([0.0])) === JSON.stringify(['E']));")  # fmt: skip
    commit_files(repo, {"grades.js": code, "grades.test.js": node_test("grades", "grades", *checks, strict=False)})
    outcome, backend, events = repair(repo, [], command="node --test", mutants=40, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    tried = [event.data for event in events if event.type == "repair.candidate"]
    assert tried[0]["status"] == "fixed" and "`'E+'` → `'E'`" in tried[0]["change"], tried
    assert "out.push('E');" in (repo / "grades.js").read_text()


def test_a_name_misspelt_in_a_table_is_spelt_as_the_failing_test_spells_it(repo: Path) -> None:
    # go test shows no call: the word is read from the failing test's own code.
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    planets = (
        "package planets\n\nfunc Between(a, b string) []string {\n"
        '\tnames := []string{"Mercury", "Venus", "Earth", "Mars", "Jupyter", "Saturn", "Uranus", "Neptune"}\n'
        "\tpa, pb := -1, -1\n\tfor i, x := range names {\n\t\tif x == a {\n\t\t\tpa = i\n\t\t}\n"
        "\t\tif x == b {\n\t\t\tpb = i\n\t\t}\n\t}\n\tif pa < 0 || pb < 0 || pa >= pb {\n\t\treturn nil\n\t}\n"
        "\treturn names[pa+1 : pb]\n}\n"
    )
    test = (
        'package planets\n\nimport (\n\t"reflect"\n\t"testing"\n)\n\nfunc TestBetween(t *testing.T) {\n'
        '\tif got := Between("Jupiter", "Neptune"); !reflect.DeepEqual(got, []string{"Saturn", "Uranus"}) {\n'
        '\t\tt.Errorf("got %q", got)\n\t}\n'
        # The code's own answer, quoted, spells the word its way: the test's code is what counts.
        '\tif got := Between("Mars", "Saturn"); !reflect.DeepEqual(got, []string{"Jupiter"}) {\n'
        '\t\tt.Errorf("got %q", got)\n\t}\n}\n'
    )
    files = {"go.mod": "module example.com/planets\n\ngo 1.19\n", "planets.go": planets, "planets_test.go": test}
    events = fixed_by_a_variant(repo, files, command="go test ./...")
    tried = [event.data for event in events if event.type == "repair.candidate"]
    fixed = [k for k, c in enumerate(tried) if c["status"] == "fixed"]
    assert fixed and fixed[0] < 3, [c.get("change") for c in tried[:5]]
    assert tried[fixed[0]]["change"].startswith("`Jupyter` → `Jupiter`"), tried[fixed[0]]
    assert '"Jupiter", "Saturn"' in (repo / "planets.go").read_text()


def test_a_bracket_no_test_string_holds_is_made_the_kind_the_tests_pass(repo: Path) -> None:
    depth = (
        "def deepest(s):\n    level = best = 0\n    for c in s:\n        if c == '(':\n            level += 1\n"
        "            best = max(best, level)\n        elif c == ']':\n            level -= 1\n    return best\n"
    )
    # The test's message holds the brackets the code looks for; the strings it passes do not.
    test = (
        "from brackets import deepest\n\n\ndef check(deepest):\n"
        "    assert deepest('[[]][]') == 2, 'deepest(s) counts nested brackets (good for debugging!)'\n\n\n"
        "def test_deepest():\n    check(deepest)\n"
    )
    events = fixed_by_a_variant(repo, {"brackets.py": depth, "test_brackets.py": test})
    tried = [event.data for event in events if event.type == "repair.candidate"]
    fixed = [k for k, c in enumerate(tried) if c["status"] == "fixed"]
    assert fixed and fixed[0] < 3, [c.get("change") for c in tried[:5]]
    assert tried[fixed[0]]["change"].startswith("`(` → `[`"), tried[fixed[0]]
    # The closing bracket the tests hold stays as it was.
    assert (
        "if c == '[':" in (repo / "brackets.py").read_text() and "elif c == ']':" in (repo / "brackets.py").read_text()
    )


def test_a_set_of_letters_in_one_case_gains_the_other_case_the_failing_tests_pass(repo: Path) -> None:
    vowels = (
        "def count_vowels(s):\n    n = 0\n    for c in s:\n        if c in 'aeiou':\n            n += 1\n    return n\n"
    )
    test = "from vowels import count_vowels\n\n\ndef test_count_vowels():\n    assert count_vowels('bAnanE') == 3\n"
    events = fixed_by_a_variant(repo, {"vowels.py": vowels, "test_vowels.py": test})
    tried = [event.data for event in events if event.type == "repair.candidate"]
    fixed = [k for k, c in enumerate(tried) if c["status"] == "fixed"]
    assert fixed and fixed[0] < 3, [c.get("change") for c in tried[:5]]
    assert tried[fixed[0]]["change"].startswith("`aeiou` → `aeiouAEIOU`"), tried[fixed[0]]
    assert "if c in 'aeiouAEIOU':" in (repo / "vowels.py").read_text()


def test_a_literal_a_name_starts_from_and_is_reset_to_is_rewritten_at_both_places() -> None:
    lines = ["function words(s) {", "  let t = ','", "  for (const c of s) {", "    if (c == ',') {", "      t = ',';"]
    lines += ["    } else {", "      t += c", "    }", "  }", "}"]
    found = fixes(lines, (",Hi", "Hi"), language="javascript")
    assert found["`','` → `''` wherever `t` is set to it, as the failure expects"] == (
        1,
        "  let t = ''",
        "4:       t = '';",
    )
    # the comparison's `','` is not what `t` is set to: it is rewritten alone, never with the other two
    assert [change for change in found if "wherever" in change] == [
        "`','` → `''` wherever `t` is set to it, as the failure expects"
    ]


def test_words_that_each_keep_the_separator_they_start_from_are_fixed_at_the_start_and_the_reset(repo: Path) -> None:
    split = (
        "def split_words(text):\n    word = '-'\n    words = []\n    for ch in text:\n        if ch == ' ':\n"
        "            words.append(word)\n            word = '-'\n        else:\n            word += ch\n"
        "    words.append(word)\n    return words\n"
    )
    test = "from words import split_words\n\n\ndef test_split_words():\n"
    test += "    assert split_words('Hi my name') == ['Hi', 'my', 'name']\n"
    events = fixed_by_a_variant(repo, {"words.py": split, "test_words.py": test})
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    assert fixed[0]["n"] == 1 and "wherever `word` is set to it" in fixed[0]["change"], fixed
    assert (
        "    word = ''\n" in (repo / "words.py").read_text()
        and "            word = ''\n" in (repo / "words.py").read_text()
    )

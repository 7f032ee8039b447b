"""Repair of code that is to ignore case, surrounding spaces or order and does not: the parameters put in that form
where the function starts, and among plausible fixes the one that answers inputs differing by case alone alike."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest
from repo_util import commit_files, node_test
from test_repairer import repair

from pedro.repair.choose import Passing, case_blind_pairs, choose
from pedro.repair.clues import Clues
from pedro.repair.locate import Unit
from pedro.repair.normal_forms import (
    FORMS,
    IGNORES_CASE,
    ignored,
    normalised_js_parameters,
    normalised_parameters,
    stripped_pieces,
)
from pedro.repair.variants import unit_variants

COUNT_WORD = (
    'def count_word(text, word):\n    """How many times `word` occurs in `text`{said}."""\n'
    "    return text.split().count(word)\n"
)


def fixed_by_a_variant_among_rivals(repo: Path, files: dict[str, str]) -> None:
    """Repair of `files` by variants alone, plausible candidates compared as a job compares them."""
    commit_files(repo, files)
    outcome, backend, _ = repair(repo, [], coverage=True, mutants=40, candidates=0, rivals=3)
    assert outcome.fixed and backend.requests == [], outcome.summary


def _folded(unit: str) -> dict[int, str]:
    return {change.row: change.text for change in normalised_parameters(unit, ast.parse(unit), FORMS["lower"])}


def test_text_parameters_are_folded_together_then_alone_before_the_first_statement() -> None:
    folded = normalised_parameters(COUNT_WORD.format(said=""), ast.parse(COUNT_WORD.format(said="")), FORMS["lower"])
    assert [(change.row, change.text) for change in folded] == [
        (2, "    text = text.lower()\n    word = word.lower()\n    return text.split().count(word)"),
        (2, "    text = text.lower()\n    return text.split().count(word)"),
        (2, "    word = word.lower()\n    return text.split().count(word)"),
    ]
    # Not `self`, a number's or None's default, a parameter never read, nor a body on the `def` line.
    method = "def has(self, name, limit=3, strict=None, unused=''):\n    return name in self.names[:limit]\n"
    assert _folded(method) == {1: "    name = name.lower()\n    return name in self.names[:limit]"}
    assert _folded("def f(text): return text.split()\n") == {}
    # None where the code deals with case already: the slip is elsewhere.
    flagged = "def findall(pattern, text, ignore_case=False):\n    return re.findall(pattern, text, re.I)\n"
    assert _folded(flagged) == {} and _folded(flagged.replace(", re.I", "").replace(", ignore_case=False", ""))
    # Nor one the function reads as a number: a slice's bound here.
    assert _folded("def top(text, n):\n    return text.split()[:n]\n") == {
        1: "    text = text.lower()\n    return text.split()[:n]"
    }


def test_javascript_text_parameters_are_folded_where_the_body_opens() -> None:
    count = 'function countWord(text, word) {\n  return text.split(" ").filter((w) => w === word).length;\n}\n'
    first = normalised_js_parameters(count, FORMS["lower"])[0]
    folded = ["  text = text.toLowerCase();", "  word = word.toLowerCase();"]
    assert (first.row, first.text.splitlines()[:2]) == (1, folded)
    # Not a number's default, one read as an index, nor code that deals with case already.
    arrow = "const top = (text, n = 3) => {\n  return text.split(' ').slice(0, n);\n};\n"
    assert [change.text.splitlines()[0] for change in normalised_js_parameters(arrow, FORMS["lower"])] == [
        "  text = text.toLowerCase();"
    ]
    method = "  matches(name, i) {\n    return this.names[i] === name;\n  }\n"
    assert [change.text.splitlines()[0] for change in normalised_js_parameters(method, FORMS["lower"])] == [
        "    name = name.toLowerCase();"
    ]
    assert (
        normalised_js_parameters("function has(t, w) {\n  return t.toLowerCase().includes(w);\n}\n", FORMS["lower"])
        == []
    )
    # What a comment says of case is no code that deals with it.
    commented = (
        "function has(t, w) {\n  // true for a word in any case, whatever its case, here\n  return t.includes(w);\n}\n"
    )
    assert len(normalised_js_parameters(commented, FORMS["lower"])) == 3


def test_only_words_that_say_case_is_ignored_ask_for_it() -> None:
    for said in ("ignoring case", "test_count_word_ignores_case", "case-insensitive", "regardless of case"):
        assert IGNORES_CASE.search(said), said
    for said in (
        "in that case",
        "test_base_case",
        "lower case letters",
        "the upper case",
        "in any case",
        "case-sensitive",
    ):
        assert not IGNORES_CASE.search(said), said


def test_the_folding_is_offered_only_where_the_failure_or_the_unit_says_case_is_ignored() -> None:
    def offered(said: str, clues: Clues) -> list[str]:
        text = COUNT_WORD.format(said=said)
        unit = Unit("words.py", "count_word", "count_word", "python", 1, text.count("\n"), text)
        return [v.text for v in unit_variants(unit, [3], clues, text) if "made lower case where" in v.change]

    assert offered(", ignoring case", Clues())
    assert offered("", Clues(ignored=frozenset({"case"})))
    assert offered("", Clues()) == []


def test_among_plausible_fixes_the_one_that_answers_inputs_differing_by_case_alike_is_kept() -> None:
    inputs = ("'The cat', 'the'", "'The cat', 'THE'", "'The cat x', 'the'")
    assert case_blind_pairs(inputs) == [(0, 1)]
    # Candidate 1 folds the text alone (smaller); candidate 2 folds both, and counts 'THE' as 'the' does.
    pool = [Passing(1, "", ("= 1", "= 0", "= 1"), change=1), Passing(2, "", ("= 1", "= 1", "= 1"), change=2)]
    assert choose(pool) == 0
    assert choose(pool, alike=case_blind_pairs(inputs)) == 1


def test_a_count_that_is_to_ignore_case_is_fixed_by_folding_both_of_its_texts(repo: Path) -> None:
    fixed_by_a_variant_among_rivals(
        repo,
        {
            "words.py": COUNT_WORD.format(said=", ignoring case"),
            "test_words.py": (
                "from words import count_word\n\n\ndef test_count_word():\n"
                "    assert count_word('The cat saw the dog', 'the') == 2\n"
            ),
        },
    )
    assert "    text = text.lower()\n    word = word.lower()\n" in (repo / "words.py").read_text()


def test_a_lookup_whose_failing_test_says_it_ignores_case_is_fixed_for_every_case_of_the_name(repo: Path) -> None:
    fixed_by_a_variant_among_rivals(
        repo,
        {
            "tags.py": "def has_tag(tags, tag):\n    return tag in tags.split(',')\n",
            "test_tags.py": (
                "from tags import has_tag\n\n\ndef test_has_tag_ignores_case():\n"
                "    assert has_tag('Red,Blue', 'red')\n    assert not has_tag('Red,Blue', 'green')\n"
            ),
        },
    )
    # Folding `tags` alone passes the test too, and would miss has_tag('Red,Blue', 'RED').
    assert "    tags = tags.lower()\n    tag = tag.lower()\n" in (repo / "tags.py").read_text()


def test_a_javascript_count_whose_test_says_it_ignores_case_is_fixed_for_every_case_of_the_word(repo: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    words = 'function countWord(text, word) {\n  return text.split(" ").filter((w) => w === word).length;\n}\n'
    test = (
        'const test = require("node:test");\nconst assert = require("node:assert/strict");\n'
        'const { countWord } = require("./words");\n\ntest("countWord ignores case", () => {\n'
        '  assert.equal(countWord("The cat saw the dog", "the"), 2);\n});\n'
    )
    commit_files(repo, {"words.js": words + "\nmodule.exports = { countWord };\n", "words.test.js": test})
    outcome, backend, _ = repair(repo, [], command="node --test", mutants=40, candidates=0, rivals=3)
    assert outcome.fixed and backend.requests == [], outcome.summary
    assert "  text = text.toLowerCase();\n  word = word.toLowerCase();\n" in (repo / "words.js").read_text()


DISPLAY_NAME = 'def display_name(name):\n    """The name in title case{said}."""\n    return name.title()\n'
MEDIAN = (
    'def median(values):\n    """The middle value of `values`{said} (the mean of the two middle ones if even)."""\n'
    "    n = len(values)\n    mid = n // 2\n    if n % 2:\n        return values[mid]\n"
    "    return (values[mid - 1] + values[mid]) / 2\n"
)


def test_what_a_function_is_to_ignore_is_read_from_its_words_and_its_tests_names() -> None:
    assert ignored("The name in title case; surrounding spaces are ignored.") == {"space"}
    assert ignored("test_display_name_trims_the_name") == {"space"}
    assert ignored("leading and trailing whitespace does not count") == {"space"}
    assert ignored("The middle value once sorted") == {"order"}
    assert ignored("test_median_of_unsorted_values") == {"order"}
    assert ignored("Counts words, ignoring case and surrounding spaces") == {"case", "space"}
    assert ignored("Return sorted unique elements in a list") == {"duplicates"}
    assert ignored("test_tags_without_duplicates") == {"duplicates"}
    for said in ("leading zeros", "the sorted list of keys", "returns the spaces", "a space-separated list",
                 "the same characters", "duplicate keys raise"):  # fmt: skip
        assert ignored(said) == frozenset(), said


def test_text_is_stripped_and_sequences_sorted_where_the_function_starts() -> None:
    text = DISPLAY_NAME.format(said="")
    assert [c.text for c in normalised_parameters(text, ast.parse(text), FORMS["space"])] == [
        "    name = name.strip()\n    return name.title()"
    ]
    median = MEDIAN.format(said="")
    sorted_first = normalised_parameters(median, ast.parse(median), FORMS["order"])
    assert [c.text.splitlines()[0] for c in sorted_first] == ["    values = sorted(values)"]
    # Not a text, a number's default, nor code that sorts already.
    assert (
        normalised_parameters(
            "def f(n=3, s='a'):\n    return s * n\n", ast.parse("def f(n=3, s='a'): 0"), FORMS["order"]
        )
        == []
    )
    sorting = "def top(values):\n    return sorted(values)[-1]\n"
    assert normalised_parameters(sorting, ast.parse(sorting), FORMS["order"]) == []
    # JavaScript trims; a parameter it reads as text alone is never sorted.
    trim = "function greet(name) {\n  return `Hello, ${name}!`;\n}\n"
    assert normalised_js_parameters(trim, FORMS["space"])[0].text.splitlines()[0] == "  name = name.trim();"
    assert normalised_js_parameters(trim, FORMS["order"]) == []


def test_javascript_sequences_are_sorted_or_left_without_repeats_though_the_function_is_named_for_it() -> None:
    unique = "const unique = (l, n = 2) => {\n  return l.sort((a, b) => a - b).slice(0, n);\n};\n"
    (kept,) = normalised_js_parameters(unique, FORMS["duplicates"])
    assert kept.text.splitlines()[0] == "  l = [...new Set(l)];" and "repeats left out" in kept.change
    # It sorts already; a number is no sequence.
    assert normalised_js_parameters(unique, FORMS["order"]) == []
    middle = "function middle(values) {\n  return values[values.length >> 1];\n}\n"
    (ordered,) = normalised_js_parameters(middle, FORMS["order"])
    assert ordered.text.splitlines()[0] == "  values = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));"


def test_a_name_whose_docstring_says_spaces_are_ignored_is_fixed_by_stripping_it(repo: Path) -> None:
    fixed_by_a_variant_among_rivals(
        repo,
        {
            "names.py": DISPLAY_NAME.format(said="; surrounding spaces are ignored"),
            "test_names.py": (
                "from names import display_name\n\n\ndef test_display_name():\n"
                "    assert display_name('  ada lovelace ') == 'Ada Lovelace'\n"
            ),
        },
    )
    assert "    name = name.strip()\n    return name.title()\n" in (repo / "names.py").read_text()


def test_a_median_that_is_to_sort_its_values_first_is_fixed_by_sorting_them(repo: Path) -> None:
    # Without the sort, `n = len(values) - 1` with `n % 1` passes these two asserts too, and is wrong elsewhere.
    fixed_by_a_variant_among_rivals(
        repo,
        {
            "stats.py": MEDIAN.format(said=" once sorted"),
            "test_stats.py": (
                "from stats import median\n\n\ndef test_median():\n"
                "    assert median([3, 1, 2]) == 2\n    assert median([4, 1, 3, 2]) == 2.5\n"
            ),
        },
    )
    assert "    values = sorted(values)\n    n = len(values)\n" in (repo / "stats.py").read_text()


def test_tags_whose_docstring_says_spaces_around_each_are_ignored_are_fixed_by_stripping_the_pieces(repo: Path) -> None:
    fixed_by_a_variant_among_rivals(
        repo,
        {
            "tags.py": (
                'def parse_tags(text):\n    """The comma-separated tags in `text`; spaces around each are ignored."""\n'
                '    return [tag for tag in text.split(",") if tag]\n'
            ),
            "test_tags.py": (
                "from tags import parse_tags\n\n\ndef test_parse_tags():\n"
                "    assert parse_tags('a, b ,c') == ['a', 'b', 'c']\n"
            ),
        },
    )
    assert '[piece.strip() for piece in text.split(",")]' in (repo / "tags.py").read_text()
    assert stripped_pieces('  return text.split(",").map((t) => t.trim());', "javascript") == []
    ((joined, _),) = stripped_pieces("  return line.split(sep).filter(Boolean);", "javascript")
    assert joined == "  return line.split(sep).map((piece) => piece.trim()).filter(Boolean);"


def test_a_sorted_list_that_is_to_hold_each_value_once_is_fixed_by_leaving_out_the_repeats(repo: Path) -> None:
    # Reversed, without its first item or with it repeated, the list holds the same values, on which the fix answers
    # the same: the probe without its last item tells it from an answer fitted to the test.
    fixed_by_a_variant_among_rivals(
        repo,
        {
            "tags.py": 'def unique_tags(tags):\n    """The sorted unique tags."""\n    return sorted(tags)\n',
            "test_tags.py": (
                "from tags import unique_tags\n\n\ndef test_unique_tags():\n"
                "    assert unique_tags(['c', 'a', 'c', 'b']) == ['a', 'b', 'c']\n"
            ),
        },
    )
    assert "    tags = list(dict.fromkeys(tags))\n    return sorted(tags)\n" in (repo / "tags.py").read_text()
    # Code that keeps each value once already is left alone.
    kept = "def unique_tags(tags):\n    return sorted(set(tags))\n"
    assert normalised_parameters(kept, ast.parse(kept), FORMS["duplicates"]) == []


def test_a_javascript_function_whose_comment_above_says_it_ignores_case_is_fixed_by_its_first_candidate(
    repo: Path,
) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    code = (
        "/* How many distinct characters the string holds, regardless of case.\n"
        "  >>> countDistinct('xyzXYZ')\n  3\n  */\n"
        "const countDistinct = (string) => {\n  return (new Set(string)).size;\n}\n\n"
        "module.exports = { countDistinct };\n"
    )
    test = node_test("count", "countDistinct", "assert.ok(countDistinct('abcde' + 'CADE') === 5);", strict=False)
    commit_files(repo, {"count.js": code, "count.test.js": test})
    outcome, backend, events = repair(repo, [], command="node --test", mutants=40, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    tried = [event.data for event in events if event.type == "repair.candidate"]
    assert [(t["n"], t["status"]) for t in tried] == [(1, "fixed")], tried
    assert "  string = string.toLowerCase();\n  return (new Set(string)).size;\n" in (repo / "count.js").read_text()

"""What a failure's text says about its cause, read as repair reads it."""

from __future__ import annotations

from pathlib import Path

from pedro.repair.clues import read_clues
from pedro.tools.testreport import FailedTest


def clues_of(message: str, details: str = "", root: Path = Path()) -> frozenset[str]:
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

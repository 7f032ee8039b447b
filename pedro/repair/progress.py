"""Progress finer than "fewer tests fail": one failing test, before and after a candidate, failing closer to passing."""

from __future__ import annotations

import ast
import contextlib
import difflib
import json
import re
from collections.abc import Iterator
from typing import Any

from pedro.repair.frames import is_test_file, stack_frames
from pedro.repair.node_diffs import node_diff_values
from pedro.tools.test import TestRun
from pedro.tools.testreport import FailedTest

_NUMBER = r"-?\d+(?:\.\d+)?(?:e-?\d+)?"
# chai's words for equality (vitest's and mocha's `expected 4 to be 5`, `expected [ 3, 2 ] to deeply equal [ 2, 3 ]`).
_CHAI_EQUAL = r"(?:be|equal|eql|deeply equal|strictly equal)"
# (actual, expected) as runners print them: pytest's `assert 7 == 12`, Go's `got 7, want 12` (or `= 7, want 12`),
# node's `7 !== 12`, jest's `Expected: 12` / `Received: 7`, chai's `expected 7 to be 12`, unittest's
# `AssertionError: 7 != 12` (its first value taken as the actual one, as pytest's is).
_ACTUAL_EXPECTED = (
    re.compile(rf"\bassert (?P<actual>{_NUMBER}) == (?P<expected>{_NUMBER})\b"),
    re.compile(rf"\bAssertionError: (?P<actual>{_NUMBER}) != (?P<expected>{_NUMBER})(?: : .*)?$", re.M),
    re.compile(rf"\bexpected (?P<actual>{_NUMBER}) to {_CHAI_EQUAL} (?P<expected>{_NUMBER})\b"),
    re.compile(rf"(?:\bgot\b|=)\s*:?\s*(?P<actual>{_NUMBER}),?\s+want(?:ed)?\s*:?\s*(?P<expected>{_NUMBER})", re.I),
    re.compile(rf"^\s*(?P<actual>{_NUMBER}) !==? (?P<expected>{_NUMBER})\s*$", re.M),
)
# node's assert diff, when the values do not fit on one line: `+ actual - expected` then `+ 4.33` and `- 4`.
_NODE_DIFF = re.compile(
    rf"\+ actual - expected\s*\n\s*\+ (?P<actual>{_NUMBER})\s*\n\s*- (?P<expected>{_NUMBER})\s*$", re.M
)
_JEST = re.compile(rf"Expected:\s*(?P<expected>{_NUMBER})\s*\n\s*Received:\s*(?P<actual>{_NUMBER})")
_TESTIFY = re.compile(r"\bexpected: (?P<expected>[^\n]*)\n\s*actual\s*: (?P<actual>[^\n]*)")
_GO_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# Two JSON texts compared as strings (`'["E+"]' !== '["E"]'`: `JSON.stringify` on each side of node's `assert.ok`).
_JSON_PAIR = re.compile(r"""^\s*'(?P<actual>[\[{"][^'\n]*)' !==? '(?P<expected>[\[{"][^'\n]*)'\s*$""", re.M)
_NUMBER_IN_TEXT = re.compile(r"\d+(?:\.\d+)?")
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
# A line Go's testing package reports a failing check on: `    solution_test.go:12: Not equal:`.
_GO_REPORTED = re.compile(r"^\s+[\w.\-/]+_test\.go:\d+: ", re.M)
# (actual, expected) text: pytest's `assert 'a' == 'b'`, node's `'a' !== 'b'`, Go's `= "a", <nil>; want "b"`.
_TEXT_ACTUAL_EXPECTED = (
    re.compile(r"""\bassert (?P<q>['"])(?P<actual>[^'"\n]*)(?P=q) == (?P<r>['"])(?P<expected>[^'"\n]*)(?P=r)"""),
    re.compile(r"""^\s*(?P<q>['"])(?P<actual>[^'"\n]*)(?P=q) !==? (?P<r>['"])(?P<expected>[^'"\n]*)(?P=r)\s*$""", re.M),
    re.compile(r"""=\s*"(?P<actual>[^"\n]*)"[^"\n]*?\bwant\s*"(?P<expected>[^"\n]*)\""""),
    # unittest's assertEqual on two strings: `AssertionError: 'hello' != 'Hello'`.
    re.compile(
        r"""\bAssertionError: (?P<q>['"])(?P<actual>[^'"\n]*)(?P=q) != (?P<r>['"])(?P<expected>[^'"\n]*)(?P=r)"""
    ),
    # chai's (vitest's, mocha's) on two strings: `expected 'hello' to be 'Hello'`.
    re.compile(
        rf"""\bexpected (?P<q>['"])(?P<actual>[^'"\n]*)(?P=q) to {_CHAI_EQUAL} """
        r"""(?P<r>['"])(?P<expected>[^'"\n]*)(?P=r)"""
    ),
    # jest's toBe on two strings: `Expected: "Hello"` over `Received: "hello"`.
    re.compile(r'\bExpected: "(?P<expected>[^"\n]*)"\n\s*Received: "(?P<actual>[^"\n]*)"'),
    # pytest on two lists: the first item they differ at (`At index 0 diff: 'E+' != 'E'`).
    re.compile(
        r"""\bAt index \d+ diff: (?P<q>['"])(?P<actual>[^'"\n]*)(?P=q) != (?P<r>['"])(?P<expected>[^'"\n]*)(?P=r)"""
    ),
)


def closer(before: FailedTest, after: FailedTest) -> tuple[int, str]:
    """+1 and why when `after` fails closer to passing than `before` (a later assertion in the same file, an actual
    value nearer the expected one), -1 when further, 0 when it cannot be told or nothing moved."""
    move = _moved(before, after)
    if move:
        (_, was), (_, now) = _location(before.location) or ("", 0), _location(after.location) or ("", 0)
        return move, f"it now fails {'later' if move > 0 else 'earlier'}, at line {now} (was {was})"
    old, new = _values(before), _values(after)
    if old is None or new is None or old[1] != new[1] or old[0] == new[0]:
        return 0, ""
    if abs(new[0] - new[1]) < abs(old[0] - old[1]):
        return 1, f"the actual value {new[0]:g} is nearer the expected {new[1]:g} (was {old[0]:g})"
    return -1, f"the actual value {new[0]:g} is further from the expected {new[1]:g} (was {old[0]:g})"


def _location(location: str) -> tuple[str, int] | None:
    path, _, line = location.rpartition(":")
    return (path, int(line)) if path and line.isdigit() else None


def _values(failure: FailedTest) -> tuple[float, float] | None:
    text = f"{failure.message}\n{failure.details}"
    for pattern in (*_ACTUAL_EXPECTED, _NODE_DIFF, _JEST):
        match = pattern.search(text)
        if match is not None:
            try:
                return float(match.group("actual")), float(match.group("expected"))
            except ValueError:
                return None
    return None


def came_nearer(before: TestRun, after: TestRun, wanted: frozenset[str]) -> bool:
    """Whether some wanted test that still fails fails nearer to passing after a candidate, and none further: a
    number nearer the expected one, or text fewer edits from the expected text. Candidates that each came nearer
    at two places are the likeliest halves of a two-place fix."""
    signs = [nearer_sign(earlier, failure) for earlier, failure in _same_tests(before, after, wanted)]
    return any(sign > 0 for sign in signs) and not any(sign < 0 for sign in signs)


def failed_later(before: TestRun, after: TestRun, wanted: frozenset[str]) -> bool:
    """Whether some wanted test that still fails now fails at a later line of the same file, and none earlier: the
    assertions before it hold now. One half of a fix in two places (two branches, two cases) does this; the other
    half leaves the failure as it was (`fails_alike`), as the first assertion never reaches it."""
    moves = [_moved(earlier, failure) for earlier, failure in _same_tests(before, after, wanted)]
    return any(move > 0 for move in moves) and not any(move < 0 for move in moves)


def fails_alike(before: TestRun, after: TestRun, wanted: frozenset[str]) -> bool:
    """Whether the wanted tests fail after a candidate exactly as before: the same tests, at the same place, with
    the same message."""
    if before.report is None or after.report is None or before.failing & wanted != after.failing & wanted:
        return False
    pairs = _same_tests(before, after, wanted)
    return bool(pairs) and all(_as_failed(earlier) == _as_failed(failure) for earlier, failure in pairs)


def _as_failed(failure: FailedTest) -> tuple[str, str]:
    """Where and how a test failed, without what differs between two runs of the same failure: an object's address
    (`<function fibfib at 0x7f6c…>`). Where the test went on past its first failing assertion (Go's `t.Errorf`,
    testify), that one alone: a change that leaves it as it was reached nothing it checks, whatever it did to the
    later ones (the other half of a fix in two branches mends some of those)."""
    starts = [match.start() for match in _GO_REPORTED.finditer(failure.details)]
    message = failure.details[starts[0] : starts[1]] if len(starts) > 1 else failure.message
    return failure.location, _ADDRESS.sub("", message)


def _same_tests(before: TestRun, after: TestRun, wanted: frozenset[str]) -> list[tuple[FailedTest, FailedTest]]:
    """Each wanted test failing in both runs, as (its failure before, its failure after)."""
    if before.report is None or after.report is None:
        return []
    earlier = {failure.test_id: failure for failure in before.report.failures}
    return [
        (earlier[failure.test_id], failure)
        for failure in after.report.failures
        if failure.test_id in wanted and failure.test_id in earlier
    ]


def _moved(before: FailedTest, after: FailedTest) -> int:
    """+1 when the failure is at a later line of the same file, -1 at an earlier one, else 0. Where the runner
    places both at one line, or nowhere (node's reports), the innermost frame of the test file in their stacks says
    where each assertion failed."""
    was, now = _location(before.location), _location(after.location)
    if was == now:
        was, now = _asserted_at(before), _asserted_at(after)
    if not was or not now or was[0] != now[0]:
        return 0
    return (now[1] > was[1]) - (now[1] < was[1])


def _asserted_at(failure: FailedTest) -> tuple[str, int] | None:
    """The innermost frame in a test file of the failure's stack, as (path, line)."""
    frames = stack_frames(f"{failure.message}\n{failure.details}")
    return next(((frame.path, frame.line) for frame in frames if is_test_file(frame.path)), None)


def nearer_sign(before: FailedTest, after: FailedTest) -> int:
    """closer()'s sign, and for text compared with text, +1 when the actual text is fewer edits from the expected
    one, -1 when more."""
    sign, _why = closer(before, after)
    if sign:
        return sign
    old, new = _texts(before), _texts(after)
    if old is None or new is None or old[1] != new[1] or old[0] == new[0]:
        return 0
    # Text that differs from the expected only in its numbers ("$21.99" for "$20.49") is as near as its numbers
    # are: edits of digits say nothing of that. When only the numbers' formatting changed ("8:53" → "08:53"), or
    # they now equal the expected in value ("1:5" for "1:05"), the edits tell.
    was_far, now_far = _numbers_apart(*old), _numbers_apart(*new)
    if was_far is not None and now_far is not None and now_far and _numbers_of(old[0]) != _numbers_of(new[0]):
        return (now_far < was_far) - (now_far > was_far)
    was, now = _edits(*old), _edits(*new)
    return (now < was) - (now > was)


def _numbers_of(text: str) -> list[float]:
    return [float(number) for number in _NUMBER_IN_TEXT.findall(text)]


def _numbers_apart(actual: str, expected: str) -> float | None:
    """How far apart the numbers of two texts that differ only in their numbers are; None for other texts."""
    shape = _NUMBER_IN_TEXT.sub("#", actual)
    if "#" not in shape or shape != _NUMBER_IN_TEXT.sub("#", expected):
        return None
    return sum(abs(one - other) for one, other in zip(_numbers_of(actual), _numbers_of(expected), strict=True))


def actual_expected_texts(text: str) -> list[tuple[str, str]]:
    """Every (actual, expected) pair of texts a failure's output compares, as its runner prints them."""
    matches = (match for pattern in _TEXT_ACTUAL_EXPECTED for match in pattern.finditer(text))
    found = [(match.group("actual"), match.group("expected")) for match in matches]
    return [*found, *_testify_texts(text), *_json_texts(text)]


def _testify_texts(text: str) -> Iterator[tuple[str, str]]:
    """testify's `assert.Equal` of two strings (`expected: "a.b"` over `actual  : "ab"`), or of two slices of strings
    as long as each other (`[]string{"E", "D-"}` and `[]string{"E+", "D-"}`): each pair of texts that differ."""
    for match in _TESTIFY.finditer(text):
        expected, actual = _GO_STRING.findall(match.group("expected")), _GO_STRING.findall(match.group("actual"))
        if len(expected) == len(actual):
            yield from ((one, other) for one, other in zip(actual, expected, strict=True) if one != other)


def _json_texts(text: str) -> Iterator[tuple[str, str]]:
    """Two JSON texts compared whole, or the two sides of node's or jest's diff: two strings, or two lists of strings
    as long as each other (`["E+", "D-"]` and `["E", "D-"]`), each pair of texts that differ."""
    for actual, expected in _javascript_values(text):
        yield from _differing_texts(actual, expected)


def _javascript_values(text: str) -> list[tuple[object, object]]:
    """(actual, expected) of node's and jest's diffs and of two JSON texts compared whole (`'[0,1]' !== '[1]'`)."""
    pairs: list[tuple[object, object]] = list(node_diff_values(text))
    for match in _JSON_PAIR.finditer(text):
        with contextlib.suppress(ValueError):
            pairs.append((json.loads(match["actual"]), json.loads(match["expected"])))
    return pairs


def _differing_texts(actual: object, expected: object) -> Iterator[tuple[str, str]]:
    """Each pair of texts that differ between two strings, or two lists of strings as long as each other."""
    if isinstance(actual, str) and isinstance(expected, str):
        actual, expected = [actual], [expected]
    if not (isinstance(actual, list) and isinstance(expected, list) and len(actual) == len(expected)):
        return
    pairs = zip(actual, expected, strict=True)
    yield from (
        (one, other) for one, other in pairs if isinstance(one, str) and isinstance(other, str) and one != other
    )


def _texts(failure: FailedTest) -> tuple[str, str] | None:
    pairs = actual_expected_texts(f"{failure.message}\n{failure.details}")
    return next(((actual, expected) for actual, expected in pairs if "..." not in actual + expected), None)


def _edits(one: str, other: str) -> int:
    """Characters to insert or delete to turn one into the other."""
    blocks = difflib.SequenceMatcher(None, one, other, autojunk=False).get_matching_blocks()
    matched = sum(block.size for block in blocks)
    return len(one) + len(other) - 2 * matched


def remaining(run: TestRun, wanted: frozenset[str]) -> float | None:
    """How far the wanted tests that still fail are from passing, summed, where their failures say it: a number's
    distance from the expected one, or text's edits from the expected text; None where a failure does not say. Only
    runs of the same tests are compared by it: the halves of a two-place fix that came nearest are paired first."""
    if run.report is None:
        return None
    total = 0.0
    for failure in run.report.failures:
        if failure.test_id not in wanted:
            continue
        values, texts = _values(failure), _texts(failure)
        if values is not None:
            total += abs(values[0] - values[1])
        elif texts is not None:
            total += _edits(*texts)
        else:
            return None
    return total


# pytest's own line for two lists compared whole: `E       assert [0, 1, 4] == [1, 4]` (after `AssertionError: `
# where the test names no message).
_PYTEST_LISTS = re.compile(
    r"^E\s+(?:AssertionError: )?assert (?P<actual>\[[^\n]*\]) == (?P<expected>\[[^\n]*\])\s*$", re.M
)


def extra_ends(text: str) -> set[str]:
    """Which end (`first`, `last`) of a list the failure compares whole holds one item more than expected, the rest
    the same, where that item is nothing (`0`, `""`, an empty list, `None`): node's JSON texts (`'[0,1,4]' !==
    '[1,4]'`) and pytest's `assert [0, 1, 4] == [1, 4]`. Dropping a real item would pass such a test by leaving out
    whatever the test happened to hold one too many of; a zero or an empty item is what a loop makes of a term or a
    piece that was to be skipped."""
    ends: set[str] = set()
    for actual, expected in compared_lists(text):
        if len(actual) == len(expected) + 1:
            ends |= {"first"} if actual[1:] == expected and _nothing(actual[0]) else set()
            ends |= {"last"} if actual[:-1] == expected and _nothing(actual[-1]) else set()
    return ends


def result_shapes(text: str) -> set[str]:
    """What a list the failure compares whole lacks, where it holds the right items otherwise: `repeats` left out
    (`[0, 2, 3, 3, 5]` for `[0, 2, 3, 5]`), and an order, `ascending` or `descending`, where the expected items are
    in that order and the list has them in another."""
    shapes: set[str] = set()
    for actual, expected in compared_lists(text):
        with contextlib.suppress(TypeError):  # items that cannot be told apart this way: unhashable, or of no order
            if actual == expected or len(expected) < 2:
                continue
            if len(actual) > len(expected) and len(set(expected)) == len(expected) and set(actual) == set(expected):
                shapes.add("repeats")
                if list(dict.fromkeys(actual)) == expected:
                    continue
            elif sorted(actual) != sorted(expected):
                continue
            shapes |= {"ascending"} if expected == sorted(expected) else set()
            shapes |= {"descending"} if expected == sorted(expected, reverse=True) else set()
    return shapes


def compared_lists(text: str) -> list[tuple[list[Any], list[Any]]]:
    """(actual, expected) of each pair of lists the failure compares whole: node's JSON texts, its deep-equal diffs,
    pytest's `assert [0, 1, 4] == [1, 4]`, unittest's `Lists differ:` and Go's slices."""
    pairs = _javascript_values(text)
    for match in (*_PYTEST_LISTS.finditer(text), *_UNITTEST_LISTS.finditer(text), *_CHAI_LISTS.finditer(text)):
        with contextlib.suppress(ValueError, SyntaxError, MemoryError, RecursionError):
            pairs.append((ast.literal_eval(match["actual"]), ast.literal_eval(match["expected"])))
    for match in _TESTIFY.finditer(text):
        actual, expected = _go_slice(match["actual"]), _go_slice(match["expected"])
        pairs += [(actual, expected)] if actual is not None and expected is not None else []
    for match in _GO_PRINTED_LISTS.finditer(text):
        pairs.append((_go_printed(match["actual"]), _go_printed(match["expected"])))
    lists = [(_listed(actual), _listed(expected)) for actual, expected in pairs]
    return [(actual, expected) for actual, expected in lists if actual is not None and expected is not None]


# unittest's assertEqual of two lists or tuples, the first taken as the actual value as in pytest's `assert`; a long
# one is cut (`[103 chars]`) and then reads as no literal.
_UNITTEST_LISTS = re.compile(
    r"\b(?:Lists|Tuples) differ: (?P<actual>[\[(][^\n]*[\])]) != (?P<expected>[\[(][^\n]*[\])])$", re.M
)
# chai's two lists, as node's inspect writes them: `expected [ 3, 2, 10 ] to deeply equal [ 2, 3, 10 ]`.
_CHAI_LISTS = re.compile(rf"\bexpected (?P<actual>\[[^\n]*\]) to {_CHAI_EQUAL} (?P<expected>\[[^\n]*\])")
# A Go slice as %#v writes it (testify's `expected: []int{0, 2, 3}`), and as %v does in a test's own message (`got
# [3 2 10], want [2 3 10]`).
_GO_SLICE = re.compile(r"^\[\](?:int\d*|uint\d*|float\d+|string|rune|byte)\{(?P<items>[^{}]*)\}$")
_GO_PRINTED_LISTS = re.compile(
    r"\bgot:?\s*(?P<actual>\[[^\[\]\n]*\]),?\s+want(?:ed)?:?\s*(?P<expected>\[[^\[\]\n]*\])", re.I
)


def _listed(value: object) -> list[Any] | None:
    """A list, or a tuple's items as one; None for anything else."""
    return list(value) if isinstance(value, list | tuple) else None


def _go_slice(text: str) -> list[Any] | None:
    """The items of a slice of numbers or strings as %#v writes it; None for anything else."""
    match = _GO_SLICE.match(text.strip())
    if match is None:
        return None
    with contextlib.suppress(ValueError, SyntaxError, MemoryError, RecursionError):
        items = ast.literal_eval(f"[{match['items']}]")
        return items if isinstance(items, list) else None
    return None


def _go_printed(text: str) -> list[Any]:
    """The items of a slice as %v writes it, `[3 2 10]`: numbers as numbers, the rest as words."""
    return [_number_or_word(item) for item in text[1:-1].split()]


def _number_or_word(item: str) -> object:
    with contextlib.suppress(ValueError):
        return float(item) if "." in item or "e" in item else int(item)
    return item


def _nothing(item: object) -> bool:
    """Whether a list's item is a zero or an empty value (not `False`, which is an answer)."""
    return item is None or (not isinstance(item, bool) and item in (0, "", [], {}))

"""What a failure says about its cause, read once: names it calls undefined, attributes it says are missing, strings it
quotes, the kind of error, and the frames in the project. Variants and their ranking follow these clues."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pedro.repair.frames import frames_of, is_test_file
from pedro.repair.locate import FailingTests
from pedro.repair.normal_forms import ignored
from pedro.repair.object_attributes import GO_MISSING_ATTRIBUTE, PYTHON_MISSING_ATTRIBUTE, missing_attributes
from pedro.repair.own_class import subclassed
from pedro.repair.progress import actual_expected_texts, extra_ends, result_shapes
from pedro.repair.raise_guards import NOT_RAISED, Raising, expected_raises, expected_throws
from pedro.tools.testreport import FailedTest

# node's test runner names an error's class with its base's in brackets: `ReferenceError [Error]: x is not defined`.
_JS_ERROR = r"(?: \[\w+\])?:"
# Python's NameError, JavaScript's ReferenceError, Go's compiler.
_UNDEFINED = (
    re.compile(r"NameError: (?:global )?name '(?P<name>\w+)' is not defined"),
    re.compile(rf"ReferenceError{_JS_ERROR} (?P<name>[\w$]+) is not defined"),
    re.compile(r"undefined: (?P<name>\w+)"),
    re.compile(r"UnboundLocalError: (?:cannot access )?local variable '(?P<name>\w+)'"),
)
_MISSING_ATTRIBUTE = (
    PYTHON_MISSING_ATTRIBUTE,
    re.compile(rf"TypeError{_JS_ERROR} (?:[\w$.]+\.)?(?P<name>[\w$]+) is not a function"),
    GO_MISSING_ATTRIBUTE,
)
# A package a Go file imports and uses nowhere, as Go before 1.20 and after words it.
_UNUSED_IMPORT = (
    re.compile(r'imported and not used: "(?:[\w.-]+/)*(?P<name>[\w.-]+)"'),
    re.compile(r'"(?:[\w.-]+/)*(?P<name>[\w.-]+)" imported and not used'),
)
# A local Go declares and never reads, as Go before 1.20 and after words it.
_UNUSED_LOCAL = (
    re.compile(r"(?P<name>\w+) declared but not used"),
    re.compile(r"declared and not used: (?P<name>\w+)"),
)
# A failure's message that is an exception the code raised: its class's name first (pytest's, unittest's).
_RAISED = (re.compile(r"^(?P<name>[A-Z]\w*(?:Error|Exception))\b"),)
# A key a lookup did not find: Python's KeyError.
_MISSING_KEY = (re.compile(r"KeyError: (?P<quote>['\"])(?P<name>[^'\"\n]+)(?P=quote)"),)
# A method called on its class where an instance was meant (`timedelta.total_seconds()` for `period.total_seconds()`).
_UNBOUND = (
    re.compile(r"unbound method (?:[\w.]+\.)?(?P<owner>\w+)\.\w+\(\) needs an argument"),
    re.compile(r"(?P<owner>\w+)\.\w+\(\) missing 1 required positional argument: 'self'"),
    re.compile(
        r"descriptor '\w+' (?:of|for) '(?:[\w.]+\.)?(?P<owner>\w+)' objects? "
        r"(?:needs an argument|doesn't apply)"
    ),
)
_KINDS = {
    "index": re.compile(r"IndexError|out of range|RangeError|index out of|KeyError", re.I),
    "zero": re.compile(r"ZeroDivisionError|division by zero|divide by zero", re.I),
    "none": re.compile(r"NoneType|\bNone\b|undefined|\bnil\b"),
    "type": re.compile(r"TypeError|cannot convert|unsupported operand", re.I),
    "recursion": re.compile(r"RecursionError|maximum call stack|stack overflow", re.I),
    "assert": re.compile(r"AssertionError|\bassert\b|expected|want", re.I),
    # A sequence unpacked (`first, *rest = coins`) when it was empty.
    "unpack": re.compile(r"not enough values to unpack", re.I),
    # A result with one empty item more than wanted: unittest's `First extra element 1: []`, pytest's `Left contains
    # one more item: []`.
    "empty": re.compile(
        r"(?:First extra element \d+:|Left contains (?:one|\d+) more items?(?:, first extra item)?:)\s*(?:E\s+)?"
        r"(?:\[\]|''|\"\"|\(\)|\{\}|set\(\))(?!\S)"
    ),
    # A loop that never ends: the warm pytest's per-test limit, Go's and node's test timeouts, or the memory a value
    # it grows runs out (V8's array or string past its size, Python's MemoryError, Go's runtime).
    "hang": re.compile(
        r"TestHung|test timed out|timed out after|Fatal JavaScript invalid size|JavaScript heap out of memory"
        r"|\bMemoryError\b|runtime: out of memory",
        re.I,
    ),
}
_QUOTED = re.compile(r"""'([^'\n]{1,80})'|"([^"\n]{1,80})\"""")
# pytest's diff of two strings: `E         - ](#getting-started)` and `E         + ](#getting_started)`.
_DIFF_LINE = re.compile(r"^E\s+[-+] (.{1,80})$", re.M)
_IDENTIFIER = re.compile(r"(?<!\w)[A-Za-z_]\w*")
# Words of pytest's explanations, not names of the code (`E`, `where 3 = f(2)`).
_NOT_NAMES = frozenset({"where", "E"})
# An object shown with its address (`<generator object test_x.<locals>.<genexpr> at 0x7f3c…>`): the runner's view of
# a value, which names no code.
_ADDRESSED = re.compile(r"<[^<>\n]*(?:<\w+>[^<>\n]*)*\bat 0x[0-9a-fA-F]+>")
_BOOLEAN = re.compile(r"\b(?:[Tt]rue|[Ff]alse)\b")
_ASSERTED = re.compile(r"^(?:.*?\bassert\s+|E\s+)")
"""What comes before a comparison's first side: pytest's `E`, `AssertionError: assert `."""
_DIGITS = re.compile(r"\d+")
_STRING_LITERAL = re.compile(r"""(?P<q>["'`])(?P<body>[^"'`\\\n]{1,80})(?P=q)""")
# A test's own message, which is prose, not what it passes: Python's `assert check, "message"` (from its first comma
# outside brackets and strings) and the text Go's testing.T reports (`t.Errorf("IsNested(%q) = %v", ...)`).
# Any one-line string, escapes and all (`'Options:\\n\\t--foo'`): its body.
_ESCAPED_LITERAL = re.compile(r"""(["'`])((?:\\.|(?!\1)[^\\\n])*)\1""")
_PYTHON_ASSERT = re.compile(r"^\s*assert\b")
_GO_REPORT = re.compile(
    r"""(?P<call>\b\w+\.(?:Errorf|Fatalf|Error|Fatal|Logf|Log|Skipf)\(\s*)(?:"[^"\n]*"|`[^`\n]*`)"""
)
_WORD = re.compile(r"[^\W\d_]{4,40}")
"""A word a test may spell: letters alone, long enough that one or two of them differing is a slip."""
# Two sides of a failed comparison on one line: pytest's `assert got == want`, node's `'got' !== 'want'`.
_COMPARISON = re.compile(r"(?P<one>[^\n]*?) (?:==|!==|!=) (?P<other>[^\n]*)")


@dataclass(frozen=True)
class Clues:
    """What the failures of one repair say about the code."""

    undefined: frozenset[str] = frozenset()
    """Names the failure calls undefined (NameError, ReferenceError, `undefined:`)."""
    attributes: frozenset[str] = frozenset()
    """Attributes or methods the failure says an object lacks."""
    owned: frozenset[tuple[str, frozenset[str]]] = frozenset()
    """(a missing attribute, the attributes its object has), where the failure names the object's class, module or
    type and pedro finds it (object_attributes.py)."""
    quoted: frozenset[str] = frozenset()
    """Strings the failure quotes: a string literal in the code may be the bug only when it is one of these."""
    names: frozenset[str] = frozenset()
    """Identifiers in the failure's messages and assertion lines."""
    kinds: frozenset[str] = frozenset()
    """index, zero, none, type, recursion, assert, unpack, empty, hang, flipped (a comparison whose sides differ by a
    true or false alone): the kinds of error the failure shows."""
    frames: tuple[tuple[str, int], ...] = ()
    """Frames in the project's own (non-test) files, deepest first."""
    cases: frozenset[str] = frozenset()
    """lower, upper: the case wanted where a comparison's sides hold strings that differ by case alone."""
    unbound: frozenset[str] = frozenset()
    """Classes whose method the failure says was called on the class itself, where an instance was meant."""
    widths: frozenset[int] = frozenset()
    """Widths a number was wanted zero-padded to, where the expected text has a leading zero the actual one lacks."""
    keys: frozenset[str] = frozenset()
    """Keys a lookup did not find (`KeyError: 'mail'`): a string in the code that may be misspelt."""
    texts: frozenset[tuple[str, str]] = frozenset()
    """(actual, expected) texts the failure compares whole (`assert 'yes' == 'Yes'`): a literal may be spelt out."""
    extra: frozenset[str] = frozenset()
    """first, last: the end of a list the failure compares whole that holds one item more than expected."""
    shapes: frozenset[str] = frozenset()
    """repeats, ascending, descending: what a list the failure compares whole lacks, its items right otherwise."""
    ignored: frozenset[str] = frozenset()
    """case, space, order: what a failing test's name or message says is to be ignored (`test_count_ignores_case`,
    `test_median_of_unsorted_values`)."""
    spelled: frozenset[str] = frozenset()
    """Words the failing tests spell in their own code (`Bf("Jupiter", "Neptune")`), else the failure quotes: a literal
    in the code a letter or two from one of them may be misspelt (`"Jupyter"`)."""
    characters: frozenset[str] = frozenset()
    """The characters of those strings (`IsNested("[[]]")`): a bracket the code looks for that none of them holds
    may be the wrong kind (`'('`)."""

    subclassed: frozenset[str] = frozenset()
    """Classes the failing tests subclass (`class Tagged(Version)`): code of theirs that names them may have meant the
    instance's own class."""
    tabbed: bool = False
    """Whether the failing tests' strings hold a tab (`'Options:\\n\\t--foo'`): a pattern that matches spaces alone may
    have meant any blank."""
    unused: frozenset[str] = frozenset()
    """Packages a Go file imports and uses nowhere (`imported and not used: "sort"`): a call of theirs was dropped."""
    unused_locals: frozenset[str] = frozenset()
    """Locals Go says are declared and not used (`is_prime declared but not used`): a use of theirs was dropped."""
    raising: frozenset[Raising] = frozenset()
    """The arguments of the calls the failing tests expected to raise where they did not (`DID NOT RAISE`): a check the
    function lacks (raise_guards.py)."""
    raised: frozenset[str] = frozenset()
    """Exceptions the failures end in (`ValueError: Cannot specify ',' with 's'.`): where a `return` raised one, the
    function may have been meant to answer otherwise (fallbacks.py)."""

    @property
    def deepest(self) -> tuple[str, int] | None:
        return self.frames[0] if self.frames else None


def clue_texts(failures: Sequence[FailedTest]) -> list[str]:
    """Each failure's text, its message and details: what its clues are read from."""
    return [f"{failure.message}\n{failure.details}" for failure in failures]


def read_clues(failures: Sequence[FailedTest], root: Path, tests: FailingTests | None = None) -> Clues:
    """The clues of every failure together (`tests`: their test functions, where the repair has looked them up)."""
    texts = clue_texts(failures)
    tests = tests or FailingTests(root)
    literals = _literals(failures, texts, tests)
    frames = [
        (frame.path, frame.line) for text in texts for frame in frames_of(text, root) if not is_test_file(frame.path)
    ]
    return Clues(
        undefined=_named(_UNDEFINED, "name", texts),
        attributes=_named(_MISSING_ATTRIBUTE, "name", texts),
        owned=missing_attributes(texts, root),
        quoted=frozenset(quote for text in texts for quote in _quotes(text)),
        names=frozenset(name for failure, text in zip(failures, texts, strict=True) for name in _names(failure, text)),
        kinds=_kinds(texts),
        frames=tuple(dict.fromkeys(frames)),
        cases=frozenset(case for text in texts for case in _cases(text)),
        unbound=_named(_UNBOUND, "owner", texts),
        keys=_named(_MISSING_KEY, "name", texts),
        widths=_widths(texts),
        texts=_compared_texts(texts),
        extra=_extra_ends(texts),
        shapes=_result_shapes(texts),
        ignored=frozenset().union(*(ignored(f"{failure.test_id}\n{failure.message}") for failure in failures)),
        spelled=frozenset(literal for literal in literals if _WORD.fullmatch(literal)),
        characters=frozenset("".join(literals)),
        tabbed=_tabbed(failures, texts, tests),
        subclassed=subclassed(_test_code(failures, tests)),
        unused=_named(_UNUSED_IMPORT, "name", texts),
        unused_locals=_named(_UNUSED_LOCAL, "name", texts),
        raised=_raised(failures),
        raising=_raising(failures, tests, root),
    )


def _raising(failures: Sequence[FailedTest], tests: FailingTests, root: Path) -> frozenset[Raising]:
    """The arguments of the calls that the failing tests which say a call did not raise expected to raise: read from
    a Python test's function, or from the statement of a JavaScript test file the failure stopped at."""
    found: frozenset[Raising] = frozenset()
    for failure in failures:
        text = f"{failure.message}\n{failure.details}"
        if not NOT_RAISED.search(text):
            continue
        test = tests.of(failure)
        if test is not None and test.language == "python":
            found |= expected_raises(test.text)
            continue
        for frame in (frame for frame in frames_of(text, root) if is_test_file(frame.path)):
            lines = _text_of(root / frame.path).splitlines()
            statement = "\n".join(lines[max(frame.line - 1, 0) : frame.line + 2])
            found |= expected_throws(statement, "\n".join(lines))
    return found


def _text_of(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _raised(failures: Sequence[FailedTest]) -> frozenset[str]:
    """The exceptions the failures end in, read from their messages alone (a traceback names others on the way)."""
    return _named(_RAISED, "name", [failure.message for failure in failures])


def _kinds(texts: Sequence[str]) -> frozenset[str]:
    """The kinds of error the texts show (_KINDS), and `flipped` where a comparison differs by a boolean alone."""
    kinds = {kind for text in texts for kind, pattern in _KINDS.items() if pattern.search(text)}
    return frozenset(kinds | ({"flipped"} if any(_flipped(text) for text in texts) else set()))


def _named(patterns: Sequence[re.Pattern[str]], group: str, texts: Sequence[str]) -> frozenset[str]:
    """What the `group` of any of `patterns` matched in any of `texts`."""
    return frozenset(match.group(group) for text in texts for pattern in patterns for match in pattern.finditer(text))


def _result_shapes(texts: Sequence[str]) -> frozenset[str]:
    """What a compared list lacks, its items right otherwise (repeats left out, an order), over every failure."""
    return frozenset(shape for text in texts for shape in result_shapes(text))


def _extra_ends(texts: Sequence[str]) -> frozenset[str]:
    """The ends of a compared list that hold one item more than expected, over every failure."""
    return frozenset(end for text in texts for end in extra_ends(text))


def _compared_texts(texts: Sequence[str]) -> frozenset[tuple[str, str]]:
    """The (actual, expected) texts the failures compare whole: none the runner cut short (`...`)."""
    pairs = (pair for text in texts for pair in actual_expected_texts(text))
    return frozenset(pair for pair in pairs if "..." not in "".join(pair))


def _literals(failures: Sequence[FailedTest], texts: Sequence[str], tests: FailingTests) -> list[str]:
    """The strings the failing tests' own code spells, or where none of their code is found, the strings the failures
    quote. The code's own answers are quoted too (`actual: "Jupyter"`), so the tests' code counts first."""
    code = [_without_messages(test.text) for failure in failures if (test := tests.of(failure)) is not None]
    return [match.group("body") for source in code or texts for match in _STRING_LITERAL.finditer(source)]


def _test_code(failures: Sequence[FailedTest], tests: FailingTests) -> list[str]:
    """The code of each failing test that could be found."""
    return [test.text for failure in failures if (test := tests.of(failure)) is not None]


def _tabbed(failures: Sequence[FailedTest], texts: Sequence[str], tests: FailingTests) -> bool:
    """Whether a string the failing tests' code spells (else one the failures quote) holds a tab, written or escaped."""
    bodies = (
        match.group(2) for source in _test_code(failures, tests) or texts for match in _ESCAPED_LITERAL.finditer(source)
    )
    return any("\t" in body or "\\t" in body for body in bodies)


def _without_messages(code: str) -> str:
    """The test's code with its messages taken out (`_PYTHON_ASSERT`, `_GO_REPORT`): `"… (good for debugging!)"` holds
    a bracket and words that none of the strings it passes holds."""
    lines = (_check_alone(line) if _PYTHON_ASSERT.match(line) else line for line in code.splitlines())
    return _GO_REPORT.sub(r"\g<call>", "\n".join(lines))


def _check_alone(line: str) -> str:
    """An assert statement's line up to its message: the first comma outside brackets and strings, or a comment."""
    depth, quote, k = 0, "", 0
    while k < len(line):
        char = line[k]
        if quote:
            k += char == "\\"  # an escaped character is skipped with its backslash
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{)]}":
            depth += 1 if char in "([{" else -1
        elif char in ",#" and depth == 0:
            return line[:k]
        k += 1
    return line


def _quotes(text: str) -> list[str]:
    """The strings a failure quotes, and the lines of pytest's diff of two strings."""
    return [*(a or b for a, b in _QUOTED.findall(text)), *_DIFF_LINE.findall(text)]


def _names(failure: FailedTest, text: str) -> set[str]:
    """The identifiers of a failure's message and of the lines that show its failing check."""
    lines = [failure.message, *(line for line in text.splitlines() if _assertion(line))]
    return {name for line in lines for name in _IDENTIFIER.findall(_ADDRESSED.sub("", line))} - _NOT_NAMES


def _cases(text: str) -> set[str]:
    """The cases a comparison's two sides differ by alone: `assert [('The', 2)] == [('the', 3)]` says a value was to
    be lower case. A spelling one comparison shows on both sides (`['a'] == ['A', 'a']`) is no such sign."""
    found: dict[str, set[str]] = {}
    shared: set[str] = set()
    for match in _COMPARISON.finditer(text):
        one, other = ({a or b for a, b in _QUOTED.findall(side)} for side in (match["one"], match["other"]))
        shared.update(spelling.casefold() for spelling in one & other)
        for mine, theirs in itertools.product(one - other, other - one):
            if mine != theirs and mine.casefold() == theirs.casefold():
                found.setdefault(mine.casefold(), set()).update(_case_of(mine) | _case_of(theirs))
    return {case for fold, cases in found.items() if fold not in shared for case in cases}


def _flipped(text: str) -> bool:
    """Whether a comparison the text shows differs by its true and false values alone (`('bcd', True) == ('bcd',
    False)`, `'["bcd",true]' !== '["bcd",false]'`)."""
    for match in _COMPARISON.finditer(text):
        one, other = (_ASSERTED.sub("", side.strip()) for side in (match["one"], match["other"]))
        if one != other and _BOOLEAN.sub("?", one) == _BOOLEAN.sub("?", other):
            return True
    return False


def _widths(texts: Sequence[str]) -> frozenset[int]:
    """The widths numbers were wanted zero-padded to: the actual and the expected text read alike with their numbers
    taken out, and a number of the expected one has leading zeros where the actual one is narrower (`'1:5' !==
    '1:05'`; `"8:53", <nil>; want "09:15"`, where the values are wrong too)."""
    found: set[int] = set()
    for actual, expected in (pair for text in texts for pair in actual_expected_texts(text)):
        got, want = _DIGITS.findall(actual), _DIGITS.findall(expected)
        if not want or _DIGITS.sub("#", actual) != _DIGITS.sub("#", expected):
            continue
        found.update(len(wanted) for had, wanted in zip(got, want, strict=True)
                     if wanted.startswith("0") and len(wanted) > len(had))  # fmt: skip
    return frozenset(found)


def _case_of(text: str) -> set[str]:
    return {"lower"} if text.islower() else {"upper"} if text.isupper() else set()


def _assertion(line: str) -> bool:
    """A line that shows the failing check: pytest's `>` line, an `assert`, an `E` explanation."""
    stripped = line.lstrip()
    return stripped.startswith((">", "assert ", "E ", "expect(", "assert."))

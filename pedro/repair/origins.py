"""Where the value a failing test got was made: a test that got nothing (None, undefined, null) points at the lines
the failing run took that return nothing, among the lines coverage ties."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pedro.tools.testreport import FailedTest

# What a runner prints when the value it checked was nothing: unittest's `None is not true`, `None != 5`, `unexpectedly
# None`; pytest's `assert None == 5`, `where None = f()`; the error of using it (`'NoneType' object is not
# subscriptable`); node's `undefined !== 5` and `actual: undefined`, jest's `Received: undefined`, and reading a
# property of it.
_GOT_NOTHING = re.compile(
    r"\bNone is not\b|^\s*(?:AssertionError: )?None != |unexpectedly None\b|\bassert None\b|\bwhere None = "
    r"|'NoneType' object\b"
    r"|^\s*(?:undefined|null) !== |\bactual: (?:undefined|null)\b|\bReceived: (?:undefined|null)\s*$"
    r"|Cannot read propert(?:y|ies) of (?:undefined|null)\b",
    re.MULTILINE,
)
# A line that returns nothing: Python's `return` and `return None`; JavaScript's `return;`, `return null`,
# `return undefined`. Go's `return nil` is every error path's, so it says nothing.
_RETURNS_NOTHING = re.compile(
    r"^\s*(?:}\s*)?(?:(?:el)?if\b.*:\s*|(?:else\s+)?if\s*\(.*\)\s*{?\s*|else\s*{?\s*)?"
    r"return(?:\s+(?:None|null|undefined))?\s*;?\s*}?\s*(?:(?:#|//).*)?$"
)


def got_nothing(failures: Iterable[FailedTest]) -> bool:
    """Whether a failing test checked a value that was nothing, as its runner reports it."""
    return any(_GOT_NOTHING.search(f"{failure.message}\n{failure.details}") for failure in failures)


def returns_nothing(line: str) -> bool:
    """Whether this line of code returns nothing (a guard's `if …: return None` too)."""
    return bool(_RETURNS_NOTHING.match(line))

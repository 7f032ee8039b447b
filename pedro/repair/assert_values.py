"""The values a bare assertion compared, found by making its two sides' calls: node's `assert.ok(f(x) === 'ab')` fails
saying only that the expression was falsy, where pytest shows `assert 'a b' == 'ab'`. Each side is evaluated with the
module's exports in scope (calls/), and the pair is added to the failure's text as node writes a failed strict
equality (`'a b' !== 'ab'`), so that the model's question and the clues read it as they read any comparison's values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from pedro.calls.run import Call, run_calls
from pedro.repair.locate import Unit
from pedro.tools.testreport import FailedTest

_FALSY = re.compile(r"The expression evaluated to a falsy value:\s*assert(?:\.ok)?\((?P<expression>.*)\)\s*$", re.S)
_EQUALS = ("===", "==")
_OPERATOR = re.compile(r"===|!==|==|!=|&&|\|\||\?")
"""The operators that make an expression more than one equality, and equality's own."""
_STRING = re.compile(r"""'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`""")
_OPEN, _CLOSE = "([{", ")]}"
_MOST = 4
"""Assertions explained per repair: each is one child of node."""
COMPARED_TIMEOUT_S = 10.0
"""The most one child may take: its calls are the test's own, each held to calls/'s limit."""


def with_values(failures: Sequence[FailedTest], units: Sequence[Unit], root: Path, env: Mapping[str, str],
                timeout: float) -> list[FailedTest]:  # fmt: skip
    """The failures, each bare assertion of an equality whose two sides could be evaluated against the JavaScript unit
    its expression names with `actual !== expected` added to its text; the rest as they are."""
    shown: list[FailedTest] = []
    for k, failure in enumerate(failures):
        match = _FALSY.search(failure.message) if k < _MOST else None
        sides = _equality(" ".join(match["expression"].split())) if match is not None else None
        unit = next((u for u in units if u.language == "javascript" and sides and u.name in sides[0]), None)
        values = _values(sides, unit, root, env, timeout) if sides is not None and unit is not None else None
        # At the end of the runner's text, which the question keeps when it cuts the text short.
        shown.append(replace(failure, details=f"{failure.details.rstrip()}\n\n{values}") if values else failure)
    return shown


def _values(sides: tuple[str, str], unit: Unit, root: Path, env: Mapping[str, str], timeout: float) -> str | None:
    """`actual !== expected` as the two sides are now; None where either raised, or they are equal."""
    made = run_calls("javascript", unit.path, root, env, [Call(sides[0]), Call(sides[1])], timeout)
    if made.problem or len(made.results) != 2 or any(result.raised for result in made.results):
        return None
    actual, expected = (result.value for result in made.results)
    return f"{actual} !== {expected}" if actual != expected else None


def _equality(expression: str) -> tuple[str, str] | None:
    """The two sides of an expression that is one equality (`f(x) === 'ab'`); None for any other expression."""
    masked = _STRING.sub(lambda string: "_" * len(string.group(0)), expression)  # an operator in a string is text
    top = [match for match in _OPERATOR.finditer(masked) if _depth(masked[: match.start()]) == 0]
    if len(top) != 1 or top[0].group(0) not in _EQUALS:
        return None
    left, right = expression[: top[0].start()].strip(), expression[top[0].end() :].strip()
    return (left, right) if left and right else None


def _depth(text: str) -> int:
    return sum(text.count(char) for char in _OPEN) - sum(text.count(char) for char in _CLOSE)

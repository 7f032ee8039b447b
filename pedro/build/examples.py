"""The examples a request gives (`median([3, 1, 2]) returns 2`, "`slug('A B')` → `'a-b'`", `pop() raises IndexError`),
read as calls and the values they must give, so that every answer is checked against them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pedro.calls.literals import BRACKETS, balanced_end, string_end

# What joins a call to its value in plain words or in symbols.
_RELATION = re.compile(
    r"\s*`?\s*(?:,\s*)?(?P<rel>should\s+(?:return|give|be)|must\s+(?:return|give|be)|returns?|gives|yields|"
    r"evaluates\s+to|equals|is|==|===|→|->|=>|raises|throws|panics\s+with)\s*:?\s*`?\s*",
    re.IGNORECASE,
)
_RAISES = ("raise", "throw", "panic")
_CALL_START = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\(")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_WORDS = re.compile(r"(?:True|False|None|true|false|null|nil|undefined)\b")
_ERROR = re.compile(r"[A-Z]\w*(?:Error|Exception)\b|[A-Z]\w*")
_MAX_EXAMPLES = 12


@dataclass(frozen=True)
class Example:
    """A call and what it must give: a value, written in the code's language, or an error it must raise."""

    call: str
    expected: str = ""
    raises: str = ""

    @property
    def text(self) -> str:
        """As the job record lists it: `median([3, 1, 2]) → 2`, `pop() raises IndexError`."""
        return f"{self.call} raises {self.raises}" if self.raises else f"{self.call} → {self.expected}"


def read_examples(description: str, name: str) -> list[Example]:
    """Every example of `name` in the request: a call of it, then a relation and a value (or an error)."""
    found: list[Example] = []
    for match in _CALL_START.finditer(description):
        if match.group(1) != name:
            continue
        end = balanced_end(description, match.end() - 1)
        if end is None:
            continue
        call = description[match.start() : end]
        relation = _RELATION.match(description, end)
        if relation is None:
            continue
        rest = relation.end()
        if relation.group("rel").lower().startswith(_RAISES):
            error = _ERROR.match(description, rest)
            if error is not None:
                found.append(Example(call, raises=error.group(0)))
            continue
        value = _value(description, rest)
        if value:
            found.append(Example(call, expected=value))
    return list(dict.fromkeys(found))[:_MAX_EXAMPLES]


def _value(text: str, start: int) -> str:
    """The literal that starts at `start`: a string, a bracketed value, a number or a constant word; "" if none."""
    if start >= len(text):
        return ""
    first = text[start]
    if first in "'\"":
        close = string_end(text, start)
        return text[start : close + 1] if close is not None else ""
    if first in BRACKETS:
        end = balanced_end(text, start)
        return text[start:end] if end is not None else ""
    for pattern in (_NUMBER, _WORDS):
        found = pattern.match(text, start)
        if found is not None:
            return found.group(0)  # "returns 2." ends a sentence: the number is 2
    return ""

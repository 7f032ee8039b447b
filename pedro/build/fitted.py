"""An answer fitted to the request's example rather than written for what it asks: it writes the example's result
into the code (`return 10` for `clamp(15, 0, 10) returns 10`) instead of computing it, or never reads one of the
inputs it is given (`clamp(x, low, high) { return Math.max(low, high); }`), and so passes that example alone."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pedro.build.examples import Example
from pedro.repair.mutants import without_comment
from pedro.repair.unread import parameters, unread_in
from pedro.tools.symbols import LanguageName

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# Values too common in code to say anything when an answer writes them: 0, 1, 2 and their negatives.
_SMALL = 2.0
_QUOTES = "'\"`"
# Block comments and Python's docstrings, where an answer may restate the example without computing anything from it
# (line comments go through repair's tokenizer, which knows a `#` or `//` inside a string).
_BLOCKS = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'')
_C_BLOCKS = re.compile(r"/\*[\s\S]*?\*/")


def fitted_to_example(code: str, language: LanguageName, examples: Sequence[Example], description: str) -> str:
    """Why the answer `code` looks fitted to an example ('' when it does not): it never reads one of its parameters,
    or it writes an example's result as a literal, a number or a text, where the request names that value nowhere
    else."""
    lines = code.strip().splitlines()
    unread = unread_in(code, language) if lines else frozenset()
    ignored = [name for name in parameters(lines[0], language) if name in unread] if lines else []
    if ignored:
        return f"it never reads its parameter {ignored[0]}"
    blocks = _BLOCKS if language == "python" else _C_BLOCKS
    body = "\n".join(without_comment(line, language) for line in blocks.sub(" ", code).splitlines())
    prose = description
    for example in examples:
        prose = prose.replace(example.call, " ")
    for example in examples:
        if example.call.replace(" ", "").endswith("()"):
            continue  # called with nothing, a function has nothing to compute its result from
        value = example.expected.strip()
        patterns = _literal_patterns(value)
        # Once as the example's result is all the request says of it; named again, it is part of what was asked.
        if patterns is None or len(patterns[1].findall(prose)) > 1:
            continue
        if patterns[0].search(body):
            return f"it writes {example.call}'s result, {value}, into the code instead of computing it"
    return ""


def _literal_patterns(value: str) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """How the value appears written in code and in words; None for a value too common, or not a number or a text."""
    if _NUMBER.fullmatch(value):
        if abs(float(value)) <= _SMALL:
            return None
        # Not a piece of a longer number or name; a sentence's full stop may follow.
        number = re.compile(rf"(?<![\w.]){re.escape(value)}(?!\w|\.\d)")
        return number, number
    if len(value) >= 2 and value[0] in _QUOTES and value[-1] == value[0]:
        inner = value[1:-1]
        if len(inner.strip()) < 2:
            return None
        return re.compile(rf"([{_QUOTES}]){re.escape(inner)}\1"), re.compile(re.escape(inner))
    return None

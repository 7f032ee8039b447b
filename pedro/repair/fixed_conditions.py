"""A condition that cannot change: one value said to differ from each of several literals with `or` (`c != 'a' ||
c != 'e'`, always true) or to equal each of them with `and` (always false); every joining word of such a run
turned (`&&`, `||`), over as many lines as the condition takes. The same where the two comparisons stand apart,
in groups of their own (`(state == "upper" && …) && (state == "lower" && …)`): the outermost operator joining them
turned."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from pedro.repair.locate import RowChange
from pedro.repair.mutants import code_tokens
from pedro.tools.symbols import LanguageName

_LITERAL = r"""(?:'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|-?\d+(?:\.\d+)?)"""
_SIDE = r"[A-Za-z_$][\w$]*(?:\.[\w$]+|\[[^\[\]\n]*\]|\([^()\n]*\))*"
_COMPARISON = re.compile(rf"(?P<side>{_SIDE})\s*(?P<op>!==?|===?)\s*(?P<literal>{_LITERAL})")
_JOINERS = {
    "python": {"or": "and", "and": "or"},
    "javascript": {"||": "&&", "&&": "||"},
    "go": {"||": "&&", "&&": "||"},
}
# The joiner that makes a run fixed, by the comparison it joins: differing from each literal, or equal to each.
_FIXED_BY = {"!": {"or", "||"}, "=": {"and", "&&"}}
_CONTINUED = re.compile(r"(?:\|\||&&|\bor|\band|\(|\\)\s*$")


def fixed_conditions(lines: list[str], language: str) -> list[RowChange]:
    """Each run of two or more comparisons of one value with different literals that makes its condition always true
    or always false, with every joining word between them turned; the run may go on over several lines."""
    dialect = "javascript" if language in ("javascript", "typescript") else language
    joiners = _JOINERS.get(dialect)
    if joiners is None:
        return []
    found: list[RowChange] = []
    row = 0
    while row < len(lines):
        last = row
        while last + 1 < len(lines) and _CONTINUED.search(lines[last]):
            last += 1
        found.extend(_turned(lines, row, last, joiners))
        row = last + 1
    return found


def _turned(lines: list[str], first: int, last: int, joiners: dict[str, str]) -> list[RowChange]:
    """The runs of the logical line `first`..`last` turned, as one change (its first row, the others in `also`)."""
    comparisons = [(row, match) for row in range(first, last + 1) for match in _COMPARISON.finditer(lines[row])]
    turned: dict[int, list[tuple[int, int, str]]] = {}
    words: list[str] = []
    sides: list[str] = []
    for (row, one), (next_row, other) in zip(comparisons, comparisons[1:], strict=False):
        between = _between(lines, row, one.end(), next_row, other.start()).strip()
        if between not in joiners or one["side"] != other["side"] or one["literal"] == other["literal"]:
            continue
        if one["op"] != other["op"] or between not in _FIXED_BY[one["op"][0]]:
            continue
        # On one line the joiner follows the first comparison; over a break it ends the first line.
        at = lines[row].index(between, one.end()) if row == next_row else lines[row].rindex(between)
        turned.setdefault(row, []).append((at, at + len(between), joiners[between]))
        words.append(f"`{between}` → `{joiners[between]}`")
        sides.append(one["side"])
    if not turned:
        return []
    rewritten = []
    for row in sorted(turned):
        text = lines[row]
        for start, end, new in sorted(turned[row], reverse=True):
            text = text[:start] + new + text[end:]
        rewritten.append((row, text))
    (row, text), *others = rewritten
    change = f"{words[0]} between {len(words) + 1} comparisons of `{sides[0]}` with literals, which could never change"
    return [RowChange(row, text, change, tuple(others))]


def _between(lines: list[str], row: int, start: int, next_row: int, end: int) -> str:
    """The text between two comparisons, over a line break when the second starts the next line."""
    if row == next_row:
        return lines[row][start:end]
    return lines[row][start:] + " " + lines[next_row][:end]


_EQUAL = frozenset({"==", "==="})
_UNEQUAL = frozenset({"!=", "!=="})
_AND = frozenset({"&&", "and"})
_OR = frozenset({"||", "or"})
_NEGATIONS = frozenset({"!", "not"})
# Tokens that leave two comparisons joined by one kind of operator only when absent between them: a choice (`?:`),
# a list's or a call's separator, an assignment.
_BREAKS = frozenset({"?", ":", ",", ";", "=", ":="})


@dataclass(frozen=True)
class _Comparison:
    """`name == literal` (or the other way round) as tokens: where it starts and ends, what it compares, how."""

    first: int
    last: int
    name: str
    literal: str
    equal: bool


def conditions_fixed_apart(lines: list[str], language: LanguageName) -> list[RowChange]:
    """Each line where two comparisons of one name with different literals, with more than a joining word between
    them, are joined by `&&` alone (both `==`) or `||` alone (both `!=`): the outermost such operator between them
    turned. Comparisons side by side are fixed_conditions' runs."""
    found: list[RowChange] = []
    for row, line in enumerate(lines):
        code = code_tokens(line, language)
        seen: set[int] = set()
        for k in _joiners_to_flip(code):
            if k not in seen:
                seen.add(k)
                _kind, text, start = code[k]
                other = _flipped(text)
                new = f"{line[:start]}{other}{line[start + len(text) :]}"
                found.append(RowChange(row, new, f"`{text}` → `{other}`: the condition it joins could never change"))
    return found


def _joiners_to_flip(code: list[tuple[str, str, int]]) -> Iterator[int]:
    """The operators to turn: between each comparison and the next one of the same name, when they stand apart."""
    comparisons = list(_comparisons(code))
    for index, one in enumerate(comparisons):
        other = next((later for later in comparisons[index + 1 :] if later.name == one.name), None)
        if other is None or one.literal == other.literal or one.equal != other.equal:
            continue
        if other.first - one.last > 2:  # noqa: PLR2004 (more than a joining word between them)
            yield from _outer_joiners(code, one.last + 1, other.first, _AND if one.equal else _OR)


def _comparisons(code: list[tuple[str, str, int]]) -> Iterator[_Comparison]:
    """Every `name == literal`, `literal != name` and the like, not negated and not part of a longer term."""
    for k in range(1, len(code) - 1):
        operator = code[k][1]
        if operator not in _EQUAL | _UNEQUAL:
            continue
        left, right = code[k - 1], code[k + 1]
        pair = (left, right) if left[0] == "name" else (right, left)
        name, literal = pair
        if name[0] != "name" or literal[0] not in ("string", "number") or name[1] in _AND | _OR | _NEGATIONS:
            continue
        before = code[k - 2][1] if k >= 2 else ""  # noqa: PLR2004
        after = code[k + 2][1] if k + 2 < len(code) else ""
        # `a.state == 1`, `xs[i] == 2`, `n + 1 == 3`, `!x == 1`: not a plain name's comparison.
        if before in {".", "[", "+", "-", "*", "/", "%", *_NEGATIONS} or after in {".", "[", "(", "+", "-", "*", "/"}:
            continue
        yield _Comparison(k - 1, k + 1, name[1], literal[1], operator in _EQUAL)


def _outer_joiners(code: list[tuple[str, str, int]], start: int, end: int, joiners: frozenset[str]) -> list[int]:
    """The outermost operators between tokens `start` and `end` (excluded), when every logical operator there is one
    of `joiners` and nothing else breaks the chain; else none."""
    depth = 0
    found: list[tuple[int, int]] = []
    for k in range(start, end):
        text = code[k][1]
        if text in _BREAKS or text in _NEGATIONS or (text in _AND | _OR and text not in joiners):
            return []
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
        elif text in joiners:
            found.append((depth, k))
    # Brackets between them that open more than they close leave the second comparison inside a call or a group.
    if depth != 0 or not found:
        return []
    shallowest = min(level for level, _ in found)
    return [k for level, k in found if level == shallowest]


def _flipped(text: str) -> str:
    return {"&&": "||", "||": "&&", "and": "or", "or": "and"}[text]

"""Line variants for a term in excess or out of place: an operand dropped with its operator (`n[0] * neg * -1`), or
the rest of a chain with it (`x * y * a * b` → `x * y`), a chain of `and` made a chain of `or` (or the reverse) whole,
two items of a list or tuple (or two literals a line compares) in each other's place, a difference made absolute where
a distance was meant, a remainder where a difference or quotient is compared with zero (`n - i == 0` for `n % i ==
0`), and a count moved on the wrong one of the function's counters (`max_depth -= 1` where `depth += 1` was to be
undone)."""

from __future__ import annotations

import builtins
import re
from collections.abc import Iterator, Sequence
from typing import Protocol

# Operators whose operand may be one too many: arithmetic, and the connectives of a condition.
_DROPPED_RIGHT = frozenset({"+", "-", "*", "/", "//", "%", "**", "and", "or", "&&", "||"})
# Dropping the left operand leaves the right one alone: only where the operator does not flip it (`a - b` ↛ `b`).
_DROPPED_LEFT = frozenset({"+", "*", "and", "or", "&&", "||"})
# How tightly each binary operator binds, as Python and JavaScript agree: a comparison between the connectives and
# arithmetic.
_PRECEDENCE = {
    "or": 1, "||": 1, "and": 2, "&&": 2,
    "==": 3, "!=": 3, "===": 3, "!==": 3, "<": 3, "<=": 3, ">": 3, ">=": 3, "in": 3, "is": 3,
    "|": 4, "^": 5, "&": 6, "+": 7, "-": 7, "*": 8, "/": 8, "//": 8, "%": 8, "**": 9,
}  # fmt: skip
# A tuple of types (`isinstance(x, (str, bytes))`, `except (KeyError, IndexError)`) means the same in any order.
_TYPES = frozenset(name for name in dir(builtins) if isinstance(getattr(builtins, name), type))
_CONNECTIVES = {"and": "or", "or": "and", "&&": "||", "||": "&&"}
# What may stand before an operand's first token and after its last: where a term starts or ends.
_OPENERS = frozenset({"(", "[", "{", ","})
_CLOSERS = frozenset({")", "]", "}", ","})
_COMPARISONS = frozenset({"==", "!=", "===", "!==", "<", "<=", ">", ">="})
# Literals compared on one line beyond which their swaps are not tried: each pair is a candidate.
_MOST_COMPARED = 4
_ZERO_TESTS = frozenset({"==", "!=", "===", "!=="})
_ABS = {"python": "abs", "javascript": "Math.abs", "typescript": "Math.abs", "tsx": "Math.abs", "go": "math.Abs"}
# Words that open a statement or a clause: a term after one starts there (`return a - b`, `if a - b > t`).
# Names that say a difference is a distance, whose sign never counts: its absolute value is likelier.
_DISTANCE = re.compile(r"dist|gap|diff|delta|apart|away|spread", re.IGNORECASE)
_HEADS = frozenset({"return", "if", "elif", "while", "and", "or", "not", "yield", "in", "else", "assert"})
_ASSIGNING = frozenset({"=", ":=", "+=", "-=", "*=", "/=", "//=", "%=", "**=", "|=", "&=", "^="})


_COUNTED = re.compile(r"^(?P<indent>[ \t]*)(?P<name>[A-Za-z_$][\w$]*)(?P<rest>\s*[-+]=.*)$")
"""A line that moves a counter: `depth += 1`, `balance -= amount;`."""


class Token(Protocol):
    """A token of a line as mutants.py reads it."""

    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


Slip = tuple[str, str, int]
"""(the new line, what changed, its tier)."""


def term_slips(line: str, code: Sequence[Token], language: str) -> Iterator[Slip]:
    """Every variant of the line this module makes, in no order."""
    yield from _operands_dropped(line, code)
    yield from _chain_flipped(line, code)
    yield from _items_swapped(line, code)
    yield from _compared_literals_swapped(line, code)
    yield from _operands_swapped(line, code)
    yield from _made_absolute(line, code, language)
    yield from _squared(line, code, language)
    yield from _remainders(line, code)
    yield from _regrouped(line, code)
    yield from _halved(line, language)


# A sum in brackets that are the whole value (`s := (a + b + c)`, `mid = (lo + hi)`): brackets a sum alone needs only
# for what came after it, most often a halving (a midpoint, a half-perimeter).
_BRACKETED_SUM = re.compile(
    r"^(?P<head>\s*(?:let\s+|var\s+|const\s+)?[A-Za-z_$][\w$]*\s*:?=\s*)(?P<sum>\([^()]*\+[^()]*\))(?P<end>\s*;?\s*)$"
)


def _halved(line: str, language: str) -> Iterator[Slip]:
    """A bracketed sum that is a whole assignment's value, halved: `s := (a + b + c)` → `s := (a + b + c) / 2`."""
    match = _BRACKETED_SUM.match(line)
    if match is None:
        return
    for divide in ("/", "//") if language == "python" else ("/",):
        halved = f"{match['sum']} {divide} 2"
        yield f"{match['head']}{halved}{match['end']}", f"`{match['sum']}` → `{halved}`", 1


_ARITHMETIC = frozenset({"+", "-", "*", "/", "//", "%", "**"})
# Operators whose operands' order counts (`+` where it joins text or parts).
_ORDERED = frozenset({"+", "-", "/", "//", "%", "**"})


def _regrouped(line: str, code: Sequence[Token]) -> Iterator[Slip]:
    """Arithmetic whose brackets were left out, so that the tighter operator took one term where the sum was meant:
    `len(l) - 1 // 2` → `(len(l) - 1) // 2`, `lo + hi / 2` → `(lo + hi) / 2`, and on the right `total / n + 1` →
    `total / (n + 1)`."""
    for k, token in enumerate(code):
        if token.text not in _ARITHMETIC or not _between_operands(code, k):
            continue
        for first, last in (_grouped_before(code, k), _grouped_after(code, k)):
            if first is None or last is None or _holds_text(code, first, last):
                continue
            opened, closed = code[first].start, code[last].end
            side = "before" if last < k else "after"
            new = f"{line[:opened]}({line[opened:closed]}){line[closed:]}"
            yield new, f"`{line[opened:closed].strip()}` taken together {side} `{token.text}`", 3


def _grouped_before(code: Sequence[Token], k: int) -> tuple[int | None, int | None]:
    """The tokens of `a - b` in `a - b // c` (the operator at `k`), to be bracketed; (None, None) where none."""
    start = _term_before(code, k - 1)
    if start is None or start < 2 or not _looser(code, start - 1, _PRECEDENCE[code[k].text]):
        return None, None
    before = _term_before(code, start - 2)
    return (None, None) if before is None else (_operand_start(code, start - 1, before), k - 1)


def _grouped_after(code: Sequence[Token], k: int) -> tuple[int | None, int | None]:
    """The tokens of `b + c` in `a / b + c` (the operator at `k`), to be bracketed; (None, None) where none."""
    end = _term_after(code, k + 1)
    if end is None or end + 2 >= len(code) or not _looser(code, end + 1, _PRECEDENCE[code[k].text]):
        return None, None
    after = _term_after(code, end + 2)
    return (None, None) if after is None else (k + 1, _operand_end(code, end + 1, after))


def _looser(code: Sequence[Token], k: int, tight: int) -> bool:
    """Whether the token at `k` is an arithmetic operator between operands that binds less tightly than `tight`."""
    return code[k].text in _ARITHMETIC and _PRECEDENCE[code[k].text] < tight and _between_operands(code, k)


def _operands_dropped(line: str, code: Sequence[Token]) -> Iterator[Slip]:
    """A term one too many: `x * neg * -1` → `x * neg`, `n + 2*i + i` → `n + 2*i`, `total + total + x` → `total +
    x`, `a == b and b == c` → `a == b`; the operand as the operator's precedence binds it. Where a tighter operator
    binds the neighbouring token in arithmetic, that token alone with the operator too, as a slip of typing reads
    (`(-1) ** 2 * n` → `(-1) ** n`), tried after the rest."""
    for k, token in enumerate(code):
        if token.text not in _DROPPED_RIGHT or not _between_operands(code, k):
            continue
        after, arithmetic = _term_after(code, k + 1), token.text not in _CONNECTIVES
        if after is not None:
            one = _operand_end(code, k, after)
            spans = ((one, 3), (after if arithmetic else None, 4), (_chain_end(code, k, one), 4))
            for end, tier in _dedupe(spans):
                if _holds_text(code, k, end):
                    continue
                text = line[code[k - 1].end : code[end].end]
                yield line[: code[k - 1].end] + line[code[end].end :], f"`{text.strip()}` dropped", tier
        before = _term_before(code, k - 1) if token.text in _DROPPED_LEFT else None
        if before is not None:
            for start, tier in _dedupe(((_operand_start(code, k, before), 3), (before if arithmetic else None, 4))):
                if _holds_text(code, start, k):
                    continue
                text = line[code[start].start : code[k + 1].start]
                yield line[: code[start].start] + line[code[k + 1].start :], f"`{text.strip()}` dropped", tier


def _chain_end(code: Sequence[Token], k: int, end: int | None) -> int | None:
    """The last token of the chain the operator at `k` continues, from its operand ending at `end`: the terms after it
    joined by operators that bind as it does (`* a * b` after `abs(x) * abs(y)`: more than one term too many)."""
    bound = _PRECEDENCE[code[k].text]
    while end is not None and end + 2 < len(code) and _PRECEDENCE.get(code[end + 1].text) == bound:
        if not _between_operands(code, end + 1):
            return end
        after = _term_after(code, end + 2)
        end = None if after is None else _operand_end(code, end + 1, after)
    return end


def _holds_text(code: Sequence[Token], first: int, last: int) -> bool:
    """Whether tokens `first` to `last` hold a string: text is changed only where the failure quotes it."""
    return any(token.kind == "string" for token in code[first : last + 1])


def _dedupe(spans: tuple[tuple[int | None, int], ...]) -> Iterator[tuple[int, int]]:
    """The (token, tier) pairs with a token, each token once (the first tier wins)."""
    seen: set[int] = set()
    for at, tier in spans:
        if at is not None and at not in seen:
            seen.add(at)
            yield at, tier


def _operand_end(code: Sequence[Token], k: int, end: int) -> int | None:
    """The last token of the right operand of the operator at `k`, whose first term ends at `end`: the terms that
    operators binding tighter join to it (`2*i` after `+`)."""
    bound = _PRECEDENCE[code[k].text]
    while end + 2 < len(code) and _PRECEDENCE.get(code[end + 1].text, 0) > bound:
        after = _term_after(code, end + 2)
        if after is None:
            return None
        end = after
    return end


def _operand_start(code: Sequence[Token], k: int, start: int) -> int | None:
    """The first token of the left operand of the operator at `k`, whose last term starts at `start`."""
    bound = _PRECEDENCE[code[k].text]
    while start >= 2 and _PRECEDENCE.get(code[start - 1].text, 0) > bound and _between_operands(code, start - 1):
        before = _term_before(code, start - 2)
        if before is None:
            return None
        start = before
    return start


def _chain_flipped(line: str, code: Sequence[Token]) -> Iterator[Slip]:
    """A condition of two or more `and`s that meant `or` throughout (or the reverse): one token's variant changes
    one of them, which is not enough."""
    for word, other in _CONNECTIVES.items():
        at = [token for token in code if token.text == word]
        if len(at) < 2 or any(token.text == other for token in code):
            continue
        pieces, last = [], 0
        for token in at:
            pieces += [line[last : token.start], other]
            last = token.end
        yield "".join(pieces) + line[last:], f"every `{word}` → `{other}`", 2


def _items_swapped(line: str, code: Sequence[Token]) -> Iterator[Slip]:
    """Two neighbouring items of a list or tuple written out (`[index, value]` → `[value, index]`, `return a, b` →
    `return b, a`): calls' and subscripts' own are mutants.py's argument variants."""
    for items in _displays(code):
        for (one_start, one_end), (other_start, other_end) in zip(items, items[1:], strict=False):
            one, other = line[one_start:one_end], line[other_start:other_end]
            if one != other and not {one, other} <= _TYPES:
                swapped = line[:one_start] + other + line[one_end:other_start] + one + line[other_end:]
                yield swapped, f"items `{one}` and `{other}` swapped", 2


def _compared_literals_swapped(line: str, code: Sequence[Token]) -> Iterator[Slip]:
    """Two literals of a kind that the line compares, in each other's place: `s[0] == ' ' && s[1] == 'I'` → `s[0] ==
    'I' && s[1] == ' '`, the values checked at two places read in the wrong order."""
    compared = [
        k
        for k, token in enumerate(code)
        if token.kind in ("string", "number")
        and ((k and code[k - 1].text in _COMPARISONS) or (k + 1 < len(code) and code[k + 1].text in _COMPARISONS))
    ]
    if len(compared) > _MOST_COMPARED:
        return
    for i, one in enumerate(compared):
        for other in compared[i + 1 :]:
            first, second = code[one], code[other]
            if first.kind == second.kind and first.text != second.text:
                swapped = line[: first.start] + second.text + line[first.end : second.start] + first.text
                yield swapped + line[second.end :], f"`{first.text}` and `{second.text}` swapped", 2


_PARTS = frozenset({"[", "slice", "substring", "substr", "Substring"})
"""What takes a part of a text or a list: an index or a slice, JavaScript's and C#'s methods."""


def _operands_swapped(line: str, code: Sequence[Token]) -> Iterator[Slip]:
    """The two terms of an expression where order counts, in each other's place: `s[:k] + s[k:]` → `s[k:] + s[:k]`,
    `len(xs) - i` → `i - len(xs)`. A sum only of text or of parts (a string, a slice, `s.slice(k)`): numbers add in
    any order."""
    for k, token in enumerate(code):
        if token.text not in _ORDERED or not _between_operands(code, k):
            continue
        before, after = _term_before(code, k - 1), _term_after(code, k + 1)
        if before is None or after is None or not _stands_alone(code, before, after):
            continue
        terms = code[before : after + 1]
        if token.text == "+" and not any(one.kind == "string" or one.text in _PARTS for one in terms):
            continue
        one, other = line[code[before].start : code[k - 1].end], line[code[k + 1].start : code[after].end]
        if one != other:
            swapped = line[: code[before].start] + other + line[code[k - 1].end : code[k + 1].start] + one
            yield swapped + line[code[after].end :], f"`{one}` and `{other}` swapped", 3


def _made_absolute(line: str, code: Sequence[Token], language: str) -> Iterator[Slip]:
    """A difference of two terms that stands alone (assigned, returned, compared) made absolute: `elem - elem2` → a
    distance, `abs(elem - elem2)`; likelier where the line's names say it is a distance (`gap`, `diff`)."""
    function = _ABS.get(language)
    for k, token in enumerate(code):
        if function is None or token.text != "-" or not _between_operands(code, k):
            continue
        before, after = _term_before(code, k - 1), _term_after(code, k + 1)
        if before is None or after is None or not _stands_alone(code, before, after):
            continue
        if before >= 2 and code[before - 1].text == "(" and code[before - 2].text in {"abs", "Abs", "fabs"}:
            continue
        start, end = code[before].start, code[after].end
        difference, tier = line[start:end], 2 if _DISTANCE.search(line) else 3
        absolute = f"{function}({difference})"
        yield f"{line[:start]}{absolute}{line[end:]}", f"`{difference}` → `{absolute}`", tier


def _squared(line: str, code: Sequence[Token], language: str) -> Iterator[Slip]:
    """Go has no power operator, so a square written as a double (`math.Ceil(x)*2`) is the term times itself; Python
    and JavaScript get `** 2` from the operators' own neighbours."""
    for k, token in enumerate(code):
        if language != "go" or token.text != "*" or not _between_operands(code, k) or code[k + 1].text != "2":
            continue
        start = _term_before(code, k - 1)
        if _term_after(code, k + 1) != k + 1 or start is None or (start and code[start - 1].text in {"/", "%", "*"}):
            continue
        term, two = line[code[start].start : code[k - 1].end], code[k + 1]
        yield f"{line[: two.start]}{term}{line[two.end :]}", f"`{term}*2` → `{term}*{term}`: a square", 3


def _remainders(line: str, code: Sequence[Token]) -> Iterator[Slip]:
    """`n - i == 0` or `n / i == 0` where divisibility was meant: the operator → `%`."""
    for k, token in enumerate(code):
        if token.text not in {"-", "/", "//"} or not _between_operands(code, k):
            continue
        after = _term_after(code, k + 1)
        if after is None or after + 2 >= len(code):
            continue
        if code[after + 1].text in _ZERO_TESTS and code[after + 2].text == "0":
            yield line[: token.start] + "%" + line[token.end :], f"`{token.text}` → `%`", 2


def _between_operands(code: Sequence[Token], k: int) -> bool:
    """Whether the operator at `k` stands between two operands (not a sign, as in `return -x`)."""
    if k == 0 or k + 1 >= len(code):
        return False
    before = code[k - 1]
    return before.text in {")", "]"} or (before.kind in {"name", "number", "string"} and before.text not in _HEADS)


def _term_after(code: Sequence[Token], k: int) -> int | None:
    """The last token of the term that starts at `k` (`-1`, `x`, `xs.count(y)`, `(a + b)`, `s[i]`), or None."""
    if k >= len(code):
        return None
    if code[k].text in {"-", "+", "not", "!"}:
        k += 1
    if k >= len(code) or code[k].text in _HEADS:
        return None
    if code[k].text == "(":
        end = matching_bracket(code, k)
    elif code[k].kind in {"name", "number", "string"}:
        end = k
    else:
        return None
    while end is not None and end + 1 < len(code):
        follow = code[end + 1]
        if follow.text in {"(", "["}:
            end = matching_bracket(code, end + 1)
        elif follow.text == "." and end + 2 < len(code) and code[end + 2].kind == "name":
            end += 2
        else:
            break
    return end


def _term_before(code: Sequence[Token], k: int) -> int | None:
    """The first token of the term that ends at `k` (`x`, `f(x)`, `a.b[i]`, `(a + b)`, `-1`), or None."""
    start = _atom_before(code, k)
    while start is not None and start >= 2 and code[start - 1].text == "." and code[start - 2].kind == "name":
        start = _atom_before(code, start - 2)
    if start is not None and start and code[start - 1].text in {"-", "+"} and not _between_operands(code, start - 1):
        start -= 1
    return start


def _atom_before(code: Sequence[Token], k: int) -> int | None:
    """The first token of the name, number, string, call or subscript that ends at `k`, or None."""
    token = code[k]
    if token.text in {")", "]"}:
        start = matching_bracket(code, k, -1)
        if start is None or not start:
            return start
        before = code[start - 1]
        called = before.kind == "name" and before.text not in _HEADS or before.text in {")", "]"}
        return _atom_before(code, start - 1) if called else start
    if token.kind not in {"name", "number", "string"} or token.text in _HEADS:
        return None
    return k


def matching_bracket(code: Sequence[Token], at: int, step: int = 1) -> int | None:
    """Where the bracket at `at` is matched, walking by `step` (1: forwards from an opening, -1: back from a closing);
    None when not on the line."""
    depth = 0
    while 0 <= at < len(code):
        text = code[at].text
        depth += (text in {"(", "[", "{"}) - (text in {")", "]", "}"})
        if depth == 0:
            return at
        at += step
    return None


def _stands_alone(code: Sequence[Token], first: int, last: int) -> bool:
    """Whether tokens `first` to `last` are a whole expression: assigned, returned, compared, an argument."""
    before = code[first - 1].text if first else ""
    after = code[last + 1].text if last + 1 < len(code) else ""
    starts = before in _OPENERS | _ASSIGNING | _COMPARISONS | _HEADS or not before
    ends = after in _CLOSERS | _COMPARISONS | {":", ";", "", "and", "or", "&&", "||", "if", "for"}
    return starts and ends


def _displays(code: Sequence[Token]) -> Iterator[list[tuple[int, int]]]:
    """The items of each list or tuple written out on the line, where they stand: `[a, b]`, `(a, b)` not called, and
    the bare tuple a `return` gives."""
    for k in range(len(code)):
        if _opens_display(code, k):
            items = _items(code, k + 1, matching_bracket(code, k))
            if items is not None and len(items) > 1:
                yield items
    if code and code[0].text == "return":
        items = _items(code, 1, len(code))
        if items is not None and len(items) > 1:
            yield items


def _opens_display(code: Sequence[Token], k: int) -> bool:
    """Whether the bracket at `k` opens a list or tuple written out, not a call's (`f(`) or a subscript's (`xs[`)."""
    token, before = code[k], code[k - 1] if k else None
    if token.text not in {"[", "("}:
        return False
    if before is None or before.text in _HEADS:
        return True
    if token.text == "[":
        return before.kind not in {"name", "string", "number"} and before.text not in {")", "]"}
    return before.kind != "name"


def _items(code: Sequence[Token], first: int, end: int | None) -> list[tuple[int, int]] | None:
    """Where the comma-separated items from token `first` up to `end` (excluded) stand on the line; None for a
    comprehension, a starred or named item, or a bracket that does not close on the line."""
    if end is None:
        return None
    spans: list[tuple[int, int]] = []
    depth, start = 0, first
    for k in range(first, end + 1):
        text = code[k].text if k < end and k < len(code) else ","
        if depth == 0 and text in {"for", "*", "**", ":", "=", ":=", "..."}:
            return None
        if depth == 0 and text == ",":
            if k > start:
                spans.append((code[start].start, code[k - 1].end))
            start = k + 1
        elif text in {"(", "[", "{"}:
            depth += 1
        elif text in {")", "]", "}"}:
            depth -= 1
    return spans


def moved_counters(lines: Sequence[str]) -> Iterator[tuple[int, str, str]]:
    """(row, new line, what changed) for each `x += …` or `x -= …` of a unit moved on another of its counters: a
    function that keeps two (`depth` and `max_depth`) may move the wrong one."""
    counted = [(row, match) for row, line in enumerate(lines) if (match := _COUNTED.match(line)) is not None]
    names = list(dict.fromkeys(match["name"] for _, match in counted))
    for row, match in counted:
        for other in names:
            if other != match["name"]:
                new = f"{match['indent']}{other}{match['rest']}"
                yield row, new, f"`{match['name']}` → `{other}`, the counter moved"

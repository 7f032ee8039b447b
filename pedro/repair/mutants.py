"""One-token variants of a suspicious line (a flipped comparison, a number off by one, two names swapped): fixes
that cost a test run and no model answer.

Most one-line bugs in small programs are one of a few slips (an operator, a bound, an argument order), as the
mutation-based repair literature found; trying those variants of the top-ranked lines first fixes them in a second
each, where a small model rewrites the line wrongly. Variants come in tiers, likeliest first; string literals and
comments are never touched.
"""

from __future__ import annotations

import builtins
import keyword
import re
import string
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from pedro.repair.term_slips import matching_bracket, term_slips
from pedro.tools.symbols import LanguageName


@dataclass(frozen=True)
class Mutant:
    """A variant of one line: the new line (indent included), what changed, and its tier (1 likeliest).
    `formats` when it changes how a string literal formats a value (`%d` → `%02d`): worth a try only when the
    failure compares text. `letters` when the literals it changes are single letters bounding a range (`'a' <= c`):
    character codes, not text, so worth a try whatever the failure quotes."""

    line: str
    change: str
    tier: int
    formats: bool = False
    letters: bool = False


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str
    start: int
    end: int


_STRING = r"""(?P<string>[rRbBfFuU]{0,2}(?:"(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?)|`(?:\\.|[^`\\])*`?)"""
# Longest first, so that `<=` is never read as `<` and `=`, nor `+=` as `+`.
_OPERATORS = (
    "//=", "**=", ">>=", "<<=", "===", "!==", "...", "&^=", "??=",
    "//", "**", "<=", ">=", "==", "!=", "&&", "||", "??", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "=>", "->",
    ":=", "<<", ">>",
    "++", "--", "<-", "&^",
    "+", "-", "*", "/", "%", "<", ">", "=", "!", "&", "|", "^", "~",
)  # fmt: skip
_OPERATOR = "|".join(re.escape(op) for op in _OPERATORS)
_TOKEN_RE = {
    "python": re.compile(rf"{_STRING}|(?P<comment>#.*)|(?P<number>\d[\d_]*(?:\.\d+)?)|(?P<name>[A-Za-z_]\w*)|"
                         rf"(?P<op>{_OPERATOR})|(?P<other>\S)"),
    "other": re.compile(rf"{_STRING}|(?P<comment>//.*|/\*.*?(?:\*/|$))|(?P<number>\d[\d_]*(?:\.\d+)?)|"
                        rf"(?P<name>[A-Za-z_$][\w$]*)|(?P<op>{_OPERATOR})|(?P<other>\S)"),
}  # fmt: skip

# What a slip in an operator most often was, likeliest first.
_SWAPS: dict[str, tuple[str, ...]] = {
    "<": ("<=", ">"),
    "<=": ("<", ">="),
    ">": (">=", "<"),
    ">=": (">", "<="),
    "==": ("!=",),
    "!=": ("==",),
    "===": ("!==",),
    "!==": ("===",),
    "+": ("-", "*"),
    "-": ("+",),
    "*": ("/", "+", "**"),  # `x * 2` where `x ** 2` (a square) was meant
    "**": ("*",),
    "/": ("*", "//"),
    "//": ("/",),
    "&&": ("||",),
    "||": ("&&", "??"),
    "??": ("||",),
    "&": ("|", "^"),
    "|": ("&", "^"),
    "^": ("&", "|"),
    "+=": ("-=",),
    "-=": ("+=",),
    "*=": ("/=",),
    "/=": ("*=",),
    "&=": ("|=", "^="),
    "|=": ("&=", "^="),
    "^=": ("&=", "|="),
}
PYTHON_IN_PLACE = frozenset(
    {"sort", "reverse", "append", "extend", "insert", "update", "add", "clear", "remove", "discard"}
)
"""Python methods that change their list, dict or set in place and return None."""
_REORDERS = frozenset({"sort", "reverse"})
"""Methods that reorder their list or array in place (Python's and JavaScript's)."""
_ONLY_IN: dict[str, frozenset[str]] = {
    "//": frozenset({"python"}),
    "**": frozenset({"python", "javascript", "typescript"}),
}
"""Operators some languages lack (Go has neither)."""
# `return base * rate ...`: a value scaled by a name, returned (Python, Go, JavaScript).
_RETURNED_PART = re.compile(
    r"^(?P<head>\s*return\s+)(?P<part>(?P<base>[A-Za-z_$][\w$.]*)\s*[*/](?![*/=]).*?)(?P<end>;?\s*)$"
)
# A list built from another and returned alone: `return [[first] + s for s in rest]`.
_RETURNED_NEW_ITEMS = re.compile(
    r"^(?P<head>\s*return\s+)(?P<part>\[.*\bfor\s+[\w, ]+\s+in\s+(?P<base>[A-Za-z_]\w*)\s*\])(?P<end>\s*)$"
)
# A length compared with nothing: `len(xs) == 0`, `xs.length === 0`.
_EMPTY_TEST = re.compile(r"(?P<length>\blen\([^()]*\)|[\w$.]+\.length)\s*===?\s*0(?![\w.])")
_COMPLEMENTS = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}
"""Each order comparison's opposite: true exactly where it is false."""
_WORD_SWAPS = {"and": "or", "or": "and", "True": "False", "False": "True", "true": "false", "false": "true",
               "floor": "ceil", "ceil": "floor"}  # fmt: skip
# Functions and methods whose slip is their twin (`any(...)` for `all(...)`): swapped only where called.
_CALL_SWAPS = {"any": "all", "all": "any", "min": "max", "max": "min", "startswith": "endswith",
               "endswith": "startswith", "lower": "upper", "upper": "lower", "lstrip": "rstrip",
               "rstrip": "lstrip", "append": "extend", "extend": "append",
               # A pattern matched at the start only where the whole text was meant (`INDEX.match("01")`).
               "match": "fullmatch", "fullmatch": "match",
               # Go's and JavaScript's names for the same twins (`strings.ToUpper`, `s.startsWith`).
               "ToUpper": "ToLower", "ToLower": "ToUpper", "HasPrefix": "HasSuffix", "HasSuffix": "HasPrefix",
               "TrimLeft": "TrimRight", "TrimRight": "TrimLeft", "Min": "Max", "Max": "Min",
               "toUpperCase": "toLowerCase", "toLowerCase": "toUpperCase", "startsWith": "endsWith",
               "endsWith": "startsWith", "trimStart": "trimEnd", "trimEnd": "trimStart"}  # fmt: skip
_STARTS_AT_ZERO = re.compile(r"^\s*(?:let\s+|var\s+)?[A-Za-z_$][\w$]*\s*:?=\s*0\s*;?\s*$")
"""A variable set to zero alone on its line (`max := 0`, `let best = 0;`): where it starts."""
_STARTS_AT_NUMBER = re.compile(r"^\s*(?:let\s+|var\s+)?[A-Za-z_$][\w$]*\s*:?=\s*\d+\s*;?\s*$")
"""A variable set to a whole number alone on its line (`t := 42`): a start value, which most often is 0."""
_METHOD_TWINS = frozenset({"startswith", "endswith", "lower", "upper", "lstrip", "rstrip", "append", "extend",
                           "match", "fullmatch",
                           "ToUpper", "ToLower", "HasPrefix", "HasSuffix", "TrimLeft", "TrimRight", "Min", "Max",
                           "toUpperCase", "toLowerCase", "startsWith", "endsWith", "trimStart", "trimEnd"})  # fmt: skip
"""Twins swapped only where called as a method (`xs.append(x)`)."""
# Methods whose one argument is of their receiver's kind (a string searched in a string, a set in a set): called on
# either, so a slip may call one on the other (`substring.indexOf(x)` for `x.indexOf(substring)`).
_ONE_KIND_METHODS = frozenset({"indexOf", "lastIndexOf", "includes", "startsWith", "endsWith", "localeCompare",
                               "concat", "search", "startswith", "endswith", "find", "rfind", "index", "rindex",
                               "count", "issubset", "issuperset", "difference", "equals", "compareTo",
                               "contains"})  # fmt: skip
_SEPARATORS = frozenset({",", ";", "|", "-", " "})
_STRING_SWAPS = {'"_"': '"-"', '"-"': '"_"', "'_'": "'-'", "'-'": "'_'"}
_OPERAND_END = frozenset({"number", "name", "string"})
_ASSIGNMENTS = frozenset({"=", ":=", "+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^="})
_CONDITIONS = frozenset({"if", "elif", "while", "else", "}"})
_ROUNDING = frozenset({"floor", "trunc", "ceil", "int"})
"""Calls that round a number to a whole one: `Math.floor`, `math.trunc`, `int`."""
"""Words a line starts with when what follows is a condition, whose block may share its line."""
# Words after which an operator is unary (`return -x`, `if not -1 < x`), not the middle of two operands.
_OPENING_WORDS = frozenset(
    {"return", "if", "elif", "while", "for", "in", "not", "and", "or", "else", "case", "yield", "await", "throw",
     "typeof", "new", "lambda", "is", "assert", "del", "print"}
)  # fmt: skip
# Words that bind looser than `+`: an operand holding one is not a single term that can change places.
_LOOSER_WORDS = frozenset({"if", "else", "for", "and", "or", "not", "lambda", "in", "is", "#", "//"})
_KEYWORDS = frozenset(
    {*keyword.kwlist, "func", "var", "const", "let", "function", "new", "typeof", "null", "undefined", "nil",
     "this", "self", "range", "len", "of", "package", "import", "go", "defer", "chan", "map", "struct", "true", "false",
     "switch", "case", "fallthrough", "goto", "interface", "instanceof"}
)  # fmt: skip


# Built-in types and namespaces: passed as values (`isinstance(x, int)`) they are never the slip. Built-in functions
# are not here: `min` and `max` are as often a clamp's own parameters.
_BUILTINS = frozenset(name for name in dir(builtins) if isinstance(getattr(builtins, name), type)) | {
    "Math", "Number", "String", "Object", "Array", "JSON", "console", "fmt", "strings", "strconv",
    "string", "error", "rune", "byte", "any", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32",
    "uint64", "float32", "float64", "errors", "math", "sort", "time", "os",
}  # fmt: skip
# Every name Python has without an import: never one of the project's own functions.
_EVERY_BUILTIN = frozenset(dir(builtins))
_DECLARING = frozenset({"def", "func", "function", "class", "import", "from", "package"})
# A printf verb (`%d`, `%5.2f`) or a format spec (`{x:.1f}`, `{:02d}`): the width and precision a slip gets wrong.
_PRINTF = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\d*)(?:\.(?P<precision>\d+))?(?P<verb>[dfsvxegq])")
_FORMAT_SPEC = re.compile(r":(?P<flags>[<>^=+ #0-]*)(?P<width>\d*)(?:\.(?P<precision>\d+))?(?P<verb>[dfeg%])?\}")
# An `if` or `elif` and its whole condition, as each language writes it on one line.
_CONDITION = {
    "python": re.compile(r"^\s*(?:if|elif)\s+(?P<condition>[^#]+?)\s*:\s*(?:#.*)?$"),
    # Braces inside it are a composite literal's (`bytes.Contains(b, []byte{c})`); a `;` makes it an `if` with a
    # statement first, left alone.
    "go": re.compile(r"^\s*(?:\}\s*else\s+)?if\s+(?P<condition>[^;]+?)\s*\{\s*$"),
    "other": re.compile(r"^\s*(?:\}\s*else\s+)?if\s*\((?P<condition>.+)\)\s*\{?\s*$"),
}
# A call or an index one step back (`fib(n - 2)`, `memo[i-2]`, `results[-2]`): a recurrence's term.
_BACK_TERM = re.compile(
    r"(?<![\w$.])(?P<of>[A-Za-z_$][\w$]*)(?P<open>[(\[])\s*(?P<by>[A-Za-z_$][\w$]*)?\s*-\s*(?P<k>\d+)\s*[)\]]"
)
# A comparison's negation is its opposite operator, which the operator's own variants already try.
_COMPARED = re.compile(r"[<>]|==|!=")
# `x in xs` or `x is None`, alone: negated as Python writes it, `x not in xs`.
_MEMBERSHIP = re.compile(r"(?P<left>(?:(?! and | or ).)+?) (?P<word>in|is) (?P<right>(?:(?! and | or ).)+)")
# A condition that takes a negation without parentheses: a name, an attribute or a call.
_SIMPLE_CONDITION = re.compile(r"[A-Za-z_$][\w$.]*(?:\([^()]*\))?")
_NAMES_TRIED = 5
"""Other names of the unit tried in place of a variable, the most used first."""


def line_mutants(line: str, language: LanguageName) -> list[Mutant]:
    """The line's one-token variants, likeliest first; none for a line that only declares, opens or comments."""
    tokens = _tokens(line, language)
    code = [token for token in tokens if token.kind != "comment"]
    if not code:
        return []
    found = _default_variants(line, code) if code[0].text in _DECLARING else _variants(line, code, language)
    seen: set[str] = {line}
    mutants: list[Mutant] = []
    for mutant in sorted(found, key=lambda m: m.tier):
        if mutant.line not in seen:
            seen.add(mutant.line)
            mutants.append(mutant)
    return mutants


def without_comment(line: str, language: LanguageName) -> str:
    """The line without its trailing comment (a `#` or `//` inside a string stays)."""
    comment = next((token for token in _tokens(line, language) if token.kind == "comment"), None)
    return line if comment is None else line[: comment.start].rstrip()


def code_text(line: str, language: LanguageName) -> str:
    """The line's code: its comment dropped and its strings blanked, so that their words and brackets are not code's."""
    code = without_comment(line, language)
    for start, literal in reversed(string_literals(code, language)):
        code = code[:start] + " " * len(literal) + code[start + len(literal) :]
    return code


def code_tokens(line: str, language: LanguageName) -> list[tuple[str, str, int]]:
    """The line's tokens but its comment, as (kind, text, where it starts): kinds `name`, `number`, `string`, `op`."""
    return [(token.kind, token.text, token.start) for token in _tokens(line, language) if token.kind != "comment"]


def value_names(line: str, language: LanguageName) -> list[tuple[str, int, int]]:
    """The line's variables read as values (no keyword, type, call, attribute or assignment's target), each with
    where it starts and ends."""
    code = [token for token in _tokens(line, language) if token.kind != "comment"]
    return [(token.text, token.start, token.end) for _k, token in _value_names(code)]


def string_literals(line: str, language: LanguageName) -> list[tuple[int, str]]:
    """Each string literal of the line, its prefix and quotes included, with where it starts; none in a comment."""
    return [(token.start, token.text) for token in _tokens(line, language) if token.kind == "string"]


def _tokens(line: str, language: LanguageName) -> list[_Token]:
    pattern = _TOKEN_RE["python" if language == "python" else "other"]
    return [
        _Token(match.lastgroup or "other", match.group(0), match.start(), match.end())
        for match in pattern.finditer(line)
    ]


def replaced_names(line: str, language: LanguageName, names: list[str]) -> list[Mutant]:
    """The line with one variable replaced by another name of its unit (`return b` → `return a`, `h*60 + h` →
    `h*60 + m`): likelier where a function returns one name, or where one name stands twice in the line."""
    code = [token for token in _tokens(line, language) if token.kind != "comment"]
    if not code or code[0].text in _DECLARING:
        return []
    variables = _value_names(code)
    returns_one = len(code) == 2 and code[0].text == "return" and bool(variables)
    counts = Counter(token.text for _, token in variables)
    mutants = _filled_empty_return(line, code, names)
    for _k, token in variables:
        tier = 3 if returns_one or counts[token.text] > 1 else 4
        for other in [name for name in names if name != token.text][:_NAMES_TRIED]:
            mutants.append(Mutant(line[: token.start] + other + line[token.end :], f"`{token.text}` → `{other}`", tier))
    return mutants + _replaced_lengths(line, code, names) + _replaced_receivers(line, code, names)


def _replaced_lengths(line: str, code: list[_Token], names: list[str]) -> list[Mutant]:
    """A length where another name of the unit was meant (`i < arr.length` → `i < k`, the count of items to take):
    likeliest where that name is one the unit never reads, which `names` lists first."""
    mutants: list[Mutant] = []
    for k in range(len(code)):
        span = _length_span(code, k)
        if span is None:
            continue
        start, end = code[span[0]].start, code[span[1]].end
        length = line[start:end]
        for other in [name for name in names if not re.search(rf"\b{re.escape(name)}\b", length)][:_NAMES_TRIED]:
            mutants.append(Mutant(line[:start] + other + line[end:], f"`{length}` → `{other}`", 4))
    return mutants


def _replaced_receivers(line: str, code: list[_Token], names: list[str]) -> list[Mutant]:
    """A line that only reorders a list in place (`l.sort(…)`, `xs.reverse()`), called on another name of its unit:
    the slip sorted the wrong list (`even.sort(…)` meant). The rarest of slips."""
    if len(code) < 4 or not _is_variable(code[0]) or code[1].text != "." or code[3].text != "(":
        return []
    if code[2].text not in _REORDERS:
        return []
    receiver, method = code[0], code[2].text
    return [
        Mutant(
            line[: receiver.start] + other + line[receiver.end :], f"`{receiver.text}.{method}` → `{other}.{method}`", 4
        )
        for other in [name for name in names if name != receiver.text][:_NAMES_TRIED]
    ]


def replaced_calls(line: str, language: LanguageName, held: list[str]) -> list[Mutant]:
    """The line with a call of one of the project's functions replaced by a variable the unit holds, as if a value
    were computed again where the variable holding it was meant (`get(nodes, nxt) + length` → `distance +
    length`); `held` are the names the unit assigns, in order. None of the call's own names, nor the line's target."""
    code = [token for token in _tokens(line, language) if token.kind != "comment"]
    if not code or code[0].text in _DECLARING:
        return []
    target = code[0].text if _plain_assignment(code) is not None else None
    mutants: list[Mutant] = []
    for name_at, end in _project_calls(code):
        inside = {t.text for t in code[name_at : end + 1] if t.kind == "name"}
        start, stop = code[name_at].start, code[end].end
        for other in [name for name in held if name not in inside and name != target][:_NAMES_TRIED]:
            change = f"`{line[start:stop]}` → `{other}`, a value the function holds"
            mutants.append(Mutant(line[:start] + other + line[stop:], change, 4))
    return mutants


def _project_calls(code: list[_Token]) -> Iterator[tuple[int, int]]:
    """Where each call of a plain name that is no builtin starts (its name) and ends (its `)`), when it closes on the
    line and its value is used: a method's is its object's state, a call alone on its line returns nothing used."""
    for k in range(1, len(code)):
        before = code[k - 1]
        if not _called(code[k], before) or before.text in _EVERY_BUILTIN or (k >= 2 and code[k - 2].text == "."):
            continue
        if before.text in _BUILTINS or (k >= 2 and code[k - 2].text == "]"):
            continue  # a conversion to a type (`float64(n)`, `[]byte(s)`), no function of the project
        end = matching_bracket(code, k)
        if end is not None and not (k == 1 and end == len(code) - 1):
            yield k - 1, end


def _filled_empty_return(line: str, code: list[_Token], names: list[str]) -> list[Mutant]:
    """A base case that returns nothing where it should return what it was given: `return []` → `return [n]`."""
    if [token.text for token in code if token.text != ";"] not in (["return", "[", "]"], ["return", "(", ")"]):
        return []
    close = code[2]
    comma, kind = (",", "tuple") if close.text == ")" else ("", "list")
    filled = [
        Mutant(line[: close.start] + name + comma + line[close.start :], f"`{name}` in the returned {kind}", 3)
        for name in names[:_NAMES_TRIED]
    ]
    if kind == "list":
        # A recursion's base case that yields no way where one empty way was meant (the subsets of nothing).
        filled.append(Mutant(line[: close.start] + "[]" + line[close.start :], "`[]` → `[[]]`", 3))
    return filled


def unit_names(text: str, language: LanguageName) -> list[str]:
    """The variables a unit's code reads (its parameters and locals as used), the most used first."""
    counts: dict[str, int] = {}
    for line in text.splitlines()[1:]:
        code = [token for token in _tokens(line, language) if token.kind != "comment"]
        for _k, token in _value_names(code):
            counts[token.text] = counts.get(token.text, 0) + 1
    return sorted(counts, key=lambda name: -counts[name])


def _default_variants(line: str, code: list[_Token]) -> Iterator[Mutant]:
    """A declaration's default values (`sep="_"`, `width=8`): the value a slip in a signature most often is."""
    for k, token in enumerate(code):
        if k == 0 or code[k - 1].text != "=":
            continue
        if token.kind == "number" and token.text.isdigit():
            yield from _number_variants(line, token)
        elif token.kind == "string" and token.text in _STRING_SWAPS:
            yield _swap(line, token, _STRING_SWAPS[token.text], 3)
        elif token.kind == "string" and [one.text for one in code[k + 1 : k + 3]] == [".", "join"]:
            yield from _separator_variants(line, token)
        elif token.kind == "name" and token.text in _WORD_SWAPS:
            yield _swap(line, token, _WORD_SWAPS[token.text], 2)


def _string_variants(line: str, code: list[_Token], k: int) -> Iterator[Mutant]:
    """A string's own slips: `_` for `-`, a join's separator, a format's width or precision."""
    token = code[k]
    if token.text in _STRING_SWAPS:
        yield _swap(line, token, _STRING_SWAPS[token.text], 3)
    elif [one.text for one in code[k + 1 : k + 3]] == [".", "join"] or _joined_by(code, k):
        yield from _separator_variants(line, token)
    elif token.text[1:-1] in _SEPARATORS and token.text[0] == token.text[-1]:
        # A separator written out alone (`parts.append(',')`) where a space was meant, or the reverse.
        yield from _separator_variants(line, token, alone=True)
    else:
        yield from _format_variants(line, token)


def _joined_by(code: list[_Token], k: int) -> bool:
    """Whether the string at k is what a JavaScript array's `.join(…)` or Go's `strings.Join(…, sep)` puts between
    its items: the last argument of either."""
    if [one.text for one in code[k + 1 : k + 2]] != [")"] or k < 3:
        return False
    if [one.text for one in code[k - 3 : k]] == [".", "join", "("]:
        return True
    opening = _call_opening(code, k)
    called = tuple(one.text for one in code[max(opening - 3, 0) : opening])
    return code[k - 1].text == "," and opening >= 3 and called == ("strings", ".", "Join")


def _call_opening(code: list[_Token], k: int) -> int:
    """The index of the bracket that opens the call whose argument the token at k is; -1 when there is none."""
    depth = 0
    for at in range(k - 1, -1, -1):
        text = code[at].text
        if text in (")", "]", "}"):
            depth += 1
        elif text in ("(", "[", "{"):
            if depth == 0:
                return at if text == "(" else -1
            depth -= 1
    return -1


def _separator_variants(line: str, token: _Token, *, alone: bool = False) -> Iterator[Mutant]:
    """A join's separator with a space more or less (`''.join` ↔ `' '.join`, `","` ↔ `", "`), and one written out
    `alone` also as a space (`','` → `' '`) or the space as a comma: worth a try where the failure compares text."""
    quote, body = token.text[-1], token.text[1:-1]
    if token.text[0] != quote or body.strip(" ") not in _SEPARATORS | {""} or len(body) > 3:
        return
    news = [body.strip(" ") if " " in body else f"{body} "]
    if alone:
        news.append("," if body == " " else " ")
    for new in (quote + one + quote for one in news):
        changed = line[: token.start] + new + line[token.end :]
        yield Mutant(changed, f"`{token.text}` → `{new}`, the separator", 3, formats=True)


def _format_variants(line: str, token: _Token) -> Iterator[Mutant]:
    """A format's width or precision one off: `%d` → `%02d`, `{x:.0f}` → `{x:.1f}`."""
    body_at = token.start
    for pattern in (_PRINTF, _FORMAT_SPEC):
        for match in pattern.finditer(token.text):
            spec, width, precision = match.group(0), match.group("width"), match.group("precision")
            close = "}" if spec.endswith("}") else ""
            lead = spec[0]
            verb = match.group("verb") or ""
            news: list[str] = []
            if precision is not None:
                value = int(precision)
                news += [f".{value + 1}", *([f".{value - 1}"] if value else [])]
                news = [f"{lead}{match.group('flags')}{width}{p}{verb}{close}" for p in news]
            if verb == "d" and not width:
                news.append(f"{lead}02d{close}")
            if verb == "d" and width and match.group("flags") == "0":
                news.append(f"{lead}d{close}")
            for new in news:
                at = body_at + match.start()
                changed = line[:at] + new + line[at + len(spec) :]
                yield Mutant(changed, f"`{spec.rstrip('}')}` → `{new.rstrip('}')}`", 3, formats=True)


def _variants(line: str, code: list[_Token], language: LanguageName) -> Iterator[Mutant]:
    """Every variant, in no order: the caller sorts them by tier."""
    for k, token in enumerate(code):
        if token.kind == "op" and token.text in _SWAPS and _binary(code, k):
            yield from _operator_variants(line, code, k, language)
        elif token.text in ("not", "!") and k + 1 < len(code):
            yield from _negation_dropped(line, code, k)
        elif token.kind == "name":
            yield from _word_variants(line, code, k)
        elif token.kind == "number" and token.text.isdigit():
            yield from _number_variants(line, token)
        elif token.kind == "string":
            yield from _string_variants(line, code, k)
    yield from _step_reversed(line, code)
    yield from _letter_range_recased(line, code)
    if language == "python":
        yield from _order_reversed(line, code)
        yield from _compared_as_collections(line, code)
    yield from _other_end(line, code, language)
    yield from _name_variants(line, code)
    yield from _negated_condition(line, language)
    yield from _length_variants(line, code)
    yield from _base_case_widened(line)
    yield from _repeated_term(line)
    yield from _part_returned(line, language)
    yield from _argument_variants(line, code)
    yield from _accumulate_variants(line, code, language)
    yield from (Mutant(new, change, tier) for new, change, tier in term_slips(line, code, language))


_OTHER_ENDS = {"pop": "shift", "shift": "pop", "push": "unshift", "unshift": "push"}
"""JavaScript's array methods at one end and their twins at the other."""


def _other_end(line: str, code: list[_Token], language: LanguageName) -> Iterator[Mutant]:
    """An item taken from, or put at, the other end of a list: a queue served from the back (`items.pop()` →
    `items.pop(0)` in Python, `items.shift()` in JavaScript), a push to the front (`unshift`) meant for the back."""
    for k in range(2, len(code) - 1):
        name, dot, opening = code[k], code[k - 1], code[k + 1]
        if dot.text != "." or opening.text != "(":
            continue
        close = matching_bracket(code, k + 1)
        if close is None:
            continue
        inside = line[opening.end : code[close].start].strip()
        if language == "python" and name.text == "pop" and inside in ("", "0", "-1"):
            new = "0" if inside in ("", "-1") else ""
            changed = line[: opening.end] + new + line[code[close].start :]
            yield Mutant(changed, f"`pop({inside})` → `pop({new})`, the other end", 2)
        elif language == "javascript" and name.text in _OTHER_ENDS:
            other = _OTHER_ENDS[name.text]
            yield Mutant(line[: name.start] + other + line[name.end :], f"`{name.text}` → `{other}`, the other end", 2)


def _letter_range_recased(line: str, code: list[_Token]) -> Iterator[Mutant]:
    """A range of letters checked in the other case (`'a' <= c && c <= 'z'` → `'A' … 'Z'`): both ends recased at
    once, which no one-token variant reaches."""
    letters = [token for token in code if _letter(token)]
    if len({t.text for t in letters}) < 2 or len({t.text[1].islower() for t in letters}) != 1:
        return
    if not any(t.kind == "op" and t.text in ("<", "<=", ">", ">=") for t in code):
        return  # letters compared as equal to, not bounding a range
    for token in reversed(letters):
        line = line[: token.start] + token.text.swapcase() + line[token.end :]
    first, last = min(t.text for t in letters), max(t.text for t in letters)
    change = f"`{first}`…`{last}` → `{first.swapcase()}`…`{last.swapcase()}`, the letters' other case"
    yield Mutant(line, change, 2, letters=True)


def _letter(token: _Token) -> bool:
    """Whether the token is one ASCII letter in single quotes (`'a'`: a Go rune, a character elsewhere)."""
    text = token.text
    return token.kind == "string" and len(text) == 3 and text[0] == text[2] == "'" and text[1] in string.ascii_letters


def _step_reversed(line: str, code: list[_Token]) -> Iterator[Mutant]:
    """A slice's step walked the other way: `[::1]` → `[::-1]`, `[::-1]` → `[::1]` (a reversal that is not, or one
    that should not be)."""
    for k in range(2, len(code)):
        token, before = code[k], [one.text for one in code[max(0, k - 3) : k]]
        if token.kind != "number":
            continue
        if before[-2:] == [":", ":"]:
            yield _swap(line, token, f"-{token.text}", 2)
        elif before == [":", ":", "-"]:
            sign = code[k - 1]
            yield Mutant(line[: sign.start] + line[sign.end :], f"`-{token.text}` → `{token.text}`", 2)


def _order_reversed(line: str, code: list[_Token]) -> Iterator[Mutant]:
    """A sort the wrong way round: `sorted(xs)` → `sorted(xs, reverse=True)`, `xs.sort(key=len)` →
    `xs.sort(key=len, reverse=True)`. A `reverse=` already there is a word to turn over, as any `True` is."""
    for k in range(1, len(code)):
        name = code[k - 1].text
        method = k >= 2 and code[k - 2].text == "."
        if code[k].text != "(" or (name, method) not in (("sorted", False), ("sort", True)):
            continue
        close = matching_bracket(code, k)
        if close is None or any(token.text == "reverse" for token in code[k:close]):
            continue
        at = code[close].start
        added = ", reverse=True" if line[code[k].end : at].strip() else "reverse=True"
        yield Mutant(line[:at] + added + line[at:], f"`{name}(…)` made to sort in reverse", 2)


def _compared_as_collections(line: str, code: list[_Token]) -> Iterator[Mutant]:
    """Two names compared whole where their items were meant, in any order or number: `s0 == s1` →
    `set(s0) == set(s1)`, `sorted(s0) == sorted(s1)`."""
    for k in range(1, len(code) - 1):
        one, other = code[k - 1], code[k + 1]
        if code[k].text not in ("==", "!=") or not (_is_variable(one) and _is_variable(other)):
            continue
        if (k >= 2 and code[k - 2].text in (".", "(", "[")) or (k + 2 < len(code) and code[k + 2].text in ".([,"):
            continue
        for wrap in ("set", "sorted"):
            new = f"{line[: one.start]}{wrap}({one.text}) {code[k].text} {wrap}({other.text}){line[other.end :]}"
            yield Mutant(new, f"`{one.text}` and `{other.text}` compared as {wrap} items", 4)


def _negation_dropped(line: str, code: list[_Token], k: int) -> Iterator[Mutant]:
    """A negation that should not be there: `if not seen:` → `if seen:`, `!done` → `done`, `not in` → `in`."""
    token, after = code[k], code[k + 1]
    yield Mutant(line[: token.start] + line[after.start :], f"`{token.text}` dropped", 2)


def _negated_condition(line: str, language: LanguageName) -> Iterator[Mutant]:
    """A condition that should have been negated: `if seen:` → `if not seen:`, `if (done) {` → `if (!(done)) {`."""
    match = _CONDITION[_condition_family(language)].match(line)
    if match is None:
        return
    condition = match.group("condition")
    if condition.startswith(("not ", "!")) or " not " in condition or _COMPARED.search(condition):
        return  # dropping the negation is the other variant
    simple = _SIMPLE_CONDITION.fullmatch(condition) is not None
    membership = _MEMBERSHIP.fullmatch(condition) if language == "python" else None
    if membership is not None:
        word = "not in" if membership["word"] == "in" else "is not"
        negated = f"{membership['left']} {word} {membership['right']}"
    elif language == "python":
        negated = f"not {condition}" if simple else f"not ({condition})"
    else:
        negated = f"!{condition}" if simple else f"!({condition})"
    changed = line[: match.start("condition")] + negated + line[match.end("condition") :]
    yield Mutant(changed, "the condition negated", 2)


def _condition_family(language: LanguageName) -> str:
    return language if language in ("python", "go") else "other"


def _word_variants(line: str, code: list[_Token], k: int) -> Iterator[Mutant]:
    """A word in place of its opposite (`and` → `or`), and a called function in place of its twin (`any(` → `all(`)."""
    token = code[k]
    if token.text in _WORD_SWAPS:
        yield _swap(line, token, _WORD_SWAPS[token.text], 1)
    elif token.text in _CALL_SWAPS and k + 1 < len(code) and code[k + 1].text == "(" and _twin_fits(code, k):
        yield _swap(line, token, _CALL_SWAPS[token.text], 1)


def _twin_fits(code: list[_Token], k: int) -> bool:
    """Whether the call at `k` may be its twin's slip: a method's name only where it is called as a method (Go's
    `append(xs, x)` is no method, and no `extend` is its twin)."""
    return code[k].text not in _METHOD_TWINS or (k > 0 and code[k - 1].text == ".")


def _argument_variants(line: str, code: list[_Token]) -> Iterator[Mutant]:
    """Two neighbouring arguments of a call in each other's place (`gcd(a % b, b)` → `gcd(b, a % b)`), and a call
    of a plain name replaced by its one argument, as if the call were a slip (`yield flatten(x)` → `yield x`)."""
    for k, token in enumerate(code):
        before = code[k - 1] if k else None
        if before is None or not (_called(token, before) or _indexed(token, before)):
            continue
        call = _call_arguments(code, k)
        if call is None:
            continue
        arguments, end = call
        what = "arguments" if token.text == "(" else "indices"
        for (one_start, one_end), (other_start, other_end) in zip(arguments, arguments[1:], strict=False):
            one, other = line[one_start:one_end], line[other_start:other_end]
            if one != other:
                swapped = line[:one_start] + other + line[one_end:other_start] + one + line[other_end:]
                yield Mutant(swapped, f"{what} `{one}` and `{other}` swapped", 2)
        if token.text == "(" and len(arguments) == 1:
            yield from _call_dropped(line, code, k, arguments[0], end)
            yield from _receiver_swapped(line, code, k, arguments[0])


def _receiver_swapped(line: str, code: list[_Token], k: int, argument: tuple[int, int]) -> Iterator[Mutant]:
    """`a.indexOf(b)` → `b.indexOf(a)`: a method whose argument is of its receiver's kind, called on the wrong one of
    two plain names."""
    if k < 3 or code[k - 1].text not in _ONE_KIND_METHODS or code[k - 2].text != ".":
        return
    receiver = code[k - 3]
    if not _is_variable(receiver) or (k >= 4 and code[k - 4].text in {".", "?."}):
        return
    other = line[argument[0] : argument[1]]
    if not re.fullmatch(r"[A-Za-z_$][\w$]*", other) or other == receiver.text:
        return
    method = code[k - 1].text
    new = line[: receiver.start] + other + line[receiver.end : argument[0]] + receiver.text + line[argument[1] :]
    yield Mutant(new, f"`{receiver.text}.{method}({other})` → `{other}.{method}({receiver.text})`", 2)


def _call_dropped(line: str, code: list[_Token], k: int, argument: tuple[int, int], end: int) -> Iterator[Mutant]:
    """A call of a plain name (not a method, a type or a length) replaced by its one argument."""
    before = code[k - 1]
    # A length is never a slip for what it measures: `len(xs)` → `xs` would compare a list with a number.
    if (k >= 2 and code[k - 2].text == ".") or before.text in _BUILTINS or before.text == "len":
        return
    text, call_text = line[argument[0] : argument[1]], line[before.start : end]
    yield Mutant(line[: before.start] + text + line[end:], f"`{call_text}` → `{text}`", 3)


def _called(token: _Token, before: _Token) -> bool:
    """Whether `token` opens a call of a name (`f(`), not a statement's bracket (`if (`)."""
    return token.text == "(" and before.kind == "name" and before.text not in _OPENING_WORDS


def _indexed(token: _Token, before: _Token) -> bool:
    """Whether `token` opens a subscript (`grid[i, j]`, `f(x)[k]`), not a list (`= [a, b]`)."""
    return token.text == "[" and (before.text in (")", "]") or (before.kind == "name" and before.text not in _KEYWORDS))


def _call_arguments(code: list[_Token], opening: int) -> tuple[list[tuple[int, int]], int] | None:
    """Where the positional arguments of the call (or the indices of the subscript) opened at token `opening` stand
    on the line, in order, and where it ends; None when it does not close on the line, or an argument is named or
    unpacked (`key=`, `*args`)."""
    closer = ")" if code[opening].text == "(" else "]"
    spans: list[tuple[int, int]] = []
    depth, first = 0, opening + 1
    for k in range(opening + 1, len(code)):
        text = code[k].text
        if depth == 0 and text in (",", closer):
            if k > first:
                # A slice (`xs[1:]`) is one index, not two to swap.
                named = ("=", ":") if closer == "]" else ("=",)
                if code[first].text in ("*", "**") or any(t.text in named for t in code[first:k]):
                    return None
                spans.append((code[first].start, code[k - 1].end))
            if text == closer:
                return spans, code[k].end
            first = k + 1
        elif text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}") and depth:
            depth -= 1
    return None


def _accumulate_variants(line: str, code: list[_Token], language: LanguageName) -> Iterator[Mutant]:
    """A plain assignment that should have added to what was there: `x = e` → `x += e`, and for a keyed target
    that may be missing, the key's current value or zero added (`d[k] = d.get(k, 0) + e` in Python)."""
    at = _plain_assignment(code)
    if at is None:
        return
    target, value = line[code[0].start : code[at - 1].end], line[code[at + 1].start :].rstrip()
    head = line[: code[at].start]
    if value.startswith(f"{target} + "):
        yield from _prepended(head, target, value[len(target) + 3 :])
        yield from _kept_above_zero(head, value, language)
    if target in value:
        return  # it already reads what it assigns
    yield Mutant(f"{head}+= {value}", "`=` → `+=`", 2)
    keyed = at >= 4 and code[0].kind == "name" and code[1].text == "[" and code[at - 1].text == "]"
    if keyed and language == "python":
        key = line[code[2].start : code[at - 2].end]
        yield Mutant(f"{head}= {code[0].text}.get({key}, 0) + {value}", f"`{target}` added to", 2)
    elif keyed and language in ("javascript", "typescript", "tsx"):
        yield Mutant(f"{head}= ({target} || 0) + {value}", f"`{target}` added to", 2)


def _prepended(head: str, target: str, rest: str) -> Iterator[Mutant]:
    """`x = x + e` → `x = e + x`: text or a list built at the wrong end (digits written last to first)."""
    end = ";" if rest.endswith(";") else ""
    rest = rest.removesuffix(";").rstrip()
    if rest and "," not in rest and not _LOOSER_WORDS & set(rest.split()):
        yield Mutant(f"{head}= {rest} + {target}{end}", f"`{target}` and `{rest}` swapped", 2)


def _kept_above_zero(head: str, value: str, language: LanguageName) -> Iterator[Mutant]:
    """`x = x + e` → `x = max(0, x + e)`: a running sum that should start again from zero once it falls below
    (the best sum of a run of items: Kadane's `max_ending_here`), or a balance that cannot go negative."""
    if language == "go":
        return  # its `max` is as new as Go 1.21
    end = ";" if value.endswith(";") else ""
    body = value.removesuffix(";").rstrip()
    best = "max" if language == "python" else "Math.max"
    yield Mutant(f"{head}= {best}(0, {body}){end}", f"`{body}` kept from falling below zero", 4)


def _plain_assignment(code: list[_Token]) -> int | None:
    """Where the `=` stands of a line that assigns a value to one target (a name, an attribute, an item); None for
    any other line."""
    at = next((k for k, token in enumerate(code) if token.kind == "op" and token.text in _ASSIGNMENTS), None)
    if at is None or code[at].text != "=" or at == 0 or at + 1 >= len(code):
        return None
    if code[0].text in _KEYWORDS and not (code[0].text in ("self", "this") and at > 1):
        return None
    if any(token.kind not in _OPERAND_END and token.text not in {".", "[", "]"} for token in code[:at]):
        return None  # a call's keyword argument, an annotation, a tuple: not one target
    return at


def _swap(line: str, token: _Token, new: str, tier: int) -> Mutant:
    return Mutant(line[: token.start] + new + line[token.end :], f"`{token.text}` → `{new}`", tier)


def _binary(code: list[_Token], k: int) -> bool:
    """Whether the operator at `k` stands between two operands (not a sign, as in `return -x`)."""
    before = code[k - 1] if k else None
    return before is not None and (
        (before.kind in _OPERAND_END and before.text not in _OPENING_WORDS) or before.text in {")", "]"}
    )


def _repeats(code: list[_Token], k: int) -> bool:
    """Whether the `*` at `k` repeats a string or a list (`"-" * n`, `[v] * n`): no number to raise to a power."""
    before, after = code[k - 1], code[k + 1] if k + 1 < len(code) else None
    if "string" in {before.kind, after.kind if after is not None else ""} or (after is not None and after.text == "["):
        return True
    opening = matching_bracket(code, k - 1, -1) if before.text == "]" else None
    # A `[` after a name or a bracket indexes; anywhere else it opens a list.
    return opening is not None and (
        opening == 0 or (code[opening - 1].kind not in _OPERAND_END and code[opening - 1].text not in {")", "]"})
    )


def _operator_variants(line: str, code: list[_Token], k: int, language: LanguageName) -> Iterator[Mutant]:
    """Another operator in its place, its `± 1` dropped, or its two operands swapped."""
    token, before = code[k], code[k - 1]
    after = code[k + 1] if k + 1 < len(code) else None
    if token.text in ("+", "+=") and "string" in {before.kind, after.kind if after else ""}:
        return  # joining text: another operator would not fix it
    yield from _other_operators(line, code, k, language)
    if token.text in {"+", "-", "*"} and _floored(code, k):
        # Rounding a sum, a difference or a product of whole numbers changes nothing: a division was meant.
        yield _swap(line, token, "/", 1)
    yield from _ones_dropped(line, code, k)
    if after is not None and token.text in {"/", "-"} and _swappable(code, k, tighter=token.text == "-"):
        swapped = line[: before.start] + after.text + line[before.end : after.start] + before.text
        yield Mutant(swapped + line[after.end :], f"`{before.text}` and `{after.text}` swapped", 1)
    yield from _rounded_up(line, code, k, language)


def _other_operators(line: str, code: list[_Token], k: int, language: LanguageName) -> Iterator[Mutant]:
    """The operator's neighbours in its place (`<` → `<=`), then a comparison's opposite (`<=` → `>`: its two branches
    in each other's place)."""
    token = code[k]
    for new in _SWAPS[token.text]:
        if language not in _ONLY_IN.get(new, frozenset({language})) or (new == "**" and _repeats(code, k)):
            continue
        # A power where a product stands is a rarer slip than the product's other neighbours.
        yield _swap(line, token, new, 3 if new == "**" else 1)
    if token.text in _COMPLEMENTS:
        yield _swap(line, token, _COMPLEMENTS[token.text], 2)


def _floored(code: list[_Token], k: int) -> bool:
    """Whether the operator at `k` stands directly inside a call that rounds (`Math.floor(x - base)`, `int(a * b)`)."""
    depth = 0
    for at in range(k - 1, 0, -1):
        depth += (code[at].text in ")]}") - (code[at].text in "([{")
        if depth < 0:
            return code[at].text == "(" and code[at - 1].text in _ROUNDING
    return False


def _ones_dropped(line: str, code: list[_Token], k: int) -> Iterator[Mutant]:
    """The operator at `k` with a one beside it dropped: `n - 1` where `n` was meant (a bound off by one), `1 +
    f(rest)` where `f(rest)` was meant (a step counted where none was taken)."""
    token, before = code[k], code[k - 1]
    after = code[k + 1] if k + 1 < len(code) else None
    if token.text in {"+", "-"} and after is not None and after.text == "1" and _ends_operand(code, k + 1):
        yield Mutant(line[: before.end] + line[after.end :], f"`{token.text} 1` dropped", 2)
    if token.text == "+" and before.text == "1" and after is not None and _starts_operand(code, k - 1):
        yield Mutant(line[: before.start] + line[after.start :], "`1 +` dropped", 2)


def _rounded_up(line: str, code: list[_Token], k: int, language: LanguageName) -> Iterator[Mutant]:
    """A whole division that should round up (`(g - 1000) / 1000` where each part of a kilogram counts): the
    dividend raised by the divisor less one. Only for a plain divisor and a dividend that is a name, a number or one
    bracketed group, so the edit stays one operation."""
    if (language, code[k].text) not in {("python", "//"), ("go", "/")}:  # whole division; JavaScript's never is
        return
    after = code[k + 1] if k + 1 < len(code) else None
    if (
        after is None
        or after.kind not in {"name", "number"}
        or after.text in _KEYWORDS
        or not _ends_operand(code, k + 1)
    ):
        return
    start = _operand_start(code, k - 1)
    if start is None or (start and code[start - 1].text in {".", "*", "/", "//", "%", "**"}):
        return
    dividend, divisor = line[code[start].start : code[k - 1].end], after.text
    grouped = dividend[1:-1] if code[start].text == "(" else dividend
    rounded = f"({grouped} + {divisor} - 1) {code[k].text} {divisor}"
    yield Mutant(line[: code[start].start] + rounded + line[after.end :], f"`{code[k].text}` rounded up", 2)


def _operand_start(code: list[_Token], end: int) -> int | None:
    """Where the operand that ends at `end` starts: the name or number itself, or the `(` that opens its group."""
    token = code[end]
    if token.kind in {"name", "number"}:
        return end if token.text not in _KEYWORDS else None
    if token.text != ")":
        return None
    depth = 0
    for at in range(end, -1, -1):
        depth += {")": 1, "(": -1}.get(code[at].text, 0)
        if depth == 0:
            called = at and code[at - 1].kind == "name" and code[at - 1].text not in _KEYWORDS
            return None if called else at
    return None


def _number_variants(line: str, token: _Token) -> Iterator[Mutant]:
    """An integer one more or less, or ten times more or less."""
    value = int(token.text)
    yield _swap(line, token, str(value + 1), 2)
    if value > 0:
        yield _swap(line, token, str(value - 1), 2)
        if value > 1 and _STARTS_AT_NUMBER.match(line):
            yield _swap(line, token, "0", 3)  # a count or a best-so-far started elsewhere than nothing
    elif _STARTS_AT_ZERO.match(line):
        yield _swap(line, token, "-1", 3)  # a best-so-far or an answer for none found: `max := 0` for `-1`
    if value >= 10 and value % 10 == 0:
        yield _swap(line, token, str(value // 10), 3)
    if value >= 10:
        yield _swap(line, token, str(value * 10), 3)


def _length_variants(line: str, code: list[_Token]) -> Iterator[Mutant]:
    """A length off by one: `len(xs)` → `len(xs) - 1` (Python, Go), `xs.length` → `xs.length - 1` (JavaScript)."""
    for k in range(len(code)):
        span = _length_span(code, k)
        if span is None:
            continue
        start, end = span
        length = line[code[start].start : code[end].end]
        for sign in ("-", "+"):
            shifted = f"{length} {sign} 1" if _alone(code, start, end) else f"({length} {sign} 1)"
            changed = line[: code[start].start] + shifted + line[code[end].end :]
            yield Mutant(changed, f"`{length}` → `{shifted}`", 3)


def _base_case_widened(line: str) -> Iterator[Mutant]:
    """A base case that stops only at nothing where one item is as done: `len(arr) == 0` → `len(arr) <= 1`."""
    for match in _EMPTY_TEST.finditer(line):
        new = f"{match.group('length')} <= 1"
        yield Mutant(line[: match.start()] + new + line[match.end() :], f"`{match.group(0)}` → `{new}`", 2)


def _repeated_term(line: str) -> Iterator[Mutant]:
    """A recurrence's term written twice where the next was meant (`f(n-1) + f(n-2) + f(n-3) + f(n-2)` → the last
    `f(n-4)`): each later copy of a repeated step made the step after the largest, or before the smallest."""
    groups: dict[tuple[str, str, str], list[re.Match[str]]] = {}
    for match in _BACK_TERM.finditer(line):
        groups.setdefault((match["of"], match["open"], match["by"] or ""), []).append(match)
    for terms in groups.values():
        steps = [int(term["k"]) for term in terms]
        if len(terms) < 3 or len(set(steps)) == len(steps):
            continue
        news = [max(steps) + 1, *([min(steps) - 1] if min(steps) > 1 else [])]
        for k, term in enumerate(terms):
            if steps[k] not in steps[:k]:
                continue
            at, end = term.start("k"), term.end("k")
            for new in news:
                now = f"{line[term.start() : at]}{new}{line[end : term.end()]}"
                yield Mutant(f"{line[:at]}{new}{line[end:]}", f"`{term.group(0)}` → `{now}`", 1)


def _part_returned(line: str, language: LanguageName) -> Iterator[Mutant]:
    """A part of a value returned where the value less or plus that part was meant: a discount for the discounted
    price (`return cents * percent // 100` → `return cents - cents * percent // 100`), a tax for the taxed one, the
    items built from a list without the list (`return [[first] + s for s in rest]` → `return rest + […]`)."""
    code = without_comment(line, language)
    items = _RETURNED_NEW_ITEMS.match(code) if language == "python" else None
    match = items or _RETURNED_PART.match(code)
    if match is None:
        return
    head, base, part, end = match.group("head", "base", "part", "end")
    for sign in ("+",) if items else ("-", "+"):
        new = f"{base} {sign} {part}"
        yield Mutant(f"{head}{new}{end}{line[len(code) :]}", f"`{part}` → `{new}`", 3)


def _length_span(code: list[_Token], k: int) -> tuple[int, int] | None:
    """The first and last tokens of a length that starts at `k` (`len(xs)`, `xs.length`), or None."""
    if code[k].text == "len" and k + 1 < len(code) and code[k + 1].text == "(":
        start, end = k, matching_bracket(code, k + 1)
    elif code[k].text == "length" and k >= 2 and code[k - 1].text == "." and code[k - 2].kind == "name":
        start, end = k - 2, k
    else:
        return None
    # `len(xs) + 1` has its bound moved by the numbers' own variants already.
    moved = end is not None and end + 1 < len(code) and code[end + 1].text in ("+", "-")
    if end is None or moved or (start and code[start - 1].text in (".", "+", "-")):
        return None
    return start, end


def _name_variants(line: str, code: list[_Token]) -> Iterator[Mutant]:
    """A variable off by one (`last` → `last + 1`), and two variables swapped (`ratio(whole, part)`)."""
    variables = _value_names(code)
    indexing = _indexing(code)
    for k, token in variables:
        if token.text in indexing[0] or _measured(code, k):
            continue  # a collection (`xs[i]`, `len(xs)`): one more than a list is no value
        for sign in ("+", "-"):
            shifted = f"{token.text} {sign} 1" if _alone(code, k) else f"({token.text} {sign} 1)"
            yield Mutant(line[: token.start] + shifted + line[token.end :], f"`{token.text}` → `{shifted}`", 3)
    yield from _names_swapped(line, code, variables, indexing)


def _names_swapped(
    line: str, code: list[_Token], variables: list[tuple[int, _Token]], indexing: tuple[set[str], set[str]]
) -> Iterator[Mutant]:
    """Two variables of the line in each other's place, wherever each stands (`ratio(whole, part)`)."""
    measured = {code[k].text for k in range(len(code)) if _measured(code, k)}
    names = list(dict.fromkeys(token.text for _, token in variables))
    for i, one in enumerate(names):
        for other in names[i + 1 :]:
            if not _swappable_names(one, other, indexing, measured):
                continue
            swapped = "".join(
                other if token.text == one else one if token.text == other else token.text
                for token in _spans(line, code, {one, other}, [t for _, t in variables])
            )
            yield Mutant(swapped, f"`{one}` and `{other}` swapped", 2)


def _indexing(code: list[_Token]) -> tuple[set[str], set[str]]:
    """The names the line indexes or measures (`grid` in `grid[r][c]`, `xs` in `len(xs)`) and the names read inside
    an index (`r`, `c`)."""
    collections = {code[k].text for k in range(len(code)) if _measured(code, k)}
    indices: set[str] = set()
    for k, token in enumerate(code[:-1]):
        if token.kind != "name" or code[k + 1].text != "[" or (k and code[k - 1].text == "."):
            continue
        collections.add(token.text)
        at: int | None = k + 1
        while at is not None and at < len(code) and code[at].text == "[":  # `grid[r][c]`: every index of it
            end = matching_bracket(code, at)
            indices.update(name.text for name in code[at + 1 : end] if name.kind == "name")
            at = None if end is None else end + 1
    return collections, indices


def _swappable_names(one: str, other: str, indexing: tuple[set[str], set[str]], measured: set[str]) -> bool:
    """Whether two names may be read in each other's place: not a collection and a name an index reads (`xs[i]` →
    `i[xs]`), nor a collection a length measures and any other name (`i < len(xs)` → `xs < len(i)`)."""
    collections, indices = indexing
    for collection, name in ((one, other), (other, one)):
        if collection in collections and name not in collections and (name in indices or collection in measured):
            return False
    return True


def _measured(code: list[_Token], k: int) -> bool:
    """Whether the name at `k` is what a length call measures (`len(xs)`): a collection, with no one more of it."""
    return 2 <= k < len(code) - 1 and code[k - 1].text == "(" and code[k - 2].text == "len" and code[k + 1].text == ")"


def _alone(code: list[_Token], k: int, last: int | None = None) -> bool:
    """Whether tokens k to `last` (k alone by default) stand alone between brackets or commas, where `x + 1` needs
    no parentheses."""
    end = k if last is None else last
    before, after = code[k - 1] if k else None, code[end + 1] if end + 1 < len(code) else None
    return before is not None and before.text in {"(", ",", "["} and after is not None and after.text in {
        ")", ",", "]", ":",
    }  # fmt: skip


def _value_names(code: list[_Token]) -> list[tuple[int, _Token]]:
    """The line's variables read as values: not keywords, types, calls, attributes or what an assignment stores."""
    variables: list[tuple[int, _Token]] = []
    # What an assignment stores into (`top, score = best(pairs)`) is not a value the line computes; where a condition
    # holds its block on its own line (`if (j % i == 0) { p = 0; break }`), only the name stored into.
    stored = next((k for k, token in enumerate(code) if token.text in _ASSIGNMENTS), -1)
    targets = _loop_targets(code)
    if stored > 0 and code[0].text in _CONDITIONS:
        targets.add(stored - 1)
        stored = -1
    for k, token in enumerate(code):
        if k >= stored and k not in targets and _is_variable(token) and _read_as_value(code, k) and not _label(code, k):
            variables.append((k, token))
    return variables


def _label(code: list[_Token], k: int) -> bool:
    """Whether the name at `k` is a loop's label (Go's and JavaScript's `outer:`, `continue outer`): no value."""
    if k == 0:
        return len(code) == 2 and code[1].text == ":"
    return code[k - 1].text in ("break", "continue", "goto")


def _loop_targets(code: list[_Token]) -> set[int]:
    """Where the names a loop or a comprehension binds stand (`for i, x in`, `for (const x of`): stored, not read;
    `for (i + 1) in` is no code, and `for j in` in place of `for i in` only unbinds the name the body reads."""
    targets: set[int] = set()
    for k, token in enumerate(code):
        if token.text != "for":
            continue
        for at in range(k + 1, len(code)):
            if code[at].text in ("in", "of", ";", ":="):
                break
            targets.add(at)
    return targets


def _is_variable(token: _Token) -> bool:
    """Whether the token names a variable: not a keyword, a word with a swap of its own, `_` or a builtin."""
    if token.kind != "name" or token.text in _KEYWORDS or token.text in _WORD_SWAPS or token.text == "_":
        return False
    return token.text not in _BUILTINS  # `isinstance(x, int)`, `map(str, xs)`: a type passed along, not a value


def _read_as_value(code: list[_Token], k: int) -> bool:
    """Whether the name at `k` is read as a value: not a call, an attribute, an object, an assignment's target, a
    name updated in place or an arrow function's parameter, none of them a value to shift."""
    before = code[k - 1] if k else None
    after = code[k + 1] if k + 1 < len(code) else None
    if (before is not None and before.text == ".") or (after is not None and after.text in {"(", ".", "=", "=>"}):
        return False
    return after is None or after.text not in {":=", "+=", "-=", "*=", "/=", "++", "--"}


def _spans(line: str, code: list[_Token], names: set[str], variables: list[_Token]) -> Iterator[_Token]:
    """The line cut into the variables named in `names` and the text between them."""
    at = 0
    for token in variables:
        if token.text in names:
            yield _Token("text", line[at : token.start], at, token.start)
            yield token
            at = token.end
    yield _Token("text", line[at:], at, len(line))


def _swappable(code: list[_Token], k: int, *, tighter: bool) -> bool:
    """Whether the operator at `k` has a plain name or number on each side, neither part of a longer operand
    (`xs.length`, `f(x)`); for `-`, also none bound tighter to a neighbour (in `9 / 5 - 32`, 5 is not an operand)."""
    if k < 1 or k + 1 >= len(code):
        return False
    before, after = code[k - 1], code[k + 1]
    outer_before = code[k - 2].text if k >= 2 else ""
    outer_after = code[k + 2].text if k + 2 < len(code) else ""
    binding = {".", "(", "[", "**"} | ({"*", "/", "//", "%"} if tighter else set())
    return (
        all(token.kind in {"name", "number"} and token.text not in _KEYWORDS for token in (before, after))
        and outer_before not in binding - {"(", "["}
        and outer_after not in binding
    )


def _starts_operand(code: list[_Token], k: int) -> bool:
    """Whether the token at `k` starts an operand: nothing binds tighter before it (so `1 + x` can lose `1 +`)."""
    before = code[k - 1] if k else None
    return (
        before is None
        or before.text in {"(", "[", ",", "=", ":", "return", "yield", "+"}
        or before.text in (_ASSIGNMENTS)
    )


def _ends_operand(code: list[_Token], k: int) -> bool:
    """Whether the token at `k` ends an operand: nothing binds tighter after it (so `n - 1` can lose `- 1`)."""
    after = code[k + 1] if k + 1 < len(code) else None
    return after is None or after.text in {")", "]", ",", ":", ";", "{", "+", "-"} or after.kind == "comment"

"""Variants of a string literal that the failure itself spells out: the code gave `'yes'` where `'Yes'` was expected,
so the literal whose text stands where the two differ becomes the expected text (`'yes'` → `'Yes'`, and `"d"` →
`"db"` at the end of `"db" + bits + "d"`), a format's own text too (`"db%bd"` → `"db%bdb"`). A change of case alone
is also made to the function's other literals written in that case: a slip made throughout (`'yes'`/`'no'` for
`'Yes'`/`'No'`) shows in one failure at a time; so is a change to a literal a name is set to, at each line that sets
the name to it (`t = ','` at the start and at each reset). A pattern's class of ASCII letters, where the failure's
text holds a letter outside ASCII, widened to every letter. Text the expected has and the actual lacks, put between
two texts joined with nothing between them; and a value given the case the failure expects (`i` → `i.swapcase()`)
where the two texts differ by case alone."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence

from pedro.repair.mutants import code_tokens, string_literals
from pedro.tools.symbols import LanguageName

Fix = tuple[int, str, str, tuple[tuple[int, str], ...]]
"""(the row, its new text, what changed, the other rows the same change rewrites as (row, new text))."""

_PER_LITERAL = 3
"""Rewritings of one literal at most: a short literal may stand at several places of the actual text."""
_CASINGS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("capitalised", str.capitalize),
    ("in upper case", str.upper),
    ("in lower case", str.lower),
    ("title-cased", str.title),
)


def spelled_out(
    lines: Sequence[str], rows: Iterable[int], texts: Iterable[tuple[str, str]], language: LanguageName
) -> list[Fix]:
    """Each literal on `rows` of `lines` rewritten so that an actual text of the failure (`texts`: (actual, expected)
    pairs) would read as expected, where the literal covers all that differs between the two."""
    rows = list(rows)
    pairs = [(actual, expected) for actual, expected in texts if actual != expected]
    found: list[Fix] = []
    for row in rows:
        line = lines[row]
        for start, token in string_literals(line, language):
            body = _plain_body(token)
            if body is None:
                continue
            news = dict.fromkeys(new for actual, expected in pairs for new in _rewritten(body, actual, expected))
            for new in [new for new in news if _writable(new, token[0])][:_PER_LITERAL]:
                written = token[0] + new + token[0]
                change = f"`{token}` → `{written}`, the text the failure expects"
                found.append((row, line[:start] + written + line[start + len(token) :], change, ()))
                found.extend(_cased_throughout(lines, rows, (row, start, token), new, language))
                found.extend(_stored_alike(lines, rows, (row, start, token), new))
            if not news:
                found.extend(_formats_spelled_out((row, start, token), line, pairs, language))
    return found


def _formats_spelled_out(
    literal: tuple[int, int, str], line: str, pairs: Sequence[tuple[str, str]], language: LanguageName
) -> Iterator[Fix]:
    """The format `literal` (row, column, token) on `line` with its own text as each pair's expected text has it."""
    row, start, token = literal
    holes = _HOLES.get(language)
    if holes is None or not holes.search(token[1:-1]):
        return
    reformatted = (_reformatted(token[1:-1], holes, *pair) for pair in pairs)
    for new in dict.fromkeys(new for new in reformatted if new is not None and _writable(new, token[0])):
        written = token[0] + new + token[0]
        change = f"`{token}` → `{written}`, the format's own text as the failure expects it"
        yield row, line[:start] + written + line[start + len(token) :], change, ()


# What a format fills in, by language: Go's verbs (`%b`, `%5.2f`), Python's `%s` and `{}` (format, f-strings).
_HOLES = {
    "go": re.compile(r"%[-+# 0]*(?:\d+)?(?:\.\d+)?[vTtbcdoOqxXUeEfFgGsp]"),
    "python": re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[sdifrxXeEgGc]|\{[^{}]*\}"),
}


def _reformatted(body: str, holes: re.Pattern[str], actual: str, expected: str) -> str | None:
    """The format `body` with its own text changed so that the values it filled into `actual` read as `expected`
    (`"db%bd"` gave `db0d` where `db0db` was expected: `"db%bdb"`); None where its holes cannot be told apart."""
    texts = holes.split(body)
    filled = holes.findall(body)
    pattern = "".join(re.escape(text) + ("(.+?)" if k < len(filled) else "") for k, text in enumerate(texts))
    match = re.fullmatch(pattern, actual, re.S)
    if match is None:
        return None
    new: list[str] = []
    at = 0
    for value in match.groups():
        found = expected.find(value, at)
        if found == -1:
            return None
        new.append(expected[at:found])
        at = found + len(value)
    new.append(expected[at:])
    if new == texts or any(holes.search(text) or "%" in text or "{" in text or "}" in text for text in new):
        return None
    return "".join(text + (filled[k] if k < len(filled) else "") for k, text in enumerate(new))


def widened_letters(
    lines: Sequence[str], rows: Iterable[int], texts: Iterable[tuple[str, str]], language: LanguageName
) -> list[Fix]:
    """Where the failure's texts hold a letter outside ASCII (`'Ana índia'` for `'Ana Índia'`), each pattern's class of
    ASCII letters (`[a-z]`, `[A-Za-z]`) widened to every letter: `\\w`, or letters alone (`[^\\W\\d_]`). Python's
    patterns only: JavaScript's `\\w` is ASCII."""
    if language != "python" or not any(_foreign_letter(actual + expected) for actual, expected in texts):
        return []
    found: list[Fix] = []
    for row, line, start, token, raw in _patterns(lines, rows, language):
        for ascii_class, wider in itertools.product(_ASCII_LETTERS, _WIDER):
            if ascii_class in token:
                written = token.replace(ascii_class, wider if raw else wider.replace("\\", "\\\\"))
                change = f"`{ascii_class}` → `{wider}`, as the failure's text holds a letter outside ASCII"
                found.append((row, line[:start] + written + line[start + len(token) :], change, ()))
    return found


def widened_blanks(lines: Sequence[str], rows: Iterable[int], tabbed: bool, language: LanguageName) -> list[Fix]:
    """Where the failing tests' strings hold a tab, each pattern's run of spaces (`' *'`, `' +'`) widened to spaces
    and tabs (`[ \\t]*`), or to any blank (`\\s*`): a pattern written for text indented with spaces alone."""
    if not tabbed:
        return []
    found: list[Fix] = []
    for row, line, start, token, raw in _patterns(lines, rows, language):
        for wider in _BLANKS if _SPACE_RUN.search(token) else ():
            blanks = wider if raw else wider.replace("\\", "\\\\")
            written = _SPACE_RUN.sub(rf"{blanks.replace(chr(92), chr(92) * 2)}\g<many>", token)
            change = f"a run of spaces → `{wider}`, as the failing tests' text holds a tab"
            found.append((row, line[:start] + written + line[start + len(token) :], change, ()))
    return found


def _patterns(
    lines: Sequence[str], rows: Iterable[int], language: LanguageName
) -> Iterator[tuple[int, str, int, str, bool]]:
    """(row, line, where it starts, the literal, whether it is raw) for each string on `rows` that may be a pattern:
    any but an f-string, whose braces are not a pattern's."""
    for row in rows:
        line = lines[row]
        for start, token in string_literals(line, language):
            prefix = token[: token.index(token[-1])].lower()
            if "f" not in prefix:
                yield row, line, start, token, "r" in prefix or token.startswith("`")


def joined_apart(
    lines: Sequence[str], rows: Iterable[int], texts: Iterable[tuple[str, str]], language: LanguageName
) -> list[Fix]:
    """Where an expected text is the actual one with a short piece put in (`'Watashi.eIGHt'` for `'WatashieIGHt'`),
    that piece between the two sides of each `+` on `rows` (`name + ext` → `name + "." + ext`) and between two
    neighbouring placeholders of a formatted string (`f"{a}{b}"` → `f"{a}.{b}"`): a separator left out."""
    pieces = dict.fromkeys(piece for actual, expected in texts if (piece := _put_in(actual, expected)))
    found: list[Fix] = []
    for row, piece in itertools.product(rows, pieces):
        line = lines[row]
        tokens = code_tokens(line, language)
        quote = '"' if '"' not in piece else "'"
        for at, (kind, text, start) in enumerate(tokens):
            if kind == "op" and text in ("+", "+=") and _joins_values(tokens, at):
                end = start + len(text)
                new = f"{line[:end]} {quote}{piece}{quote} +{line[end:]}"
                found.append(
                    (row, new, f"{quote}{piece}{quote} put in after `{text}`, the text the failure expects", ())
                )
            elif kind == "string" and _formats_placeholders(text, piece):
                joint = "}${" if text.startswith("`") else "}{"
                for gap in _occurrences(text, joint):
                    new_token = text[: gap + 1] + piece + text[gap + 1 :]
                    new = line[:start] + new_token + line[start + len(text) :]
                    found.append((row, new, f"`{piece}` put in between two placeholders, as the failure expects", ()))
    return found


def recased(
    lines: Sequence[str], rows: Iterable[int], texts: Iterable[tuple[str, str]], language: LanguageName
) -> list[Fix]:
    """Where an actual text differs from the expected one by case alone, in a way one of the language's own casings
    makes (`'AsDf'` for `'aSdF'`: swapped), that casing applied to each value a line on `rows` stores, adds, appends or
    returns (`new[k] = c` → `new[k] = c.swapcase()`)."""
    casings = _CASE_METHODS.get(language, {})
    wanted = dict.fromkeys(
        method
        for actual, expected in texts
        if actual != expected and actual.lower() == expected.lower()
        for method, casing in casings.items()
        if casing(actual) == expected
    )
    found: list[Fix] = []
    for row, method in itertools.product(rows, wanted):
        line = lines[row]
        for start, end in _stored_values(code_tokens(line, language)):
            value = line[start:end]
            new = f"{line[:start]}{value}.{method}(){line[end:]}"
            found.append((row, new, f"`{value}` → `{value}.{method}()`, in the case the failure expects", ()))
    return found


_CASE_METHODS: dict[str, dict[str, Callable[[str], str]]] = {
    "python": {"swapcase": str.swapcase, "upper": str.upper, "lower": str.lower, "capitalize": str.capitalize},
    "javascript": {"toUpperCase": str.upper, "toLowerCase": str.lower},
    "typescript": {"toUpperCase": str.upper, "toLowerCase": str.lower},
}
_PIECE_MOST = 3
"""The longest piece put in between two joined texts: a separator, not a word."""


def _put_in(actual: str, expected: str) -> str | None:
    """The piece `expected` has in one place that `actual` lacks, where that is all that differs; else None."""
    extra = len(expected) - len(actual)
    if not 0 < extra <= _PIECE_MOST:
        return None
    same = 0
    while same < len(actual) and actual[same] == expected[same]:
        same += 1
    piece = expected[same : same + extra]
    if expected[:same] + expected[same + extra :] != actual or not _writable(piece, '"') or "{" in piece:
        return None
    return piece


def _joins_values(tokens: Sequence[tuple[str, str, int]], at: int) -> bool:
    """Whether the `+` at `at` joins two values that may be texts (neither side a number written out)."""
    if at == 0 or at + 1 >= len(tokens):
        return False
    before, after = tokens[at - 1], tokens[at + 1]
    assigning = tokens[at][1] == "+="
    return (assigning or before[0] in ("name", "string") or before[1] in (")", "]")) and after[0] in ("name", "string")


def _formats_placeholders(token: str, piece: str) -> bool:
    """Whether `token` is an f-string or a template literal that can hold `piece` as it is."""
    if token.startswith("`"):
        return "`" not in piece and "$" not in piece
    return token.lower().startswith(("f'", 'f"')) and token[1] not in piece


def _occurrences(text: str, joint: str) -> Iterator[int]:
    at = text.find(joint)
    while at != -1:
        yield at
        at = text.find(joint, at + 1)


def _stored_values(tokens: Sequence[tuple[str, str, int]]) -> Iterator[tuple[int, int]]:
    """Where a plain value (a name, or a name indexed by a name: `c`, `s[i]`) stands alone after `=`, `+=`, `return` or
    as an `append`/`push` call's one argument: the values a line stores, adds, appends or returns."""
    texts = [text for _, text, _ in tokens]
    for at, (_, text, _) in enumerate(tokens):
        opens = text in ("=", "+=", "return") or (
            text == "(" and at >= 2 and texts[at - 2] == "." and texts[at - 1] in ("append", "push")
        )
        if not opens or at + 1 >= len(tokens) or tokens[at + 1][0] != "name":
            continue
        last = at + 1
        if texts[last + 1 : last + 4] and texts[last + 1] == "[" and texts[last + 3 : last + 4] == ["]"]:
            last += 3
        follows = texts[last + 1] if last + 1 < len(texts) else ""
        if follows in ("", ")", ";", ","):
            kind, text_last, start_last = tokens[last]
            yield tokens[at + 1][2], start_last + len(text_last)


_SPACE_RUN = re.compile(r"(?<![\\\[]) (?P<many>[*+])")
"""A pattern's run of spaces: one space repeated (` *`, ` +`), none escaped or inside a class."""
_BLANKS = (r"[ \t]", r"\s")
"""Spaces and tabs, and any blank."""
_ASCII_LETTERS = ("[a-zA-Z]", "[A-Za-z]", "[a-z]", "[A-Z]")
_WIDER = (r"\w", r"[^\W\d_]")
"""Every letter, and digits and `_` too (`\\w`, as a word is read), or letters alone."""


def requoted(lines: Sequence[str], rows: Iterable[int], quoted: Iterable[str]) -> list[Fix]:
    """Python literals on `rows` that put quotes of their own around a value's repr, which brings its own
    (`f'Found "{c!r}"'` writes `Found "'x'"`), the value left to quote itself: where the failure quotes the literal's
    own text."""
    quotes = list(quoted)
    found: list[Fix] = []
    for row in rows:
        line = lines[row]
        for start, token in string_literals(line, "python"):
            prefix = token[: len(token) - len(token.lstrip("rRbBuUfF"))]
            if _REPR.search(token) is None or not _quotes_own_text(_REPR.sub("", token[len(prefix) + 1 : -1]), quotes):
                continue
            written = _REPR.sub(lambda match: match["hole"], token)
            change = f"`{token}` → `{written}`: a repr brings its own quotes"
            found.append((row, line[:start] + written + line[start + len(token) :], change, ()))
    return found


_REPR = re.compile(r"""(?P<escape>\\?)(?P<quote>["'])(?P<hole>\{[^{}'"]*!r\}|%r)(?P=escape)(?P=quote)""")
"""A repr's hole (`{x!r}`, `%r`) between quotes of the literal's own, escaped or not."""


def _quotes_own_text(text: str, quotes: Sequence[str]) -> bool:
    """Whether some quote of the failure holds a word of four letters or more of `text`, the literal's own text."""
    words = [word for word in re.findall(r"[A-Za-z]{4,}", text)]
    return bool(words) and any(all(word in quote for word in words) for quote in quotes)


def _foreign_letter(text: str) -> bool:
    return any(char.isalpha() and not char.isascii() for char in text)


def _plain_body(token: str) -> str | None:
    """The text of a literal without a prefix or an escape (`'yes'` → `yes`); None for any other."""
    if len(token) < 3 or token[0] not in "'\"" or token[-1] != token[0] or "\\" in token:
        return None
    return token[1:-1]


def _writable(text: str, quote: str) -> bool:
    """Whether `text` can stand between `quote`s as it is."""
    return quote not in text and "\\" not in text and "\n" not in text


def _rewritten(body: str, actual: str, expected: str) -> Iterator[str]:
    """What `body` becomes where it stands in `actual` over all that differs from `expected`."""
    same_start = 0
    while same_start < min(len(actual), len(expected)) and actual[same_start] == expected[same_start]:
        same_start += 1
    same_end = 0
    room = min(len(actual), len(expected)) - same_start
    while same_end < room and actual[-1 - same_end] == expected[-1 - same_end]:
        same_end += 1
    differs_from, differs_to = same_start, len(actual) - same_end
    at = actual.find(body)
    while at != -1:
        end = at + len(body)
        if at <= differs_from and end >= differs_to:
            new = expected[at : len(expected) - (len(actual) - end)]
            if new != body:
                yield new
        at = actual.find(body, at + 1)


def _cased_throughout(
    lines: Sequence[str], rows: list[int], literal: tuple[int, int, str], new: str, language: LanguageName
) -> Iterator[Fix]:
    """Where `new` is the literal's text in another case, the same casing of every literal on `rows` written in the
    literal's case, as one change."""
    row, start, token = literal
    body = token[1:-1]
    if new == body or new.lower() != body.lower():
        return
    for name, casing in _CASINGS:
        if casing(body) != new:
            continue
        rewritten = {r: _recased(lines[r], language, casing, _shape(body)) for r in rows}
        also = tuple((r, text) for r, text in rewritten.items() if r != row and text != lines[r])
        here = rewritten[row]
        if also or here != lines[row][:start] + token[0] + new + token[0] + lines[row][start + len(token) :]:
            yield row, here, f"the literals written like `{token}` {name} throughout, as the failure expects", also
        return


# A name set to a literal alone: `t = ','`, `let t = ',';`, `t := ","`.
_STORE = re.compile(r"^\s*(?:(?:let|var|const)\s+)?(?P<name>[\w$.]+)\s*:?=\s*$")


def _stored_alike(lines: Sequence[str], rows: list[int], literal: tuple[int, int, str], new: str) -> Iterator[Fix]:
    """Where the literal is what a name is set to, the same change to every line on `rows` that sets that name to
    the same literal, as one change: a value's start and its resets are written alike, and the failure shows only
    what both together make."""
    row, start, token = literal
    stored = _stored_name(lines[row], start, token)
    if stored is None:
        return
    written = token[0] + new + token[0]
    also = tuple(
        (other, lines[other].replace(token, written, 1))
        for other in rows
        if other != row and _stored_name(lines[other], lines[other].find(token), token) == stored
    )
    if also and row < also[0][0]:  # offered once, from the first of the lines
        here = lines[row][:start] + written + lines[row][start + len(token) :]
        yield row, here, f"`{token}` → `{written}` wherever `{stored}` is set to it, as the failure expects", also


def _stored_name(line: str, start: int, token: str) -> str | None:
    """The name `line` sets to the literal `token` at `start` and nothing else, or None."""
    if start < 0 or line[start + len(token) :].strip().rstrip(";").strip():
        return None
    store = _STORE.match(line[:start])
    return store["name"] if store is not None else None


def _recased(line: str, language: LanguageName, casing: Callable[[str], str], shape: str) -> str:
    """`line` with each plain literal of case `shape` passed through `casing`."""
    for start, token in reversed(string_literals(line, language)):
        body = _plain_body(token)
        if body is None or _shape(body) != shape:
            continue
        new = casing(body)
        if _writable(new, token[0]):
            line = line[:start] + token[0] + new + token[0] + line[start + len(token) :]
    return line


def _shape(text: str) -> str:
    """The case a text is written in: lower, upper, capitalised, or other (no letters, or mixed)."""
    if not any(char.isalpha() for char in text):
        return "other"
    if text.islower():
        return "lower"
    if text.isupper():
        return "upper"
    return "capitalised" if text == text.capitalize() else "other"

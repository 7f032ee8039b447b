"""A set of characters written out (`["a", "e", "i", "o", "u", "y"]`, `"aeiou"` that a character is looked up in)
holding one the failure's text shows was wrongly taken or left, or lacking one: that character taken out, or put in.

`remove_vowels("ybcd")` gave `'bcd'` where `'ybcd'` was expected: the `y` the actual text lacks is in the list of
vowels, so the list without it is the likeliest fix; a character the actual text has and the expected lacks, missing
from the list, is put in. A character one text escapes and the other does not (`'/%7E'` where `'/~'` was expected)
names the set of characters left as they are: `UNRESERVED = ALPHA + DIGIT + "._!-"` lacked the `~`.
"""

from __future__ import annotations

import difflib
import html
import re
import urllib.parse
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from pedro.repair.mutants import string_literals
from pedro.repair.text_slips import Fix
from pedro.tools.symbols import LanguageName

# A bracketed list of items (`[...]`, Go's `{...}`), and one item of it that is a single character in quotes.
_BRACKETED = re.compile(r"[\[{](?P<items>[^\[\]{}()]*)[\]}]")
_CHARACTER = re.compile(r"""^\s*(?P<q>['"])(?P<c>[^'"\\])(?P=q)\s*$""")
# A text a character is looked up in: Python's `c in "aeiou"`, JavaScript's `"aeiou".includes(c)`, Go's
# `strings.ContainsRune("aeiou", c)`.
_LOOKED_UP_BEFORE = re.compile(r"(?:\bin\s+|strings\.Contains(?:Rune|Any)?\(\s*)$")
_LOOKED_UP_AFTER = re.compile(r"^\.(?:includes|indexOf)\(")
_FEWEST = 3
"""The fewest characters a set written out has: fewer is a pair, not a set."""
_MOST_CHANGED = 3
"""The most characters an actual and an expected text may differ by for the difference to name one of a set."""
_ESCAPED = re.compile(r"%[0-9A-Fa-f]{2}|&#?\w+;|\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4})")
"""A character written escaped: percent-encoded, an HTML entity, a backslash escape."""


def character_sets(
    lines: Sequence[str], rows: Iterable[int], texts: Iterable[tuple[str, str]], language: LanguageName
) -> list[Fix]:
    """Each set of characters on `rows` with a character the failure's (actual, expected) texts differ by taken
    out, where the set holds it, or put in, where it does not."""
    wrong = dict.fromkeys(char for actual, expected in texts for char in _differing(actual, expected))
    if not wrong:
        return []
    found: list[Fix] = []
    for row in rows:
        line = lines[row]
        for start, end, members, quote in _sets(line, language):
            for char in wrong:
                new = _changed(members, char)
                if new is None:
                    continue
                written = _written(line[start:end], members, new, quote)
                verb = "taken out of" if len(new) < len(members) else "put in"
                change = f"`{char}` {verb} the set of characters `{line[start:end]}`, as the failure's text shows"
                found.append((row, line[:start] + written + line[end:], change, ()))
    return found


def _differing(actual: str, expected: str) -> list[str]:
    """The characters one text has and the other lacks, or writes escaped, where that is all that differs and it is a
    few at most."""
    escaped = _escaped_characters(actual, expected) or _escaped_characters(expected, actual)
    if escaped:
        return escaped if len(escaped) <= _MOST_CHANGED else []
    ops = difflib.SequenceMatcher(None, actual, expected, autojunk=False).get_opcodes()
    if any(op == "replace" for op, *_ in ops):
        return []
    changed = [actual[a1:a2] if op == "delete" else expected[b1:b2] for op, a1, a2, b1, b2 in ops if op != "equal"]
    chars = "".join(changed)
    return list(dict.fromkeys(chars)) if 0 < len(chars) <= _MOST_CHANGED and not chars.isspace() else []


def _escaped_characters(escaped: str, plain: str) -> list[str]:
    """The characters `escaped` writes escaped where `plain` has them as they are (`/%7E` for `/~`), where that is
    all they differ by, else none."""
    extra = Counter(_ESCAPED.findall(escaped)) - Counter(_ESCAPED.findall(plain))
    if not extra:
        return []
    for read in (urllib.parse.unquote, html.unescape, _unbackslashed):
        if read(escaped) == read(plain):
            return list(dict.fromkeys(read(piece) for piece in extra))
    return []


def _unbackslashed(text: str) -> str:
    """The text with its `\\xNN` and `\\uNNNN` escapes read."""
    return _ESCAPED.sub(lambda m: chr(int(m[0][2:], 16)) if m[0].startswith("\\") else m[0], text)


def _sets(line: str, language: LanguageName) -> Iterator[tuple[int, int, list[str], str]]:
    """(start, end, its characters, its quote) for each set of characters written out on the line: a list of
    single characters, or a text a character is looked up in."""
    for match in _BRACKETED.finditer(line):
        items = [_CHARACTER.match(item) for item in match["items"].rstrip().rstrip(",").split(",")]
        chars = [item["c"] for item in items if item]
        if len(chars) == len(items) >= _FEWEST and len(set(chars)) == len(chars):
            quote = next(item["q"] for item in items if item)
            yield match.start("items"), match.end("items"), chars, quote
    for start, token in string_literals(line, language):
        prefix = len(token) - len(token.lstrip("rRbBuU"))
        looked_up = _LOOKED_UP_BEFORE.search(line[:start]) or _LOOKED_UP_AFTER.match(line[start + len(token) :])
        if (looked_up or _marks(token[prefix + 1 : -1])) and _plain_set(token[prefix:]):
            yield start + prefix + 1, start + len(token) - 1, list(token[prefix + 1 : -1]), ""


def _marks(body: str) -> bool:
    """Whether a text is punctuation alone: a set whatever reads it (`ALPHA + DIGIT + "._!-"`), as no prose is."""
    return not any(char.isalnum() or char.isspace() for char in body)


def _plain_set(token: str) -> bool:
    """Whether a quoted token (its prefix taken off) is a plain text of distinct characters, enough to be a set."""
    body = token[1:-1]
    quoted = token[0] == token[-1] and token[0] in "'\"" and "\\" not in body
    return quoted and len(body) >= _FEWEST and len(set(body)) == len(body)


def _changed(members: list[str], char: str) -> list[str] | None:
    """The set without `char` (in either case where it is a letter of a set in one case), or with it added in the
    set's case; None where that would empty it."""
    folded = {member.lower() for member in members}
    if char.lower() in folded and char.isalpha() or char in members:
        kept = [member for member in members if member.lower() != char.lower()]
        return kept if kept else None
    lower = all(member.lower() == member for member in members)
    return [*members, char.lower() if lower and char.isalpha() else char]


def _written(old: str, members: list[str], new: list[str], quote: str) -> str:
    """The set's text with `new` for `members`: a list in its own spacing, or the looked-up text's body."""
    if not quote:
        return "".join(new)
    separator = ", " if ", " in old else ","
    lead = old[: len(old) - len(old.lstrip())]
    trail = old[len(old.rstrip()) :]
    return lead + separator.join(f"{quote}{char}{quote}" for char in new) + trail

"""A set of characters written out holding one the failure's text shows was wrongly taken (or lacking one): that
character taken out (or put in), in each language's way of writing a set, and a vowel remover fixed for real."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_among_the_first

from pedro.repair.character_sets import character_sets
from pedro.tools.symbols import LanguageName


def fixed(line: str, texts: list[tuple[str, str]], language: LanguageName = "python") -> list[str]:
    return [text.strip() for _row, text, _change, _also in character_sets([line], [0], texts, language)]


def test_a_character_the_actual_text_lacks_is_taken_out_of_the_set_that_holds_it() -> None:
    line = '    return "".join(s for s in text if s.lower() not in ["a", "e", "i", "o", "u", "y"])'
    assert fixed(line, [("bcd", "ybcd")]) == [
        'return "".join(s for s in text if s.lower() not in ["a", "e", "i", "o", "u"])'
    ]
    js = '  return [...s].filter(c => !["a", "e", "i", "o", "u", "y"].includes(c.toLowerCase())).join("");'
    assert fixed(js, [("bcd", "Ybcd")], "javascript") == [
        'return [...s].filter(c => !["a", "e", "i", "o", "u"].includes(c.toLowerCase())).join("");'
    ]
    go = "\tvowels := []rune{'a', 'e', 'i', 'o', 'u', 'y'}"
    assert fixed(go, [("bcd", "ybcd")], "go") == ["vowels := []rune{'a', 'e', 'i', 'o', 'u'}"]


def test_a_character_the_actual_text_keeps_is_put_in_a_looked_up_text_that_lacks_it() -> None:
    assert fixed('    if c in "aeio":', [("ubc", "bc")]) == ['if c in "aeiou":']
    assert fixed('\tif strings.ContainsRune("aeio", c) {', [("ubc", "bc")], "go") == [
        'if strings.ContainsRune("aeiou", c) {'
    ]
    assert fixed('  if ("aeio".includes(c)) {', [("ubc", "bc")], "javascript") == ['if ("aeiou".includes(c)) {']


def test_texts_that_differ_otherwise_and_lists_that_are_no_set_of_characters_give_nothing() -> None:
    line = '    if c in ["a", "e", "y"]:'
    assert fixed(line, [("bcd", "xyz")]) == []  # replaced, not one character taken or left
    assert fixed(line, [("b", "b    ")]) == []  # spaces alone
    assert fixed(line, [("b", "byyyy")]) == []  # more than a few characters
    assert fixed('    if c in ["a", "y"]:', [("bcd", "ybcd")]) == []  # a pair, not a set
    assert fixed('    if c in ["ab", "cd", "y"]:', [("bcd", "ybcd")]) == []  # words, not characters
    assert fixed('    print("aeiouy")', [("bcd", "ybcd")]) == []  # a text, not one looked up in


def test_a_vowel_remover_that_also_removes_y_is_fixed_by_a_variant(repo: Path) -> None:
    code = (
        "def remove_vowels(text):\n"
        '    """The text without its vowels."""\n'
        '    return "".join([s for s in text if s.lower() not in ["a", "e", "i", "o", "u", "y"]])\n'
    )
    test = (
        "from vowels import remove_vowels\n\n\ndef test_remove_vowels():\n"
        "    assert remove_vowels('fedcba') == 'fdcb'\n    assert remove_vowels('ybcd') == 'ybcd'\n"
    )
    fixed_among_the_first(repo, {"vowels.py": code, "test_vowels.py": test}, "`y` taken out of the set")
    assert '["a", "e", "i", "o", "u"]' in (repo / "vowels.py").read_text()


def test_a_character_the_actual_text_escapes_is_put_in_the_set_of_those_left_as_they_are() -> None:
    line = 'UNRESERVED = UNRESERVED_CHARS = ALPHA + DIGIT + r"._!-"'
    assert fixed(line, [("/%7E", "/~")]) == ['UNRESERVED = UNRESERVED_CHARS = ALPHA + DIGIT + r"._!-~"']
    assert fixed('SAFE = "-_."', [("a&amp;b", "a&b")]) == ['SAFE = "-_.&"']
    assert fixed('SAFE = "-_."', [("a\\x7eb", "a~b")]) == ['SAFE = "-_.~"']
    # Taken out where the set holds a character the expected text escapes.
    assert fixed('SAFE = "-_.~"', [("/~", "/%7E")]) == ['SAFE = "-_."']
    # A replacement that is no escape of the other text, or punctuation with words in it, is no set.
    assert fixed('SAFE = "-_."', [("/%7F", "/~")]) == []
    assert fixed('    print("-- done --")', [("/%7E", "/~")]) == []


def test_a_url_encoder_that_escapes_the_tilde_is_fixed_by_a_variant(repo: Path) -> None:
    code = (
        "import string\n\n"
        'UNRESERVED = string.ascii_letters + string.digits + "._-"\n\n\n'
        "def encode(text):\n"
        '    """The text percent-encoded, its unreserved characters left as they are."""\n'
        '    return "".join(c if c in UNRESERVED else "%{:02X}".format(ord(c)) for c in text)\n'
    )
    test = (
        "from urls import encode\n\n\ndef test_encode():\n"
        "    assert encode('a b') == 'a%20b'\n    assert encode('/~') == '%2F~'\n"
    )
    fixed_among_the_first(repo, {"urls.py": code, "test_urls.py": test}, "`~` put in the set")
    assert '"._-~"' in (repo / "urls.py").read_text()
